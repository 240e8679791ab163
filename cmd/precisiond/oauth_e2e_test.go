package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/oauthtest"
	"github.com/precisiond/precisiond/internal/testhttp"
)

const oauthPublicBase = "https://precisiond.example"

// startOAuthMain runs the real service with the OAuth resource server on,
// trusting the provider p and introspecting with client secret secret.
func startOAuthMain(t *testing.T, p *oauthtest.Provider, secret string, defaultScopes ...string) string {
	t.Helper()
	cf := filepath.Join(t.TempDir(), "client.json")
	b, _ := json.Marshal(map[string]string{"client_id": oauthtest.ClientID, "client_secret": secret})
	if err := os.WriteFile(cf, b, 0o600); err != nil {
		t.Fatal(err)
	}
	base, _ := startMain(t, func(c *Config) {
		c.PublicBaseURL = oauthPublicBase
		c.Access.OAuthIssuer = p.Issuer
		c.Access.OAuthClientFile = cf
		c.Access.OAuthDefaultScopes = defaultScopes
	})
	return base
}

type bearerRT struct{ tok string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.tok)
	return http.DefaultTransport.RoundTrip(r)
}

var resourceMetadata = regexp.MustCompile(`resource_metadata="([^"]+)"`)

// TestOAuthWithOpenIDProvider follows the MCP authorization chain against
// a real OpenID provider (the zitadel example server): 401 → Protected
// Resource Metadata → the authorization server's metadata → a token from
// its authorization code flow → tools/call on /mcp with it, and the
// refusals: no token, a revoked token, a token without a precisiond scope,
// introspection credentials the provider refuses.
func TestOAuthWithOpenIDProvider(t *testing.T) {
	p := oauthtest.Start(t)
	base := startOAuthMain(t, p, oauthtest.ClientSecret, "precisiond:tools")

	// 1. No token: 401 with the metadata URL of /mcp.
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	r := testhttp.Do(t, "POST", base+"/mcp", map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}, init)
	m := resourceMetadata.FindStringSubmatch(r.Header.Get("WWW-Authenticate"))
	if r.Status != 401 || m == nil {
		t.Fatalf("POST /mcp without a token: %d %q", r.Status, r.Header.Get("WWW-Authenticate"))
	}
	metaPath, ok := strings.CutPrefix(m[1], oauthPublicBase)
	if !ok || metaPath != "/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("resource_metadata = %q", m[1])
	}
	// 2. The metadata (read on the real listener: the public base URL is
	// the name a proxy would give it) names the provider.
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if err := json.Unmarshal(testhttp.Do(t, "GET", base+metaPath, nil, nil).OK(t), &prm); err != nil {
		t.Fatal(err)
	}
	if prm.Resource != oauthPublicBase+"/mcp" || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != p.Issuer {
		t.Fatalf("metadata = %+v", prm)
	}
	// 3. The authorization server's metadata (OpenID discovery, which the
	// MCP spec lets clients use besides RFC 8414) has the endpoints.
	if doc := p.Discovery(t); doc["authorization_endpoint"] == nil || doc["token_endpoint"] == nil || doc["issuer"] != p.Issuer {
		t.Fatalf("provider discovery = %v", doc)
	}
	// 4. A token from the provider calls a tool over MCP.
	tok := p.Token(t, "openid profile")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "oauth-e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1, HTTPClient: &http.Client{Transport: bearerRT{tok}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 12, "b": 18}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call with the provider's token: %v %+v", err, res)
	}
	if got := testhttp.MCPText(t, res); !strings.Contains(got, "6") {
		t.Fatalf("gcd_lcm(12, 18) = %q", got)
	}

	// Refusals. A revoked token: introspection says inactive.
	revoked := p.Token(t, "openid")
	p.Revoke(t, revoked)
	call := []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)
	r = testhttp.Do(t, "POST", base+"/v1/invoke", map[string]string{"Authorization": "Bearer " + revoked, "Content-Type": "application/json"}, call)
	if r.Status != 401 || !strings.Contains(r.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("revoked token: %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}
	// Without --oauth-default-scopes the provider's tokens (it drops custom
	// scopes) grant no tool: 403 insufficient_scope.
	strict := startOAuthMain(t, p, oauthtest.ClientSecret)
	r = testhttp.Do(t, "POST", strict+"/v1/invoke", map[string]string{"Authorization": "Bearer " + p.Token(t, "openid"), "Content-Type": "application/json"}, call)
	if r.Status != 403 || r.Header.Get("WWW-Authenticate") != `Bearer error="insufficient_scope", scope="precisiond:tools"` {
		t.Fatalf("token without a precisiond scope: %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}
	// Introspection credentials the provider refuses: nothing can be
	// verified, 503 (fail closed).
	badCreds := startOAuthMain(t, p, "wrong-secret", "precisiond:tools")
	r = testhttp.Do(t, "POST", badCreds+"/v1/invoke", map[string]string{"Authorization": "Bearer " + p.Token(t, "openid"), "Content-Type": "application/json"}, call)
	if r.Status != 503 || r.JSON(t)["error_code"] != "auth_unavailable" {
		t.Fatalf("refused introspection credentials: %d %s", r.Status, r.Body)
	}
}
