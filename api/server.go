// Package api serves the registry over HTTP: /invoke, /v1/invoke, /tools, /health
// and the other routes of SPEC §1. Handlers return values and errors; one writer
// turns errors into responses.
package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// Options configure the HTTP surface. Zero values mean the documented defaults.
type Options struct {
	Logger       *slog.Logger
	CallTimeout  time.Duration // per-call deadline; default 5s
	MaxBodyBytes int64         // request body limit; default 1 MiB
	Version      string        // service version reported by /health
	Downloads    http.Handler  // serves GET/HEAD /downloads/{filename}; nil: not mounted
	MCP          *MCPOptions   // mounts /mcp and /mcp/sse (api/mcp_http.go); nil: not mounted
	AdminToken   string        // bearer token for the admin routes; empty: they answer 403 (api/admin.go)
	Toggles      Toggler       // persists toggles (internal/toggles); nil: registry state only
	Metrics      *Metrics      // serves GET /metrics (api/metrics.go); nil: not mounted
}

// Server is the HTTP surface over one registry.
type Server struct {
	reg      *tools.Registry
	opts     Options
	log      *slog.Logger
	draining atomic.Bool
	router   chi.Router
	mcp      *mcpMount // nil unless Options.MCP is set
}

// New builds the HTTP surface.
func New(reg *tools.Registry, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = tools.DefaultTimeout
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	s := &Server{reg: reg, opts: opts, log: opts.Logger}
	s.router = s.routes()
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }

// Router exposes the chi router so that the wiring can mount further surfaces.
func (s *Server) Router() chi.Router { return s.router }

// Drain makes new calls answer 503 shutting_down while in-flight calls finish.
func (s *Server) Drain() { s.draining.Store(true); s.closeMCP() }

func (s *Server) routes() chi.Router {
	r := chi.NewRouter()
	r.Use(s.requestID, s.accessLog, s.recoverer)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, newError(CodeNotFound, "no such route: "+r.URL.Path), false)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, newError(CodeMethodNotAllow, r.Method+" is not allowed on "+r.URL.Path), false)
	})
	r.Post("/invoke", s.invoke(true))
	r.Post("/v1/invoke", s.invoke(false))
	r.Get("/tools", s.listTools)
	r.Get("/tools/{name}", s.getTool)
	r.Get("/health", s.health)
	r.Get("/openapi.json", s.openapi)
	s.adminRoutes(r)
	if s.opts.Metrics != nil {
		r.Method(http.MethodGet, "/metrics", s.opts.Metrics.Handler())
	}
	if s.opts.MCP != nil {
		s.mountMCP(r)
	}
	if s.opts.Downloads != nil {
		r.Method(http.MethodGet, "/downloads/{filename}", s.opts.Downloads)
		r.Method(http.MethodHead, "/downloads/{filename}", s.opts.Downloads)
	}
	return r
}

// invokeRequest is the /invoke body; unknown top-level fields are refused.
type invokeRequest struct {
	Tool         string
	Args         map[string]any
	ContractHash string
}

func (s *Server) invoke(legacy bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.draining.Load() {
			writeError(w, newError(CodeShuttingDown, "the service is shutting down"), legacy)
			return
		}
		req, aerr := s.decodeInvoke(w, r)
		if aerr != nil {
			writeError(w, aerr, legacy)
			return
		}
		setLogTool(r.Context(), req.Tool)
		ctx, cancel := context.WithTimeout(r.Context(), s.opts.CallTimeout)
		defer cancel()
		resp, err := s.reg.Invoke(ctx, tools.Request{Tool: req.Tool, Args: req.Args, ContractHash: req.ContractHash})
		if err != nil {
			e := toAPIError(r.Context(), s.log, req.Tool, err)
			setLogError(r.Context(), e.Code)
			writeError(w, e, legacy)
			return
		}
		writeResponse(w, resp)
	}
}

func (s *Server) decodeInvoke(w http.ResponseWriter, r *http.Request) (invokeRequest, *apiError) {
	var req invokeRequest
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
			return req, newError(CodeUnsupportedType, fmt.Sprintf("content type %q is not JSON; send Content-Type: application/json", ct))
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return req, newError(CodePayloadTooLarge, fmt.Sprintf("request body exceeds %d bytes", s.opts.MaxBodyBytes))
		}
		return req, newError(CodeInvalidRequest, "reading the request body failed")
	}
	return parseInvokeBody(body)
}

// parseInvokeBody decodes {"tool", "args", "contract_hash"} strictly.
func parseInvokeBody(body []byte) (invokeRequest, *apiError) {
	var req invokeRequest
	v, err := evidence.ParseJSON(body)
	if err != nil {
		if ae := invalidTextError(body, err); ae != nil {
			return req, ae
		}
		return req, newError(CodeInvalidRequest, "request body is not valid JSON: "+err.Error())
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return req, newError(CodeInvalidRequest, "request body must be a JSON object")
	}
	for k := range obj {
		switch k {
		case "tool", "args", "contract_hash":
		default:
			return req, newError(CodeInvalidRequest, fmt.Sprintf("unknown field %q in request body (allowed: tool, args, contract_hash)", k))
		}
	}
	if req.Tool, ok = obj["tool"].(string); !ok || req.Tool == "" {
		return req, newError(CodeInvalidRequest, `"tool" must be a non-empty string`)
	}
	switch a := obj["args"].(type) {
	case nil:
		req.Args = map[string]any{}
	case map[string]any:
		req.Args = a
	default:
		return req, &apiError{Code: CodeInvalidRequest, Message: `"args" must be a JSON object`, Tool: req.Tool}
	}
	switch h := obj["contract_hash"].(type) {
	case nil:
	case string:
		req.ContractHash = h
	default:
		return req, &apiError{Code: CodeInvalidRequest, Message: `"contract_hash" must be a string`, Tool: req.Tool}
	}
	return req, nil
}

func (s *Server) listTools(w http.ResponseWriter, r *http.Request) {
	cat := s.reg.Catalog()
	list := make([]any, len(cat.Tools))
	for i, t := range cat.Tools {
		list[i] = t
	}
	writeJSON(w, http.StatusOK, map[string]any{"tools": list, "catalog_hash": cat.CatalogHash})
}

func (s *Server) getTool(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "name")
	e, ok := s.reg.Entry(name)
	if !ok {
		writeError(w, &apiError{Code: tools.CodeUnknownTool, Message: "unknown tool: " + name, Tool: name}, false)
		return
	}
	writeJSON(w, http.StatusOK, e)
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	names := s.reg.Names()
	list := make([]any, len(names))
	for i, n := range names {
		list[i] = n
	}
	status, code := "ok", http.StatusOK
	if s.draining.Load() {
		status, code = "shutting_down", http.StatusServiceUnavailable
	}
	disabled := s.reg.Disabled()
	dl := make([]any, len(disabled))
	for i, n := range disabled {
		dl[i] = n
	}
	writeJSON(w, code, map[string]any{
		"status":       status,
		"tools":        list,
		"disabled":     dl,
		"catalog_hash": s.reg.CatalogHash(),
		"version":      s.opts.Version,
	})
}

// writeJSON writes v in canonical JSON (sorted keys, compact, Python float form),
// so that equal responses are equal bytes.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := evidence.Canonical(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"internal error","error_code":"internal_error","tool":""}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeResponse writes the /invoke success body: byte for byte what
// writeJSON(w, 200, ResponseBody(resp)) writes, but in one pass into a pooled
// buffer, reusing the canonical bytes of input and facts that the result hash
// was computed from (keys "result" < "structured_result" < "tool").
func writeResponse(w http.ResponseWriter, resp *tools.Response) {
	buf := evidence.GetBuffer()
	defer evidence.PutBuffer(buf)
	b, _ := evidence.AppendCanonical(append((*buf)[:0], `{"result":`...), resp.Result)
	b, err := resp.Envelope.AppendCanonical(append(b, `,"structured_result":`...))
	if err != nil {
		writeJSON(w, http.StatusOK, ResponseBody(resp))
		return
	}
	b, _ = evidence.AppendCanonical(append(b, `,"tool":`...), resp.Tool)
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
				s.log.Error("panic", "request_id", requestID(r.Context()), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				writeError(w, &apiError{Code: tools.CodeInternal, Message: "internal error"}, false)
			}
		}()
		next.ServeHTTP(w, r)
	})
}
