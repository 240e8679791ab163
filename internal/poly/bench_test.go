package poly

import (
	"context"
	"testing"
)

func benchSolve(b *testing.B, eq string) {
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		if _, err := Solve(ctx, eq, "x", DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
}

// Small inputs: the common textbook cases.
func BenchmarkSolveLinear(b *testing.B)    { benchSolve(b, "2*x + 5 = 13") }
func BenchmarkSolveQuadratic(b *testing.B) { benchSolve(b, "x**2 - x - 1 = 0") }
func BenchmarkSolveCubic(b *testing.B)     { benchSolve(b, "x**3 - 6*x**2 + 11*x - 6 = 0") }
func BenchmarkSolveSymbolic(b *testing.B)  { benchSolve(b, "a*x**2 + b*x + c = 0") }

// Large inputs: degree at the limit (64), many real roots to isolate and
// refine, big coefficients.
func BenchmarkSolveDegree64Sparse(b *testing.B) { benchSolve(b, "x**64 - 3*x**17 + 5*x - 1 = 0") }
func BenchmarkSolveDegree64Dense(b *testing.B) {
	benchSolve(b, "(x**2 - 2)**8*(x**3 - x - 1)**8*(x - 1/3)**8*(3*x**2 + x - 5)**8 = 0")
}
func BenchmarkSolveManyRealRoots(b *testing.B) {
	// Chebyshev-like polynomial with 15 real roots, all irrational
	benchSolve(b, "(x**5 - 5*x**3 + 5*x - 1)*(x**5 - 5*x**3 + 5*x + 1)*(x**5 - 4*x**3 + 3*x + 1) = 0")
}
func BenchmarkSolveQuinticBigCoefficients(b *testing.B) {
	benchSolve(b, "123456789012345678901234567890*x**5 - 98765432109876543210*x**2 + 314159265358979323846*x - 271828182845904523536 = 0")
}

// The root self-check alone, on the result of the solver (its cost is part
// of every Solve above).
func benchVerify(b *testing.B, eq string) {
	b.ReportAllocs()
	ctx := context.Background()
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
}

func BenchmarkVerifyQuadratic(b *testing.B) { benchVerify(b, "x**2 - x - 1 = 0") }
func BenchmarkVerifySymbolic(b *testing.B)  { benchVerify(b, "a*x**2 + b*x + c = 0") }
func BenchmarkVerifyCubeRoots(b *testing.B) { benchVerify(b, "x**6 + 124*x**3 - 1485 = 0") }
func BenchmarkVerifyDegree64Sparse(b *testing.B) {
	benchVerify(b, "x**64 - 3*x**17 + 5*x - 1 = 0")
}
func BenchmarkVerifyDegree64Dense(b *testing.B) {
	benchVerify(b, "(x**2 - 2)**8*(x**3 - x - 1)**8*(x - 1/3)**8*(3*x**2 + x - 5)**8 = 0")
}
func BenchmarkVerifyRootsOfUnity64(b *testing.B) { benchVerify(b, "x**64 - 1 = 0") }
