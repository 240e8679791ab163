package poly

import (
	"context"
	"math/big"
	"slices"
	"strings"
)

// Symbolic parameters: the equation is linear or quadratic in the variable
// with coefficients that are polynomials (rational coefficients) in the
// parameters. The generic solution is printed in the shape sympy.solve gives
// for the common cases (-b/a, (-b - c)/a, -2*c/(a + b), -b/2 - sqrt(b**2 - 4)/2,
// (-b - sqrt(-4*a*c + b**2))/(2*a), ±sqrt(-b/a), roots of a perfect-square
// discriminant). SymPy runs simplify() over these results, whose choices are
// heuristic; where its output differs (e.g. it prints 2 + 2*b/a for
// (2*a + 2*b)/a) our form is the same value written differently — the tests
// check every symbolic root numerically and list the string differences.

type symCtx struct {
	names []string // names[i] is the variable with index i (0 = solve variable)
	order []int    // parameter indices sorted by name (SymPy's generator order)
}

// SymRoot is a symbolic root (P + Q*sqrt(R)) / S with polynomials in the
// parameters; Q is empty for a rational function root.
type SymRoot struct {
	P, Q, R, S MPoly
	rDen       MPoly // when set, the radicand is R/rDen
	text       string
}

func solveSymbolic(ctx context.Context, eq *Equation, used []bool) (*Result, error) {
	sc := &symCtx{names: eq.Vars}
	var params []string
	for i := 1; i < len(eq.Vars); i++ {
		if used[i] {
			sc.order = append(sc.order, i)
			params = append(params, eq.Vars[i])
		}
	}
	slices.SortFunc(sc.order, func(a, b int) int { return strings.Compare(eq.Vars[a], eq.Vars[b]) })
	slices.Sort(params)
	n := eq.Poly.degIn(0)
	coef := make([]MPoly, n+1)
	for i := range coef {
		coef[i] = MPoly{}
	}
	for m, c := range eq.Poly {
		d := 0
		if len(m) > 0 {
			d = int(m[0])
		}
		b := []byte(m)
		if len(b) > 0 {
			b[0] = 0
		}
		coef[d][trimMono(b)] = new(big.Rat).Set(c)
	}
	if n == 0 {
		// The variable does not occur: true for every x only where the
		// parameter expression vanishes; SymPy returns [] (no solution for x).
		return &Result{Degree: 0, Solutions: []Solution{}, Method: MethodNoSolution, Parameters: params}, nil
	}
	// Divide out the content (rational and monomial) of the coefficients:
	// a*x**2 - 4*a = 0 is x**2 - 4 = 0 generically.
	_, gm := contentOf(coef)
	for i := range coef {
		coef[i] = divMono(coef[i], gm)
	}
	stillSym := false
	for _, c := range coef {
		if !c.isConst() {
			stillSym = true
		}
	}
	if !stillSym {
		cs := make([]*big.Rat, n+1)
		for i, c := range coef {
			cs[i] = c.constValue()
		}
		res, err := solveNumeric(ctx, fromRats(cs), eq.Vars[0])
		if err != nil {
			return nil, err
		}
		res.Parameters = params
		res.Generic = true
		return res, nil
	}
	if n > 2 {
		return nil, fail("unsupported_symbolic", "symbolic parameters are supported for linear and quadratic equations only (degree %d in %s)", n, eq.Vars[0])
	}
	res := &Result{Degree: n, Parameters: params, Generic: true}
	var roots []SymRoot
	switch n {
	case 1:
		res.Method = MethodSymbolicLinear
		roots = []SymRoot{sc.linearRoot(coef[1], coef[0])}
	case 2:
		res.Method = MethodSymbolicQuad
		roots = sc.quadraticRoots(coef[2], coef[1], coef[0])
	}
	allNumbers := true
	for _, r := range roots {
		// a root without parameters (0 in x*(a*x + b) = 0, 1 in
		// (a + 1)*x = a + 1) is a number: it gets its decimal like any other
		if v, ok := new(big.Rat).SetString(r.text); ok && !strings.ContainsAny(r.text, ".eE") {
			sd := Surd{P: v}
			res.Solutions = append(res.Solutions, Solution{Exact: sd.String(), Decimal: sd.Decimal(), IsReal: true, Form: "rational", sym: &r})
			continue
		}
		allNumbers = false
		res.Solutions = append(res.Solutions, Solution{Exact: r.text, Form: "symbolic", sym: &r})
	}
	if allNumbers {
		switch n {
		case 1:
			res.Method = MethodLinear
		case 2:
			res.Method = MethodQuadratic
		}
	}
	return res, nil
}

func trimMono(b []byte) mono {
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		n--
	}
	return mono(b[:n])
}

// contentOf returns the positive rational content and the monomial gcd of
// the non-zero polynomials.
func contentOf(ps []MPoly) (*big.Rat, mono) {
	num, den := new(big.Int), big.NewInt(1)
	var gm []byte
	first := true
	for _, p := range ps {
		for m, c := range p {
			num.GCD(nil, nil, num, new(big.Int).Abs(c.Num()))
			g := new(big.Int).GCD(nil, nil, den, c.Denom())
			den.Mul(den, new(big.Int).Quo(c.Denom(), g))
			if first {
				gm = []byte(m)
				first = false
				continue
			}
			for i := range gm {
				e := byte(0)
				if i < len(m) {
					e = m[i]
				}
				gm[i] = min(gm[i], e)
			}
		}
	}
	if num.Sign() == 0 {
		num.SetInt64(1)
	}
	return new(big.Rat).SetFrac(num, den), trimMono(gm)
}

func divMono(p MPoly, m mono) MPoly {
	out := MPoly{}
	for k, c := range p {
		b := []byte(k)
		for i := 0; i < len(m); i++ {
			b[i] -= m[i]
		}
		out[trimMono(b)] = new(big.Rat).Set(c)
	}
	return out
}

// ---------------------------------------------------------------------------
// SymPy-style printing of polynomials in the parameters.

type symTerm struct {
	m mono
	c *big.Rat
}

// terms returns p's terms in SymPy's Add order for polynomials: lexicographic
// by exponents over the parameters sorted by name, highest first.
func (sc *symCtx) terms(p MPoly) []symTerm {
	ts := make([]symTerm, 0, len(p))
	for m, c := range p {
		ts = append(ts, symTerm{m, c})
	}
	slices.SortFunc(ts, func(a, b symTerm) int {
		for _, v := range sc.order {
			ea, eb := expOf(a.m, v), expOf(b.m, v)
			if ea != eb {
				return int(eb) - int(ea)
			}
		}
		return 0
	})
	return ts
}

func expOf(m mono, v int) byte {
	if v < len(m) {
		return m[v]
	}
	return 0
}

// monoString prints a monomial "a**2*b" (variables by name), "" for 1.
func (sc *symCtx) monoString(m mono) string {
	var fs []string
	for _, v := range sc.order {
		switch e := expOf(m, v); e {
		case 0:
		case 1:
			fs = append(fs, sc.names[v])
		default:
			fs = append(fs, sc.names[v]+"**"+itoa(int(e)))
		}
	}
	return strings.Join(fs, "*")
}

// monoFactors lists a monomial's factors as printed ("a**2", "b").
func (sc *symCtx) monoFactors(m mono) []string {
	var fs []string
	for _, v := range sc.order {
		switch e := expOf(m, v); e {
		case 0:
		case 1:
			fs = append(fs, sc.names[v])
		default:
			fs = append(fs, sc.names[v]+"**"+itoa(int(e)))
		}
	}
	return fs
}

func (sc *symCtx) monoVars(m mono) int {
	n := 0
	for _, v := range sc.order {
		if expOf(m, v) > 0 {
			n++
		}
	}
	return n
}

// mulString prints c * factors as SymPy's Mul printer does: "-3*a/2",
// "a/2", "-b", "2*sqrt(a)". factors are already-printed numerator factors;
// denoms are printed denominator factors.
func mulString(c *big.Rat, factors []string, denoms []string) string {
	neg := c.Sign() < 0
	num := new(big.Int).Abs(c.Num())
	var nf []string
	if num.Cmp(big.NewInt(1)) != 0 || len(factors) == 0 {
		nf = append(nf, num.String())
	}
	nf = append(nf, factors...)
	var df []string
	if c.Denom().Cmp(big.NewInt(1)) != 0 {
		df = append(df, c.Denom().String())
	}
	df = append(df, denoms...)
	s := strings.Join(nf, "*")
	if len(df) == 1 {
		s += "/" + df[0]
	} else if len(df) > 1 {
		s += "/(" + strings.Join(df, "*") + ")"
	}
	if neg {
		s = "-" + s
	}
	return s
}

func (sc *symCtx) termString(t symTerm) string {
	if t.m == "" {
		return ratString(t.c)
	}
	var fs []string
	if ms := sc.monoString(t.m); ms != "" {
		fs = append(fs, ms)
	}
	return mulString(t.c, fs, nil)
}

// printedTerm is a term of an Add ready to be joined.
type printedTerm struct {
	s string
	// number: a plain rational; simpleNeg: Mul of a negative number and one
	// other factor (SymPy keeps "positive number + simpleNeg" in that order).
	number, positive, simpleNeg bool
}

func joinAdd(ts []printedTerm) string {
	if len(ts) == 2 && ts[1].number && ts[1].positive && ts[0].simpleNeg {
		ts = []printedTerm{ts[1], ts[0]}
	}
	var b strings.Builder
	for i, t := range ts {
		s := t.s
		switch {
		case i == 0:
			b.WriteString(s)
		case strings.HasPrefix(s, "-"):
			b.WriteString(" - " + s[1:])
		default:
			b.WriteString(" + " + s)
		}
	}
	return b.String()
}

func (sc *symCtx) printedTerms(p MPoly) []printedTerm {
	var out []printedTerm
	for _, t := range sc.terms(p) {
		pt := printedTerm{s: sc.termString(t), number: t.m == "", positive: t.c.Sign() > 0}
		if t.m != "" && t.c.Sign() < 0 && sc.monoVars(t.m) == 1 {
			pt.simpleNeg = true
		}
		out = append(out, pt)
	}
	return out
}

func (sc *symCtx) polyString(p MPoly) string {
	if len(p) == 0 {
		return "0"
	}
	return joinAdd(sc.printedTerms(p))
}

// ---------------------------------------------------------------------------
// Rational functions N/D.

func (p MPoly) isMonomial() bool { return len(p) == 1 }

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

// ratFunc prints N/D after cancelling monomial and rational contents and a
// common proportional factor, in SymPy's Mul printing style.
func (sc *symCtx) ratFunc(N, D MPoly) string {
	if len(N) == 0 {
		return "0"
	}
	if k, ok := proportional(N, D); ok {
		return ratString(k)
	}
	// cancel the monomial gcd
	_, gm := contentOf([]MPoly{N, D})
	N, D = divMono(N, gm), divMono(D, gm)
	if D.isConst() {
		return sc.polyString(N.scale(new(big.Rat).Inv(D.constValue())))
	}
	// denominator with a negative leading term: flip signs
	if sc.leadingSign(D) < 0 {
		N, D = N.scale(big.NewRat(-1, 1)), D.scale(big.NewRat(-1, 1))
	}
	if D.isMonomial() {
		dm, dc := D.onlyTerm()
		// move the denominator's rational factor into the coefficient
		den := sc.monoFactors(dm)
		if N.isMonomial() {
			nm, nc := N.onlyTerm()
			var fs []string
			if s := sc.monoString(nm); s != "" {
				fs = append(fs, s)
			}
			return mulString(new(big.Rat).Quo(nc, dc), fs, den)
		}
		// multi-term numerator: cancel rational content against dc
		cN, _ := contentOf([]MPoly{N})
		k := new(big.Rat).Quo(cN, dc) // N/D = k * (N/cN) / dm
		Np := N.scale(new(big.Rat).Inv(cN))
		// k = p/q: numerator p*(N/cN) expanded when p != 1, q goes below
		Np = Np.scale(new(big.Rat).SetInt(k.Num()))
		q := new(big.Rat).SetInt(k.Denom())
		return mulString(q.Inv(q), []string{"(" + sc.polyString(Np) + ")"}, den)
	}
	dstr := "(" + sc.polyString(D) + ")"
	if N.isMonomial() {
		nm, nc := N.onlyTerm()
		var fs []string
		if s := sc.monoString(nm); s != "" {
			fs = append(fs, s)
		}
		return mulString(nc, fs, []string{dstr})
	}
	return mulString(big.NewRat(1, 1), []string{"(" + sc.polyString(N) + ")"}, []string{dstr})
}

func (sc *symCtx) linearRoot(a, b MPoly) SymRoot {
	N := b.scale(big.NewRat(-1, 1))
	return SymRoot{P: N, S: a, text: sc.ratFunc(N, a)}
}

// ---------------------------------------------------------------------------
// Quadratics.

func (sc *symCtx) quadraticRoots(A, B, C MPoly) []SymRoot {
	if len(C) == 0 {
		// x*(A*x + B) = 0
		r := sc.linearRoot(A, B)
		zero := SymRoot{P: MPoly{}, S: constPoly(big.NewRat(1, 1)), text: "0"}
		return []SymRoot{zero, r}
	}
	two := big.NewRat(2, 1)
	A2 := A.scale(two)
	negB := B.scale(big.NewRat(-1, 1))
	d := B.mul(B).add(A.mul(C).scale(big.NewRat(4, 1)), -1)
	// perfect-square discriminant: two rational-function roots
	if s, ok := polySqrt(d, sc); ok {
		r1 := negB.add(s, -1)
		r2 := negB.add(s, 1)
		out := []SymRoot{{P: r1, S: A2, text: sc.ratFunc(r1, A2)}}
		if len(s) != 0 {
			out = append(out, SymRoot{P: r2, S: A2, text: sc.ratFunc(r2, A2)})
			if out[1].text < out[0].text {
				out[0], out[1] = out[1], out[0]
			}
		}
		return out
	}
	if len(B) == 0 {
		return sc.pureSquareRoots(A, C)
	}
	// extract a rational square factor from the discriminant's content
	cd, _ := contentOf([]MPoly{d})
	sq := big.NewRat(1, 1)
	if sn, ok := ratSqrt(cd); ok {
		sq = sn
		d = d.scale(new(big.Rat).Inv(new(big.Rat).Mul(sn, sn)))
	}
	sqrtStr := "sqrt(" + sc.polyString(d) + ")"
	roots := make([]SymRoot, 2)
	negFirst := make([]bool, 2) // SymPy lists the root with "- sqrt" first
	for i, sign := range []int64{-1, 1} {
		q := new(big.Rat).Mul(sq, big.NewRat(sign, 1))
		var text string
		if A.isConst() {
			// B' + q'*sqrt(d) with B' = -B/(2A), q' = q/(2A)
			a2 := A2.constValue()
			Bp := negB.scale(new(big.Rat).Inv(a2))
			qp := new(big.Rat).Quo(q, a2)
			negFirst[i] = qp.Sign() < 0
			text = sc.addWithSqrt(Bp, qp, sqrtStr)
		} else {
			// (-B + q*sqrt(d)) / (2A), cancelling a common rational content
			cB, _ := contentOf([]MPoly{negB})
			g := ratGCD(cB, new(big.Rat).Abs(q))
			g = ratGCD(g, func() *big.Rat { c, _ := contentOf([]MPoly{A2}); return c }())
			nb := negB.scale(new(big.Rat).Inv(g))
			qq := new(big.Rat).Quo(q, g)
			den := A2.scale(new(big.Rat).Inv(g))
			negFirst[i] = qq.Sign() < 0
			num := "(" + sc.addWithSqrt(nb, qq, sqrtStr) + ")"
			if den.isMonomial() {
				dm, dc := den.onlyTerm()
				text = mulString(new(big.Rat).Inv(dc), []string{num}, sc.monoFactors(dm))
			} else {
				text = num + "/(" + sc.polyString(den) + ")"
			}
		}
		roots[i] = SymRoot{P: negB, Q: MPoly{"": q}, R: d, S: A2, text: text}
	}
	if !negFirst[0] {
		roots[0], roots[1] = roots[1], roots[0]
	}
	return roots
}

// addWithSqrt prints the polynomial p plus q*sqrt(...) ordered as SymPy
// orders Add terms: terms with parameters first (lexicographic), then the
// sqrt term, then the constant.
func (sc *symCtx) addWithSqrt(p MPoly, q *big.Rat, sqrtStr string) string {
	pts := sc.printedTerms(p)
	st := printedTerm{s: mulString(q, []string{sqrtStr}, nil)}
	st.simpleNeg = q.Sign() < 0
	var out []printedTerm
	placed := false
	for _, t := range pts {
		if t.number && !placed {
			out = append(out, st)
			placed = true
		}
		out = append(out, t)
	}
	if !placed {
		out = append(out, st)
	}
	return joinAdd(out)
}

// pureSquareRoots solves A*x**2 + C = 0: x = ±sqrt(-C/A).
func (sc *symCtx) pureSquareRoots(A, C MPoly) []SymRoot {
	negC := C.scale(big.NewRat(-1, 1))
	var inner string
	var factor string
	if A.isConst() {
		r := negC.scale(new(big.Rat).Inv(A.constValue()))
		// extract even powers of a monomial radicand and a square coefficient
		if r.isMonomial() {
			m, c := r.onlyTerm()
			out := []byte(m)
			in := make([]byte, len(m))
			for i := range out {
				in[i] = out[i] % 2
				out[i] /= 2
			}
			var fs []string
			if s := sc.monoString(trimMono(out)); s != "" {
				fs = append(fs, s)
			}
			inMono := trimMono(in)
			coef := big.NewRat(1, 1)
			rad := MPoly{inMono: new(big.Rat).Set(c)}
			if c.Sign() < 0 {
				if sq, ok := ratSqrt(new(big.Rat).Neg(c)); ok {
					coef = sq
					rad = MPoly{inMono: big.NewRat(-1, 1)}
				}
			} else if sq, ok := ratSqrt(c); ok {
				coef = sq
				rad = MPoly{inMono: big.NewRat(1, 1)}
			}
			if inMono == "" {
				// radicand is ±1: sqrt(1) = 1, sqrt(-1) = I
				if rad[""].Sign() < 0 {
					fs = append([]string{"I"}, fs...)
				}
			} else {
				fs = append(fs, "sqrt("+sc.polyString(rad)+")")
			}
			texts := []string{mulString(new(big.Rat).Neg(coef), fs, nil), mulString(coef, fs, nil)}
			return []SymRoot{{P: MPoly{}, Q: MPoly{"": big.NewRat(-1, 1)}, R: r, S: constPoly(big.NewRat(1, 1)), text: texts[0]},
				{P: MPoly{}, Q: MPoly{"": big.NewRat(1, 1)}, R: r, S: constPoly(big.NewRat(1, 1)), text: texts[1]}}
		}
		inner = sc.polyString(r)
		factor = "sqrt(" + inner + ")"
		return []SymRoot{
			{P: MPoly{}, Q: MPoly{"": big.NewRat(-1, 1)}, R: r, S: constPoly(big.NewRat(1, 1)), text: "-" + factor},
			{P: MPoly{}, Q: MPoly{"": big.NewRat(1, 1)}, R: r, S: constPoly(big.NewRat(1, 1)), text: factor},
		}
	}
	inner = sc.ratFunc(negC, A)
	factor = "sqrt(" + inner + ")"
	// R = -C/A as a rational function: keep numerator and denominator
	return []SymRoot{
		{P: MPoly{}, Q: MPoly{"": big.NewRat(-1, 1)}, R: negC, S: constPoly(big.NewRat(1, 1)), text: "-" + factor, rDen: A},
		{P: MPoly{}, Q: MPoly{"": big.NewRat(1, 1)}, R: negC, S: constPoly(big.NewRat(1, 1)), text: factor, rDen: A},
	}
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
