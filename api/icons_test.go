package api

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/internal/testhttp"
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
