package poly

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestIsolationMemoryIsBounded: a degree-64 polynomial with one long
// coefficient is within the work estimate but its bisection holds
// polynomials whose coefficients grow with every level; with a 200-digit
// coefficient that was 113 MiB live (a 270-byte request, 300 MiB peak RSS).
// The isolation now refuses it at MaxIsolationBytes, deterministically, and
// the heap it reached stays near the bound.
func TestIsolationMemoryIsBounded(t *testing.T) {
	for _, digits := range []int{100, 200} {
		eq := "x**64 - " + strings.Repeat("7", digits) + "*x**63 + x - 1 = 0"
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Solve(context.Background(), eq, "x", DefaultLimits)
		runtime.ReadMemStats(&after)
		var pe *Error
		if !errors.As(err, &pe) || !pe.Costly || pe.Reason != "isolation_too_costly" || !strings.Contains(pe.Message, "MiB of polynomials") {
			t.Fatalf("%d digits: got %v, want the isolation_too_costly memory refusal", digits, err)
		}
		// Everything the call allocated, garbage included, is a few times the
		// bound (it was 580 MiB for 200 digits).
		if got := after.TotalAlloc - before.TotalAlloc; got > 6*MaxIsolationBytes {
			t.Errorf("%d digits: the call allocated %d MiB", digits, got>>20)
		}
	}
	// Below the bound the same shape still solves (10.6 MiB held at 60 digits).
	res, err := Solve(context.Background(), "x**64 - "+strings.Repeat("7", 60)+"*x**63 + x - 1 = 0", "x", DefaultLimits)
	if err != nil || len(res.Solutions) == 0 {
		t.Fatalf("60 digits: %v, %+v", err, res)
	}
}
