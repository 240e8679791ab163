package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
)

// The tokens of the access tests: alice may call anything, bob only gcd_*
// and hash_text, carol (rate 2/min) anything.
const (
	aliceToken = "alice-secret-token"
	bobToken   = "bob-secret-token"
	carolToken = "carol-secret-token"
	adminTok   = "admin-secret-token"
)

// accessEnv is the real HTTP surface (REST, MCP, plans, downloads) with API
// tokens, a frozen clock for rate limits and link expiry, on loopback.
type accessEnv struct {
	*mcpEnv
	keys    *access.Keyring
	signer  *access.Signer
	metrics *Metrics
	now     atomic.Int64 // unix seconds of the frozen clock
	path    string       // the tokens file
}

func newAccessEnv(t *testing.T, mutate func(*AccessOptions)) *accessEnv {
	t.Helper()
	e := &accessEnv{path: filepath.Join(t.TempDir(), "tokens.json")}
	e.now.Store(1_900_000_000)
	clock := func() time.Time { return time.Unix(e.now.Load(), 0) }
	e.writeTokens(t, `{"tokens":[
		{"name":"alice","sha256":"`+access.Hash(aliceToken)+`"},
		{"name":"bob","sha256":"`+access.Hash(bobToken)+`","tools":["gcd_*","hash_text"]},
		{"name":"carol","sha256":"`+access.Hash(carolToken)+`","rate_per_minute":2}]}`)
	keys, err := access.Open(e.path)
	if err != nil {
		t.Fatal(err)
	}
	keys.Limiter().SetClock(clock)
	signer, err := access.NewSigner([]byte("test signing key, 32 bytes long!"))
	if err != nil {
		t.Fatal(err)
	}
	signer.SetClock(clock)
	e.keys, e.signer = keys, signer
	e.metrics = NewMetrics(MetricsOptions{Version: "test"})
	ao := &AccessOptions{Tokens: keys, Signer: signer, LinkTTL: time.Hour}
	if mutate != nil {
		mutate(ao)
	}
	// The plan service runs over a registry of its own (the tools without a
	// file store): enough for the scope checks of plan runs.
	planReg := builtinRegistry()
	svc := plans.NewService(planReg, plans.NewMemoryStore(0), plans.Options{ErrorBody: surface.PlanErrorBody(nil)})
	e.mcpEnv = newMCPEnv(t, mcpserver.Options{}, Options{Access: ao, Metrics: e.metrics, Plans: svc, AdminToken: adminTok,
		JWKS: func() []byte { return []byte(`{"keys":[]}`) }})
	return e
}

func (e *accessEnv) writeTokens(t *testing.T, doc string) {
	t.Helper()
	if err := os.WriteFile(e.path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
}

func bearer(tok string) map[string]string {
	if tok == "" {
		return nil
	}
	return map[string]string{"Authorization": "Bearer " + tok}
}

func (e *accessEnv) do(t *testing.T, method, path, tok string, body string) testhttp.Response {
	t.Helper()
	h := bearer(tok)
	if h == nil {
		h = map[string]string{}
	}
	if body != "" {
		h["Content-Type"] = "application/json"
	}
	return testhttp.Do(t, method, e.ts.URL+path, h, []byte(body))
}

// TestAccessEverySurface: without a token or with a wrong one, every tool
// surface answers 401 with WWW-Authenticate: Bearer; with a valid token it
// answers as before; /health, /metrics and the admin routes stay outside.
func TestAccessEverySurface(t *testing.T) {
	e := newAccessEnv(t, nil)
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	gcd := `{"tool":"gcd_lcm","args":{"a":12,"b":18}}`
	surfaces := []struct{ method, path, body string }{
		{"POST", "/invoke", gcd},
		{"POST", "/v1/invoke", gcd},
		{"GET", "/tools", ""},
		{"GET", "/tools/gcd_lcm", ""},
		{"GET", "/openapi.json", ""},
		{"GET", "/v1/catalog", ""},
		{"POST", "/v1/describe", `{"tools":["gcd_lcm"]}`},
		{"POST", "/v1/plans", `{"plan":` + citiesPlan + `}`},
		{"POST", "/v1/plans/run", `{"plan":` + citiesPlan + `,"params":{"city":"Asia/Tokyo"}}`},
		{"POST", "/mcp", ping},
		{"POST", "/mcp/compact", ping},
		{"POST", "/mcp/sse?sessionid=x", ping},
		{"GET", "/no/such/route", ""},
		{"GET", "/tools/gcd_lcm%2Ftoggle", ""}, // an escaped slash must not look like the admin toggle route
	}
	for _, s := range surfaces {
		for _, tok := range []string{"", "wrong-token"} {
			r := e.do(t, s.method, s.path, tok, s.body)
			if r.Status != http.StatusUnauthorized || !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") ||
				r.JSON(t)["error_code"] != surface.CodeUnauthorized {
				t.Errorf("%s %s token %q: %d %v %s", s.method, s.path, tok, r.Status, r.Header, r.Body)
			}
		}
		// A scheme other than Bearer is no token either.
		r := testhttp.Do(t, s.method, e.ts.URL+s.path, map[string]string{"Authorization": "Basic " + aliceToken}, []byte(s.body))
		if r.Status != http.StatusUnauthorized {
			t.Errorf("%s %s with Basic: %d", s.method, s.path, r.Status)
		}
	}
	for _, s := range surfaces[:11] {
		hdr := bearer(aliceToken)
		hdr["Content-Type"] = "application/json"
		hdr["Accept"] = "application/json, text/event-stream"
		if r := testhttp.Do(t, s.method, e.ts.URL+s.path, hdr, []byte(s.body)); r.Status != http.StatusOK {
			t.Errorf("%s %s with alice's token: %d %s", s.method, s.path, r.Status, r.Body)
		}
	}
	// The SSE stream opens with a token (and only with one).
	if r := e.do(t, "GET", "/mcp/sse", "", ""); r.Status != http.StatusUnauthorized {
		t.Errorf("GET /mcp/sse without a token: %d", r.Status)
	}
	for _, open := range []string{"/health", "/ready", "/metrics", JWKSPath} {
		if r := e.do(t, "GET", open, "", ""); r.Status != http.StatusOK {
			t.Errorf("%s without a token: %d", open, r.Status)
		}
	}
	// The admin routes keep their own token, which API tokens are not; the
	// admin token is admitted on the tool routes (the admin page calls them).
	if r := e.do(t, "PUT", "/admin/tools/gcd_lcm", aliceToken, `{"enabled":true}`); r.Status != http.StatusUnauthorized {
		t.Errorf("admin route with an API token: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "PUT", "/admin/tools/gcd_lcm", adminTok, `{"enabled":true}`); r.Status != http.StatusOK {
		t.Errorf("admin route with the admin token: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/invoke", adminTok, gcd); r.Status != http.StatusOK || r.JSON(t)["error_code"] != nil {
		t.Errorf("/invoke with the admin token: %d %s", r.Status, r.Body)
	}
	if list, err := e.connectAs(t, "streamable", "/mcp", adminTok).ListTools(ctxT(t), nil); err != nil || len(list.Tools) != len(e.reg.Names()) {
		t.Errorf("MCP with the admin token: %v", err)
	}
	// Refusals are counted, by code and token name, and per route.
	if n := metricValue(t, e.metrics, "precisiond_access_refusals_total", map[string]string{"code": surface.CodeUnauthorized, "token": ""}); n < float64(3*len(surfaces)) {
		t.Errorf("unauthorized refusals counted: %v", n)
	}
	if n := metricValue(t, e.metrics, "precisiond_http_requests_total", map[string]string{"route": "/tools", "code": "401"}); n != 3 {
		t.Errorf(`precisiond_http_requests_total{route="/tools",code="401"} = %v, want 3`, n)
	}
	if n := metricValue(t, e.metrics, "precisiond_http_requests_total", map[string]string{"route": "/health", "code": "200"}); n != 1 {
		t.Errorf(`precisiond_http_requests_total{route="/health",code="200"} = %v, want 1`, n)
	}

	// --metrics-auth puts /metrics behind the tokens.
	m := newAccessEnv(t, func(o *AccessOptions) { o.MetricsNeedToken = true })
	if r := m.do(t, "GET", "/metrics", "", ""); r.Status != http.StatusUnauthorized {
		t.Errorf("/metrics with MetricsNeedToken, no token: %d", r.Status)
	}
	if r := m.do(t, "GET", "/metrics", aliceToken, ""); r.Status != http.StatusOK ||
		!bytes.Contains(r.Body, []byte(`precisiond_access_refusals_total{code="unauthorized",token=""} 1`)) {
		t.Errorf("/metrics with a token: %d", r.Status)
	}
}

// TestAccessScope: bob's token covers gcd_* and hash_text only. /invoke
// answers the legacy 200 body with error_code forbidden, /v1/invoke 403, a
// plan with a step outside the scope 403; MCP lists only bob's tools and
// answers a call outside them with a forbidden tool error.
func TestAccessScope(t *testing.T) {
	e := newAccessEnv(t, nil)
	call := `{"tool":"base64_codec","args":{"text":"x"}}`
	r := e.do(t, "POST", "/invoke", bobToken, call)
	if b := r.JSON(t); r.Status != 200 || b["error_code"] != surface.CodeForbidden || b["tool"] != "base64_codec" {
		t.Errorf("/invoke outside scope: %d %s", r.Status, r.Body)
	}
	r = e.do(t, "POST", "/v1/invoke", bobToken, call)
	if r.Status != http.StatusForbidden || r.JSON(t)["error_code"] != surface.CodeForbidden {
		t.Errorf("/v1/invoke outside scope: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/v1/invoke", bobToken, `{"tool":"gcd_lcm","args":{"a":4,"b":6}}`); r.Status != 200 {
		t.Errorf("/v1/invoke inside scope: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/v1/invoke", aliceToken, call); r.Status != 200 {
		t.Errorf("alice (no scope): %d %s", r.Status, r.Body)
	}
	r = e.do(t, "POST", "/v1/plans/run", bobToken, `{"plan":`+citiesPlan+`,"params":{"city":"Asia/Tokyo"}}`)
	if r.Status != http.StatusForbidden || r.JSON(t)["error_code"] != surface.CodeForbidden {
		t.Errorf("plan outside scope: %d %s", r.Status, r.Body)
	}
	reg := e.do(t, "POST", "/v1/plans", aliceToken, `{"plan":`+citiesPlan+`}`)
	id, _ := reg.JSON(t)["plan_id"].(string)
	if reg.Status != 200 || id == "" {
		t.Fatalf("register: %d %s", reg.Status, reg.Body)
	}
	r = e.do(t, "POST", "/v1/plans/"+id+"/run", bobToken, `{"params":{"city":"Asia/Tokyo"}}`)
	if r.Status != http.StatusForbidden || r.JSON(t)["error_code"] != surface.CodeForbidden {
		t.Errorf("stored plan outside scope: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/v1/plans/"+id+"/run", aliceToken, `{"params":{"city":"Asia/Tokyo"}}`); r.Status != 200 {
		t.Errorf("stored plan, alice: %d %s", r.Status, r.Body)
	}
	if n := metricValue(t, e.metrics, "precisiond_access_refusals_total", map[string]string{"code": surface.CodeForbidden, "token": "bob"}); n != 4 {
		t.Errorf("forbidden refusals of bob: %v, want 3", n)
	}

	for _, kind := range []string{"streamable", "sse"} {
		cs := e.connectAs(t, kind, "/mcp", bobToken)
		ctx := ctxT(t)
		names := testhttp.MCPToolNames(t, ctx, cs)
		if strings.Join(names, ",") != "gcd_lcm,hash_text" {
			t.Errorf("%s: bob's tools/list %v", kind, names)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "base64_codec", Arguments: map[string]any{"text": "x"}})
		if err != nil || !res.IsError || !strings.Contains(testhttp.MCPText(t, res), `"error_code":"forbidden"`) {
			t.Errorf("%s: call outside scope: %v %+v", kind, err, res)
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 4, "b": 6}})
		if err != nil || res.IsError {
			t.Errorf("%s: call inside scope: %v %+v", kind, err, res)
		}
		all, err := e.connectAs(t, kind, "/mcp", aliceToken).ListTools(ctx, nil)
		if err != nil || len(all.Tools) != len(e.reg.Names()) {
			t.Errorf("%s: alice lists %d tools, want %d (%v)", kind, len(all.Tools), len(e.reg.Names()), err)
		}
	}
	// The compact surface: run_plan with a step outside bob's scope.
	cs := e.connectAs(t, "streamable", "/mcp/compact", bobToken)
	var plan map[string]any
	if err := json.Unmarshal([]byte(citiesPlan), &plan); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "run_plan", Arguments: map[string]any{"plan": plan, "params": map[string]any{"city": "Asia/Tokyo"}}})
	if err != nil || !res.IsError || !strings.Contains(testhttp.MCPText(t, res), `"error_code":"forbidden"`) {
		t.Errorf("compact run_plan outside scope: %v %+v", err, res)
	}
}

// TestAccessRateLimit: carol has 2 requests a minute. With the clock frozen,
// the third request of a burst gets 429 rate_limited with Retry-After 30, on
// REST and on MCP alike; 30 s later one more passes.
func TestAccessRateLimit(t *testing.T) {
	e := newAccessEnv(t, nil)
	for i := range 2 {
		if r := e.do(t, "GET", "/tools", carolToken, ""); r.Status != 200 {
			t.Fatalf("request %d: %d", i+1, r.Status)
		}
	}
	r := e.do(t, "POST", "/invoke", carolToken, `{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "30" || r.JSON(t)["error_code"] != surface.CodeRateLimited {
		t.Fatalf("third request: %d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
	hdr := bearer(carolToken)
	hdr["Content-Type"] = "application/json"
	hdr["Accept"] = "application/json, text/event-stream"
	if r := testhttp.Do(t, "POST", e.ts.URL+"/mcp", hdr, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("MCP past the budget: %d %s", r.Status, r.Body)
	}
	// Other tokens are not affected.
	if r := e.do(t, "GET", "/tools", aliceToken, ""); r.Status != 200 {
		t.Fatalf("alice: %d", r.Status)
	}
	e.now.Add(30)
	if r := e.do(t, "GET", "/tools", carolToken, ""); r.Status != 200 {
		t.Fatalf("after 30 s: %d", r.Status)
	}
	if r := e.do(t, "GET", "/tools", carolToken, ""); r.Status != http.StatusTooManyRequests {
		t.Fatalf("the refilled request was spent: %d", r.Status)
	}
	if n := metricValue(t, e.metrics, "precisiond_access_refusals_total", map[string]string{"code": surface.CodeRateLimited, "token": "carol"}); n != 3 {
		t.Errorf("rate_limited refusals of carol: %v, want 3", n)
	}
	if n := metricValue(t, e.metrics, "precisiond_http_requests_total", map[string]string{"route": "/invoke", "code": "429"}); n != 1 {
		t.Errorf(`precisiond_http_requests_total{route="/invoke",code="429"} = %v`, n)
	}
}

// TestAccessReload: a tokens file change takes effect at Reload; a broken
// file keeps the tokens in force.
func TestAccessReload(t *testing.T) {
	e := newAccessEnv(t, nil)
	e.writeTokens(t, `{"tokens":[{"name":"dave","sha256":"`+access.Hash("dave-token")+`"}]}`)
	if _, err := e.keys.Reload(); err != nil {
		t.Fatal(err)
	}
	if r := e.do(t, "GET", "/tools", aliceToken, ""); r.Status != http.StatusUnauthorized {
		t.Errorf("a removed token: %d", r.Status)
	}
	if r := e.do(t, "GET", "/tools", "dave-token", ""); r.Status != 200 {
		t.Errorf("a new token: %d", r.Status)
	}
	e.writeTokens(t, `{"tokens":[`)
	if _, err := e.keys.Reload(); err == nil {
		t.Fatal("a broken file reloaded")
	}
	if r := e.do(t, "GET", "/tools", "dave-token", ""); r.Status != 200 {
		t.Errorf("after a broken file: %d", r.Status)
	}
}

// TestAccessDownloads: a generated file's signed link works without any
// header (a browser), a tampered or expired one gets 403; a bearer download
// needs the token that generated it; MCP resources are scoped the same way.
func TestAccessDownloads(t *testing.T) {
	e := newAccessEnv(t, nil)
	r := e.do(t, "POST", "/v1/invoke", aliceToken, `{"tool":"generate_file","args":{"content":"# Hi\n","filename":"note","format":"md"}}`)
	link := r.Header.Get("X-Download-Url")
	if r.Status != 200 || !strings.HasPrefix(link, "/downloads/") || !strings.Contains(link, "?exp=") || !strings.Contains(link, "&sig=") {
		t.Fatalf("generate_file: %d X-Download-Url %q %s", r.Status, link, r.Body)
	}
	// The legacy text people are shown ends with the same signed link, on
	// both routes; the envelope keeps the plain path.
	body := r.JSON(t)
	if text, _ := body["result"].(string); !strings.HasSuffix(text, "\nDownload: "+link) {
		t.Errorf("result text %q does not end with the signed link %q", text, link)
	}
	if dp := body["structured_result"].(map[string]any)["facts"].(map[string]any)["download_path"]; strings.Contains(fmt.Sprint(dp), "?") {
		t.Errorf("download_path fact %v carries a query", dp)
	}
	u, _ := url.Parse(link)
	name := strings.TrimPrefix(u.Path, "/downloads/")
	want, _, err := e.store.ReadFile(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	// A browser: no Authorization, no cookies.
	got := testhttp.Do(t, "GET", e.ts.URL+link, map[string]string{"Accept": "text/html,*/*"}, nil)
	if got.Status != 200 || !bytes.Equal(got.Body, want) || !strings.HasPrefix(got.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("signed link: %d %q", got.Status, got.Body)
	}
	q := u.Query()
	sig := []byte(q.Get("sig"))
	sig[0] ^= 2
	exp := q.Get("exp")
	for what, bad := range map[string]string{
		"tampered signature": u.Path + "?exp=" + exp + "&sig=" + string(sig),
		"extended expiry":    u.Path + "?exp=" + exp + "0&sig=" + q.Get("sig"),
		"missing signature":  u.Path + "?exp=" + exp,
	} {
		if r := e.do(t, "GET", bad, "", ""); r.Status != http.StatusForbidden || r.JSON(t)["error_code"] != surface.CodeForbidden {
			t.Errorf("%s: %d %s", what, r.Status, r.Body)
		}
	}
	if r := e.do(t, "GET", u.Path, "", ""); r.Status != http.StatusUnauthorized {
		t.Errorf("no signature, no token: %d", r.Status)
	}
	if r := e.do(t, "GET", u.Path, aliceToken, ""); r.Status != 200 || !bytes.Equal(r.Body, want) {
		t.Errorf("alice's bearer download: %d", r.Status)
	}
	if r := e.do(t, "GET", u.Path, bobToken, ""); r.Status != http.StatusForbidden {
		t.Errorf("bob's bearer download of alice's file: %d", r.Status)
	}

	// MCP: a file generated over SSE is listed and readable by its token
	// only; its resource link carries a signed download path.
	alice := e.connectAs(t, "sse", "/mcp", aliceToken)
	ctx := ctxT(t)
	res, err := alice.CallTool(ctx, &mcp.CallToolParams{Name: "generate_file", Arguments: map[string]any{"content": "# Table\n\nText.\n", "filename": "table", "format": "md"}})
	if err != nil || res.IsError {
		t.Fatalf("generate_file over MCP: %v %+v", err, res)
	}
	var rl *mcp.ResourceLink
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok {
			rl = l
		}
	}
	if rl == nil {
		t.Fatalf("no resource link in %+v", res)
	}
	dl, _ := rl.Meta["precisiond/download_url"].(string)
	if !strings.HasPrefix(dl, "/downloads/"+rl.Name+"?exp=") {
		t.Fatalf("resource link %+v", rl)
	}
	mcpFile, _, err := e.store.ReadFile(context.Background(), rl.Name)
	if err != nil {
		t.Fatal(err)
	}
	if r := e.do(t, "GET", dl, "", ""); r.Status != 200 || !bytes.Equal(r.Body, mcpFile) {
		t.Errorf("the MCP link's signed path: %d %q", r.Status, r.Body)
	}
	listed := func(cs *mcp.ClientSession) string {
		lr, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range lr.Resources {
			out = append(out, r.Name)
		}
		return strings.Join(out, ",")
	}
	mine := []string{name, rl.Name}
	slices.Sort(mine)
	if got := listed(alice); got != strings.Join(mine, ",") {
		t.Errorf("alice's resources %s, want %v", got, mine)
	}
	bob := e.connectAs(t, "streamable", "/mcp", bobToken)
	if got := listed(bob); got != "" {
		t.Errorf("bob's resources %s, want none", got)
	}
	if _, err := bob.ReadResource(ctx, &mcp.ReadResourceParams{URI: rl.URI}); err == nil {
		t.Error("bob read alice's file")
	}
	if rr, err := alice.ReadResource(ctx, &mcp.ReadResourceParams{URI: rl.URI}); err != nil || rr.Contents[0].Text != string(mcpFile) {
		t.Errorf("alice reading her file: %v", err)
	}

	// /invoke's text carries the signature as /v1/invoke's does.
	legacy := e.do(t, "POST", "/invoke", carolToken, `{"tool":"generate_file","args":{"content":"# Hi\n","filename":"legacy","format":"md"}}`)
	if text, _ := legacy.JSON(t)["result"].(string); legacy.Header.Get("X-Download-Url") == "" || !strings.HasSuffix(text, "\nDownload: "+legacy.Header.Get("X-Download-Url")) {
		t.Errorf("/invoke result text %q, X-Download-Url %q", text, legacy.Header.Get("X-Download-Url"))
	}

	// The link expires with the signer's clock.
	e.now.Add(3601)
	if r := e.do(t, "GET", link, "", ""); r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), "expired") {
		t.Errorf("expired link: %d %s", r.Status, r.Body)
	}
}

// TestAccessSSESessionBelongsToItsToken: a POST to an SSE session with
// another valid token is refused.
func TestAccessSSESessionBelongsToItsToken(t *testing.T) {
	e := newAccessEnv(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.ts.URL+"/mcp/sse", nil)
	req.Header.Set("Authorization", "Bearer "+aliceToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	endpoint := ""
	for endpoint == "" && sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			endpoint = d
		}
	}
	if !strings.Contains(endpoint, "sessionid=") {
		t.Fatalf("no endpoint event (status %d)", resp.StatusCode)
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if r := e.do(t, "POST", endpoint, bobToken, init); r.Status != http.StatusForbidden {
		t.Errorf("bob posting to alice's session: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", endpoint, aliceToken, init); r.Status != http.StatusAccepted {
		t.Errorf("alice posting to her session: %d %s", r.Status, r.Body)
	}
}

// TestAccessHostGuardAndCORS: bound to loopback, every route refuses a
// foreign Host or Origin; CORS is off unless configured, and then answers
// preflights and names the allowed origin.
func TestAccessHostGuardAndCORS(t *testing.T) {
	e := newAccessEnv(t, func(o *AccessOptions) {
		o.Tokens, o.GuardHosts, o.CORSOrigins = nil, true, []string{"https://app.example"}
	})
	for _, path := range []string{"/health", "/tools", "/openapi.json", "/metrics"} {
		if r := testhttp.Do(t, "GET", e.ts.URL+path, map[string]string{"Host": "evil.example"}, nil); r.Status != http.StatusForbidden {
			t.Errorf("%s with a foreign Host: %d", path, r.Status)
		}
		if r := testhttp.Do(t, "GET", e.ts.URL+path, map[string]string{"Origin": "http://evil.example"}, nil); r.Status != http.StatusForbidden {
			t.Errorf("%s with a foreign Origin: %d", path, r.Status)
		}
		if r := testhttp.Do(t, "GET", e.ts.URL+path, map[string]string{"Origin": "http://localhost:3000"}, nil); r.Status != 200 ||
			r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s from a loopback origin: %d, ACAO %q", path, r.Status, r.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	r := testhttp.PostJSON(t, e.ts.URL+"/invoke", []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`))
	if r.Status != 200 {
		t.Errorf("/invoke from loopback: %d", r.Status)
	}
	hdr := map[string]string{"Host": "127.0.0.1.evil.example", "Content-Type": "application/json"}
	if r := testhttp.Do(t, "POST", e.ts.URL+"/invoke", hdr, []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)); r.Status != http.StatusForbidden {
		t.Errorf("/invoke through DNS rebinding: %d", r.Status)
	}
	// The configured origin: CORS headers and a preflight.
	r = testhttp.Do(t, "OPTIONS", e.ts.URL+"/v1/invoke", map[string]string{"Origin": "https://app.example",
		"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"}, nil)
	if r.Status != http.StatusNoContent || r.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		!strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("preflight: %d %v", r.Status, r.Header)
	}
	r = testhttp.Do(t, "GET", e.ts.URL+"/tools", map[string]string{"Origin": "https://app.example"}, nil)
	if r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		!strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "X-Download-Url") {
		t.Errorf("CORS GET: %d %v", r.Status, r.Header)
	}
	// An unlisted origin gets no CORS headers (and, bound to loopback, 403).
	r = testhttp.Do(t, "OPTIONS", e.ts.URL+"/v1/invoke", map[string]string{"Origin": "https://other.example", "Access-Control-Request-Method": "POST"}, nil)
	if r.Header.Get("Access-Control-Allow-Origin") != "" || r.Status == http.StatusNoContent {
		t.Errorf("preflight from an unlisted origin: %d %v", r.Status, r.Header)
	}
	// Without GuardHosts (a public listener) a foreign Host passes, CORS stays off.
	open := newAccessEnv(t, func(o *AccessOptions) { o.Tokens = nil })
	if r := testhttp.Do(t, "GET", open.ts.URL+"/tools", map[string]string{"Host": "api.example", "Origin": "https://app.example"}, nil); r.Status != 200 ||
		r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no guard, no CORS: %d %v", r.Status, r.Header)
	}
}

// connectAs opens a go-sdk client session on path ("/mcp", "/mcp/compact";
// kind "sse" uses /mcp/sse) sending Authorization: Bearer tok.
func (e *accessEnv) connectAs(t *testing.T, kind, path, tok string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: bearerTransport{tok}}
	var tr mcp.Transport
	if kind == "sse" {
		tr = &mcp.SSEClientTransport{Endpoint: e.ts.URL + "/mcp/sse", HTTPClient: hc}
	} else {
		tr = &mcp.StreamableClientTransport{Endpoint: e.ts.URL + path, MaxRetries: -1, HTTPClient: hc}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "access-test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("%s %s: connect: %v", kind, path, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type bearerTransport struct{ tok string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.tok)
	return http.DefaultTransport.RoundTrip(r)
}
