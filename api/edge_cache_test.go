package api

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
)

// TestCatalogueETagAndGzip: GET /tools and /openapi.json carry an ETag that
// If-None-Match turns into 304, gzip when asked (the same body once
// decompressed), and a new ETag once the catalogue changes.
func TestCatalogueETagAndGzip(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{}, Options{})
	for _, path := range []string{"/tools", "/openapi.json"} {
		plain := testhttp.Do(t, "GET", env.ts.URL+path, map[string]string{"Accept-Encoding": "identity"}, nil)
		etag := plain.Header.Get("ETag")
		if plain.Status != 200 || len(etag) < 10 || plain.Header.Get("Content-Encoding") != "" || plain.Header.Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%s: %d ETag %q headers %v", path, plain.Status, etag, plain.Header)
		}
		again := testhttp.Do(t, "GET", env.ts.URL+path, map[string]string{"Accept-Encoding": "identity"}, nil)
		if again.Header.Get("ETag") != etag || !bytes.Equal(again.Body, plain.Body) {
			t.Fatalf("%s: the ETag of an unchanged body changed", path)
		}
		nm := testhttp.Do(t, "GET", env.ts.URL+path, map[string]string{"Accept-Encoding": "identity", "If-None-Match": `"other", ` + etag}, nil)
		if nm.Status != http.StatusNotModified || len(nm.Body) != 0 || nm.Header.Get("ETag") != etag {
			t.Errorf("%s If-None-Match: %d %d bytes", path, nm.Status, len(nm.Body))
		}
		if r := testhttp.Do(t, "GET", env.ts.URL+path, map[string]string{"Accept-Encoding": "identity", "If-None-Match": `"stale"`}, nil); r.Status != 200 {
			t.Errorf("%s with a stale ETag: %d", path, r.Status)
		}
		gz := testhttp.Do(t, "GET", env.ts.URL+path, map[string]string{"Accept-Encoding": "br, gzip;q=0.8"}, nil)
		if gz.Status != 200 || gz.Header.Get("Content-Encoding") != "gzip" || len(gz.Body) >= len(plain.Body)/2 || gz.Header.Get("ETag") == etag {
			t.Fatalf("%s gzip: %d %v, %d of %d bytes", path, gz.Status, gz.Header, len(gz.Body), len(plain.Body))
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz.Body))
		if err != nil {
			t.Fatal(err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(unzipped, plain.Body) {
			t.Fatalf("%s: the gzip body differs from the plain one (%v)", path, err)
		}
		if r := testhttp.Do(t, "GET", env.ts.URL+path, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": gz.Header.Get("ETag")}, nil); r.Status != http.StatusNotModified {
			t.Errorf("%s If-None-Match of the gzip ETag: %d", path, r.Status)
		}
		if r := testhttp.Do(t, "GET", env.ts.URL+path, map[string]string{"Accept-Encoding": "gzip;q=0"}, nil); r.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: gzip;q=0 got gzip", path)
		}
	}
	before := testhttp.Do(t, "GET", env.ts.URL+"/tools", map[string]string{"Accept-Encoding": "identity"}, nil).Header.Get("ETag")
	env.reg.SetEnabled("gcd_lcm", false)
	after := testhttp.Do(t, "GET", env.ts.URL+"/tools", map[string]string{"Accept-Encoding": "identity", "If-None-Match": before}, nil)
	if after.Status != 200 || after.Header.Get("ETag") == before {
		t.Errorf("after a toggle: %d ETag %q (was %q)", after.Status, after.Header.Get("ETag"), before)
	}
	// Errors pass through untouched.
	if r := testhttp.Do(t, "GET", env.ts.URL+"/tools/nope", nil, nil); r.Status != http.StatusNotFound || r.Header.Get("ETag") != "" {
		t.Errorf("/tools/nope: %d %v", r.Status, r.Header)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "deflate, gzip;q=1.0": true, "gzip;q=0": false, "gzip; q=0.000": false,
		"*": true, "br": false, "x-gzip": false, "gzip;q=0.5": true,
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", h)
		if acceptsGzip(r) != want {
			t.Errorf("Accept-Encoding %q: %v", h, !want)
		}
	}
}

// TestHTTPMetrics: every answer is counted by route pattern and status,
// transport-level refusals (413, 415) and MCP transport errors included,
// with unknown paths under "other".
func TestHTTPMetrics(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	env := newMCPEnv(t, mcpserver.Options{}, Options{Metrics: m, MaxBodyBytes: 2048})
	testhttp.Do(t, "POST", env.ts.URL+"/invoke", map[string]string{"Content-Type": "text/plain"}, []byte(`{}`))
	testhttp.PostJSON(t, env.ts.URL+"/v1/invoke", []byte(`{"tool":"gcd_lcm","args":{"a":"`+strings.Repeat("1", 4096)+`"}}`))
	testhttp.Do(t, "POST", env.ts.URL+"/mcp", map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}, []byte(`{not json`))
	testhttp.Do(t, "GET", env.ts.URL+"/tools/gcd_lcm", nil, nil)
	testhttp.Do(t, "GET", env.ts.URL+"/no/such/"+strings.Repeat("x", 10), nil, nil)
	for _, c := range []struct{ route, code string }{
		{"/invoke", "415"}, {"/v1/invoke", "413"}, {"/mcp", "400"}, {"/tools/{name}", "200"}, {"other", "404"},
	} {
		if n := metricValue(t, m, "precisiond_http_requests_total", map[string]string{"route": c.route, "code": c.code}); n != 1 {
			t.Errorf("precisiond_http_requests_total{route=%q,code=%q} = %v, want 1", c.route, c.code, n)
		}
		if n := metricValue(t, m, "precisiond_http_request_duration_seconds", map[string]string{"route": c.route}); n < 1 {
			t.Errorf("no latency observed for %s", c.route)
		}
	}
}
