package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/tools"
)

// hotPathBodies are the /invoke requests profiled by BenchmarkInvokeHTTP: the
// cheapest tool (so the framework's own cost dominates) and a validation-heavy one.
var hotPathBodies = []struct{ name, body string }{
	{"gcd_lcm", `{"tool":"gcd_lcm","args":{"a":391,"b":299}}`},
	{"structured_validate", `{"tool":"structured_validate","args":{"format_name":"json","payload":"{\"id\":7,\"items\":[{\"sku\":\"ABC-0001\",\"qty\":2}]}","schema_json":"{\"type\":\"object\",\"required\":[\"id\"],\"properties\":{\"id\":{\"type\":\"integer\"}}}"}}`},
	{"hash_text", `{"tool":"hash_text","args":{"text":"The quick brown fox jumps over the lazy dog"}}`},
}

// newHandler is the real HTTP surface (router, request id, access log at info
// level into a discarding JSON handler, limiter, observer-free registry).
func newHandler() http.Handler {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{Limiter: tools.NewLimiter(64, 0, nil)})
	log := slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	return api.New(reg, api.Options{Logger: log, MCP: &api.MCPOptions{}})
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
// without a network: what pprof profiles for the hot path.
func BenchmarkInvokeHTTP(b *testing.B) {
	h := newHandler()
	for _, c := range hotPathBodies {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			body := []byte(c.body)
			for b.Loop() {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, "/invoke", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
				}
			}
		})
	}
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
	h := newHandler()
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":391,"b":299}}}`)
	b.ReportAllocs()
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
