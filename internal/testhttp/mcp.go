package testhttp

import (
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
