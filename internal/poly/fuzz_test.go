package poly

import (
	"context"
	"errors"
	"math/big"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/refusal/refusaltest"
)

// maxSolveAlloc bounds the bytes one Solve call may allocate. It stands in
// for a time limit (which would make the outcome depend on machine load): the
// heaviest inputs within the declared limits allocate about 50 MB (degree 64
// with 64 certified non-real roots, answer self-check included).
const maxSolveAlloc = 1 << 30

// allocatedBytes is the cumulative heap allocation of the process
// (runtime/metrics: no stop-the-world, unlike runtime.ReadMemStats).
func allocatedBytes() uint64 {
	m := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(m)
	return m[0].Value.Uint64()
}

// FuzzSolve feeds arbitrary text to the parser and solver. Properties: no
// panic, bounded work (allocation below maxSolveAlloc; every loop is bounded
// by the declared limits), every refusal is a typed *Error with a reason —
// never root_verification_failed, which would mean the solver produced a
// wrong root — and every answer is consistent: exact strings are non-empty,
// real roots' decimals never carry an "I".
func FuzzSolve(f *testing.F) {
	for _, s := range []string{
		"x**2 - 4 = 0", "2*x + 5 = 13", "x**3 - 6*x**2 + 11*x - 6 = 0", "x^2+x-1",
		"a*x + b = 0", "a*x**2 + b*x + c", "sin(x) = 0", "2**x = 8", "1/x = 2", "x**0.5 = 2",
		"x = x", "1 = 2", "(x-1)**2*(x+2)", "x**5 - x - 1", "0.5*x**2 - 1.25e-1*x", "((((x))))",
		"x**64 - 1", "(x+1)**64", "x - 10**600", "-(-(-x)) = 3/7", "x = 1 = 2", "2x", "x**-1",
		"(x**2+1)*(x**3-x-1)", "x**4 + 1", "1e999*x", ".5*x - 1.", "x == 2",
		"x**2 = 2*a**2", "3*x**2 = a**2*b**2", "5*x**4 + 24*x**2 - 32", "x**5 - x**4 - x**3 + x**2 - x + 1",
		"x**6 + 124*x**3 - 1485", "(x - 1)*(5*x**4 + 24*x**2 - 32) = 0", "0 = (x**3 - 12)*(x + 1)",
		"-(x**4 - x**2 - 1)*(x**2 + 1)", "(2*a + 1)*x**2 - b*x + a*b = 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a0 := allocatedBytes()
		res, err := Solve(context.Background(), s, "x", DefaultLimits)
		if a := allocatedBytes() - a0; a > maxSolveAlloc {
			t.Fatalf("%q: allocated %d bytes, the bound is %d", s, a, maxSolveAlloc)
		}
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%q: untyped error %v", s, err)
			}
			if pe.Reason == "" || pe.Message == "" {
				t.Fatalf("%q: error without reason or message: %#v", s, pe)
			}
			if pe.Reason == "root_verification_failed" {
				t.Fatalf("%q: the self-check rejected the solver's answer: %v", s, pe)
			}
			return
		}
		for _, sol := range res.Solutions {
			if sol.Exact == "" {
				t.Fatalf("%q: empty exact root", s)
			}
			if sol.Form != "symbolic" && sol.IsReal && strings.Contains(sol.Decimal, "I") {
				t.Fatalf("%q: real root %s has decimal %s", s, sol.Exact, sol.Decimal)
			}
		}
		if res.Degree < 0 || res.Degree > DefaultLimits.MaxDegree {
			t.Fatalf("%q: degree %d", s, res.Degree)
		}
	})
}

// FuzzParse checks the parser alone: no panic, and what parses is stable —
// parsing the canonical text of the polynomial gives the same polynomial.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"x**2 - 4 = 0", "a*x + b", "(x + a)**3 = b/2", "-x^2 + 0.25", "3*x*y*z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		eq, err := Parse(s, "x", DefaultLimits)
		if refusaltest.Refused[*Error](t, err, s) {
			return
		}
		text := eq.Poly.String(eq.Vars)
		lim := DefaultLimits
		lim.MaxEquationChars = 1 << 22
		eq2, err := Parse(text, "x", lim)
		if err != nil {
			t.Fatalf("%q: canonical text %q does not parse: %v", s, text, err)
		}
		if got := eq2.Poly.String(eq2.Vars); got != text {
			t.Fatalf("%q: round trip %q -> %q", s, text, got)
		}
	})
}

// FuzzSexpr feeds arbitrary text to the reader of printed roots used by the
// self-check, and what it reads to both evaluators. Properties: no panic,
// typed failure, and an expression read back prints the same value twice
// (evaluation is deterministic); the exact evaluator never claims zero for
// x = 1 as a root of x - 2.
func FuzzSexpr(f *testing.F) {
	for _, s := range []string{
		"-2**(1/3)/2 - 2**(1/3)*sqrt(3)*I/2", "(-b - sqrt(-4*a*c + b**2))/(2*a)", "2*I*sqrt(3/5 + sqrt(19)/5)",
		"-sqrt(5 - 2*sqrt(6))", "2**(2/3)*3**(5/6)*I/4", "sqrt(2)*sqrt(1/a)/b", "(-1)**(1/3)", "1/0",
		"((2**256)**256)**256", "sqrt(", "a*(-1 + sqrt(3)*I)/2", "3**(5/6)", "-(-(-1))",
	} {
		f.Add(s)
	}
	vars := map[string]*big.Rat{"a": big.NewRat(3, 7), "b": big.NewRat(-5, 2), "c": big.NewRat(1, 3)}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSexpr(s)
		if err != nil {
			if err != errSexpr {
				t.Fatalf("%q: untyped error %v", s, err)
			}
			return
		}
		ev := &numEval{prec: 128, vars: vars}
		z1, err1 := ev.eval(n)
		z2, err2 := ev.eval(n)
		if (err1 == nil) != (err2 == nil) || (err1 == nil && (z1.re.Cmp(z2.re) != 0 || z1.im.Cmp(z2.im) != 0)) {
			t.Fatalf("%q: evaluation is not deterministic", s)
		}
		if formalZero(n, []*big.Rat{big.NewRat(-2, 1), big.NewRat(1, 1)}, vars, 20000) && err1 == nil {
			// x - 2 = 0: only a value equal to 2 may pass
			d := new(big.Float).Sub(z1.re, big.NewFloat(2))
			if d.Abs(d).Cmp(big.NewFloat(1e-30)) > 0 || z1.im.Sign() != 0 {
				t.Fatalf("%q: exact evaluation claims a root of x - 2, value %v + %v*I", s, z1.re, z1.im)
			}
		}
	})
}
