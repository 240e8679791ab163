package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/mcpserver"
)

// TestInvalidTextRefused: invalid UTF-8 and lone surrogate escapes are refused,
// never turned into U+FFFD and hashed: input_schema_invalid inside "args",
// invalid_request anywhere else in the body.
func TestInvalidTextRefused(t *testing.T) {
	ts, _, _ := newTestServer(t, nil)
	cases := []struct {
		name, body string
		route      string
		status     int
		code       string
		reason     string
	}{
		{"lone high surrogate in args", `{"tool":"behave","args":{"mode":"ok","secret":"\ud800"}}`, "/invoke", 200, "input_schema_invalid", "lone_surrogate"},
		{"lone low surrogate in args", `{"tool":"behave","args":{"mode":"\udc00"}}`, "/v1/invoke", 400, "input_schema_invalid", "lone_surrogate"},
		{"invalid UTF-8 in args", "{\"tool\":\"behave\",\"args\":{\"mode\":\"\xff\"}}", "/invoke", 200, "input_schema_invalid", "invalid_utf8"},
		{"invalid UTF-8 in an args key", "{\"tool\":\"behave\",\"args\":{\"\xc3\":\"ok\"}}", "/v1/invoke", 400, "input_schema_invalid", "invalid_utf8"},
		{"invalid UTF-8 in tool", "{\"tool\":\"beh\xffave\",\"args\":{\"mode\":\"ok\"}}", "/invoke", 400, "invalid_request", ""},
		{"surrogate in contract_hash", `{"tool":"behave","args":{"mode":"ok"},"contract_hash":"\ud800"}`, "/invoke", 400, "invalid_request", ""},
		{"surrogate in args and tool", `{"tool":"\ud800","args":{"mode":"\ud800"}}`, "/invoke", 400, "invalid_request", ""},
		{"invalid UTF-8 in a top-level key", "{\"tool\":\"behave\",\"\xff\":1}", "/invoke", 400, "invalid_request", ""},
		{"invalid UTF-8 outside strings", "{\"tool\":\"behave\",\"args\":{}}\xff", "/invoke", 400, "invalid_request", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, _ := post(t, ts.URL+c.route, "application/json", c.body)
			if status != c.status || body["error_code"] != c.code {
				t.Fatalf("got %d %v, want %d %s", status, body, c.status, c.code)
			}
			if c.reason != "" && body["reason"] != c.reason {
				t.Errorf("reason %v, want %s", body["reason"], c.reason)
			}
			if strings.Contains(body["error"].(string), "\uFFFD") {
				t.Errorf("message echoes a replacement character: %v", body["error"])
			}
		})
	}
	// A surrogate pair is valid text and is answered normally.
	status, body, _ := post(t, ts.URL+"/invoke", "application/json", `{"tool":"behave","args":{"mode":"ok","secret":"\ud83d\ude00"}}`)
	if status != 200 || body["error_code"] != nil {
		t.Fatalf("surrogate pair: %d %v", status, body)
	}
}

// TestMCPInvalidTextRefused: over MCP, arguments with a lone surrogate or
// invalid UTF-8 give an isError result with input_schema_invalid.
func TestMCPInvalidTextRefused(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{}, Options{})
	for name, args := range map[string]string{
		"lone surrogate": `{"text":"a\ud800b"}`,
		"invalid UTF-8":  "{\"text\":\"a\xffb\"}",
	} {
		t.Run(name, func(t *testing.T) {
			msg := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hash_text","arguments":` + args + `}}`)
			b := postMCP(t, env.ts.URL+"/mcp", nil, msg)
			var resp struct {
				Result struct {
					IsError           bool           `json:"isError"`
					StructuredContent map[string]any `json:"structuredContent"`
				} `json:"result"`
			}
			if err := json.Unmarshal(b, &resp); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			if !resp.Result.IsError || resp.Result.StructuredContent["error_code"] != "input_schema_invalid" {
				t.Fatalf("want an input_schema_invalid error result, got %s", b)
			}
			if bytes.Contains(b, []byte("result_hash")) {
				t.Errorf("text was hashed: %s", b)
			}
		})
	}
	// The same call with valid text succeeds.
	b := postMCP(t, env.ts.URL+"/mcp", nil, []byte(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"hash_text","arguments":{"text":"a\ud83d\ude00b"}}}`))
	if !bytes.Contains(b, []byte("result_hash")) {
		t.Fatalf("valid text: %s", b)
	}
}
