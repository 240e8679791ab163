package poly

import (
	"math/big"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// Products of rational powers of positive integers, c * Π b_i**e_i with
// 0 < e_i < 1, in the canonical form SymPy's automatic evaluation gives them:
// Integer._eval_power takes perfect powers out of n**(p/q) (factoring below
// 2^15, as SymPy does), and Mul.flatten combines equal bases, multiplies
// bases with equal exponents (2**(1/3)*3**(1/3) is 6**(1/3)) and splits a
// common factor of two bases (sqrt(3)*12**(1/3) is 2**(2/3)*3**(5/6)).

type rpow struct {
	b *big.Int
	e *big.Rat
}

type radProd struct {
	c    *big.Rat
	pows []rpow
}

// intPow is n**e for an integer n > 0 and a rational 0 < e < 1.
func intPow(n *big.Int, e *big.Rat) radProd {
	p, q := e.Num().Int64(), e.Denom().Int64()
	one := radProd{c: big.NewRat(1, 1)}
	if n.Cmp(big.NewInt(1)) == 0 {
		return one
	}
	if x, exact := bigx.Root(n, int(q)); exact {
		return radProd{c: new(big.Rat).SetInt(new(big.Int).Exp(x, big.NewInt(p), nil))}
	}
	type pe struct {
		p *big.Int
		e int64
	}
	var dict []pe
	if b, k := perfectPower(n); k > 1 {
		dict = []pe{{b, int64(k)}}
	} else {
		for _, f := range smallFactors(n) {
			dict = append(dict, pe{f.p, int64(f.e)})
		}
	}
	outInt := big.NewInt(1)
	var outRad []rpow
	sqrInt := big.NewInt(1)
	var sqr []pe
	for _, f := range dict {
		ex := f.e * p
		de, dm := ex/q, ex%q
		if de > 0 {
			outInt.Mul(outInt, new(big.Int).Exp(f.p, big.NewInt(de), nil))
		}
		if dm > 0 {
			if g := gcd64(dm, q); g != 1 {
				outRad = append(outRad, rpow{f.p, big.NewRat(dm/g, q/g)})
			} else {
				sqr = append(sqr, pe{f.p, dm})
			}
		}
	}
	var sg int64
	for _, f := range sqr {
		if sg == 0 {
			sg = f.e
		} else {
			sg = gcd64(sg, f.e)
		}
	}
	for _, f := range sqr {
		sqrInt.Mul(sqrInt, new(big.Int).Exp(f.p, big.NewInt(f.e/sg), nil))
	}
	if sqrInt.Cmp(n) == 0 && outInt.Cmp(big.NewInt(1)) == 0 && len(outRad) == 0 {
		return radProd{c: big.NewRat(1, 1), pows: []rpow{{new(big.Int).Set(n), new(big.Rat).Set(e)}}}
	}
	pows := outRad
	if sqrInt.Cmp(big.NewInt(1)) != 0 {
		last := intPow(sqrInt, big.NewRat(sg, q))
		outInt.Mul(outInt, last.c.Num()) // last.c is an integer here
		pows = append(pows, last.pows...)
	}
	return mulFlatten(new(big.Rat).SetInt(outInt), pows)
}

func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

type smallFactor struct {
	p *big.Int
	e int
}

// smallFactors factors n by trial division below 2^15; a remaining
// cofactor is listed with exponent 1 (SymPy's factors(limit=2**15)).
func smallFactors(n *big.Int) []smallFactor {
	var out []smallFactor
	rem := new(big.Int).Set(n)
	q, r := new(big.Int), new(big.Int)
	one := big.NewInt(1)
	for p := int64(2); p < 1<<15 && rem.Cmp(one) > 0; p++ {
		if p > 2 && p%2 == 0 {
			continue
		}
		bp := big.NewInt(p)
		if new(big.Int).Mul(bp, bp).Cmp(rem) > 0 {
			break
		}
		e := 0
		for {
			q.QuoRem(rem, bp, r)
			if r.Sign() != 0 {
				break
			}
			rem.Set(q)
			e++
		}
		if e > 0 {
			out = append(out, smallFactor{bp, e})
		}
	}
	if rem.Cmp(one) > 0 {
		out = append(out, smallFactor{rem, 1})
	}
	return out
}

// ratPow is r**e for a rational r > 0 and 0 < e < 1, as Rational._eval_power
// writes it: p**e * q**(1 - e) / q.
func ratPow(r *big.Rat, e *big.Rat) radProd {
	num := intPow(r.Num(), e)
	if r.Denom().Cmp(big.NewInt(1)) == 0 {
		return num
	}
	den := intPow(r.Denom(), new(big.Rat).Sub(big.NewRat(1, 1), e))
	c := new(big.Rat).Mul(num.c, den.c)
	c.Quo(c, new(big.Rat).SetInt(r.Denom()))
	return mulFlatten(c, append(slices.Clone(num.pows), den.pows...))
}

// mergePows groups pows by same, in order of first appearance: the first of a
// group enters as first makes it, each later one is combined into it.
func mergePows(pows []rpow, same func(a, b rpow) bool, first func(rpow) rpow, combine func(acc *rpow, pw rpow)) []rpow {
	var out []rpow
	for _, pw := range pows {
		if i := slices.IndexFunc(out, func(o rpow) bool { return same(o, pw) }); i >= 0 {
			combine(&out[i], pw)
		} else {
			out = append(out, first(pw))
		}
	}
	return out
}

// mulFlatten combines the numeric powers of a product as Mul.flatten does.
func mulFlatten(c *big.Rat, pows []rpow) radProd {
	c = new(big.Rat).Set(c)
	// equal bases: add the exponents
	byBase := mergePows(pows, func(a, b rpow) bool { return a.b.Cmp(b.b) == 0 },
		func(pw rpow) rpow { return rpow{new(big.Int).Set(pw.b), new(big.Rat).Set(pw.e)} },
		func(acc *rpow, pw rpow) { acc.e = new(big.Rat).Add(acc.e, pw.e) })
	// equal exponents: multiply the bases
	numRat := mergePows(byBase, func(a, b rpow) bool { return a.e.Cmp(b.e) == 0 },
		func(pw rpow) rpow { return pw },
		func(acc *rpow, pw rpow) { acc.b = new(big.Int).Mul(acc.b, pw.b) })
	var kept []rpow
	for _, pw := range numRat {
		e := pw.e
		if e.IsInt() {
			c.Mul(c, new(big.Rat).SetInt(new(big.Int).Exp(pw.b, e.Num(), nil)))
			continue
		}
		if e.Cmp(big.NewRat(1, 1)) > 0 {
			ei := new(big.Int).Quo(e.Num(), e.Denom())
			c.Mul(c, new(big.Rat).SetInt(new(big.Int).Exp(pw.b, ei, nil)))
			e = new(big.Rat).Sub(e, new(big.Rat).SetInt(ei))
		}
		kept = append(kept, rpow{pw.b, e})
	}
	numRat = kept
	// split common factors of bases
	pnew := map[string][]*big.Int{}
	var order []*big.Rat
	one := big.NewInt(1)
	for i := 0; i < len(numRat); i++ {
		bi, ei := numRat[i].b, numRat[i].e
		if bi.Cmp(one) == 0 {
			continue
		}
		var grow []rpow
		for j := i + 1; j < len(numRat); j++ {
			bj, ej := numRat[j].b, numRat[j].e
			g := new(big.Int).GCD(nil, nil, bi, bj)
			if g.Cmp(one) == 0 {
				continue
			}
			e := new(big.Rat).Add(ei, ej)
			if e.IsInt() {
				c.Mul(c, new(big.Rat).SetInt(new(big.Int).Exp(g, e.Num(), nil)))
			} else {
				if e.Cmp(big.NewRat(1, 1)) > 0 {
					ei2 := new(big.Int).Quo(e.Num(), e.Denom())
					c.Mul(c, new(big.Rat).SetInt(new(big.Int).Exp(g, ei2, nil)))
					e = new(big.Rat).Sub(e, new(big.Rat).SetInt(ei2))
				}
				grow = append(grow, rpow{g, e})
			}
			numRat[j] = rpow{new(big.Int).Quo(bj, g), ej}
			bi = new(big.Int).Quo(bi, g)
			if bi.Cmp(one) == 0 {
				break
			}
		}
		if bi.Cmp(one) != 0 {
			obj := intPow(bi, ei)
			c.Mul(c, obj.c)
			for _, pw := range obj.pows {
				k := pw.e.RatString()
				if _, ok := pnew[k]; !ok {
					order = append(order, pw.e)
				}
				pnew[k] = append(pnew[k], pw.b)
			}
		}
		numRat = append(numRat, grow...)
	}
	var out []rpow
	for _, e := range order {
		b := big.NewInt(1)
		for _, x := range pnew[e.RatString()] {
			b.Mul(b, x)
		}
		obj := intPow(b, e)
		c.Mul(c, obj.c)
		out = append(out, obj.pows...)
	}
	slices.SortFunc(out, func(a, b rpow) int {
		if c := strings.Compare(a.b.String(), b.b.String()); c != 0 {
			return c
		}
		return a.e.Cmp(b.e)
	})
	return radProd{c: c, pows: out}
}

func (pw rpow) String() string {
	if pw.e.Cmp(ratHalf) == 0 {
		return "sqrt(" + pw.b.String() + ")"
	}
	return pw.b.String() + "**(" + pw.e.RatString() + ")"
}

// key is SymPy's sort key of b**e with coefficient 1.
func (pw rpow) key() key {
	return tup(ckNumber, tup(1, tup(pw.b.String())), keyNum(pw.e), ratOne)
}

func (r radProd) factorStrings() []string {
	s := make([]string, len(r.pows))
	for i, pw := range r.pows {
		s[i] = pw.String()
	}
	return s
}

// termKey is the sort key of coef * Π pows [* I].
func (r radProd) termKey(coef *big.Rat, imag bool) key {
	kI := tup(ckImag, tup(1, tup("I")), keyNum(ratOne), ratOne)
	var ks []key
	for _, pw := range r.pows {
		ks = append(ks, pw.key())
	}
	if imag {
		ks = append(ks, kI)
	}
	if len(ks) == 1 {
		return keyWithCoeff(ks[0], coef)
	}
	return tup(ckMul, tup(len(ks), tup(ks...)), keyNum(ratOne), coef)
}

// float evaluates Π b**e (without the coefficient).
func (r radProd) float(prec uint) *big.Float {
	v := new(big.Float).SetPrec(prec).SetInt64(1)
	for _, pw := range r.pows {
		bp := new(big.Int).Exp(pw.b, pw.e.Num(), nil)
		v.Mul(v, rootFloat(bp, int(pw.e.Denom().Int64()), prec))
	}
	return v
}

// rootFloat is n**(1/k) for an integer n > 0 (Newton's method).
func rootFloat(n *big.Int, k int, prec uint) *big.Float {
	N := new(big.Float).SetPrec(prec + 64).SetInt(n)
	ev := &numEval{prec: prec + 64}
	z, _ := ev.rootK(cnum{N, ev.f()}, int64(k))
	return new(big.Float).SetPrec(prec).Set(z.re)
}

// timesSqrt3 is sqrt(3)*r as SymPy's roots_binomial multiplies it: sqrt(3)
// is met first, which decides how bases split (sqrt(3)*234**(1/3) is
// 3*26**(1/3)*3**(1/6), not 3**(5/6)*78**(1/3)).
func (r radProd) timesSqrt3() radProd {
	return mulFlatten(r.c, append([]rpow{{big.NewInt(3), big.NewRat(1, 2)}}, r.pows...))
}

// same reports whether two products are written identically.
func (r radProd) same(o radProd) bool {
	if r.c.Cmp(o.c) != 0 || len(r.pows) != len(o.pows) {
		return false
	}
	for i := range r.pows {
		if r.pows[i].b.Cmp(o.pows[i].b) != 0 || r.pows[i].e.Cmp(o.pows[i].e) != 0 {
			return false
		}
	}
	return true
}

func (r radProd) scaled(k *big.Rat) radProd {
	return radProd{c: new(big.Rat).Mul(r.c, k), pows: r.pows}
}
