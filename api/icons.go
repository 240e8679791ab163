package api

import (
	"context"
	"embed"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The icons of the server and of the catalogue groups (contracts/groups.json):
// SVG files embedded in the binary, served at /icons/<name>.svg without a
// token (a client's UI fetches them like a favicon), and the server's icon
// advertised in MCP serverInfo to clients of protocol 2025-11-25 or later
// (the version that added icons), as a data: URI so that it needs no
// public URL.

//go:embed icons/*.svg
var iconFS embed.FS

// iconsPath is the prefix of the icon route.
const iconsPath = "/icons/"

// iconsSince is the first MCP protocol version with icons.
const iconsSince = "2025-11-25"

// serverIcons is the server's icon for MCP serverInfo.
var serverIcons = func() []mcp.Icon {
	b, err := iconFS.ReadFile("icons/precisiond.svg")
	if err != nil {
		panic(err) // embedded: found by every test
	}
	return []mcp.Icon{{Source: "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(b), MIMEType: "image/svg+xml", Sizes: []string{"any"}}}
}()

// iconHandler serves GET /icons/{name}.svg. SVG can carry script: the
// answer forbids running any (CSP) and sniffing it as something else.
func iconHandler(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "name")
	b, err := iconFS.ReadFile("icons/" + name)
	if err != nil || !strings.HasSuffix(name, ".svg") || strings.Contains(name, "/") {
		writeError(w, newError(CodeNotFound, "no icon "+quoteShort(name)), false)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// iconsByVersion is MCP middleware that leaves serverInfo.icons out of an
// initialize answer negotiated below iconsSince.
func iconsByVersion(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if ir, ok := res.(*mcp.InitializeResult); ok && err == nil && ir.ServerInfo != nil && len(ir.ServerInfo.Icons) > 0 && ir.ProtocolVersion < iconsSince {
			info := *ir.ServerInfo
			info.Icons = nil
			cp := *ir
			cp.ServerInfo = &info
			return &cp, nil
		}
		return res, err
	}
}
