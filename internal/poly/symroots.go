package poly

import (
	"math/big"
	"slices"
	"strings"
)

// Printing of symbolic roots the way sympy.solve writes them. SymPy's path
// for a quadratic A*x**2 + B*x + C (polyroots.roots_quadratic):
//
//	r = factor(-C/A), roots ±_sqrt(r)                      (B = 0)
//	d = factor(B**2 - 4*A*C), B' = factor(-B/(2*A)),
//	roots B' ∓ factor_terms(_sqrt(d)/(2*A))                (otherwise)
//
// where _sqrt takes the even powers out of the factors of its argument, and
// SymPy's automatic evaluation splits sqrt(k*X) into sqrt(k)*sqrt(X) for a
// rational k (sqrt(2*a) is sqrt(2)*sqrt(a), sqrt(-2*a) is sqrt(2)*sqrt(-a)).
// simplify() then runs over each root. What is modelled here: factoring into
// rational content × monomial × the remaining primitive polynomial (which is
// not factored further), the even-power extraction, the numeric split and
// its undoing for a bare sum (sqrt(2)*sqrt(a + b) becomes sqrt(2*a + 2*b)),
// and simplify's extraction of a common monomial factor. simplify() is
// heuristic beyond that; where it chooses another shape the root is the same
// value written differently (every root is checked, see verify.go).

func (p MPoly) onlyTerm() (mono, *big.Rat) {
	for m, c := range p {
		return m, c
	}
	return "", new(big.Rat)
}

// leadingSign is the sign of the first term in SymPy's printed order.
func (sc *symCtx) leadingSign(p MPoly) int {
	ts := sc.terms(p)
	if len(ts) == 0 {
		return 0
	}
	return ts[0].c.Sign()
}

// proportional reports whether a = k*b for a rational k (returned).
func proportional(a, b MPoly) (*big.Rat, bool) {
	if len(a) != len(b) || len(a) == 0 {
		return nil, false
	}
	var k *big.Rat
	for m, c := range a {
		cb, ok := b[m]
		if !ok {
			return nil, false
		}
		r := new(big.Rat).Quo(c, cb)
		if k == nil {
			k = r
		} else if k.Cmp(r) != 0 {
			return nil, false
		}
	}
	return k, true
}

// prim splits p = c·m·q: c > 0 rational content, m the monomial gcd, q a
// polynomial with coprime integer coefficients (the sign stays in q).
func prim(p MPoly) (*big.Rat, []int, MPoly) {
	c, m := contentOf([]MPoly{p})
	q := divMono(p, m).scale(new(big.Rat).Inv(c))
	return c, monoExps(m), q
}

// monoExps returns the exponents of a monomial, indexed by variable.
func monoExps(m mono) []int {
	e := make([]int, len(m))
	for i, b := range []byte(m) {
		e[i] = int(b)
	}
	return e
}

func expAt(e []int, i int) int {
	if i < len(e) {
		return e[i]
	}
	return 0
}

func subExps(a, b []int) []int {
	out := make([]int, max(len(a), len(b)))
	for i := range out {
		out[i] = expAt(a, i) - expAt(b, i)
	}
	return out
}

// negTerms counts the negative coefficients.
func negTerms(p MPoly) int {
	n := 0
	for _, c := range p {
		if c.Sign() < 0 {
			n++
		}
	}
	return n
}

// ---------------------------------------------------------------------------
// A product as SymPy prints it: rational coefficient, then the factors in
// SymPy's order (numeric square roots, I, symbols by name and exponent, then
// compound factors), negative powers below the fraction bar.

type mfac struct {
	class int    // 0 sqrt(integer), 1 I, 2 symbol or sqrt(symbol), 3 compound
	name  string // class 2: the symbol
	exp   *big.Rat
	text  string // printed factor (for a negative power: the positive power)
	den   bool   // below the fraction bar
}

func (sc *symCtx) symFactors(e []int) []mfac {
	var fs []mfac
	for _, v := range sc.order {
		x := expAt(e, v)
		if x == 0 {
			continue
		}
		name := sc.names[v]
		ax := x
		if ax < 0 {
			ax = -ax
		}
		text := name
		if ax != 1 {
			text += "**" + itoa(ax)
		}
		fs = append(fs, mfac{class: 2, name: name, exp: big.NewRat(int64(x), 1), text: text, den: x < 0})
	}
	return fs
}

func printMul(c *big.Rat, fs []mfac) string {
	slices.SortStableFunc(fs, func(a, b mfac) int {
		if a.class != b.class {
			return a.class - b.class
		}
		if a.class == 2 {
			if c := strings.Compare(a.name, b.name); c != 0 {
				return c
			}
			return a.exp.Cmp(b.exp)
		}
		return 0
	})
	var num, den []string
	for _, f := range fs {
		if f.den {
			den = append(den, f.text)
		} else {
			num = append(num, f.text)
		}
	}
	return mulString(c, num, den)
}

// ---------------------------------------------------------------------------
// Rational functions N/D as SymPy's factor()/cancel() leave them: integer
// content and monomials taken out of numerator and denominator, the
// denominator's leading coefficient positive, a number times a single sum
// distributed (Mul(2, a + b) is 2*a + 2*b).

func (sc *symCtx) ratForm(N, D MPoly) string {
	if len(N) == 0 {
		return "0"
	}
	if k, ok := proportional(N, D); ok {
		return ratString(k)
	}
	cN, mN, qN := prim(N)
	cD, mD, qD := prim(D)
	if len(qD) > 1 && sc.leadingSign(qD) < 0 {
		qN, qD = qN.scale(big.NewRat(-1, 1)), qD.scale(big.NewRat(-1, 1))
	}
	k := new(big.Rat).Quo(cN, cD)
	if len(qD) == 1 {
		// the sign of a monomial denominator moves into the numerator's sum
		// (4*(-2*a**2*b - b - 1)/(5*a**2)), or into the coefficient
		if _, c := qD.onlyTerm(); c.Sign() < 0 {
			if len(qN) > 1 {
				qN = qN.scale(big.NewRat(-1, 1))
			} else {
				k.Neg(k)
			}
		}
		qD = nil
	}
	if len(qN) == 1 {
		_, c := qN.onlyTerm()
		k.Mul(k, c)
		qN = nil
	}
	if qN != nil && qD != nil {
		if r, ok := proportional(qN, qD); ok {
			k.Mul(k, r)
			qN, qD = nil, nil
		}
	}
	e := subExps(mN, mD)
	fs := sc.symFactors(e)
	if qN != nil {
		if len(fs) == 0 && qD == nil {
			// Mul(number, sum) distributes
			return sc.polyString(qN.scale(k))
		}
		fs = append(fs, mfac{class: 3, text: "(" + sc.polyString(qN) + ")"})
	}
	if qD != nil {
		if len(fs) == 0 {
			// p/(q*(sum)): Mul(q, sum) distributes below the bar
			den := qD.scale(new(big.Rat).SetInt(k.Denom()))
			return mulString(new(big.Rat).SetInt(k.Num()), nil, []string{"(" + sc.polyString(den) + ")"})
		}
		fs = append(fs, mfac{class: 3, text: "(" + sc.polyString(qD) + ")", den: true})
	}
	return printMul(k, fs)
}

// factoredSum prints a sum whose terms share a monomial as factor() does
// (3*b*(5*a - 1), -b*(6*a**2*b + 1) when every term is negative); "" when
// factor() would leave it a sum.
func (sc *symCtx) factoredSum(p MPoly) string {
	if len(p) < 2 {
		return ""
	}
	one := constPoly(big.NewRat(1, 1))
	f := sc.ratForm(p, one)
	if !strings.Contains(f, "*(") {
		return ""
	}
	if negTerms(p) == len(p) {
		f = "-" + sc.ratForm(p.scale(big.NewRat(-1, 1)), one)
	}
	return f
}

// ---------------------------------------------------------------------------
// Square roots.

// sqrtRat writes sqrt(k) for a rational k > 0 as c*sqrt(m), m an integer
// with the square factors SymPy takes out removed (sqrt(1/3) = sqrt(3)/3).
func sqrtRat(k *big.Rat) (*big.Rat, *big.Int) {
	nd := new(big.Int).Mul(k.Num(), k.Denom())
	s, m := splitSquare(nd)
	return new(big.Rat).SetFrac(s, k.Denom()), m
}

// radical is c * (symbols^co) * sqrt(m) * [I] * sqrt(inner): the printed
// form of _sqrt(k * monomial * q), q a polynomial or nil.
type radical struct {
	c     *big.Rat
	co    []int
	m     *big.Int
	imag  bool
	inner *mfac // sqrt(...) factor, nil when everything came out
	// numeric: the root carried a number before simplify() merged it into
	// a sum (sqrt(5)*sqrt(5*b**2 - 4) is printed sqrt(25*b**2 - 20))
	numeric bool
	merged  bool // the numeric root went into a bare sum
	// absorbed: for sqrt(-X*(q)) with a negative term in q, the form
	// sqrt(X*(-q)) that simplify() gives the positive root
	absorbed *mfac
}

// sqrtOf builds _sqrt(k · Π v^e · q / qd) (q, qd polynomials or nil): even
// powers of the symbols come out, the rational k splits off as SymPy's
// automatic evaluation does, and a bare sum absorbs the numeric root.
func (sc *symCtx) sqrtOf(k *big.Rat, e []int, q, qd MPoly) radical {
	co := make([]int, len(e))
	odd := make([]int, len(e))
	anyOdd := false
	for i, x := range e {
		if x%2 == 0 {
			co[i] = x / 2
		} else {
			odd[i] = x
			anyOdd = true
		}
	}
	sign := k.Sign()
	c, m := sqrtRat(new(big.Rat).Abs(k))
	r := radical{c: c, co: co, m: m, numeric: m.Cmp(big.NewInt(1)) != 0}
	if !anyOdd && q == nil && qd == nil {
		r.imag = sign < 0
		return r
	}
	if !anyOdd && qd == nil {
		// sqrt(m)*sqrt(±q): simplify() merges them into one root of a sum
		sum := q.scale(new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(sign)), m), big.NewInt(1)))
		r.m = big.NewInt(1)
		r.merged = r.numeric
		r.inner = &mfac{class: 3, text: "sqrt(" + sc.polyString(sum) + ")"}
		return r
	}
	// the argument is a product: sign, odd powers, polynomial factors
	fs := sc.symFactors(odd)
	nsym := len(fs)
	var absorbed []mfac
	if q != nil {
		// the factor's sign as simplify() leaves it: the one with fewer
		// negative terms, a positive leading coefficient on a tie
		neg := q.scale(big.NewRat(-1, 1))
		if nq, nn := negTerms(q), negTerms(neg); nn < nq || (nn == nq && sc.leadingSign(q) < 0) {
			q, sign = neg, -sign
		}
		if sign < 0 && negTerms(q) > 0 {
			absorbed = append(slices.Clone(fs), mfac{class: 3, text: "(" + sc.polyString(q.scale(big.NewRat(-1, 1))) + ")"})
		}
		fs = append(fs, mfac{class: 3, text: "(" + sc.polyString(q) + ")"})
	}
	if qd != nil {
		fs = append(fs, mfac{class: 3, text: "(" + sc.polyString(qd) + ")", den: true})
		if absorbed != nil {
			absorbed = append(absorbed, fs[len(fs)-1])
		}
	}
	if absorbed != nil {
		r.absorbed = &mfac{class: 3, text: "sqrt(" + printMul(big.NewRat(1, 1), absorbed) + ")"}
	}
	if sign > 0 && nsym == 1 && q == nil && qd == nil {
		f := fs[0]
		if f.exp.Cmp(big.NewRat(1, 1)) == 0 {
			// sqrt(a) sorts with the symbols
			r.inner = &mfac{class: 2, name: f.name, exp: big.NewRat(1, 2), text: "sqrt(" + f.name + ")"}
			return r
		}
		// a lone power prints as a**3 or a**(-3)
		switch {
		case f.exp.Cmp(big.NewRat(-1, 1)) == 0:
			r.inner = &mfac{class: 3, text: "sqrt(1/" + f.name + ")"}
		case f.exp.Sign() < 0:
			r.inner = &mfac{class: 3, text: "sqrt(" + f.name + "**(" + f.exp.RatString() + "))"}
		default:
			r.inner = &mfac{class: 3, text: "sqrt(" + f.name + "**" + f.exp.RatString() + ")"}
		}
		return r
	}
	r.inner = &mfac{class: 3, text: "sqrt(" + printMul(big.NewRat(int64(sign), 1), fs) + ")"}
	return r
}

// sqrtOfPoly is _sqrt(factor(d)) for a polynomial d: content × monomial ×
// the remaining polynomial (nil when it is ±1).
func (sc *symCtx) sqrtOfPoly(d MPoly) radical {
	cd, md, qd := prim(d)
	if len(qd) == 1 {
		_, c := qd.onlyTerm()
		return sc.sqrtOf(new(big.Rat).Mul(cd, c), md, nil, nil)
	}
	return sc.sqrtOf(cd, md, qd, nil)
}

// factors lists the radical's factors (without its coefficient).
func (sc *symCtx) radFactors(r radical) []mfac {
	var fs []mfac
	if r.m.Cmp(big.NewInt(1)) != 0 {
		fs = append(fs, mfac{class: 0, text: "sqrt(" + r.m.String() + ")"})
	}
	if r.imag {
		fs = append(fs, mfac{class: 1, text: "I"})
	}
	fs = append(fs, sc.symFactors(r.co)...)
	if r.inner != nil {
		fs = append(fs, *r.inner)
	}
	return fs
}

// ---------------------------------------------------------------------------
// Quadratics.

func (sc *symCtx) quadraticRoots(A, B, C MPoly) []string {
	if len(C) == 0 {
		// x*(A*x + B) = 0; A*x**2 = 0 has the one root 0
		if len(B) == 0 {
			return []string{"0"}
		}
		return []string{"0", sc.ratForm(B.scale(big.NewRat(-1, 1)), A)}
	}
	two := big.NewRat(2, 1)
	A2 := A.scale(two)
	negB := B.scale(big.NewRat(-1, 1))
	d := B.mul(B).add(A.mul(C).scale(big.NewRat(4, 1)), -1)
	// perfect-square discriminant: two rational-function roots
	if s, ok := polySqrt(d, sc); ok {
		out := []string{sc.ratForm(negB.add(s, -1), A2)}
		if len(s) != 0 {
			out = append(out, sc.ratForm(negB.add(s, 1), A2))
			if out[1] < out[0] {
				out[0], out[1] = out[1], out[0]
			}
		}
		return out
	}
	if len(B) == 0 {
		return sc.pureSquareRoots(A, C)
	}
	if A.isConst() {
		return sc.quadraticConstLead(A.constValue(), negB, d)
	}
	return sc.quadraticGeneral(A2, negB, d)
}

// pureSquareRoots solves A*x**2 + C = 0: ±_sqrt(factor(-C/A)).
func (sc *symCtx) pureSquareRoots(A, C MPoly) []string {
	cN, mN, qN := prim(C.scale(big.NewRat(-1, 1)))
	cD, mD, qD := prim(A)
	if len(qD) > 1 && sc.leadingSign(qD) < 0 {
		qN, qD = qN.scale(big.NewRat(-1, 1)), qD.scale(big.NewRat(-1, 1))
	}
	k := new(big.Rat).Quo(cN, cD)
	if len(qD) == 1 {
		_, c := qD.onlyTerm()
		k.Mul(k, c)
		qD = nil
	}
	if len(qN) == 1 {
		_, c := qN.onlyTerm()
		k.Mul(k, c)
		qN = nil
	}
	r := sc.sqrtOf(k, subExps(mN, mD), qN, qD)
	fs := sc.radFactors(r)
	neg := new(big.Rat).Neg(r.c)
	if r.absorbed != nil {
		r.inner = r.absorbed
		return []string{printMul(r.c, sc.radFactors(r)), printMul(neg, fs)}
	}
	return []string{printMul(neg, slices.Clone(fs)), printMul(r.c, fs)}
}

// quadraticConstLead solves a*x**2 + B*x + C = 0 for a number a: the roots
// B' ∓ D with B' = -B/(2a) and D = _sqrt(d)/(2a), d = B**2 - 4*a*C.
func (sc *symCtx) quadraticConstLead(a *big.Rat, negB, d MPoly) []string {
	a2 := new(big.Rat).Mul(a, big.NewRat(2, 1))
	Bp := negB.scale(new(big.Rat).Inv(a2))
	rad := sc.sqrtOfPoly(d)
	// D = rad / (2a): its coefficient carries 1/(2a)
	dc := new(big.Rat).Quo(rad.c, a2)
	sqFs := sc.radFactors(radical{c: ratOne, co: make([]int, len(rad.co)), m: rad.m, imag: rad.imag, inner: rad.inner})
	// common monomial factor of B' and the radical term, pulled out by simplify()
	g := slices.Clone(rad.co)
	for m := range Bp {
		ex := monoExps(m)
		for i := range g {
			g[i] = min(g[i], expAt(ex, i))
		}
	}
	for i := range g {
		g[i] = max(g[i], 0)
	}
	pull := false
	for _, x := range g {
		if x > 0 {
			pull = true
		}
	}
	type root struct {
		text    string
		negPull bool
		negRad  bool
	}
	roots := make([]root, 2)
	for i, sg := range []int64{-1, 1} {
		coef := new(big.Rat).Mul(dc, big.NewRat(sg, 1))
		roots[i].negRad = coef.Sign() < 0
		if !pull {
			rt := printMul(coef, append(sc.symFactors(rad.co), slices.Clone(sqFs)...))
			if f := sc.factoredSum(Bp); f != "" {
				// factor(-B/(2a)) keeps a product: one term before the radical
				roots[i].text = joinAdd([]printedTerm{{s: f}, {s: rt}})
			} else {
				roots[i].text = sc.addWithRadical(Bp, rt, coef.Sign() < 0)
			}
			continue
		}
		// g * (B'/g + coef*(co/g)*sqrt) with the rational content pulled too
		gm := expsMono(g)
		inB := divMono(Bp, gm)
		cont := new(big.Rat).Abs(coef)
		for _, c := range inB {
			cont = ratGCD(cont, new(big.Rat).Abs(c))
		}
		inB = inB.scale(new(big.Rat).Inv(cont))
		ic := new(big.Rat).Quo(coef, cont)
		allNeg := ic.Sign() < 0
		for _, c := range inB {
			if c.Sign() > 0 {
				allNeg = false
			}
		}
		// a leading minus is pulled out when every term is negative and the
		// radical term carries a number (2*sqrt(3), sqrt(3)*sqrt(a), a
		// number merged into the root)
		if allNeg && (ic.Cmp(big.NewRat(-1, 1)) != 0 || rad.m.Cmp(big.NewInt(1)) != 0 || rad.merged) {
			inB, ic = inB.scale(big.NewRat(-1, 1)), new(big.Rat).Neg(ic)
			cont.Neg(cont)
			roots[i].negPull = true
		}
		var inner string
		if rad.inner == nil && inB.isConst() && len(subExps(rad.co, g)) == countZero(subExps(rad.co, g)) {
			D := new(big.Int).Set(rad.m)
			if rad.imag {
				D.Neg(D)
			}
			inner = Surd{P: inB.constValue(), Q: ic, D: D}.String()
		} else {
			inner = sc.addWithRadical(inB, printMul(ic, append(sc.symFactors(subExps(rad.co, g)), slices.Clone(sqFs)...)), ic.Sign() < 0)
		}
		fs := append(sc.symFactors(g), mfac{class: 3, text: "(" + inner + ")"})
		roots[i].text = printMul(cont, fs)
	}
	// SymPy's order: a root whose sign was pulled out sorts last; otherwise
	// the one with "- sqrt" first
	if roots[0].negPull || (!roots[1].negPull && !roots[0].negRad) {
		return []string{roots[1].text, roots[0].text}
	}
	return []string{roots[0].text, roots[1].text}
}

func countZero(e []int) int {
	n := 0
	for _, x := range e {
		if x == 0 {
			n++
		}
	}
	return n
}

func expsMono(e []int) mono {
	b := make([]byte, len(e))
	for i, x := range e {
		b[i] = byte(x)
	}
	return trimMono(b)
}

// quadraticGeneral handles a leading coefficient with parameters:
// (-B ∓ _sqrt(d)) / (2A), printed as SymPy's simplify() usually leaves it:
// the denominator factored (content, monomial, primitive sum with a
// positive leading coefficient), a monomial and a rational content common
// to the numerator and the denominator cancelled, a monomial common to the
// whole numerator written in front, and -B factored when its terms share a
// monomial (3*b*(5*a - 1) - sqrt(...)).
func (sc *symCtx) quadraticGeneral(A2, negB, d MPoly) []string {
	rad := sc.sqrtOfPoly(d)
	sqFs := sc.radFactors(radical{c: ratOne, co: make([]int, len(rad.co)), m: rad.m, imag: rad.imag, inner: rad.inner})
	cA, mA, qA := prim(A2)
	sign := int64(1)
	if sc.leadingSign(qA) < 0 {
		qA, sign = qA.scale(big.NewRat(-1, 1)), -1
	}
	// monomial common to -B and the radical's outside part
	g := slices.Clone(rad.co)
	for m := range negB {
		ex := monoExps(m)
		for i := range g {
			g[i] = min(g[i], expAt(ex, i))
		}
	}
	// cancel against the denominator's monomial
	cm := make([]int, max(len(g), len(mA)))
	for i := range cm {
		cm[i] = max(0, min(expAt(g, i), expAt(mA, i)))
	}
	g, mA = subExps(g, cm), subExps(mA, cm)
	nb := divMono(negB, expsMono(cm))
	co := subExps(rad.co, cm)
	// rational content of numerator and denominator
	cB, _ := contentOf([]MPoly{nb})
	cont := ratGCD(ratGCD(cB, rad.c), cA)
	nb = nb.scale(new(big.Rat).Quo(big.NewRat(sign, 1), cont))
	rc := new(big.Rat).Quo(rad.c, cont)
	rc.Mul(rc, big.NewRat(sign, 1))
	dc := new(big.Rat).Quo(cA, cont)
	// a monomial common to the whole numerator goes in front
	pull := false
	for _, x := range g {
		if x > 0 {
			pull = true
		}
	}
	if pull {
		nb = divMono(nb, expsMono(g))
		co = subExps(co, g)
	}
	var dfs []mfac
	for _, f := range sc.symFactors(mA) {
		f.den = true
		dfs = append(dfs, f)
	}
	if len(qA) > 1 {
		dfs = append(dfs, mfac{class: 3, text: "(" + sc.polyString(qA) + ")", den: true})
	} else {
		_, c := qA.onlyTerm()
		dc.Mul(dc, c)
	}
	roots := make([]string, 2)
	for i, sg := range []int64{-1, 1} {
		qq := new(big.Rat).Mul(rc, big.NewRat(sg, 1))
		rt := printMul(qq, append(sc.symFactors(co), slices.Clone(sqFs)...))
		var inner string
		k := new(big.Rat).Inv(dc)
		nbk := nb
		if rad.merged && len(dfs) > 0 {
			// the denominator's number goes into the sum
			// ((-sqrt(24*a*b - 24*b**3 + 9)/6 - 1/2)/(a - b**2))
			nbk = nb.scale(k)
			rt = printMul(new(big.Rat).Mul(qq, k), append(sc.symFactors(co), slices.Clone(sqFs)...))
			k = big.NewRat(1, 1)
		}
		if f := sc.factoredSum(nbk); f != "" {
			// -B factored: one product term before the radical
			inner = joinAdd([]printedTerm{{s: f}, {s: rt}})
		}
		if inner == "" {
			inner = sc.addWithRadical(nbk, rt, qq.Sign() < 0)
		}
		fs := append(slices.Clone(dfs), mfac{class: 3, text: "(" + inner + ")"})
		if pull {
			fs = append(fs, sc.symFactors(g)...)
		}
		if len(fs) == 1 {
			// no denominator at all: the sum stands alone
			roots[i] = sc.addWithRadical(nb.scale(k), printMul(new(big.Rat).Mul(qq, k), append(sc.symFactors(co), slices.Clone(sqFs)...)), qq.Sign()*k.Sign() < 0)
			continue
		}
		roots[i] = printMul(k, fs)
	}
	if rc.Sign() < 0 {
		roots[0], roots[1] = roots[1], roots[0]
	}
	return roots
}

// addWithRadical prints the polynomial p plus the printed radical term t as
// SymPy orders Add terms: terms with parameters first (lexicographic), then
// the radical term, then the constant.
func (sc *symCtx) addWithRadical(p MPoly, t string, neg bool) string {
	pts := sc.printedTerms(p)
	st := printedTerm{s: t, simpleNeg: neg}
	var out []printedTerm
	placed := false
	for _, pt := range pts {
		if pt.number && !placed {
			out = append(out, st)
			placed = true
		}
		out = append(out, pt)
	}
	if !placed {
		out = append(out, st)
	}
	return joinAdd(out)
}

func ratSqrt(r *big.Rat) (*big.Rat, bool) {
	if r.Sign() < 0 {
		return nil, false
	}
	n, d := new(big.Int).Sqrt(r.Num()), new(big.Int).Sqrt(r.Denom())
	if new(big.Int).Mul(n, n).Cmp(r.Num()) != 0 || new(big.Int).Mul(d, d).Cmp(r.Denom()) != 0 {
		return nil, false
	}
	return new(big.Rat).SetFrac(n, d), true
}

func ratGCD(a, b *big.Rat) *big.Rat {
	// gcd of rationals p1/q1, p2/q2 = gcd(p1, p2) / lcm(q1, q2)
	n := new(big.Int).GCD(nil, nil, new(big.Int).Abs(a.Num()), new(big.Int).Abs(b.Num()))
	g := new(big.Int).GCD(nil, nil, a.Denom(), b.Denom())
	l := new(big.Int).Mul(a.Denom(), new(big.Int).Quo(b.Denom(), g))
	if n.Sign() == 0 {
		return big.NewRat(1, 1)
	}
	return new(big.Rat).SetFrac(n, l)
}

// polySqrt returns s with s² = p when p is the square of a polynomial with
// rational coefficients (leading term of s positive).
func polySqrt(p MPoly, sc *symCtx) (MPoly, bool) {
	if len(p) == 0 {
		return MPoly{}, true
	}
	ts := sc.terms(p)
	lm, lc := ts[0].m, ts[0].c
	for _, e := range []byte(lm) {
		if e%2 != 0 {
			return nil, false
		}
	}
	c, ok := ratSqrt(lc)
	if !ok {
		return nil, false
	}
	hb := []byte(lm)
	for i := range hb {
		hb[i] /= 2
	}
	lead := symTerm{trimMono(hb), c}
	s := MPoly{lead.m: new(big.Rat).Set(c)}
	for iter := 0; iter <= len(p)+1; iter++ {
		r := p.add(s.mul(s), -1)
		if len(r) == 0 {
			return s, true
		}
		rt := sc.terms(r)[0]
		// next term t = LT(r) / (2*LT(s))
		nb := []byte(rt.m)
		for i := range nb {
			var e byte
			if i < len(lead.m) {
				e = lead.m[i]
			}
			if nb[i] < e {
				return nil, false
			}
			nb[i] -= e
		}
		for i := len(nb); i < len(lead.m); i++ {
			if lead.m[i] > 0 {
				return nil, false
			}
		}
		tc := new(big.Rat).Quo(rt.c, new(big.Rat).Mul(big.NewRat(2, 1), c))
		addInto(s, trimMono(nb), tc)
	}
	return nil, false
}
