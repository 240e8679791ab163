package mcpserver

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/surface"
)

// mcpAccess is the SDK side of the API tokens (installed when tokens are
// on): every request runs with its caller's token in the context
// (surface.Principal), where the surfaces' handlers find it: the one the
// HTTP request that opened the session was admitted with, as the server's
// current tokens have it (Access.Caller). The full surface shows
// and runs only the tools in its scope and shows and reads only the files
// generated under it (mcpSurface.caller); the compact surface's run_plan
// checks each step's tool. A token revoked since an SSE session opened ends
// the session's access.
func (m *Endpoints) mcpAccess(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		t := m.access.Caller(ctx)
		if t == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "unauthorized: the API token of this session is no longer valid"}
		}
		return next(surface.WithPrincipal(ctx, t), method, req)
	}
}

// Access is the HTTP server's access control, as the MCP surface enforces it
// when the tools need a token (API tokens, OAuth or both). The request that
// reaches the surface was admitted already, its token in the context
// (surface.Principal); these say what that token may do.
type Access interface {
	// Caller is the current token of the principal in ctx, looked up again
	// (so that a reload's scope changes and revocations apply to open SSE
	// sessions); nil when it is no longer valid (revoked, OAuth token expired).
	Caller(ctx context.Context) *access.Token
	// AuthorizeTool refuses a call to a tool outside the caller's scope.
	AuthorizeTool(ctx context.Context, tool string) *surface.Error
	// Owns reports whether a generated file belongs to a token; NoteOwner
	// records that it does.
	Owns(file, token string) bool
	NoteOwner(file, token string)
	// SignedPath is a file's signed download path, "" without signed links.
	SignedPath(file string) string
	// CountRefusal counts a refusal in the metrics and the log.
	CountRefusal(ctx context.Context, code, token, path, tool string)
	// Refuse answers an HTTP request that access control turns away.
	Refuse(w http.ResponseWriter, r *http.Request, e *surface.Error, token string)
	// OAuthOn reports whether OAuth access tokens are accepted;
	// OAuthCaller is the principal of a request admitted by one (nil: none);
	// ScopeChallenge is the WWW-Authenticate value of a 403 on an MCP path
	// for the scopes a call lacked.
	OAuthOn() bool
	OAuthCaller(ctx context.Context) *access.Token
	ScopeChallenge(path string, scopes []string) string
}
