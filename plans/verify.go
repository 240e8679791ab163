package plans

import (
	"fmt"
	"regexp"

	"github.com/precisiond/precisiond/evidence"
)

// RunAttestations checks the attestations of a plan run answer (`precisiond
// verify --jwks`). Each method returns the suffix of the OK line: which key
// signed, for which issuer.
type RunAttestations interface {
	// Result checks the attestation jws of a step whose envelope sr
	// already verified.
	Result(jws any, sr map[string]any) (string, error)
	// PlanRun checks the attestation jws of a completed run.
	PlanRun(jws any, planID string, runHash any) (string, error)
}

// RunCheck is what VerifyRun found in a plan run answer.
type RunCheck struct {
	PlanID string
	// Runs, Completed: the runs, and the completed ones whose run_hash (and
	// attestation) verified; Envelopes: the step envelopes that verified.
	Runs, Completed, Envelopes int
	// SignedBy is the OK line's suffix of the last attestation verified.
	SignedBy string
	// Problems has one line per failed check; none: everything checks.
	Problems []string
}

var hexHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

// VerifyRun checks a plan run answer (POST /v1/plans/…/run, MCP run_plan
// or rerun_plan): every step's envelope against catalog (a GET /tools
// list), as for one /invoke answer, and every run's shape and run_hash —
// recomputed with RunHash from plan_id, the run's params and its steps'
// result hashes for a completed run, null for a failed one, whose last step
// is its error. With att (not nil), every step's and every completed run's
// attestation must verify too.
func VerifyRun(doc map[string]any, catalog []any, att RunAttestations) RunCheck {
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
	rc := RunCheck{PlanID: planID, Runs: len(runs)}
	if !hexHash.MatchString(planID) || !ok || len(runs) == 0 {
		rc.Problems = append(rc.Problems, "not a plan run: plan_id must be 64 hex digits and runs a non-empty list")
		return rc
	}
	fail := func(run int, format string, args ...any) {
		rc.Problems = append(rc.Problems, fmt.Sprintf("run %d: %s", run, fmt.Sprintf(format, args...)))
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
				if att != nil {
					if _, err := att.Result(step["attestation"], sr); err != nil {
						fail(i, "step %s (%s): %v", id, tool, err)
						stepsOK = false
						continue
					}
				}
				rc.Envelopes++
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
			want, err := RunHash(planID, params, hashes)
			if err != nil {
				fail(i, "params cannot be hashed: %v", err)
			} else if stepsOK && run["run_hash"] != want {
				fail(i, "run_hash %v does not recompute (%s)", run["run_hash"], want)
			} else if stepsOK {
				if att != nil {
					by, err := att.PlanRun(run["attestation"], planID, run["run_hash"])
					if err != nil {
						fail(i, "%v", err)
						continue
					}
					rc.SignedBy = by
				}
				rc.Completed++
			}
		case status == "failed" && lastIsError:
			if run["run_hash"] != nil {
				fail(i, "a failed run has run_hash %v, want null", run["run_hash"])
			}
		default:
			fail(i, "status %v does not fit its steps", status)
		}
	}
	return rc
}
