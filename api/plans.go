package api

import (
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/precisiond/precisiond/internal/surface"
)

// readObject reads a JSON request body that must be an object: the content
// type must be JSON, the size within the limit, the text exact (no invalid
// UTF-8 or lone surrogates); numbers stay exact.
func (s *Server) readObject(r *http.Request) (map[string]any, *surface.Error) {
	if aerr := jsonContentType(r); aerr != nil {
		return nil, aerr
	}
	body, aerr := readBody(r, s.opts.MaxBodyBytes)
	if aerr != nil {
		return nil, aerr
	}
	return surface.JSONObject(body, "request body")
}

// jsonContentType refuses a declared content type that is not JSON (415).
func jsonContentType(r *http.Request) *surface.Error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
			return surface.NewError(surface.CodeUnsupportedType, fmt.Sprintf("content type %q is not JSON; send Content-Type: application/json", ct))
		}
	}
	return nil
}

// planRoutes mounts compact discovery (always) and the plan routes (with a
// plan service).
func (s *Server) planRoutes(r chi.Router) {
	r.Get("/v1/catalog", s.wrap(func(*http.Request) (any, *surface.Error) { return s.ops.Catalog(), nil }))
	r.Post("/v1/describe", s.wrap(func(r *http.Request) (any, *surface.Error) {
		body, aerr := s.readObject(r)
		if aerr != nil {
			return nil, aerr
		}
		return s.ops.Describe(body)
	}))
	if s.ops.Svc == nil {
		return
	}
	r.Post("/v1/plans", s.wrap(func(r *http.Request) (any, *surface.Error) {
		body, aerr := s.readObject(r)
		if aerr != nil {
			return nil, aerr
		}
		return s.ops.Register(r.Context(), body)
	}))
	r.Post("/v1/plans/run", s.wrap(s.planRun(func(r *http.Request, body map[string]any) (surface.RawJSON, *surface.Error) {
		return s.ops.RunNew(r.Context(), body)
	})))
	r.Post("/v1/plans/{plan_id}/run", s.wrap(s.planRun(func(r *http.Request, body map[string]any) (surface.RawJSON, *surface.Error) {
		return s.ops.Rerun(r.Context(), chi.URLParam(r, "plan_id"), body)
	})))
	r.Get("/v1/plans/{plan_id}", s.wrap(func(r *http.Request) (any, *surface.Error) {
		return s.ops.Get(r.Context(), chi.URLParam(r, "plan_id"))
	}))
	r.Get("/v1/runs/{run_hash}", s.wrap(func(r *http.Request) (any, *surface.Error) {
		b, aerr := s.ops.GetRun(r.Context(), chi.URLParam(r, "run_hash"))
		if aerr != nil {
			return nil, aerr
		}
		return b, nil
	}))
}

// planRun is the common part of the two run routes: refused while draining
// (like /invoke), then the body.
func (s *Server) planRun(f func(r *http.Request, body map[string]any) (surface.RawJSON, *surface.Error)) apiFunc {
	return func(r *http.Request) (any, *surface.Error) {
		if s.draining.Load() {
			return nil, surface.NewError(surface.CodeShuttingDown, "the service is shutting down")
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
