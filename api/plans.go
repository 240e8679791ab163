package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// MaxDescribe is the most tools one describe request may name.
const MaxDescribe = 5

// rawJSON is a response body that is already canonical JSON (a plan run,
// whose step envelopes are the bytes the execution path wrote); wrap writes
// it as it is.
type rawJSON []byte

// planOps are the operations of compact discovery and plans as plain
// functions of decoded JSON (evidence.ParseJSON) to a value or an error: the
// REST routes (/v1/catalog, /v1/describe, /v1/plans…) and the tools of the
// MCP compact surface both call them, so that every transport answers alike.
type planOps struct {
	reg *tools.Registry
	svc *plans.Service // nil: no plan routes or tools
	log *slog.Logger
	// authorize refuses a plan with a step outside the caller's token scope
	// (api/auth.go); nil: every plan may run.
	authorize func(context.Context, *plans.Plan) *apiError
}

// catalog is GET /v1/catalog and MCP list_tools.
func (o planOps) catalog() tools.CompactCatalog { return o.reg.CompactCatalog() }

// describe is POST /v1/describe and MCP describe_tools: {"tools": [1 to 5
// names]} (duplicates collapse) → {"tools": [descriptions]}. Errors:
// invalid_request, unknown_tool, tool_disabled.
func (o planOps) describe(body map[string]any) (any, *apiError) {
	if aerr := onlyKeys(body, "tools"); aerr != nil {
		return nil, aerr
	}
	list, ok := body["tools"].([]any)
	if !ok || len(list) < 1 || len(list) > MaxDescribe {
		return nil, newError(CodeInvalidRequest, fmt.Sprintf(`"tools" must be a list of 1 to %d tool names`, MaxDescribe))
	}
	var names []string
	for _, v := range list {
		name, ok := v.(string)
		if !ok || name == "" || len(name) > tools.MaxToolNameBytes {
			return nil, newError(CodeInvalidRequest, fmt.Sprintf(`"tools" must hold tool names (strings of 1 to %d bytes)`, tools.MaxToolNameBytes))
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	out := make([]any, 0, len(names))
	for _, name := range names {
		d, err := o.reg.Describe(name)
		if err != nil {
			return nil, toAPIError(context.Background(), o.log, name, err)
		}
		out = append(out, d)
	}
	return map[string]any{"tools": out}, nil
}

// register is POST /v1/plans: {"plan"} → {"plan_id"} after the static
// check. Errors: invalid_request, invalid_plan, internal_error.
func (o planOps) register(ctx context.Context, body map[string]any) (any, *apiError) {
	if aerr := onlyKeys(body, "plan"); aerr != nil {
		return nil, aerr
	}
	if _, ok := body["plan"]; !ok {
		return nil, newError(CodeInvalidRequest, `the body must be {"plan": {...}}`)
	}
	p, err := o.svc.Register(ctx, body["plan"])
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return map[string]any{"plan_id": p.ID}, nil
}

// runNew is POST /v1/plans/run and MCP run_plan: {"plan", "params" |
// "params_batch"} registers the plan and runs it.
func (o planOps) runNew(ctx context.Context, body map[string]any) (rawJSON, *apiError) {
	if aerr := onlyKeys(body, "plan", "params", "params_batch", "include"); aerr != nil {
		return nil, aerr
	}
	if _, ok := body["plan"]; !ok {
		return nil, newError(CodeInvalidRequest, `the body must be {"plan": {...}, "params" | "params_batch": ...}`)
	}
	sets, batch, aerr := paramSets(body)
	if aerr != nil {
		return nil, aerr
	}
	ro, aerr := runOptions(body)
	if aerr != nil {
		return nil, aerr
	}
	p, err := o.svc.Register(ctx, body["plan"])
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return o.run(ctx, p, sets, batch, ro)
}

// rerun is POST /v1/plans/{plan_id}/run and MCP rerun_plan: {"params" |
// "params_batch"} runs a stored plan. Errors: unknown_plan besides those of
// run.
func (o planOps) rerun(ctx context.Context, id string, body map[string]any) (rawJSON, *apiError) {
	if aerr := onlyKeys(body, "params", "params_batch", "include"); aerr != nil {
		return nil, aerr
	}
	sets, batch, aerr := paramSets(body)
	if aerr != nil {
		return nil, aerr
	}
	ro, aerr := runOptions(body)
	if aerr != nil {
		return nil, aerr
	}
	p, err := o.svc.Load(ctx, id)
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return o.run(ctx, p, sets, batch, ro)
}

// get is GET /v1/plans/{plan_id}: the stored plan in its normalized form.
func (o planOps) get(ctx context.Context, id string) (any, *apiError) {
	p, err := o.svc.Fetch(ctx, id)
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	v, err := evidence.ParseJSON(p.Canonical())
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return map[string]any{"plan_id": p.ID, "plan": v}, nil
}

// getRun is GET /v1/runs/{run_hash}: the stored record of a projected run,
// {"plan", "plan_id", "runs": [run with its steps]}, for a caller whose
// token may run every step of its plan. Errors: unknown_run, forbidden.
func (o planOps) getRun(ctx context.Context, runHash string) (rawJSON, *apiError) {
	b, err := o.svc.GetRun(ctx, runHash)
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	if o.authorize != nil {
		v, err := evidence.ParseJSON(b)
		if err != nil {
			return nil, o.planError(ctx, err)
		}
		p, err := plans.Decode(v.(map[string]any)["plan"])
		if err != nil {
			return nil, o.planError(ctx, err)
		}
		if aerr := o.authorize(ctx, p); aerr != nil {
			return nil, aerr
		}
	}
	return rawJSON(b), nil
}

// runOptions reads "include": absent, or "steps" to keep the step envelopes
// in the answer of a plan with an output projection.
func runOptions(body map[string]any) (plans.RunOptions, *apiError) {
	v, ok := body["include"]
	if !ok {
		return plans.RunOptions{}, nil
	}
	if v != "steps" {
		return plans.RunOptions{}, newError(CodeInvalidRequest, `"include" must be "steps" (the step envelopes beside a plan's output)`)
	}
	return plans.RunOptions{IncludeSteps: true}, nil
}

func (o planOps) run(ctx context.Context, p *plans.Plan, sets []any, batch bool, ro plans.RunOptions) (rawJSON, *apiError) {
	if o.authorize != nil {
		if aerr := o.authorize(ctx, p); aerr != nil {
			return nil, aerr
		}
	}
	b, err := o.svc.RunWith(ctx, p, sets, batch, ro)
	if err != nil {
		return nil, o.planError(ctx, err)
	}
	return rawJSON(b), nil
}

// planError converts an error of the plan service; anything that is not a
// *tools.Error (a store failure) is logged and shown as internal_error.
func (o planOps) planError(ctx context.Context, err error) *apiError {
	var te *tools.Error
	if errors.As(err, &te) {
		return &apiError{Code: te.Code, Reason: te.Reason, Message: te.Message, Details: te.Details}
	}
	o.log.Error("plan store", "request_id", requestID(ctx), "err", err.Error())
	return &apiError{Code: tools.CodeInternal, Message: "internal error"}
}

// paramSets reads "params" (one set; absent: {}) or "params_batch" (a list),
// never both.
func paramSets(body map[string]any) ([]any, bool, *apiError) {
	params, hasOne := body["params"]
	batch, hasBatch := body["params_batch"]
	switch {
	case hasOne && hasBatch:
		return nil, false, newError(CodeInvalidRequest, `give either "params" or "params_batch", not both`)
	case hasBatch:
		list, ok := batch.([]any)
		if !ok {
			return nil, false, newError(CodeInvalidRequest, `"params_batch" must be a list of parameter objects`)
		}
		return list, true, nil
	}
	return []any{params}, false, nil
}

// onlyKeys refuses a body with keys other than allowed.
func onlyKeys(body map[string]any, allowed ...string) *apiError {
	for k := range body {
		if !slices.Contains(allowed, k) {
			return newError(CodeInvalidRequest, fmt.Sprintf("unknown field %q in request body (allowed: %s)", clip(k), strings.Join(allowed, ", ")))
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
		return errorBody(toAPIError(ctx, log, tool, err))
	}
}

// readObject reads a JSON request body that must be an object: the content
// type must be JSON, the size within the limit, the text exact (no invalid
// UTF-8 or lone surrogates); numbers stay exact.
func (s *Server) readObject(r *http.Request) (map[string]any, *apiError) {
	if aerr := jsonContentType(r); aerr != nil {
		return nil, aerr
	}
	body, aerr := readBody(r, s.opts.MaxBodyBytes)
	if aerr != nil {
		return nil, aerr
	}
	return jsonObject(body, "request body")
}

// jsonObject decodes JSON text that must be an object, numbers exact
// (invalid_request otherwise; what names the text in the message).
func jsonObject(b []byte, what string) (map[string]any, *apiError) {
	v, err := evidence.ParseJSON(b)
	if err != nil {
		return nil, newError(CodeInvalidRequest, what+" is not valid JSON: "+err.Error())
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, newError(CodeInvalidRequest, what+" must be a JSON object")
	}
	return obj, nil
}

// jsonContentType refuses a declared content type that is not JSON (415).
func jsonContentType(r *http.Request) *apiError {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
			return newError(CodeUnsupportedType, fmt.Sprintf("content type %q is not JSON; send Content-Type: application/json", ct))
		}
	}
	return nil
}

// planRoutes mounts compact discovery (always) and the plan routes (with a
// plan service).
func (s *Server) planRoutes(r chi.Router) {
	r.Get("/v1/catalog", s.wrap(func(*http.Request) (any, *apiError) { return s.ops.catalog(), nil }))
	r.Post("/v1/describe", s.wrap(func(r *http.Request) (any, *apiError) {
		body, aerr := s.readObject(r)
		if aerr != nil {
			return nil, aerr
		}
		return s.ops.describe(body)
	}))
	if s.ops.svc == nil {
		return
	}
	r.Post("/v1/plans", s.wrap(func(r *http.Request) (any, *apiError) {
		body, aerr := s.readObject(r)
		if aerr != nil {
			return nil, aerr
		}
		return s.ops.register(r.Context(), body)
	}))
	r.Post("/v1/plans/run", s.wrap(s.planRun(func(r *http.Request, body map[string]any) (rawJSON, *apiError) {
		return s.ops.runNew(r.Context(), body)
	})))
	r.Post("/v1/plans/{plan_id}/run", s.wrap(s.planRun(func(r *http.Request, body map[string]any) (rawJSON, *apiError) {
		return s.ops.rerun(r.Context(), chi.URLParam(r, "plan_id"), body)
	})))
	r.Get("/v1/plans/{plan_id}", s.wrap(func(r *http.Request) (any, *apiError) {
		return s.ops.get(r.Context(), chi.URLParam(r, "plan_id"))
	}))
	r.Get("/v1/runs/{run_hash}", s.wrap(func(r *http.Request) (any, *apiError) {
		b, aerr := s.ops.getRun(r.Context(), chi.URLParam(r, "run_hash"))
		if aerr != nil {
			return nil, aerr
		}
		return b, nil
	}))
}

// planRun is the common part of the two run routes: refused while draining
// (like /invoke), then the body.
func (s *Server) planRun(f func(r *http.Request, body map[string]any) (rawJSON, *apiError)) apiFunc {
	return func(r *http.Request) (any, *apiError) {
		if s.draining.Load() {
			return nil, newError(CodeShuttingDown, "the service is shutting down")
		}
		body, aerr := s.readObject(r)
		if aerr != nil {
			return nil, aerr
		}
		b, aerr := f(r, body)
		if aerr != nil {
			return nil, aerr
		}
		return b, nil
	}
}
