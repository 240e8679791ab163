package main

import (
	"fmt"
	"io"
	"regexp"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/plans"
)

var hexHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

// verifyPlanRun checks a plan run answer (POST /v1/plans/…/run, MCP run_plan
// or rerun_plan): every step's envelope against the catalogue, as for one
// /invoke answer, and every run's shape and run_hash — recomputed from
// plan_id, the run's params and its steps' result hashes for a completed
// run, null for a failed one, whose last step is its error. It prints one
// line per problem and a summary; exit 0 when everything checks, 1
// otherwise.
func verifyPlanRun(doc map[string]any, catalog []any, stdout io.Writer) int {
	entries := map[string]map[string]any{}
	for _, t := range catalog {
		if m, ok := t.(map[string]any); ok {
			if name, ok := m["name"].(string); ok {
				entries[name] = m
			}
		}
	}
	planID, _ := doc["plan_id"].(string)
	runs, ok := doc["runs"].([]any)
	if !hexHash.MatchString(planID) || !ok || len(runs) == 0 {
		fmt.Fprintln(stdout, "FAIL: not a plan run: plan_id must be 64 hex digits and runs a non-empty list")
		return 1
	}
	failures, envelopes, completed := 0, 0, 0
	fail := func(run int, format string, args ...any) {
		failures++
		fmt.Fprintf(stdout, "FAIL: run %d: %s\n", run, fmt.Sprintf(format, args...))
	}
	for i, r := range runs {
		run, _ := r.(map[string]any)
		params, okParams := run["params"].(map[string]any)
		steps, okSteps := run["steps"].([]any)
		if !okParams || !okSteps || len(steps) == 0 {
			fail(i, "params must be an object and steps a non-empty list")
			continue
		}
		var hashes []any
		stepsOK := true
		for j, s := range steps {
			step, _ := s.(map[string]any)
			id, _ := step["id"].(string)
			sr, isResult := step["structured_result"].(map[string]any)
			_, isError := step["error"].(map[string]any)
			switch {
			case isResult && !isError:
				tool, _ := sr["tool"].(string)
				entry := entries[tool]
				if entry == nil {
					fail(i, "step %s: tool %q is not in the catalogue", id, tool)
					stepsOK = false
					continue
				}
				if err := evidence.Verify(sr, entry); err != nil {
					fail(i, "step %s (%s): %v", id, tool, err)
					stepsOK = false
					continue
				}
				envelopes++
				hashes = append(hashes, sr["result_hash"])
			case isError && !isResult && j == len(steps)-1:
			default:
				fail(i, "step %d must hold structured_result, or error as the last step", j)
				stepsOK = false
			}
		}
		last, _ := steps[len(steps)-1].(map[string]any)
		_, lastIsError := last["error"]
		switch status := run["status"]; {
		case status == "completed" && !lastIsError:
			want, err := plans.RunHash(planID, params, hashes)
			if err != nil {
				fail(i, "params cannot be hashed: %v", err)
			} else if stepsOK && run["run_hash"] != want {
				fail(i, "run_hash %v does not recompute (%s)", run["run_hash"], want)
			} else if stepsOK {
				completed++
			}
		case status == "failed" && lastIsError:
			if run["run_hash"] != nil {
				fail(i, "a failed run has run_hash %v, want null", run["run_hash"])
			}
		default:
			fail(i, "status %v does not fit its steps", status)
		}
	}
	if failures > 0 {
		return 1
	}
	fmt.Fprintf(stdout, "OK: plan %s: %d runs (%d completed, %d failed), %d step envelopes and %d run hashes verified\n",
		planID, len(runs), completed, len(runs)-completed, envelopes, completed)
	return 0
}
