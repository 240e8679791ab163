package main

import (
	"context"
	"io"
	"os/exec"
	"slices"
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

// TestToolIconsFromPublicBaseURL: --public-base-url reaches the MCP surface
// of `serve` and of `precisiond mcp` (stdio): a client of protocol
// 2025-11-25 sees gcd_lcm's group icon under that URL, one of 2025-06-18
// sees none.
func TestToolIconsFromPublicBaseURL(t *testing.T) {
	const base = "https://precisiond.example.com/p"
	dir := t.TempDir()
	cfg := opsConfig(t, dir)
	cfg.PublicBaseURL = base + "/"
	srv, _ := runMain(t, cfg, io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	bin := buildBinary(t)
	for _, v := range []string{"2025-06-18", "2025-11-25"} {
		for kind, tr := range map[string]mcp.Transport{
			"streamable": &mcp.StreamableClientTransport{Endpoint: srv + "/mcp", MaxRetries: -1},
			"stdio":      &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--data-dir", dir, "--public-base-url", base)},
		} {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "icons", Version: "1"}, nil).Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			var icons []mcp.Icon
			for tool, err := range cs.Tools(ctx, nil) {
				if err != nil {
					t.Fatalf("%s: %v", kind, err)
				}
				if tool.Name == "gcd_lcm" {
					icons = tool.Icons
				}
			}
			cs.Close()
			var got, want []string
			for _, ic := range icons {
				got = append(got, ic.Source)
			}
			if v >= "2025-11-25" {
				want = []string{base + "/icons/numbers.svg"}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s at %s: gcd_lcm's icons %v, want %v", kind, v, got, want)
			}
		}
	}
}
