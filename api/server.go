// Package api serves the registry over HTTP: /invoke, /v1/invoke, /tools, /health
// and the other routes README lists under Endpoints. Handlers return values and
// errors; one writer
// turns errors into responses.
package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// Options configure the HTTP surface. Zero values mean the documented defaults.
type Options struct {
	Logger       *slog.Logger
	MaxBodyBytes int64              // request body limit; default 1 MiB
	BodyBudget   int64              // bytes of request bodies in flight at once; default 2 × MaxBodyBytes, at least MaxBodyBytes (api/admission.go)
	QueueWait    time.Duration      // how long a request waits for its share of BodyBudget; default DefaultQueueWait
	Version      string             // service version reported by /health
	Downloads    *filestore.Store   // served at GET/HEAD /downloads/{filename} (api/downloads.go); nil: not mounted
	MCP          *mcpserver.Options // mounts /mcp, /mcp/sse and /mcp/compact (package mcpserver); nil: not mounted
	AdminToken   string             // bearer token for the admin routes; empty: they answer 403 (api/admin.go)
	Toggles      Toggler            // persists toggles (internal/toggles); nil: registry state only
	Metrics      *Metrics           // serves GET /metrics (api/metrics.go); nil: not mounted
	Plans        *plans.Service     // serves /v1/plans… and /mcp/compact (api/plans.go); nil: not mounted
	JWKS         func() []byte      // the published key set, served at GET /.well-known/jwks.json (api/jwks.go); nil: not mounted
	Access       *AccessOptions     // API tokens, signed links, Host guard, CORS (api/auth.go); nil: none
	// Store reports the state of the store the replicas share, as /health's
	// "store": {"kind","ok"} (a *blob.Monitor); nil: no store, no such key.
	Store StoreHealth
	// Ready, when not nil, is asked by GET /ready besides the drain: "" when
	// this process may take traffic, else a reason code (store_unavailable,
	// toggles_unknown). /health never asks it: liveness does not depend on
	// the store.
	Ready func() string
	// Replica names this process in audit lines and /health (host name and
	// a random id per start).
	Replica string
	// TogglesProblem, when not nil, says why the persisted toggle state
	// could not be used ("" when it could): /health then names it as
	// "toggles": {"ok": false, "error"} (the state in force is the last good
	// one, or every tool enabled).
	TogglesProblem func() string
}

// StoreHealth is the state of the shared store as last observed.
type StoreHealth interface {
	Health() blob.Health
}

// Server is the HTTP surface over one registry.
type Server struct {
	reg      *tools.Registry
	opts     Options
	log      *slog.Logger
	draining atomic.Bool
	router   chi.Router
	mcp      *mcpserver.Endpoints // nil unless Options.MCP is set
	bodies   *bodyBudget
	ops      surface.PlanOps // compact discovery and plans (api/plans.go)
	edge     *edge           // access control (api/auth.go); nil: none
}

// New builds the HTTP surface.
func New(reg *tools.Registry, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	defaults.Positive(&opts.MaxBodyBytes, 1<<20)
	switch {
	case opts.BodyBudget <= 0:
		opts.BodyBudget = 2 * opts.MaxBodyBytes
	case opts.BodyBudget < opts.MaxBodyBytes:
		opts.BodyBudget = opts.MaxBodyBytes // a largest body must fit
	}
	defaults.Positive(&opts.QueueWait, DefaultQueueWait)
	s := &Server{reg: reg, opts: opts, log: opts.Logger, bodies: newBodyBudget(opts.BodyBudget),
		ops: surface.PlanOps{Reg: reg, Svc: opts.Plans, Log: opts.Logger}, edge: newEdge(opts.Access, opts.Downloads, opts.Logger)}
	s.ops.Authorize = s.authorizePlan
	s.router = s.routes()
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }

// Router exposes the chi router so that the wiring can mount further surfaces.
func (s *Server) Router() chi.Router { return s.router }

// Drain makes new calls answer 503 shutting_down while in-flight calls finish.
func (s *Server) Drain() {
	s.draining.Store(true)
	if s.mcp != nil {
		s.mcp.Close()
	}
}

func (s *Server) routes() chi.Router {
	r := chi.NewRouter()
	r.Use(s.requestLog, s.recoverer, s.httpMetrics, s.accessControl, s.admitBody)
	r.NotFound(s.wrap(func(r *http.Request) (any, *surface.Error) {
		return nil, surface.NewError(surface.CodeNotFound, "no such route: "+r.URL.Path)
	}))
	r.MethodNotAllowed(s.wrap(func(r *http.Request) (any, *surface.Error) {
		return nil, surface.NewError(surface.CodeMethodNotAllow, r.Method+" is not allowed on "+r.URL.Path)
	}))
	r.Post("/invoke", s.wrapLegacy(s.invoke))
	r.Post("/v1/invoke", s.wrap(s.invoke))
	r.Post("/v1/intents", s.wrap(s.intents))
	r.Post("/v1/answer", s.wrap(s.answer))
	r.Method(http.MethodGet, "/tools", cacheable(s.wrap(s.listTools))) // ETag, gzip (api/edge_cache.go)
	r.Get("/tools/{name}", s.wrap(s.getTool))
	r.Get("/health", s.wrap(s.health))
	r.Get("/ready", s.wrap(s.ready))
	r.Get(mcpserver.IconsPath+"{name}", mcpserver.IconHandler)
	r.Head(mcpserver.IconsPath+"{name}", mcpserver.IconHandler)
	r.Method(http.MethodGet, "/openapi.json", cacheable(s.wrap(s.openapi)))
	s.planRoutes(r)
	s.adminRoutes(r)
	s.pageRoutes(r)
	if s.opts.JWKS != nil {
		r.Get(JWKSPath, s.jwks)
		r.Head(JWKSPath, s.jwks)
	}
	if s.edge != nil && s.edge.opts.OAuth != nil {
		s.oauthRoutes(r)
	}
	if s.opts.Metrics != nil {
		r.Method(http.MethodGet, "/metrics", s.opts.Metrics.Handler())
	}
	if s.opts.MCP != nil {
		s.mountMCP(r)
	}
	if s.opts.Downloads != nil {
		h := s.downloadAccess(downloadHandler(s.opts.Downloads, s.log))
		r.Method(http.MethodGet, "/downloads/{filename}", h)
		r.Method(http.MethodHead, "/downloads/{filename}", h)
	}
	return r
}

// apiFunc is the logic of one JSON route: it returns the value to answer or the
// error. It never writes the response itself; wrap does.
type apiFunc func(r *http.Request) (any, *surface.Error)

// withStatus answers v with a status other than 200.
type withStatus struct {
	status int
	v      any
}

// wrap turns an apiFunc into a handler: the one place that writes values
// (canonical JSON; a call's response in one pass) and errors (with the status
// of their code, recorded for the access log). Request bodies are limited to
// Options.MaxBodyBytes.
func (s *Server) wrap(f apiFunc) http.HandlerFunc { return s.wrapStatus(f, false) }

// wrapLegacy is wrap for /invoke, which answers tool-level errors with HTTP 200.
func (s *Server) wrapLegacy(f apiFunc) http.HandlerFunc { return s.wrapStatus(f, true) }

func (s *Server) wrapStatus(f apiFunc, legacy200 bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
		v, aerr := f(r)
		if aerr != nil {
			surface.SetLogError(r.Context(), aerr.Code)
			surface.WriteError(w, aerr, legacy200)
			return
		}
		switch x := v.(type) {
		case *tools.Response:
			writeResponse(w, s.afterCall(w, r, x))
		case surface.RawJSON:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(x)))
			_, _ = w.Write(x)
		case withStatus:
			surface.WriteJSON(w, x.status, x.v)
		default:
			surface.WriteJSON(w, http.StatusOK, v)
		}
	}
}

// invokeRequest is the /invoke body; unknown top-level fields are refused. Args
// stay JSON text: Registry.Call parses them.
type invokeRequest struct {
	Tool         string
	Args         json.RawMessage
	ContractHash string
}

// invoke is POST /invoke and /v1/invoke: one call through Registry.Call.
func (s *Server) invoke(r *http.Request) (any, *surface.Error) {
	if s.draining.Load() {
		return nil, surface.NewError(surface.CodeShuttingDown, "the service is shutting down")
	}
	req, aerr := s.decodeInvoke(r)
	if aerr != nil {
		return nil, aerr
	}
	surface.SetLogTool(r.Context(), req.Tool)
	if aerr := s.authorizeTool(r.Context(), req.Tool); aerr != nil {
		return nil, aerr
	}
	resp, err := s.reg.Call(r.Context(), req.Tool, req.Args, req.ContractHash)
	if err != nil {
		return nil, surface.FromError(r.Context(), s.log, req.Tool, err)
	}
	return resp, nil
}

func (s *Server) decodeInvoke(r *http.Request) (invokeRequest, *surface.Error) {
	if aerr := jsonContentType(r); aerr != nil {
		return invokeRequest{}, aerr
	}
	body, aerr := readBody(r, s.opts.MaxBodyBytes)
	if aerr != nil {
		return invokeRequest{}, aerr
	}
	return parseInvokeBody(body)
}

// readBody reads a request body of at most limit bytes (payload_too_large
// beyond).
func readBody(r *http.Request, limit int64) ([]byte, *surface.Error) {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, surface.NewError(surface.CodePayloadTooLarge, fmt.Sprintf("request body exceeds %d bytes", limit))
		}
		return nil, surface.NewError(surface.CodeInvalidRequest, "reading the request body failed")
	}
	return body, nil
}

// parseInvokeBody splits {"tool", "args", "contract_hash"} strictly without
// decoding args, which Registry.Call parses once the call is admitted.
func parseInvokeBody(body []byte) (invokeRequest, *surface.Error) {
	var req invokeRequest
	if err := evidence.CheckText(body); err != nil {
		// Text without an exact Unicode value: refused here unless it is only
		// inside "args", where Registry.Call answers input_schema_invalid.
		if ae := invalidTextError(body, err); ae != nil {
			return req, ae
		}
	}
	if req, ok := splitInvokeBody(body); ok {
		return req, nil
	}
	return decodeInvokeBody(body)
}

// decodeInvokeBody is parseInvokeBody after the text check, by
// encoding/json: every body, and the words of every error.
func decodeInvokeBody(body []byte) (invokeRequest, *surface.Error) {
	var req invokeRequest
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil || top == nil {
		// Describe the problem in the full parser's words.
		if _, err := evidence.ParseJSON(body); err != nil {
			return req, surface.NewError(surface.CodeInvalidRequest, "request body is not valid JSON: "+err.Error())
		}
		return req, surface.NewError(surface.CodeInvalidRequest, "request body must be a JSON object")
	}
	for k := range top {
		switch k {
		case "tool", "args", "contract_hash":
		default:
			return req, surface.NewError(surface.CodeInvalidRequest, fmt.Sprintf("unknown field %q in request body (allowed: tool, args, contract_hash)", k))
		}
	}
	if err := json.Unmarshal(top["tool"], &req.Tool); err != nil || req.Tool == "" {
		return req, surface.NewError(surface.CodeInvalidRequest, `"tool" must be a non-empty string`)
	}
	if len(req.Tool) > tools.MaxToolNameBytes {
		// Refused before it is logged or echoed.
		n := len(req.Tool)
		req.Tool = ""
		return req, surface.NewError(surface.CodeInvalidRequest, fmt.Sprintf(`"tool" has %d bytes; tool names have at most %d`, n, tools.MaxToolNameBytes))
	}
	switch a := top["args"]; {
	case a == nil, string(a) == "null":
	case a[0] == '{':
		req.Args = a
	default:
		return req, &surface.Error{Code: surface.CodeInvalidRequest, Message: `"args" must be a JSON object`, Tool: req.Tool}
	}
	if h := top["contract_hash"]; h != nil && string(h) != "null" {
		if err := json.Unmarshal(h, &req.ContractHash); err != nil {
			return req, &surface.Error{Code: surface.CodeInvalidRequest, Message: `"contract_hash" must be a string`, Tool: req.Tool}
		}
	}
	return req, nil
}

// splitInvokeBody is parseInvokeBody for the ordinary body, in one pass of
// the JSON scanner and without decoding: valid JSON, an object with the keys
// tool, args and contract_hash at most once each and written without escapes,
// tool (and contract_hash, unless null) a string of printable ASCII without
// escapes, args absent, null or an object. It reports false for any other
// body, which parseInvokeBody then checks in full (and words the error of).
func splitInvokeBody(body []byte) (invokeRequest, bool) {
	var req invokeRequest
	if !json.Valid(body) {
		return req, false
	}
	var v [3][]byte
	ok := surface.Members(body, v[:], "tool", "args", "contract_hash")
	tool, args, hash := v[0], v[1], v[2]
	if !ok || tool == nil {
		return req, false
	}
	if req.Tool, ok = surface.PlainString(tool); !ok || req.Tool == "" || len(req.Tool) > tools.MaxToolNameBytes {
		return invokeRequest{}, false
	}
	switch {
	case args == nil, string(args) == "null":
	case args[0] == '{':
		req.Args = args
	default:
		return invokeRequest{}, false
	}
	if hash != nil && string(hash) != "null" {
		if req.ContractHash, ok = surface.PlainString(hash); !ok {
			return invokeRequest{}, false
		}
	}
	return req, true
}

func (s *Server) listTools(r *http.Request) (any, *surface.Error) {
	cat := s.reg.Catalog()
	list := make([]any, len(cat.Tools))
	for i, t := range cat.Tools {
		list[i] = t
	}
	return map[string]any{"tools": list, "catalog_hash": cat.CatalogHash}, nil
}

func (s *Server) getTool(r *http.Request) (any, *surface.Error) {
	name := chi.URLParam(r, "name")
	e, ok := s.reg.Entry(name)
	if !ok {
		return nil, s.unknownTool(name)
	}
	return e, nil
}

func (s *Server) health(r *http.Request) (any, *surface.Error) {
	status, code := "ok", http.StatusOK
	if s.draining.Load() {
		status, code = "shutting_down", http.StatusServiceUnavailable
	}
	body := map[string]any{
		"status":       status,
		"tools":        anyList(s.reg.Names()),
		"disabled":     anyList(s.reg.Disabled()),
		"catalog_hash": s.reg.CatalogHash(),
		"version":      s.opts.Version,
	}
	s.addStore(body)
	if s.opts.TogglesProblem != nil {
		if p := s.opts.TogglesProblem(); p != "" {
			body["toggles"] = map[string]any{"ok": false, "error": p}
		}
	}
	return withStatus{code, body}, nil
}

// addStore adds "store" (and "replica") to a /health or /ready body. The
// store's state is the one last observed (a ping every few seconds, and every
// operation): the probe never waits on the store.
func (s *Server) addStore(body map[string]any) {
	if s.opts.Replica != "" {
		body["replica"] = s.opts.Replica
	}
	if s.opts.Store == nil {
		return
	}
	h := s.opts.Store.Health()
	st := map[string]any{"kind": h.Kind, "ok": h.OK}
	if !h.OK && h.Reason != "" {
		st["reason"] = h.Reason
	}
	body["store"] = st
}

// ready is GET /ready, the readiness probe: 200 {"status":"ready"} while this
// process may take traffic; 503 {"status":"not_ready","reason":...} while it
// drains (shutting_down) or Options.Ready names a reason.
func (s *Server) ready(r *http.Request) (any, *surface.Error) {
	reason := ""
	switch {
	case s.draining.Load():
		reason = surface.CodeShuttingDown
	case s.opts.Ready != nil:
		reason = s.opts.Ready()
	}
	body := map[string]any{"status": "ready"}
	code := http.StatusOK
	if reason != "" {
		body["status"], body["reason"], code = "not_ready", reason, http.StatusServiceUnavailable
	}
	s.addStore(body)
	return withStatus{code, body}, nil
}

func anyList(names []string) []any {
	list := make([]any, len(names))
	for i, n := range names {
		list[i] = n
	}
	return list
}

// writeResponse writes the /invoke success body: byte for byte what
// surface.WriteJSON(w, 200, ResponseBody(resp)) writes, but in one pass into a pooled
// buffer around the canonical envelope the call path wrote once (keys
// "attestation" < "result" < "structured_result" < "tool"; attestation only
// when the answer is signed).
func writeResponse(w http.ResponseWriter, resp *tools.Response) {
	if resp.EnvelopeJSON == nil {
		surface.WriteJSON(w, http.StatusOK, ResponseBody(resp))
		return
	}
	buf := evidence.GetBuffer()
	defer evidence.PutBuffer(buf)
	b := append((*buf)[:0], '{')
	if resp.Attestation != "" {
		b = evidence.AppendString(append(b, `"attestation":`...), resp.Attestation)
		b = append(b, ',')
	}
	b = evidence.AppendString(append(b, `"result":`...), resp.Result)
	b = append(append(b, `,"structured_result":`...), resp.EnvelopeJSON...)
	b = evidence.AppendString(append(b, `,"tool":`...), resp.Tool)
	b = append(b, '}')
	*buf = b
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// recoverer turns a panic in a handler into internal_error, logged with its stack.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic", "request_id", surface.RequestID(r.Context()), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				surface.WriteError(w, &surface.Error{Code: tools.CodeInternal, Message: "internal error"}, false)
			}
		}()
		next.ServeHTTP(w, r)
	})
}
