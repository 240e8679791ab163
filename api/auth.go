package api

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// AccessOptions configure access control at the edge (docs/operations.md,
// "Access control"). A nil *AccessOptions leaves every route as it was.
type AccessOptions struct {
	// Tokens are the API tokens (--api-tokens). When set, every route but
	// /health, the admin routes (their own token), /downloads (a bearer
	// token or a signed link) and, unless MetricsNeedToken, /metrics answers
	// 401 without a valid Authorization: Bearer token.
	Tokens *access.Keyring
	// MetricsNeedToken puts /metrics behind the API tokens too.
	MetricsNeedToken bool
	// Signer signs download links (used when Tokens is set); LinkTTL is how
	// long a link stays valid (default 1 h).
	Signer  *access.Signer
	LinkTTL time.Duration
	// GuardHosts applies the Host/Origin guard of /mcp (AllowedHosts plus
	// loopback) to every route: set when the listener is on loopback, so
	// that a web page cannot reach the service through DNS rebinding.
	GuardHosts   bool
	AllowedHosts []string
	// CORSOrigins are the browser origins (scheme://host[:port], or "*")
	// allowed to call the API cross-origin; empty: CORS is off.
	CORSOrigins []string
	// Owners records which token generated which file (kept in the data
	// directory by the service); nil: a record in memory.
	Owners *access.Owners
	// OAuth turns on the OAuth 2.1 resource server beside (or instead of)
	// the API tokens (api/oauth.go); nil: off.
	OAuth *OAuthOptions
}

// edge is the state behind AccessOptions.
type edge struct {
	opts   AccessOptions
	hosts  surface.HostPolicy
	cors   map[string]bool
	owners *access.Owners
	store  *filestore.Store
	log    *slog.Logger
}

func newEdge(o *AccessOptions, store *filestore.Store, log *slog.Logger) *edge {
	if o == nil {
		return nil
	}
	defaults.Positive(&o.LinkTTL, time.Hour)
	e := &edge{opts: *o, hosts: surface.NewHostPolicy(o.AllowedHosts), cors: map[string]bool{}, owners: o.Owners, store: store, log: log}
	if e.owners == nil {
		e.owners, _ = access.NewOwners("") // in memory: cannot fail
	}
	for _, c := range o.CORSOrigins {
		e.cors[strings.TrimSuffix(strings.TrimSpace(c), "/")] = true
	}
	return e
}

// authOn reports whether the tool surfaces need a bearer token: API tokens,
// OAuth or both.
func (e *edge) authOn() bool { return e != nil && (e.opts.Tokens != nil || e.opts.OAuth != nil) }

// openRoute reports whether a route is outside the API tokens: /health and
// /ready (probes), the published signing keys (JWKSPath: anyone may verify), the admin routes (the admin token), /downloads (its own check)
// and /metrics unless configured otherwise. It looks at the path the router
// matches (the escaped one when the request has one), so that an escaped
// slash cannot make a protected route look like an open one.
func (e *edge) openRoute(r *http.Request) bool {
	p := r.URL.EscapedPath()
	switch {
	case p == "/health", p == "/ready", p == JWKSPath, p == "/admin", strings.HasPrefix(p, "/admin/"), strings.HasPrefix(p, "/downloads/"):
		return true
	case p == "/", p == "/docs", strings.HasPrefix(p, "/static/"), strings.HasPrefix(p, "/docs/static/"):
		return true // the start page and the API reference (api/pages.go): documentation
	case strings.HasPrefix(p, mcpserver.IconsPath):
		return true // the icons (mcpserver/icons.go): fetched by a client's UI without a token
	case e.opts.OAuth != nil && isMetadataPath(p):
		return true // RFC 9728 metadata: read before a client has a token
	case p == "/metrics":
		return !e.opts.MetricsNeedToken
	case strings.HasPrefix(p, "/tools/") && strings.HasSuffix(p, "/toggle"):
		return true // POST /tools/{name}/toggle: an admin route
	}
	return false
}

// corsHeaders lists what a cross-origin caller may send and read.
const (
	corsAllowHeaders  = "Authorization, Content-Type, X-Request-Id, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, If-None-Match"
	corsExposeHeaders = "X-Request-Id, X-Download-Url, Retry-After, WWW-Authenticate, Mcp-Session-Id, ETag"
)

// accessControl is the edge middleware: CORS, the Host/Origin guard and the
// API tokens with their rate limits. Every refusal is logged with the token's
// name (never the token) and counted.
func (s *Server) accessControl(next http.Handler) http.Handler {
	e := s.edge
	if e == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		corsOK := origin != "" && (e.cors["*"] || e.cors[origin])
		if len(e.cors) > 0 {
			w.Header().Add("Vary", "Origin") // answers differ by Origin
		}
		if corsOK {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE")
				h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		if e.opts.GuardHosts {
			if !e.hosts.Allowed(r.Host) {
				s.refuseAccess(w, r, surface.NewError(surface.CodeForbidden, "host "+surface.QuoteShort(r.Host)+" is not allowed (configure --allowed-hosts)"), "")
				return
			}
			if origin != "" && !corsOK && !e.hosts.AllowedOrigin(origin) {
				s.refuseAccess(w, r, surface.NewError(surface.CodeForbidden, "origin "+surface.QuoteShort(origin)+" is not allowed (configure --cors-origins or --allowed-hosts)"), "")
				return
			}
		}
		if !e.authOn() || e.openRoute(r) {
			next.ServeHTTP(w, r)
			return
		}
		r, ok := s.authenticate(w, r)
		if !ok {
			return
		}
		if oc := oauthOf(r.Context()); oc != nil && !oc.tools {
			s.refuseAccess(w, r, insufficientScope(ScopeTools, "the access token grants no tool: ask for scope "+ScopeTools+" or "+ScopeToolPrefix+"<name>"), oc.token.Name)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func tokenLabel(t *access.Token) string {
	if t == nil {
		return ""
	}
	return t.Name
}

// authenticate checks the bearer token and its rate limit and returns the
// request with its principal in the context (and, for an OAuth token, its
// claims: oauthOf); when it refuses (401 with WWW-Authenticate for a
// missing, unknown or invalid token, 429 with Retry-After past the budget,
// 503 when an OAuth token cannot be verified) it has written the refusal and
// ok is false.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (_ *http.Request, ok bool) {
	t, oc, aerr := s.checkToken(w, r)
	if aerr != nil {
		s.refuseAccess(w, r, aerr, tokenLabel(t))
		return r, false
	}
	ctx := surface.WithPrincipal(r.Context(), t)
	if oc != nil {
		ctx = withOAuth(ctx, oc)
	}
	return r.WithContext(ctx), true
}

// checkToken is authenticate's decision: the token is returned with a 429,
// nil with a 401. An API token (or the admin token) is always tried first,
// so a client that sends one is never sent into OAuth.
func (s *Server) checkToken(w http.ResponseWriter, r *http.Request) (*access.Token, *oauthCaller, *surface.Error) {
	secret, ok := bearerToken(r)
	if !ok {
		s.edge.unauthorized(w, r, "")
		return nil, nil, surface.NewError(surface.CodeUnauthorized, "missing bearer token: send Authorization: Bearer <API token> (see `precisiond token new`)"+s.edge.oauthHint())
	}
	var t *access.Token
	if s.edge.opts.Tokens != nil {
		t = s.edge.opts.Tokens.Set().Authenticate(secret)
	}
	if t == nil && s.adminTokenMatches(secret) {
		return surface.AdminPrincipal, nil, nil // the admin page's calls (no scope, no rate limit)
	}
	if t == nil && s.edge.opts.OAuth != nil {
		oc, aerr := s.checkOAuth(w, r, secret)
		if aerr != nil {
			return nil, nil, aerr
		}
		return oc.token, oc, nil
	}
	if t == nil {
		s.edge.unauthorized(w, r, "invalid_token")
		return nil, nil, surface.NewError(surface.CodeUnauthorized, "unknown API token")
	}
	if ok, wait := s.edge.opts.Tokens.Limiter().Allow(t); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
		return t, nil, surface.NewError(surface.CodeRateLimited, "token "+t.Name+" is over its rate_per_minute; retry after the Retry-After seconds")
	}
	return t, nil, nil
}

// oauthHint ends a missing-token message when OAuth is on.
func (e *edge) oauthHint() string {
	if e.opts.OAuth == nil {
		return ""
	}
	return ", or an OAuth access token from " + e.opts.OAuth.Issuer + " (see WWW-Authenticate resource_metadata)"
}

// adminTokenMatches compares a bearer token with --admin-token in constant
// time (over SHA-256, so that the length does not show either).
func (s *Server) adminTokenMatches(secret string) bool {
	if s.opts.AdminToken == "" {
		return false
	}
	got := sha256.Sum256([]byte(secret))
	want := sha256.Sum256([]byte(s.opts.AdminToken))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

func bearerToken(r *http.Request) (string, bool) {
	scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !found || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// refuseAccess logs, counts and writes an access refusal; why is the token
// name, or what was refused when no token is involved.
func (s *Server) refuseAccess(w http.ResponseWriter, r *http.Request, e *surface.Error, token string) {
	s.countRefusal(r.Context(), e.Code, token, r.URL.Path, e.Tool)
	s.refuse(w, r, e)
}

// countRefusal logs and counts one refusal.
func (s *Server) countRefusal(ctx context.Context, code, token, path, tool string) {
	attrs := []any{"request_id", surface.RequestID(ctx), "error_code", code, "token", token, "path", path}
	if tool != "" {
		attrs = append(attrs, "tool", tool)
	}
	s.log.Warn("access refused", attrs...)
	if s.opts.Metrics != nil {
		s.opts.Metrics.refusal(code, token)
	}
}

// authorizeTool refuses a call to a tool outside the request's token scope
// (error_code forbidden: 403 on /v1/invoke, the legacy 200 body on /invoke).
func (s *Server) authorizeTool(ctx context.Context, tool string) *surface.Error {
	t := surface.Principal(ctx)
	if t == nil || t.Allows(tool) {
		return nil
	}
	s.countRefusal(ctx, surface.CodeForbidden, t.Name, "", tool)
	aerr := &surface.Error{Code: surface.CodeForbidden, Message: "tool " + surface.QuoteShort(tool) + " is outside the scope of token " + t.Name, Tool: tool}
	if oauthOf(ctx) != nil {
		aerr.Reason = "insufficient_scope"
		aerr.Scope = ScopeToolPrefix + tool
		aerr.Challenge = challenge("error", "insufficient_scope", "scope", aerr.Scope)
	}
	return aerr
}

// authorizePlan refuses a plan with a step outside the token's scope; an
// OAuth refusal names the scopes of every such step at once (MCP asks for
// all the scopes of an operation in one challenge).
func (s *Server) authorizePlan(ctx context.Context, p *plans.Plan) *surface.Error {
	var first *surface.Error
	var scopes []string
	for _, st := range p.Steps {
		if first != nil {
			if t := surface.Principal(ctx); t != nil && !t.Allows(st.Tool) && !slices.Contains(scopes, ScopeToolPrefix+st.Tool) {
				scopes = append(scopes, ScopeToolPrefix+st.Tool)
			}
			continue
		}
		if aerr := s.authorizeTool(ctx, st.Tool); aerr != nil {
			first = aerr
			scopes = append(scopes, ScopeToolPrefix+st.Tool)
		}
	}
	if first != nil && first.Scope != "" && len(scopes) > 1 {
		first.Scope = joinScopes(scopes)
		first.Challenge = challenge("error", "insufficient_scope", "scope", first.Scope)
	}
	return first
}

// afterCall records which token generated a file and puts its signed link in
// X-Download-Url (REST /invoke and /v1/invoke). The legacy result text, which
// orchestrators show to people, ends with the link too: there it gains the
// same signature, since a browser sends no token. It returns the response to
// write (a copy when the text changed: resp may be shared).
func (s *Server) afterCall(w http.ResponseWriter, r *http.Request, resp *tools.Response) *tools.Response {
	if !s.edge.authOn() || !s.reg.DeclaresFact(resp.Tool, surface.FactDownloadPath) {
		return resp
	}
	link := s.edge.fileGenerated(r.Context(), resp.Envelope.Facts())
	if link == "" {
		return resp
	}
	w.Header().Set("X-Download-Url", link)
	path, query, _ := strings.Cut(link, "?")
	if !strings.HasSuffix(resp.Result, path) {
		return resp
	}
	signed := *resp
	signed.Result += "?" + query
	return &signed
}

// fileGenerated notes the owner of the file facts name (if any) and returns
// its signed download path, or "".
func (e *edge) fileGenerated(ctx context.Context, facts map[string]any) string {
	dp, _ := facts[surface.FactDownloadPath].(string)
	name, ok := strings.CutPrefix(dp, "/downloads/")
	if !ok || !filestore.NamePattern.MatchString(name) {
		return ""
	}
	e.noteOwner(name, surface.TokenName(ctx))
	if e.opts.Signer == nil {
		return ""
	}
	return dp + "?" + e.opts.Signer.Query(name, e.opts.LinkTTL)
}

// downloadAccess guards /downloads when tokens are on: a signed link
// (?exp&sig) is enough (a browser sends no Authorization header); otherwise a
// bearer token that generated the file. A tampered or expired link is 403;
// no signature and no token is 401.
func (s *Server) downloadAccess(next http.Handler) http.Handler {
	e := s.edge
	if !e.authOn() {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := downloadName(r)
		if !ok {
			next.ServeHTTP(w, r) // 404 or 405, as ever
			return
		}
		q := r.URL.Query()
		if q.Has("exp") || q.Has("sig") {
			if e.opts.Signer == nil {
				s.refuseAccess(w, r, surface.NewError(surface.CodeForbidden, "signed links are not configured"), "")
				return
			}
			if err := e.opts.Signer.Check(name, q); err != nil {
				s.refuseAccess(w, r, surface.NewError(surface.CodeForbidden, "download link refused: "+err.Error()), "")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		r, ok = s.authenticate(w, r)
		if !ok {
			return
		}
		t := surface.Principal(r.Context())
		if !e.owners.Owns(name, t.Name) {
			s.refuseAccess(w, r, surface.NewError(surface.CodeForbidden, "this file was not generated with token "+t.Name+"; use its signed link"), t.Name)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// noteOwner records that token generated file; when the record has grown
// past its limit, the files the store no longer holds are forgotten.
func (e *edge) noteOwner(file, token string) {
	due, err := e.owners.Add(file, token)
	if err != nil {
		e.log.Error("recording the owner of a generated file", "file", file, "token", token, "err", err.Error())
	}
	if !due || e.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	entries, err := e.store.List(ctx)
	if err != nil {
		return
	}
	live := make(map[string]bool, len(entries))
	for _, en := range entries {
		live[en.Name] = true
	}
	if err := e.owners.Prune(func(f string) bool { return live[f] }); err != nil {
		e.log.Error("pruning the owners of generated files", "err", err.Error())
	}
}

// signedPath is the signed download path of a stored file name.
func (e *edge) signedPath(name string) string {
	if e == nil || e.opts.Signer == nil {
		return ""
	}
	return "/downloads/" + url.PathEscape(name) + "?" + e.opts.Signer.Query(name, e.opts.LinkTTL)
}
