package poly

import (
	"context"
	"math/big"
)

// MaxIsolationWork bounds the estimated word operations of real root
// isolation (see isolateReal); about a second of work.
const MaxIsolationWork = 2e9

// MaxIsolationBytes bounds the memory root isolation holds at once: the
// polynomials of the pending subintervals, whose coefficients grow by about
// the degree in bits per bisection level, so that a wide root spread at a
// high degree holds hundreds of MiB (x**64 - 7…7*x**63 + x - 1 with a
// 200-digit coefficient: 113 MiB) although its word operations are within
// MaxIsolationWork.
const MaxIsolationBytes = 16 << 20

// maxIsolationNodes bounds the bisection tree of root isolation; it is far
// above what inputs within the declared limits need.
const maxIsolationNodes = 200000

// interval is an isolating interval (lo, hi) of exactly one real root,
// lo = ml/2^e, hi = mh/2^e (signed integers, common scale).
type interval struct {
	ml, mh *big.Int
	e      int
}

type isolation struct {
	exact     []*big.Rat // roots found exactly at dyadic points
	intervals []interval
}

// isolateReal isolates the real roots of a square-free integer polynomial
// with Descartes' rule of signs and bisection (Vincent–Collins–Akritas).
func isolateReal(ctx context.Context, f IPoly) (*isolation, error) {
	res := &isolation{}
	if f.deg() < 1 {
		return res, nil
	}
	if f[0].Sign() == 0 {
		res.exact = append(res.exact, new(big.Rat))
		f = f[1:]
	}
	// The bisection depth grows with the spread of root magnitudes (upper
	// bound 2^ub, lower bound 2^-lb), and each level costs about degree²
	// additions of (ub·degree + coefficient bits)-bit numbers: refuse before
	// starting when that estimate is extreme (x**63 - 2**2000*x**62 + 1).
	if n := f.deg(); n >= 1 {
		ub, lb := f.rootBoundBits(), f.reverse().rootBoundBits()
		cb := 0
		for _, c := range f {
			cb = max(cb, c.BitLen())
		}
		work := float64(n*n) * float64((ub*n+cb)/64+1) * float64(ub+lb+1)
		if work > MaxIsolationWork {
			return nil, costly("isolation_too_costly", "the roots span about 2^%d to 2^-%d at degree %d; isolating them would take about %.0e word operations, the limit is %.0e", ub, lb, n, work, float64(MaxIsolationWork))
		}
	}
	nodes := 0
	for _, neg := range []bool{false, true} {
		g := f
		if neg {
			g = f.negX()
		}
		if err := isolatePositive(ctx, g, neg, res, &nodes); err != nil {
			return nil, err
		}
	}
	return res, nil
}

type node struct {
	p IPoly
	c *big.Int
	k int
}

func isolatePositive(ctx context.Context, f IPoly, neg bool, res *isolation, nodes *int) error {
	if f.deg() < 1 || signVariations(f) == 0 {
		return nil
	}
	b := f.rootBoundBits()
	// q(x) = f(2^b x): roots in (0, 1)
	q := make(IPoly, len(f))
	for i, c := range f {
		q[i] = new(big.Int).Lsh(c, uint(b*i))
	}
	q = q.primitive()
	stack := []node{{q, new(big.Int), 0}}
	held := q.bytes() // the memory the polynomials on the stack hold
	for len(stack) > 0 {
		*nodes++
		if *nodes%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if *nodes > maxIsolationNodes {
			return costly("isolation_too_costly", "real root isolation needs more than %d subdivisions", maxIsolationNodes)
		}
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		held -= nd.p.bytes()
		p := nd.p
		if p[0].Sign() == 0 {
			// root at the left end point c/2^k (scaled by 2^b)
			r := new(big.Rat).SetFrac(new(big.Int).Lsh(nd.c, uint(b)), new(big.Int).Lsh(big.NewInt(1), uint(nd.k)))
			if neg {
				r.Neg(r)
			}
			res.exact = append(res.exact, r)
			p = p[1:]
		}
		if p.deg() < 1 {
			continue
		}
		v := signVariations(p.reverse().taylorShift1())
		if v == 0 {
			continue
		}
		if v == 1 {
			ml := new(big.Int).Lsh(nd.c, uint(b))
			mh := new(big.Int).Lsh(new(big.Int).Add(nd.c, big.NewInt(1)), uint(b))
			if neg {
				ml, mh = mh.Neg(mh), ml.Neg(ml)
			}
			res.intervals = append(res.intervals, interval{ml, mh, nd.k})
			continue
		}
		// p1(x) = 2^n p(x/2) on the left half, p2 = p1(x+1) on the right half
		n := p.deg()
		p1 := make(IPoly, len(p))
		for i, c := range p {
			p1[i] = new(big.Int).Lsh(c, uint(n-i))
		}
		p1 = p1.primitive()
		p2 := p1.taylorShift1()
		c2 := new(big.Int).Lsh(nd.c, 1)
		if held += p1.bytes() + p2.bytes(); held > MaxIsolationBytes {
			return costly("isolation_too_costly", "real root isolation would hold more than %d MiB of polynomials at once (the roots are spread too far apart for this degree)", MaxIsolationBytes>>20)
		}
		stack = append(stack, node{p2, new(big.Int).Add(c2, big.NewInt(1)), nd.k + 1})
		stack = append(stack, node{p1, c2, nd.k + 1})
	}
	return nil
}

// refined is a real root known to lie in [x-δ, x+δ].
type refined struct {
	approx   *big.Float // high-precision approximation
	rational *big.Rat   // non-nil when the root is rational (exact)
}

// refineRoot narrows an isolating interval of a simple root of the
// square-free polynomial g (no root of g at the interval's end points) until
// the root is known to 2^-220 relative and to within 1/(4·lc) absolute, which
// also decides whether it is rational (a rational root p/q of a primitive
// polynomial has q | lc, so lc·root is an integer).
func refineRoot(ctx context.Context, g IPoly, iv interval) (*refined, error) {
	ml, mh, e := new(big.Int).Set(iv.ml), new(big.Int).Set(iv.mh), iv.e
	sl := g.signAt(ml, pow2(e))
	lcBits := new(big.Int).Abs(g.lc()).BitLen()
	// Phase 1: bisection until the interval is relatively narrow (2^-24).
	width := new(big.Int)
	steps := 0
	for {
		width.Sub(mh, ml)
		lo := minAbs(ml, mh)
		if lo.Sign() > 0 && lo.BitLen()-width.BitLen() >= 24 {
			break
		}
		if err := bisect(ctx, g, &ml, &mh, &e, &sl, &steps); err != nil {
			return nil, err
		}
		if ml.Cmp(mh) == 0 { // exact root hit
			return exactDyadic(ml, e), nil
		}
	}
	// Phase 2: Newton from the midpoint in big.Float, then certify by signs.
	mid := new(big.Float).SetInt(new(big.Int).Add(ml, mh))
	mid.SetMantExp(mid, -(e + 1))
	xexp := mid.MantExp(nil) // |x| ~ 2^xexp
	D := max(220-xexp, lcBits+3)
	prec := uint(D + xexp + 64)
	if prec < 128 {
		prec = 128
	}
	x := new(big.Float).SetPrec(prec).Set(mid)
	d := g.deriv()
	for it := 0; it < 20; it++ {
		fx := evalFloat(g, x, prec)
		dx := evalFloat(d, x, prec)
		if dx.Sign() == 0 {
			break
		}
		step := new(big.Float).SetPrec(prec).Quo(fx, dx)
		x.Sub(x, step)
		if step.Sign() == 0 || step.MantExp(nil) < xexp-int(prec)+8 {
			break
		}
	}
	// certify [x - 2^-D, x + 2^-D] within (lo, hi) with a sign change
	if r, ok := certify(g, x, D, ml, mh, e); ok {
		return r, nil
	}
	// Fallback: certain bisection down to the same width.
	for {
		width.Sub(mh, ml)
		// width/2^e <= 2^-(D) <=> bitlen(width) <= e - D
		if width.BitLen() <= e-D {
			break
		}
		if err := bisect(ctx, g, &ml, &mh, &e, &sl, &steps); err != nil {
			return nil, err
		}
		if ml.Cmp(mh) == 0 {
			return exactDyadic(ml, e), nil
		}
	}
	mid = new(big.Float).SetPrec(prec).SetInt(new(big.Int).Add(ml, mh))
	mid.SetMantExp(mid, -(e + 1))
	return finishRational(g, mid, D), nil
}

func certify(g IPoly, x *big.Float, D int, ml, mh *big.Int, e int) (*refined, bool) {
	// x as an exact dyadic m/2^s
	mant := new(big.Float)
	xe := x.MantExp(mant)
	s := int(x.Prec()) - xe
	if s < D+1 {
		s = D + 1
	}
	xm, acc := new(big.Float).SetMantExp(x, s).Int(nil)
	if acc != big.Exact {
		return nil, false
	}
	delta := new(big.Int).Lsh(big.NewInt(1), uint(s-D))
	a := new(big.Int).Sub(xm, delta)
	b := new(big.Int).Add(xm, delta)
	// within the isolating interval: ml/2^e <= a/2^s and b/2^s <= mh/2^e
	if s < e {
		return nil, false
	}
	lo := new(big.Int).Lsh(ml, uint(s-e))
	hi := new(big.Int).Lsh(mh, uint(s-e))
	if a.Cmp(lo) < 0 || b.Cmp(hi) > 0 {
		return nil, false
	}
	den := pow2(s)
	sa, sb := g.signAt(a, den), g.signAt(b, den)
	if sa == 0 || sb == 0 || sa == sb {
		return nil, false
	}
	return finishRational(g, x, D), true
}

// finishRational decides rationality of the root approximated by x (error
// below 1/(4·lc)): the only candidate is round(lc·x)/lc.
func finishRational(g IPoly, x *big.Float, D int) *refined {
	lc := g.lc()
	t := new(big.Float).SetPrec(x.Prec() + uint(lc.BitLen()) + 8).SetInt(lc)
	t.Mul(t, x)
	half := big.NewFloat(0.5)
	if t.Sign() < 0 {
		t.Sub(t, half)
	} else {
		t.Add(t, half)
	}
	m, _ := t.Int(nil) // truncation of t ± 0.5 = rounding
	// The candidate must lie in the certified interval [x-2^-D, x+2^-D]: it may
	// be another rational root of g elsewhere.
	diff := new(big.Float).SetPrec(x.Prec() + uint(lc.BitLen()) + 8).SetInt(m)
	diff.Quo(diff, new(big.Float).SetPrec(diff.Prec()).SetInt(lc))
	diff.Sub(diff, x)
	inside := diff.Sign() == 0 || diff.MantExp(nil) <= -D
	if inside && g.signAt(m, lc) == 0 {
		return &refined{approx: x, rational: new(big.Rat).SetFrac(m, lc)}
	}
	return &refined{approx: x}
}

func exactDyadic(m *big.Int, e int) *refined {
	r := new(big.Rat).SetFrac(m, pow2(e))
	f := new(big.Float).SetPrec(256).SetRat(r)
	return &refined{approx: f, rational: r}
}

func bisect(ctx context.Context, g IPoly, ml, mh **big.Int, e *int, sl *int, steps *int) error {
	*steps++
	if *steps%32 == 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if *steps > 100000 {
		return costly("refinement_too_costly", "root refinement needs more than 100000 bisection steps")
	}
	*e++
	(*ml).Lsh(*ml, 1)
	(*mh).Lsh(*mh, 1)
	mid := new(big.Int).Add(*ml, *mh)
	mid.Rsh(mid, 1)
	s := g.signAt(mid, pow2(*e))
	switch {
	case s == 0:
		*ml = new(big.Int).Set(mid)
		*mh = new(big.Int).Set(mid)
	case s == *sl:
		*ml = mid
	default:
		*mh = mid
	}
	return nil
}

func pow2(e int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(e)) }

func minAbs(a, b *big.Int) *big.Int {
	if a.Sign() != b.Sign() || a.Sign() == 0 || b.Sign() == 0 {
		return new(big.Int)
	}
	x, y := new(big.Int).Abs(a), new(big.Int).Abs(b)
	if x.Cmp(y) < 0 {
		return x
	}
	return y
}

func evalFloat(p IPoly, x *big.Float, prec uint) *big.Float {
	acc := new(big.Float).SetPrec(prec)
	t := new(big.Float).SetPrec(prec)
	for i := len(p) - 1; i >= 0; i-- {
		acc.Mul(acc, x)
		acc.Add(acc, t.SetInt(p[i]))
	}
	return acc
}

// bytes is the memory p's coefficients hold: each big.Int's header and its
// words, counted as 64-bit words so that the bound refuses the same inputs on
// every architecture.
func (p IPoly) bytes() int {
	n := 0
	for _, c := range p {
		n += 32 + 8*((c.BitLen()+63)/64)
	}
	return n
}
