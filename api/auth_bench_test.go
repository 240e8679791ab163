package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/oauth"
	"github.com/precisiond/precisiond/internal/oauthtest"
	"github.com/precisiond/precisiond/mcpserver"
)

// benchOAuth is the OAuth resource server over an in-test issuer, and a
// JWT access token of it with scope precisiond:tools: after the first
// request the token is served from the verification cache.
func benchOAuth(b *testing.B, keys *access.Keyring) (*AccessOptions, string) {
	is := oauthtest.NewIssuer(b)
	const resource = "https://precisiond.example/mcp"
	v, err := oauth.New(oauth.Config{Issuer: is.URL(), Resource: resource})
	if err != nil {
		b.Fatal(err)
	}
	tok := is.Sign(b, is.Claims(resource, time.Hour), map[string]any{"scope": ScopeTools}, "")
	return &AccessOptions{Tokens: keys, GuardHosts: true, OAuth: &OAuthOptions{Verifier: v, Issuer: is.URL(), Resource: resource,
		MetadataBase: "https://precisiond.example"}}, "Bearer " + tok
}

// benchTokens is a keyring of a file of 10 tokens, "token-0" to "token-9".
func benchTokens(b *testing.B) *access.Keyring {
	var entries []string
	for i := range 10 {
		entries = append(entries, fmt.Sprintf(`{"name":"t%d","sha256":"%s"}`, i, access.Hash(fmt.Sprint("token-", i))))
	}
	path := filepath.Join(b.TempDir(), "tokens.json")
	if err := os.WriteFile(path, []byte(`{"tokens":[`+strings.Join(entries, ",")+`]}`), 0o600); err != nil {
		b.Fatal(err)
	}
	keys, err := access.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	return keys
}

// BenchmarkInvokeAccess: a small /invoke call with no access control, with
// the loopback Host guard, and with a bearer token checked against a file of
// 10 tokens (the last one matching) — the cost of the edge on the hot path.
func BenchmarkInvokeAccess(b *testing.B) {
	keys := benchTokens(b)
	oa, jwt := benchOAuth(b, keys)
	for _, c := range []struct {
		name   string
		access *AccessOptions
		auth   string
	}{
		{"open", nil, ""},
		{"host-guard", &AccessOptions{GuardHosts: true}, ""},
		{"token", &AccessOptions{Tokens: keys, GuardHosts: true}, "Bearer token-9"},
		{"oauth-jwt", oa, jwt},
	} {
		b.Run(c.name, func(b *testing.B) {
			srv := New(builtinRegistry(), Options{Access: c.access})
			body := `{"tool":"gcd_lcm","args":{"a":391,"b":299}}`
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/invoke", strings.NewReader(body))
				req.Host = "127.0.0.1:8003"
				if c.auth != "" {
					req.Header.Set("Authorization", c.auth)
				}
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code, rec.Body.String())
				}
			}
		})
	}
}

// BenchmarkMCPAccess: a small MCP tools/call (stateless Streamable HTTP)
// with no access control and with a bearer token checked against a file of
// 10 tokens — the MCP side of BenchmarkInvokeAccess.
func BenchmarkMCPAccess(b *testing.B) {
	keys := benchTokens(b)
	oa, jwt := benchOAuth(b, keys)
	for _, c := range []struct {
		name   string
		access *AccessOptions
		auth   string
	}{
		{"open", nil, ""},
		{"token", &AccessOptions{Tokens: keys, GuardHosts: true}, "Bearer token-9"},
		{"oauth-jwt", oa, jwt},
	} {
		b.Run(c.name, func(b *testing.B) {
			srv := New(builtinRegistry(), Options{Access: c.access, MCP: &mcpserver.Options{}})
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":391,"b":299}}}`
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
				req.Host = "127.0.0.1:8003"
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
				if c.auth != "" {
					req.Header.Set("Authorization", c.auth)
				}
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"result_hash"`) {
					b.Fatal(rec.Code, rec.Body.String())
				}
			}
		})
	}
}
