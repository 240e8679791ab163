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

// Nested is ±k*sqrt(Y) for a real quadratic surd Y = P + Q*sqrt(D) (D > 0),
// the roots of an irreducible biquadratic a*x**4 + b*x**2 + c (b ≠ 0) whose
// resolvent a*y**2 + b*y + c has real irrational roots; k is SymPy's
// rescaling of x (see context.go), Y comes from the rescaled factor. SymPy
// prints sqrt(Y) and -sqrt(Y) for Y > 0; for Y < 0, I*sqrt(-Y) when it
// solved the factor alone and sqrt(Y) as it stands (Raw) when the factor was
// one of several; it does not denest (sqrt(5 - 2*sqrt(6)) stays).
type Nested struct {
	Y     Surd
	Sign  int      // +1 or -1
	Scale *big.Int // k; nil for 1
	Raw   bool
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

// radicand is what stands under the root: Y, or -Y in the I form.
func (n Nested) radicand() Surd {
	if n.positive() || n.Raw {
		return n.Y
	}
	return Surd{P: new(big.Rat).Neg(n.Y.P), Q: new(big.Rat).Neg(n.Y.Q), D: n.Y.D}
}

func (n Nested) coef() *big.Rat {
	c := big.NewRat(int64(n.Sign), 1)
	if n.Scale != nil {
		c.Mul(c, new(big.Rat).SetInt(n.Scale))
	}
	return c
}

func (n Nested) imagForm() bool { return !n.positive() && !n.Raw }

// String prints the root as SymPy's str() does.
func (n Nested) String() string {
	fs := []string{"sqrt(" + n.radicand().String() + ")"}
	if n.imagForm() {
		fs = append([]string{"I"}, fs...)
	}
	return mulString(n.coef(), fs, nil)
}

func (n Nested) sortKey() key {
	rk := n.radicand().sortKey().([]key) // (Add, (2, terms), K(1), 1)
	sq := tup(rk[0], rk[1], keyNum(ratHalf), big.NewRat(1, 1))
	if !n.imagForm() {
		sq[3] = n.coef()
		return sq
	}
	kI := tup(ckImag, tup(1, tup("I")), keyNum(ratOne), ratOne)
	return tup(ckMul, tup(2, tup(kI, sq)), keyNum(ratOne), n.coef())
}

// Decimal prints str(sympy.N(root, 34)).
func (n Nested) Decimal() string {
	y := n.Y.floatValue()
	v := new(big.Float).SetPrec(y.Prec()).Abs(y)
	v.Sqrt(v)
	v.Mul(v, new(big.Float).SetPrec(y.Prec()).SetRat(n.coef()))
	if n.positive() {
		return mpfString(roundMpf(v), false)
	}
	return complexString(nil, roundMpf(v))
}

// IsReal reports whether the root is real (Y > 0).
func (n Nested) IsReal() bool { return n.positive() }

func (n Nested) form() string { return "radical" }

// biquadraticRoots returns the four roots of an irreducible a*x**4 + b*x**2 + c
// with b ≠ 0 and a positive non-square discriminant b² − 4ac, else nil; the
// factor is rescaled and printed as its piece's context says.
func biquadraticRoots(h IPoly, ctx pieceCtx) []exactRoot {
	if !isBiquadratic(h) {
		return nil
	}
	hs := scaled(h, ctx.basis)
	ys := quadraticRoots(IPoly{hs[0], hs[2], hs[4]})
	var out []exactRoot
	for _, y := range ys {
		for _, sg := range []int{-1, 1} {
			out = append(out, Nested{Y: y, Sign: sg, Scale: ctx.basis, Raw: !ctx.single})
		}
	}
	return out
}

// isBiquadratic reports whether h is a*x**4 + b*x**2 + c with b ≠ 0 and a
// positive discriminant that is not a square (resolvent roots real surds).
func isBiquadratic(h IPoly) bool {
	if h.deg() != 4 || h[1].Sign() != 0 || h[3].Sign() != 0 || h[2].Sign() == 0 {
		return false
	}
	disc := new(big.Int).Mul(h[2], h[2])
	disc.Sub(disc, new(big.Int).Mul(big.NewInt(4), new(big.Int).Mul(h[4], h[0])))
	if disc.Sign() <= 0 {
		return false
	}
	r := new(big.Int).Sqrt(disc)
	if new(big.Int).Mul(r, r).Cmp(disc) == 0 {
		return false // rational y: x² − y factors, handled as quadratic factors
	}
	_, d := splitSquare(disc)
	return d.Cmp(big.NewInt(1)) != 0
}

// biquadraticFactors finds factors a*x**4 + b*x**2 + c of h whose roots SymPy
// writes as nested square roots (see biquadraticRoots), by pairing
// numerically computed roots z, −z; each candidate is confirmed by exact
// division, so a factor is never wrong, only possibly missed.
func biquadraticFactors(h IPoly) (quartics []IPoly, rest IPoly) {
	rest = h
	if h.deg() < 4 {
		return nil, h
	}
	if isBiquadratic(h) {
		return []IPoly{h}, IPoly{big.NewInt(1)}
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
	return pairFactors(rest, sq, func(cand IPoly) (IPoly, bool) {
		// y-quadratic (c, b, a) → x-quartic
		quartic := IPoly{cand[0], new(big.Int), cand[1], new(big.Int), cand[2]}.primitive()
		return quartic, isBiquadratic(quartic)
	})
}
