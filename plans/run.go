package plans

import (
	"context"
	"encoding/json"
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
	"github.com/precisiond/precisiond/internal/jmes"
	"github.com/precisiond/precisiond/internal/structured"
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

// RunOptions are the caller's choices for one run request.
type RunOptions struct {
	// IncludeSteps keeps the step envelopes in the answer of a plan with an
	// output projection ("include": "steps"); without it such a run answers
	// its output and run_hash only, and its steps are stored under the
	// run_hash (GET /v1/runs/{run_hash}).
	IncludeSteps bool
}

// Run is RunWith without options.
func (s *Service) Run(ctx context.Context, p *Plan, sets []any, batch bool) ([]byte, error) {
	return s.RunWith(ctx, p, sets, batch, RunOptions{})
}

// RunWith runs p once per parameter set and returns the canonical JSON of
// the response {"plan_id", "runs": [{"params", "status", "steps",
// "run_hash"}]}, runs in the order of sets. With batch false, sets holds the
// one value of "params" (nil: {}); with batch true, the elements of
// "params_batch". A plan with an output projection answers each run's
// "output" instead of its "steps" (unless ro.IncludeSteps) and stores each
// completed run under its run_hash (Service.GetRun).
//
// Before anything runs, the request is refused with invalid_request (no
// sets, or more than MaxBatch), cost_limit_exceeded (steps × sets over
// Options.MaxCalls, reason plan_calls) or input_schema_invalid (a parameter
// set that does not fit the declared params; details at /params/NAME or
// /params_batch/I/NAME). Then the runs proceed concurrently, their steps in
// order through Registry.Invoke: a failing step stops its run with its
// error, the other runs go on. A foreach step takes its items' calls from
// what is left of Options.MaxCalls when its array is known. An answer that
// would grow past Options.MaxResponseBytes stops the request with
// tool_result_too_large.
func (s *Service) RunWith(ctx context.Context, p *Plan, sets []any, batch bool, ro RunOptions) ([]byte, error) {
	if len(sets) == 0 || len(sets) > MaxBatch {
		return nil, &tools.Error{Code: tools.CodeInvalidRequest, Reason: "params_batch_size",
			Message: fmt.Sprintf("params_batch holds %d parameter sets; 1 to %d are allowed", len(sets), MaxBatch)}
	}
	calls := len(p.Steps) * len(sets)
	if calls > s.opts.MaxCalls {
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
	var tooLarge atomic.Bool
	var next atomic.Int64
	req := &request{plan: p, opts: ro}
	req.spare.Store(int64(s.opts.MaxCalls - calls))
	used := &req.used
	used.Store(int64(len(head)) + 2)
	// Progress counts completed runs; the steps' own tools report nothing
	// (their measures would mix with the runs').
	var completed atomic.Int64
	progressCtx := ctx
	ctx = tools.WithoutProgress(ctx)
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
				b := s.runOne(ctx, req, bound[i])
				if used.Add(int64(len(b))+1) > s.opts.MaxResponseBytes {
					tooLarge.Store(true)
					cancel()
					return
				}
				runs[i] = b
				tools.ReportProgress(progressCtx, float64(completed.Add(1)), float64(len(sets)), "plan runs completed")
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

// request is what the runs of one run request share.
type request struct {
	plan *Plan
	opts RunOptions
	// spare is the number of calls the request may still make beyond one per
	// step and run: foreach steps take their extra items' calls from it.
	spare atomic.Int64
	// used counts the bytes of the answer so far and of the foreach
	// envelopes runs in progress hold, against Options.MaxResponseBytes.
	used atomic.Int64
}

// runState is one run in progress: what its placeholders read.
type runState struct {
	params  map[string]any
	facts   []map[string]any // by step index, generic JSON
	sfacts  []any            // the same as JMESPath values, {"facts": …}, built once
	sparams any
	steps   int   // JMESPath steps left to the run's $jmes evaluations
	held    int64 // bytes of foreach envelopes counted in request.used
}

// root returns the data of a $jmes expression evaluated before step i:
// {"params", "steps": {ID: {"facts"}} of the steps before i}, with the
// foreach element under item when item is not "".
func (r *runState) root(p *Plan, i int, item string, elem any) any {
	if r.sparams == nil {
		r.sparams = jmes.FromGeneric(r.params)
	}
	steps := structured.NewObject(i)
	for j := range i {
		if r.sfacts[j] == nil {
			r.sfacts[j] = jmes.FromGeneric(map[string]any{"facts": r.facts[j]})
		}
		steps.Set(p.Steps[j].ID, r.sfacts[j])
	}
	o := structured.NewObject(3)
	o.Set("params", r.sparams)
	o.Set("steps", steps)
	if item != "" {
		o.Set(item, jmes.FromGeneric(elem))
	}
	return o
}

// exprLimits bound one $jmes evaluation: its result is at most 1 MiB of
// canonical JSON, the values it builds at most 16 MiB. The steps of all
// evaluations of one run together are at most RunExprSteps.
var exprLimits = jmes.Limits{MaxWorkBytes: 16 << 20, MaxResultBytes: 1 << 20}

// RunExprSteps bounds the JMESPath steps of all $jmes evaluations of one run
// (a foreach step evaluates its arguments once per element).
const RunExprSteps = jmes.DefaultSteps

// eval evaluates a $jmes expression over root, taking its steps from
// *budget; the result is generic JSON. Errors (*tools.Error, named by
// where): invalid_request with reason jmes_error (a runtime error of the
// expression), cost_limit_exceeded with reason jmes_limit (its budget, or
// the run's), timeout (the request's context).
func eval(ctx context.Context, e *Expr, root any, where string, budget *int) (any, error) {
	lim := exprLimits
	lim.MaxSteps = max(*budget, 1)
	v, used, err := e.query.SearchIn(ctx, root, lim, jmes.Plans)
	*budget -= used
	if err == nil {
		v, err = jmes.ToGeneric(v)
	}
	if err == nil {
		return v, nil
	}
	var je *jmes.Error
	switch {
	case errors.As(err, &je) && je.Kind == jmes.KindLimit:
		return nil, &tools.Error{Code: tools.CodeCostLimit, Reason: "jmes_limit", Message: fmt.Sprintf("%s: $jmes %q: %s", where, clip(e.Text), je.Message)}
	case errors.As(err, &je):
		return nil, &tools.Error{Code: tools.CodeInvalidRequest, Reason: "jmes_error", Message: fmt.Sprintf("%s: $jmes %q: %s", where, clip(e.Text), je.Error())}
	case ctx.Err() != nil:
		return nil, &tools.Error{Code: tools.CodeTimeout, Reason: "plan_deadline", Message: fmt.Sprintf("%s: $jmes %q did not finish before the request's deadline", where, clip(e.Text))}
	}
	return nil, fmt.Errorf("%s: $jmes: %w", where, err)
}

// runOne runs the steps of one parameter set in order and returns the
// canonical JSON of the run.
func (s *Service) runOne(ctx context.Context, req *request, params map[string]any) []byte {
	p := req.plan
	rs := &runState{params: params, facts: make([]map[string]any, len(p.Steps)), sfacts: make([]any, len(p.Steps)), steps: RunExprSteps}
	// What the loops held is counted again as the run's answer.
	defer func() { req.used.Add(-rs.held) }()
	hashes := make([]any, 0, len(p.Steps))
	steps := []byte{'['}
	var failure map[string]any // the error body of the step that stopped the run
	for i, st := range p.Steps {
		if i > 0 {
			steps = append(steps, ',')
		}
		if st.Foreach != nil {
			var h []any
			var body map[string]any
			steps, h, body = s.runForeach(ctx, req, i, rs, steps)
			if body != nil {
				failure = body
				break
			}
			hashes = append(hashes, h)
			continue
		}
		args, err := s.bindStep(ctx, p, i, rs, nil)
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
			failure = stepFailure(body, st.ID, -1)
			break
		}
		rs.facts[i] = resp.Envelope.Facts()
		hashes = append(hashes, resp.Envelope.ResultHash)
		steps = append(steps, '{')
		steps = appendResult(steps, resp, st.ID)
		steps = append(steps, '}')
	}
	steps = append(steps, ']')
	var output any
	if failure == nil && p.Output != nil {
		v, err := eval(ctx, p.Output, rs.root(p, len(p.Steps), "", nil), "output", &rs.steps)
		if err != nil {
			failure = stepFailure(s.opts.ErrorBody(ctx, "", err), "output", -1)
		}
		output = v
	}
	var runHash any // null for a failed run
	var att string
	if failure == nil {
		h, err := RunHash(p.ID, params, hashes)
		if err != nil { // params came from ParseJSON: cannot fail
			h = ""
		}
		runHash = h
		if a := s.reg.Attester(); a != nil {
			if jws, err := a.SignPlanRun(p.ID, h); err == nil {
				att = jws
			} else {
				s.opts.Logger.Error("signing a plan run", "plan_id", p.ID, "err", err.Error())
			}
		}
	}
	if p.Output == nil {
		return encodeRun(att, failure, false, nil, params, runHash, steps)
	}
	if failure == nil {
		full := encodeRun(att, nil, true, output, params, runHash, steps)
		s.storeRun(ctx, p, runHash.(string), full)
		if req.opts.IncludeSteps {
			return full
		}
		// Only the answer: params, attestation and steps are in the record.
		return encodeRun("", nil, true, output, nil, runHash, nil)
	}
	if !req.opts.IncludeSteps {
		return encodeRun("", failure, true, nil, nil, runHash, nil)
	}
	return encodeRun(att, failure, true, nil, params, runHash, steps)
}

// stepFailure is the "error" of a failed run of a plan with an output
// projection: the error body with the failing step's id (and the item's
// index for a foreach step; index < 0: none).
func stepFailure(body map[string]any, id string, index int) map[string]any {
	out := make(map[string]any, len(body)+2)
	for k, v := range body {
		out[k] = v
	}
	out["step"] = id
	if index >= 0 {
		out["index"] = index
	}
	return out
}

// runJSON writes one run in canonical key order: attestation, error, output,
// params, run_hash, status, steps. failure (not nil) makes the run failed;
// a run of a plan with an output projection (projected) then shows it as
// "error", and a completed one its output. params and steps nil leave them
// out.
func encodeRun(att string, failure map[string]any, projected bool, output any, params map[string]any, runHash any, steps []byte) []byte {
	b := []byte{'{'}
	if att != "" {
		b = append(b, `"attestation":`...)
		b = appendValue(b, att)
		b = append(b, ',')
	}
	if projected && failure != nil {
		b = append(b, `"error":`...)
		b = appendValue(b, failure)
		b = append(b, ',')
	}
	if projected && failure == nil {
		b = append(b, `"output":`...)
		b = appendValue(b, output)
		b = append(b, ',')
	}
	if params != nil {
		b = append(b, `"params":`...)
		b = appendValue(b, params)
		b = append(b, ',')
	}
	b = append(b, `"run_hash":`...)
	b = appendValue(b, runHash)
	status := "completed"
	if failure != nil {
		status = "failed"
	}
	b = append(b, `,"status":`...)
	b = appendValue(b, status)
	if steps != nil {
		b = append(b, `,"steps":`...)
		b = append(b, steps...)
	}
	return append(b, '}')
}

// appendResult appends the members of a step's (or item's) result object:
// "attestation"?, "id" (when id is not ""), "structured_result".
func appendResult(b []byte, resp *tools.Response, id string) []byte {
	if resp.Attestation != "" {
		b = append(b, `"attestation":`...)
		b = appendValue(b, resp.Attestation)
		b = append(b, ',')
	}
	if id != "" {
		b = append(b, `"id":`...)
		b = appendValue(b, id)
		b = append(b, ',')
	}
	b = append(b, `"structured_result":`...)
	return append(b, resp.EnvelopeJSON...)
}

// runForeach runs foreach step i: the tool once per element of its array,
// in order. It appends the step's JSON to steps and returns the items'
// result hashes (null for a collected error) or, when the step stopped the
// run, the run's failure.
func (s *Service) runForeach(ctx context.Context, req *request, i int, rs *runState, steps []byte) ([]byte, []any, map[string]any) {
	p := req.plan
	st := p.Steps[i]
	fail := func(err error, index int, items []byte) ([]byte, []any, map[string]any) {
		body := s.opts.ErrorBody(ctx, st.Tool, err)
		if index >= 0 {
			body["error"] = fmt.Sprintf("item %d: %v", index, body["error"])
		}
		steps = append(steps, `{"error":`...)
		steps = appendValue(steps, body)
		steps = append(steps, `,"id":`...)
		steps = appendValue(steps, st.ID)
		if index >= 0 {
			steps = append(steps, `,"index":`...)
			steps = appendValue(steps, index)
		}
		if items != nil {
			steps = append(steps, `,"items":`...)
			steps = append(append(steps, items...), ']')
		}
		steps = append(steps, '}')
		return steps, nil, stepFailure(body, st.ID, index)
	}
	list, err := s.foreachArray(ctx, p, i, rs)
	if err != nil {
		return fail(err, -1, nil)
	}
	if n := int64(len(list)); n > 1 {
		if req.spare.Add(-(n - 1)) < 0 {
			req.spare.Add(n - 1)
			return fail(&tools.Error{Code: tools.CodeCostLimit, Reason: "plan_calls",
				Message: fmt.Sprintf("step %s: foreach over %d items needs %d more calls than this request has left (--plan-max-calls %d); split the batch", st.ID, n, n-1, s.opts.MaxCalls)}, -1, nil)
		}
	}
	items := []byte{'['}
	itemFacts := make([]any, len(list))
	hashes := make([]any, len(list))
	var errs []any
	for k, elem := range list {
		if k > 0 {
			items = append(items, ',')
		}
		args, err := s.bindStep(ctx, p, i, rs, elem)
		var resp *tools.Response
		if err == nil {
			resp, err = s.call(ctx, st, args)
		}
		if err != nil {
			if st.OnError != OnErrorCollect {
				return fail(err, k, items[:len(items)-min(k, 1)])
			}
			body := s.opts.ErrorBody(ctx, st.Tool, err)
			errs = append(errs, map[string]any{"index": json.Number(strconv.Itoa(k)), "error": body})
			items = append(items, `{"error":`...)
			items = appendValue(items, body)
			items = append(items, `,"index":`...)
			items = appendValue(items, k)
			items = append(items, '}')
			continue
		}
		itemFacts[k] = resp.Envelope.Facts()
		hashes[k] = resp.Envelope.ResultHash
		mark := len(items)
		items = append(items, '{')
		items = appendResult(items, resp, "")
		items = append(items, '}')
		// A run's envelopes are held until it ends: the loops of all runs
		// in progress count against the request's answer bytes.
		n := int64(len(items) - mark)
		rs.held += n
		if req.used.Add(n) > s.opts.MaxResponseBytes {
			return fail(&tools.Error{Code: tools.CodeResultTooLarge, Reason: "plan_response_too_large",
				Message: fmt.Sprintf("step %s: the envelopes of %d of %d items exceed %d bytes (--plan-max-response-bytes)", st.ID, k+1, len(list), s.opts.MaxResponseBytes)}, -1, nil)
		}
	}
	items = append(items, ']')
	facts := map[string]any{"items": itemFacts, "count": json.Number(strconv.Itoa(len(list)))}
	if st.OnError == OnErrorCollect {
		if errs == nil {
			errs = []any{}
		}
		facts["errors"] = errs
	}
	rs.facts[i] = facts
	steps = append(steps, `{"id":`...)
	steps = appendValue(steps, st.ID)
	steps = append(steps, `,"items":`...)
	steps = append(steps, items...)
	steps = append(steps, '}')
	return steps, hashes, nil
}

// foreachArray evaluates the array of foreach step i. Errors
// (*tools.Error): invalid_request with reason ref_missing, foreach_not_array
// or foreach_too_many (more than MaxForeachItems), and those of eval.
func (s *Service) foreachArray(ctx context.Context, p *Plan, i int, rs *runState) ([]any, error) {
	st := p.Steps[i]
	h := st.Foreach
	var v any
	if h.jmes != nil {
		var err error
		if v, err = eval(ctx, h.jmes, rs.root(p, i, "", nil), "step "+st.ID+": foreach", &rs.steps); err != nil {
			return nil, err
		}
	} else {
		var ok bool
		if v, ok = lookup(rs.facts[p.stepIndex(h.ref.Step)], h.ref.Pointer); !ok {
			return nil, &tools.Error{Code: tools.CodeInvalidRequest, Reason: "ref_missing",
				Message: fmt.Sprintf("step %s: foreach $ref %q: step %s's facts have no value at %s", st.ID, clip(h.ref.Text), h.ref.Step, clip(pointer(h.ref.Pointer)))}
		}
	}
	list, ok := v.([]any)
	if !ok {
		return nil, &tools.Error{Code: tools.CodeInvalidRequest, Reason: "foreach_not_array",
			Message: fmt.Sprintf("step %s: foreach gave %s, not an array", st.ID, jsonType(v))}
	}
	if len(list) > MaxForeachItems {
		return nil, &tools.Error{Code: tools.CodeInvalidRequest, Reason: "foreach_too_many",
			Message: fmt.Sprintf("step %s: foreach gave %d items; at most %d", st.ID, len(list), MaxForeachItems)}
	}
	return list, nil
}

// jsonType names the JSON type of generic JSON (integer for a number without
// a fractional part).
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if TypeMatches("integer", v) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
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
// parameter's value, an earlier step's fact, a literal, the value of a $jmes
// expression, a member of the foreach element (elem). Errors
// (*tools.Error): a fact the earlier step did not produce or a member the
// element lacks (invalid_request, reason ref_missing or item_missing), a
// $jmes value whose JSON type the argument's schema does not allow
// (input_schema_invalid, reason jmes_type), those of eval.
func (s *Service) bindStep(ctx context.Context, p *Plan, i int, rs *runState, elem any) (map[string]any, error) {
	st := p.Steps[i]
	var first error
	var root any
	args := fill(st.Args, func(_ []string, h hole) any {
		if first != nil {
			return nil
		}
		switch {
		case h.isLit:
			return contracts.DeepCopy(h.lit)
		case h.isItem:
			v, ok := lookup(elem, h.item)
			if !ok {
				first = &tools.Error{Code: tools.CodeInvalidRequest, Reason: "item_missing",
					Message: fmt.Sprintf("step %s: $item %q: the element has no value there", st.ID, clip(pointer(h.item)))}
			}
			return contracts.DeepCopy(v)
		case h.jmes != nil:
			if root == nil {
				item := ""
				if st.Foreach != nil {
					item = st.As
				}
				root = rs.root(p, i, item, elem)
			}
			v, err := eval(ctx, h.jmes, root, "step "+st.ID+": argument "+pointer(h.at), &rs.steps)
			if err == nil {
				err = s.checkJMESType(st, h, v)
			}
			first = err
			return v
		case h.ref == nil:
			return contracts.DeepCopy(rs.params[h.param])
		}
		j := p.stepIndex(h.ref.Step)
		v, ok := lookup(rs.facts[j], h.ref.Pointer)
		if !ok {
			first = &tools.Error{Code: tools.CodeInvalidRequest, Reason: "ref_missing",
				Message: fmt.Sprintf("step %s: $ref %q: step %s's facts have no value at %s", st.ID, clip(h.ref.Text), h.ref.Step, clip(pointer(h.ref.Pointer)))}
		}
		return contracts.DeepCopy(v)
	}, st.holes)
	if first != nil {
		return nil, first
	}
	return args.(map[string]any), nil
}

// checkJMESType refuses a $jmes value whose JSON type the argument's schema
// does not allow (where the schema declares a type), naming the step, the
// argument and the value's type; everything else about the value is
// validated with the whole call.
func (s *Service) checkJMESType(st Step, h hole, v any) error {
	c, _, err := s.reg.Contract(st.Tool)
	if err != nil {
		return nil // the call reports it
	}
	target, err := walkSchema(c.InputSchema, c.InputSchema, h.at, 0)
	if err != nil || target == nil {
		return nil
	}
	want := typesOf(target)
	have := jsonType(v)
	if len(want) == 0 || slices.Contains(want, have) || have == "integer" && slices.Contains(want, "number") {
		return nil
	}
	msg := fmt.Sprintf("step %s: argument %s: $jmes %q gave %s; the argument must be %s", st.ID, pointer(h.at), clip(h.jmes.Text), have, strings.Join(want, " or "))
	return &tools.Error{Code: tools.CodeInputSchemaInvalid, Reason: "jmes_type", Message: msg,
		Details: []contracts.Detail{{Path: pointer(h.at), Keyword: "type", Message: msg}}}
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
