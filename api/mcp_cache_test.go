package api

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
)

// emptyStrings lists the JSON paths of "" values in v, outside JSON Schemas
// (inputSchema, outputSchema: there "" is a value, e.g. a default).
func emptyStrings(v any, path string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "inputSchema" || k == "outputSchema" {
				continue
			}
			emptyStrings(e, path+"/"+k, out)
		}
	case []any:
		for i, e := range x {
			emptyStrings(e, path+"/"+strconv.Itoa(i), out)
		}
	case string:
		if x == "" {
			*out = append(*out, path)
		}
	}
}

// mcpResult posts one message to an MCP endpoint (as a 2025-11-25 client)
// and returns its result, failing on a JSON-RPC error or an empty string.
func mcpResult(t *testing.T, url string, hdr map[string]string, body string) map[string]any {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25"}
	for k, v := range hdr {
		h[k] = v
	}
	r := testhttp.Do(t, "POST", url, h, []byte(body))
	var msg struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &msg); err != nil || r.Status != 200 || msg.Result == nil {
		t.Fatalf("POST %s %s: %d %s", url, body, r.Status, r.Body)
	}
	var empty []string
	emptyStrings(msg.Result, "", &empty)
	if len(empty) > 0 {
		t.Errorf("%s: empty strings sent at %v", body, empty)
	}
	return msg.Result
}

// TestMCPCacheHints: the list results and resources/read say how long they
// may be cached (docs/mcp.md: tools/list 60 s; prompts, templates and the
// compact surface 1 h; resources 0), "private" when tokens give each caller
// its own view; and no result of initialize, the lists or a read carries an
// empty string.
func TestMCPCacheHints(t *testing.T) {
	svc := plans.NewService(builtinRegistry(), plans.NewMemoryStore(0), plans.Options{ErrorBody: surface.PlanErrorBody(nil)})
	e := newMCPEnv(t, mcpserver.Options{}, Options{Plans: svc})
	check := func(url string, hdr map[string]string, body string, ttl float64, scope string) {
		t.Helper()
		res := mcpResult(t, url, hdr, body)
		if res["ttlMs"] != ttl || res["cacheScope"] != scope {
			t.Errorf("%s %s: ttlMs %v cacheScope %v, want %v %q", url, body, res["ttlMs"], res["cacheScope"], ttl, scope)
		}
	}
	mcpURL, compactURL := e.ts.URL+"/mcp", e.ts.URL+"/mcp/compact"
	for _, url := range []string{mcpURL, compactURL} {
		res := mcpResult(t, url, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		if res["protocolVersion"] != "2025-11-25" {
			t.Fatalf("initialize: %v", res)
		}
	}
	before := e.srv.mcp.FastServed()
	check(mcpURL, nil, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 60000, "public")
	if e.srv.mcp.FastServed() == before {
		t.Fatal("tools/list did not take the fast path")
	}
	// The SDK's path (params with _meta).
	check(mcpURL, nil, `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"k":1}}}`, 60000, "public")
	check(mcpURL, nil, `{"jsonrpc":"2.0","id":4,"method":"resources/list"}`, 0, "public")
	check(mcpURL, nil, `{"jsonrpc":"2.0","id":5,"method":"resources/templates/list"}`, 3600000, "public")
	check(mcpURL, nil, `{"jsonrpc":"2.0","id":6,"method":"prompts/list"}`, 3600000, "public")
	check(mcpURL, nil, `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"`+mcpserver.ContractURIPrefix+`gcd_lcm"}}`, 0, "public")
	check(compactURL, nil, `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, 3600000, "public")
	check(compactURL, nil, `{"jsonrpc":"2.0","id":9,"method":"prompts/list"}`, 3600000, "public")

	// With API tokens each caller has its own view.
	a := newAccessEnv(t, nil)
	auth := map[string]string{"Authorization": "Bearer " + bobToken}
	check(a.ts.URL+"/mcp", auth, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 60000, "private")
	check(a.ts.URL+"/mcp", auth, `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"k":1}}}`, 60000, "private")
	check(a.ts.URL+"/mcp", auth, `{"jsonrpc":"2.0","id":4,"method":"resources/list"}`, 0, "private")
	check(a.ts.URL+"/mcp", auth, `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"`+mcpserver.ContractURIPrefix+`gcd_lcm"}}`, 0, "private")
}

// TestMCPAnnotationsComplete: every tool of both surfaces, as a client
// receives it, states all four hints and has a title (the full surface's values
// against the contracts are in TestMCPTransports).
func TestMCPAnnotationsComplete(t *testing.T) {
	svc := plans.NewService(builtinRegistry(), plans.NewMemoryStore(0), plans.Options{ErrorBody: surface.PlanErrorBody(nil)})
	e := newMCPEnv(t, mcpserver.Options{PageSize: 1000}, Options{Plans: svc})
	for _, path := range []string{"/mcp", "/mcp/compact"} {
		res := mcpResult(t, e.ts.URL+path, nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
		list, _ := res["tools"].([]any)
		if len(list) < 4 {
			t.Fatalf("%s: %d tools", path, len(list))
		}
		for _, v := range list {
			tool, _ := v.(map[string]any)
			a, _ := tool["annotations"].(map[string]any)
			for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
				if _, ok := a[k].(bool); !ok {
					t.Errorf("%s %v: annotation %s missing (%v)", path, tool["name"], k, a)
				}
			}
			// The display name: title, else annotations.title (MCP's order).
			if title, _ := tool["title"].(string); title == "" {
				t.Errorf("%s %v: no title", path, tool["name"])
			}
		}
	}
}
