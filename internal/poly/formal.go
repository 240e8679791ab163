package poly

import (
	"errors"
	"math/big"
	"slices"
	"strings"
)

// Exact evaluation of printed roots in a tower of radicals, for the root
// self-check. Every radical becomes a generator t with one relation t^d = E:
//
//   - a rational power of a positive integer is written over the primes
//     below 2^15 (and a leftover cofactor): p^(m/k) = t_p^(m·L/k) with
//     t_p = p^(1/L) > 0 and t_p^L = p, L a multiple of every k met for p;
//   - (-1)^(m/k) = t^(m·L/k) with t = exp(iπ/L), t^L = -1 (I is (-1)^(1/2)),
//     which is how principal powers of negative rationals split off;
//   - a root of anything else, E^(m/k), is s^m with s^k = E.
//
// Every relation holds for the principal values SymPy means, so a result
// that reduces to exactly zero is a proof that the printed root satisfies
// the equation. The converse may fail (relations between generators that
// are not modelled, e.g. 2**(1/3) against 16**(1/3) under other bases);
// the caller then falls back to a high-precision check.

type fgen struct {
	deg int
	rel MPoly // t^deg = rel (rel uses only earlier generators)
}

type formalEval struct {
	vars   map[string]*big.Rat
	gens   []fgen
	byKey  map[string]int // generator key -> index
	degFor map[string]int // base key ("-1", prime, cofactor) -> L
	budget int            // coefficient multiplications left
	facts  map[string][]primePower
}

type primePower struct {
	base string // decimal prime or cofactor
	p    *big.Int
	e    int
}

var (
	errFormalGiveUp = errors.New("poly: no exact evaluation")
	errFormalGrow   = errors.New("poly: restart with larger generator degrees")
)

// formalZero reports whether every polynomial value f(root) is exactly zero,
// for cs the coefficients of f (cs[i] of x^i) at the parameter values vars.
// ok is false when the exact evaluation is not available (CRootOf, a budget
// exceeded, a division by a non-rational value) or does not prove zero.
func formalZero(n *snode, cs []*big.Rat, vars map[string]*big.Rat, budget int) bool {
	degFor := map[string]int{}
	facts := map[string][]primePower{}
	for range 8 {
		fe := &formalEval{vars: vars, byKey: map[string]int{}, degFor: degFor, budget: budget, facts: facts}
		r, err := fe.eval(n)
		if err == nil {
			// Horner
			v := MPoly{}
			for i := len(cs) - 1; i >= 0; i-- {
				if v, err = fe.mul(v, r); err != nil {
					break
				}
				addInto(v, "", cs[i])
			}
			if err == nil {
				return len(v) == 0
			}
		}
		if !errors.Is(err, errFormalGrow) {
			return false
		}
	}
	return false
}

func (fe *formalEval) spend(n int) error {
	fe.budget -= n
	if fe.budget < 0 {
		return errFormalGiveUp
	}
	return nil
}

// mul multiplies and reduces by the relations, highest generator first.
func (fe *formalEval) mul(a, b MPoly) (MPoly, error) {
	if err := fe.spend(len(a) * len(b)); err != nil {
		return nil, err
	}
	if a.maxCoeffBits()+b.maxCoeffBits() > maxFormalBits {
		return nil, errFormalGiveUp
	}
	return fe.reduce(a.mul(b))
}

// maxFormalBits bounds the size of the exact numbers (printed roots and the
// equation's coefficients stay far below it).
const maxFormalBits = 1 << 16

func (fe *formalEval) reduce(p MPoly) (MPoly, error) {
	for j := len(fe.gens) - 1; j >= 0; j-- {
		g := fe.gens[j]
		var out MPoly
		for m, c := range p {
			if j >= len(m) || int(m[j]) < g.deg {
				continue
			}
			if out == nil {
				out = MPoly{}
				for m2, c2 := range p {
					if j >= len(m2) || int(m2[j]) < g.deg {
						out[m2] = c2
					}
				}
			}
			q, r := int(m[j])/g.deg, int(m[j])%g.deg
			b := []byte(m)
			b[j] = byte(r)
			t := MPoly{trimMono(b): c}
			for range q {
				var err error
				if err = fe.spend(len(t) * len(g.rel)); err != nil {
					return nil, err
				}
				t = t.mul(g.rel)
			}
			for m2, c2 := range t {
				addInto(out, m2, c2)
			}
		}
		if out != nil {
			p = out
			// lower generators may now exceed their degrees: handled as j decreases;
			// generator j itself cannot reappear (relations use earlier generators).
		}
	}
	return p, nil
}

// gen returns generator index for key, creating it.
func (fe *formalEval) gen(key string, deg int, rel MPoly) (int, error) {
	if i, ok := fe.byKey[key]; ok {
		return i, nil
	}
	if len(fe.gens) >= 24 || deg > 120 {
		return 0, errFormalGiveUp
	}
	fe.gens = append(fe.gens, fgen{deg: deg, rel: rel})
	fe.byKey[key] = len(fe.gens) - 1
	return len(fe.gens) - 1, nil
}

func genPow(i, e int) MPoly {
	b := make([]byte, i+1)
	b[i] = byte(e)
	return MPoly{trimMono(b): big.NewRat(1, 1)}
}

func polyKey(p MPoly) string {
	ks := make([]string, 0, len(p))
	for m, c := range p {
		ks = append(ks, string(m)+"\x00"+c.RatString())
	}
	slices.Sort(ks)
	return strings.Join(ks, "\x01")
}

func (fe *formalEval) eval(n *snode) (MPoly, error) {
	switch n.op {
	case 'n':
		return constPoly(n.num), nil
	case 's':
		v, ok := fe.vars[n.name]
		if !ok {
			return nil, errFormalGiveUp
		}
		return constPoly(v), nil
	case 'i':
		return fe.ratPow(big.NewRat(-1, 1), big.NewRat(1, 2))
	case '-':
		a, err := fe.eval(n.kids[0])
		if err != nil {
			return nil, err
		}
		return a.scale(big.NewRat(-1, 1)), nil
	case '+':
		acc := MPoly{}
		for _, k := range n.kids {
			a, err := fe.eval(k)
			if err != nil {
				return nil, err
			}
			acc = acc.add(a, 1)
		}
		return acc, nil
	case '*', '/':
		a, err := fe.eval(n.kids[0])
		if err != nil {
			return nil, err
		}
		b, err := fe.eval(n.kids[1])
		if err != nil {
			return nil, err
		}
		if n.op == '*' {
			return fe.mul(a, b)
		}
		if !b.isConst() || len(b) == 0 {
			return nil, errFormalGiveUp
		}
		return a.scale(new(big.Rat).Inv(b.constValue())), nil
	case '^':
		a, err := fe.eval(n.kids[0])
		if err != nil {
			return nil, err
		}
		q := n.num
		if !q.Num().IsInt64() || abs64(q.Num().Int64()) > 256 || !q.Denom().IsInt64() || q.Denom().Int64() > 64 {
			return nil, errFormalGiveUp
		}
		if a.isConst() {
			return fe.ratPow(a.constValue(), q)
		}
		m, k := int(q.Num().Int64()), int(q.Denom().Int64())
		if m < 0 {
			return nil, errFormalGiveUp
		}
		base := a
		if k > 1 {
			i, err := fe.gen("E"+itoa(k)+"\x02"+polyKey(a), k, a)
			if err != nil {
				return nil, err
			}
			base = genPow(i, 1)
		}
		res := constPoly(big.NewRat(1, 1))
		for range m {
			if res, err = fe.mul(res, base); err != nil {
				return nil, err
			}
		}
		return res, nil
	}
	return nil, errFormalGiveUp
}

// ratPow is the principal value r^q of a rational r and a rational q.
func (fe *formalEval) ratPow(r, q *big.Rat) (MPoly, error) {
	m, k := q.Num().Int64(), q.Denom().Int64()
	if r.Sign() == 0 {
		if m <= 0 {
			return nil, errFormalGiveUp
		}
		return MPoly{}, nil
	}
	if int64(r.Num().BitLen()+r.Denom().BitLen())*abs64(m) > maxFormalBits {
		return nil, errFormalGiveUp
	}
	// integer part of the exponent applies to the rational as is
	if k == 1 {
		return constPoly(ratPowInt(r, m)), nil
	}
	out := constPoly(big.NewRat(1, 1))
	if r.Sign() < 0 {
		// (-1)^(m/k) = t^(m·L/k), t^L = -1
		t, err := fe.baseRoot("-1", big.NewInt(-1), m, k)
		if err != nil {
			return nil, err
		}
		out = t
	}
	// |r|^(m/k) = (n·d^(k-1))^(m/k) / d^m
	n := new(big.Int).Abs(r.Num())
	d := r.Denom()
	N := new(big.Int).Mul(n, new(big.Int).Exp(d, big.NewInt(k-1), nil))
	if N.BitLen() > 1<<14 {
		return nil, errFormalGiveUp
	}
	for _, pp := range fe.factor(N) {
		t, err := fe.baseRoot(pp.base, pp.p, int64(pp.e)*m, k)
		if err != nil {
			return nil, err
		}
		if out, err = fe.mul(out, t); err != nil {
			return nil, err
		}
	}
	return out.scale(ratPowInt(new(big.Rat).SetInt(d), -m)), nil
}

// baseRoot is b^(e/k) for the base b (a prime, a cofactor or -1) through its
// generator t_b (t_b^L = b): t_b^(e·L/k) reduced to t_b^r · b^q.
func (fe *formalEval) baseRoot(key string, b *big.Int, e, k int64) (MPoly, error) {
	L := fe.degFor[key]
	if L == 0 {
		L = 1
	}
	if L%int(k) != 0 {
		L = lcm(L, int(k))
		fe.degFor[key] = L
		if _, made := fe.byKey["B"+key]; made {
			// values already computed use the smaller degree: start again
			return nil, errFormalGrow
		}
	}
	ex := e * int64(L) / k
	q, r := ex/int64(L), ex%int64(L)
	if r < 0 {
		r += int64(L)
		q--
	}
	c := ratPowInt(new(big.Rat).SetInt(b), q)
	if r == 0 {
		return constPoly(c), nil
	}
	i, err := fe.gen("B"+key, L, constPoly(new(big.Rat).SetInt(b)))
	if err != nil {
		return nil, err
	}
	return genPow(i, int(r)).scale(c), nil
}

func lcm(a, b int) int {
	g := a
	for h := b; h != 0; {
		g, h = h, g%h
	}
	return a / g * b
}

func ratPowInt(r *big.Rat, n int64) *big.Rat {
	if n < 0 {
		return ratPowInt(new(big.Rat).Inv(r), -n)
	}
	num := new(big.Int).Exp(r.Num(), big.NewInt(n), nil)
	den := new(big.Int).Exp(r.Denom(), big.NewInt(n), nil)
	return new(big.Rat).SetFrac(num, den)
}

// factor splits N > 0 into primes below 2^15 and one cofactor (cached).
func (fe *formalEval) factor(N *big.Int) []primePower {
	key := N.String()
	if f, ok := fe.facts[key]; ok {
		return f
	}
	var out []primePower
	for _, f := range smallFactors(N) {
		out = append(out, primePower{f.p.String(), f.p, f.e})
	}
	fe.facts[key] = out
	return out
}
