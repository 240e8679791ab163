package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/precisiond/precisiond/internal/surface"
)

// Insufficient scope on MCP (issue 34; MCP authorization, "Scope Challenge
// Handling"). A tools/call by an OAuth access token that lacks the tool's
// scope is refused with HTTP 403 and
//
//	WWW-Authenticate: Bearer error="insufficient_scope", scope="…", resource_metadata="…", error_description="…"
//
// wherever the refusal has an HTTP answer of its own:
//   - /mcp and /mcp/compact (stateless Streamable HTTP): the handlers refuse
//     as they do for a scoped API token (a tool error) and note the scopes
//     in the request's context (noteScopeDenial); scopeStatus turns the
//     POST's answer into the 403 with the challenge, its body the JSON-RPC
//     answer (which says what was refused). Every scope the call needs is in
//     the one challenge (a plan's steps together).
//   - /mcp/sse: the answers travel on the stream, but the POST that carries
//     the call has its own status: sseScopeGuard refuses a tools/call of a
//     tool outside the POST's token with the 403 before the session sees it.
//
// Static API tokens have no scope to step up to: their refusals stay tool
// errors, as on stdio, which has no HTTP status at all.

type scopeDenialKey struct{}

// noteScopeDenial records the scope of an insufficient_scope refusal for
// the HTTP answer of the request in ctx (if it has one).
func noteScopeDenial(ctx context.Context, e *surface.Error) {
	if e == nil || e.Reason != "insufficient_scope" {
		return
	}
	d, _ := ctx.Value(scopeDenialKey{}).(*scopeWriter)
	if d == nil {
		return
	}
	for s := range strings.FieldsSeq(e.Scope) {
		if !slices.Contains(d.scopes, s) {
			d.scopes = append(d.scopes, s)
		}
	}
}

// scopeStatus answers with 403 and the scope challenge a stateless MCP POST
// whose call was refused for its OAuth token's scope. Requests without an
// OAuth token pass untouched.
func (m *Endpoints) scopeStatus(next http.Handler) http.Handler {
	if m.access == nil || !m.access.OAuthOn() {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || m.access.OAuthCaller(r.Context()) == nil {
			next.ServeHTTP(w, r)
			return
		}
		// One allocation for the writer and the scopes it collects.
		sw := &scopeWriter{ResponseWriter: w, access: m.access, path: r.URL.Path}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), scopeDenialKey{}, sw)))
	})
}

// scopeWriter turns a 200 into the 403 when the handler noted a denial
// (noteScopeDenial finds it in the request's context and adds the scopes).
type scopeWriter struct {
	http.ResponseWriter
	scopes []string // the scopes the request lacked
	access Access
	path   string
	wrote  bool
}

func (w *scopeWriter) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		if code == http.StatusOK && len(w.scopes) > 0 {
			w.Header().Set("WWW-Authenticate", w.access.ScopeChallenge(w.path, w.scopes))
			code = http.StatusForbidden
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *scopeWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *scopeWriter) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *scopeWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := w.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, errors.New("hijacking not supported")
}

func (w *scopeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// sseScopeGuard refuses, with 403 and the challenge, a POST to the legacy
// SSE transport that calls a tool outside its OAuth token's scope (the
// session would answer on the stream with a tool error, after a 202).
func (m *Endpoints) sseScopeGuard(next http.Handler) http.Handler {
	if m.access == nil || !m.access.OAuthOn() {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		oc := m.access.OAuthCaller(r.Context())
		if r.Method != http.MethodPost || oc == nil || len(oc.Tools) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		body, ok := readMCPBody(w, r, m.surface.opts.MaxBodyBytes)
		if !ok {
			return
		}
		if name, ok := toolsCallName(body); ok && !oc.Allows(name) {
			if aerr := m.access.AuthorizeTool(surface.WithPrincipal(r.Context(), oc), name); aerr != nil {
				aerr.Challenge = m.access.ScopeChallenge(r.URL.Path, []string{aerr.Scope})
				surface.WriteError(w, aerr, false)
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// toolsCallName is the tool name of a body that is one tools/call request
// (a batch, a notification or anything else: false; the session answers).
func toolsCallName(body []byte) (string, bool) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.ID == nil || msg.Method != "tools/call" || msg.Params.Name == "" {
		return "", false
	}
	return msg.Params.Name, true
}
