package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/precisiond/precisiond/mcpserver"
)

var (
	fuzzOnce sync.Once
	fuzzSrv  *Server
)

// fuzzServer is one real surface (full registry, MCP mounted) shared by the
// fuzz iterations; requests go straight to ServeHTTP.
func fuzzServer(tb testing.TB) *Server {
	fuzzOnce.Do(func() {
		store, reg := builtinOnStore(tb)
		fuzzSrv = New(reg, Options{MCP: &mcpserver.Options{Files: store}, MaxBodyBytes: 64 << 10})
	})
	return fuzzSrv
}

// FuzzMCPRequest posts arbitrary bodies to /mcp: the server never panics or
// hangs, and every 200 answer is one JSON-RPC response.
func FuzzMCPRequest(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"YWZ0ZXI6Z2NkX2xjbQ"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":391,"b":299}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":[1,2]}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculate","arguments":{"expression":"2**64"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"precisiond://downloads/../../etc/passwd"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"cursor":"!!"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"precision_guide","arguments":{"task":"x"}}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":1e999999,"b":1}}}`,
	} {
		f.Add([]byte(s))
	}
	srv := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
		req.Host = "127.0.0.1:8003"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code == http.StatusOK && rec.Header().Get("Content-Type") == "application/json" && rec.Body.Len() > 0 {
			// One response, or a batch of them.
			var msgs []map[string]any
			raw := bytes.TrimSpace(rec.Body.Bytes())
			if len(raw) > 0 && raw[0] != '[' {
				raw = append(append([]byte{'['}, raw...), ']')
			}
			if err := json.Unmarshal(raw, &msgs); err != nil || len(msgs) == 0 {
				t.Fatalf("200 with a non-JSON-RPC body %q for %q", rec.Body.String(), body)
			}
			for _, m := range msgs {
				if m["jsonrpc"] != "2.0" {
					t.Fatalf("200 with a non-JSON-RPC body %q for %q", rec.Body.String(), body)
				}
			}
		}
	})
}

// BenchmarkMCPCall measures one tools/call through the MCP layer (in-memory
// session and stateless HTTP) on a small and a large input; compare with
// BenchmarkInvoke-style REST figures to see the protocol overhead.
func BenchmarkMCPCall(b *testing.B) {
	store, reg := builtinOnStore(b)
	srv := New(reg, Options{MCP: &mcpserver.Options{Files: store}})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	inputs := map[string]*mcp.CallToolParams{
		"small": {Name: "gcd_lcm", Arguments: map[string]any{"a": 391, "b": 299}},
		"large": {Name: "hash_text", Arguments: map[string]any{"text": strings.Repeat("exact ", 100_000)}},
	}
	for _, kind := range []string{"memory", "streamable"} {
		var tr mcp.Transport
		if kind == "memory" {
			ct, st := mcp.NewInMemoryTransports()
			ss, err := srv.mcp.Connect(context.Background(), st)
			if err != nil {
				b.Fatal(err)
			}
			defer ss.Close()
			tr = ct
		} else {
			tr = &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), tr, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		for size, params := range inputs {
			b.Run(kind+"/"+size, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					res, err := cs.CallTool(context.Background(), params)
					if err != nil || res.IsError {
						b.Fatal(err, res)
					}
				}
			})
		}
	}
}
