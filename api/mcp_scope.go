package api

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

// scopeChallenge is the 403 challenge of an MCP endpoint: the scopes, the
// endpoint's metadata URL (as on its 401) and a description.
func (o *OAuthOptions) scopeChallenge(path string, scopes []string) string {
	return challenge("error", "insufficient_scope", "scope", joinScopes(scopes),
		"resource_metadata", o.metadataURL(path),
		"error_description", "the access token lacks the scope of this call")
}

// joinScopes joins scopes with spaces, whole scopes only, within
// maxChallengeArg bytes.
func joinScopes(scopes []string) string {
	var b strings.Builder
	for _, s := range scopes {
		if b.Len() > 0 && b.Len()+1+len(s) > maxChallengeArg {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}

// oauth is the OAuth resource server's options, nil when it is off.
func (m *mcpMount) oauth() *OAuthOptions {
	if !m.srv.edge.authOn() {
		return nil
	}
	return m.srv.edge.opts.OAuth
}

// scopeStatus answers with 403 and the scope challenge a stateless MCP POST
// whose call was refused for its OAuth token's scope. Requests without an
// OAuth token pass untouched.
func (m *mcpMount) scopeStatus(next http.Handler) http.Handler {
	o := m.oauth()
	if o == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || oauthOf(r.Context()) == nil {
			next.ServeHTTP(w, r)
			return
		}
		// One allocation for the writer and the scopes it collects.
		sw := &scopeWriter{ResponseWriter: w, o: o, path: r.URL.Path}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), scopeDenialKey{}, sw)))
	})
}

// scopeWriter turns a 200 into the 403 when the handler noted a denial
// (noteScopeDenial finds it in the request's context and adds the scopes).
type scopeWriter struct {
	http.ResponseWriter
	scopes []string // the scopes the request lacked
	o      *OAuthOptions
	path   string
	wrote  bool
}

func (w *scopeWriter) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		if code == http.StatusOK && len(w.scopes) > 0 {
			w.Header().Set("WWW-Authenticate", w.o.scopeChallenge(w.path, w.scopes))
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
func (m *mcpMount) sseScopeGuard(next http.Handler) http.Handler {
	o := m.oauth()
	if o == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		oc := oauthOf(r.Context())
		if r.Method != http.MethodPost || oc == nil || len(oc.token.Tools) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		body, ok := readMCPBody(w, r, m.surface.opts.MaxBodyBytes)
		if !ok {
			return
		}
		if name, ok := toolsCallName(body); ok && !oc.token.Allows(name) {
			if aerr := m.srv.authorizeTool(surface.WithPrincipal(r.Context(), oc.token), name); aerr != nil {
				aerr.Challenge = o.scopeChallenge(r.URL.Path, []string{aerr.Scope})
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
