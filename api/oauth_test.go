package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/oauth"
	"github.com/precisiond/precisiond/internal/oauthtest"
	"github.com/precisiond/precisiond/internal/surface"
)

const oauthBase = "https://precisiond.example"

// oauthEnv is the access environment (API tokens alice, bob, carol) with
// the OAuth resource server on, trusting an in-test JWT issuer.
func newOAuthEnv(t *testing.T) (*accessEnv, *oauthtest.Issuer) {
	t.Helper()
	is := oauthtest.NewIssuer(t)
	v, err := oauth.New(oauth.Config{Issuer: is.URL(), Resource: oauthBase + "/mcp", ClientID: "rs", ClientSecret: oauthtest.IntrospectSecret})
	if err != nil {
		t.Fatal(err)
	}
	e := newAccessEnv(t, func(o *AccessOptions) {
		o.OAuth = &OAuthOptions{Verifier: v, Issuer: is.URL(), Resource: oauthBase + "/mcp", MetadataBase: oauthBase}
	})
	return e, is
}

func jwtFor(t *testing.T, is *oauthtest.Issuer, scope string) string {
	return is.Sign(t, is.Claims(oauthBase+"/mcp", time.Hour), map[string]any{"scope": scope, "client_id": "claude-ai"}, "")
}

const gcdCall = `{"tool":"gcd_lcm","args":{"a":4,"b":6}}`

// TestOAuthOff: without --oauth-issuer nothing OAuth is advertised: no
// metadata, no resource_metadata in the challenge.
func TestOAuthOff(t *testing.T) {
	e := newAccessEnv(t, nil)
	r := e.do(t, "POST", "/mcp", "", `{}`)
	if got := r.Header.Get("WWW-Authenticate"); r.Status != 401 || strings.Contains(got, "resource_metadata") {
		t.Fatalf("401 challenge = %d %q, want no resource_metadata", r.Status, got)
	}
	for _, p := range []string{prmPath, prmPath + "/mcp"} {
		if r := e.do(t, "GET", p, aliceToken, ""); r.Status != 404 {
			t.Errorf("GET %s with OAuth off: %d, want 404", p, r.Status)
		}
	}
}

// TestOAuthMetadata: RFC 9728 metadata at the three well-known paths,
// without a token, readable from any origin.
func TestOAuthMetadata(t *testing.T) {
	e, is := newOAuthEnv(t)
	for _, p := range []string{prmPath, prmPath + "/mcp", prmPath + "/mcp/compact"} {
		r := e.do(t, "GET", p, "", "")
		if r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("GET %s: %d %v", p, r.Status, r.Header)
		}
		var doc struct {
			Resource               string   `json:"resource"`
			AuthorizationServers   []string `json:"authorization_servers"`
			ScopesSupported        []string `json:"scopes_supported"`
			BearerMethodsSupported []string `json:"bearer_methods_supported"`
		}
		if err := json.Unmarshal(r.Body, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Resource != oauthBase+"/mcp" || len(doc.AuthorizationServers) != 1 || doc.AuthorizationServers[0] != is.URL() ||
			strings.Join(doc.ScopesSupported, " ") != "precisiond:tools precisiond:admin" || strings.Join(doc.BearerMethodsSupported, " ") != "header" {
			t.Errorf("GET %s = %s", p, r.Body)
		}
	}
}

// TestOAuthChallenge: a 401 names the metadata of the endpoint asked for
// and the scope to request; an invalid token adds error="invalid_token".
func TestOAuthChallenge(t *testing.T) {
	e, is := newOAuthEnv(t)
	for _, tc := range []struct{ path, tok, want string }{
		{"/mcp", "", `Bearer resource_metadata="` + oauthBase + `/.well-known/oauth-protected-resource/mcp", scope="precisiond:tools"`},
		{"/mcp/compact", "", `Bearer resource_metadata="` + oauthBase + `/.well-known/oauth-protected-resource/mcp/compact", scope="precisiond:tools"`},
		{"/v1/invoke", "", `Bearer resource_metadata="` + oauthBase + `/.well-known/oauth-protected-resource", scope="precisiond:tools"`},
		{"/mcp", "not-a-token", `Bearer resource_metadata="` + oauthBase + `/.well-known/oauth-protected-resource/mcp", scope="precisiond:tools", error="invalid_token"`},
		{"/mcp", is.Sign(t, is.Claims("https://other.example/mcp", time.Hour), nil, ""), `Bearer resource_metadata="` + oauthBase + `/.well-known/oauth-protected-resource/mcp", scope="precisiond:tools", error="invalid_token"`},
		{"/mcp", is.Sign(t, is.Claims(oauthBase+"/mcp", -time.Hour), nil, ""), `Bearer resource_metadata="` + oauthBase + `/.well-known/oauth-protected-resource/mcp", scope="precisiond:tools", error="invalid_token"`},
	} {
		r := e.do(t, "POST", tc.path, tc.tok, `{}`)
		if got := r.Header.Get("WWW-Authenticate"); r.Status != 401 || got != tc.want {
			t.Errorf("POST %s (token %.10q): %d %q\nwant 401 %q", tc.path, tc.tok, r.Status, got, tc.want)
		}
	}
}

// TestOAuthTokens: OAuth tokens and API tokens side by side; scopes map to
// tools; insufficient scope is 403 with the scope to ask for.
func TestOAuthTokens(t *testing.T) {
	e, is := newOAuthEnv(t)
	all := jwtFor(t, is, "openid precisiond:tools")
	if r := e.do(t, "POST", "/v1/invoke", all, gcdCall); r.Status != 200 {
		t.Fatalf("OAuth token with precisiond:tools: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/v1/invoke", aliceToken, gcdCall); r.Status != 200 {
		t.Fatalf("API token beside OAuth: %d %s", r.Status, r.Body)
	}
	one := jwtFor(t, is, "precisiond:tool:gcd_lcm")
	if r := e.do(t, "POST", "/v1/invoke", one, gcdCall); r.Status != 200 {
		t.Fatalf("token scoped to gcd_lcm: %d %s", r.Status, r.Body)
	}
	r := e.do(t, "POST", "/v1/invoke", one, `{"tool":"hash_text","args":{"text":"x"}}`)
	if got := r.Header.Get("WWW-Authenticate"); r.Status != 403 || got != `Bearer error="insufficient_scope", scope="precisiond:tool:hash_text"` {
		t.Fatalf("tool outside the scope: %d %q %s", r.Status, got, r.Body)
	}
	r = e.do(t, "POST", "/mcp", jwtFor(t, is, "openid profile"), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if got := r.Header.Get("WWW-Authenticate"); r.Status != 403 || got != `Bearer error="insufficient_scope", scope="precisiond:tools"` {
		t.Fatalf("token without a tool scope: %d %q %s", r.Status, got, r.Body)
	}

	// MCP: the scoped token sees and runs only its tool.
	cs := e.connectAs(t, "streamable", "/mcp", one)
	tl, err := cs.ListTools(ctxT(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Tools) != 1 || tl.Tools[0].Name != "gcd_lcm" {
		t.Fatalf("tools/list of a gcd_lcm token: %d tools", len(tl.Tools))
	}
	res, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 4, "b": 6}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v %+v", err, res)
	}
	sse := e.connectAs(t, "sse", "", all)
	if res, err := sse.CallTool(ctxT(t), &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 4, "b": 6}}); err != nil || res.IsError {
		t.Fatalf("tools/call over SSE: %v %+v", err, res)
	}
}

// TestOAuthAdmin: precisiond:admin opens the admin API; a tool scope does not.
func TestOAuthAdmin(t *testing.T) {
	e, is := newOAuthEnv(t)
	if r := e.do(t, "PUT", "/admin/tools/gcd_lcm", jwtFor(t, is, "precisiond:admin"), `{"enabled":true}`); r.Status != 200 {
		t.Fatalf("admin scope: %d %s", r.Status, r.Body)
	}
	r := e.do(t, "PUT", "/admin/tools/gcd_lcm", jwtFor(t, is, "precisiond:tools"), `{"enabled":true}`)
	if got := r.Header.Get("WWW-Authenticate"); r.Status != 403 || got != `Bearer error="insufficient_scope", scope="precisiond:admin"` {
		t.Fatalf("tools scope on the admin API: %d %q %s", r.Status, got, r.Body)
	}
	if r := e.do(t, "PUT", "/admin/tools/gcd_lcm", adminTok, `{"enabled":true}`); r.Status != 200 {
		t.Fatalf("admin token beside OAuth: %d %s", r.Status, r.Body)
	}
}

// TestOAuthIssuerDown: when the issuer cannot be reached an OAuth token is
// refused with 503 auth_unavailable (fail closed); API tokens go on working.
func TestOAuthIssuerDown(t *testing.T) {
	e, is := newOAuthEnv(t)
	tok := jwtFor(t, is, "precisiond:tools")
	is.Srv.Close()
	r := e.do(t, "POST", "/v1/invoke", tok, gcdCall)
	if body := r.JSON(t); r.Status != 503 || body["error_code"] != surface.CodeAuthDown {
		t.Fatalf("issuer down: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/v1/invoke", aliceToken, gcdCall); r.Status != 200 {
		t.Fatalf("API token with the issuer down: %d %s", r.Status, r.Body)
	}
}

// TestOAuthDownloadOwner: a file generated under an OAuth token belongs to
// its caller (oauth:<sub>); an API token cannot fetch it without the link.
func TestOAuthDownloadOwner(t *testing.T) {
	e, is := newOAuthEnv(t)
	tok := jwtFor(t, is, "precisiond:tools")
	r := e.do(t, "POST", "/v1/invoke", tok, `{"tool":"generate_file","args":{"filename":"a.txt","content":"hi"}}`)
	if r.Status != 200 {
		t.Fatalf("generate_file: %d %s", r.Status, r.Body)
	}
	link := r.Header.Get("X-Download-Url")
	path, _, _ := strings.Cut(link, "?")
	if path == "" {
		t.Fatalf("no X-Download-Url: %v", r.Header)
	}
	if r := e.do(t, "GET", path, tok, ""); r.Status != 200 {
		t.Fatalf("owner's download: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "GET", path, aliceToken, ""); r.Status != 403 {
		t.Fatalf("another caller's download: %d %s", r.Status, r.Body)
	}
}
