package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/tools"
)

// hotPathBodies are the /invoke requests profiled by BenchmarkInvokeHTTP: the
// cheapest tool (so the framework's own cost dominates) and a validation-heavy one.
var hotPathBodies = []struct{ name, body string }{
	{"gcd_lcm", `{"tool":"gcd_lcm","args":{"a":391,"b":299}}`},
	{"structured_validate", `{"tool":"structured_validate","args":{"format_name":"json","payload":"{\"id\":7,\"items\":[{\"sku\":\"ABC-0001\",\"qty\":2}]}","schema_json":"{\"type\":\"object\",\"required\":[\"id\"],\"properties\":{\"id\":{\"type\":\"integer\"}}}"}}`},
	{"hash_text", `{"tool":"hash_text","args":{"text":"The quick brown fox jumps over the lazy dog"}}`},
	// Short regex_extract calls: a page of two matches.
	{"regex_extract", `{"tool":"regex_extract","args":{"pattern":"\\d{4}-\\d{2}-\\d{2}","text":"from 2024-01-15 to 2024-02-29"}}`},
}

// newHandler is the real HTTP surface (router, request id, access log at info
// level into the service's JSON logger writing to io.Discard, limiter,
// observer-free registry).
func newHandler() http.Handler { return newHandlerSigned(nil) }

// newHandlerSigned is newHandler whose registry signs every answer with a
// (nil: unsigned), as the service does.
func newHandlerSigned(a tools.Attester) http.Handler {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{Limiter: tools.NewLimiter(64, 0, nil)})
	if a != nil {
		reg.SetAttester(a)
	}
	return api.New(reg, api.Options{Logger: api.NewLogger(io.Discard, slog.LevelInfo), MCP: &mcpserver.Options{}})
}

// newServiceHandler is the handler as `precisiond serve` on loopback
// configures it around a call: newHandler plus the Prometheus metrics (tool
// calls and HTTP series), the Host guard and a memoized signer.
func newServiceHandler(tb testing.TB) http.Handler {
	metrics := api.NewMetrics(api.MetricsOptions{})
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{
		Limiter: tools.NewLimiter(64, 0, metrics.OnReject), Observer: metrics.Observe})
	metrics.Attach(reg)
	reg.SetAttester(testSigner(tb).Memoized(2048))
	return api.New(reg, api.Options{Logger: api.NewLogger(io.Discard, slog.LevelInfo), Metrics: metrics, MCP: &mcpserver.Options{},
		Access: &api.AccessOptions{GuardHosts: true}})
}

// BenchmarkInvokeHTTPService is BenchmarkInvokeHTTP through the handler as
// the service configures it (newServiceHandler).
func BenchmarkInvokeHTTPService(b *testing.B) {
	benchInvokeHTTP(b, newServiceHandler(b))
}

// testSigner is a signer over a fixed key (seed 0x01…).
func testSigner(tb testing.TB) *attest.Signer {
	tb.Helper()
	k, err := attest.NewKeyFromSeed(bytes.Repeat([]byte{1}, 32))
	if err != nil {
		tb.Fatal(err)
	}
	s, err := attest.NewSigner(k, "precisiond")
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestInvokeHTTPAnswers makes sure the benchmarked requests succeed and that the
// response's result_hash recomputes from its own input_normalized and facts, so
// an optimisation cannot change what is hashed without this test noticing.
func TestInvokeHTTPAnswers(t *testing.T) {
	h := newHandler()
	for _, c := range hotPathBodies {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/invoke", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d", c.name, rec.Code)
		}
		v, err := evidence.ParseJSON(rec.Body.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sr, _ := v.(map[string]any)["structured_result"].(map[string]any)
		if sr == nil {
			t.Fatalf("%s: no structured_result: %s", c.name, rec.Body.String())
		}
		canon, err := evidence.Canonical(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(canon, rec.Body.Bytes()) {
			t.Errorf("%s: body is not canonical JSON:\n got %s\nwant %s", c.name, rec.Body.Bytes(), canon)
		}
		rh, err := evidence.ResultHash(sr["contract_hash"].(string), sr["input_normalized"].(map[string]any), sr["facts"].(map[string]any))
		if err != nil {
			t.Fatal(err)
		}
		if got := sr["result_hash"]; got != rh {
			t.Errorf("%s: result_hash %v, recomputed %s", c.name, got, rh)
		}
	}
}

// BenchmarkInvokeHTTP measures one /invoke call through the real handler
// (routing, middleware, body decoding, the execution path, canonical response),
// without a network: what pprof profiles for the hot path. The signed variant
// adds the attestation every answer of the service carries (issue 21).
func BenchmarkInvokeHTTP(b *testing.B) {
	benchInvokeHTTP(b, newHandler())
}

// BenchmarkInvokeHTTPSigned is BenchmarkInvokeHTTP with every answer signed
// as the service signs (a signer remembering recent attestations, so the
// repeated bodies here are signed once).
func BenchmarkInvokeHTTPSigned(b *testing.B) {
	benchInvokeHTTP(b, newHandlerSigned(testSigner(b).Memoized(2048)))
}

// BenchmarkInvokeLoopback is gcd_lcm over real HTTP on loopback (client and
// server in this process, keep-alive), unsigned and signed, with the same
// answer every time and with a different one every time. Its cpu-ns/op
// counts both ends and the kernel, as the load harness's machine does, so
// the ratio of two variants is their throughput ratio on a saturated CPU.
func BenchmarkInvokeLoopback(b *testing.B) {
	for _, v := range []struct {
		name string
		h    http.Handler
	}{{"unsigned", newHandler()}, {"signed", newHandlerSigned(testSigner(b).Memoized(2048))}} {
		srv := httptest.NewServer(v.h)
		client := srv.Client()
		for _, distinct := range []bool{false, true} {
			name := v.name + "/repeated"
			if distinct {
				name = v.name + "/distinct"
			}
			b.Run(name, func(b *testing.B) {
				defer reportCPU(b)()
				i := 0
				for b.Loop() {
					if distinct {
						i++
					}
					body := `{"tool":"gcd_lcm","args":{"a":` + strconv.Itoa(391+i) + `,"b":299}}`
					resp, err := client.Post(srv.URL+"/invoke", "application/json", strings.NewReader(body))
					if err != nil {
						b.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Fatalf("status %d", resp.StatusCode)
					}
				}
			})
		}
		srv.Close()
	}
}

// BenchmarkInvokeHTTPDistinct is one gcd_lcm call with a different answer
// every time, unsigned and signed (as the service signs, and without the
// signature memo, which cannot help when nothing repeats): the signing cost
// when nothing repeats.
func BenchmarkInvokeHTTPDistinct(b *testing.B) {
	for _, v := range []struct {
		name string
		h    http.Handler
	}{{"unsigned", newHandler()}, {"signed", newHandlerSigned(testSigner(b).Memoized(2048))}, {"signed-nomemo", newHandlerSigned(testSigner(b))}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			i := 0
			for b.Loop() {
				i++
				body := []byte(`{"tool":"gcd_lcm","args":{"a":` + strconv.Itoa(i) + `,"b":299}}`)
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, "/invoke", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				v.h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
				}
			}
		})
	}
}

// BenchmarkInvokeHTTPEveryTool is signing's cost for every tool: each of the
// 30 calls of compare_inputs.json (§2) through the HTTP handler, unsigned and
// signed without the signature memo, so that every answer is signed as a
// stream of new answers would be. "all" is the mix of the 30, one op a call
// in turn. Compare cpu-ns/op between the two variants (bench/RESULTS.md §6.4).
func BenchmarkInvokeHTTPEveryTool(b *testing.B) {
	cases := loadCompare(b)
	bodies := make([][]byte, len(cases))
	for i, c := range cases {
		var err error
		if bodies[i], err = json.Marshal(map[string]any{"tool": c.Tool, "args": c.Args}); err != nil {
			b.Fatal(err)
		}
	}
	variants := []struct {
		name string
		h    http.Handler
	}{{"unsigned", newHandler()}, {"signed-nomemo", newHandlerSigned(testSigner(b))}}
	run := func(b *testing.B, h http.Handler, bodies [][]byte) {
		b.ReportAllocs()
		defer reportCPU(b)()
		i := 0
		for b.Loop() {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, "/invoke", bytes.NewReader(bodies[i%len(bodies)]))
			req.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			i++
		}
	}
	for _, v := range variants {
		b.Run("all/"+v.name, func(b *testing.B) { run(b, v.h, bodies) })
	}
	for i, c := range cases {
		for _, v := range variants {
			b.Run(c.Name+"/"+v.name, func(b *testing.B) { run(b, v.h, bodies[i:i+1]) })
		}
	}
}

func benchInvokeHTTP(b *testing.B, h http.Handler) {
	for _, c := range hotPathBodies {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			body := []byte(c.body)
			defer reportCPU(b)()
			for b.Loop() {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/invoke", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
				}
			}
		})
	}
}

// reportCPU reports the process CPU time (user + system, GC included) per
// operation as cpu-ns/op when the returned function runs. Unlike ns/op it
// does not grow when other processes take the CPU away, so it compares two
// variants fairly on a shared machine: throughput is the inverse of it once
// the CPU is saturated.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRegistryInvoke is the execution path alone (no HTTP): defaults,
// validation in and out, the tool, envelope and result hash.
func BenchmarkRegistryInvoke(b *testing.B) {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	args := map[string]any{"a": json.Number("391"), "b": json.Number("299")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Invoke(context.Background(), tools.Request{Tool: "gcd_lcm", Args: args}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMCPHTTP is one stateless Streamable HTTP tools/call (gcd_lcm)
// through the real handler: what the load harness's mcp mix sends.
// The handler is BenchmarkInvokeHTTP's, so the two compare directly.
func BenchmarkMCPHTTP(b *testing.B) {
	b.Run("bare-registry", func(b *testing.B) { benchMCPHTTP(b, newHandler()) })
	b.Run("service", func(b *testing.B) { benchMCPHTTP(b, newServiceHandler(b)) })
}

func benchMCPHTTP(b *testing.B, h http.Handler) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":391,"b":299}}}`)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte(`"result_hash"`)) {
			b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
	}
}
