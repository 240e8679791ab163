package main

import (
	"context"
	"io"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToggleReachesMCP: a toggle made through the admin route of the real
// wiring refuses the tool on MCP over HTTP (streamable and SSE) at once, with
// notifications/tools/list_changed on the SSE session; a `precisiond mcp` stdio
// process on the same data directory follows through the toggle file (and
// notifies its client too); re-enabling brings the tool back everywhere.
func TestToggleReachesMCP(t *testing.T) {
	dir := t.TempDir()
	base, _ := runMain(t, opsConfig(t, dir), io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	notify := map[string]chan struct{}{}
	connect := func(kind string, tr mcp.Transport) *mcp.ClientSession {
		ch := make(chan struct{}, 16)
		notify[kind] = ch
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "ops-test", Version: "1"}, &mcp.ClientOptions{
			// Never block the SDK's handler: one change may arrive as several
			// notifications, and a full channel would stall the session.
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
				select {
				case ch <- struct{}{}:
				default:
				}
			},
		}).Connect(ctx, tr, nil)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	stdio := exec.Command(buildBinary(t), "mcp", "--data-dir", dir)
	sessions := map[string]*mcp.ClientSession{
		"streamable": connect("streamable", &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1}),
		"sse":        connect("sse", &mcp.SSEClientTransport{Endpoint: base + "/mcp/sse"}),
		"stdio":      connect("stdio", &mcp.CommandTransport{Command: stdio}),
	}
	call := func(cs *mcp.ClientSession) (bool, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 4, "b": 6}})
		if err != nil {
			t.Fatal(err)
		}
		body, _ := res.StructuredContent.(map[string]any)
		return res.IsError, body
	}
	wait := func(kind string) {
		t.Helper()
		select {
		case <-notify[kind]:
		case <-ctx.Done():
			t.Fatalf("%s: no notifications/tools/list_changed", kind)
		}
	}
	for kind, cs := range sessions {
		if isErr, body := call(cs); isErr {
			t.Fatalf("%s before the toggle: %v", kind, body)
		}
	}

	if status, body := adminDo(t, "PUT", base+"/admin/tools/gcd_lcm", `{"enabled":false}`); status != 200 {
		t.Fatalf("put: %d %v", status, body)
	}
	// The server's own MCP sessions: refused in the same instant.
	for _, kind := range []string{"streamable", "sse"} {
		if isErr, body := call(sessions[kind]); !isErr || body["error_code"] != "tool_disabled" || body["reason"] != "disabled" {
			t.Errorf("%s right after the toggle: isError=%v %v", kind, isErr, body)
		}
	}
	wait("sse")
	// The stdio process reads the toggle file (every 2 s) and notifies its client.
	wait("stdio")
	if isErr, body := call(sessions["stdio"]); !isErr || body["error_code"] != "tool_disabled" {
		t.Errorf("stdio after the file changed: isError=%v %v", isErr, body)
	}

	for _, ch := range notify { // forget notifications of the first change
		for len(ch) > 0 {
			<-ch
		}
	}
	adminDo(t, "PUT", base+"/admin/tools/gcd_lcm", `{"enabled":true}`)
	for _, kind := range []string{"streamable", "sse"} {
		if isErr, body := call(sessions[kind]); isErr {
			t.Errorf("%s right after re-enabling: %v", kind, body)
		}
	}
	wait("sse")
	// stdio: the next watcher tick applies it (a late notification of the first
	// change could arrive first, so poll the call itself).
	for {
		isErr, body := call(sessions["stdio"])
		if !isErr {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("stdio never saw the re-enable: %v", body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	wait("stdio")
}
