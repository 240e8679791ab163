package poly

import (
	"context"
	"testing"
)

// benchEquations are the equations measured by BenchmarkSolve (solve) and by
// BenchmarkVerify (verify): the common textbook cases, then large inputs
// (degree at the limit of 64, many real roots to isolate and refine, big
// coefficients).
var benchEquations = []struct {
	name, eq      string
	solve, verify bool
}{
	{"Linear", "2*x + 5 = 13", true, false},
	{"Quadratic", "x**2 - x - 1 = 0", true, true},
	{"Cubic", "x**3 - 6*x**2 + 11*x - 6 = 0", true, false},
	{"Symbolic", "a*x**2 + b*x + c = 0", true, true},
	{"CubeRoots", "x**6 + 124*x**3 - 1485 = 0", false, true},
	{"Degree64Sparse", "x**64 - 3*x**17 + 5*x - 1 = 0", true, true},
	{"Degree64Dense", "(x**2 - 2)**8*(x**3 - x - 1)**8*(x - 1/3)**8*(3*x**2 + x - 5)**8 = 0", true, true},
	// Chebyshev-like polynomial with 15 real roots, all irrational
	{"ManyRealRoots", "(x**5 - 5*x**3 + 5*x - 1)*(x**5 - 5*x**3 + 5*x + 1)*(x**5 - 4*x**3 + 3*x + 1) = 0", true, false},
	{"QuinticBigCoefficients", "123456789012345678901234567890*x**5 - 98765432109876543210*x**2 + 314159265358979323846*x - 271828182845904523536 = 0", true, false},
	{"RootsOfUnity64", "x**64 - 1 = 0", false, true},
}

func BenchmarkSolve(b *testing.B) {
	eachEquation(b, func(solve, _ bool) bool { return solve }, func(b *testing.B, ctx context.Context, eq string) {
		for b.Loop() {
			if _, err := Solve(ctx, eq, "x", DefaultLimits); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkVerify measures the root self-check alone, on the result of the
// solver (its cost is part of every Solve).
func BenchmarkVerify(b *testing.B) {
	eachEquation(b, func(_, verify bool) bool { return verify }, func(b *testing.B, ctx context.Context, eq string) {
		e, err := Parse(eq, "x", DefaultLimits)
		if err != nil {
			b.Fatal(err)
		}
		res, err := solveParsed(ctx, e, "x", equationFactors(eq, "x", DefaultLimits))
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := verify(ctx, eq, e, res); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// eachEquation runs bench as a sub-benchmark, allocations reported, for every
// equation of benchEquations that pick selects by its solve and verify marks.
func eachEquation(b *testing.B, pick func(solve, verify bool) bool, bench func(b *testing.B, ctx context.Context, eq string)) {
	for _, c := range benchEquations {
		if pick(c.solve, c.verify) {
			b.Run(c.name, func(b *testing.B) {
				b.ReportAllocs()
				bench(b, context.Background(), c.eq)
			})
		}
	}
}
