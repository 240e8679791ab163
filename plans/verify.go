package plans

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/jmes"
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
	// attestation) verified; Envelopes: the step (and foreach item)
	// envelopes that verified; Projections: the outputs re-evaluated from a
	// run record's plan and envelopes that matched.
	Runs, Completed, Envelopes, Projections int
	// SignedBy is the OK line's suffix of the last attestation verified.
	SignedBy string
	// Problems has one line per failed check; none: everything checks.
	Problems []string
}

// Report is what `precisiond verify` prints of rc: a FAIL: line per
// problem, or one OK line that counts what was verified.
func (rc RunCheck) Report() string {
	if len(rc.Problems) > 0 {
		return "FAIL: " + strings.Join(rc.Problems, "\nFAIL: ")
	}
	proj := ""
	if rc.Projections > 0 {
		proj = fmt.Sprintf(", %d output projections re-evaluated", rc.Projections)
	}
	return fmt.Sprintf("OK: plan %s: %d runs (%d completed, %d failed), %d step envelopes and %d run hashes verified%s%s",
		rc.PlanID, rc.Runs, rc.Completed, rc.Runs-rc.Completed, rc.Envelopes, rc.Completed, proj, rc.SignedBy)
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
	// A run record (GET /v1/runs/{run_hash}) carries its plan: the output
	// projection is re-evaluated from it.
	var plan *Plan
	if pv, ok := doc["plan"]; ok {
		p, err := Decode(pv)
		switch {
		case err != nil:
			rc.Problems = append(rc.Problems, fmt.Sprintf("the record's plan does not decode: %v", err))
			return rc
		case p.ID != planID:
			rc.Problems = append(rc.Problems, fmt.Sprintf("the record's plan hashes to %s, not plan_id %s", p.ID, planID))
			return rc
		}
		plan = p
	}
	for i, r := range runs {
		run, _ := r.(map[string]any)
		params, okParams := run["params"].(map[string]any)
		steps, okSteps := run["steps"].([]any)
		if _, projected := run["output"]; projected && !okSteps {
			fail(i, "a projected run without its steps: verify its record, GET /v1/runs/%v", run["run_hash"])
			continue
		}
		if _, failed := run["error"]; failed && !okSteps && run["status"] == "failed" && run["run_hash"] == nil {
			continue // a projected run that failed: nothing to verify
		}
		if !okParams || !okSteps || len(steps) == 0 {
			fail(i, "params must be an object and steps a non-empty list")
			continue
		}
		stepsOK := true
		verifyResult := func(id string, item map[string]any, sr map[string]any) bool {
			tool, _ := sr["tool"].(string)
			entry := entries[tool]
			if entry == nil {
				fail(i, "step %s: tool %q is not in the catalogue", id, tool)
				return false
			}
			if err := evidence.Verify(sr, entry); err != nil {
				fail(i, "step %s (%s): %v", id, tool, err)
				return false
			}
			if att != nil {
				if _, err := att.Result(item["attestation"], sr); err != nil {
					fail(i, "step %s (%s): %v", id, tool, err)
					return false
				}
			}
			rc.Envelopes++
			return true
		}
		facts := map[string]any{}
		for j, s := range steps {
			step, _ := s.(map[string]any)
			id, _ := step["id"].(string)
			sr, isResult := step["structured_result"].(map[string]any)
			items, isForeach := step["items"].([]any)
			_, isError := step["error"].(map[string]any)
			switch {
			case isResult && !isError && !isForeach:
				if !verifyResult(id, step, sr) {
					stepsOK = false
					continue
				}
				facts[id] = map[string]any{"facts": sr["facts"]}
			case isForeach && !isResult && (!isError || j == len(steps)-1):
				list := make([]any, len(items))
				var errs []any
				for k, iv := range items {
					item, _ := iv.(map[string]any)
					isr, ok := item["structured_result"].(map[string]any)
					ie, isErr := item["error"].(map[string]any)
					switch {
					case ok && !isErr:
						if !verifyResult(fmt.Sprintf("%s item %d", id, k), item, isr) {
							stepsOK = false
						}
						list[k] = isr["facts"]
					case isErr && !ok && !isError:
						errs = append(errs, map[string]any{"index": item["index"], "error": ie})
					default:
						fail(i, "step %s: item %d must hold structured_result or error", id, k)
						stepsOK = false
					}
				}
				f := map[string]any{"items": list, "count": json.Number(strconv.Itoa(len(list)))}
				if plan != nil {
					if k := plan.stepIndex(id); k >= 0 && plan.Steps[k].OnError == OnErrorCollect {
						if errs == nil {
							errs = []any{}
						}
						f["errors"] = errs
					}
				}
				facts[id] = map[string]any{"facts": f}
			case isError && !isResult && !isForeach && j == len(steps)-1:
			default:
				fail(i, "step %d must hold structured_result or items, or error as the last step", j)
				stepsOK = false
			}
		}
		last, _ := steps[len(steps)-1].(map[string]any)
		_, lastIsError := last["error"]
		outputFailed := false
		if e, ok := run["error"].(map[string]any); ok && e["step"] == "output" {
			outputFailed = true
		}
		switch status := run["status"]; {
		case status == "completed" && !lastIsError:
			hashes, _ := stepHashes(steps)
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
				if plan != nil && plan.Output != nil {
					root := map[string]any{"params": params, "steps": facts}
					budget := RunExprSteps
					got, err := eval(context.Background(), plan.Output, jmes.FromGeneric(root), "output", &budget)
					if err != nil {
						fail(i, "the output projection does not re-evaluate: %v", err)
						continue
					}
					a, _ := evidence.Canonical(got)
					b, _ := evidence.Canonical(run["output"])
					if string(a) != string(b) {
						fail(i, "output %s is not the projection of the steps (%s)", clip(string(b)), clip(string(a)))
						continue
					}
					rc.Projections++
				}
				rc.Completed++
			}
		case status == "failed" && (lastIsError || outputFailed):
			if run["run_hash"] != nil {
				fail(i, "a failed run has run_hash %v, want null", run["run_hash"])
			}
		default:
			fail(i, "status %v does not fit its steps", status)
		}
	}
	return rc
}
