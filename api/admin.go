package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// Toggler changes a tool's enabled state, persisting it (internal/toggles.Store).
// ok is false for an unknown tool; err means the new state could not be saved
// and nothing changed.
// An error of type *tools.Error with code store_unavailable is answered as
// such (503); any other error is an internal error.
type Toggler interface {
	// Set sets the state and returns the previous one.
	Set(ctx context.Context, name string, enabled bool) (previous, ok bool, err error)
	// Toggle flips the state atomically and returns the previous one.
	Toggle(ctx context.Context, name string) (previous, ok bool, err error)
}

// registryToggler is the fallback without persistence (tests, embedded use).
type registryToggler struct{ reg *tools.Registry }

func (t registryToggler) Set(_ context.Context, name string, enabled bool) (bool, bool, error) {
	prev, ok := t.reg.SetEnabled(name, enabled)
	return prev, ok, nil
}

func (t registryToggler) Toggle(_ context.Context, name string) (bool, bool, error) {
	prev, ok := t.reg.Toggle(name)
	return prev, ok, nil
}

//go:embed admin/*
var adminFiles embed.FS

var adminPage = template.Must(template.ParseFS(adminFiles, "admin/admin.html.tmpl"))

// adminCSP allows only this origin's script, style and fetches: no inline script,
// no external asset, no framing.
const adminCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

// adminRoutes mounts the administration surface (docs/operations.md,
// Administration). The routes that
// change state or check a token sit in one group behind requireAdmin.
func (s *Server) adminRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireAdmin)
		r.Post("/tools/{name}/toggle", s.wrap(s.toggleTool))
		r.Put("/admin/tools/{name}", s.wrap(s.putTool))
		r.Get("/admin/session", s.wrap(s.adminSession))
		r.Post("/admin/verify", s.wrap(s.adminVerify))
	})
	r.Get("/admin", s.adminIndex)
	static, _ := fs.Sub(adminFiles, "admin")
	fileServer := http.StripPrefix("/admin/static/", http.FileServerFS(static))
	r.Get("/admin/static/{file}", func(w http.ResponseWriter, r *http.Request) {
		switch chi.URLParam(r, "file") {
		case "admin.js", "admin.css", "favicon.svg":
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.Header().Set("Cache-Control", "no-cache")
			fileServer.ServeHTTP(w, r)
		default:
			surface.WriteError(w, surface.NewError(surface.CodeNotFound, "no such route: "+r.URL.Path), false)
		}
	})
}

// TokenID names a token in audit logs without revealing it: the first 8 hex
// digits of its SHA-256.
func TokenID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:4])
}

// requireAdmin admits only requests with the admin bearer token: 403 forbidden
// when no token is configured, 401 unauthorized (with WWW-Authenticate) for a
// missing or wrong one, each failure logged. Both sides are hashed before the
// constant-time comparison, so neither the content nor the length of the
// configured token leaks through timing. The caller's token id is in the
// request context (adminID).
func (s *Server) requireAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		oauthOn := s.edge != nil && s.edge.opts.OAuth != nil
		if s.opts.AdminToken == "" && !oauthOn {
			s.refuseAdmin(w, r, surface.NewError(surface.CodeForbidden, "administration is disabled: no admin token is configured (PRECISIOND_ADMIN_TOKEN)"))
			return
		}
		scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
		if !found || !strings.EqualFold(scheme, "Bearer") || token == "" {
			s.log.Warn("admin auth failed", "request_id", surface.RequestID(r.Context()), "remote_addr", r.RemoteAddr, "why", "missing bearer token")
			s.refuseAdmin(w, r, surface.NewError(surface.CodeUnauthorized, "missing bearer token: send Authorization: Bearer <admin token>"))
			return
		}
		if oauthOn && !s.adminTokenMatches(token) {
			s.adminByOAuth(next, w, r, token)
			return
		}
		if !s.adminTokenMatches(token) {
			s.log.Warn("admin auth failed", "request_id", surface.RequestID(r.Context()), "remote_addr", r.RemoteAddr, "why", "wrong token", "token_id", TokenID(token))
			s.refuseAdmin(w, r, surface.NewError(surface.CodeUnauthorized, "wrong admin token"))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyAdminID, TokenID(token))))
	})
}

// adminByOAuth admits an admin request whose bearer token is an OAuth
// access token with scope precisiond:admin (403 insufficient_scope without
// it); its admin id is the caller's name.
func (s *Server) adminByOAuth(next http.Handler, w http.ResponseWriter, r *http.Request, token string) {
	oc, aerr := s.checkOAuth(w, r, token)
	if aerr != nil {
		s.log.Warn("admin auth failed", "request_id", surface.RequestID(r.Context()), "remote_addr", r.RemoteAddr, "why", aerr.Message)
		s.refuse(w, r, aerr)
		return
	}
	if !oc.admin {
		s.refuseAccess(w, r, insufficientScope(ScopeAdmin, "the access token lacks scope "+ScopeAdmin), oc.token.Name)
		return
	}
	next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyAdminID, oc.token.Name)))
}

func (s *Server) refuseAdmin(w http.ResponseWriter, r *http.Request, e *surface.Error) {
	if e.Code == surface.CodeUnauthorized && s.edge != nil && s.edge.opts.OAuth != nil {
		s.edge.unauthorized(w, r, "")
	} else if e.Code == surface.CodeUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="precisiond"`)
	}
	s.refuse(w, r, e)
}

// adminID is the token id of an admitted admin request.
func adminID(r *http.Request) string {
	id, _ := r.Context().Value(keyAdminID).(string)
	return id
}

// toolParam returns the {name} of a route if the registry knows it.
func (s *Server) toolParam(r *http.Request) (string, *surface.Error) {
	name := chi.URLParam(r, "name")
	if _, _, ok := s.reg.Lookup(name); !ok {
		return "", s.unknownTool(name)
	}
	return name, nil
}

// toggleTool is POST /tools/{name}/toggle: flip the state (wire-compatible).
func (s *Server) toggleTool(r *http.Request) (any, *surface.Error) {
	name, aerr := s.toolParam(r)
	if aerr != nil {
		return nil, aerr
	}
	prev, _, err := s.toggler().Toggle(r.Context(), name)
	if err != nil {
		return nil, s.toggleFailed(r, name, err)
	}
	s.audit(r, "toggle", name, prev, !prev)
	return map[string]any{"ok": true, "name": name, "enabled": !prev}, nil
}

// putTool is PUT /admin/tools/{name} with {"enabled": bool}: set the state.
func (s *Server) putTool(r *http.Request) (any, *surface.Error) {
	name, aerr := s.toolParam(r)
	if aerr != nil {
		return nil, aerr
	}
	body, aerr := readBody(r, 4096)
	if aerr != nil {
		return nil, aerr
	}
	var req struct {
		Enabled *bool `json:"enabled"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || req.Enabled == nil || dec.More() {
		return nil, &surface.Error{Code: surface.CodeInvalidRequest, Message: `body must be {"enabled": true|false}`, Tool: name}
	}
	prev, _, err := s.toggler().Set(r.Context(), name, *req.Enabled)
	if err != nil {
		return nil, s.toggleFailed(r, name, err)
	}
	if prev != *req.Enabled {
		s.audit(r, "set", name, prev, *req.Enabled)
	}
	return map[string]any{"ok": true, "name": name, "enabled": *req.Enabled}, nil
}

func (s *Server) toggler() Toggler {
	if s.opts.Toggles != nil {
		return s.opts.Toggles
	}
	return registryToggler{s.reg}
}

// toggleFailed answers a toggle that could not be saved: store_unavailable
// (503) when the store holding the toggle state did not answer or refused,
// internal_error otherwise; either way nothing changed.
func (s *Server) toggleFailed(r *http.Request, name string, err error) *surface.Error {
	s.log.Error("toggle not saved", "request_id", surface.RequestID(r.Context()), "replica", s.opts.Replica, "tool", name, "err", err.Error())
	var te *tools.Error
	if errors.As(err, &te) && te.Code == tools.CodeStoreUnavailable {
		return &surface.Error{Code: te.Code, Reason: te.Reason, Message: te.Message + "; nothing changed", Tool: name}
	}
	return &surface.Error{Code: tools.CodeInternal, Message: "internal error: the new state could not be saved; nothing changed", Tool: name}
}

// audit writes one line per state change: who (token id, remote address), what,
// before and after.
func (s *Server) audit(r *http.Request, action, tool string, before, after bool) {
	s.log.Info("audit",
		"request_id", surface.RequestID(r.Context()),
		"replica", s.opts.Replica,
		"token_id", adminID(r),
		"remote_addr", r.RemoteAddr,
		"action", action,
		"tool", tool,
		"enabled_before", before,
		"enabled_after", after,
	)
}

// adminSession lets the admin page check a token before using it.
func (s *Server) adminSession(r *http.Request) (any, *surface.Error) {
	return map[string]any{"ok": true, "token_id": adminID(r)}, nil
}

// adminVerify is POST /admin/verify: the body is an /invoke response (or a bare
// structured_result, at most --max-body-bytes); the answer says whether its
// hashes recompute against this server's catalogue (evidence.Verify). It
// changes nothing but costs as much as a call (parsing, schema compilation),
// so it needs the admin token like the other admin routes.
func (s *Server) adminVerify(r *http.Request) (any, *surface.Error) {
	body, aerr := readBody(r, s.opts.MaxBodyBytes)
	if aerr != nil {
		return nil, aerr
	}
	v, err := evidence.ParseJSON(body)
	doc, ok := v.(map[string]any)
	if err != nil || !ok {
		return nil, surface.NewError(surface.CodeInvalidRequest, "body must be an /invoke response (a JSON object)")
	}
	sr := doc
	if inner, ok := doc["structured_result"].(map[string]any); ok {
		sr = inner
	}
	name, _ := sr["tool"].(string)
	out := map[string]any{"tool": name, "verified": false, "result_hash": sr["result_hash"]}
	if _, isErr := doc["error_code"]; isErr {
		out["error"] = "the response is an error, not an envelope"
		return out, nil
	}
	entry, ok := s.reg.Entry(name)
	if !ok {
		out["error"] = fmt.Sprintf("tool %q is not in the catalogue", name)
		return out, nil
	}
	generic, err := genericEntry(entry)
	if err == nil {
		err = evidence.Verify(sr, generic)
	}
	if err != nil {
		out["error"] = err.Error()
	} else {
		out["verified"] = true
	}
	return out, nil
}

// genericEntry round-trips a catalogue entry through canonical JSON so that it
// looks exactly like one a client fetched from /tools.
func genericEntry(entry map[string]any) (map[string]any, error) {
	b, err := evidence.Canonical(entry)
	if err != nil {
		return nil, err
	}
	v, err := evidence.ParseJSON(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("catalogue entry is not an object")
	}
	return m, nil
}

type adminTool struct {
	Name, Title, Description    string
	ContractID, ContractVersion string
	ContractHash, Determinism   string
	AccessKind, ExampleArgs     string
	Enabled                     bool
}

// adminIndex renders GET /admin. It shows nothing secret, so it is served without
// a token; every state change it makes sends the token.
func (s *Server) adminIndex(w http.ResponseWriter, r *http.Request) {
	cat := s.reg.Catalog()
	list := make([]adminTool, 0, len(cat.Tools))
	for _, e := range cat.Tools {
		t := adminTool{
			Name: str(e["name"]), Title: str(e["title"]), Description: str(e["description"]),
			ContractID: str(e["contract_id"]), ContractVersion: str(e["contract_version"]),
			ContractHash: str(e["contract_hash"]), Determinism: str(e["determinism"]),
			AccessKind: str(e["access_kind"]), ExampleArgs: "{}",
		}
		t.Enabled, _ = e["enabled"].(bool)
		if ex, ok := e["examples"].([]any); ok && len(ex) > 0 {
			if m, ok := ex[0].(map[string]any); ok {
				if b, err := evidence.Canonical(m["args"]); err == nil {
					t.ExampleArgs = string(b)
				}
			}
		}
		list = append(list, t)
	}
	s.writePage(w, r, adminPage, adminCSP, "no-store", map[string]any{
		"Tools": list, "CatalogHash": cat.CatalogHash, "Version": s.opts.Version,
		"AdminEnabled": s.opts.AdminToken != "",
	})
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
