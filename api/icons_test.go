package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// TestIcons: the server's icon and one per catalogue group are served as
// SVG without a token (with API tokens on), with headers that keep an SVG
// from running script; serverInfo carries the server's icon from protocol
// 2025-11-25 on (the version with icons) and not before, on both surfaces.
func TestIcons(t *testing.T) {
	e := newAccessEnv(t, nil)
	names := []string{"precisiond"}
	for _, g := range contracts.Groups() {
		names = append(names, g.Name)
	}
	bodies := map[string][]byte{}
	for _, n := range names {
		r := testhttp.Do(t, "GET", e.ts.URL+"/icons/"+n+".svg", nil, nil)
		h := r.Header
		if r.Status != 200 || h.Get("Content-Type") != "image/svg+xml" || h.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Fatalf("GET /icons/%s.svg without a token: %d %v", n, r.Status, h)
		}
		var root struct{ XMLName xml.Name }
		if err := xml.Unmarshal(r.Body, &root); err != nil || root.XMLName.Local != "svg" || root.XMLName.Space != "http://www.w3.org/2000/svg" {
			t.Fatalf("/icons/%s.svg is not an SVG document: %v %v", n, root.XMLName, err)
		}
		if bytes.Contains(bytes.ToLower(r.Body), []byte("<script")) || bytes.Contains(bytes.ToLower(r.Body), []byte("href")) {
			t.Fatalf("/icons/%s.svg has script or links", n)
		}
		bodies[n] = r.Body
	}
	for _, p := range []string{"/icons/nope.svg", "/icons/..%2Fmcp.go", "/icons/"} {
		if r := testhttp.Do(t, "GET", e.ts.URL+p, nil, nil); r.Status != 404 {
			t.Errorf("GET %s: %d, want 404", p, r.Status)
		}
	}

	auth := map[string]string{"Authorization": "Bearer " + aliceToken}
	for _, path := range []string{"/mcp", "/mcp/compact"} {
		for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
			h := map[string]string{"Mcp-Protocol-Version": v}
			for k, x := range auth {
				h[k] = x
			}
			res := mcpResult(t, e.ts.URL+path, h, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+v+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			info, _ := res["serverInfo"].(map[string]any)
			icons, has := info["icons"].([]any)
			if v < "2025-11-25" {
				if has || info["icons"] != nil {
					t.Errorf("%s %s: icons sent to a client of a version without them: %v", path, v, info["icons"])
				}
				continue
			}
			if len(icons) != 1 {
				t.Fatalf("%s %s: serverInfo.icons %v", path, v, info["icons"])
			}
			icon, _ := icons[0].(map[string]any)
			src, _ := icon["src"].(string)
			b64, ok := strings.CutPrefix(src, "data:image/svg+xml;base64,")
			got, err := base64.StdEncoding.DecodeString(b64)
			if !ok || err != nil || !bytes.Equal(got, bodies["precisiond"]) || icon["mimeType"] != "image/svg+xml" {
				t.Errorf("%s %s: icon %.80v is not the served precisiond.svg", path, v, icon)
			}
		}
	}
}

// iconBase is the public base URL of the tool-icon tests: behind an
// ingress, with a path prefix.
const iconBase = "https://precisiond.example.com/calc"

// newIconServer is a server with the compact surface whose MCP options name
// the public base URL base ("" for none).
func newIconServer(t *testing.T, base string) *httptest.Server {
	t.Helper()
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	svc := plans.NewService(reg, plans.NewMemoryStore(0), plans.Options{ErrorBody: surface.PlanErrorBody(nil)})
	ts := httptest.NewServer(New(reg, Options{Plans: svc, MCP: &mcpserver.Options{PublicBaseURL: base}}))
	t.Cleanup(ts.Close)
	return ts
}

// catalogGroups is the group of every tool as GET /v1/catalog lists it.
func catalogGroups(t *testing.T, base string) map[string]string {
	t.Helper()
	var cat struct {
		Groups []struct {
			Name  string
			Tools []struct{ Name string }
		}
	}
	if err := json.Unmarshal(testhttp.Do(t, "GET", base+"/v1/catalog", nil, nil).Body, &cat); err != nil {
		t.Fatal(err)
	}
	groups := map[string]string{}
	for _, g := range cat.Groups {
		for _, tl := range g.Tools {
			groups[tl.Name] = g.Name
		}
	}
	if len(groups) < 30 {
		t.Fatalf("the catalogue lists %d tools", len(groups))
	}
	return groups
}

// checkToolIcons checks the tools of one tools/list answer: with want set,
// each tool's icons are exactly its catalogue group's SVG at its URL under
// iconBase; otherwise no tool has an icon. The icon URLs' paths are served
// by srv (the icons are the embedded files). It returns how many tools it
// checked.
func checkToolIcons(t *testing.T, what string, tools []*mcp.Tool, groups map[string]string, want bool, srv string) int {
	t.Helper()
	for _, tl := range tools {
		if !want {
			if tl.Icons != nil {
				t.Errorf("%s: %s has icons %v", what, tl.Name, tl.Icons)
			}
			continue
		}
		g := groups[tl.Name]
		wantIcons := []mcp.Icon{{Source: iconBase + "/icons/" + g + ".svg", MIMEType: "image/svg+xml", Sizes: []string{"any"}}}
		if g == "" || !reflect.DeepEqual(tl.Icons, wantIcons) {
			t.Errorf("%s: %s (group %q) has icons %+v, want %+v", what, tl.Name, g, tl.Icons, wantIcons)
			continue
		}
		path := strings.TrimPrefix(tl.Icons[0].Source, iconBase)
		if r := testhttp.Do(t, "GET", srv+path, nil, nil); r.Status != 200 || r.Header.Get("Content-Type") != "image/svg+xml" {
			t.Errorf("%s: %s's icon %s is not served at %s: %d", what, tl.Name, tl.Icons[0].Source, path, r.Status)
		}
	}
	return len(tools)
}

// rawToolsList is one stateless tools/list POST at protocol version v (no
// header when v is ""), decoded.
func rawToolsList(t *testing.T, url, v string) (tools []*mcp.Tool, size int) {
	t.Helper()
	raw := postMCP(t, url, mcpHeaders(v), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	var msg struct {
		Result *mcp.ListToolsResult
	}
	if err := json.Unmarshal(raw, &msg); err != nil || msg.Result == nil {
		t.Fatalf("tools/list at %q: %v %s", v, err, raw)
	}
	return msg.Result.Tools, len(raw)
}

// TestToolIcons: with a public base URL, tools/list names each tool's
// catalogue group icon by its absolute URL to clients of protocol 2025-11-25
// or later and to no older client, whichever path answers (the fast path for
// the versions it serves, the go-sdk for 2026-07-28); the compact surface's
// four tools carry none and its tools/list stays within 8 KiB; without a
// public base URL no tool has an icon at any version.
func TestToolIcons(t *testing.T) {
	ts := newIconServer(t, iconBase)
	groups := catalogGroups(t, ts.URL)
	for _, v := range []string{"", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		list, _ := rawToolsList(t, ts.URL+"/mcp", v)
		if n := checkToolIcons(t, "/mcp at "+v, list, groups, v >= "2025-11-25", ts.URL); n != len(groups) {
			t.Errorf("/mcp at %q listed %d tools, the catalogue %d", v, n, len(groups))
		}
		compact, size := rawToolsList(t, ts.URL+"/mcp/compact", v)
		checkToolIcons(t, "/mcp/compact at "+v, compact, groups, false, ts.URL)
		if len(compact) != 4 || size > 8<<10 {
			t.Errorf("/mcp/compact at %q: %d tools in %d bytes, want 4 within 8 KiB", v, len(compact), size)
		}
	}
	// 2026-07-28 (per-request _meta) is served by the go-sdk.
	raw := postMCP(t, ts.URL+"/mcp", withHeader(withHeader(mcpHeaders("2026-07-28"), "Mcp-Method", "tools/list"), "Mcp-Name", ""),
		[]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`))
	var msg struct{ Result *mcp.ListToolsResult }
	if err := json.Unmarshal(raw, &msg); err != nil || msg.Result == nil {
		t.Fatalf("tools/list at 2026-07-28: %v %s", err, raw)
	}
	checkToolIcons(t, "/mcp at 2026-07-28", msg.Result.Tools, groups, true, ts.URL)

	bare := newIconServer(t, "")
	for _, v := range []string{"2025-06-18", "2025-11-25"} {
		list, _ := rawToolsList(t, bare.URL+"/mcp", v)
		checkToolIcons(t, "/mcp without a public base URL at "+v, list, groups, false, bare.URL)
	}
}

// TestToolIconsOverClients: the go-sdk client at 2025-06-18, 2025-11-25 and
// 2026-07-28 over Streamable HTTP (/mcp and /mcp/compact), the HTTP+SSE
// transport and stdio: the full surface's tools carry their group icons
// exactly when the negotiated version is 2025-11-25 or later (as does
// serverInfo), the compact surface's never.
func TestToolIconsOverClients(t *testing.T) {
	ts := newIconServer(t, iconBase)
	groups := catalogGroups(t, ts.URL)
	stdio := func(t *testing.T) mcp.Transport {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = mcpserver.ServeStdio(ctx, builtinRegistry(), mcpserver.Options{PublicBaseURL: iconBase}, inR, outW)
			outW.Close()
		}()
		t.Cleanup(func() { stop(); inW.Close(); <-done })
		return &mcp.IOTransport{Reader: outR, Writer: inW}
	}
	for _, tr := range []struct {
		name    string
		compact bool
		make    func(t *testing.T) mcp.Transport
	}{
		{"streamable", false, func(*testing.T) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}
		}},
		{"compact", true, func(*testing.T) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp/compact", MaxRetries: -1}
		}},
		{"sse", false, func(*testing.T) mcp.Transport { return &mcp.SSEClientTransport{Endpoint: ts.URL + "/mcp/sse"} }},
		{"stdio", false, stdio},
	} {
		for _, v := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
			t.Run(tr.name+"/"+v, func(t *testing.T) {
				c := mcp.NewClient(&mcp.Implementation{Name: "icons-test", Version: "1"}, nil)
				cs, err := c.Connect(ctxT(t), tr.make(t), &mcp.ClientSessionOptions{ProtocolVersion: v})
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				negotiated := v
				if ir := cs.InitializeResult(); ir != nil {
					negotiated = ir.ProtocolVersion
					if has := ir.ServerInfo != nil && len(ir.ServerInfo.Icons) > 0; has != (negotiated >= "2025-11-25") {
						t.Errorf("negotiated %s: serverInfo icons %v", negotiated, has)
					}
				}
				list, _ := listAllTools(t, cs)
				want := negotiated >= "2025-11-25" && !tr.compact
				checkToolIcons(t, tr.name+" at "+negotiated, list, groups, want, ts.URL)
				if len(list) == 0 {
					t.Fatal("no tools listed")
				}
				if want && list[0].Icons == nil {
					t.Fatal("no icons")
				}
			})
		}
	}
}
