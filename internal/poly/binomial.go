package poly

import (
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// Binomial roots of x**4 = r (r > 0) where r = k^4·p, k a positive integer
// and p a prime below 2^15: SymPy writes them with p**(1/4), e.g.
// 2*5**(1/4)*I. Other quartic binomials (composite radicands such as 8,
// fractions) have printing rules this package does not model; they stay
// CRootOf. (Binomial cubics, any radicand, are Cube roots.)
type Binomial struct {
	N     int      // 4
	P     int64    // prime radicand
	Re    *big.Rat // coefficient of p**(1/4) in the real part
	Im    *big.Rat // coefficient of p**(1/4)*I
	value cfloat
}

func (b Binomial) rootStr() string { return itoa(int(b.P)) + "**(1/" + itoa(b.N) + ")" }

func (b Binomial) keyRoot() key {
	return tup(ckNumber, tup(1, tup(itoa(int(b.P)))), keyNum(big.NewRat(1, int64(b.N))), ratOne)
}

func keyWithCoeff(k key, c *big.Rat) key {
	t := slices.Clone(k.([]key))
	t[3] = c
	return t
}

// imagFactors returns the printed factors and sort keys of the imaginary
// part: p**(1/4) and I.
func (b Binomial) imagFactors() ([]string, []key) {
	kI := tup(ckImag, tup(1, tup("I")), keyNum(ratOne), ratOne)
	return []string{b.rootStr(), "I"}, []key{b.keyRoot(), kI}
}

// String prints the root as SymPy's str() does.
func (b Binomial) String() string {
	var parts []string
	if b.Re.Sign() != 0 {
		parts = append(parts, mulString(b.Re, []string{b.rootStr()}, nil))
	}
	if b.Im.Sign() != 0 {
		fs, _ := b.imagFactors()
		parts = append(parts, mulString(b.Im, fs, nil))
	}
	s := parts[0]
	if len(parts) == 2 {
		if strings.HasPrefix(parts[1], "-") {
			s += " - " + parts[1][1:]
		} else {
			s += " + " + parts[1]
		}
	}
	return s
}

func (b Binomial) sortKey() key {
	var kre, kim key
	if b.Re.Sign() != 0 {
		kre = keyWithCoeff(b.keyRoot(), b.Re)
	}
	if b.Im.Sign() != 0 {
		_, ks := b.imagFactors()
		args := make([]key, len(ks))
		copy(args, ks)
		kim = tup(ckMul, tup(len(ks), tup(args...)), keyNum(ratOne), b.Im)
	}
	switch {
	case kim == nil:
		return kre
	case kre == nil:
		return kim
	}
	return tup(ckAdd, tup(2, tup(kre, kim)), keyNum(ratOne), ratOne)
}

// Decimal prints str(sympy.N(root, 34)).
func (b Binomial) Decimal() string {
	if b.Im.Sign() == 0 {
		return mpfString(roundMpf(b.value.re), false)
	}
	var re *big.Float
	if b.Re.Sign() != 0 {
		re = roundMpf(b.value.re)
	}
	return complexString(re, roundMpf(b.value.im))
}

// IsReal reports whether the root is real.
func (b Binomial) IsReal() bool { return b.Im.Sign() == 0 }

func (b Binomial) form() string { return "radical" }

// binomialRoots recognizes a*x**4 + c with -c/a = k^4·p as described above,
// or -c/a = -q**4 (quarticNegRoots); nil otherwise.
func binomialRoots(h IPoly) []exactRoot {
	n := h.deg()
	if n != 4 {
		return nil
	}
	for i := 1; i < n; i++ {
		if h[i].Sign() != 0 {
			return nil
		}
	}
	r := new(big.Rat).SetFrac(new(big.Int).Neg(h[0]), h[n])
	if n == 4 && r.Sign() < 0 {
		return quarticNegRoots(new(big.Rat).Neg(r))
	}
	if !r.IsInt() {
		return nil
	}
	m := new(big.Int).Abs(r.Num())
	if m.BitLen() > 62 {
		return nil
	}
	// m = k^n * p with p prime < 2^15
	v := m.Int64()
	k, p := int64(1), int64(0)
	for q := int64(2); q*q <= v || (v > 1 && q <= v); q++ {
		if q >= 1<<15 {
			return nil
		}
		e := 0
		for v%q == 0 {
			v /= q
			e++
		}
		if e == 0 {
			continue
		}
		if e%n == 1 && p == 0 {
			p = q
			e--
		}
		if e%n != 0 {
			return nil
		}
		for range e / n {
			k *= q
		}
		if v == 1 {
			break
		}
	}
	if v != 1 || p == 0 {
		return nil
	}
	// |root| = k * p^(1/4)
	const prec = 400
	pr := nthRootFloat(p, n, prec)
	pr.Mul(pr, new(big.Float).SetPrec(prec).SetInt64(k))
	var out []exactRoot
	mk := func(re, im *big.Rat, vre, vim *big.Float) Binomial {
		return Binomial{N: n, P: p, Re: re, Im: im, value: cfloat{vre, vim}}
	}
	neg := func(x *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Neg(x) }
	zero := new(big.Float)
	for _, sg := range []int64{-1, 1} {
		v := pr
		if sg < 0 {
			v = neg(pr)
		}
		out = append(out, mk(big.NewRat(sg*k, 1), new(big.Rat), v, zero))
		out = append(out, mk(new(big.Rat), big.NewRat(sg*k, 1), nil, v))
	}
	return out
}

// nthRootFloat returns p^(1/n) to prec bits (Newton's method).
func nthRootFloat(p int64, n int, prec uint) *big.Float {
	P := new(big.Float).SetPrec(prec).SetInt64(p)
	f, _ := P.Float64()
	x := new(big.Float).SetPrec(prec).SetFloat64(mathPow(f, 1/float64(n)))
	N := new(big.Float).SetPrec(prec).SetInt64(int64(n))
	N1 := new(big.Float).SetPrec(prec).SetInt64(int64(n - 1))
	for range 12 {
		// x = ((n-1) x + p / x^(n-1)) / n
		t := new(big.Float).SetPrec(prec).SetInt64(1)
		for range n - 1 {
			t.Mul(t, x)
		}
		t.Quo(P, t)
		y := new(big.Float).SetPrec(prec).Mul(N1, x)
		y.Add(y, t)
		x = y.Quo(y, N)
	}
	return x
}

// binomialFactors finds factors a*x**n + c (n = 3, 4) of h that binomialRoots
// handles, by testing numerically computed roots z for integral L·z^n (L the
// leading coefficient); candidates are confirmed by exact division.
func binomialFactors(h IPoly) (factors []IPoly, rest IPoly) {
	rest = h
	if isBinomial(h) {
		return []IPoly{h}, IPoly{big.NewInt(1)}
	}
	if h.deg() < 5 {
		return nil, h
	}
	zs, ok := aberth(h)
	if !ok {
		return nil, h
	}
	L, _ := new(big.Float).SetInt(h.lc()).Float64()
	for _, z := range zs {
		for _, n := range []int{3, 4} {
			if rest.deg() < n {
				continue
			}
			w := complex(L, 0)
			for range n {
				w *= z
			}
			R := math.Round(real(w))
			if math.Abs(imag(w)) > 1e-6*(1+cabs(w)) || math.Abs(real(w)-R) > 1e-6*(1+math.Abs(R)) || math.Abs(R) > 1<<62 || R == 0 {
				continue
			}
			cand := make(IPoly, n+1)
			for i := range cand {
				cand[i] = new(big.Int)
			}
			cand[0].SetInt64(-int64(R))
			cand[n].Set(h.lc())
			cand = cand.primitive()
			if !isBinomial(cand) {
				continue
			}
			if q, ok := divExact(rest, cand); ok {
				factors = append(factors, cand)
				rest = q
			}
		}
	}
	return factors, rest
}

// isBinomial reports whether h is an irreducible a*x**3 + c, or an
// a*x**4 + c whose roots binomialRoots writes.
func isBinomial(h IPoly) bool {
	n := h.deg()
	if n != 3 && n != 4 {
		return false
	}
	for i := 1; i < n; i++ {
		if h[i].Sign() != 0 {
			return false
		}
	}
	if h[0].Sign() == 0 {
		return false
	}
	if n == 3 {
		r := new(big.Rat).SetFrac(new(big.Int).Neg(h[0]), h[3])
		_, cube := ratCbrt(r)
		return !cube
	}
	return binomialRoots(h) != nil
}

// ratCbrt returns the rational cube root of r when there is one.
func ratCbrt(r *big.Rat) (*big.Rat, bool) {
	a := new(big.Rat).Abs(r)
	n, nExact := bigx.Root(a.Num(), 3)
	d, dExact := bigx.Root(a.Denom(), 3)
	if !nExact || !dExact {
		return nil, false
	}
	q := new(big.Rat).SetFrac(n, d)
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return q, true
}

// binomialFactorRoots returns the roots of a binomial factor found by
// binomialFactors, rescaled as its piece's context says.
func binomialFactorRoots(h IPoly, ctx pieceCtx) []exactRoot {
	hs := scaled(h, ctx.basis)
	if h.deg() == 3 {
		return cubeRoots(hs, ctx.basis)
	}
	out := binomialRoots(hs)
	if ctx.basis == nil {
		return out
	}
	k := new(big.Rat).SetInt(ctx.basis)
	kf := new(big.Float).SetPrec(400).SetInt(ctx.basis)
	for i, r := range out {
		switch b := r.(type) {
		case Binomial:
			b.Re = new(big.Rat).Mul(b.Re, k)
			b.Im = new(big.Rat).Mul(b.Im, k)
			if b.value.re != nil {
				b.value.re = new(big.Float).Mul(b.value.re, kf)
			}
			if b.value.im != nil {
				b.value.im = new(big.Float).Mul(b.value.im, kf)
			}
			out[i] = b
		case CSurd:
			out[i] = CSurd{new(big.Rat).Mul(b.A, k), new(big.Rat).Mul(b.B, k)}
		}
	}
	return out
}

// Cube is a root of a*x**3 + c as SymPy's roots_binomial writes it, with
// R = |c/a|**(1/3) and P = sqrt(3)*R in SymPy's canonical form. For -c/a > 0
// the roots are R and -R/2 ± P*I/2. For -c/a < 0 SymPy multiplies
// alpha = R/2 + P*I/2 by the cube roots of unity and keeps whatever the
// products become: the real part of alpha*(-1/2 + sqrt(3)*I/2) is
// -R/4 - Q/4 with Q = sqrt(3)*P, which is -R only when Q is written as 3*R
// (x**3 + 9: -3**(2/3); x**3 + 12: -3*2**(2/3)*3**(1/3)/4 - 12**(1/3)/4).
type Cube struct {
	re []radProd // real terms, in SymPy's Add order (ascending value)
	im radProd   // imaginary part (coefficient 0: none)
}

// cubeRoots returns the three roots of the irreducible a*x**3 + c, each
// multiplied by scale (nil for 1).
func cubeRoots(h IPoly, scale *big.Int) []exactRoot {
	r := new(big.Rat).SetFrac(new(big.Int).Neg(h[0]), h[3])
	R := ratPow(new(big.Rat).Abs(r), big.NewRat(1, 3))
	if scale != nil {
		R.c = new(big.Rat).Mul(R.c, new(big.Rat).SetInt(scale))
	}
	P := R.timesSqrt3()
	q := func(n, d int64) *big.Rat { return big.NewRat(n, d) }
	none := radProd{c: new(big.Rat)}
	if r.Sign() > 0 {
		return []exactRoot{
			Cube{re: []radProd{R}, im: none},
			Cube{re: []radProd{R.scaled(q(-1, 2))}, im: P.scaled(q(-1, 2))},
			Cube{re: []radProd{R.scaled(q(-1, 2))}, im: P.scaled(q(1, 2))},
		}
	}
	Q := P.timesSqrt3()
	real1 := []radProd{R.scaled(q(-1, 1))}
	real2 := []radProd{R.scaled(q(1, 2))}
	if !Q.same(R.scaled(q(3, 1))) {
		real1 = []radProd{Q.scaled(q(-1, 4)), R.scaled(q(-1, 4))}
		real2 = []radProd{R.scaled(q(-1, 4)), Q.scaled(q(1, 4))}
	}
	return []exactRoot{
		Cube{re: real1, im: none},
		Cube{re: real2, im: P.scaled(q(-1, 2))},
		Cube{re: []radProd{R.scaled(q(1, 2))}, im: P.scaled(q(1, 2))},
	}
}

func (c Cube) terms() []printedTerm {
	var ts []printedTerm
	for _, t := range c.re {
		ts = append(ts, printedTerm{s: mulString(t.c, t.factorStrings(), nil)})
	}
	if c.im.c.Sign() != 0 {
		ts = append(ts, printedTerm{s: mulString(c.im.c, append(c.im.factorStrings(), "I"), nil)})
	}
	return ts
}

// String prints the root as SymPy's str() does.
func (c Cube) String() string { return joinAdd(c.terms()) }

func (c Cube) sortKey() key {
	var ks []key
	for _, t := range c.re {
		ks = append(ks, t.termKey(t.c, false))
	}
	if c.im.c.Sign() != 0 {
		ks = append(ks, c.im.termKey(c.im.c, true))
	}
	if len(ks) == 1 {
		return ks[0]
	}
	return tup(ckAdd, tup(len(ks), tup(ks...)), keyNum(ratOne), ratOne)
}

// Decimal prints str(sympy.N(root, 34)).
func (c Cube) Decimal() string {
	const prec = 400
	re := new(big.Float).SetPrec(prec)
	for _, t := range c.re {
		v := t.float(prec)
		re.Add(re, v.Mul(v, new(big.Float).SetPrec(prec).SetRat(t.c)))
	}
	if c.im.c.Sign() == 0 {
		return mpfString(roundMpf(re), false)
	}
	im := c.im.float(prec)
	im.Mul(im, new(big.Float).SetPrec(prec).SetRat(c.im.c))
	return complexString(roundMpf(re), roundMpf(im))
}

// IsReal reports whether the root is real.
func (c Cube) IsReal() bool { return c.im.c.Sign() == 0 }

func (c Cube) form() string { return "radical" }

// CSurd is A*sqrt(2) + B*sqrt(2)*I: the roots of x**4 + q**4 (q rational),
// q*(±1 ± I)*sqrt(2)/2, as SymPy writes them ("-sqrt(2)/2 - sqrt(2)*I/2").
type CSurd struct{ A, B *big.Rat }

var two = big.NewInt(2)

// String prints the root as SymPy's str() does.
func (c CSurd) String() string {
	re := termString(c.A, two)
	im := termString(c.B, big.NewInt(-2))
	if strings.HasPrefix(im, "-") {
		return re + " - " + im[1:]
	}
	return re + " + " + im
}

func (c CSurd) sortKey() key {
	return tup(ckAdd, tup(2, tup(keyTerm(c.A, two), keyTerm(c.B, big.NewInt(-2)))), keyNum(ratOne), ratOne)
}

// Decimal prints str(sympy.N(root, 34)).
func (c CSurd) Decimal() string {
	const prec = 400
	s2 := new(big.Float).SetPrec(prec).SetInt64(2)
	s2.Sqrt(s2)
	re := new(big.Float).SetPrec(prec).SetRat(c.A)
	re.Mul(re, s2)
	im := new(big.Float).SetPrec(prec).SetRat(c.B)
	im.Mul(im, s2)
	return complexString(roundMpf(re), roundMpf(im))
}

// IsReal is false: these roots are never real.
func (c CSurd) IsReal() bool { return false }

func (c CSurd) form() string { return "radical" }

// quarticNegRoots returns the roots of x**4 = -m when m = q**4 for a rational q.
func quarticNegRoots(m *big.Rat) []exactRoot {
	q, ok := ratSqrt(m)
	if !ok {
		return nil
	}
	if q, ok = ratSqrt(q); !ok {
		return nil
	}
	h := new(big.Rat).Quo(q, big.NewRat(2, 1))
	nh := new(big.Rat).Neg(h)
	return []exactRoot{CSurd{nh, nh}, CSurd{nh, h}, CSurd{h, nh}, CSurd{h, h}}
}
