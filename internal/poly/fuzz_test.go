package poly

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzSolve feeds arbitrary text to the parser and solver. Properties: no
// panic, no hang (every call is bounded by the limits and a deadline), every
// refusal is a typed *Error with a reason, and every answer is consistent:
// solution_count equals the roots listed, exact strings are non-empty, real
// roots' decimals never carry an "I".
func FuzzSolve(f *testing.F) {
	for _, s := range []string{
		"x**2 - 4 = 0", "2*x + 5 = 13", "x**3 - 6*x**2 + 11*x - 6 = 0", "x^2+x-1",
		"a*x + b = 0", "a*x**2 + b*x + c", "sin(x) = 0", "2**x = 8", "1/x = 2", "x**0.5 = 2",
		"x = x", "1 = 2", "(x-1)**2*(x+2)", "x**5 - x - 1", "0.5*x**2 - 1.25e-1*x", "((((x))))",
		"x**64 - 1", "(x+1)**64", "x - 10**600", "-(-(-x)) = 3/7", "x = 1 = 2", "2x", "x**-1",
		"(x**2+1)*(x**3-x-1)", "x**4 + 1", "1e999*x", ".5*x - 1.", "x == 2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		t0 := time.Now()
		res, err := Solve(ctx, s, "x", DefaultLimits)
		if d := time.Since(t0); d > 3*time.Second {
			t.Fatalf("%q: took %v", s, d)
		}
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				if errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("%q: solving took longer than 10s", s)
				}
				t.Fatalf("%q: untyped error %v", s, err)
			}
			if pe.Reason == "" || pe.Message == "" {
				t.Fatalf("%q: error without reason or message: %#v", s, pe)
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
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%q: untyped error %v", s, err)
			}
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
