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
		res, err := solveNumeric(ctx, fromRats(cs), eq.Vars[0], nil)
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
	var roots []string
	switch n {
	case 1:
		res.Method = MethodSymbolicLinear
		roots = []string{sc.ratForm(coef[0].scale(big.NewRat(-1, 1)), coef[1])}
	case 2:
		res.Method = MethodSymbolicQuad
		roots = sc.quadraticRoots(coef[2], coef[1], coef[0])
	}
	// A root without parameters (0 in x*(a*x + b) = 0, 1 in (a + 1)*x = a + 1)
	// is a number: it gets its decimal like any other, and numbers come first
	// in SymPy's order, ascending.
	var nums []*big.Rat
	var syms []string
	for _, r := range roots {
		if v, ok := new(big.Rat).SetString(r); ok && !strings.ContainsAny(r, ".eE") {
			nums = append(nums, v)
		} else {
			syms = append(syms, r)
		}
	}
	slices.SortFunc(nums, func(a, b *big.Rat) int { return a.Cmp(b) })
	for _, v := range nums {
		sd := Surd{P: v}
		res.Solutions = append(res.Solutions, Solution{Exact: sd.String(), Decimal: sd.Decimal(), IsReal: true, Form: "rational"})
	}
	for _, r := range syms {
		res.Solutions = append(res.Solutions, Solution{Exact: r, Form: "symbolic"})
	}
	if len(syms) == 0 {
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
