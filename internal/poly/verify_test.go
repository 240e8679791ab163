package poly

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math/big"
	"strings"
	"testing"
)

// withHook runs Solve with verifyHook set to alter, and the default logger
// writing into a buffer; it returns the result, what was logged and the error.
func withHook(t *testing.T, equation string, alter func(*Result)) (*Result, string, error) {
	t.Helper()
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	verifyHook = alter
	defer func() {
		verifyHook = nil
		slog.SetDefault(old)
	}()
	res, err := Solve(context.Background(), equation, "x", DefaultLimits)
	return res, buf.String(), err
}

func setExact(i int, s string) func(*Result) {
	return func(r *Result) { r.Solutions[i].Exact = s }
}

// TestVerifyCatchesWrongRoots injects faulty answers between the solver and
// the self-check: each must be refused with root_verification_failed and
// logged at error level; the untouched answer must pass.
func TestVerifyCatchesWrongRoots(t *testing.T) {
	cases := []struct {
		name, eq string
		alter    func(*Result)
	}{
		{"wrong_rational", "x**2 - 4 = 0", setExact(1, "3")},
		{"wrong_sign", "x**3 - 6*x**2 + 11*x - 6 = 0", setExact(0, "-1")},
		{"wrong_surd", "x**2 - x - 1 = 0", setExact(0, "1/2 - sqrt(3)/2")},
		{"surd_off_by_sign", "x**2 - x - 1 = 0", setExact(0, "-1/2 - sqrt(5)/2")},
		{"wrong_complex", "x**2 + 2*x + 3 = 0", setExact(1, "-1 + sqrt(3)*I")},
		{"wrong_nested", "x**4 - 10*x**2 + 1 = 0", setExact(0, "-sqrt(5 - sqrt(6))")},
		{"wrong_cube_root", "x**3 - 2 = 0", setExact(0, "3**(1/3)")},
		{"wrong_branch", "x**3 - 2 = 0", setExact(1, "-2**(1/3)/2 - 2**(1/3)*sqrt(2)*I/2")},
		{"crootof_foreign_poly", "x**5 - x - 1 = 0", setExact(0, "CRootOf(x**5 - x + 1, 0)")},
		{"crootof_decimal_off", "x**5 - x - 1 = 0", func(r *Result) {
			d := []byte(r.Solutions[0].Decimal)
			d[20] = '0' + (d[20]-'0'+1)%10
			r.Solutions[0].Decimal = string(d)
		}},
		{"crootof_index_swapped", "x**5 - x - 1 = 0", func(r *Result) {
			r.Solutions[1].Exact, r.Solutions[2].Exact = r.Solutions[2].Exact, r.Solutions[1].Exact
		}},
		{"crootof_not_real", "x**5 - x - 1 = 0", func(r *Result) { r.Solutions[1].IsReal = true }},
		{"decimal_wrong", "x**2 - 2 = 0", func(r *Result) { r.Solutions[0].Decimal = "-1.414213562373095048801688724209699" }},
		{"is_real_wrong", "x**2 + 1 = 0", func(r *Result) { r.Solutions[0].IsReal = true }},
		{"root_missing", "x**3 - x = 0", func(r *Result) { r.Solutions = r.Solutions[:2] }},
		{"root_twice", "x**2 - 4 = 0", setExact(1, "-2")},
		{"extra_root", "x - 4 = 0", func(r *Result) { r.Solutions = append(r.Solutions, Solution{Exact: "5", Decimal: "5.0", IsReal: true}) }},
		{"garbage_text", "x**2 - 2 = 0", setExact(0, "sqrt(2")},
		{"degree_wrong", "x**2 - 2 = 0", func(r *Result) { r.Degree = 3 }},
		// the defect of issue 14: ±a for x**2 = 2*a**2
		{"symbolic_issue14", "x**2 = 2*a**2", func(r *Result) { r.Solutions[0].Exact, r.Solutions[1].Exact = "-a", "a" }},
		{"symbolic_issue14_b", "3*x**2 = a**2*b**2", func(r *Result) { r.Solutions[0].Exact, r.Solutions[1].Exact = "-a*b", "a*b" }},
		{"symbolic_quadratic", "a*x**2 + b*x + c = 0", setExact(0, "(-b - sqrt(-4*a*c + b**2))/a")},
		{"symbolic_linear", "a*x + b = 0", setExact(0, "b/a")},
		{"symbolic_missing_root", "x**2 - 2*a*x - 1 = 0", func(r *Result) { r.Solutions = r.Solutions[:1] }},
		{"symbolic_number_root_decimal", "a*x**2 - 4*a = 0", func(r *Result) { r.Solutions[0].Decimal = "-2.000000000000000000000000000000001" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if res, _, err := withHook(t, c.eq, nil); err != nil {
				t.Fatalf("%q untouched: %v (%v)", c.eq, err, res)
			}
			res, logged, err := withHook(t, c.eq, c.alter)
			var pe *Error
			if !errors.As(err, &pe) || pe.Reason != "root_verification_failed" || pe.Costly {
				t.Fatalf("%q altered: got %v, %v; want root_verification_failed", c.eq, res, err)
			}
			if !strings.Contains(logged, "level=ERROR") || !strings.Contains(logged, "root_verification_failed") || !strings.Contains(logged, c.eq) {
				t.Errorf("%q: log %q", c.eq, logged)
			}
		})
	}
}

// TestPrincipalBranches pins the numeric evaluator to SymPy's principal
// values (the decimals come from mpmath).
func TestPrincipalBranches(t *testing.T) {
	for _, c := range []struct{ expr, re, im string }{
		{"sqrt(-4)", "0", "2"},
		{"(-8)**(1/3)", "1", "1.732050807568877293527446341505872"},
		{"(-1)**(2/3)", "-0.5", "0.8660254037844386467637231707529362"},
		{"(-2 - 2*I)**(1/2)", "0.6435942529055826247354434374182098", "-1.553773974030037307344158953063146"},
		{"3**(5/6)", "2.498049532966812958826359087526507", "0"},
		{"2**(-1/3)", "0.7937005259840997373758528196361541", "0"},
		{"(1 + sqrt(2))**(1/3)", "1.341503762630577719675693514485166", "0"},
	} {
		n, err := parseSexpr(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		ev := &numEval{prec: 256}
		z, err := ev.eval(n)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		for i, want := range []string{c.re, c.im} {
			got := []*big.Float{z.re, z.im}[i]
			w, _, _ := big.ParseFloat(want, 10, 256, big.ToNearestEven)
			d := new(big.Float).Sub(got, w)
			if d.Abs(d).Cmp(big.NewFloat(1e-32)) > 0 {
				t.Errorf("%s part %d: got %s, want %s", c.expr, i, got.Text('g', 40), want)
			}
		}
	}
}

// TestFormalZero checks the exact evaluator: identities that hold for the
// principal values reduce to zero; false ones do not.
func TestFormalZero(t *testing.T) {
	r := func(n, d int64) *big.Rat { return big.NewRat(n, d) }
	for _, c := range []struct {
		root string
		cs   []*big.Rat // coefficients, lowest first
		want bool
	}{
		{"sqrt(2)", []*big.Rat{r(-2, 1), r(0, 1), r(1, 1)}, true},
		{"sqrt(3)", []*big.Rat{r(-2, 1), r(0, 1), r(1, 1)}, false},
		{"-sqrt(5 - 2*sqrt(6))", []*big.Rat{r(1, 1), r(0, 1), r(-10, 1), r(0, 1), r(1, 1)}, true},
		{"-12**(1/3)/2 - 2**(2/3)*3**(5/6)*I/2", []*big.Rat{r(-12, 1), r(0, 1), r(0, 1), r(1, 1)}, true},
		{"-12**(1/3)/2 + 2**(2/3)*3**(5/6)*I/2", []*big.Rat{r(-12, 1), r(0, 1), r(0, 1), r(1, 1)}, true},
		{"-12**(1/3)/2 + 2**(2/3)*3**(1/3)*I/2", []*big.Rat{r(-12, 1), r(0, 1), r(0, 1), r(1, 1)}, false},
		{"-sqrt(2)/2 - sqrt(2)*I/2", []*big.Rat{r(1, 1), r(0, 1), r(0, 1), r(0, 1), r(1, 1)}, true},
		{"sqrt(-3/5)", []*big.Rat{r(3, 5), r(0, 1), r(1, 1)}, true},
		{"(-1 + sqrt(2))**(1/3)", []*big.Rat{r(-1, 1), r(0, 1), r(0, 1), r(-2, 1), r(0, 1), r(0, 1), r(1, 1)}, false},
		{"-(-1 + sqrt(2))**(1/3)", []*big.Rat{r(-1, 1), r(0, 1), r(0, 1), r(-2, 1), r(0, 1), r(0, 1), r(1, 1)}, true},
	} {
		n, err := parseSexpr(c.root)
		if err != nil {
			t.Fatalf("%s: %v", c.root, err)
		}
		if got := formalZero(n, c.cs, nil, formalBudget); got != c.want {
			t.Errorf("%s: formalZero %v, want %v", c.root, got, c.want)
		}
	}
}

// TestParseSexprRefuses covers the reader's failure paths.
func TestParseSexprRefuses(t *testing.T) {
	for _, s := range []string{"", "sqrt(2", "2**x", "1 +", "2.5", "pi", "(" + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 101), "2 3", "x**(1/0)"} {
		if n, err := parseSexpr(s); err == nil {
			t.Errorf("%q: parsed as %+v", s, n)
		}
	}
}
