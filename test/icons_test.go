package test

import "testing"

// TestTypeScriptToolIcons runs test/mcp-client/icons.mjs against a server
// with --public-base-url: the official TypeScript client (protocol
// 2025-11-25) sees every tool's group icon under that URL over Streamable
// HTTP, SSE and stdio, and none on the compact surface.
func TestTypeScriptToolIcons(t *testing.T) {
	node, dir := nodeClient(t)
	const public = "https://precisiond.example.com/calc"
	base, bin, srvLog := serveBinary(t, "--public-base-url", public)
	runNode(t, node, dir, srvLog, "icons.mjs", base, bin, public)
}
