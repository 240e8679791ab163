package api

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/surface"
)

// mcpAccess is the SDK side of the API tokens (installed when tokens are
// on): every request runs with its caller's token in the context
// (principal), where the surfaces' handlers find it. The full surface shows
// and runs only the tools in its scope and shows and reads only the files
// generated under it (mcpSurface.caller); the compact surface's run_plan
// checks each step's tool. A token revoked since an SSE session opened ends
// the session's access.
func (m *mcpMount) mcpAccess(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		t := m.caller(ctx)
		if t == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "unauthorized: the API token of this session is no longer valid"}
		}
		return next(surface.WithPrincipal(ctx, t), method, req)
	}
}

// caller is the token of an MCP request, looked up by name in the current
// token set (so that a reload's scope changes and revocations apply to open
// sessions): the one the HTTP request that opened the session was admitted
// with (accessControl), which the SDK's session context carries (/mcp/sse:
// the GET's; stateless /mcp: the POST's).
func (m *mcpMount) caller(ctx context.Context) *access.Token {
	if oc := oauthOf(ctx); oc != nil {
		if m.srv.edge.opts.OAuth.expired(oc) {
			return nil
		}
		return oc.token
	}
	name := surface.TokenName(ctx)
	switch name {
	case "":
		return nil
	case surface.AdminPrincipal.Name:
		return surface.AdminPrincipal
	}
	if m.srv.edge.opts.Tokens == nil {
		return nil
	}
	return m.srv.edge.opts.Tokens.Set().Lookup(name)
}
