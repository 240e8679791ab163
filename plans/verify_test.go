package plans

import (
	"reflect"
	"strings"
	"testing"
)

// TestVerifyRunProblems: VerifyRun names each problem of a malformed plan
// run answer, one line each, and counts nothing that did not verify. (The
// answers that verify are checked end to end in cmd/precisiond, through
// `precisiond verify` on a real server's runs.)
func TestVerifyRunProblems(t *testing.T) {
	planID := strings.Repeat("ab", 32)
	for name, c := range map[string]struct {
		doc  map[string]any
		want []string
	}{
		"no plan_id": {
			map[string]any{"runs": []any{}},
			[]string{"not a plan run: plan_id must be 64 hex digits and runs a non-empty list"},
		},
		"no runs": {
			map[string]any{"plan_id": planID, "runs": []any{}},
			[]string{"not a plan run: plan_id must be 64 hex digits and runs a non-empty list"},
		},
		"a run without steps": {
			map[string]any{"plan_id": planID, "runs": []any{map[string]any{"params": map[string]any{}, "steps": []any{}}}},
			[]string{"run 0: params must be an object and steps a non-empty list"},
		},
		"a failed run with a run_hash": {
			map[string]any{"plan_id": planID, "runs": []any{map[string]any{
				"params": map[string]any{}, "status": "failed", "run_hash": "x",
				"steps": []any{map[string]any{"id": "s1", "error": map[string]any{"error_code": "timeout"}}},
			}}},
			[]string{"run 0: a failed run has run_hash x, want null"},
		},
		"an unknown tool, then a status that does not fit": {
			map[string]any{"plan_id": planID, "runs": []any{map[string]any{
				"params": map[string]any{}, "status": "completed",
				"steps": []any{
					map[string]any{"id": "s1", "structured_result": map[string]any{"tool": "nope"}},
					map[string]any{"id": "s2", "error": map[string]any{"error_code": "timeout"}},
				},
			}}},
			[]string{`run 0: step s1: tool "nope" is not in the catalogue`, "run 0: status completed does not fit its steps"},
		},
		"an error before the last step": {
			map[string]any{"plan_id": planID, "runs": []any{map[string]any{
				"params": map[string]any{}, "status": "failed",
				"steps": []any{
					map[string]any{"id": "s1", "error": map[string]any{"error_code": "timeout"}},
					map[string]any{"id": "s2", "error": map[string]any{"error_code": "timeout"}},
				},
			}}},
			[]string{"run 0: step 0 must hold structured_result or items, or error as the last step"},
		},
	} {
		rc := VerifyRun(c.doc, nil, nil)
		if !reflect.DeepEqual(rc.Problems, c.want) {
			t.Errorf("%s: problems %q, want %q", name, rc.Problems, c.want)
		}
		if rc.Completed != 0 || rc.Envelopes != 0 {
			t.Errorf("%s: counted %d completed runs and %d envelopes", name, rc.Completed, rc.Envelopes)
		}
	}
}
