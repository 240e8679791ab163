package mcpserver

import (
	"context"
	"embed"
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/precisiond/precisiond/internal/surface"
)

// The icons of the server and of the catalogue groups (contracts/groups.json):
// SVG files embedded in the binary, served at /icons/<name>.svg without a
// token (a client's UI fetches them like a favicon), and the server's icon
// advertised in MCP serverInfo to clients of protocol 2025-11-25 or later
// (the version that added icons), as a data: URI so that it needs no
// public URL. The full surface's tools name their group's icon by its
// absolute URL under the public base URL (Options.PublicBaseURL), to the
// same clients; without a public base URL they carry none (no host is
// guessed). The compact surface's four tools belong to no group and carry
// none: serverInfo's icon stands for them, and their tools/list stays within
// 8 KiB whatever the base URL's length.

//go:embed icons/*.svg
var iconFS embed.FS

// IconsPath is the prefix of the icon route.
const IconsPath = "/icons/"

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

// IconHandler serves GET /icons/{name}.svg. SVG can carry script: the
// answer forbids running any (CSP) and sniffing it as something else.
func IconHandler(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "name")
	b, err := iconFS.ReadFile("icons/" + name)
	if err != nil || !strings.HasSuffix(name, ".svg") || strings.Contains(name, "/") {
		surface.WriteError(w, surface.NewError(surface.CodeNotFound, "no icon "+surface.QuoteShort(name)), false)
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

// iconsFor reports whether a client of protocol version v is sent icons.
func iconsFor(v string) bool { return v >= iconsSince }

// defaultProtocol is the version of a Streamable HTTP request without an
// Mcp-Protocol-Version header (the transport spec's assumption, and the
// SDK's).
const defaultProtocol = "2025-03-26"

// sessionProtocol is the protocol version a session speaks, as the SDK
// negotiated it: the client's version when the server supports it, else the
// newest one before 2026-07-28 (the initialize answer's). For a stateless
// request the SDK takes the client's version from its Mcp-Protocol-Version
// header (defaultProtocol when absent) or, from 2026-07-28 on, its _meta.
// "" when not known.
func sessionProtocol(ss *mcp.ServerSession) string {
	if ss == nil {
		return ""
	}
	p := ss.InitializeParams()
	if p == nil {
		return ""
	}
	v := p.ProtocolVersion
	supported := mcp.SupportedProtocolVersions() // newest first
	if slices.Contains(supported, v) {
		return v
	}
	for _, s := range supported {
		if s < "2026-07-28" {
			return s
		}
	}
	return ""
}

// groupIcons is the icon of a catalogue group at its absolute URL under the
// public base URL base; nil when base or group is empty or the group has no
// icon.
func groupIcons(base, group string) []mcp.Icon {
	if base == "" || group == "" {
		return nil
	}
	if _, err := iconFS.ReadFile("icons/" + group + ".svg"); err != nil {
		return nil
	}
	return []mcp.Icon{{Source: base + IconsPath + group + ".svg", MIMEType: "image/svg+xml", Sizes: []string{"any"}}}
}
