package poly

import (
	"math/big"
)

// exactRoot is a root with an exact SymPy form.
type exactRoot interface {
	sortKey() key
	String() string
	Decimal() string
	IsReal() bool
	form() string
}

func (s Surd) form() string {
	if s.isRational() {
		return "rational"
	}
	return "radical"
}

// Nested is ±sqrt(Y) for a real quadratic surd Y = P + Q*sqrt(D) (D > 0),
// the roots of an irreducible biquadratic a*x**4 + b*x**2 + c (b ≠ 0) whose
// resolvent a*y**2 + b*y + c has real irrational roots. SymPy prints
// sqrt(Y) and -sqrt(Y) for Y > 0, I*sqrt(-Y) and -I*sqrt(-Y) for Y < 0, and
// does not denest (sqrt(5 - 2*sqrt(6)) stays).
type Nested struct {
	Y    Surd
	Sign int // +1 or -1
}

func (n Nested) positive() bool {
	return n.Y.floatValue().Sign() > 0
}

func (s Surd) floatValue() *big.Float {
	prec := s.workPrec()
	t := new(big.Float).SetPrec(prec).SetInt(s.D)
	t.Sqrt(t)
	t.Mul(t, new(big.Float).SetPrec(prec).SetRat(s.Q))
	return t.Add(t, new(big.Float).SetPrec(prec).SetRat(s.P))
}

// radicand is Y or -Y, whichever is positive.
func (n Nested) radicand() Surd {
	if n.positive() {
		return n.Y
	}
	return Surd{P: new(big.Rat).Neg(n.Y.P), Q: new(big.Rat).Neg(n.Y.Q), D: n.Y.D}
}

// String prints the root as SymPy's str() does.
func (n Nested) String() string {
	s := "sqrt(" + n.radicand().String() + ")"
	if !n.positive() {
		s = "I*" + s
	}
	if n.Sign < 0 {
		s = "-" + s
	}
	return s
}

func (n Nested) sortKey() key {
	rk := n.radicand().sortKey().([]key) // (Add, (2, terms), K(1), 1)
	sq := tup(rk[0], rk[1], keyNum(ratHalf), big.NewRat(1, 1))
	coeff := big.NewRat(int64(n.Sign), 1)
	if n.positive() {
		sq[3] = coeff
		return sq
	}
	kI := tup(ckImag, tup(1, tup("I")), keyNum(ratOne), ratOne)
	return tup(ckMul, tup(2, tup(kI, sq)), keyNum(ratOne), coeff)
}

// Decimal prints str(sympy.N(root, 34)).
func (n Nested) Decimal() string {
	v := n.radicand().floatValue()
	v.Sqrt(v)
	if n.Sign < 0 {
		v.Neg(v)
	}
	if n.positive() {
		return mpfString(roundMpf(v), false)
	}
	return complexString(nil, roundMpf(v))
}

// IsReal reports whether the root is real (Y > 0).
func (n Nested) IsReal() bool { return n.positive() }

func (n Nested) form() string { return "radical" }

// biquadraticRoots returns the four roots of an irreducible a*x**4 + b*x**2 + c
// with b ≠ 0 and a positive non-square discriminant b² − 4ac, else nil.
func biquadraticRoots(h IPoly) []exactRoot {
	if h.deg() != 4 || h[1].Sign() != 0 || h[3].Sign() != 0 || h[2].Sign() == 0 {
		return nil
	}
	disc := new(big.Int).Mul(h[2], h[2])
	disc.Sub(disc, new(big.Int).Mul(big.NewInt(4), new(big.Int).Mul(h[4], h[0])))
	if disc.Sign() <= 0 {
		return nil
	}
	if r := new(big.Int).Sqrt(disc); new(big.Int).Mul(r, r).Cmp(disc) == 0 {
		return nil // rational y: x² − y factors, handled as quadratic factors
	}
	ys := quadraticRoots(IPoly{h[0], h[2], h[4]})
	var out []exactRoot
	for _, y := range ys {
		if y.D.Cmp(big.NewInt(1)) == 0 {
			return nil
		}
		for _, sg := range []int{-1, 1} {
			out = append(out, Nested{Y: y, Sign: sg})
		}
	}
	return out
}

// biquadraticFactors finds factors a*x**4 + b*x**2 + c of h whose roots SymPy
// writes as nested square roots (see biquadraticRoots), by pairing
// numerically computed roots z, −z; each candidate is confirmed by exact
// division, so a factor is never wrong, only possibly missed.
func biquadraticFactors(h IPoly) (roots []exactRoot, rest IPoly) {
	rest = h
	if h.deg() < 4 {
		return nil, h
	}
	if bq := biquadraticRoots(h); bq != nil {
		return bq, IPoly{big.NewInt(1)}
	}
	zs, ok := aberth(h)
	if !ok {
		return nil, h
	}
	// squares of symmetric pairs z, −z
	var sq []complex128
	used := make([]bool, len(zs))
	for i := range zs {
		for j := i + 1; j < len(zs); j++ {
			if used[i] || used[j] {
				continue
			}
			if cabs(zs[i]+zs[j]) <= 1e-7*(1+cabs(zs[i])) {
				used[i], used[j] = true, true
				sq = append(sq, zs[i]*zs[i])
			}
		}
	}
	done := make([]bool, len(sq))
	for i := range sq {
		for j := i + 1; j < len(sq); j++ {
			if done[i] || done[j] || rest.deg() < 4 {
				continue
			}
			cand, ok := intQuadratic(sq[i], sq[j], rest.lc())
			if !ok {
				continue
			}
			// y-quadratic (c, b, a) → x-quartic
			quartic := IPoly{cand[0], new(big.Int), cand[1], new(big.Int), cand[2]}.primitive()
			bq := biquadraticRoots(quartic)
			if bq == nil {
				continue
			}
			if q, ok := divExact(rest, quartic); ok {
				roots = append(roots, bq...)
				rest = q
				done[i], done[j] = true, true
			}
		}
	}
	return roots, rest
}
