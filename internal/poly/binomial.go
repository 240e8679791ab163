package poly

import (
	"math"
	"math/big"
	"slices"
	"strings"
)

// Binomial roots of x**3 = r and x**4 = r (r > 0) where r = ±k^n·p, k a
// positive integer and p a prime below 2^15: SymPy writes them with p**(1/3)
// or p**(1/4), e.g. 2**(1/3), -2**(1/3)/2 - 2**(1/3)*sqrt(3)*I/2,
// 2*5**(1/4)*I. Other binomials (composite radicands such as 12, fractions)
// have printing rules this package does not model; they stay CRootOf.
type Binomial struct {
	N     int      // 3 or 4
	P     int64    // prime radicand
	Re    *big.Rat // coefficient of p**(1/n) in the real part
	Im    *big.Rat // coefficient of the imaginary part (see String)
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
// part's irrational factor: p**(1/4) for quartics; p**(1/3)*sqrt(3) for
// cubics (3**(5/6) when p = 3), ordered as SymPy orders Mul factors.
func (b Binomial) imagFactors() ([]string, []key) {
	kI := tup(ckImag, tup(1, tup("I")), keyNum(ratOne), ratOne)
	if b.N == 4 {
		return []string{b.rootStr(), "I"}, []key{b.keyRoot(), kI}
	}
	if b.P == 3 {
		k56 := tup(ckNumber, tup(1, tup("3")), keyNum(big.NewRat(5, 6)), ratOne)
		return []string{"3**(5/6)", "I"}, []key{k56, kI}
	}
	ks3 := keyTerm(ratOne, big.NewInt(3))
	fs := []string{b.rootStr(), "sqrt(3)"}
	ks := []key{b.keyRoot(), ks3}
	if cmpKey(ks[1], ks[0]) < 0 {
		fs[0], fs[1] = fs[1], fs[0]
		ks[0], ks[1] = ks[1], ks[0]
	}
	return append(fs, "I"), append(ks, kI)
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

// binomialRoots recognizes a*x**n + c (n = 3, or n = 4 with -c/a > 0) with
// -c/a = ±k^n·p as described above; nil otherwise.
func binomialRoots(h IPoly) []exactRoot {
	n := h.deg()
	if n != 3 && n != 4 {
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
	s := int64(r.Sign())
	// |root| = k * p^(1/n)
	const prec = 400
	pr := nthRootFloat(p, n, prec)
	pr.Mul(pr, new(big.Float).SetPrec(prec).SetInt64(k))
	var out []exactRoot
	mk := func(re, im *big.Rat, vre, vim *big.Float) Binomial {
		return Binomial{N: n, P: p, Re: re, Im: im, value: cfloat{vre, vim}}
	}
	half := func(x *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Quo(x, big.NewFloat(2)) }
	neg := func(x *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Neg(x) }
	zero := new(big.Float)
	if n == 3 {
		out = append(out, mk(big.NewRat(s*k, 1), new(big.Rat), func() *big.Float {
			if s < 0 {
				return neg(pr)
			}
			return pr
		}(), zero))
		sqrt3 := new(big.Float).SetPrec(prec).SetInt64(3)
		sqrt3.Sqrt(sqrt3)
		imv := half(new(big.Float).SetPrec(prec).Mul(pr, sqrt3))
		rev := half(pr)
		if s > 0 {
			rev = neg(rev)
		}
		imCoef := big.NewRat(k, 2) // of p**(1/3)*sqrt(3), printed 3**(5/6) when p = 3
		for _, sg := range []int64{-1, 1} {
			im := new(big.Rat).Mul(imCoef, big.NewRat(sg, 1))
			iv := imv
			if sg < 0 {
				iv = neg(imv)
			}
			out = append(out, mk(big.NewRat(-s*k, 2), im, rev, iv))
		}
		return out
	}
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
func binomialFactors(h IPoly) (roots []exactRoot, rest IPoly) {
	rest = h
	if br := binomialRoots(h); br != nil {
		return br, IPoly{big.NewInt(1)}
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
			if rest.deg() < n+1 {
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
			br := binomialRoots(cand)
			if br == nil {
				continue
			}
			if q, ok := divExact(rest, cand); ok {
				roots = append(roots, br...)
				rest = q
			}
		}
	}
	return roots, rest
}

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
