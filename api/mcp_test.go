package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/tools"
)

// mcpEnv is the real HTTP surface (REST and MCP) over the full built-in
// registry, on a loopback listener.
type mcpEnv struct {
	ts    *httptest.Server
	srv   *Server
	reg   *tools.Registry
	store *filestore.Store
}

func newMCPEnv(t *testing.T, mcpOpts mcpserver.Options, opts Options) *mcpEnv {
	t.Helper()
	store, reg := builtinOnStore(t)
	mcpOpts.Files = store
	opts.MCP = &mcpOpts
	opts.Downloads = store
	srv := New(reg, opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &mcpEnv{ts: ts, srv: srv, reg: reg, store: store}
}

// connect opens a go-sdk client session over one transport.
func (e *mcpEnv) connect(t *testing.T, kind string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	var tr mcp.Transport
	switch kind {
	case "streamable":
		tr = &mcp.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp", MaxRetries: -1}
	case "sse":
		tr = &mcp.SSEClientTransport{Endpoint: e.ts.URL + "/mcp/sse"}
	case "memory":
		ct, st := mcp.NewInMemoryTransports()
		ss, err := e.srv.mcp.Connect(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		tr = ct
	default:
		t.Fatalf("unknown transport %s", kind)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "precisiond-test", Version: "1"}, copts)
	// The SSE transport ties its stream to the Connect context: it must outlive
	// the call, so no deadline here.
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("%s: connect: %v", kind, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// invokeEnvelope calls /invoke and returns the canonical bytes of its
// structured_result.
func (e *mcpEnv) invokeEnvelope(t *testing.T, tool string, args map[string]any) []byte {
	t.Helper()
	resp := testhttp.PostJSON(t, e.ts.URL+"/invoke", testhttp.Canonical(t, map[string]any{"tool": tool, "args": args}))
	sr, ok := resp.JSON(t)["structured_result"]
	if !ok {
		t.Fatalf("/invoke %s: no structured_result: %s", tool, resp.Body)
	}
	return testhttp.Canonical(t, sr)
}

// loose round-trips v through encoding/json into generic values with float64
// numbers: how the go-sdk client decodes structuredContent and schemas.
func loose(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(testhttp.Marshal(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func listAllTools(t *testing.T, cs *mcp.ClientSession) (list []*mcp.Tool, pages int) {
	t.Helper()
	cursor := ""
	for {
		res, err := cs.ListTools(ctxT(t), &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		pages++
		list = append(list, res.Tools...)
		if res.NextCursor == "" {
			return list, pages
		}
		if pages > 100 {
			t.Fatal("tools/list does not end")
		}
		cursor = res.NextCursor
	}
}

// TestMCPSurface runs the whole MCP contract over Streamable HTTP, SSE and an
// in-memory session with the go-sdk client: initialize, paged tools/list in
// catalogue order with exact schemas and annotations, every tool's first example
// against /invoke, a bad-argument call, an unknown tool, resources and the prompt.
func TestMCPSurface(t *testing.T) {
	const pageSize = 5
	env := newMCPEnv(t, mcpserver.Options{PageSize: pageSize}, Options{})
	names := env.reg.Names()
	for _, kind := range []string{"streamable", "sse", "memory"} {
		t.Run(kind, func(t *testing.T) {
			cs := env.connect(t, kind, nil)
			ctx := ctxT(t)

			init := cs.InitializeResult()
			if init.ServerInfo.Name != "precisiond" || init.Instructions != mcpserver.Instructions {
				t.Errorf("initialize: server %+v, instructions %q", init.ServerInfo, init.Instructions)
			}
			if c := init.Capabilities; c.Tools == nil || !c.Tools.ListChanged || c.Resources == nil || c.Prompts == nil {
				t.Errorf("capabilities %+v", c)
			}

			list, pages := listAllTools(t, cs)
			if want := (len(names) + pageSize - 1) / pageSize; pages != want {
				t.Errorf("tools/list took %d pages of %d, want %d", pages, pageSize, want)
			}
			got := make([]string, len(list))
			for i, tl := range list {
				got[i] = tl.Name
			}
			if !slices.Equal(got, names) {
				t.Fatalf("tools/list order\n got %v\nwant %v", got, names)
			}
			for _, tl := range list {
				tool, hash, _ := env.reg.Lookup(tl.Name)
				c := tool.Contract
				if !reflect.DeepEqual(loose(t, tl.InputSchema), loose(t, c.InputSchema)) {
					t.Errorf("%s: inputSchema differs from the contract", tl.Name)
				}
				if !reflect.DeepEqual(loose(t, tl.OutputSchema), loose(t, mcpserver.EnvelopeSchema(c, hash))) {
					t.Errorf("%s: outputSchema differs from EnvelopeSchema", tl.Name)
				}
				if tl.Title != c.Title || tl.Description != c.Description {
					t.Errorf("%s: title/description %q / %q", tl.Name, tl.Title, tl.Description)
				}
				a := tl.Annotations
				if a == nil || a.ReadOnlyHint != (c.AccessKind == "read") || a.OpenWorldHint == nil || *a.OpenWorldHint ||
					a.DestructiveHint == nil || *a.DestructiveHint || !a.IdempotentHint {
					t.Errorf("%s: annotations %+v for access_kind %s", tl.Name, a, c.AccessKind)
				}
				if tl.Meta["precisiond/contract_id"] != c.ContractID {
					t.Errorf("%s: _meta %v", tl.Name, tl.Meta)
				}
			}

			for _, name := range names {
				tool, _, _ := env.reg.Lookup(name)
				ex := tool.Contract.Examples[0]
				want := env.invokeEnvelope(t, name, ex.Args)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: ex.Args})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if res.IsError {
					t.Errorf("%s: isError: %s", name, testhttp.MCPText(t, res))
					continue
				}
				if got := testhttp.MCPText(t, res); got != string(want) {
					t.Errorf("%s: text block\n got %s\nwant %s", name, got, want)
				}
				var wantEnv any
				_ = json.Unmarshal(want, &wantEnv)
				if !reflect.DeepEqual(loose(t, res.StructuredContent), wantEnv) {
					t.Errorf("%s: structuredContent differs from /invoke", name)
				}
				facts, _ := evidence.Canonical(ex.Facts)
				if !bytes.Contains(want, append([]byte(`"facts":`), facts...)) {
					t.Errorf("%s: facts differ from the documented example %s", name, facts)
				}
			}

			// Bad arguments: isError with the REST error body.
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": "x", "b": 1}})
			if err != nil {
				t.Fatal(err)
			}
			body, _ := res.StructuredContent.(map[string]any)
			if !res.IsError || body["error_code"] != tools.CodeInputSchemaInvalid || body["tool"] != "gcd_lcm" || body["details"] == nil ||
				!strings.Contains(testhttp.MCPText(t, res), `"error_code":"input_schema_invalid"`) {
				t.Errorf("bad arguments: isError %v, body %v", res.IsError, body)
			}
			// A domain refusal carries its reason.
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "timezone_convert", Arguments: map[string]any{
				"local_datetime": "2026-03-29T02:30:00", "from_timezone": "Europe/Berlin", "to_timezone": "UTC"}})
			if err != nil {
				t.Fatal(err)
			}
			body, _ = res.StructuredContent.(map[string]any)
			if !res.IsError || body["error_code"] != tools.CodeExecution || body["reason"] != "nonexistent_local_time_gap" {
				t.Errorf("DST gap: isError %v, body %v", res.IsError, body)
			}

			// Unknown tool: JSON-RPC invalid params.
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
			var werr *jsonrpc.Error
			if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("unknown tool: %v, want JSON-RPC %d", err, jsonrpc.CodeInvalidParams)
			}

			// Prompt.
			p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "precision_guide", Arguments: map[string]string{"task": "What is 2^64?"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Messages) != 1 || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, "result_hash") ||
				!strings.HasSuffix(p.Messages[0].Content.(*mcp.TextContent).Text, "Task: What is 2^64?") {
				t.Errorf("prompt: %+v", p.Messages)
			}

			// The contract of a tool, as a resource.
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.ContractURIPrefix + "gcd_lcm"})
			if err != nil {
				t.Fatal(err)
			}
			entry, _ := env.reg.Entry("gcd_lcm")
			wantEntry, _ := evidence.Canonical(entry)
			if len(rr.Contents) != 1 || rr.Contents[0].Text != string(wantEntry) || rr.Contents[0].MIMEType != "application/json" {
				t.Errorf("contract resource %+v", rr.Contents)
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.ContractURIPrefix + "nope"}); err == nil {
				t.Error("an unknown contract was read")
			}
			tpl, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil || len(tpl.ResourceTemplates) != 2 {
				t.Errorf("resource templates %v %v", tpl, err)
			}
		})
	}
}

// TestMCPGeneratedFiles: generate_file over MCP links its file; the file is
// listed and read back as a resource with the bytes /downloads serves, as text
// for text formats and as a base64 blob otherwise.
func TestMCPGeneratedFiles(t *testing.T) {
	// A short notification interval: each file waits for its list_changed.
	env := newMCPEnv(t, mcpserver.Options{PageSize: 2, ListChangedInterval: 50 * time.Millisecond}, Options{})
	cs := env.connect(t, "streamable", nil)
	resourcesChanged := make(chan struct{}, 16)
	env.connect(t, "sse", &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { resourcesChanged <- struct{}{} },
	})
	ctx := ctxT(t)
	var uris []string
	for _, format := range []string{"md", "csv", "docx", "pdf"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "generate_file", Arguments: map[string]any{
			"content": "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "filename": "report " + format, "format": format}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", format, err, res)
		}
		facts := loose(t, res.StructuredContent).(map[string]any)["facts"].(map[string]any)
		name := facts["filename"].(string)
		var link *mcp.ResourceLink
		for _, c := range res.Content {
			if l, ok := c.(*mcp.ResourceLink); ok {
				link = l
			}
		}
		if link == nil || link.URI != mcpserver.DownloadURIPrefix+name || link.Size == nil || float64(*link.Size) != facts["bytes"] ||
			link.MIMEType != filestore.MediaType(format) {
			t.Fatalf("%s: resource link %+v, facts %v", format, link, facts)
		}
		uris = append(uris, link.URI)
		waitSignal(t, resourcesChanged, format+": notifications/resources/list_changed to the SSE session")

		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(env.ts.URL + facts["download_path"].(string))
		if err != nil {
			t.Fatal(err)
		}
		served, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		c := rr.Contents[0]
		got := c.Blob
		if format == "md" || format == "csv" {
			if c.Blob != nil {
				t.Errorf("%s came back as a blob", format)
			}
			got = []byte(c.Text)
		} else if c.Text != "" {
			t.Errorf("%s came back as text", format)
		}
		if !bytes.Equal(got, served) || c.MIMEType != filestore.MediaType(format) || c.URI != link.URI {
			t.Errorf("%s: resource (%d bytes, %s) differs from /downloads (%d bytes)", format, len(got), c.MIMEType, len(served))
		}
	}
	var listed []string
	cursor := ""
	for pages := 0; ; pages++ {
		res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Resources) > 2 {
			t.Errorf("page of %d resources, page size 2", len(res.Resources))
		}
		for _, r := range res.Resources {
			listed = append(listed, r.URI)
			if r.Size <= 0 || r.MIMEType == "" {
				t.Errorf("resource %+v", r)
			}
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	slices.Sort(uris)
	if !slices.Equal(listed, uris) {
		t.Errorf("resources/list %v, want %v", listed, uris)
	}
	for _, bad := range []string{mcpserver.DownloadURIPrefix + "000000000000_missing.md", mcpserver.DownloadURIPrefix + "../../etc/passwd", "file:///etc/passwd"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: bad}); err == nil {
			t.Errorf("%s was read", bad)
		}
	}
}

// TestMCPStructuredContentBytes posts raw JSON-RPC to /mcp and checks that
// structuredContent holds exactly /invoke's structured_result bytes for every
// example of every tool (floats stay floats, big integers keep every digit).
func TestMCPStructuredContentBytes(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{}, Options{})
	type call struct {
		tool string
		args map[string]any
	}
	var calls []call
	for _, name := range env.reg.Names() {
		tool, _, _ := env.reg.Lookup(name)
		for _, ex := range tool.Contract.Examples {
			calls = append(calls, call{name, ex.Args})
		}
	}
	big, _ := evidence.ParseJSON([]byte(`{"a": 999999999999999999, "b": 3}`))
	calls = append(calls, call{"gcd_lcm", big.(map[string]any)})
	for i, c := range calls {
		want := env.invokeEnvelope(t, c.tool, c.args)
		req, _ := evidence.Canonical(map[string]any{"jsonrpc": "2.0", "id": json.Number(fmt.Sprint(i + 1)), "method": "tools/call",
			"params": map[string]any{"name": c.tool, "arguments": c.args}})
		raw := postMCP(t, env.ts.URL+"/mcp", nil, req)
		v, err := evidence.ParseJSON(raw)
		if err != nil {
			t.Fatalf("%s: %v: %s", c.tool, err, raw)
		}
		result, _ := v.(map[string]any)["result"].(map[string]any)
		got, _ := evidence.Canonical(result["structuredContent"])
		if !bytes.Equal(got, want) {
			t.Errorf("%s: structuredContent\n got %s\nwant %s", c.tool, got, want)
		}
	}
	if !strings.Contains(string(env.invokeEnvelope(t, "gcd_lcm", big.(map[string]any))), `"lcm":999999999999999999`) {
		t.Error("big integer lost digits")
	}
}

// postMCP posts one JSON-RPC message to the stateless endpoint and returns the
// body (JSON responses are configured).
func postMCP(t *testing.T, url string, hdr map[string]string, body []byte) []byte {
	t.Helper()
	status, b := rawMCP(t, http.MethodPost, url, hdr, body)
	if status != http.StatusOK {
		t.Fatalf("POST %s: %d %s", url, status, b)
	}
	return b
}

func rawMCP(t *testing.T, method, url string, hdr map[string]string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") == "text/event-stream" {
		// An SSE stream that answered (403s and the like are not streams).
		b := make([]byte, 256)
		n, _ := resp.Body.Read(b)
		return resp.StatusCode, b[:n]
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestMCPToggle: disabling a tool refuses it on MCP at once (tool_disabled), drops
// it from tools/list and notifies connected sessions; enabling brings it back.
func TestMCPToggle(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{}, Options{})
	// Each notification is tagged with the phase the test was in when the
	// client handled it (the client drops its cached tool list just before).
	// The phase after enabling begins only once SetEnabled has returned, so a
	// notification tagged with it emptied the cache after the change; one left
	// over from disabling (they are coalesced and may arrive late) cannot be
	// taken for it.
	var phase atomic.Int32
	changed := map[string]chan int32{}
	sessions := map[string]*mcp.ClientSession{}
	for _, kind := range []string{"sse", "memory"} {
		ch := make(chan int32, 64)
		changed[kind] = ch
		sessions[kind] = env.connect(t, kind, &mcp.ClientOptions{
			// Non-blocking: one toggle re-registers every tool and may send more
			// notifications than the buffer holds; a blocked handler would hang
			// ClientSession.Close.
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
				select {
				case ch <- phase.Load():
				default:
				}
			},
		})
	}
	sessions["streamable"] = env.connect(t, "streamable", nil)
	ctx := ctxT(t)
	args := map[string]any{"a": 4, "b": 6}

	env.reg.SetEnabled("gcd_lcm", false)
	for kind, cs := range sessions {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gcd_lcm", Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		body, _ := res.StructuredContent.(map[string]any)
		if !res.IsError || body["error_code"] != tools.CodeToolDisabled || body["reason"] != "disabled" {
			t.Errorf("%s: disabled tool answered isError=%v %v", kind, res.IsError, body)
		}
		list, _ := listAllTools(t, cs)
		for _, tl := range list {
			if tl.Name == "gcd_lcm" {
				t.Errorf("%s: a disabled tool is listed", kind)
			}
		}
		if len(list) != len(env.reg.Names())-1 {
			t.Errorf("%s: %d tools listed", kind, len(list))
		}
	}
	for kind, ch := range changed {
		waitPhase(t, ch, 0, kind+": notifications/tools/list_changed after disable")
	}

	env.reg.SetEnabled("gcd_lcm", true)
	phase.Store(1)
	for kind, ch := range changed {
		waitPhase(t, ch, 1, kind+": notifications/tools/list_changed after enable")
	}
	// Stateless /mcp sends no notifications: its client keeps the list it
	// has for the list's ttlMs (TestMCPCacheHints); a new session lists anew.
	sessions["streamable"] = env.connect(t, "streamable", nil)
	for kind, cs := range sessions {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gcd_lcm", Arguments: args})
		if err != nil || res.IsError {
			t.Errorf("%s: re-enabled tool: %v %v", kind, err, res)
		}
		list, _ := listAllTools(t, cs)
		if len(list) != len(env.reg.Names()) || list[0].Name != "gcd_lcm" {
			t.Errorf("%s: after enabling, %d tools, first %s", kind, len(list), list[0].Name)
		}
	}
}

// waitPhase waits for a value of ch equal to want, skipping earlier phases;
// the bound only keeps a broken build from hanging.
func waitPhase(t *testing.T, ch chan int32, want int32, what string) {
	t.Helper()
	deadline := time.After(testhttp.Timeout)
	for {
		select {
		case got := <-ch:
			if got == want {
				return
			}
		case <-deadline:
			t.Errorf("no %s", what)
			return
		}
	}
}

// waitSignal waits for ch; the bound only keeps a broken build from hanging.
func waitSignal(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(testhttp.Timeout):
		t.Errorf("no %s", what)
	}
}

// TestMCPHostOrigin: the HTTP transports refuse a foreign Host or Origin with
// 403 (DNS-rebinding protection) and accept loopback and configured names.
func TestMCPHostOrigin(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{AllowedHosts: []string{"mcp.example.com", "svc.internal:8003"}}, Options{})
	ping := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	cases := []struct {
		name   string
		method string
		path   string
		hdr    map[string]string
		want   int
	}{
		{"loopback host", "POST", "/mcp", nil, 200},
		{"localhost any port", "POST", "/mcp", map[string]string{"Host": "localhost:9"}, 200},
		{"ipv6 loopback", "POST", "/mcp", map[string]string{"Host": "[::1]:8003"}, 200},
		{"configured name", "POST", "/mcp", map[string]string{"Host": "MCP.example.com"}, 200},
		{"configured host:port", "POST", "/mcp", map[string]string{"Host": "svc.internal:8003"}, 200},
		{"configured host, other port", "POST", "/mcp", map[string]string{"Host": "svc.internal:9000"}, 403},
		{"foreign host", "POST", "/mcp", map[string]string{"Host": "evil.example"}, 403},
		{"rebinding name", "POST", "/mcp", map[string]string{"Host": "127.0.0.1.evil.example"}, 403},
		{"loopback origin", "POST", "/mcp", map[string]string{"Origin": "http://localhost:6274"}, 200},
		{"foreign origin", "POST", "/mcp", map[string]string{"Origin": "http://evil.example"}, 403},
		{"null origin", "POST", "/mcp", map[string]string{"Origin": "null"}, 403},
		{"sse foreign host", "GET", "/mcp/sse", map[string]string{"Host": "evil.example"}, 403},
		{"sse foreign origin", "GET", "/mcp/sse", map[string]string{"Origin": "https://evil.example"}, 403},
		{"sse post foreign host", "POST", "/mcp/sse?sessionid=x", map[string]string{"Host": "evil.example"}, 403},
		{"sse loopback", "GET", "/mcp/sse", nil, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := rawMCP(t, c.method, env.ts.URL+c.path, c.hdr, ping)
			if status != c.want {
				t.Fatalf("status %d, want %d: %s", status, c.want, body)
			}
			if c.want == 403 && !strings.Contains(string(body), `"error_code":"forbidden"`) {
				t.Errorf("body %s", body)
			}
		})
	}
}

// TestMCPBodyLimit: an MCP request body over MaxBodyBytes is refused with 413.
func TestMCPBodyLimit(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{}, Options{MaxBodyBytes: 4096})
	big := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hash_text","arguments":{"text":"` + strings.Repeat("x", 8192) + `"}}}`)
	if status, body := rawMCP(t, "POST", env.ts.URL+"/mcp", nil, big); status != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d: %s", status, body)
	}
	small := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hash_text","arguments":{"text":"abc"}}}`)
	if b := postMCP(t, env.ts.URL+"/mcp", nil, small); !bytes.Contains(b, []byte("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")) {
		t.Errorf("small call: %s", b)
	}
}

// TestMCPSSEOutlivesServerTimeouts: an SSE session keeps working after the
// http.Server's read and write timeouts have passed.
func TestMCPSSEOutlivesServerTimeouts(t *testing.T) {
	store, reg := builtinOnStore(t)
	srv := New(reg, Options{MCP: &mcpserver.Options{Files: store}})
	ts := httptest.NewUnstartedServer(srv)
	// Short enough to wait out, long enough for every POST of the session
	// (connect, call) to be answered within them on a loaded machine.
	ts.Config.ReadTimeout = time.Second
	ts.Config.WriteTimeout = time.Second
	ts.Start()
	t.Cleanup(ts.Close)
	env := &mcpEnv{ts: ts, srv: srv, reg: reg, store: store}
	cs := env.connect(t, "sse", nil)
	time.Sleep(3 * time.Second) // the stream's GET is now past both timeouts
	res, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 4, "b": 6}})
	if err != nil || res.IsError {
		t.Fatalf("after the server timeouts: %v %v", err, res)
	}
}

// TestMCPDrain: draining ends open SSE sessions and refuses new MCP requests.
func TestMCPDrain(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{}, Options{})
	cs := env.connect(t, "sse", nil)
	env.srv.Drain()
	done := make(chan struct{})
	go func() { _ = cs.Wait(); close(done) }()
	waitSignal(t, done, "end of the SSE session on drain")
	if status, body := rawMCP(t, "POST", env.ts.URL+"/mcp", nil, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); status != http.StatusServiceUnavailable {
		t.Errorf("while draining: %d %s", status, body)
	}
}

// TestMCPLogsCalls: a tool call over /mcp is logged with the request id, tool and
// error code, and never with its arguments.
func TestMCPLogsCalls(t *testing.T) {
	logs := &syncBuf{}
	env := newMCPEnv(t, mcpserver.Options{}, Options{Logger: newBufLogger(logs)})
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":"secret-value","b":1}}}`)
	postMCP(t, env.ts.URL+"/mcp", map[string]string{"X-Request-Id": "mcp-req-1"}, req)
	out := logs.String()
	if !strings.Contains(out, `"request_id":"mcp-req-1"`) || !strings.Contains(out, `"tool":"gcd_lcm"`) ||
		!strings.Contains(out, `"error_code":"input_schema_invalid"`) || !strings.Contains(out, `"surface":"mcp"`) {
		t.Errorf("logs lack the call: %s", out)
	}
	if strings.Contains(out, "secret-value") {
		t.Error("arguments leaked into the logs")
	}
}

// TestEnvelopeSchema: every example's envelope validates against its tool's MCP
// outputSchema, so does an error body, and broken envelopes do not; local $refs
// of the facts schema resolve inside the combined document.
func TestEnvelopeSchema(t *testing.T) {
	_, reg := builtinOnStore(t)
	for _, name := range reg.Names() {
		tool, hash, _ := reg.Lookup(name)
		c := tool.Contract
		schema := mcpserver.EnvelopeSchema(c, hash)
		if err := contracts.ValidateAgainst(schema, map[string]any{"error": "x", "error_code": "timeout", "tool": name}); err != nil {
			t.Errorf("%s: error body rejected: %v", name, err)
		}
		checkRefs(t, name, schema, schema)
		for i, ex := range c.Examples {
			resp, err := reg.Invoke(context.Background(), tools.Request{Tool: name, Args: ex.Args})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			env := resp.Envelope.Generic()
			if err := contracts.ValidateAgainst(schema, env); err != nil {
				t.Errorf("%s/%s: envelope rejected: %v", name, ex.Title, err)
			}
			if testing.Short() && i > 0 {
				continue // each check compiles the schema: -short breaks the first example of each tool, the full run every one
			}
			for field, mutate := range map[string]func(m map[string]any){
				"extra key":      func(m map[string]any) { m["extra"] = true },
				"no result_hash": func(m map[string]any) { delete(m, "result_hash") },
				"other tool":     func(m map[string]any) { m["tool"] = "other" },
				"other contract": func(m map[string]any) { m["contract_hash"] = strings.Repeat("0", 64) },
				"bad facts":      func(m map[string]any) { m["facts"] = map[string]any{"not_a_fact": json.Number("1")} },
			} {
				bad := map[string]any{}
				for k, v := range env {
					bad[k] = v
				}
				mutate(bad)
				if contracts.ValidateAgainst(schema, bad) == nil {
					t.Errorf("%s: envelope with %s accepted", name, field)
				}
			}
		}
	}
}

// checkRefs resolves every local $ref as a JSON Pointer into root.
func checkRefs(t *testing.T, tool string, root, v any) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
			var cur any = root
			for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
				switch c := cur.(type) {
				case map[string]any:
					cur = c[tok]
				case []any:
					var i int
					fmt.Sscan(tok, &i)
					if i < len(c) {
						cur = c[i]
					} else {
						cur = nil
					}
				default:
					cur = nil
				}
			}
			if _, ok := cur.(map[string]any); !ok {
				t.Errorf("%s: $ref %s does not resolve", tool, ref)
			}
		}
		for _, e := range x {
			checkRefs(t, tool, root, e)
		}
	case []any:
		for _, e := range x {
			checkRefs(t, tool, root, e)
		}
	}
}

func TestRebaseRefs(t *testing.T) {
	in := map[string]any{"$defs": map[string]any{"x": map[string]any{"type": "string"}},
		"properties": map[string]any{"a": map[string]any{"$ref": "#/$defs/x"}, "b": map[string]any{"$ref": "#"},
			"c": map[string]any{"$ref": "https://example.com/s"}, "d": map[string]any{"$id": "urn:x", "$ref": "#/y"}}}
	got, _ := evidence.Canonical(surface.RebaseRefs(in, "#/anyOf/0/properties/facts"))
	want := `{"$defs":{"x":{"type":"string"}},"properties":{"a":{"$ref":"#/anyOf/0/properties/facts/$defs/x"},"b":{"$ref":"#/anyOf/0/properties/facts"},"c":{"$ref":"https://example.com/s"},"d":{"$id":"urn:x","$ref":"#/y"}}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	orig, _ := evidence.Canonical(in)
	if !strings.Contains(string(orig), `"$ref":"#/$defs/x"`) {
		t.Error("rebaseRefs modified its input")
	}
}

// TestSchemasNeverMutateContracts: building the MCP and OpenAPI schemas of a
// contract whose outputSchema is a resource of its own ($id, $schema at the
// top, as_of with a local $ref) leaves the contract's maps as they were, and
// the results share no map with it (changing them changes nothing).
func TestSchemasNeverMutateContracts(t *testing.T) {
	c := &contracts.Contract{
		Tool: "t", ContractID: "precisiond.t", ContractVersion: "1.0.0", Determinism: "input_only",
		OutputSchema: map[string]any{
			"$id": "urn:precisiond:t", "$schema": "https://json-schema.org/draft/2020-12/schema",
			"type": "object", "additionalProperties": false, "required": []any{"as_of"},
			"$defs":      map[string]any{"day": map[string]any{"type": "string"}},
			"properties": map[string]any{"as_of": map[string]any{"$ref": "#/$defs/day", "description": "day"}},
		},
	}
	before, _ := evidence.Canonical(c.OutputSchema)
	mcpSchema := mcpserver.EnvelopeSchema(c, strings.Repeat("a", 64))
	env := surface.EnvelopeSchema(c, strings.Repeat("a", 64), map[string]any{"$ref": "#/components/schemas/f"}, "#/components/schemas/f")
	if after, _ := evidence.Canonical(c.OutputSchema); string(after) != string(before) {
		t.Fatalf("building the schemas changed the contract:\n%s\n%s", before, after)
	}
	// Scribble over every map of the results; the contract must not see it.
	var scribble func(v any)
	scribble = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				scribble(e)
				if k == "$ref" || k == "description" {
					x[k] = "scribbled"
				}
			}
			x["scribbled"] = true
		case []any:
			for _, e := range x {
				scribble(e)
			}
		}
	}
	scribble(mcpSchema)
	scribble(env)
	if after, _ := evidence.Canonical(c.OutputSchema); string(after) != string(before) {
		t.Fatalf("the schemas share maps with the contract:\n%s\n%s", before, after)
	}
	// The facts keep their own $id resource unrebased; the copy of as_of in
	// source points into the facts where they sit in each document.
	fresh := mcpserver.EnvelopeSchema(c, strings.Repeat("a", 64))
	facts := fresh["anyOf"].([]any)[0].(map[string]any)["properties"].(map[string]any)["facts"].(map[string]any)
	if facts["$id"] != "urn:precisiond:t" || facts["$schema"] != nil {
		t.Errorf("facts: %v", facts)
	}
}

// TestMCPConcurrentCalls: many simultaneous calls over one SSE session and the
// stateless endpoint all get their own, correct answers.
func TestMCPConcurrentCalls(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{}, Options{})
	sse := env.connect(t, "sse", nil)
	http := env.connect(t, "streamable", nil)
	ctx := ctxT(t)
	var wg sync.WaitGroup
	for i := 1; i <= 40; i++ {
		cs := sse
		if i%2 == 0 {
			cs = http
		}
		wg.Add(1)
		go func(i int, cs *mcp.ClientSession) {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 6 * i, "b": 4 * i}})
			if err != nil || res.IsError {
				t.Errorf("call %d: %v %v", i, err, res)
				return
			}
			if !strings.Contains(testhttp.MCPText(t, res), fmt.Sprintf(`"gcd":%d,`, 2*i)) {
				t.Errorf("call %d: %s", i, testhttp.MCPText(t, res))
			}
		}(i, cs)
	}
	wg.Wait()
}

// TestMCPDrainLetsCallsFinish: a call in flight on /mcp when draining starts
// still gets its answer (only SSE streams are closed).
func TestMCPDrainLetsCallsFinish(t *testing.T) {
	c, err := contracts.Parse([]byte(fakeContract))
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry([]tools.Tool{behaveTool{c}.tool()}, tools.Options{})
	srv := New(reg, Options{MCP: &mcpserver.Options{}})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	type reply struct {
		status int
		body   []byte
	}
	g := &gate{entered: make(chan struct{}, 1), release: make(chan struct{})}
	holdGate.Store(g)
	done := make(chan reply, 1)
	go func() {
		status, body := rawMCP(t, "POST", ts.URL+"/mcp", nil,
			[]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"behave","arguments":{"mode":"hold","n":3}}}`))
		done <- reply{status, body}
	}()
	<-g.entered // the call is running
	srv.Drain()
	close(g.release)
	r := <-done
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"facts":{"n":3}`) {
		t.Errorf("in-flight call during drain: %d %s", r.status, r.body)
	}
}
