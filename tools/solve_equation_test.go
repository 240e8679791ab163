package tools

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/internal/poly"
)

func solveReq(eq string) Request {
	return Request{Tool: "solve_equation", Args: map[string]any{"equation": eq}}
}

// TestSolveEquationLegacyAndWarnings checks what the golden replay does not:
// the legacy text line, no warning for a complete numeric answer, and the
// nonreal_roots_omitted warning when non-real roots cannot be located (the
// coefficients of x**3 + x - 10**400 exceed the float range of the starting
// iteration; its one real root is still isolated exactly).
func TestSolveEquationLegacyAndWarnings(t *testing.T) {
	reg := testRegistry(t)
	resp, err := reg.Invoke(context.Background(), solveReq("x**2 - 4 = 0"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.Result, "solve(x**2 - 4 = 0, x) = [-2, 2]"; got != want {
		t.Errorf("legacy text: got %q, want %q", got, want)
	}
	if len(resp.Envelope.Warnings) != 0 {
		t.Errorf("complete exact answer warned: %v", resp.Envelope.Warnings)
	}
	resp, err = reg.Invoke(context.Background(), solveReq("x**3 - 2 = 0"))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Envelope.Warnings) != 0 || resp.Envelope.Facts()["solution_count"].(interface{ String() string }).String() != "3" {
		t.Errorf("x**3 - 2: got %v solutions, warnings %v; want 3 and none", resp.Envelope.Facts()["solution_count"], resp.Envelope.Warnings)
	}
	resp, err = reg.Invoke(context.Background(), solveReq("x**3 + x - 10**400 = 0"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(resp.Envelope.Warnings); n != 1 || resp.Envelope.Warnings[0].Code != "nonreal_roots_omitted" {
		t.Errorf("warnings: got %v, want one nonreal_roots_omitted", resp.Envelope.Warnings)
	}
	if got := resp.Envelope.Facts()["nonreal_roots_omitted"]; got == nil || got.(interface{ String() string }).String() != "2" {
		t.Errorf("nonreal_roots_omitted: got %v, want 2", got)
	}
}

func BenchmarkSolveEquationSmall(b *testing.B) {
	benchTool(b, "solve_equation", solveReq("x**2 - x - 1 = 0").Args)
}

func BenchmarkSolveEquationLarge(b *testing.B) {
	benchTool(b, "solve_equation", solveReq("(x**2 - 2)**8*(x**3 - x - 1)**8*(x - 1/3)**8*(3*x**2 + x - 5)**8 = 0").Args)
}

// TestSolveEquationContractLimits: the limits the contract declares are the
// engine's.
func TestSolveEquationContractLimits(t *testing.T) {
	lim := contracts.MustLoad("solve_equation").Limits
	for name, want := range map[string]float64{
		"max_isolation_work":  poly.MaxIsolationWork,
		"max_isolation_bytes": poly.MaxIsolationBytes,
		"max_degree":          float64(poly.DefaultLimits.MaxDegree),
		"max_equation_chars":  float64(poly.DefaultLimits.MaxEquationChars),
	} {
		if got, err := strconv.ParseFloat(fmt.Sprint(lim[name]), 64); err != nil || got != want {
			t.Errorf("limits.%s = %v, the engine uses %v", name, lim[name], want)
		}
	}
}
