package expr

import (
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"testing"
)

// exactWithin reports whether |q·2^p - m| <= 1, computed exactly: the
// contract of approx (|x - m·2^-p| <= 2^-p).
func exactWithin(q *big.Rat, p int, m *big.Int) bool {
	scaled := new(big.Rat).Set(q)
	two := new(big.Rat).SetInt(new(big.Int).Lsh(big1, uint(abs(p))))
	if p >= 0 {
		scaled.Mul(scaled, two)
	} else {
		scaled.Quo(scaled, two)
	}
	d := scaled.Sub(scaled, new(big.Rat).SetInt(m))
	return d.Abs(d).Cmp(big.NewRat(1, 1)) <= 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestApproxContractExtremeMagnitudes checks products, sums and negations of
// rationals from 2^-4000 to 2^4000 against exact rational arithmetic, at
// precisions from far coarser than the value (a magnitude probe) to far
// finer: every approximation within 2^-p, every bound an upper bound, every
// magnitude an upper bound. Products of a huge and a tiny factor are where
// mulReal's precision split has to balance its operands.
func TestApproxContractExtremeMagnitudes(t *testing.T) {
	rng := rand.New(rand.NewSource(20261202))
	randRat := func() *big.Rat {
		e := rng.Intn(8001) - 4000
		num := new(big.Int).Rand(rng, new(big.Int).Lsh(big1, uint(1+rng.Intn(200))))
		num.Add(num, big1)
		if rng.Intn(2) == 0 {
			num.Neg(num)
		}
		q := new(big.Rat).SetFrac(num, new(big.Int).Lsh(big1, uint(rng.Intn(200))))
		two := new(big.Rat).SetInt(new(big.Int).Lsh(big1, uint(abs(e))))
		if e >= 0 {
			return q.Mul(q, two)
		}
		return q.Quo(q, two)
	}
	precisions := []int{-12000, -4000, -300, -1, 0, 1, 60, 4000, 12000}
	checked := 0
	for i := range 300 {
		ev := &evaluator{ctx: context.Background()}
		q1, q2, q3 := randRat(), randRat(), randRat()
		r1, r2, r3 := ev.ratReal(q1), ev.ratReal(q2), ev.ratReal(q3)
		if i%2 == 1 {
			// Operands whose approximations use their whole error budget,
			// in the direction the case picks.
			r1, r2, r3 = edgeReal(ev, q1, i%4 == 1), edgeReal(ev, q2, i%3 == 1), edgeReal(ev, q3, i%8 == 1)
		}
		nodes := []struct {
			name string
			x    *real
			q    *big.Rat
		}{
			{"a·b", ev.mulReal(r1, r2), new(big.Rat).Mul(q1, q2)},
			{"(a·b)·c", ev.mulReal(ev.mulReal(r1, r2), r3), new(big.Rat).Mul(new(big.Rat).Mul(q1, q2), q3)},
			{"a·b + c", ev.addReal(ev.mulReal(r1, r2), r3), new(big.Rat).Add(new(big.Rat).Mul(q1, q2), q3)},
			{"-(a·b)·(a·b)", ev.mulReal(ev.negReal(ev.mulReal(r1, r2)), ev.mulReal(r1, r2)),
				new(big.Rat).Neg(new(big.Rat).Mul(new(big.Rat).Mul(q1, q2), new(big.Rat).Mul(q1, q2)))},
			{"a·b - a·b", ev.addReal(ev.mulReal(r1, r2), ev.negReal(ev.mulReal(r1, r2))), new(big.Rat)},
		}
		for _, n := range nodes {
			what := fmt.Sprintf("case %d %s with a=%s… b=%s… c=%s…", i, n.name, short(q1), short(q2), short(q3))
			if n.q.Sign() != 0 {
				if lim := ratBitLen(n.q); n.x.bound() < lim || n.x.mag() < lim {
					t.Fatalf("%s: bound %d, mag %d, but |x| > 2^%d", what, n.x.bound(), n.x.mag(), lim-1)
				}
				// A lower bound, structural or approximated, is a lower bound.
				s, k, ok := n.x.lowerBound(decisionCap)
				low := new(big.Rat).SetFrac(big1, new(big.Int).Lsh(big1, uint(max(k, 0))))
				if k < 0 {
					low.SetInt(new(big.Int).Lsh(big1, uint(-k)))
				}
				if ok && (s != n.q.Sign() || new(big.Rat).Abs(n.q).Cmp(low) < 0) {
					t.Fatalf("%s: lowerBound says sign %d, |x| >= 2^-%d; x = %s…", what, s, k, short(n.q))
				}
				if !ok && -ratBitLen(n.q) < decisionCap-2 {
					t.Fatalf("%s: no lower bound for a value above 2^-%d", what, decisionCap-2)
				}
			}
			// Fresh nodes per precision order: coarse first (as probes go),
			// then fine first (the cache rounding down).
			for _, p := range precisions {
				if m := n.x.approx(p); !exactWithin(n.q, p, m) {
					t.Fatalf("%s: approx(%d) = %s…, not within 2^-%d", what, p, m.Text(16)[:min(16, len(m.Text(16)))], p)
				}
				checked++
			}
		}
	}
	t.Logf("%d approximations checked", checked)
}

// edgeReal is q as a node whose approximations are off by almost a whole unit
// (up: m in (y, y+1] for y = q·2^p; down: m in [y-1, y)), the most approx's
// contract allows, so that a precision split one bit too coarse shows.
func edgeReal(ev *evaluator, q *big.Rat, up bool) *real {
	x := ev.newReal(func(p int) *big.Int {
		n, d := new(big.Int).Set(q.Num()), new(big.Int).Set(q.Denom())
		if p >= 0 {
			n.Lsh(n, uint(p))
		} else {
			d.Lsh(d, uint(-p))
		}
		fl, rem := new(big.Int).DivMod(n, d, new(big.Int)) // floor: d > 0
		switch {
		case up:
			return fl.Add(fl, big1)
		case rem.Sign() == 0:
			return fl.Sub(fl, big1)
		}
		return fl
	})
	if q.Sign() != 0 {
		x.withBound(q.Num().BitLen() - q.Denom().BitLen() + 1)
	}
	return x
}

// ratBitLen is bitlen(num) - bitlen(den): |q| > 2^(ratBitLen-1), so no e
// below it has |q| <= 2^e.
func ratBitLen(q *big.Rat) int {
	return q.Num().BitLen() - q.Denom().BitLen()
}

func short(q *big.Rat) string {
	s := q.FloatString(3)
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
