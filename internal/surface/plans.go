package surface

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// MaxDescribe is the most tools one describe request may name.
const MaxDescribe = 5

// RawJSON is a response body that is already canonical JSON (a plan run,
// whose step envelopes are the bytes the execution path wrote); wrap writes
// it as it is.
type RawJSON []byte

// PlanOps are the operations of compact discovery and plans as plain
// functions of decoded JSON (evidence.ParseJSON) to a value or an error: the
// REST routes (/v1/catalog, /v1/describe, /v1/plans…) and the tools of the
// MCP compact surface both call them, so that every transport answers alike.
type PlanOps struct {
	Reg *tools.Registry
	Svc *plans.Service // nil: no plan routes or tools
	Log *slog.Logger
	// authorize refuses a plan with a step outside the caller's token scope
	// (api/auth.go); nil: every plan may run.
	Authorize func(context.Context, *plans.Plan) *Error
}

// Catalog is GET /v1/catalog and MCP list_tools.
func (o PlanOps) Catalog() tools.CompactCatalog { return o.Reg.CompactCatalog() }

// Describe is POST /v1/describe and MCP describe_tools: {"tools": [1 to 5
// names]} (duplicates collapse) → {"tools": [descriptions]}. Errors:
// invalid_request, unknown_tool, tool_disabled.
func (o PlanOps) Describe(body map[string]any) (any, *Error) {
	if aerr := OnlyKeys(body, "tools"); aerr != nil {
		return nil, aerr
	}
	list, ok := body["tools"].([]any)
	if !ok || len(list) < 1 || len(list) > MaxDescribe {
		return nil, NewError(CodeInvalidRequest, fmt.Sprintf(`"tools" must be a list of 1 to %d tool names`, MaxDescribe))
	}
	var names []string
	for _, v := range list {
		name, ok := v.(string)
		if !ok || name == "" || len(name) > tools.MaxToolNameBytes {
			return nil, NewError(CodeInvalidRequest, fmt.Sprintf(`"tools" must hold tool names (strings of 1 to %d bytes)`, tools.MaxToolNameBytes))
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	out := make([]any, 0, len(names))
	for _, name := range names {
		d, err := o.Reg.Describe(name)
		if err != nil {
			return nil, FromError(context.Background(), o.Log, name, err)
		}
		out = append(out, d)
	}
	return map[string]any{"tools": out}, nil
}

// Register is POST /v1/plans: {"plan"} → {"plan_id"} after the static
// check. Errors: invalid_request, invalid_plan, internal_error.
func (o PlanOps) Register(ctx context.Context, body map[string]any) (any, *Error) {
	if aerr := OnlyKeys(body, "plan"); aerr != nil {
		return nil, aerr
	}
	if _, ok := body["plan"]; !ok {
		return nil, NewError(CodeInvalidRequest, `the body must be {"plan": {...}}`)
	}
	p, err := o.Svc.Register(ctx, body["plan"])
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return map[string]any{"plan_id": p.ID}, nil
}

// RunNew is POST /v1/plans/run and MCP run_plan: {"plan", "params" |
// "params_batch"} registers the plan and runs it.
func (o PlanOps) RunNew(ctx context.Context, body map[string]any) (RawJSON, *Error) {
	if aerr := OnlyKeys(body, "plan", "params", "params_batch", "include"); aerr != nil {
		return nil, aerr
	}
	if _, ok := body["plan"]; !ok {
		return nil, NewError(CodeInvalidRequest, `the body must be {"plan": {...}, "params" | "params_batch": ...}`)
	}
	args, aerr := readRunArgs(body)
	if aerr != nil {
		return nil, aerr
	}
	p, err := o.Svc.Register(ctx, body["plan"])
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return o.run(ctx, p, args)
}

// Rerun is POST /v1/plans/{plan_id}/run and MCP rerun_plan: {"params" |
// "params_batch"} runs a stored plan. Errors: unknown_plan besides those of
// run.
func (o PlanOps) Rerun(ctx context.Context, id string, body map[string]any) (RawJSON, *Error) {
	if aerr := OnlyKeys(body, "params", "params_batch", "include"); aerr != nil {
		return nil, aerr
	}
	args, aerr := readRunArgs(body)
	if aerr != nil {
		return nil, aerr
	}
	p, err := o.Svc.Load(ctx, id)
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return o.run(ctx, p, args)
}

// Get is GET /v1/plans/{plan_id}: the stored plan in its normalized form.
func (o PlanOps) Get(ctx context.Context, id string) (any, *Error) {
	p, err := o.Svc.Fetch(ctx, id)
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	v, err := evidence.ParseJSON(p.Canonical())
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return map[string]any{"plan_id": p.ID, "plan": v}, nil
}

// GetRun is GET /v1/runs/{run_hash}: the stored record of a projected run,
// {"plan", "plan_id", "runs": [run with its steps]}, for a caller whose
// token may run every step of its plan. Errors: unknown_run, forbidden.
func (o PlanOps) GetRun(ctx context.Context, runHash string) (RawJSON, *Error) {
	b, err := o.Svc.GetRun(ctx, runHash)
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	if o.Authorize != nil {
		v, err := evidence.ParseJSON(b)
		if err != nil {
			return nil, o.planError(ctx, err)
		}
		p, err := plans.Decode(v.(map[string]any)["plan"])
		if err != nil {
			return nil, o.planError(ctx, err)
		}
		if aerr := o.Authorize(ctx, p); aerr != nil {
			return nil, aerr
		}
	}
	return RawJSON(b), nil
}

func (o PlanOps) run(ctx context.Context, p *plans.Plan, args runArgs) (RawJSON, *Error) {
	if o.Authorize != nil {
		if aerr := o.Authorize(ctx, p); aerr != nil {
			return nil, aerr
		}
	}
	b, err := o.Svc.RunWith(ctx, p, args.sets, args.batch, args.opts)
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return RawJSON(b), nil
}

// planError converts an error of the plan service; anything that is not a
// *tools.Error (a store failure) is logged and shown as internal_error.
func (o PlanOps) planError(ctx context.Context, err error) *Error {
	var te *tools.Error
	if errors.As(err, &te) {
		return &Error{Code: te.Code, Reason: te.Reason, Message: te.Message, Details: te.Details}
	}
	o.Log.Error("plan store", "request_id", RequestID(ctx), "err", err.Error())
	return &Error{Code: tools.CodeInternal, Message: "internal error"}
}

// runArgs are what a run request asks besides the plan.
type runArgs struct {
	sets  []any // parameter sets
	batch bool  // sets came as params_batch
	opts  plans.RunOptions
}

// readRunArgs reads "params" (one set; absent: {}) or "params_batch" (a
// list), never both, and "include": absent, or "steps" to keep the step
// envelopes in the answer of a plan with an output projection.
func readRunArgs(body map[string]any) (runArgs, *Error) {
	var a runArgs
	params, hasOne := body["params"]
	batch, hasBatch := body["params_batch"]
	switch {
	case hasOne && hasBatch:
		return a, NewError(CodeInvalidRequest, `give either "params" or "params_batch", not both`)
	case hasBatch:
		list, ok := batch.([]any)
		if !ok {
			return a, NewError(CodeInvalidRequest, `"params_batch" must be a list of parameter objects`)
		}
		a.sets, a.batch = list, true
	default:
		a.sets = []any{params}
	}
	if v, ok := body["include"]; ok {
		if v != "steps" {
			return a, NewError(CodeInvalidRequest, `"include" must be "steps" (the step envelopes beside a plan's output)`)
		}
		a.opts.IncludeSteps = true
	}
	return a, nil
}

// OnlyKeys refuses a body with keys other than allowed.
func OnlyKeys(body map[string]any, allowed ...string) *Error {
	for k := range body {
		if !slices.Contains(allowed, k) {
			return NewError(CodeInvalidRequest, fmt.Sprintf("unknown field %q in request body (allowed: %s)", clip(k), strings.Join(allowed, ", ")))
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// PlanErrorBody is the plans.Options.ErrorBody of a service behind this
// surface: a failed step's error as /v1/invoke shows it (internal errors
// logged with the request id and hidden).
func PlanErrorBody(log *slog.Logger) func(ctx context.Context, tool string, err error) map[string]any {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return func(ctx context.Context, tool string, err error) map[string]any {
		return ErrorBody(FromError(ctx, log, tool, err))
	}
}

// JSONObject decodes JSON text that must be an object, numbers exact
// (invalid_request otherwise; what names the text in the message).
func JSONObject(b []byte, what string) (map[string]any, *Error) {
	v, err := evidence.ParseJSON(b)
	if err != nil {
		return nil, NewError(CodeInvalidRequest, what+" is not valid JSON: "+err.Error())
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, NewError(CodeInvalidRequest, what+" must be a JSON object")
	}
	return obj, nil
}
