package poly

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/cmplx"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// Solution is one root.
type Solution struct {
	Exact   string // SymPy str() of the exact root, or CRootOf(poly, k)
	Decimal string // SymPy str(N(root, 34))
	IsReal  bool
	Form    string // rational | radical | root_of | symbolic
}

// Result of solving one equation.
type Result struct {
	Degree    int
	Solutions []Solution
	Method    string
	// OmittedNonReal counts non-real roots of irreducible factors of degree
	// ≥ 3 that are not reported (only real roots are isolated there).
	OmittedNonReal int
	// Generic is set for symbolic solutions, valid where the leading
	// coefficient (in the parameters) is non-zero.
	Generic bool
	// Parameters are the symbolic parameters that occur, sorted.
	Parameters []string
}

// Methods reported in Result.Method.
const (
	MethodNoSolution     = "no_solution"
	MethodLinear         = "linear"
	MethodQuadratic      = "quadratic_formula"
	MethodFactorization  = "factorization"
	MethodNumeric        = "factorization+root_isolation"
	MethodSymbolicLinear = "symbolic_linear"
	MethodSymbolicQuad   = "symbolic_quadratic"
)

// Solve parses and solves the equation in variable v. Errors are *Error
// (refusals and cost limits) or ctx.Err(). Every answer has passed the root
// self-check (verify.go); one that does not is refused with reason
// root_verification_failed.
func Solve(ctx context.Context, equation, v string, lim Limits) (*Result, error) {
	eq, err := Parse(equation, v, lim)
	if err != nil {
		return nil, err
	}
	res, err := solveParsed(ctx, eq, v, equationFactors(equation, v, lim))
	if err != nil {
		return nil, err
	}
	if err := verify(ctx, equation, eq, res); err != nil {
		return nil, err
	}
	return res, nil
}

func solveParsed(ctx context.Context, eq *Equation, v string, factors []MPoly) (*Result, error) {
	used := usedVars(eq.Poly, len(eq.Vars))
	for i := 1; i < len(eq.Vars); i++ {
		if used[i] {
			return solveSymbolic(ctx, eq, used)
		}
	}
	cs := eq.Poly.coeffsIn0()
	if len(cs) == 1 {
		if cs[0].Sign() == 0 {
			return nil, fail("identity_all_values", "the equation holds for every value of %s (both sides are identical)", v)
		}
		return &Result{Degree: 0, Solutions: []Solution{}, Method: MethodNoSolution}, nil
	}
	return solveNumeric(ctx, fromRats(cs), v, piecesOf(factors))
}

// piecesOf turns the factors of a product into integer polynomials, equal
// factors merged into a power (as SymPy's Mul does).
func piecesOf(factors []MPoly) []IPoly {
	if factors == nil {
		return nil
	}
	var out []IPoly
	for _, m := range factors {
		for mo := range m {
			if len(mo) > 1 {
				return nil // a parameter: not a numeric piece
			}
		}
		p := fromRats(m.coeffsIn0())
		merged := false
		for i, q := range out {
			if sq := squarefree(q); polyEqual(squarefree(p), sq) && polyEqual(p, sq) {
				out[i] = mulPoly(q, p)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, p)
		}
	}
	return out
}

func mulPoly(a, b IPoly) IPoly {
	out := make(IPoly, len(a)+len(b)-1)
	for i := range out {
		out[i] = new(big.Int)
	}
	t := new(big.Int)
	for i, x := range a {
		for j, y := range b {
			out[i+j].Add(out[i+j], t.Mul(x, y))
		}
	}
	return out
}

func usedVars(p MPoly, n int) []bool {
	used := make([]bool, n)
	for m := range p {
		for i, e := range []byte(m) {
			if e > 0 {
				used[i] = true
			}
		}
	}
	return used
}

type numericRoot struct {
	factor IPoly
	index  int
	value  *big.Float // real root
	cvalue *cfloat    // non-real root
}

// solveNumeric solves f = 0; pieces are the polynomials SymPy would hand to
// roots() (the factors of an equation written as a product, else nil for f
// itself), which decide how some radicals are printed.
func solveNumeric(ctx context.Context, f IPoly, v string, pieces []IPoly) (*Result, error) {
	res := &Result{Degree: f.deg()}
	g := squarefree(f)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// 1. Rational roots: isolate the real roots; an exact hit at a dyadic
	// point is rational, and every other isolated root is refined until
	// rationality is decided (lc·root must be an integer).
	iso, err := isolateReal(ctx, g)
	if err != nil {
		return nil, err
	}
	rationals := slices.Clone(iso.exact)
	g2 := g
	for _, r := range iso.exact {
		if g2, err = divLinear(g2, r); err != nil {
			return nil, err
		}
	}
	var irrational []*big.Float // real irrational roots of g, refined
	for _, iv := range iso.intervals {
		rr, err := refineRoot(ctx, g2, iv)
		if err != nil {
			return nil, err
		}
		if rr.rational != nil {
			rationals = append(rationals, rr.rational)
		} else {
			irrational = append(irrational, rr.approx)
		}
	}
	h := g
	for _, r := range rationals {
		if h, err = divLinear(h, r); err != nil {
			return nil, err
		}
	}
	var surds []exactRoot
	for _, r := range rationals {
		surds = append(surds, Surd{P: r})
	}
	// 2. Quadratic factors of the rest give radicals.
	var quads []IPoly
	if h.deg() == 2 {
		quads = append(quads, h)
		h = IPoly{big.NewInt(1)}
	} else if h.deg() >= 4 {
		quads, h = quadraticFactors(h)
	}
	for _, q := range quads {
		for _, r := range quadraticRoots(q) {
			surds = append(surds, r)
		}
	}
	// Irreducible biquadratic factors: nested square roots, as SymPy writes
	// them in the context of the piece it solved (context.go).
	if pieces == nil {
		pieces = []IPoly{f}
	}
	if h.deg() >= 4 {
		var bq []IPoly
		bq, h = biquadraticFactors(h)
		for _, q := range bq {
			surds = append(surds, biquadraticRoots(q, ctxFor(pieces, q))...)
		}
	}
	// a*x**3 + c: cube roots; x**4 = k⁴p, x**4 = -q⁴: p**(1/4), sqrt(2) forms.
	if h.deg() >= 3 {
		var br []IPoly
		br, h = binomialFactors(h)
		for _, q := range br {
			surds = append(surds, binomialFactorRoots(q, ctxFor(pieces, q))...)
		}
	}
	// 3. What remains has no rational roots and no quadratic factor we could
	// find: isolate and refine its real roots.
	var numeric []numericRoot
	if h.deg() >= 1 {
		if h.deg() == g.deg()-len(rationals) {
			// nothing but rational roots was split off: the real roots of h
			// are the irrational ones already refined in step 1
			for _, v := range irrational {
				numeric = append(numeric, numericRoot{factor: h, value: v})
			}
		} else {
			iso2, err := isolateReal(ctx, h)
			if err != nil {
				return nil, err
			}
			for _, iv := range iso2.intervals {
				rr, err := refineRoot(ctx, h, iv)
				if err != nil {
					return nil, err
				}
				numeric = append(numeric, numericRoot{factor: h, value: rr.approx})
			}
		}
		slices.SortFunc(numeric, func(a, b numericRoot) int { return a.value.Cmp(b.value) })
		for i := range numeric {
			numeric[i].index = i
		}
		nonReal := h.deg() - len(numeric)
		if nonReal%2 == 0 {
			up, ok, err := nonRealRoots(ctx, h, nonReal/2)
			if err != nil {
				return nil, err
			}
			if ok {
				for _, z := range up {
					conj := cfloat{z.re, new(big.Float).Neg(z.im)}
					for _, w := range []cfloat{conj, z} {
						numeric = append(numeric, numericRoot{factor: h, index: len(numeric), cvalue: &w})
					}
				}
				nonReal = 0
			}
		}
		res.OmittedNonReal = nonReal
	}
	slices.SortStableFunc(surds, func(a, b exactRoot) int { return cmpKey(a.sortKey(), b.sortKey()) })
	for _, s := range surds {
		res.Solutions = append(res.Solutions, Solution{Exact: s.String(), Decimal: s.Decimal(), IsReal: s.IsReal(), Form: s.form()})
	}
	for _, nr := range numeric {
		sol := Solution{
			Exact:  "CRootOf(" + upolyString(nr.factor, v) + ", " + itoa(nr.index) + ")",
			IsReal: nr.cvalue == nil,
			Form:   "root_of",
		}
		if nr.cvalue == nil {
			sol.Decimal = mpfString(roundMpf(nr.value), false)
		} else {
			sol.Decimal = complexString(roundMpf(nr.cvalue.re), roundMpf(nr.cvalue.im))
		}
		res.Solutions = append(res.Solutions, sol)
	}
	if res.Solutions == nil {
		res.Solutions = []Solution{}
	}
	switch {
	case h.deg() >= 1:
		res.Method = MethodNumeric
	case res.Degree == 1:
		res.Method = MethodLinear
	case res.Degree == 2:
		res.Method = MethodQuadratic
	default:
		res.Method = MethodFactorization
	}
	return res, nil
}

// divLinear divides p by (den·x − num) for a rational root num/den. A
// remainder would be a bug (the root was verified exactly); it is reported
// as an internal error rather than a panic.
func divLinear(p IPoly, r *big.Rat) (IPoly, error) {
	lin := IPoly{new(big.Int).Neg(r.Num()), new(big.Int).Set(r.Denom())}
	q, ok := divExact(p, lin)
	if !ok {
		return nil, fmt.Errorf("poly: rational root %s does not divide", r.RatString())
	}
	return q, nil
}

// quadraticRoots returns the two roots of an irreducible integer quadratic
// a x² + b x + c as -b/(2a) ± (s/(2a))·sqrt(d), b² − 4ac = s²·d.
func quadraticRoots(q IPoly) []Surd {
	a, b, c := q[2], q[1], q[0]
	disc := new(big.Int).Mul(b, b)
	disc.Sub(disc, new(big.Int).Mul(big.NewInt(4), new(big.Int).Mul(a, c)))
	s, d := splitSquare(disc)
	twoA := new(big.Int).Lsh(a, 1)
	P := new(big.Rat).SetFrac(new(big.Int).Neg(b), twoA)
	Q := new(big.Rat).SetFrac(s, twoA)
	return []Surd{
		{P: P, Q: new(big.Rat).Neg(Q), D: d},
		{P: new(big.Rat).Set(P), Q: Q, D: new(big.Int).Set(d)},
	}
}

// splitSquare writes n = s²·d with d "square-free" as SymPy determines it:
// all prime factors below 2^15 are taken out, and a remaining cofactor that
// is a perfect power is reduced; larger repeated primes stay in d (SymPy's
// automatic sqrt simplification does the same).
func splitSquare(n *big.Int) (s, d *big.Int) {
	s = big.NewInt(1)
	d = big.NewInt(1)
	if n.Sign() < 0 {
		d.SetInt64(-1)
	}
	m := new(big.Int).Abs(n)
	// perfect power of the whole number first (as SymPy does)
	if base, k := perfectPower(m); k > 1 {
		sb, db := splitSquare(base)
		// (sb² db)^k
		sk := new(big.Int).Exp(sb, big.NewInt(int64(k)), nil)
		s.Mul(s, sk)
		dk := new(big.Int).Exp(db, big.NewInt(int64(k/2)), nil)
		s.Mul(s, dk)
		if k%2 == 1 {
			d.Mul(d, db)
		}
		return s, d
	}
	for _, f := range smallFactors(m) {
		if f.e == 1 {
			// a prime, or the cofactor left by trial division, which may be a
			// perfect power
			if base, k := perfectPower(f.p); k > 1 {
				s.Mul(s, new(big.Int).Exp(base, big.NewInt(int64(k/2)), nil))
				if k%2 == 1 {
					d.Mul(d, base)
				}
			} else {
				d.Mul(d, f.p)
			}
			continue
		}
		s.Mul(s, new(big.Int).Exp(f.p, big.NewInt(int64(f.e/2)), nil))
		if f.e%2 == 1 {
			d.Mul(d, f.p)
		}
	}
	return s, d
}

// perfectPower returns (b, k) with m = b^k and k maximal (k = 1 if none).
// Only prime exponents are tried, largest first; the root found is then
// examined again (m = b^(p·k') for the largest prime p dividing the maximal
// exponent).
func perfectPower(m *big.Int) (*big.Int, int) {
	if m.Cmp(big.NewInt(3)) < 0 {
		return m, 1
	}
	for k := m.BitLen(); k >= 2; k-- {
		if !smallPrime(k) {
			continue
		}
		r, exact := bigx.Root(m, k)
		if r.Cmp(big.NewInt(1)) <= 0 {
			continue
		}
		if exact {
			b, k2 := perfectPower(r)
			return b, k * k2
		}
	}
	return m, 1
}

func smallPrime(k int) bool {
	if k < 2 {
		return false
	}
	for d := 2; d*d <= k; d++ {
		if k%d == 0 {
			return false
		}
	}
	return true
}

// quadraticFactors finds integer quadratic factors of a square-free
// polynomial without rational roots by pairing numerically computed complex
// roots; every candidate is confirmed by exact division, so a factor is
// never wrong, only possibly missed (coefficients beyond float range).
func quadraticFactors(h IPoly) (quads []IPoly, rest IPoly) {
	rest = h
	zs, ok := aberth(h)
	if !ok {
		return nil, h
	}
	quads, rest = pairFactors(rest, zs, func(cand IPoly) (IPoly, bool) { return cand, true })
	if rest.deg() == 2 {
		quads = append(quads, rest)
		rest = IPoly{big.NewInt(1)}
	}
	return quads, rest
}

// pairFactors divides out of rest the factors that pairs of the numerical
// values zs give: for each pair not yet used whose integer quadratic
// (intQuadratic) lift turns into a candidate, while rest has degree 4 or more,
// a candidate that divides rest exactly is a factor. Both roots of a pair that
// gave a factor are then used.
func pairFactors(rest IPoly, zs []complex128, lift func(quadratic IPoly) (IPoly, bool)) (factors []IPoly, left IPoly) {
	used := make([]bool, len(zs))
	for i := range zs {
		for j := i + 1; j < len(zs); j++ {
			if used[i] || used[j] || rest.deg() < 4 {
				continue
			}
			quadratic, ok := intQuadratic(zs[i], zs[j], rest.lc())
			if !ok {
				continue
			}
			cand, ok := lift(quadratic)
			if !ok {
				continue
			}
			if q, ok := divExact(rest, cand); ok {
				factors = append(factors, cand)
				rest = q
				used[i], used[j] = true, true
			}
		}
	}
	return factors, rest
}

// intQuadratic returns the primitive integer quadratic with roots z1, z2
// when L·(z1+z2) and L·z1·z2 are (numerically) integers, L the leading
// coefficient of the polynomial they are roots of (any integer factor's
// leading coefficient divides L, so these are integers for a true factor).
func intQuadratic(z1, z2 complex128, lc *big.Int) (IPoly, bool) {
	L, _ := new(big.Float).SetInt(lc).Float64()
	s := (z1 + z2) * complex(L, 0)
	p := z1 * z2 * complex(L, 0)
	if math.Abs(imag(s)) > 1e-6*(1+cmplx.Abs(s)) || math.Abs(imag(p)) > 1e-6*(1+cmplx.Abs(p)) {
		return nil, false
	}
	S, P := math.Round(real(s)), math.Round(real(p))
	if math.Abs(real(s)-S) > 1e-6*(1+math.Abs(S)) || math.Abs(real(p)-P) > 1e-6*(1+math.Abs(P)) {
		return nil, false
	}
	if math.Abs(S) > 1<<62 || math.Abs(P) > 1<<62 {
		return nil, false
	}
	return IPoly{big.NewInt(int64(P)), big.NewInt(int64(-S)), new(big.Int).Set(lc)}.primitive(), true
}

func cabs(z complex128) float64 { return cmplx.Abs(z) }

func mathPow(x, y float64) float64 { return math.Pow(x, y) }

// aberth approximates all complex roots (Aberth–Ehrlich iteration in
// complex128). ok is false when the coefficients do not fit or it fails.
func aberth(p IPoly) ([]complex128, bool) {
	n := p.deg()
	c := make([]complex128, n+1)
	lc, _ := new(big.Float).SetInt(p.lc()).Float64()
	for i, v := range p {
		f, _ := new(big.Float).SetInt(v).Float64()
		c[i] = complex(f/lc, 0)
		if math.IsInf(f, 0) || math.IsNaN(real(c[i])) || math.IsInf(real(c[i]), 0) {
			return nil, false
		}
	}
	r := 0.0
	for i := 0; i < n; i++ {
		r = math.Max(r, math.Pow(cmplx.Abs(c[i]), 1/float64(n-i)))
	}
	r = 2*r + 1e-3
	z := make([]complex128, n)
	for k := range z {
		z[k] = cmplx.Rect(r*0.7, 2*math.Pi*float64(k)/float64(n)+0.4)
	}
	eval := func(x complex128) (complex128, complex128) {
		v, d := c[n], complex(0, 0)
		for i := n - 1; i >= 0; i-- {
			d = d*x + v
			v = v*x + c[i]
		}
		return v, d
	}
	for it := 0; it < 300; it++ {
		maxStep := 0.0
		for k := range z {
			v, d := eval(z[k])
			if v == 0 {
				continue
			}
			ratio := v / d
			sum := complex(0, 0)
			for j := range z {
				if j != k {
					sum += 1 / (z[k] - z[j])
				}
			}
			w := ratio / (1 - ratio*sum)
			if cmplx.IsNaN(w) || cmplx.IsInf(w) {
				return nil, false
			}
			z[k] -= w
			maxStep = math.Max(maxStep, cmplx.Abs(w)/(1+cmplx.Abs(z[k])))
		}
		if maxStep < 1e-13 {
			return z, true
		}
	}
	return z, true
}

// upolyString prints an integer polynomial as SymPy does: descending powers,
// "2*x**3 - x + 5".
func upolyString(p IPoly, v string) string {
	var b strings.Builder
	first := true
	for i := len(p) - 1; i >= 0; i-- {
		c := p[i]
		if c.Sign() == 0 {
			continue
		}
		mag := new(big.Int).Abs(c)
		var body string
		switch i {
		case 0:
			body = mag.String()
		case 1:
			body = v
		default:
			body = v + "**" + itoa(i)
		}
		if i > 0 && mag.Cmp(big.NewInt(1)) != 0 {
			body = mag.String() + "*" + body
		}
		switch {
		case first && c.Sign() < 0:
			b.WriteString("-" + body)
		case first:
			b.WriteString(body)
		case c.Sign() < 0:
			b.WriteString(" - " + body)
		default:
			b.WriteString(" + " + body)
		}
		first = false
	}
	return b.String()
}
