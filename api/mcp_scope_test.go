package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// The 403 challenges below are written from the MCP authorization spec
// (2026-07-28, "Runtime Insufficient Scope Errors"): error, the scopes the
// operation needs, resource_metadata as on the endpoint's 401, and an
// error_description.
func wantScopeChallenge(scope, path string) string {
	return `Bearer error="insufficient_scope", scope="` + scope + `", resource_metadata="` + oauthBase +
		`/.well-known/oauth-protected-resource` + path + `", error_description="the access token lacks the scope of this call"`
}

// mcpPost posts one JSON-RPC message to an MCP endpoint as a Streamable HTTP
// client does.
func (e *accessEnv) mcpPost(t *testing.T, path, tok, body string) testhttp.Response {
	t.Helper()
	h := bearer(tok)
	h["Content-Type"] = "application/json"
	h["Accept"] = "application/json, text/event-stream"
	return testhttp.Do(t, "POST", e.ts.URL+path, h, []byte(body))
}

// TestOAuthMCPInsufficientScope: on the HTTP transports a tools/call outside
// an OAuth token's scope is 403 with the scope challenge; inside the scope,
// and for an API token's scope (nothing to step up to), the answers stay
// what they were.
func TestOAuthMCPInsufficientScope(t *testing.T) {
	e, is := newOAuthEnv(t)
	gcd := jwtFor(t, is, "precisiond:tool:gcd_lcm")
	hashCall := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hash_text","arguments":{"text":"x"}}}`
	// The same call with _meta, which the fast path leaves to the SDK.
	hashCallSDK := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hash_text","arguments":{"text":"x"},"_meta":{"k":1}}}`
	for _, body := range []string{hashCall, hashCallSDK} {
		before := e.srv.mcp.FastServed()
		r := e.mcpPost(t, "/mcp", gcd, body)
		if got := r.Header.Get("WWW-Authenticate"); r.Status != http.StatusForbidden || got != wantScopeChallenge("precisiond:tool:hash_text", "/mcp") {
			t.Fatalf("/mcp %s: %d %q %s", body, r.Status, got, r.Body)
		}
		// The body is still the JSON-RPC answer: the forbidden tool error.
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				IsError           bool           `json:"isError"`
				StructuredContent map[string]any `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(r.Body, &msg); err != nil || msg.ID != 7 || !msg.Result.IsError ||
			msg.Result.StructuredContent["error_code"] != surface.CodeForbidden || msg.Result.StructuredContent["reason"] != "insufficient_scope" {
			t.Fatalf("/mcp %s: body %s (%v)", body, r.Body, err)
		}
		fast := e.srv.mcp.FastServed() > before
		if fast != (body == hashCall) {
			t.Fatalf("%s: fast path %v", body, fast)
		}
	}
	// A body over the limit, sent without a length (the admission check
	// cannot refuse it first), gets the answer it gets without the scope
	// check.
	big := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}},"pad":"` + strings.Repeat("x", 2<<20) + `"}`
	for _, tok := range []string{gcd, aliceToken} {
		req, _ := http.NewRequest("POST", e.ts.URL+"/mcp", io.MultiReader(strings.NewReader(big)))
		for k, v := range bearer(tok) {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "request body exceeds") {
			t.Fatalf("an oversized body, token %s: %d %s", tok[:5], resp.StatusCode, b)
		}
	}
	// Inside the scope: 200, no challenge.
	r := e.mcpPost(t, "/mcp", gcd, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}}}`)
	if r.Status != 200 || r.Header.Get("WWW-Authenticate") != "" || strings.Contains(string(r.Body), `"isError":true`) {
		t.Fatalf("call inside the scope: %d %v %s", r.Status, r.Header, r.Body)
	}
	// An API token scoped to gcd_* and hash_text (bob) keeps the tool error
	// with 200.
	r = e.mcpPost(t, "/mcp", bobToken, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"base64_codec","arguments":{"text":"x","mode":"encode"}}}`)
	if r.Status != 200 || r.Header.Get("WWW-Authenticate") != "" || !strings.Contains(string(r.Body), `"error_code":"forbidden"`) {
		t.Fatalf("API token outside its scope: %d %v %s", r.Status, r.Header, r.Body)
	}

	// The compact surface: a plan's steps outside the scope, all of them in
	// one challenge.
	plan := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"run_plan","arguments":{"plan":` + citiesPlan + `,"params":{"city":"Asia/Tokyo"}}}}`
	r = e.mcpPost(t, "/mcp/compact", gcd, plan)
	if got := r.Header.Get("WWW-Authenticate"); r.Status != http.StatusForbidden ||
		got != wantScopeChallenge("precisiond:tool:timezone_convert precisiond:tool:time_facts", "/mcp/compact") {
		t.Fatalf("/mcp/compact run_plan: %d %q %s", r.Status, got, r.Body)
	}
	one := jwtFor(t, is, "precisiond:tool:timezone_convert")
	r = e.mcpPost(t, "/mcp/compact", one, plan)
	if got := r.Header.Get("WWW-Authenticate"); r.Status != http.StatusForbidden || got != wantScopeChallenge("precisiond:tool:time_facts", "/mcp/compact") {
		t.Fatalf("/mcp/compact run_plan, one step in scope: %d %q %s", r.Status, got, r.Body)
	}
	both := jwtFor(t, is, "precisiond:tool:timezone_convert precisiond:tool:time_facts")
	if r := e.mcpPost(t, "/mcp/compact", both, plan); r.Status != 200 || strings.Contains(string(r.Body), `"isError":true`) {
		t.Fatalf("/mcp/compact run_plan in scope: %d %s", r.Status, r.Body)
	}

	// A real client over Streamable HTTP sees the 403 as a failed call.
	rec := &recordingTransport{tok: gcd}
	cs := e.connectWith(t, &mcp.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp", MaxRetries: -1, HTTPClient: &http.Client{Transport: rec}})
	if _, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "hash_text", Arguments: map[string]any{"text": "x"}}); err == nil {
		t.Fatal("streamable client: the call outside the scope succeeded")
	}
	if got := rec.last(); got != wantScopeChallenge("precisiond:tool:hash_text", "/mcp") {
		t.Fatalf("streamable client: challenge %q", got)
	}

	// Legacy SSE: the POST that carries the call is refused before the
	// session sees it (the go-sdk client then closes its session); a call in
	// the scope passes.
	rec = &recordingTransport{tok: gcd}
	sse := e.connectWith(t, &mcp.SSEClientTransport{Endpoint: e.ts.URL + "/mcp/sse", HTTPClient: &http.Client{Transport: rec}})
	if _, err := sse.CallTool(ctxT(t), &mcp.CallToolParams{Name: "hash_text", Arguments: map[string]any{"text": "x"}}); err == nil {
		t.Fatal("SSE client: the call outside the scope succeeded")
	}
	if got := rec.last(); got != wantScopeChallenge("precisiond:tool:hash_text", "/mcp") {
		t.Fatalf("SSE: challenge %q", got)
	}
	sse = e.connectAs(t, "sse", "", gcd)
	if res, err := sse.CallTool(ctxT(t), &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 4, "b": 6}}); err != nil || res.IsError {
		t.Fatalf("SSE call inside the scope: %v %+v", err, res)
	}
	if n := metricValue(t, e.metrics, "precisiond_access_refusals_total", map[string]string{"code": surface.CodeForbidden, "token": "oauth:alice"}); n < 5 {
		t.Errorf("refusals counted: %v, want ≥ 5", n)
	}
}

// recordingTransport sends a bearer token and keeps the last 403 challenge.
type recordingTransport struct {
	tok       string
	mu        sync.Mutex
	challenge string
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+rt.tok)
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusForbidden {
		rt.mu.Lock()
		rt.challenge = resp.Header.Get("WWW-Authenticate")
		rt.mu.Unlock()
	}
	return resp, err
}

func (rt *recordingTransport) last() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.challenge
}

func (e *accessEnv) connectWith(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "scope-test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// FuzzScopeChallenge: whatever the scopes (tool names come from clients),
// the 403 challenge reads back as error, scope (whole scopes from the
// start of the list, within maxChallengeArg bytes), resource_metadata and
// error_description.
func FuzzScopeChallenge(f *testing.F) {
	f.Add("precisiond:tool:gcd_lcm", "precisiond:tool:hash_text", "/mcp")
	f.Add(`precisiond:tool:a"b\c`, strings.Repeat("x", 600), "/mcp/compact")
	f.Fuzz(func(t *testing.T, a, b, path string) {
		o := &OAuthOptions{MetadataBase: oauthBase}
		var scopes []string
		for _, s := range []string{a, b} {
			// Scopes as authorizeTool builds them: the prefix and a tool name
			// without spaces.
			scopes = append(scopes, ScopeToolPrefix+strings.Join(strings.Fields(s), "_"))
		}
		got := parseChallenge(t, o.scopeChallenge(path, scopes))
		if len(got) != 4 || got[0] != [2]string{"error", "insufficient_scope"} || got[2][0] != "resource_metadata" ||
			got[3][0] != "error_description" || got[1][0] != "scope" {
			t.Fatalf("challenge %q", got)
		}
		if got[2][1] != o.metadataURL(path) {
			t.Fatalf("resource_metadata %q, want %q", got[2][1], o.metadataURL(path))
		}
		joined := joinScopes(scopes)
		if len(joined) > maxChallengeArg && strings.Contains(joined, " ") {
			t.Fatalf("scope of %d bytes", len(joined))
		}
		if got[1][1] != visible(joined) {
			t.Fatalf("scope %q, want %q", got[1][1], visible(joined))
		}
		if joined != scopes[0] && joined != scopes[0]+" "+scopes[1] {
			t.Fatalf("scope %q is not a whole prefix of %q", joined, scopes)
		}
	})
}
