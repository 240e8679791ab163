package testhttp

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPText returns the text of a tool result's first content item (the
// envelope or error JSON our MCP surfaces put there), failing the test when
// there is none or it is not text.
func MCPText(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("no content")
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content[0] is %T", res.Content[0])
	}
	return tc.Text
}

// MCPToolNames returns the names of the tools the session's first tools/list
// page offers, in the server's order.
func MCPToolNames(t testing.TB, ctx context.Context, cs *mcp.ClientSession) []string {
	t.Helper()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(list.Tools))
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// JSON-RPC ids, as request text, for the id round-trip tests (mcpserver's
// unit test and api's test over every transport): RefusedIDs cannot come back
// unchanged through the go-sdk's float64 ids and are refused with -32600;
// KeptIDs can, and do.
var (
	RefusedIDs = []string{"1.5", "1e20", "9007199254740993", "-9007199254740993", "-0", "1.0", "2E3", "18446744073709551616"}
	KeptIDs    = []string{"7", "-7", "0", "9007199254740992", "-9007199254740992", `"abc"`}
)
