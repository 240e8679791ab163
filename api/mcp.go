package api

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/mcpserver"
)

// mountMCP mounts the MCP surface (package mcpserver) on r; settings missing
// from Options.MCP come from Options (logger, body limit, version). With
// tokens on, the surface enforces them through mcpAccess.
func (s *Server) mountMCP(r chi.Router) {
	o := *s.opts.MCP
	if o.Logger == nil {
		o.Logger = s.log
	}
	defaults.Positive(&o.MaxBodyBytes, s.opts.MaxBodyBytes)
	if o.Version == "" {
		o.Version = s.opts.Version
	}
	p := mcpserver.Mounting{Options: o, Registry: s.reg, Plans: s.ops, Draining: s.draining.Load}
	if s.edge.authOn() {
		p.Access = mcpAccess{s}
	}
	s.mcp = mcpserver.Mount(r, p)
}

// mcpAccess is the server's access control as the MCP surface sees it
// (mcpserver.Access).
type mcpAccess struct{ s *Server }

// Caller looks the principal in ctx up again in the current token set (so
// that a reload's scope changes and revocations apply to open sessions): the
// token the HTTP request that opened the session was admitted with, which
// the SDK's session context carries (/mcp/sse: the GET's; stateless /mcp:
// the POST's).
func (a mcpAccess) Caller(ctx context.Context) *access.Token {
	e := a.s.edge
	if oc := oauthOf(ctx); oc != nil {
		if e.opts.OAuth.expired(oc) {
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
	if e.opts.Tokens == nil {
		return nil
	}
	return e.opts.Tokens.Set().Lookup(name)
}

func (a mcpAccess) AuthorizeTool(ctx context.Context, tool string) *surface.Error {
	return a.s.authorizeTool(ctx, tool)
}

func (a mcpAccess) Owns(file, token string) bool  { return a.s.edge.owners.Owns(file, token) }
func (a mcpAccess) NoteOwner(file, token string)  { a.s.edge.noteOwner(file, token) }
func (a mcpAccess) SignedPath(file string) string { return a.s.edge.signedPath(file) }
func (a mcpAccess) OAuthOn() bool                 { return a.s.edge.opts.OAuth != nil }
func (a mcpAccess) CountRefusal(ctx context.Context, code, token, path, tool string) {
	a.s.countRefusal(ctx, code, token, path, tool)
}

func (a mcpAccess) Refuse(w http.ResponseWriter, r *http.Request, e *surface.Error, token string) {
	a.s.refuseAccess(w, r, e, token)
}

func (a mcpAccess) OAuthCaller(ctx context.Context) *access.Token {
	if oc := oauthOf(ctx); oc != nil {
		return oc.token
	}
	return nil
}

func (a mcpAccess) ScopeChallenge(path string, scopes []string) string {
	return a.s.edge.opts.OAuth.scopeChallenge(path, scopes)
}
