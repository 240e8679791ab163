package plans

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/tools"
)

// Defaults of Options.
const (
	// DefaultMaxCalls bounds steps × runs of one run request.
	DefaultMaxCalls = 4000
	// DefaultTimeout is the overall deadline of one run request (each step
	// also has the registry's per-call deadline).
	DefaultTimeout = 30 * time.Second
	// DefaultMaxResponseBytes bounds the canonical JSON of one run response.
	DefaultMaxResponseBytes = 8 << 20
)

// Options are a Service's limits and hooks. Zero values mean the defaults.
type Options struct {
	// MaxCalls refuses a run request whose steps × parameter sets exceed it,
	// before anything runs (cost_limit_exceeded, reason plan_calls).
	MaxCalls int
	// Timeout is the overall deadline of one run request; steps not started
	// by then fail with timeout (reason plan_deadline).
	Timeout time.Duration
	// MaxResponseBytes bounds the run response; a request whose answer grows
	// past it is stopped and refused (tool_result_too_large, reason
	// plan_response_too_large): split the batch.
	MaxResponseBytes int64
	// Parallelism is the number of plan steps executing at once across all
	// run requests (default: half the registry's execution slots, at least
	// 1), so that batches never hold every slot and single calls are served
	// beside them.
	Parallelism int
	// ErrorBody renders the error of a failed step as the wire error body;
	// nil: ErrorBody.
	ErrorBody func(ctx context.Context, tool string, err error) map[string]any
	// Logger receives store problems; nil discards.
	Logger *slog.Logger
}

// Service registers, stores and runs plans over one registry. It is safe for
// concurrent use; every surface (REST, MCP compact) shares one.
type Service struct {
	reg   *tools.Registry
	store Store
	opts  Options
	slots chan struct{} // plan steps executing now, across all requests
}

// NewService returns the plan service of reg, keeping plans in store.
func NewService(reg *tools.Registry, store Store, opts Options) *Service {
	defaults.Positive(&opts.MaxCalls, DefaultMaxCalls)
	defaults.Positive(&opts.Timeout, DefaultTimeout)
	defaults.Positive(&opts.MaxResponseBytes, DefaultMaxResponseBytes)
	if opts.Parallelism <= 0 {
		opts.Parallelism = 4
		if l := reg.Limiter(); l != nil {
			opts.Parallelism = max(1, l.Capacity()/2)
		}
	}
	if opts.ErrorBody == nil {
		opts.ErrorBody = func(_ context.Context, tool string, err error) map[string]any { return ErrorBody(tool, err) }
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{reg: reg, store: store, opts: opts, slots: make(chan struct{}, opts.Parallelism)}
}

// Registry is the registry the service runs plans on.
func (s *Service) Registry() *tools.Registry { return s.reg }

// Options returns the service's limits with the defaults filled in.
func (s *Service) Options() Options { return s.opts }

// Register decodes a plan (generic JSON), checks it against the registry and
// stores it. Errors: invalid_plan (*tools.Error); anything else is the
// store's failure (an internal error).
func (s *Service) Register(ctx context.Context, v any) (*Plan, error) {
	p, err := Decode(v)
	if err != nil {
		return nil, err
	}
	if err := Check(p, s.reg); err != nil {
		return nil, err
	}
	if err := s.store.Put(ctx, p.ID, p.Canonical()); err != nil {
		return nil, fmt.Errorf("storing plan %s: %w", p.ID, err)
	}
	return p, nil
}

// Load returns the stored plan with id, checked against the registry as it
// is now (a tool may have been disabled since). Errors: unknown_plan and
// invalid_plan (*tools.Error); anything else is the store's failure.
func (s *Service) Load(ctx context.Context, id string) (*Plan, error) {
	p, err := s.Fetch(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := Check(p, s.reg); err != nil {
		return nil, err
	}
	return p, nil
}

// Fetch returns the stored plan with id without checking it against the
// registry. Errors: unknown_plan (*tools.Error); anything else is the
// store's failure. A stored entry that no longer hashes to its id is logged
// and treated as absent.
func (s *Service) Fetch(ctx context.Context, id string) (*Plan, error) {
	if !hashPattern.MatchString(id) {
		return nil, unknownPlan(id)
	}
	b, err := s.store.Get(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, unknownPlan(id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading plan %s: %w", id, err)
	}
	var p *Plan
	if evidence.HashBytes(b) == id {
		if v, perr := evidence.ParseJSON(b); perr == nil {
			p, _ = Decode(v)
		}
	}
	if p == nil || p.ID != id {
		s.opts.Logger.Error("stored plan does not hash to its id; ignored", "plan_id", id)
		return nil, unknownPlan(id)
	}
	return p, nil
}

func unknownPlan(id string) *tools.Error {
	return &tools.Error{Code: CodeUnknownPlan, Message: fmt.Sprintf("no plan with plan_id %s (register it with POST /v1/plans, or run it with POST /v1/plans/run)", clip(id))}
}

// Run runs p once per parameter set and returns the canonical JSON of the
// response {"plan_id", "runs": [{"params", "status", "steps", "run_hash"}]},
// runs in the order of sets. With batch false, sets holds the one value of
// "params" (nil: {}); with batch true, the elements of "params_batch".
//
// Before anything runs, the request is refused with invalid_request (no
// sets, or more than MaxBatch), cost_limit_exceeded (steps × sets over
// Options.MaxCalls, reason plan_calls) or input_schema_invalid (a parameter
// set that does not fit the declared params; details at /params/NAME or
// /params_batch/I/NAME). Then the runs proceed concurrently, their steps in
// order through Registry.Invoke: a failing step stops its run with its
// error, the other runs go on. An answer that would grow past
// Options.MaxResponseBytes stops the request with tool_result_too_large.
func (s *Service) Run(ctx context.Context, p *Plan, sets []any, batch bool) ([]byte, error) {
	if len(sets) == 0 || len(sets) > MaxBatch {
		return nil, &tools.Error{Code: tools.CodeInvalidRequest, Reason: "params_batch_size",
			Message: fmt.Sprintf("params_batch holds %d parameter sets; 1 to %d are allowed", len(sets), MaxBatch)}
	}
	if calls := len(p.Steps) * len(sets); calls > s.opts.MaxCalls {
		return nil, &tools.Error{Code: tools.CodeCostLimit, Reason: "plan_calls",
			Message: fmt.Sprintf("%d steps × %d parameter sets = %d calls, more than the limit of %d per request (--plan-max-calls); split the batch", len(p.Steps), len(sets), calls, s.opts.MaxCalls)}
	}
	bound := make([]map[string]any, len(sets))
	var details []contracts.Detail
	for i, set := range sets {
		at := "/params"
		if batch {
			at = "/params_batch/" + strconv.Itoa(i)
		}
		var ds []contracts.Detail
		bound[i], ds = p.Bind(set, at)
		details = append(details, ds...)
		if len(details) >= contracts.MaxDetails {
			break
		}
	}
	if len(details) > 0 {
		if len(details) > contracts.MaxDetails {
			details = details[:contracts.MaxDetails]
		}
		return nil, &tools.Error{Code: tools.CodeInputSchemaInvalid, Reason: "params_invalid",
			Message: details[0].Path + ":" + details[0].Keyword, Details: details}
	}

	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.Timeout, errPlanDeadline)
	defer cancel()
	head, _ := evidence.AppendCanonical([]byte(`{"plan_id":`), p.ID)
	head = append(head, `,"runs":[`...)
	runs := make([][]byte, len(sets))
	var used atomic.Int64
	used.Store(int64(len(head)) + 2)
	var tooLarge atomic.Bool
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(sets), s.opts.Parallelism) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(sets) || tooLarge.Load() {
					return
				}
				b := s.runOne(ctx, p, bound[i])
				if used.Add(int64(len(b))+1) > s.opts.MaxResponseBytes {
					tooLarge.Store(true)
					cancel()
					return
				}
				runs[i] = b
			}
		}()
	}
	wg.Wait()
	if tooLarge.Load() {
		return nil, &tools.Error{Code: tools.CodeResultTooLarge, Reason: "plan_response_too_large",
			Message: fmt.Sprintf("the answer to %d parameter sets would exceed %d bytes (--plan-max-response-bytes); split the batch", len(sets), s.opts.MaxResponseBytes)}
	}
	out := make([]byte, 0, used.Load())
	out = append(out, head...)
	for i, r := range runs {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, r...)
	}
	return append(out, "]}"...), nil
}

// errPlanDeadline is the cause of a run request's context when its overall
// deadline passed.
var errPlanDeadline = errors.New("the plan request's deadline passed")

// runOne runs the steps of one parameter set in order and returns the
// canonical JSON of the run.
func (s *Service) runOne(ctx context.Context, p *Plan, params map[string]any) []byte {
	facts := make([]map[string]any, len(p.Steps))
	hashes := make([]any, 0, len(p.Steps))
	steps := []byte{'['}
	failed := false
	for i, st := range p.Steps {
		if i > 0 {
			steps = append(steps, ',')
		}
		args, err := p.bindStep(i, params, facts)
		var resp *tools.Response
		if err == nil {
			resp, err = s.call(ctx, st, args)
		}
		if err != nil {
			body := s.opts.ErrorBody(ctx, st.Tool, err)
			steps = append(steps, `{"error":`...)
			steps = appendValue(steps, body)
			steps = append(steps, `,"id":`...)
			steps = appendValue(steps, st.ID)
			steps = append(steps, '}')
			failed = true
			break
		}
		facts[i] = resp.Envelope.Facts()
		hashes = append(hashes, resp.Envelope.ResultHash)
		steps = append(steps, '{')
		if resp.Attestation != "" {
			steps = append(steps, `"attestation":`...)
			steps = appendValue(steps, resp.Attestation)
			steps = append(steps, ',')
		}
		steps = append(steps, `"id":`...)
		steps = appendValue(steps, st.ID)
		steps = append(steps, `,"structured_result":`...)
		steps = append(steps, resp.EnvelopeJSON...)
		steps = append(steps, '}')
	}
	steps = append(steps, ']')
	b := []byte{'{'}
	var runHash any // null for a failed run
	if !failed {
		h, err := RunHash(p.ID, params, hashes)
		if err != nil { // params came from ParseJSON: cannot fail
			h = ""
		}
		runHash = h
		// The registry's attester signs the run as it signs each step; keys
		// in canonical order: "attestation" < "params".
		if a := s.reg.Attester(); a != nil {
			if jws, err := a.SignPlanRun(p.ID, h); err == nil {
				b = append(b, `"attestation":`...)
				b = appendValue(b, jws)
				b = append(b, ',')
			} else {
				s.opts.Logger.Error("signing a plan run", "plan_id", p.ID, "err", err.Error())
			}
		}
	}
	b = append(b, `"params":`...)
	b = appendValue(b, params)
	b = append(b, `,"run_hash":`...)
	b = appendValue(b, runHash)
	status := "completed"
	if failed {
		status = "failed"
	}
	b = append(b, `,"status":`...)
	b = appendValue(b, status)
	b = append(b, `,"steps":`...)
	b = append(b, steps...)
	return append(b, '}')
}

// appendValue appends canonical JSON of a value that is known to encode
// (strings, generic JSON from ParseJSON, error bodies).
func appendValue(b []byte, v any) []byte {
	out, err := evidence.AppendCanonical(b, v)
	if err != nil {
		return append(b, "null"...)
	}
	return out
}

// call runs one step through the execution path, inside the request's share
// of plan slots. A step refused with overloaded (no execution slot within
// the queue wait) did no work and is tried again until the request's
// deadline; every other outcome is the step's.
func (s *Service) call(ctx context.Context, st Step, args map[string]any) (*tools.Response, error) {
	for {
		if ctx.Err() != nil {
			return nil, deadlineError(ctx, st)
		}
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, deadlineError(ctx, st)
		}
		resp, err := s.reg.Invoke(ctx, tools.Request{Tool: st.Tool, Args: args, ContractHash: st.ContractHash})
		<-s.slots
		var te *tools.Error
		if errors.As(err, &te) && te.Code == tools.CodeOverloaded && ctx.Err() == nil {
			// The limiter already waited --queue-wait; pause briefly so that a
			// zero queue wait does not turn this into a busy loop.
			t := time.NewTimer(overloadPause)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
			continue
		}
		return resp, err
	}
}

// overloadPause is the pause before a plan step refused with overloaded
// tries for a slot again.
const overloadPause = 5 * time.Millisecond

func deadlineError(ctx context.Context, st Step) error {
	if errors.Is(context.Cause(ctx), errPlanDeadline) {
		return &tools.Error{Code: tools.CodeTimeout, Reason: "plan_deadline",
			Message: fmt.Sprintf("step %s (%s) did not run: the plan request's deadline passed (--plan-timeout)", st.ID, st.Tool)}
	}
	return &tools.Error{Code: tools.CodeTimeout, Reason: "canceled", Message: fmt.Sprintf("step %s (%s) did not run: the request was canceled", st.ID, st.Tool)}
}

// RunHash is the run_hash of a completed run (docs/plans.md): H({"plan_id",
// "params" (defaults applied), "steps": [each step's result_hash, in
// order]}).
func RunHash(planID string, params map[string]any, resultHashes []any) (string, error) {
	return evidence.Hash(map[string]any{"plan_id": planID, "params": params, "steps": resultHashes})
}

// ErrorBody is the wire error body of a failed step: {"error", "error_code",
// "tool"} plus "reason" and "details" when set. Anything that is not a
// *tools.Error is shown as internal_error without its message.
func ErrorBody(tool string, err error) map[string]any {
	var te *tools.Error
	if !errors.As(err, &te) {
		return map[string]any{"error": "internal error", "error_code": tools.CodeInternal, "tool": tool}
	}
	body := map[string]any{"error": te.Message, "error_code": te.Code, "tool": tool}
	if te.Reason != "" {
		body["reason"] = te.Reason
	}
	if len(te.Details) > 0 {
		ds := make([]any, len(te.Details))
		for i, d := range te.Details {
			ds[i] = map[string]any{"path": d.Path, "keyword": d.Keyword, "message": d.Message}
		}
		body["details"] = ds
	}
	return body
}

// Bind checks one parameter set (generic JSON; nil means {}) against the
// declared params and returns it with the defaults applied, or the details
// of what does not fit (paths below at).
func (p *Plan) Bind(v any, at string) (map[string]any, []contracts.Detail) {
	if v == nil {
		v = map[string]any{}
	}
	given, ok := v.(map[string]any)
	if !ok {
		return nil, []contracts.Detail{{Path: at, Keyword: "type", Message: "a parameter set is an object {NAME: value}"}}
	}
	var details []contracts.Detail
	out := make(map[string]any, len(p.Params))
	for _, name := range sortedKeys(given) {
		prm, ok := p.Params[name]
		switch {
		case !ok:
			details = append(details, contracts.Detail{Path: at + "/" + escape(name), Keyword: "additionalProperties", Message: "unknown parameter (not declared in the plan's params)"})
		case !TypeMatches(prm.Type, given[name]):
			details = append(details, contracts.Detail{Path: at + "/" + escape(name), Keyword: "type", Message: "parameter " + name + " must be of type " + prm.Type})
		default:
			out[name] = given[name]
		}
	}
	for name, prm := range p.Params {
		if _, ok := given[name]; ok {
			continue
		}
		if !prm.HasDefault {
			details = append(details, contracts.Detail{Path: at + "/" + escape(name), Keyword: "required", Message: "missing parameter (it has no default)"})
			continue
		}
		out[name] = prm.Default
	}
	if len(details) > 0 {
		return nil, sortDetails(details)
	}
	return out, nil
}

func sortDetails(ds []contracts.Detail) []contracts.Detail {
	slices.SortStableFunc(ds, func(a, b contracts.Detail) int { return strings.Compare(a.Path, b.Path) })
	return ds
}

// bindStep returns step i's arguments with every placeholder replaced: a
// parameter's value, an earlier step's fact, a literal. A fact the earlier
// step did not produce fails the step (invalid_request, reason ref_missing).
func (p *Plan) bindStep(i int, params map[string]any, facts []map[string]any) (map[string]any, error) {
	st := p.Steps[i]
	var missing *tools.Error
	args := fill(st.Args, func(_ []string, h hole) any {
		switch {
		case h.isLit:
			return contracts.DeepCopy(h.lit)
		case h.ref == nil:
			return contracts.DeepCopy(params[h.param])
		}
		j := p.stepIndex(h.ref.Step)
		v, ok := lookup(facts[j], h.ref.Pointer)
		if !ok && missing == nil {
			missing = &tools.Error{Code: tools.CodeInvalidRequest, Reason: "ref_missing",
				Message: fmt.Sprintf("step %s: $ref %q: step %s's facts have no value at %s", st.ID, clip(h.ref.Text), h.ref.Step, clip(pointer(h.ref.Pointer)))}
		}
		return contracts.DeepCopy(v)
	}, st.holes)
	if missing != nil {
		return nil, missing
	}
	return args.(map[string]any), nil
}

func (p *Plan) stepIndex(id string) int {
	for i, st := range p.Steps {
		if st.ID == id {
			return i
		}
	}
	return -1
}

// lookup resolves JSON Pointer tokens in generic JSON.
func lookup(v any, tokens []string) (any, bool) {
	for _, t := range tokens {
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[t]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			i, ok := arrayIndex(t)
			if !ok || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}
