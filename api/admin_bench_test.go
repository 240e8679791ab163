package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/tools"
)

func BenchmarkOpenAPI(b *testing.B) {
	reg := builtinRegistry()
	b.ReportAllocs()
	for b.Loop() {
		_ = OpenAPI(reg, "bench")
	}
}

func BenchmarkObserve(b *testing.B) {
	m := NewMetrics(MetricsOptions{})
	b.ReportAllocs()
	for b.Loop() {
		m.Observe("gcd_lcm", "ok", time.Millisecond)
	}
}

// BenchmarkInvokeObserved: an /invoke of a small call with the metrics
// observer installed, against the same without (the hook's cost).
func BenchmarkInvokeObserved(b *testing.B) {
	for _, observed := range []bool{false, true} {
		name := "plain"
		if observed {
			name = "observed"
		}
		b.Run(name, func(b *testing.B) {
			var ropts tools.Options
			opts := Options{}
			if observed {
				m := NewMetrics(MetricsOptions{})
				ropts.Observer = m.Observe
				opts.Metrics = m
			}
			reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), ropts)
			if opts.Metrics != nil {
				opts.Metrics.Attach(reg)
			}
			srv := New(reg, opts)
			body := `{"tool":"gcd_lcm","args":{"a":391,"b":299}}`
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/invoke", strings.NewReader(body))
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

func BenchmarkAdminVerify(b *testing.B) {
	reg := builtinRegistry()
	srv := New(reg, Options{AdminToken: "t"})
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/invoke", strings.NewReader(`{"tool":"gcd_lcm","args":{"a":391,"b":299}}`)))
	resp := rec.Body.String()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/admin/verify", strings.NewReader(resp))
		req.Header.Set("Authorization", "Bearer t")
		srv.ServeHTTP(rec, req)
		if !strings.Contains(rec.Body.String(), `"verified":true`) {
			b.Fatal(rec.Body.String())
		}
	}
}

// FuzzAdminVerifyAndPut: arbitrary bodies to /admin/verify and PUT
// /admin/tools/{name} never panic and always get a JSON answer with a known
// status; verify never claims a forged body is verified unless it recomputes.
func FuzzAdminVerifyAndPut(f *testing.F) {
	reg := builtinRegistry()
	srv := New(reg, Options{AdminToken: "t"})
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/invoke", strings.NewReader(`{"tool":"gcd_lcm","args":{"a":391,"b":299}}`)))
	f.Add(rec.Body.String())
	f.Add(`{"enabled":true}`)
	f.Add(`{"structured_result":{"tool":"gcd_lcm","status":"completed"}}`)
	f.Add(`{"enabled":false,"enabled":true}`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, body string) {
		for _, req := range []*http.Request{
			httptest.NewRequest(http.MethodPost, "/admin/verify", strings.NewReader(body)),
			httptest.NewRequest(http.MethodPut, "/admin/tools/gcd_lcm", strings.NewReader(body)),
		} {
			req.Header.Set("Authorization", "Bearer t")
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != 200 && rec.Code != 400 && rec.Code != 413 {
				t.Fatalf("%s: status %d %s", req.URL.Path, rec.Code, rec.Body)
			}
			if !strings.HasPrefix(rec.Body.String(), "{") {
				t.Fatalf("not JSON: %q", rec.Body)
			}
		}
		reg.SetEnabled("gcd_lcm", true)
	})
}
