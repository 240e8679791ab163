package plans

import (
	"context"
	"errors"
	"fmt"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// CodeUnknownRun is a run_hash the store does not hold (HTTP 404).
const CodeUnknownRun = "unknown_run"

// storeRun keeps the record of a completed run of a plan with an output
// projection under its run_hash, in the plan store (same cap, eviction and
// backends as plans): {"plan", "plan_id", "runs": [run]}, the run with its
// steps. The record is what `precisiond verify` re-checks. A store failure
// is logged; the run's answer stands.
func (s *Service) storeRun(ctx context.Context, p *Plan, runHash string, run []byte) {
	rec := make([]byte, 0, len(p.canonical)+len(run)+128)
	rec = append(rec, `{"plan":`...)
	rec = append(rec, p.canonical...)
	rec = append(rec, `,"plan_id":`...)
	rec = appendValue(rec, p.ID)
	rec = append(rec, `,"runs":[`...)
	rec = append(rec, run...)
	rec = append(rec, "]}"...)
	if err := s.store.Put(ctx, runHash, rec); err != nil {
		s.opts.Logger.Error("storing a plan run", "plan_id", p.ID, "run_hash", runHash, "err", err.Error())
	}
}

// GetRun returns the stored record of a run by its run_hash (GET
// /v1/runs/{run_hash}): canonical JSON {"plan", "plan_id", "runs": [run]}
// whose run holds its output and its steps' envelopes. Errors: unknown_run
// (*tools.Error) for a hash the store does not hold, or whose record no
// longer recomputes to it (logged); anything else is the store's failure.
func (s *Service) GetRun(ctx context.Context, runHash string) ([]byte, error) {
	unknown := &tools.Error{Code: CodeUnknownRun, Message: fmt.Sprintf("no stored run with run_hash %s (runs of plans with an output projection are stored, with the plans' retention)", clip(runHash))}
	if !hashPattern.MatchString(runHash) {
		return nil, unknown
	}
	b, err := s.store.Get(ctx, runHash)
	if errors.Is(err, ErrNotFound) {
		return nil, unknown
	}
	if err != nil {
		return nil, fmt.Errorf("reading run %s: %w", runHash, err)
	}
	if RecordHash(b) != runHash {
		s.opts.Logger.Error("stored run does not recompute to its run_hash; ignored", "run_hash", runHash)
		return nil, unknown
	}
	return b, nil
}

// EntryValid reports whether b is a valid store entry for id: a plan whose
// SHA-256 is id, or a run record whose run_hash recomputes to id (the
// entries are content-addressed either way).
func EntryValid(id string, b []byte) bool {
	return evidence.HashBytes(b) == id || RecordHash(b) == id
}

// RecordHash recomputes the run_hash of a run record ({"plan", "plan_id",
// "runs": [one completed run]}) from the plan, the run's params and its
// steps' result hashes; "" when b is not such a record or its plan does not
// hash to its plan_id.
func RecordHash(b []byte) string {
	v, err := evidence.ParseJSON(b)
	if err != nil {
		return ""
	}
	doc, _ := v.(map[string]any)
	planID, _ := doc["plan_id"].(string)
	runs, _ := doc["runs"].([]any)
	if len(runs) != 1 || doc["plan"] == nil {
		return ""
	}
	if h, err := evidence.Hash(doc["plan"]); err != nil || h != planID {
		return ""
	}
	run, _ := runs[0].(map[string]any)
	params, _ := run["params"].(map[string]any)
	steps, _ := run["steps"].([]any)
	hashes, ok := stepHashes(steps)
	if params == nil || !ok || run["status"] != "completed" {
		return ""
	}
	h, err := RunHash(planID, params, hashes)
	if err != nil || run["run_hash"] != h {
		return ""
	}
	return h
}

// stepHashes lists the result hashes of a completed run's steps as run_hash
// covers them: a step's result_hash, or for a foreach step the list of its
// items' (null for a collected error). ok is false when a step has neither
// a result nor items.
func stepHashes(steps []any) ([]any, bool) {
	out := make([]any, 0, len(steps))
	for _, sv := range steps {
		step, _ := sv.(map[string]any)
		if _, failed := step["error"]; failed {
			return nil, false
		}
		if sr, ok := step["structured_result"].(map[string]any); ok {
			out = append(out, sr["result_hash"])
			continue
		}
		items, ok := step["items"].([]any)
		if !ok {
			return nil, false
		}
		hs := make([]any, len(items))
		for i, iv := range items {
			item, _ := iv.(map[string]any)
			if sr, ok := item["structured_result"].(map[string]any); ok {
				hs[i] = sr["result_hash"]
			}
		}
		out = append(out, hs)
	}
	return out, len(out) > 0
}
