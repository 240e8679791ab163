package poly

import (
	"context"
	"hash/fnv"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// The root self-check. Before an answer leaves Solve, every returned root
// is read back from its printed text (sexpr.go) and substituted into the
// equation as parsed (lhs − rhs, before any of the solver's normalisation):
//
//   - rational and radical roots are evaluated exactly in a tower of
//     radicals (formal.go); f(root) reducing to 0 is a proof;
//   - otherwise (and when the exact evaluation proves nothing) the printed
//     root is evaluated in complex arithmetic at a precision scaled to its
//     literals, and |f(root)| must be below 2^-(prec/2)·Σ|c_i||root|^i, at
//     that precision or at four times it;
//   - a CRootOf(p, k) root: p must divide the square-free part of f exactly,
//     and its decimal is refined by Newton's method on p to a rigorous
//     inclusion (a root of p within n·|p(z)|/|p'(z)|; a sign change for a
//     real root, a disk clear of the real axis for a non-real one); the
//     indices must follow SymPy's CRootOf order;
//   - every decimal must agree with the value to 32 significant digits, and
//     is_real with the value;
//   - the roots must be pairwise distinct and, with the omitted non-real
//     ones, as many as the degree of the square-free part: then they are all
//     the roots;
//   - roots with parameters are checked at several rational parameter points
//     drawn from a generator seeded by the equation (reproducible), skipping
//     points where the leading coefficient or a denominator vanishes or two
//     roots meet; at least three points must be checked.
//
// A failure withholds the answer: reason root_verification_failed, logged
// at error level (it is a defect of this package, never of the input).

// verifyHook, when set (tests only), may alter a result before it is checked.
var verifyHook func(*Result)

// formalBudget bounds the coefficient multiplications of one exact check.
const formalBudget = 200000

func verificationFailed(eq string, format string, args ...any) error {
	err := fail("root_verification_failed", "the self-check of the computed roots failed ("+format+"); no answer is given rather than a possibly wrong one", args...)
	slog.Default().LogAttrs(context.Background(), slog.LevelError, "solve_equation: root self-check failed, answer withheld",
		slog.String("reason", "root_verification_failed"), slog.String("detail", err.Message), slog.String("equation", eq))
	return err
}

type verifier struct {
	ctx    context.Context
	eq     *Equation
	text   string           // equation text, for the log
	crPoly map[string]IPoly // CRootOf polynomials read back
}

// verify checks res against eq; nil means every check passed.
func verify(ctx context.Context, text string, eq *Equation, res *Result) error {
	if verifyHook != nil {
		verifyHook(res)
	}
	v := &verifier{ctx: ctx, eq: eq, text: text}
	for _, s := range res.Solutions {
		if s.Exact == "" {
			return verificationFailed(text, "an empty root")
		}
	}
	seen := map[string]bool{}
	for _, s := range res.Solutions {
		if seen[s.Exact] {
			return verificationFailed(text, "root %s is listed twice", s.Exact)
		}
		seen[s.Exact] = true
	}
	used := usedVars(eq.Poly, len(eq.Vars))
	var params []string
	for i := 1; i < len(eq.Vars); i++ {
		if used[i] {
			params = append(params, eq.Vars[i])
		}
	}
	if eq.Poly.degIn(0) == 0 {
		if len(res.Solutions) != 0 {
			return verificationFailed(text, "roots listed for an equation without %s", eq.Vars[0])
		}
		return nil
	}
	if len(params) == 0 {
		return v.numeric(res)
	}
	return v.symbolic(res, params)
}

// coeffsAt returns the coefficients in the variable at the parameter values.
func (v *verifier) coeffsAt(vals map[string]*big.Rat) []*big.Rat {
	n := v.eq.Poly.degIn(0)
	cs := make([]*big.Rat, n+1)
	for i := range cs {
		cs[i] = new(big.Rat)
	}
	t := new(big.Rat)
	for m, c := range v.eq.Poly {
		term := new(big.Rat).Set(c)
		d := 0
		for i, e := range []byte(m) {
			if i == 0 {
				d = int(e)
				continue
			}
			if e > 0 {
				term.Mul(term, ratPowInt(vals[v.eq.Vars[i]], int64(e)))
			}
		}
		cs[d].Add(cs[d], t.Set(term))
	}
	return cs
}

// rootVal is a checked root's value.
type rootVal struct {
	z    cnum
	tol  *big.Float // uncertainty of z (absolute)
	prec uint
}

// checkValue evaluates a printed root and checks f(root) = 0.
func (v *verifier) checkValue(n *snode, cs []*big.Rat, vals map[string]*big.Rat) (rootVal, bool, error) {
	exact := formalZero(n, cs, vals, formalBudget)
	prec := uint(512 + 2*n.litBits() + 2*maxBits(cs))
	for range 2 {
		if err := v.ctx.Err(); err != nil {
			return rootVal{}, false, err
		}
		ev := &numEval{prec: prec, vars: vals}
		z, err := ev.eval(n)
		if err != nil {
			return rootVal{}, false, nil
		}
		val, mag := ev.horner(cs, z)
		lim := ev.f().SetMantExp(mag, -int(prec/2))
		tol := ev.f().SetMantExp(ev.abs(z), -int(prec/2))
		if exact || ev.abs(val).Cmp(lim) <= 0 {
			return rootVal{z: z, tol: tol, prec: prec}, true, nil
		}
		if prec > 1<<17 {
			break
		}
		prec *= 4
	}
	return rootVal{}, false, nil
}

func maxBits(cs []*big.Rat) int {
	b := 0
	for _, c := range cs {
		b = max(b, c.Num().BitLen(), c.Denom().BitLen())
	}
	return b
}

func (v *verifier) numeric(res *Result) error {
	cs := v.coeffsAt(nil)
	f := fromRats(cs)
	g := squarefree(f)
	if res.Degree != f.deg() {
		return verificationFailed(v.text, "degree %d reported, the equation has degree %d", res.Degree, f.deg())
	}
	if got := len(res.Solutions) + res.OmittedNonReal; got != g.deg() {
		return verificationFailed(v.text, "%d roots listed or omitted, the equation has %d distinct roots", got, g.deg())
	}
	vals := make([]rootVal, len(res.Solutions))
	crs, err := v.crootsOf(res)
	if err != nil {
		return err
	}
	for _, c := range crs {
		if _, ok := divExact(g, c.p); !ok {
			return verificationFailed(v.text, "%s: its polynomial does not divide the equation", res.Solutions[c.i].Exact)
		}
		vals[c.i] = c.rv
	}
	for i, s := range res.Solutions {
		if vals[i].z.re != nil {
			continue // CRootOf
		}
		n, err := parseSexpr(s.Exact)
		if err != nil || n.hasSymbol() {
			return verificationFailed(v.text, "root %q cannot be read back", s.Exact)
		}
		rv, ok, err := v.checkValue(n, cs, nil)
		if err != nil {
			return err
		}
		if !ok {
			return verificationFailed(v.text, "root %s does not satisfy the equation", s.Exact)
		}
		vals[i] = rv
	}
	for i, s := range res.Solutions {
		if err := v.checkDecimal(s, vals[i]); err != nil {
			return err
		}
	}
	if i, j, ok := distinct(vals); !ok {
		return verificationFailed(v.text, "roots %s and %s coincide", res.Solutions[i].Exact, res.Solutions[j].Exact)
	}
	return nil
}

// croot is a confirmed CRootOf root: solution index, polynomial, value.
type croot struct {
	i  int
	p  IPoly
	rv rootVal
}

// crootsOf reads back and confirms every CRootOf root (a root of its
// polynomial next to its decimal), and checks that the indices follow
// SymPy's order: real roots ascending, then non-real ones by real part, then
// imaginary part. Whether the polynomial divides the equation is for the
// caller to check.
func (v *verifier) crootsOf(res *Result) ([]croot, error) {
	type ref struct {
		poly string
		k, i int
	}
	var crs []croot
	groups := map[string][]ref{}
	val := map[int]rootVal{}
	pairs := map[string]rootVal{}
	for i, s := range res.Solutions {
		ptext, k, ok := parseCRootOf(s.Exact)
		if !ok {
			continue
		}
		p, err := v.crootPoly(ptext)
		if err != nil {
			return nil, err
		}
		// p has real coefficients: the conjugate of a confirmed root is a
		// root with the mirrored inclusion, so conjugate pairs are refined once
		ck, conj := conjKey(ptext, s.Decimal)
		rv, seen := pairs[ck]
		if seen && conj {
			rv = rootVal{z: cnum{rv.z.re, new(big.Float).Neg(rv.z.im)}, tol: rv.tol, prec: rv.prec}
		} else {
			if rv, ok = v.crootValue(p, s); !ok {
				return nil, verificationFailed(v.text, "%s (decimal %s) is not confirmed as a root", s.Exact, s.Decimal)
			}
			pairs[ck] = rv
		}
		crs = append(crs, croot{i, p, rv})
		groups[ptext] = append(groups[ptext], ref{ptext, k, i})
		val[i] = rv
	}
	for poly, rs := range groups {
		slices.SortFunc(rs, func(a, b ref) int { return a.k - b.k })
		for j := range rs {
			if rs[j].k != j {
				return nil, verificationFailed(v.text, "CRootOf(%s, ·) indices are not 0..%d", poly, len(rs)-1)
			}
			if j > 0 && crootLess(val[rs[j].i].z, val[rs[j-1].i].z) {
				return nil, verificationFailed(v.text, "CRootOf(%s, %d) and CRootOf(%s, %d) are out of order", poly, rs[j-1].k, poly, rs[j].k)
			}
		}
	}
	return crs, nil
}

// conjKey identifies a non-real decimal up to the sign of its imaginary part
// ("re ± im*I"); conj reports whether this is the "+" member, which follows
// its "-" partner in SymPy's order.
func conjKey(poly, dec string) (string, bool) {
	if !strings.HasSuffix(dec, "*I") {
		return poly + "\x00" + dec, false
	}
	body := strings.TrimSuffix(dec, "*I")
	if i := strings.LastIndex(body, " - "); i >= 0 {
		return poly + "\x00" + body[:i] + "\x00" + body[i+3:], false
	}
	if i := strings.LastIndex(body, " + "); i >= 0 {
		return poly + "\x00" + body[:i] + "\x00" + body[i+3:], true
	}
	if strings.HasPrefix(body, "-") {
		return poly + "\x00\x00" + body[1:], false
	}
	return poly + "\x00\x00" + body, true
}

// crootLess orders as SymPy's CRootOf indices: real before non-real, then
// by real part, then by imaginary part.
func crootLess(a, b cnum) bool {
	ar, br := a.im.Sign() == 0, b.im.Sign() == 0
	if ar != br {
		return ar
	}
	if c := a.re.Cmp(b.re); c != 0 {
		return c < 0
	}
	return a.im.Cmp(b.im) < 0
}

func (v *verifier) crootPoly(text string) (IPoly, error) {
	if p, ok := v.crPoly[text]; ok {
		return p, nil
	}
	lim := DefaultLimits
	lim.MaxEquationChars = 1 << 20
	eq, err := Parse(text, v.eq.Vars[0], lim)
	if err != nil || len(eq.Vars) != 1 {
		return nil, verificationFailed(v.text, "CRootOf polynomial %q cannot be read back", text)
	}
	p := fromRats(eq.Poly.coeffsIn0())
	if p.deg() < 1 {
		return nil, verificationFailed(v.text, "CRootOf polynomial %q is constant", text)
	}
	if v.crPoly == nil {
		v.crPoly = map[string]IPoly{}
	}
	v.crPoly[text] = p
	return p, nil
}

// crootPrec is the working precision of CRootOf confirmation.
const crootPrec = 512

// crootValue refines the printed decimal of a root of p by Newton's method
// and proves a root of p next to it.
func (v *verifier) crootValue(p IPoly, s Solution) (rootVal, bool) {
	ev := &numEval{prec: crootPrec}
	z0, ok := parseDecimal(s.Decimal, crootPrec)
	if !ok {
		return rootVal{}, false
	}
	if s.IsReal != (z0.im.Sign() == 0) {
		return rootVal{}, false
	}
	z := z0
	az0 := ev.abs(z0)
	for range 12 {
		pz, dz, _ := ev.hornerInt(p, z)
		step, err := ev.quo(pz, dz)
		if err != nil {
			return rootVal{}, false
		}
		z = ev.sub(z, step)
		// quadratic convergence from 34 digits: once a step is below
		// 2^-(prec/2+40), the next error is far below what the inclusion needs
		if as := ev.abs(step); as.Sign() == 0 || as.Cmp(ev.f().SetMantExp(az0, -int(crootPrec)/2-40)) < 0 {
			break
		}
	}
	pz, dz, mag := ev.hornerInt(p, z)
	// |p(z)| plus a bound on its evaluation error
	e := ev.f().SetMantExp(mag, -int(crootPrec)+16)
	num := ev.f().Add(ev.abs(pz), e)
	num.Mul(num, ev.f().SetInt64(int64(p.deg())))
	ad := ev.abs(dz)
	if ad.Sign() == 0 {
		return rootVal{}, false
	}
	R := num.Quo(num, ad)
	az := ev.abs(z)
	if R.Cmp(ev.f().SetMantExp(az, -200)) > 0 {
		return rootVal{}, false
	}
	if s.IsReal {
		// a sign change of p across [z - 2R', z + 2R'], evaluated exactly
		w := ev.f().SetMantExp(az, -300)
		if R.Cmp(w) > 0 {
			w = R
		}
		w.Mul(w, big.NewFloat(2))
		lo, _ := ev.f().Sub(z.re, w).Rat(nil)
		hi, _ := ev.f().Add(z.re, w).Rat(nil)
		if p.signAt(lo.Num(), lo.Denom())*p.signAt(hi.Num(), hi.Denom()) >= 0 {
			return rootVal{}, false
		}
	} else if ev.f().Abs(z.im).Cmp(R) <= 0 {
		return rootVal{}, false
	}
	return rootVal{z: z, tol: ev.f().Mul(R, big.NewFloat(4)), prec: crootPrec}, true
}

// distinct reports whether the values are pairwise apart by more than their
// uncertainties; otherwise it returns a coinciding pair.
func distinct(vals []rootVal) (int, int, bool) {
	for i := range vals {
		for j := i + 1; j < len(vals); j++ {
			prec := min(vals[i].prec, vals[j].prec)
			ev := &numEval{prec: prec}
			d := ev.abs(ev.sub(vals[i].z, vals[j].z))
			t := ev.f().Add(vals[i].tol, vals[j].tol)
			if d.Cmp(t) <= 0 {
				return i, j, false
			}
		}
	}
	return 0, 0, true
}

// checkDecimal checks the printed decimal and is_real against the value.
func (v *verifier) checkDecimal(s Solution, rv rootVal) error {
	ev := &numEval{prec: rv.prec}
	realNum := ev.f().Abs(rv.z.im).Cmp(rv.tol) <= 0
	if s.IsReal != realNum {
		return verificationFailed(v.text, "root %s: is_real is %v", s.Exact, s.IsReal)
	}
	d, ok := parseDecimal(s.Decimal, rv.prec)
	if !ok {
		return verificationFailed(v.text, "root %s: decimal %q cannot be read back", s.Exact, s.Decimal)
	}
	for _, c := range [][2]*big.Float{{d.re, rv.z.re}, {d.im, rv.z.im}} {
		diff := ev.f().Sub(c[0], c[1])
		diff.Abs(diff)
		// half a unit in the 34th significant digit, plus the rounding to
		// 116 bits that precedes the printing, plus the value's uncertainty
		lim := ev.f().Mul(ev.f().Abs(c[1]), ev.f().SetMantExp(big.NewFloat(1), -114))
		lim.Add(lim, rv.tol)
		if c[0].Sign() != 0 {
			lim.Add(lim, halfUlp34(c[0]))
		}
		if diff.Cmp(lim) > 0 {
			return verificationFailed(v.text, "root %s: decimal %s does not match its value", s.Exact, s.Decimal)
		}
	}
	return nil
}

// halfUlp34 is half a unit in the last place of d printed with 34
// significant digits (slightly enlarged).
func halfUlp34(d *big.Float) *big.Float {
	t := d.Text('e', 2) // "-1.23e+05"
	e := 0
	if i := strings.LastIndexByte(t, 'e'); i >= 0 {
		x, _ := new(big.Int).SetString(strings.TrimPrefix(t[i+1:], "+"), 10)
		if x != nil {
			e = int(x.Int64())
		}
	}
	u := new(big.Float).SetPrec(256).SetInt(bigx.Pow10(abs(e - 33)))
	if e-33 < 0 {
		u.Quo(big.NewFloat(1), u)
	}
	return u.Mul(u, big.NewFloat(0.505))
}

// parseDecimal reads "2.000…", "-1.2e+37", "0", "re + im*I", "re - im*I",
// "im*I".
func parseDecimal(s string, prec uint) (cnum, bool) {
	pf := func(t string) (*big.Float, bool) {
		if t == "" || strings.ContainsAny(t, " *I") {
			return nil, false
		}
		f, _, err := big.ParseFloat(t, 10, prec, big.ToNearestEven)
		return f, err == nil
	}
	zero := new(big.Float).SetPrec(prec)
	if !strings.HasSuffix(s, "*I") {
		re, ok := pf(s)
		return cnum{re, zero}, ok
	}
	body := strings.TrimSuffix(s, "*I")
	i := max(strings.LastIndex(body, " + "), strings.LastIndex(body, " - "))
	if i < 0 {
		im, ok := pf(body)
		return cnum{new(big.Float).SetPrec(prec), im}, ok
	}
	re, ok1 := pf(body[:i])
	im, ok2 := pf(body[i+3:])
	if !ok1 || !ok2 {
		return cnum{}, false
	}
	if body[i+1] == '-' {
		im.Neg(im)
	}
	return cnum{re, im}, true
}

// symbolic checks roots with parameters at seeded rational points.
func (v *verifier) symbolic(res *Result, params []string) error {
	// CRootOf roots (a parameter-free factor of the equation) are confirmed
	// once; at every point their polynomial must divide the equation there.
	crs, err := v.crootsOf(res)
	if err != nil {
		return err
	}
	crVal := map[int]croot{}
	for _, c := range crs {
		crVal[c.i] = c
	}
	nodes := make([]*snode, len(res.Solutions))
	for i, s := range res.Solutions {
		if _, ok := crVal[i]; ok {
			continue
		}
		n, err := parseSexpr(s.Exact)
		if err != nil {
			return verificationFailed(v.text, "root %q cannot be read back", s.Exact)
		}
		if n.hasSymbol() != (s.Form == "symbolic") {
			return verificationFailed(v.text, "root %s: form %s", s.Exact, s.Form)
		}
		nodes[i] = n
	}
	h := fnv.New64a()
	h.Write([]byte(v.eq.Poly.String(v.eq.Vars)))
	rng := rand.New(rand.NewPCG(0x5eed0f5017e, h.Sum64()))
	deg := v.eq.Poly.degIn(0)
	good, maxDistinct := 0, 0
	for try := 0; try < 24 && good < 3; try++ {
		vals := map[string]*big.Rat{}
		for _, p := range params {
			num := rng.Int64N(59) - 29
			if num == 0 {
				num = 31
			}
			vals[p] = big.NewRat(num, rng.Int64N(7)+1)
		}
		cs := v.coeffsAt(vals)
		if cs[deg].Sign() == 0 {
			continue
		}
		rvs := make([]rootVal, len(nodes))
		skip := false
		sqf := squarefree(fromRats(cs))
		for i, n := range nodes {
			if c, ok := crVal[i]; ok {
				if _, ok := divExact(sqf, c.p); !ok {
					return verificationFailed(v.text, "%s: its polynomial does not divide the equation at %s", res.Solutions[i].Exact, pointString(params, vals))
				}
				rvs[i] = c.rv
				continue
			}
			if err := (&numEval{prec: 64, vars: vals}).evalCheck(n); err != nil {
				skip = true // a denominator vanishes here
				break
			}
			rv, ok, err := v.checkValue(n, cs, vals)
			if err != nil {
				return err
			}
			if !ok {
				return verificationFailed(v.text, "root %s does not satisfy the equation at %s", res.Solutions[i].Exact, pointString(params, vals))
			}
			rvs[i] = rv
		}
		if skip {
			continue
		}
		if _, _, ok := distinct(rvs); !ok {
			continue // roots meet at this point
		}
		// fewer listed roots than distinct roots here: some are missing
		if got, want := len(nodes)+res.OmittedNonReal, sqf.deg(); got < want {
			return verificationFailed(v.text, "%d roots listed or omitted, the equation has %d distinct roots at %s", got, want, pointString(params, vals))
		}
		maxDistinct = max(maxDistinct, sqf.deg())
		good++
	}
	if good < 3 {
		return verificationFailed(v.text, "only %d parameter points could be checked", good)
	}
	// generically (the most distinct roots seen at any point) there are
	// exactly as many roots as listed; fewer at a point means roots meet there
	if got := len(nodes) + res.OmittedNonReal; got != maxDistinct {
		return verificationFailed(v.text, "%d roots listed or omitted, the equation has %d distinct roots", got, maxDistinct)
	}
	for i, s := range res.Solutions {
		if s.Form == "symbolic" {
			continue
		}
		if c, ok := crVal[i]; ok {
			if err := v.checkDecimal(s, c.rv); err != nil {
				return err
			}
			continue
		}
		rv, ok := valueOf(nodes[i])
		if !ok {
			return verificationFailed(v.text, "root %s cannot be evaluated", s.Exact)
		}
		if err := v.checkDecimal(s, rv); err != nil {
			return err
		}
	}
	return nil
}

// evalCheck reports whether the expression can be evaluated (no division by
// zero) at the parameter values.
func (ev *numEval) evalCheck(n *snode) error {
	_, err := ev.eval(n)
	return err
}

// valueOf evaluates a parameter-free root (its equation was checked at the
// parameter points) for the decimal check.
func valueOf(n *snode) (rootVal, bool) {
	prec := uint(512 + 2*n.litBits())
	ev := &numEval{prec: prec}
	z, err := ev.eval(n)
	if err != nil {
		return rootVal{}, false
	}
	return rootVal{z: z, tol: ev.f().SetMantExp(ev.abs(z), -int(prec/2)), prec: prec}, true
}

func pointString(params []string, vals map[string]*big.Rat) string {
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = p + " = " + vals[p].RatString()
	}
	return strings.Join(parts, ", ")
}
