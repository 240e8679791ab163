package api

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
)

// TestLandingPage: GET / is HTML under a policy without any script, with the
// version, the catalog_hash, a row per tool (disabled ones marked) and links
// to the reference, the catalogue, the description, health, metrics (when
// served), admin and the MCP endpoints (when mounted).
func TestLandingPage(t *testing.T) {
	reg := builtinRegistry()
	reg.SetEnabled("hash_text", false)
	for _, full := range []bool{true, false} {
		opts := Options{Version: "v9.8.7"}
		if full {
			opts.MCP = &mcpserver.Options{}
			opts.Metrics = NewMetrics(MetricsOptions{Version: "v9.8.7"})
		}
		ts := httptest.NewServer(New(reg, opts))
		resp := testhttp.Do(t, http.MethodGet, ts.URL+"/", nil, nil)
		ts.Close()
		page := string(resp.Body)
		h := resp.Header
		if resp.Status != 200 || h.Get("Content-Type") != "text/html; charset=utf-8" || h.Get("X-Frame-Options") != "DENY" {
			t.Fatalf("GET /: %d %v", resp.Status, h)
		}
		if csp := h.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none';") || strings.Contains(csp, "script-src") {
			t.Errorf("CSP %q", csp)
		}
		if strings.Contains(page, "<script") {
			t.Error("the start page has a script")
		}
		for _, want := range []string{`<small id="version">v9.8.7</small>`, reg.CatalogHash(), `href="/docs"`, `href="/tools"`,
			`href="/openapi.json"`, `href="/health"`, `href="/admin"`, `<a href="/tools/gcd_lcm"><code>gcd_lcm</code></a>`,
			`<tr class="disabled"><td><a href="/tools/hash_text"><code>hash_text</code></a> (disabled)`, "precisiond mcp",
			"curl -s http://" + strings.TrimPrefix(ts.URL, "http://") + "/invoke"} {
			if !strings.Contains(page, want) {
				t.Errorf("full=%v: the start page lacks %q", full, want)
			}
		}
		if got := strings.Count(page, `<a href="/tools/`); got != len(reg.Names()) {
			t.Errorf("%d tool rows, want %d", got, len(reg.Names()))
		}
		if !strings.Contains(page, `href="/v1/catalog"`) {
			t.Error("the start page lacks /v1/catalog")
		}
		for _, optional := range []string{`href="/metrics"`, "/mcp/sse"} {
			if strings.Contains(page, optional) != full {
				t.Errorf("full=%v: %s shown %v", full, optional, !full)
			}
		}
	}
}

// TestDocsPageAndAssets: /docs loads only this origin's Swagger UI files
// under its policy (scripts and styles from 'self', no inline, no eval),
// and each asset is served with its type; HEAD works; the vendored bundle is
// the one embedded.
func TestDocsPageAndAssets(t *testing.T) {
	ts, _, _ := newTestServer(t, nil)
	resp := testhttp.Do(t, http.MethodGet, ts.URL+"/docs", nil, nil)
	body := resp.Body
	csp := resp.Header.Get("Content-Security-Policy")
	if resp.Status != 200 || !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "unsafe") {
		t.Fatalf("/docs: %d CSP %q", resp.Status, csp)
	}
	srcs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(string(body), -1)
	assets := map[string]string{
		"/docs/static/swagger-ui-bundle.js": "text/javascript; charset=utf-8",
		"/docs/static/swagger-ui.css":       "text/css; charset=utf-8",
		"/docs/static/docs.js":              "text/javascript; charset=utf-8",
		"/static/pages.css":                 "text/css; charset=utf-8",
	}
	for _, m := range srcs {
		if !strings.HasPrefix(m[1], "/") {
			t.Errorf("/docs refers to another origin: %s", m[1])
		}
	}
	for path, mediaType := range assets {
		if !strings.Contains(string(body), `"`+path+`"`) {
			t.Errorf("/docs does not load %s", path)
		}
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			r := testhttp.Do(t, method, ts.URL+path, nil, nil)
			n := len(r.Body)
			if r.Status != 200 || r.Header.Get("Content-Type") != mediaType || r.Header.Get("X-Content-Type-Options") != "nosniff" ||
				(method == http.MethodGet) != (n > 0) {
				t.Errorf("%s %s: %d %q, %d bytes", method, path, r.Status, r.Header.Get("Content-Type"), n)
			}
		}
	}
	served := testhttp.Get(t, ts.URL+"/docs/static/swagger-ui-bundle.js")
	vendored, _ := os.ReadFile("swaggerui/swagger-ui-bundle.js")
	if string(served) != string(vendored) {
		t.Error("the served bundle is not the vendored file")
	}
	if r := testhttp.Do(t, http.MethodGet, ts.URL+"/docs/static/other.js", nil, nil); r.Status != 404 {
		t.Errorf("an unknown asset: %d", r.Status)
	}
}

// TestSwaggerUIVendored: the vendored Swagger UI files are exactly those
// SOURCE.md lists (sha256), with their licence, and the version in
// SOURCE.md, update.sh and swaggerUIVersion agree.
func TestSwaggerUIVendored(t *testing.T) {
	f, err := os.Open("swaggerui/SOURCE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := regexp.MustCompile(`^([0-9a-f]{64})  (\S+)$`)
	listed := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := sums.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		data, err := os.ReadFile("swaggerui/" + m[2])
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != m[1] {
			t.Errorf("swaggerui/%s differs from the fetched file (sha256 in SOURCE.md)", m[2])
		}
		listed++
	}
	if listed != 5 {
		t.Errorf("SOURCE.md lists %d files, want 5", listed)
	}
	source, _ := os.ReadFile("swaggerui/SOURCE.md")
	script, _ := os.ReadFile("swaggerui/update.sh")
	if !strings.Contains(string(source), "**"+swaggerUIVersion+"**") || !strings.Contains(string(script), "VERSION="+swaggerUIVersion+"\n") {
		t.Errorf("swaggerUIVersion %s disagrees with SOURCE.md or update.sh", swaggerUIVersion)
	}
	if lic, _ := os.ReadFile("swaggerui/LICENSE"); !strings.Contains(string(lic), "Apache License") {
		t.Error("swaggerui/LICENSE is not the Apache licence")
	}
}
