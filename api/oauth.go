package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/oauth"
	"github.com/precisiond/precisiond/internal/surface"
)

// The scopes of OAuth access tokens (docs/oauth.md).
const (
	ScopeTools      = "precisiond:tools" // every tool
	ScopeToolPrefix = "precisiond:tool:" // + a tool name: that tool
	ScopeAdmin      = "precisiond:admin" // the admin API
	prmPath         = "/.well-known/oauth-protected-resource"
	maxChallengeArg = 512 // bytes of one auth-param value in WWW-Authenticate
)

// OAuthOptions turn on the OAuth 2.1 resource server (--oauth-issuer):
// bearer tokens that are not API tokens are checked by Verifier, the
// Protected Resource Metadata (RFC 9728) is served, and 401 answers say
// where to get a token. Nil: none of it is advertised.
type OAuthOptions struct {
	Verifier *oauth.Verifier
	// Issuer is the authorization server listed in the metadata.
	Issuer string
	// Resource is the resource identifier (the audience JWTs must name).
	Resource string
	// MetadataBase is the absolute URL (scheme://host[/prefix], no trailing
	// slash) under which the well-known metadata paths are reached.
	MetadataBase string
	// DefaultScopes are granted to every valid token besides its own (for
	// an authorization server that cannot issue custom scopes).
	DefaultScopes []string
	// Now is the clock of expiry checks on open SSE sessions; default time.Now.
	Now func() time.Time
}

// oauthCaller is the verified token of a request admitted by OAuth.
type oauthCaller struct {
	claims *oauth.Claims
	token  *access.Token // its principal: Name from the claims, Tools from the scopes
	admin  bool          // precisiond:admin
	tools  bool          // any tool scope
}

type oauthKey struct{}

func withOAuth(ctx context.Context, c *oauthCaller) context.Context {
	return context.WithValue(ctx, oauthKey{}, c)
}

func oauthOf(ctx context.Context) *oauthCaller {
	c, _ := ctx.Value(oauthKey{}).(*oauthCaller)
	return c
}

// newOAuthCaller maps a token's scopes (and the default scopes) to a
// principal: precisiond:tools is every tool (Tools nil), precisiond:tool:x
// adds x.
func newOAuthCaller(c *oauth.Claims, defaults []string) *oauthCaller {
	oc := &oauthCaller{claims: c, token: &access.Token{Name: oauth.CallerName(c)}}
	all := false
	var named []string
	for _, s := range slices.Concat(c.Scopes, defaults) {
		switch {
		case s == ScopeTools:
			all = true
		case s == ScopeAdmin:
			oc.admin = true
		case strings.HasPrefix(s, ScopeToolPrefix) && len(s) > len(ScopeToolPrefix):
			named = append(named, strings.TrimPrefix(s, ScopeToolPrefix))
		}
	}
	oc.tools = all || len(named) > 0
	if !all {
		oc.token.Tools = named
	}
	return oc
}

// expired reports whether the caller's token has expired (an SSE session
// outlives the request that opened it).
func (o *OAuthOptions) expired(c *oauthCaller) bool {
	if c.claims.Expiry.IsZero() {
		return false
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	return !now().Before(c.claims.Expiry.Add(oauth.Leeway))
}

// metadataURL is the Protected Resource Metadata URL for a request path:
// the MCP endpoints have their own (RFC 9728 §3.1 path insertion), every
// other route the root one.
func (o *OAuthOptions) metadataURL(path string) string {
	switch path {
	case "/mcp", "/mcp/sse", "/mcp/compact":
		if path == "/mcp/sse" {
			path = "/mcp"
		}
		return o.MetadataBase + prmPath + path
	}
	return o.MetadataBase + prmPath
}

// challenge builds a WWW-Authenticate value for the Bearer scheme (RFC 6750
// §3) from auth-params in order; values are quoted-strings (backslash
// escapes, control characters dropped, at most maxChallengeArg bytes each).
func challenge(params ...string) string {
	var b strings.Builder
	b.WriteString("Bearer")
	for i := 0; i+1 < len(params); i += 2 {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		b.WriteString(params[i])
		b.WriteString(`="`)
		v := params[i+1]
		if len(v) > maxChallengeArg {
			v = v[:maxChallengeArg]
		}
		for _, r := range v {
			switch {
			case r == '"' || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case r < 0x20 || r == 0x7f || r > 0x7e:
				// outside VCHAR and SP: not safe in a header value
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
	}
	return b.String()
}

// protectedResourceMetadata is the RFC 9728 document: the resource, its
// authorization server, the scopes and that tokens go in the header.
func protectedResourceMetadata(resource, issuer string) []byte {
	doc := struct {
		Resource               string   `json:"resource"`
		AuthorizationServers   []string `json:"authorization_servers"`
		ScopesSupported        []string `json:"scopes_supported"`
		BearerMethodsSupported []string `json:"bearer_methods_supported"`
		ResourceName           string   `json:"resource_name"`
		ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
	}{resource, []string{issuer}, []string{ScopeTools, ScopeAdmin}, []string{"header"}, "precisiond", ""}
	b, _ := json.Marshal(doc) // strings and slices only: cannot fail
	return b
}

// oauthRoutes serves the metadata at the well-known paths (open routes:
// a client reads them before it has a token; any origin may).
func (s *Server) oauthRoutes(r interface {
	Get(string, http.HandlerFunc)
}) {
	o := s.edge.opts.OAuth
	body := protectedResourceMetadata(o.Resource, o.Issuer)
	h := func(w http.ResponseWriter, _ *http.Request) {
		hd := w.Header()
		hd.Set("Content-Type", "application/json")
		hd.Set("Cache-Control", "public, max-age=3600")
		hd.Set("Access-Control-Allow-Origin", "*")
		hd.Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}
	for _, p := range []string{prmPath, prmPath + "/mcp", prmPath + "/mcp/compact"} {
		r.Get(p, h)
	}
}

// isMetadataPath reports whether p is one of the metadata paths.
func isMetadataPath(p string) bool {
	return p == prmPath || p == prmPath+"/mcp" || p == prmPath+"/mcp/compact"
}

// unauthorized sets the 401 challenge: with OAuth on it says where the
// metadata is and which scope to ask for; errCode is "" for a missing token
// (RFC 6750 §3.1: no error code then).
func (e *edge) unauthorized(w http.ResponseWriter, r *http.Request, errCode string) {
	o := e.opts.OAuth
	if o == nil {
		if errCode == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="precisiond"`)
		} else {
			w.Header().Set("WWW-Authenticate", challenge("realm", "precisiond", "error", errCode))
		}
		return
	}
	params := []string{"resource_metadata", o.metadataURL(r.URL.Path), "scope", ScopeTools}
	if errCode != "" {
		params = append(params, "error", errCode)
	}
	w.Header().Set("WWW-Authenticate", challenge(params...))
}

// insufficientScope is the 403 of a valid token without the scope a route
// needs (RFC 6750 §3.1), with the challenge naming it.
func insufficientScope(scope, msg string) *surface.Error {
	return &surface.Error{Code: surface.CodeForbidden, Reason: "insufficient_scope", Message: msg,
		Challenge: challenge("error", "insufficient_scope", "scope", scope), Scope: scope}
}

// checkOAuth verifies a bearer token that is no API token: 401 for an
// invalid one, 503 auth_unavailable when the issuer cannot be reached (fail
// closed).
func (s *Server) checkOAuth(w http.ResponseWriter, r *http.Request, secret string) (*oauthCaller, *surface.Error) {
	o := s.edge.opts.OAuth
	claims, err := o.Verifier.Verify(r.Context(), secret)
	if err != nil {
		var oe *oauth.Error
		if errors.As(err, &oe) && oe.Kind == oauth.Unavailable {
			s.log.Error("oauth verification unavailable", "request_id", surface.RequestID(r.Context()), "reason", oe.Reason, "err", oe.Msg)
			return nil, &surface.Error{Code: surface.CodeAuthDown, Reason: oe.Reason, Message: "the access token cannot be verified now: the authorization server is unreachable; retry later"}
		}
		reason, msg := "invalid_token", err.Error()
		if oe != nil {
			reason = oe.Reason
		}
		s.edge.unauthorized(w, r, "invalid_token")
		return nil, &surface.Error{Code: surface.CodeUnauthorized, Reason: reason, Message: "access token refused: " + msg}
	}
	// Built once per verified token (the verifier's cache hands out the
	// same claims), so a cached token costs no more than an API token.
	oc := claims.Memo(func() any {
		oc := newOAuthCaller(claims, o.DefaultScopes)
		s.log.Debug("oauth token accepted", "request_id", surface.RequestID(r.Context()), "caller", oc.token.Name, "sub", claims.Subject, "client_id", claims.ClientID)
		return oc
	}).(*oauthCaller)
	return oc, nil
}

// OAuthSettings are the --oauth-* settings (docs/oauth.md) and the public
// base URL, as an operator gives them.
type OAuthSettings struct {
	Issuer, Resource, IntrospectionURL, ClientFile string
	DefaultScopes                                  []string
	PublicBaseURL                                  string
}

// NewOAuthOptions builds the OAuth resource server from its settings: the
// resource identifier (default the public base URL + /mcp), the
// introspection credentials read from ClientFile, and the default scopes,
// each of which must be a precisiond scope. The issuer is not contacted: a
// service whose issuer is down starts, and answers 503 auth_unavailable to
// OAuth tokens until it is back.
func NewOAuthOptions(s OAuthSettings) (*OAuthOptions, error) {
	base := ""
	if s.PublicBaseURL != "" {
		b, err := surface.PublicBase(s.PublicBaseURL)
		if err != nil {
			return nil, err
		}
		base = b
	}
	resource := s.Resource
	if resource == "" {
		if base == "" {
			return nil, fmt.Errorf("--oauth-issuer needs --oauth-resource or --public-base-url (the resource identifier is the public URL of /mcp)")
		}
		resource = base + "/mcp"
	}
	ru, err := url.Parse(resource)
	if err != nil || (ru.Scheme != "https" && ru.Scheme != "http") || ru.Host == "" || ru.RawQuery != "" || ru.Fragment != "" {
		return nil, fmt.Errorf("--oauth-resource %q: want an absolute https:// URL without query or fragment", resource)
	}
	if base == "" {
		base = ru.Scheme + "://" + ru.Host
	}
	vc := oauth.Config{Issuer: s.Issuer, Resource: resource, IntrospectionURL: s.IntrospectionURL}
	if s.ClientFile != "" {
		b, err := os.ReadFile(s.ClientFile)
		if err != nil {
			return nil, fmt.Errorf("--oauth-client-file: %w", err)
		}
		cf, err := oauth.ParseClientFile(b)
		if err != nil {
			return nil, fmt.Errorf("--oauth-client-file %s: %w", s.ClientFile, err)
		}
		vc.ClientID, vc.ClientSecret = cf.ClientID, cf.ClientSecret
	} else if s.IntrospectionURL != "" {
		return nil, fmt.Errorf("--oauth-introspection-url needs --oauth-client-file")
	}
	v, err := oauth.New(vc)
	if err != nil {
		return nil, fmt.Errorf("--oauth-issuer: %w", err)
	}
	for _, sc := range s.DefaultScopes {
		if sc != ScopeTools && sc != ScopeAdmin && !strings.HasPrefix(sc, ScopeToolPrefix) {
			return nil, fmt.Errorf("--oauth-default-scopes: %q is not a precisiond scope (%s, %s<name>, %s)", sc, ScopeTools, ScopeToolPrefix, ScopeAdmin)
		}
	}
	return &OAuthOptions{Verifier: v, Issuer: s.Issuer, Resource: resource, MetadataBase: base, DefaultScopes: s.DefaultScopes}, nil
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
