package api

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/access"
)

// mcpAccess is the MCP side of the API tokens (installed when tokens are on):
// every request runs with its token in the context; tools/list shows only the
// tools in the token's scope and tools/call refuses the others with a
// forbidden tool error; resources/list and resources/read show a token only
// the files generated under it, and a generated file's resource link carries
// its signed download path in _meta["precisiond/download_url"]. full is false
// on the compact surface, whose four tools are not scoped (run_plan checks
// each step's tool).
func (m *mcpMount) mcpAccess(full bool) mcp.Middleware {
	e := m.srv.edge
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			t := m.caller(ctx, req)
			if t == nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "unauthorized: the API token of this session is no longer valid"}
			}
			ctx = withPrincipal(ctx, t)
			switch r := req.(type) {
			case *mcp.CallToolRequest:
				if !full {
					break
				}
				if aerr := m.srv.authorizeTool(ctx, r.Params.Name); aerr != nil {
					return errorResult(errorBody(aerr))
				}
				res, err := next(ctx, method, req)
				if ctr, ok := res.(*mcp.CallToolResult); ok && err == nil {
					for _, c := range ctr.Content {
						if link, ok := c.(*mcp.ResourceLink); ok {
							e.noteOwner(link.Name, t.Name)
							if p := e.signedPath(link.Name); p != "" {
								link.Meta = mcp.Meta{"precisiond/download_url": p}
							}
						}
					}
				}
				return res, err
			case *mcp.ListToolsRequest:
				res, err := next(ctx, method, req)
				if ltr, ok := res.(*mcp.ListToolsResult); ok && err == nil && full {
					kept := ltr.Tools[:0:0]
					for _, tool := range ltr.Tools {
						if t.Allows(tool.Name) {
							kept = append(kept, tool)
						}
					}
					ltr.Tools = kept
				}
				return res, err
			case *mcp.ListResourcesRequest:
				res, err := next(ctx, method, req)
				if lrr, ok := res.(*mcp.ListResourcesResult); ok && err == nil {
					kept := lrr.Resources[:0:0]
					for _, rs := range lrr.Resources {
						if e.owners.Owns(rs.Name, t.Name) {
							kept = append(kept, rs)
						}
					}
					lrr.Resources = kept
				}
				return res, err
			case *mcp.ReadResourceRequest:
				if name, ok := strings.CutPrefix(r.Params.URI, DownloadURIPrefix); ok && !e.owners.Owns(name, t.Name) {
					m.srv.countRefusal(ctx, CodeForbidden, t.Name, r.Params.URI, "")
					return nil, mcp.ResourceNotFoundError(r.Params.URI)
				}
			}
			return next(ctx, method, req)
		}
	}
}

// caller is the token of an MCP request, looked up by name in the current
// token set (so that a reload's scope changes and revocations apply to open
// sessions): the token the session was opened with (/mcp/sse: the GET's
// context carries it) or, on the stateless transports, the one the HTTP
// request was admitted with.
func (m *mcpMount) caller(ctx context.Context, req mcp.Request) *access.Token {
	name := tokenName(ctx)
	if name == "" {
		if ex := req.GetExtra(); ex != nil && ex.Header != nil {
			name = ex.Header.Get(mcpTokenHeader)
		}
	}
	switch name {
	case "":
		return nil
	case adminPrincipal.Name:
		return adminPrincipal
	}
	return m.srv.edge.opts.Tokens.Set().Lookup(name)
}
