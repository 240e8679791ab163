package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/tools"
)

const adminToken = "correct horse battery staple"

// sleeperContract is a test tool that takes ms milliseconds and then succeeds:
// a slow but legitimate call for overload and drain tests.
const sleeperContract = `{
 "tool": "sleeper", "contract_version": "1.0.0", "title": "Sleeper",
 "description": "Sleeps ms milliseconds, then echoes ms; for API tests only.",
 "determinism": "input_only", "source_policy": {"kind": "test", "name": "test"},
 "access_kind": "read", "evidence_policy": {}, "limits": {"max_result_chars": 10000},
 "inputSchema": {"type": "object", "additionalProperties": false,
   "properties": {"ms": {"type": "integer", "minimum": 0, "maximum": 60000, "default": 0, "description": "milliseconds"}}},
 "outputSchema": {"type": "object", "additionalProperties": false, "required": ["ms"],
   "properties": {"ms": {"type": "integer", "description": "echo"}}},
 "examples": [{"title": "none", "args": {}, "facts": {"ms": 0}},
              {"title": "one", "args": {"ms": 1}, "facts": {"ms": 1}}]
}`

type sleeperTool struct{ c *contracts.Contract }

func (s sleeperTool) tool() tools.Tool { return tools.Tool{Contract: s.c, Execute: s.Execute} }

func (s sleeperTool) Execute(ctx context.Context, args map[string]any) (tools.Output, error) {
	n, _ := args["ms"].(json.Number).Int64()
	select {
	case <-time.After(time.Duration(n) * time.Millisecond):
	case <-ctx.Done():
		return tools.Output{}, ctx.Err()
	}
	return tools.Output{Facts: map[string]any{"ms": args["ms"]}, Text: fmt.Sprint(n), Warnings: []tools.Warning{}}, nil
}

func newSleeper(t *testing.T) tools.Tool {
	t.Helper()
	c, err := contracts.Parse([]byte(sleeperContract))
	if err != nil {
		t.Fatal(err)
	}
	return sleeperTool{c}.tool()
}

// newAdminServer serves the real built-in tools plus the sleeper.
func newAdminServer(t *testing.T, token string, mutate func(*Options)) (*httptest.Server, *tools.Registry, *syncBuf) {
	t.Helper()
	return newAdminServerWith(t, token, nil, mutate)
}

// newAdminServerWith is newAdminServer with a limiter.
func newAdminServerWith(t *testing.T, token string, limiter *tools.Limiter, mutate func(*Options)) (*httptest.Server, *tools.Registry, *syncBuf) {
	t.Helper()
	// A deadline far beyond any call here: the outcome must not depend on how
	// loaded the machine is.
	reg := tools.NewRegistry(append(tools.Builtin(tools.Deps{}), newSleeper(t)), tools.Options{Limiter: limiter, DefaultTimeout: 2 * time.Minute})
	logs := &syncBuf{}
	opts := Options{Logger: newBufLogger(logs), AdminToken: token}
	if mutate != nil {
		mutate(&opts)
	}
	ts := httptest.NewServer(New(reg, opts))
	t.Cleanup(ts.Close)
	return ts, reg, logs
}

func doReq(t *testing.T, method, url, auth, body string) (int, map[string]any, http.Header) {
	t.Helper()
	hdr := map[string]string{"Authorization": auth}
	if body != "" {
		hdr["Content-Type"] = "application/json"
	}
	r := testhttp.Do(t, method, url, hdr, []byte(body))
	return r.Status, r.JSON(t), r.Header
}

func TestAdminAuth(t *testing.T) {
	open, _, _ := newAdminServer(t, "", nil)
	guarded, _, _ := newAdminServer(t, adminToken, nil)
	bearer := "Bearer " + adminToken
	cases := []struct {
		name, method, path, auth, body string
		noToken                        bool
		status                         int
		code                           string
	}{
		{"no token configured: toggle", "POST", "/tools/gcd_lcm/toggle", bearer, "", true, 403, surface.CodeForbidden},
		{"no token configured: put", "PUT", "/admin/tools/gcd_lcm", bearer, `{"enabled":false}`, true, 403, surface.CodeForbidden},
		{"no token configured: session", "GET", "/admin/session", "", "", true, 403, surface.CodeForbidden},
		{"missing header", "POST", "/tools/gcd_lcm/toggle", "", "", false, 401, surface.CodeUnauthorized},
		{"wrong scheme", "POST", "/tools/gcd_lcm/toggle", "Basic " + adminToken, "", false, 401, surface.CodeUnauthorized},
		{"empty bearer", "POST", "/tools/gcd_lcm/toggle", "Bearer ", "", false, 401, surface.CodeUnauthorized},
		{"wrong token", "POST", "/tools/gcd_lcm/toggle", "Bearer nope", "", false, 401, surface.CodeUnauthorized},
		{"token prefix", "POST", "/tools/gcd_lcm/toggle", bearer[:len(bearer)-1], "", false, 401, surface.CodeUnauthorized},
		{"token plus suffix", "PUT", "/admin/tools/gcd_lcm", bearer + "x", `{"enabled":false}`, false, 401, surface.CodeUnauthorized},
		{"unknown tool toggle", "POST", "/tools/no_such_tool/toggle", bearer, "", false, 404, tools.CodeUnknownTool},
		{"unknown tool put", "PUT", "/admin/tools/no_such_tool", bearer, `{"enabled":true}`, false, 404, tools.CodeUnknownTool},
		{"put without enabled", "PUT", "/admin/tools/gcd_lcm", bearer, `{}`, false, 400, surface.CodeInvalidRequest},
		{"put with extra field", "PUT", "/admin/tools/gcd_lcm", bearer, `{"enabled":true,"x":1}`, false, 400, surface.CodeInvalidRequest},
		{"put non-bool", "PUT", "/admin/tools/gcd_lcm", bearer, `{"enabled":"no"}`, false, 400, surface.CodeInvalidRequest},
		{"toggle via GET", "GET", "/tools/gcd_lcm/toggle", bearer, "", false, 405, surface.CodeMethodNotAllow},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := guarded.URL
			if tc.noToken {
				base = open.URL
			}
			status, body, hdr := doReq(t, tc.method, base+tc.path, tc.auth, tc.body)
			if status != tc.status || body["error_code"] != tc.code {
				t.Fatalf("got %d %v, want %d %s", status, body, tc.status, tc.code)
			}
			if got := hdr.Get("WWW-Authenticate"); (status == 401) != strings.HasPrefix(got, "Bearer") {
				t.Fatalf("WWW-Authenticate = %q on status %d", got, status)
			}
		})
	}
}

func TestToggleAndPutTakeEffect(t *testing.T) {
	ts, reg, logs := newAdminServer(t, adminToken, nil)
	bearer := "Bearer " + adminToken
	call := func() map[string]any {
		_, body, _ := doReq(t, "POST", ts.URL+"/invoke", "", `{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)
		return body
	}
	hash0 := reg.CatalogHash()
	status, body, _ := doReq(t, "POST", ts.URL+"/tools/gcd_lcm/toggle", bearer, "")
	if status != 200 || body["ok"] != true || body["name"] != "gcd_lcm" || body["enabled"] != false || len(body) != 3 {
		t.Fatalf("toggle answered %d %v", status, body)
	}
	if got := call(); got["error_code"] != tools.CodeToolDisabled || got["reason"] != "disabled" {
		t.Fatalf("invoke after disable: %v", got)
	}
	if reg.CatalogHash() == hash0 {
		t.Fatal("catalog_hash did not change")
	}
	// PUT is idempotent and sets, not flips.
	for range 2 {
		status, body, _ = doReq(t, "PUT", ts.URL+"/admin/tools/gcd_lcm", bearer, `{"enabled":true}`)
		if status != 200 || body["enabled"] != true {
			t.Fatalf("put answered %d %v", status, body)
		}
	}
	if got := call(); got["structured_result"] == nil {
		t.Fatalf("invoke after enable: %v", got)
	}
	if reg.CatalogHash() != hash0 {
		t.Fatal("catalog_hash did not come back")
	}
	// One audit line per change (the second PUT changed nothing): who, what, before/after.
	var audits []map[string]any
	for _, line := range strings.Split(logs.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "audit" {
			audits = append(audits, m)
		}
	}
	if len(audits) != 2 {
		t.Fatalf("%d audit lines, want 2:\n%s", len(audits), logs.String())
	}
	want := []struct {
		action        string
		before, after bool
	}{{"toggle", true, false}, {"set", false, true}}
	for i, a := range audits {
		if a["action"] != want[i].action || a["tool"] != "gcd_lcm" || a["enabled_before"] != want[i].before || a["enabled_after"] != want[i].after ||
			a["token_id"] != TokenID(adminToken) || !strings.HasPrefix(a["remote_addr"].(string), "127.0.0.1:") {
			t.Errorf("audit line %d = %v", i, a)
		}
	}
	if len(TokenID(adminToken)) != 8 {
		t.Fatalf("TokenID %q is not 8 hex digits", TokenID(adminToken))
	}
	if strings.Contains(logs.String(), adminToken) {
		t.Fatal("the admin token appears in the logs")
	}
}

type failingToggler struct{}

func (failingToggler) Set(context.Context, string, bool) (bool, bool, error) {
	return true, true, fmt.Errorf("disk full")
}

func (failingToggler) Toggle(context.Context, string) (bool, bool, error) {
	return true, true, fmt.Errorf("disk full")
}

func TestToggleSaveFailureIsAnError(t *testing.T) {
	ts, _, _ := newAdminServer(t, adminToken, func(o *Options) { o.Toggles = failingToggler{} })
	status, body, _ := doReq(t, "PUT", ts.URL+"/admin/tools/gcd_lcm", "Bearer "+adminToken, `{"enabled":false}`)
	if status != 500 || body["error_code"] != tools.CodeInternal || strings.Contains(fmt.Sprint(body), "disk full") {
		t.Fatalf("got %d %v", status, body)
	}
	status, body, _ = doReq(t, "POST", ts.URL+"/tools/gcd_lcm/toggle", "Bearer "+adminToken, "")
	if status != 500 || body["error_code"] != tools.CodeInternal || strings.Contains(fmt.Sprint(body), "disk full") {
		t.Fatalf("toggle: got %d %v", status, body)
	}
}

// unavailableToggler fails as internal/toggles does when its store is down.
type unavailableToggler struct{}

func (unavailableToggler) Set(context.Context, string, bool) (bool, bool, error) {
	return true, true, tools.StoreUnavailable(tools.ReasonStoreNotAnswering, "the store holding the toggle state is not answering")
}

func (u unavailableToggler) Toggle(ctx context.Context, name string) (bool, bool, error) {
	return u.Set(ctx, name, false)
}

// TestToggleStoreUnavailable: a toggle the store cannot take is 503
// store_unavailable with Retry-After, and says nothing changed.
func TestToggleStoreUnavailable(t *testing.T) {
	ts, reg, _ := newAdminServer(t, adminToken, func(o *Options) { o.Toggles = unavailableToggler{} })
	for _, c := range []struct{ method, path, body string }{
		{"PUT", "/admin/tools/gcd_lcm", `{"enabled":false}`}, {"POST", "/tools/gcd_lcm/toggle", ""},
	} {
		status, body, h := doReq(t, c.method, ts.URL+c.path, "Bearer "+adminToken, c.body)
		if status != 503 || body["error_code"] != tools.CodeStoreUnavailable || body["reason"] != tools.ReasonStoreNotAnswering ||
			!strings.Contains(fmt.Sprint(body["error"]), "nothing changed") || h.Get("Retry-After") != "1" {
			t.Errorf("%s %s: %d %v", c.method, c.path, status, body)
		}
	}
	if !reg.Enabled("gcd_lcm") {
		t.Error("the registry changed although the store did not take the toggle")
	}
}

// TestConcurrentTogglesNeverTearTheCatalogue: 100 toggles race with invokes and
// catalogue reads; every /tools answer must hash to its own catalog_hash.
func TestConcurrentTogglesNeverTearTheCatalogue(t *testing.T) {
	ts, reg, _ := newAdminServer(t, adminToken, nil)
	names := reg.Names()
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	rounds := 100
	if testing.Short() {
		rounds = 25 // each round reads the whole catalogue; the full run races 100
	}
	for i := range rounds {
		wg.Add(3)
		go func() {
			defer wg.Done()
			name := names[i%5]
			path := "/tools/" + name + "/toggle"
			method, body := "POST", ""
			if i%2 == 1 {
				path, method, body = "/admin/tools/"+name, "PUT", fmt.Sprintf(`{"enabled":%v}`, i%4 == 1)
			}
			req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+adminToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs <- err
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				errs <- fmt.Errorf("%s %s: %d", method, path, resp.StatusCode)
			}
		}()
		go func() {
			defer wg.Done()
			resp, err := http.Post(ts.URL+"/invoke", "application/json", strings.NewReader(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`))
			if err != nil {
				errs <- err
				return
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var m map[string]any
			_ = json.Unmarshal(raw, &m)
			if m["structured_result"] == nil && m["error_code"] != tools.CodeToolDisabled {
				errs <- fmt.Errorf("invoke during toggles: %s", raw)
			}
		}()
		go func() {
			defer wg.Done()
			resp, err := http.Get(ts.URL + "/tools")
			if err != nil {
				errs <- err
				return
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err := checkCatalogHash(raw); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// The final state is consistent too.
	if err := checkCatalogHash(testhttp.Get(t, ts.URL+"/tools")); err != nil {
		t.Fatal(err)
	}
}

// checkCatalogHash recomputes H([{name, contract_hash, enabled}]) from a /tools body.
func checkCatalogHash(raw []byte) error {
	v, err := evidence.ParseJSON(raw)
	if err != nil {
		return err
	}
	doc := v.(map[string]any)
	var items []any
	for _, e := range doc["tools"].([]any) {
		m := e.(map[string]any)
		items = append(items, map[string]any{"name": m["name"], "contract_hash": m["contract_hash"], "enabled": m["enabled"]})
	}
	h, err := evidence.Hash(items)
	if err != nil {
		return err
	}
	if h != doc["catalog_hash"] {
		return fmt.Errorf("torn catalogue: catalog_hash %v, entries hash to %s", doc["catalog_hash"], h)
	}
	return nil
}

func TestAdminPage(t *testing.T) {
	ts, reg, _ := newAdminServer(t, adminToken, nil)
	reg.SetEnabled("hash_text", false)
	resp := testhttp.Do(t, http.MethodGet, ts.URL+"/admin", nil, nil)
	page := string(resp.Body)
	if resp.Status != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("status %d type %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("CSP allows unsafe sources: %q", csp)
	}
	// No inline script or style, no external asset.
	if strings.Count(page, "<script") != 1 || !strings.Contains(page, `<script src="/admin/static/admin.js" defer></script>`) ||
		strings.Contains(page, "style=") || strings.Contains(page, `src="http`) || strings.Contains(page, `href="http`) || strings.Contains(page, "<style") {
		t.Error("the page has inline script/style or external references")
	}
	cat := reg.Catalog()
	for _, e := range cat.Tools {
		name := e["name"].(string)
		if !strings.Contains(page, `id="tool-`+name+`"`) || !strings.Contains(page, e["contract_hash"].(string)) {
			t.Errorf("page lacks tool %s or its contract hash", name)
		}
	}
	if !strings.Contains(page, cat.CatalogHash) {
		t.Error("page lacks the catalog_hash")
	}
	// The try-it box is prefilled with the first example's args, HTML-escaped.
	ex := cat.Tools[0]["examples"].([]any)[0].(map[string]any)["args"]
	b, _ := evidence.Canonical(ex)
	if !strings.Contains(page, strings.ReplaceAll(string(b), `"`, "&#34;")) {
		t.Errorf("page lacks the prefilled args %s", b)
	}
	if !strings.Contains(page, `<tr class="tool" id="tool-hash_text" data-tool="hash_text">`) ||
		!strings.Contains(page, `<span class="state off" data-state>disabled</span>`) {
		t.Error("the disabled tool is not shown as disabled")
	}
	for _, f := range []string{"admin.js", "admin.css"} {
		testhttp.Get(t, ts.URL+"/admin/static/"+f)
	}
	if status, body, _ := doReq(t, "GET", ts.URL+"/admin/static/admin.html.tmpl", "", ""); status != 404 || body["error_code"] != surface.CodeNotFound {
		t.Fatalf("template served as static: %d", status)
	}
}

func TestAdminVerify(t *testing.T) {
	ts, _, _ := newAdminServer(t, adminToken, nil)
	invoke := func(body string) string {
		return string(testhttp.PostJSON(t, ts.URL+"/invoke", []byte(body)).Body)
	}
	verify := func(body string) map[string]any {
		_, m, _ := doReq(t, "POST", ts.URL+"/admin/verify", "Bearer "+adminToken, body)
		return m
	}
	// Big integers and 100.0-style floats survive because the raw bytes are verified.
	good := invoke(`{"tool":"gcd_lcm","args":{"a":123456789012345678,"b":987654321098765432}}`)
	if got := verify(good); got["verified"] != true || got["tool"] != "gcd_lcm" {
		t.Fatalf("genuine response: %v", got)
	}
	floats := invoke(`{"tool":"unit_convert","args":{"value":100.0,"from_unit":"m","to_unit":"km"}}`)
	if got := verify(floats); got["verified"] != true {
		t.Fatalf("float response %s: %v", floats, got)
	}
	tampered := strings.Replace(good, `"gcd":2,`, `"gcd":3,`, 1)
	if tampered == good {
		t.Fatalf("test setup: %s", good)
	}
	if got := verify(tampered); got["verified"] != false || !strings.Contains(got["error"].(string), "result_hash") {
		t.Fatalf("tampered response: %v", got)
	}
	if got := verify(invoke(`{"tool":"gcd_lcm","args":{"a":"x"}}`)); got["verified"] != false {
		t.Fatalf("error response verified: %v", got)
	}
	if got := verify(`{"tool":"nope"}`); got["verified"] != false {
		t.Fatalf("unknown tool verified: %v", got)
	}
	if status, body, _ := doReq(t, "POST", ts.URL+"/admin/verify", "Bearer "+adminToken, `[1]`); status != 400 || body["error_code"] != surface.CodeInvalidRequest {
		t.Fatalf("non-object: %d %v", status, body)
	}
	// It costs as much as a call: the admin token is required, and the body
	// obeys --max-body-bytes (1 MiB here) like every other route.
	if status, body, _ := doReq(t, "POST", ts.URL+"/admin/verify", "", good); status != 401 || body["error_code"] != surface.CodeUnauthorized {
		t.Fatalf("without a token: %d %v", status, body)
	}
	big := `{"x":"` + strings.Repeat("a", 1<<20) + `"}`
	if status, body, _ := doReq(t, "POST", ts.URL+"/admin/verify", "Bearer "+adminToken, big); status != 413 || body["error_code"] != surface.CodePayloadTooLarge {
		t.Fatalf("1 MiB + 8 bytes: %d %v", status, body)
	}
}

// TestOverloadCountsEveryRequestOnce: pool of 2, both slots held by calls that
// wait on the test, then 48 concurrent calls. Each of the 48 is refused with
// 503 overloaded (Retry-After set) and counted once; the two held calls then
// finish. Nothing here depends on how fast the machine is.
func TestOverloadCountsEveryRequestOnce(t *testing.T) {
	var rejected sync.Mutex
	rejections := 0
	limiter := tools.NewLimiter(2, 20*time.Millisecond, func() { rejected.Lock(); rejections++; rejected.Unlock() })
	c, err := contracts.Parse([]byte(fakeContract))
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry([]tools.Tool{behaveTool{c}.tool()}, tools.Options{Limiter: limiter, DefaultTimeout: 2 * time.Minute})
	ts := httptest.NewServer(New(reg, Options{}))
	t.Cleanup(ts.Close)
	const n, held = 50, 2
	g := &gate{entered: make(chan struct{}, held), release: make(chan struct{})}
	holdGate.Store(g)
	type answer struct {
		status int
		body   map[string]any
		retry  string
	}
	answers := make(chan answer, 2*n)
	var wg sync.WaitGroup
	call := func(mode string) {
		defer wg.Done()
		resp, err := http.Post(ts.URL+"/invoke", "application/json", strings.NewReader(`{"tool":"behave","args":{"mode":"`+mode+`"}}`))
		if err != nil {
			t.Error(err)
			return
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Errorf("not JSON: %q", raw)
		}
		answers <- answer{resp.StatusCode, m, resp.Header.Get("Retry-After")}
	}
	for range held {
		wg.Add(1)
		go call("hold")
	}
	for range held {
		<-g.entered
	}
	var refused sync.WaitGroup
	for range n - held {
		wg.Add(1)
		refused.Add(1)
		go func() { defer refused.Done(); call("ok") }()
	}
	refused.Wait()
	close(g.release)
	wg.Wait()
	close(answers)
	ok, overloaded := 0, 0
	for a := range answers {
		switch {
		case a.status == 200 && a.body["structured_result"] != nil:
			ok++
		case a.status == 503 && a.body["error_code"] == tools.CodeOverloaded && a.retry != "":
			overloaded++
		default:
			t.Errorf("unexpected answer %d %v", a.status, a.body)
		}
	}
	if ok != held || overloaded != n-held {
		t.Fatalf("%d ok + %d overloaded, want %d + %d", ok, overloaded, held, n-held)
	}
	rejected.Lock()
	defer rejected.Unlock()
	if rejections != overloaded {
		t.Fatalf("limiter counted %d rejections, clients saw %d", rejections, overloaded)
	}
}

// TestDrainLetsInFlightCallsFinish: in-flight calls complete while new calls on
// the same server get 503 shutting_down and http.Server.Shutdown waits for them.
func TestDrainLetsInFlightCallsFinish(t *testing.T) {
	const n = 20
	limiter := tools.NewLimiter(n, time.Second, nil)
	reg := tools.NewRegistry([]tools.Tool{newSleeper(t)}, tools.Options{Limiter: limiter, DefaultTimeout: 2 * time.Minute})
	srv := New(reg, Options{})
	ts := httptest.NewUnstartedServer(srv)
	ts.Start()
	defer ts.Close()
	var wg sync.WaitGroup
	results := make(chan int, n)
	started := make(chan struct{}, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started <- struct{}{}
			resp, err := http.Post(ts.URL+"/invoke", "application/json", strings.NewReader(`{"tool":"sleeper","args":{"ms":400}}`))
			if err != nil {
				t.Error(err)
				return
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(raw), `"status":"completed"`) {
				t.Errorf("in-flight call did not complete: %s", raw)
			}
			results <- resp.StatusCode
		}()
	}
	for range n {
		<-started
	}
	// Wait until all 20 hold an execution slot.
	for limiter.InFlight() < n {
		time.Sleep(2 * time.Millisecond)
	}
	srv.Drain()
	status, body, _ := doReq(t, "POST", ts.URL+"/invoke", "", `{"tool":"sleeper","args":{}}`)
	if status != 503 || body["error_code"] != surface.CodeShuttingDown {
		t.Fatalf("new call during drain: %d %v", status, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ts.Config.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(results)
	count := 0
	for s := range results {
		if s != 200 {
			t.Errorf("status %d", s)
		}
		count++
	}
	if count != n {
		t.Fatalf("%d of %d in-flight calls answered", count, n)
	}
}
