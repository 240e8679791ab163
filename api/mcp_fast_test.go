package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/tools"
)

// fastPair is two real servers on loopback over one registry, file store and
// plan service: fast with the MCP fast path (the default), sdk with every
// request served by the go-sdk; both with a public base URL (tool icons). With tokens, both run with the same API
// tokens and link signer, and auth is the Authorization header of a token
// whose scope is gcd_*, hash_text and generate_file.
type fastPair struct {
	fast, sdk       *httptest.Server
	fastSrv, sdkSrv *Server
	reg             *tools.Registry
	auth            string
}

func newFastPair(t testing.TB, maxBody int64, tokens bool) *fastPair {
	t.Helper()
	store, err := filestore.Open(filestore.Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{Files: store}), tools.Options{})
	// Answers are signed, as the service signs them: the attestation in
	// _meta is on both paths' wire.
	key, err := attest.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	signer, err := attest.NewSigner(key, "precisiond-test")
	if err != nil {
		t.Fatal(err)
	}
	reg.SetAttester(signer.Memoized(64))
	svc := plans.NewService(reg, plans.NewMemoryStore(0), plans.Options{ErrorBody: surface.PlanErrorBody(nil)})
	p := &fastPair{reg: reg}
	var ao *AccessOptions
	if tokens {
		path := filepath.Join(t.TempDir(), "tokens.json")
		doc := `{"tokens":[{"name":"scoped","sha256":"` + access.Hash("scoped-token") + `","tools":["gcd_*","hash_text","generate_file"]}]}`
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		keys, err := access.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		linkSigner, err := access.NewSigner([]byte("test signing key, 32 bytes long!"))
		if err != nil {
			t.Fatal(err)
		}
		linkSigner.SetClock(func() time.Time { return time.Unix(1_900_000_000, 0) })
		p.auth = "Bearer scoped-token"
		ao = &AccessOptions{Tokens: keys, Signer: linkSigner, LinkTTL: time.Hour}
	}
	mk := func(sdkOnly bool) (*Server, *httptest.Server) {
		var o *AccessOptions
		if ao != nil {
			o = new(*ao) // each server its own edge (file owners)
		}
		srv := New(reg, Options{Plans: svc, Downloads: store, MaxBodyBytes: maxBody, Access: o,
			MCP: &mcpserver.Options{Files: store, PublicBaseURL: iconBase, SDKOnly: sdkOnly}})
		ts := httptest.NewServer(srv)
		t.Cleanup(ts.Close)
		return srv, ts
	}
	p.fastSrv, p.fast = mk(false)
	p.sdkSrv, p.sdk = mk(true)
	if p.fastSrv.mcp == nil || p.sdkSrv.mcp == nil {
		t.Fatal("MCP is not mounted on both servers")
	}
	t.Cleanup(func() {
		if n := p.sdkSrv.mcp.FastServed(); n != 0 {
			t.Errorf("the SDK-only server answered %d requests on the fast path", n)
		}
	})
	return p
}

// mcpExchange is one HTTP request to an MCP endpoint and its answer.
type mcpExchange struct {
	status int
	header http.Header
	body   []byte
}

func doMCP(t *testing.T, method, url string, hdr map[string]string, body []byte, chunked bool) mcpExchange {
	t.Helper()
	var rd io.Reader = bytes.NewReader(body)
	if chunked {
		rd = io.MultiReader(rd) // unknown length: sent chunked
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return mcpExchange{resp.StatusCode, resp.Header, b}
}

// fastCase is one request of the differential test and the path it must take
// on the fast server.
type fastCase struct {
	name    string
	path    string // default /mcp
	method  string // default POST
	hdr     map[string]string
	body    string
	chunked bool
	fast    bool // answered by the fast path (else handed to the SDK)
}

// mcpHeaders are the headers of an ordinary client's POST at version v
// (none when v is "").
func mcpHeaders(v string) map[string]string {
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	if v != "" {
		h["Mcp-Protocol-Version"] = v
	}
	return h
}

func withHeader(h map[string]string, k, v string) map[string]string {
	out := map[string]string{}
	for a, b := range h {
		out[a] = b
	}
	if v == "" {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

func call(id, name, args string) string {
	if args == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q}}`, id, name)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, name, args)
}

// fastCases are the requests compared by TestMCPFastPathDifferential.
func fastCases() []fastCase {
	v := mcpHeaders("2025-06-18")
	deep := strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000)
	cs := []fastCase{
		// tools/call: results, tool-level errors, JSON-RPC errors.
		{name: "gcd_lcm", hdr: v, body: call("1", "gcd_lcm", `{"a":391,"b":299}`), fast: true},
		{name: "string id", hdr: v, body: call(`"req-7"`, "gcd_lcm", `{"a":391,"b":299}`), fast: true},
		{name: "negative id", hdr: v, body: call("-42", "gcd_lcm", `{"a":12,"b":18}`), fast: true},
		{name: "id 0", hdr: v, body: call("0", "gcd_lcm", `{"a":12,"b":18}`), fast: true},
		{name: "15-digit id", hdr: v, body: call("123456789012345", "gcd_lcm", `{"a":12,"b":18}`), fast: true},
		{name: "large integers", hdr: v, body: call("2", "gcd_lcm", `{"a":999999999999999989,"b":-123456789012345678}`), fast: true},
		{name: "integers out of range", hdr: v, body: call("2", "gcd_lcm", `{"a":123456789012345678901234567890,"b":987654321098765432109876543210}`), fast: true},
		{name: "whitespace everywhere", hdr: v, body: " {\n \"jsonrpc\" : \"2.0\" ,\t\"method\":\"tools/call\", \"params\" : { \"arguments\" : {\"a\" : 4 , \"b\":6} , \"name\" : \"gcd_lcm\" } , \"id\" : 3 }\r\n", fast: true},
		{name: "input_schema_invalid", hdr: v, body: call("4", "gcd_lcm", `{"a":"x","b":299}`), fast: true},
		{name: "no arguments", hdr: v, body: call("5", "gcd_lcm", ""), fast: true},
		{name: "empty arguments", hdr: v, body: call("5", "gcd_lcm", "{}"), fast: true},
		{name: "unknown key in arguments", hdr: v, body: call("5", "gcd_lcm", `{"a":1,"b":2,"c":3}`), fast: true},
		{name: "unknown tool", hdr: v, body: call("6", "no_such_tool", "{}"), fast: true},
		{name: "HTML and line separators in the result", hdr: v, body: call("7", "hash_text", `{"text":"<b>&amp;</b> \u2028 \u2029 é 日本"}`), fast: true},
		{name: "escapes in arguments", hdr: v, body: call("8", "hash_text", `{"text":"tab\there \"quoted\" \\ back \u00e9 \ud83d\ude00"}`), fast: true},
		{name: "non-ASCII result", hdr: v, body: call("9", "text_analyze", `{"text":"Grüße aus Köln. Ça va? 東京"}`), fast: true},
		{name: "generate_file resource link", hdr: v, body: call("10", "generate_file", `{"format":"md","content":"# <Fast & slow>\n\n*x* < y"}`), fast: true},
		{name: "execution error", hdr: v, body: call("11", "calculate", `{"expression":"1/0"}`), fast: true},
		{name: "arguments not an object (array)", hdr: v, body: call("12", "gcd_lcm", `[1,2]`), fast: false},
		{name: "arguments null", hdr: v, body: call("12", "gcd_lcm", `null`), fast: false},
		{name: "arguments a string", hdr: v, body: call("12", "gcd_lcm", `"{}"`), fast: false},
		{name: "escaped tool name", hdr: v, body: `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"gcd\u005flcm","arguments":{"a":4,"b":6}}}`, fast: false},
		{name: "empty tool name", hdr: v, body: call("13", "", "{}"), fast: false},
		{name: "name not a string", hdr: v, body: `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":7}}`, fast: false},
		{name: "no params", hdr: v, body: `{"jsonrpc":"2.0","id":13,"method":"tools/call"}`, fast: false},
		{name: "params null", hdr: v, body: `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":null}`, fast: false},
		{name: "params _meta", hdr: v, body: `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6},"_meta":{"progressToken":1}}}`, fast: false},
		{name: "arguments twice", hdr: v, body: `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6},"arguments":{"a":5,"b":10}}}`, fast: false},
		{name: "method twice", hdr: v, body: `{"jsonrpc":"2.0","id":14,"method":"ping","method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}}}`, fast: false},
		{name: "extra top-level key", hdr: v, body: `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}},"x":1}`, fast: false},
		{name: "upper-case key", hdr: v, body: `{"jsonrpc":"2.0","id":14,"Method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}}}`, fast: false},
		{name: "wrong jsonrpc version", hdr: v, body: `{"jsonrpc":"1.0","id":14,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}}}`, fast: false},
		{name: "float id", hdr: v, body: call("1.5", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "exponent id", hdr: v, body: call("1e2", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "16-digit id", hdr: v, body: call("1234567890123456", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "id -0", hdr: v, body: call("-0", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "null id", hdr: v, body: call("null", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "boolean id", hdr: v, body: call("true", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "escaped string id", hdr: v, body: call(`"a\"b"`, "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "non-ASCII string id", hdr: v, body: call(`"ü"`, "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "nesting 1001 levels", hdr: v, body: call("15", "gcd_lcm", `{"a":`+deep+`}`), fast: false},
		{name: "invalid UTF-8 in arguments", hdr: v, body: call("16", "hash_text", "{\"text\":\"a\xffb\"}"), fast: true},
		{name: "invalid JSON", hdr: v, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call",`, fast: false},
		{name: "empty body", hdr: v, body: ``, fast: false},
		{name: "not an object", hdr: v, body: `"tools/call"`, fast: false},
		{name: "tools/call without id", hdr: v, body: `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}}}`, fast: false},
		{name: "chunked body", hdr: v, body: call("17", "gcd_lcm", `{"a":391,"b":299}`), chunked: true, fast: true},
		{name: "chunked body over the limit", hdr: v, body: call("17", "hash_text", `{"text":"`+strings.Repeat("x", 70000)+`"}`), chunked: true, fast: false},

		// Protocol versions and headers.
		{name: "no version header", hdr: mcpHeaders(""), body: call("20", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "2024-11-05", hdr: mcpHeaders("2024-11-05"), body: call("21", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "2025-03-26", hdr: mcpHeaders("2025-03-26"), body: call("22", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "2025-11-25", hdr: mcpHeaders("2025-11-25"), body: call("23", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "2026-07-28 without _meta", hdr: mcpHeaders("2026-07-28"), body: call("24", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "2026-07-28 with _meta and headers", hdr: withHeader(withHeader(mcpHeaders("2026-07-28"), "Mcp-Method", "tools/call"), "Mcp-Name", "gcd_lcm"),
			body: `{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`, fast: false},
		{name: "unsupported version", hdr: mcpHeaders("1999-01-01"), body: call("26", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "Accept JSON only", hdr: withHeader(v, "Accept", "application/json"), body: call("27", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "Accept SSE only", hdr: withHeader(v, "Accept", "text/event-stream"), body: call("27", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "Accept */*", hdr: withHeader(v, "Accept", "*/*"), body: call("28", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "Accept wildcards with parameters", hdr: withHeader(v, "Accept", "Application/*;q=0.9 , TEXT/*;q=0.5"), body: call("29", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "no Accept", hdr: withHeader(v, "Accept", ""), body: call("30", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "Content-Type with charset", hdr: withHeader(v, "Content-Type", "application/json; charset=utf-8"), body: call("31", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "Content-Type text/plain", hdr: withHeader(v, "Content-Type", "text/plain"), body: call("32", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "Last-Event-ID", hdr: withHeader(v, "Last-Event-ID", "x_1"), body: call("33", "gcd_lcm", `{"a":4,"b":6}`), fast: false},
		{name: "session id sent", hdr: withHeader(v, "Mcp-Session-Id", "abc"), body: call("34", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "GET", method: http.MethodGet, hdr: v, fast: false},
		{name: "DELETE", method: http.MethodDelete, hdr: v, fast: false},

		// Other methods.
		{name: "ping", hdr: v, body: `{"jsonrpc":"2.0","id":40,"method":"ping"}`, fast: true},
		{name: "ping {}", hdr: v, body: `{"jsonrpc":"2.0","id":"p","method":"ping","params":{}}`, fast: true},
		{name: "ping with _meta", hdr: v, body: `{"jsonrpc":"2.0","id":41,"method":"ping","params":{"_meta":{}}}`, fast: false},
		{name: "notifications/initialized", hdr: v, body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, fast: true},
		{name: "notifications/initialized {}", hdr: v, body: `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`, fast: true},
		{name: "notifications/initialized with id", hdr: v, body: `{"jsonrpc":"2.0","id":42,"method":"notifications/initialized"}`, fast: false},
		{name: "notifications/cancelled", hdr: v, body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, fast: false},
		{name: "tools/list", hdr: v, body: `{"jsonrpc":"2.0","id":43,"method":"tools/list"}`, fast: true},
		{name: "tools/list {}", hdr: v, body: `{"jsonrpc":"2.0","id":44,"method":"tools/list","params":{}}`, fast: true},
		{name: "tools/list cursor", hdr: v, body: `{"jsonrpc":"2.0","id":45,"method":"tools/list","params":{"cursor":"` + cursorAfter("gcd_lcm") + `"}}`, fast: true},
		{name: "tools/list invalid cursor", hdr: v, body: `{"jsonrpc":"2.0","id":46,"method":"tools/list","params":{"cursor":"nope"}}`, fast: true},
		{name: "tools/list stale cursor", hdr: v, body: `{"jsonrpc":"2.0","id":46,"method":"tools/list","params":{"cursor":"` + cursorAfter("gone") + `"}}`, fast: true},
		{name: "tools/list without a version", hdr: mcpHeaders(""), body: `{"jsonrpc":"2.0","id":43,"method":"tools/list"}`, fast: true},
		{name: "tools/list at 2024-11-05", hdr: mcpHeaders("2024-11-05"), body: `{"jsonrpc":"2.0","id":43,"method":"tools/list"}`, fast: true},
		{name: "tools/list at 2025-03-26", hdr: mcpHeaders("2025-03-26"), body: `{"jsonrpc":"2.0","id":43,"method":"tools/list"}`, fast: true},
		{name: "tools/list at 2025-11-25", hdr: mcpHeaders("2025-11-25"), body: `{"jsonrpc":"2.0","id":43,"method":"tools/list"}`, fast: true},
		{name: "tools/list at 2025-11-25, second page", hdr: mcpHeaders("2025-11-25"), body: `{"jsonrpc":"2.0","id":45,"method":"tools/list","params":{"cursor":"` + cursorAfter("gcd_lcm") + `"}}`, fast: true},
		{name: "tools/list at 2026-07-28", hdr: withHeader(withHeader(mcpHeaders("2026-07-28"), "Mcp-Method", "tools/list"), "Mcp-Name", ""),
			body: `{"jsonrpc":"2.0","id":43,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`, fast: false},
		{name: "tools/list cursor null", hdr: v, body: `{"jsonrpc":"2.0","id":47,"method":"tools/list","params":{"cursor":null}}`, fast: false},
		{name: "initialize", hdr: v, body: `{"jsonrpc":"2.0","id":48,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, fast: false},
		{name: "resources/list", hdr: v, body: `{"jsonrpc":"2.0","id":49,"method":"resources/list"}`, fast: false},
		{name: "prompts/get", hdr: v, body: `{"jsonrpc":"2.0","id":50,"method":"prompts/get","params":{"name":"precision_guide"}}`, fast: false},
		{name: "unknown method", hdr: v, body: `{"jsonrpc":"2.0","id":51,"method":"no/such"}`, fast: false},
		{name: "batch at 2025-03-26", hdr: mcpHeaders("2025-03-26"), body: `[{"jsonrpc":"2.0","id":52,"method":"ping"},` + call("53", "gcd_lcm", `{"a":4,"b":6}`) + `]`, fast: false},
		{name: "batch at 2025-06-18", hdr: v, body: `[{"jsonrpc":"2.0","id":52,"method":"ping"}]`, fast: false},

		// The compact surface.
		{name: "compact list_tools", path: "/mcp/compact", hdr: v, body: call("60", "list_tools", "{}"), fast: true},
		{name: "compact list_tools without arguments", path: "/mcp/compact", hdr: v, body: call("61", "list_tools", ""), fast: true},
		{name: "compact list_tools bad argument", path: "/mcp/compact", hdr: v, body: call("62", "list_tools", `{"x":1}`), fast: true},
		{name: "compact describe_tools", path: "/mcp/compact", hdr: v, body: call("63", "describe_tools", `{"tools":["gcd_lcm","hash_text"]}`), fast: true},
		{name: "compact run_plan", path: "/mcp/compact", hdr: v, body: call("64", "run_plan", `{"plan":{"params":{"a":{"type":"integer"}},"steps":[{"id":"g","tool":"gcd_lcm","args":{"a":{"$param":"a"},"b":12}}]},"params_batch":[{"a":8},{"a":9}]}`), fast: true},
		{name: "compact unknown plan", path: "/mcp/compact", hdr: v, body: call("65", "rerun_plan", `{"plan_id":"nope","params":{}}`), fast: true},
		{name: "compact unknown tool", path: "/mcp/compact", hdr: v, body: call("66", "gcd_lcm", `{"a":4,"b":6}`), fast: true},
		{name: "compact ping", path: "/mcp/compact", hdr: v, body: `{"jsonrpc":"2.0","id":67,"method":"ping"}`, fast: true},
		{name: "compact tools/list", path: "/mcp/compact", hdr: v, body: `{"jsonrpc":"2.0","id":68,"method":"tools/list"}`, fast: false},
		{name: "compact tools/list at 2025-11-25", path: "/mcp/compact", hdr: mcpHeaders("2025-11-25"), body: `{"jsonrpc":"2.0","id":68,"method":"tools/list"}`, fast: false},
		{name: "compact initialize", path: "/mcp/compact", hdr: v, body: `{"jsonrpc":"2.0","id":69,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, fast: false},
	}
	return cs
}

// TestMCPFastPathDifferential sends every request of fastCases to a server
// with the fast path and to one where the go-sdk serves everything, and
// requires the same status, the same MCP-relevant headers (Content-Type,
// Cache-Control, Allow, no Mcp-Session-Id) and the same body byte for byte;
// and that each request took the path its case names. The only documented
// differences are the per-request X-Request-Id and Date headers.
// With API tokens, every request carries a scoped token: tools/list lists its
// scope, a call outside it is a forbidden tool error, a generated file's link
// carries its signed download path, on both paths alike.
func TestMCPFastPathDifferential(t *testing.T) {
	t.Run("open", func(t *testing.T) { testMCPFastPathDifferential(t, false) })
	t.Run("tokens", func(t *testing.T) { testMCPFastPathDifferential(t, true) })
}

func testMCPFastPathDifferential(t *testing.T, tokens bool) {
	p := newFastPair(t, 64<<10, tokens)
	// A disabled tool answers tool_disabled on both paths.
	if _, ok := p.reg.SetEnabled("roman_numeral", false); !ok {
		t.Fatal("roman_numeral is not a tool")
	}
	cases := append(fastCases(), fastCase{name: "disabled tool", hdr: mcpHeaders("2025-06-18"), body: call("70", "roman_numeral", `{"value":"XIV"}`), fast: true})
	fastServed := p.fastSrv.mcp.FastServed
	signed := 0
	seen := map[string]bool{} // with tokens: what the scope made of the answers
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path, method := c.path, c.method
			if path == "" {
				path = "/mcp"
			}
			if method == "" {
				method = http.MethodPost
			}
			if p.auth != "" {
				c.hdr = withHeader(c.hdr, "Authorization", p.auth)
			}
			before := fastServed()
			got := doMCP(t, method, p.fast.URL+path, c.hdr, []byte(c.body), c.chunked)
			if took := fastServed() - before; took != map[bool]int64{true: 1, false: 0}[c.fast] {
				t.Errorf("fast path served %d requests, want fast=%v", took, c.fast)
			}
			want := doMCP(t, method, p.sdk.URL+path, c.hdr, []byte(c.body), c.chunked)
			if got.status != want.status {
				t.Errorf("status: fast path %d, SDK %d\nfast: %s\n sdk: %s", got.status, want.status, got.body, want.body)
			}
			for _, h := range []string{"Content-Type", "Cache-Control", "Allow", "Mcp-Session-Id", "Connection"} {
				if g, w := got.header.Values(h), want.header.Values(h); strings.Join(g, "\n") != strings.Join(w, "\n") {
					t.Errorf("header %s: fast path %q, SDK %q", h, g, w)
				}
			}
			if got.header.Get("Mcp-Session-Id") != "" {
				t.Errorf("stateless answer with Mcp-Session-Id %q", got.header.Get("Mcp-Session-Id"))
			}
			if !bytes.Equal(batchSorted(got.body), batchSorted(want.body)) {
				t.Errorf("body differs\nfast: %s\n sdk: %s", got.body, want.body)
			}
			// Tool icons: in a tools/list answer of the full surface exactly
			// from 2025-11-25 on (the bodies are equal, so this holds for both).
			if strings.Contains(c.body, `"tools/list"`) && got.status == 200 && !strings.Contains(c.name, "cursor") {
				wantIcons := path == "/mcp" && c.hdr["Mcp-Protocol-Version"] >= "2025-11-25"
				if has := bytes.Contains(got.body, []byte(`"icons":[{"src":"`+iconBase+`/icons/`)); has != wantIcons {
					t.Errorf("tool icons in the answer: %v, want %v", has, wantIcons)
				}
				seen["icons"] = seen["icons"] || wantIcons
			}
			if c.fast && bytes.Contains(got.body, []byte(`"_meta":{"precisiond/attestation":"ey`)) {
				signed++
			}
			if c.fast && tokens {
				seen["forbidden"] = seen["forbidden"] || bytes.Contains(got.body, []byte(`error_code\":\"forbidden`))
				seen["signed link"] = seen["signed link"] || bytes.Contains(got.body, []byte(`"precisiond/download_url":"/downloads/`))
				if c.name == "tools/list" {
					var list struct {
						Result struct{ Tools []struct{ Name string } }
					}
					_ = json.Unmarshal(got.body, &list)
					var names []string
					for _, tool := range list.Result.Tools {
						names = append(names, tool.Name)
					}
					seen["scoped list"] = strings.Join(names, ",") == "gcd_lcm,hash_text,generate_file"
				}
			}
		})
	}
	if signed == 0 {
		t.Error("no fast-path answer carried an attestation in _meta")
	}
	if !seen["icons"] {
		t.Error("no tools/list answer carried tool icons")
	}
	if tokens && (!seen["forbidden"] || !seen["signed link"] || !seen["scoped list"]) {
		t.Errorf("with tokens the fast path answered: %v, want a forbidden call, a signed link and the scoped list", seen)
	}
}

// batchSorted puts the answers of a JSON-RPC batch in byte order: the SDK
// answers a batch's calls in the order they finish, which varies from run to
// run on either path. Other bodies are returned as they are.
func batchSorted(b []byte) []byte {
	var answers []json.RawMessage
	if len(b) == 0 || b[0] != '[' || json.Unmarshal(b, &answers) != nil {
		return b
	}
	slices.SortFunc(answers, func(x, y json.RawMessage) int { return bytes.Compare(x, y) })
	out, _ := json.Marshal(answers)
	return out
}

// FuzzMCPFastPath: any body, at any of a few protocol versions, gets the same
// answer (status, Content-Type, body) from the fast path as from the SDK.
// Answers that depend on timing (timeout, overloaded) are not compared.
func FuzzMCPFastPath(f *testing.F) {
	for _, c := range fastCases() {
		if c.method == "" && c.hdr["Accept"] == "application/json, text/event-stream" && len(c.body) < 4096 {
			f.Add([]byte(c.body), uint8(0), c.path == "/mcp/compact")
		}
	}
	f.Add([]byte(call("1", "gcd_lcm", `{"a":391,"b":299}`)), uint8(1), false)
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":391,"b":299}}}`), uint8(2), false)
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`), uint8(3), false)
	p := newFastPair(f, 64<<10, false)
	versions := []string{"2025-06-18", "", "2025-03-26", "2025-11-25", "2024-11-05", "2026-07-28"}
	f.Fuzz(func(t *testing.T, body []byte, version uint8, compact bool) {
		path := "/mcp"
		if compact {
			path = "/mcp/compact"
		}
		hdr := mcpHeaders(versions[int(version)%len(versions)])
		serve := func(h http.Handler) *httptest.ResponseRecorder {
			req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+path, bytes.NewReader(body))
			for k, v := range hdr {
				req.Header.Set(k, v)
			}
			req.Header.Set("X-Request-Id", "fuzz-1")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec
		}
		got, want := serve(p.fastSrv), serve(p.sdkSrv)
		for _, b := range [][]byte{got.Body.Bytes(), want.Body.Bytes()} {
			if bytes.Contains(b, []byte(`error_code\":\"timeout`)) || bytes.Contains(b, []byte(`error_code\":\"overloaded`)) {
				return
			}
		}
		if got.Code != want.Code || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") || !bytes.Equal(batchSorted(got.Body.Bytes()), batchSorted(want.Body.Bytes())) {
			t.Fatalf("body %q at %q:\nfast: %d %s\n sdk: %d %s", body, hdr["Mcp-Protocol-Version"], got.Code, got.Body, want.Code, want.Body)
		}
	})
}

// cursorAfter is the tools/list cursor of the page after a tool, as the
// surface writes it (opaque to clients: "after:<name>" in unpadded base64url).
func cursorAfter(name string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("after:" + name))
}
