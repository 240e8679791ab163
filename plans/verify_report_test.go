package plans

import "testing"

// TestRunCheckReport: one FAIL: line per problem, else the OK line that
// counts what was verified.
func TestRunCheckReport(t *testing.T) {
	fail := RunCheck{Problems: []string{"run 0: a", "run 1: b"}}
	if got := fail.Report(); got != "FAIL: run 0: a\nFAIL: run 1: b" {
		t.Errorf("problems: %q", got)
	}
	ok := RunCheck{PlanID: "p", Runs: 3, Completed: 2, Envelopes: 4, Projections: 1, SignedBy: " signed by kid k"}
	if got, want := ok.Report(), "OK: plan p: 3 runs (2 completed, 1 failed), 4 step envelopes and 2 run hashes verified, 1 output projections re-evaluated signed by kid k"; got != want {
		t.Errorf("OK line:\n got %q\nwant %q", got, want)
	}
}
