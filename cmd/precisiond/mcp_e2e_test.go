package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
)

// invokeEnvelope returns the canonical structured_result of an /invoke call.
func invokeEnvelope(t *testing.T, base, tool string, args map[string]any) []byte {
	t.Helper()
	body, _ := evidence.Canonical(map[string]any{"tool": tool, "args": args})
	v, err := evidence.ParseJSON(invokeRaw(t, base, body))
	if err != nil {
		t.Fatal(err)
	}
	sr, ok := v.(map[string]any)["structured_result"]
	if !ok {
		t.Fatalf("/invoke %s failed: %v", tool, v)
	}
	b, _ := evidence.Canonical(sr)
	return b
}

type example struct {
	tool  string
	title string
	args  map[string]any
	facts map[string]any
}

// catalogueExamples lists every example of every tool, in catalogue order.
func catalogueExamples(t *testing.T, base string) (names []string, examples []example) {
	t.Helper()
	for _, e := range getJSON(t, base+"/tools")["tools"].([]any) {
		entry := e.(map[string]any)
		names = append(names, entry["name"].(string))
		for _, x := range entry["examples"].([]any) {
			ex := x.(map[string]any)
			examples = append(examples, example{entry["name"].(string), ex["title"].(string), ex["args"].(map[string]any), ex["facts"].(map[string]any)})
		}
	}
	return names, examples
}

// exerciseSession runs the MCP checks shared by every transport against the
// real binary or wiring: initialize, all tools in catalogue order, every tool's
// first example byte-identical to /invoke, bad arguments, unknown tool,
// generate_file's file as a resource, the prompt.
func exerciseSession(t *testing.T, cs *mcp.ClientSession, base string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	names, examples := catalogueExamples(t, base)

	if init := cs.InitializeResult(); init.ServerInfo.Name != "precisiond" || !strings.Contains(init.Instructions, "result_hash") {
		t.Errorf("initialize: %+v", init)
	}
	var listed []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Annotations == nil || tool.Title == "" {
			t.Errorf("%s: incomplete description", tool.Name)
		}
	}
	if !slices.Equal(listed, names) {
		t.Errorf("tools/list %v\nwant %v", listed, names)
	}

	keys := fetchKeySet(t, base)
	seen := map[string]bool{}
	for _, ex := range examples {
		if seen[ex.tool] {
			continue
		}
		seen[ex.tool] = true
		want := invokeEnvelope(t, base, ex.tool, ex.args)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ex.tool, Arguments: ex.args})
		if err != nil {
			t.Fatalf("%s: %v", ex.tool, err)
		}
		if res.IsError || testhttp.MCPText(t, res) != string(want) {
			t.Errorf("%s: MCP result\n%s\ndiffers from /invoke\n%s", ex.tool, testhttp.MCPText(t, res), want)
		}
		// The attestation travels in _meta; structuredContent is the envelope.
		sr, err := evidence.ParseJSON(want)
		if err != nil {
			t.Fatal(err)
		}
		checkAttestation(t, keys, map[string]any{"structured_result": sr, "attestation": res.Meta[mcpserver.MetaAttestation]})
		facts, _ := evidence.Canonical(ex.facts)
		if !bytes.Contains(want, append([]byte(`"facts":`), facts...)) {
			t.Errorf("%s: facts differ from the documented example", ex.tool)
		}
		if ex.tool == "generate_file" {
			var link *mcp.ResourceLink
			for _, c := range res.Content {
				if l, ok := c.(*mcp.ResourceLink); ok {
					link = l
				}
			}
			if link == nil {
				t.Fatal("generate_file: no resource link")
			}
			found := false
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				found = found || r.URI == link.URI
			}
			if !found {
				t.Errorf("resources/list lacks %s", link.URI)
			}
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI})
			if err != nil {
				t.Fatal(err)
			}
			got := rr.Contents[0].Blob
			if got == nil {
				got = []byte(rr.Contents[0].Text)
			}
			resp, err := http.Get(base + "/downloads/" + strings.TrimPrefix(link.URI, "precisiond://downloads/"))
			if err != nil {
				t.Fatal(err)
			}
			served, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !bytes.Equal(got, served) {
				t.Errorf("resource %s (%d bytes) differs from /downloads (%d, %d bytes)", link.URI, len(got), resp.StatusCode, len(served))
			}
		}
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 1.5, "b": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if body, _ := res.StructuredContent.(map[string]any); !res.IsError || body["error_code"] != "input_schema_invalid" {
		t.Errorf("bad arguments: %v %v", res.IsError, res.StructuredContent)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown tool: %v", err)
	}
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "precision_guide"})
	if err != nil || len(p.Messages) == 0 || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, "result_hash") {
		t.Errorf("prompt: %v %v", p, err)
	}
}

func newClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "precisiond-e2e", Version: "1"}, nil)
}

// TestMCPHTTPThroughMain runs the MCP checks over /mcp and /mcp/sse of the real
// wiring, and the Host check with --allowed-hosts.
func TestMCPHTTPThroughMain(t *testing.T) {
	base, _ := startMain(t, func(c *Config) { c.AllowedHosts = []string{"precisiond.internal"} })
	for kind, tr := range map[string]mcp.Transport{
		"streamable": &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1},
		"sse":        &mcp.SSEClientTransport{Endpoint: base + "/mcp/sse"},
	} {
		t.Run(kind, func(t *testing.T) {
			cs, err := newClient().Connect(context.Background(), tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			exerciseSession(t, cs, base)
		})
	}
	for host, want := range map[string]int{"precisiond.internal:8003": 200, "evil.example": 403} {
		hdr := map[string]string{"Host": host, "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		if st := testhttp.Do(t, "POST", base+"/mcp", hdr, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)).Status; st != want {
			t.Errorf("Host %s: %d, want %d", host, st, want)
		}
	}
}

// TestMCPShutdownWithOpenSSE: an open SSE session does not hold up a graceful
// shutdown (Run returns without error, the session ends).
func TestMCPShutdownWithOpenSSE(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	m, err := NewMain(cfg, newLogger(io.Discard, "error"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	cs, err := newClient().Connect(context.Background(), &mcp.SSEClientTransport{Endpoint: "http://" + m.Addr() + "/mcp/sse"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := testhttp.Returned(t, done, "Run (the open SSE session held up the shutdown)"); err != nil {
		t.Errorf("Run: %v (the open SSE session held up the shutdown)", err)
	}
	sessionDone := make(chan struct{})
	go func() { _ = cs.Wait(); close(sessionDone) }()
	select {
	case <-sessionDone:
	case <-time.After(testhttp.Timeout):
		t.Error("the SSE session did not end")
	}
}

// TestMCPStdio runs `precisiond mcp` as a subprocess with the go-sdk
// CommandTransport: the same checks as over HTTP, logs on stderr only, exit 0
// when the client closes stdin.
func TestMCPStdio(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir() // one data directory: one signing key
	base, _ := startMain(t, func(c *Config) { c.DataDir = dir })
	cmd := exec.Command(bin, "mcp", "--data-dir", dir, "--log-level", "debug")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	cs, err := newClient().Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exerciseSession(t, cs, base)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("precisiond mcp exit: %v\n%s", cmd.ProcessState, stderr.String())
	}
	logs := stderr.String()
	if !strings.Contains(logs, `"msg":"serving MCP over stdio"`) || !strings.Contains(logs, `"msg":"mcp tool call"`) {
		t.Errorf("stderr lacks the structured logs:\n%s", logs)
	}
}

// TestMCPStdioRaw speaks newline-delimited JSON-RPC to `precisiond mcp` by hand:
// every line on stdout is a JSON-RPC message, and structuredContent of every
// example of every tool is byte-identical (canonically) to /invoke's
// structured_result — big integers and floats included.
func TestMCPStdioRaw(t *testing.T) {
	bin := buildBinary(t)
	base, _ := startMain(t, nil)
	_, examples := catalogueExamples(t, base)
	bigArgs, _ := evidence.ParseJSON([]byte(`{"a": 999999999999999999, "b": 3}`))
	examples = append(examples, example{tool: "gcd_lcm", title: "big", args: bigArgs.(map[string]any)})

	cmd, stdin, stdout, stderr := startMCPStdio(t, bin, "", nil, "--data-dir", t.TempDir())

	var in bytes.Buffer
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i, ex := range examples {
		line, _ := evidence.Canonical(map[string]any{"jsonrpc": "2.0", "id": json.Number(fmt.Sprint(i + 1)), "method": "tools/call",
			"params": map[string]any{"name": ex.tool, "arguments": ex.args}})
		in.Write(append(line, '\n'))
	}
	go func() {
		_, _ = stdin.Write(in.Bytes())
	}()

	replies := map[string]map[string]any{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for len(replies) < len(examples)+1 && sc.Scan() {
		v, err := evidence.ParseJSON(sc.Bytes())
		msg, ok := v.(map[string]any)
		if err != nil || !ok || msg["jsonrpc"] != "2.0" {
			t.Fatalf("stdout carries a non-JSON-RPC line: %q", sc.Text())
		}
		if id, ok := msg["id"].(json.Number); ok {
			replies[id.String()] = msg
		}
	}
	if init, _ := replies["0"]["result"].(map[string]any); init == nil || init["protocolVersion"] != "2025-06-18" {
		t.Fatalf("initialize: %v\n%s", replies["0"], stderr.String())
	}
	for i, ex := range examples {
		msg := replies[fmt.Sprint(i+1)]
		result, _ := msg["result"].(map[string]any)
		if result == nil || result["isError"] == true {
			t.Errorf("%s/%s: %v", ex.tool, ex.title, msg)
			continue
		}
		got, _ := evidence.Canonical(result["structuredContent"])
		if want := invokeEnvelope(t, base, ex.tool, ex.args); !bytes.Equal(got, want) {
			t.Errorf("%s/%s: structuredContent\n got %s\nwant %s", ex.tool, ex.title, got, want)
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after stdin closed: %v\n%s", err, stderr.String())
	}
}

// TestMCPStdioFollowsToggles: a toggle made through a server's admin API on the
// same data directory reaches a running `precisiond mcp`: its session gets
// notifications/tools/list_changed, tools/list drops the tool and a call is
// refused with tool_disabled.
func TestMCPStdioFollowsToggles(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	base, _ := startMain(t, func(c *Config) { c.DataDir = dir; c.AdminToken = "secret-token" })
	changed := make(chan struct{}, 8)
	client := mcp.NewClient(&mcp.Implementation{Name: "precisiond-e2e", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cmd := exec.Command(bin, "mcp", "--data-dir", dir)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	hdr := map[string]string{"Authorization": "Bearer secret-token", "Content-Type": "application/json"}
	if st := testhttp.Do(t, "PUT", base+"/admin/tools/roman_numeral", hdr, []byte(`{"enabled":false}`)).Status; st != 200 {
		t.Fatalf("admin PUT: %d", st)
	}
	select {
	case <-changed:
	case <-time.After(testhttp.Timeout): // the toggle file is polled every 2 s
		t.Fatal("no notifications/tools/list_changed over stdio")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "roman_numeral", Arguments: map[string]any{"value": "XIV"}})
	if err != nil {
		t.Fatal(err)
	}
	if body, _ := res.StructuredContent.(map[string]any); !res.IsError || body["error_code"] != "tool_disabled" {
		t.Errorf("disabled tool over stdio: %v %v", res.IsError, res.StructuredContent)
	}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Name == "roman_numeral" {
			t.Error("a disabled tool is listed over stdio")
		}
	}
}
