package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// hintCase is a mistake a newcomer makes and the hint every surface must
// give for it.
type hintCase struct {
	name  string
	tool  string
	args  string
	code  string   // error_code
	error string   // a substring of "error" (the whole text when exact)
	exact bool     // error must equal it
	hints []string // "path=name" of the did_you_mean details, in order
	// allowed: "path=v1,v2,…" of a detail's allowed list (empty: not checked)
	allowed string
}

var hintCases = []hintCase{
	{name: "unknown tool", tool: "gcd_lmc", args: `{"a":12,"b":18}`, code: "unknown_tool",
		error: `unknown tool: gcd_lmc (did you mean "gcd_lcm"?)`, exact: true, hints: []string{"=gcd_lcm"}},
	{name: "unknown argument", tool: "gcd_lcm", args: `{"a":12,"b":18,"operaton":"gcd"}`, code: "input_schema_invalid",
		error: "Input schema validation failed for 'gcd_lcm': value:additionalProperties", exact: true,
		hints: []string{"/operaton=operation"}, allowed: "/operaton=a,b,operation"},
	{name: "missing and unknown argument", tool: "gcd_lcm", args: `{"a":12,"c":18}`, code: "input_schema_invalid",
		error: "Input schema validation failed for 'gcd_lcm': value:required", exact: true,
		hints: []string{"/c=a", "/c=b"}, allowed: "/c=a,b,operation"},
	{name: "enum value", tool: "gcd_lcm", args: `{"a":12,"b":18,"operation":"GCD"}`, code: "input_schema_invalid",
		error: "Input schema validation failed for 'gcd_lcm': operation:enum", exact: true,
		hints: []string{"/operation=gcd"}, allowed: "/operation=gcd,lcm,both"},
	{name: "temperature symbols", tool: "unit_convert", args: `{"value":100,"from_unit":"F","to_unit":"C"}`, code: "tool_result_error",
		error: `(did you mean "degF" to "degC"?)`, hints: []string{"/from_unit=degF", "/to_unit=degC"}},
	{name: "unknown unit", tool: "unit_convert", args: `{"value":1,"from_unit":"kilomter","to_unit":"m"}`, code: "tool_result_error",
		error: `unknown unit "kilomter" (did you mean "kilometer"`, hints: []string{"/from_unit=kilometer", "/from_unit=kilodtex", "/from_unit=kiloliter"}},
	{name: "misspelt zone", tool: "time_facts", args: `{"instant":"2026-07-29T12:00:00Z","timezone_name":"Europe/Berln"}`, code: "tool_execution_error",
		error: `(did you mean "Europe/Berlin"`, hints: []string{"/timezone_name=Europe/Berlin"}},
	{name: "zone as a city", tool: "timezone_convert", args: `{"local_datetime":"2026-07-29T12:00:00","from_timezone":"UTC","to_timezone":"berlin"}`,
		code: "tool_execution_error", error: `(did you mean "Europe/Berlin"`, hints: []string{"/to_timezone=Europe/Berlin"}},
	// The wire-compatible pattern refuses colons and a leading sign; the hint
	// is the spelling it admits.
	{name: "offset with a colon", tool: "timezone_convert", args: `{"local_datetime":"2026-07-29T12:00:00","from_timezone":"+05:30","to_timezone":"UTC-8:00"}`,
		code: "input_schema_invalid", error: "Input schema validation failed for 'timezone_convert': from_timezone:pattern", exact: true,
		hints: []string{"/from_timezone=UTC+0530", "/to_timezone=UTC-0800"}},
}

// TestHintsOnEverySurface: each mistake gets the same error code, text and
// did_you_mean details (and allowed list) over POST /invoke (HTTP 200),
// POST /v1/invoke (its real status), MCP (an isError result; an unknown tool
// is JSON-RPC invalid params whose message and data carry the hint) and
// `precisiond call` (exit 1, the error body on stdout).
func TestHintsOnEverySurface(t *testing.T) {
	base, _ := startMain(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := newClient().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, c := range hintCases {
		t.Run(c.name, func(t *testing.T) {
			body := []byte(fmt.Sprintf(`{"tool":%q,"args":%s}`, c.tool, c.args))
			legacy := testhttp.PostJSON(t, base+"/invoke", body)
			if legacy.Status != http.StatusOK {
				t.Errorf("/invoke: HTTP %d", legacy.Status)
			}
			c.check(t, "/invoke", legacy.JSON(t))
			v1 := testhttp.PostJSON(t, base+"/v1/invoke", body)
			if want := map[string]int{"unknown_tool": 404, "input_schema_invalid": 400, "tool_execution_error": 422, "tool_result_error": 422}[c.code]; v1.Status != want {
				t.Errorf("/v1/invoke: HTTP %d, want %d", v1.Status, want)
			}
			c.check(t, "/v1/invoke", v1.JSON(t))

			var args map[string]any
			_ = json.Unmarshal([]byte(c.args), &args)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: args})
			if c.code == "unknown_tool" {
				var werr *jsonrpc.Error
				if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, `did you mean "gcd_lcm"`) {
					t.Fatalf("MCP unknown tool: %v", err)
				}
				data, _ := evidence.ParseJSON(werr.Data)
				m, _ := data.(map[string]any)
				c.check(t, "MCP error data", m)
			} else {
				if err != nil || !res.IsError {
					t.Fatalf("MCP: %v %v", res, err)
				}
				b, _ := json.Marshal(res.StructuredContent)
				v, _ := evidence.ParseJSON(b)
				m, _ := v.(map[string]any)
				c.check(t, "MCP structuredContent", m)
				if text := testhttp.MCPText(t, res); !strings.Contains(text, `"did_you_mean"`) {
					t.Errorf("MCP text content lacks the hints: %s", text)
				}
			}

			var out, errb bytes.Buffer
			code := run([]string{"call", "--data-dir", t.TempDir(), c.tool, c.args}, nil, &out, &errb, func(string) string { return "" })
			if code != 1 {
				t.Errorf("call: exit %d, want 1 (%s)", code, errb.String())
			}
			v, err := evidence.ParseJSON(out.Bytes())
			m, _ := v.(map[string]any)
			if err != nil {
				t.Fatalf("call printed %q", out.String())
			}
			c.check(t, "call", m)
		})
	}
}

// check compares one surface's error body with the case.
func (c hintCase) check(t *testing.T, surface string, body map[string]any) {
	t.Helper()
	if body["error_code"] != c.code {
		t.Errorf("%s: error_code %v, want %s (%v)", surface, body["error_code"], c.code, body)
		return
	}
	msg, _ := body["error"].(string)
	if (c.exact && msg != c.error) || !strings.Contains(msg, c.error) {
		t.Errorf("%s: error %q, want %q", surface, msg, c.error)
	}
	details, _ := body["details"].([]any)
	var hints []string
	allowed := map[string]string{}
	for _, d := range details {
		m, _ := d.(map[string]any)
		if m["keyword"] == "did_you_mean" {
			hints = append(hints, fmt.Sprintf("%v=%v", m["path"], m["message"]))
		}
		if list, ok := m["allowed"].([]any); ok {
			var s []string
			for _, a := range list {
				s = append(s, fmt.Sprint(a))
			}
			allowed[fmt.Sprint(m["path"])] = strings.Join(s, ",")
		}
	}
	if !slices.Equal(hints, c.hints) {
		t.Errorf("%s: did_you_mean %v, want %v (details %v)", surface, hints, c.hints, details)
	}
	if c.allowed != "" {
		path, list, _ := strings.Cut(c.allowed, "=")
		if allowed[path] != list {
			t.Errorf("%s: allowed at %s = %q, want %q", surface, path, allowed[path], list)
		}
	}
}

// TestZoneFormsOnEverySurface: a zone id in another case and a fixed offset
// answer on REST, MCP and the command line with the canonical zone in the
// facts and in input_normalized, so with one result_hash on every surface; a
// colon offset is refused by the wire-compatible schema (docs/time.md).
func TestZoneFormsOnEverySurface(t *testing.T) {
	base, _ := startMain(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := newClient().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for zone, canonical := range map[string]string{"europe/berlin": "Europe/Berlin", "UTC+0530": "UTC+0530", "utc+5": "UTC+0500", "Etc/GMT-5": "Etc/GMT-5"} {
		args := fmt.Sprintf(`{"instant":"2026-07-29T12:00:00Z","timezone_name":%q}`, zone)
		envs := map[string]map[string]any{}
		rest := testhttp.PostJSON(t, base+"/invoke", []byte(`{"tool":"time_facts","args":`+args+`}`)).JSON(t)
		envs["REST"], _ = rest["structured_result"].(map[string]any)
		var a map[string]any
		_ = json.Unmarshal([]byte(args), &a)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "time_facts", Arguments: a})
		if err != nil || res.IsError {
			t.Fatalf("MCP %s: %v %v", zone, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		v, _ := evidence.ParseJSON(b)
		envs["MCP"], _ = v.(map[string]any)
		var out bytes.Buffer
		if code := run([]string{"call", "--data-dir", t.TempDir(), "time_facts", args}, nil, &out, &out, func(string) string { return "" }); code != 0 {
			t.Fatalf("call %s: exit %d %s", zone, code, out.String())
		}
		v, _ = evidence.ParseJSON(out.Bytes())
		envs["call"], _ = v.(map[string]any)["structured_result"].(map[string]any)
		for surface, env := range envs {
			facts, _ := env["facts"].(map[string]any)
			in, _ := env["input_normalized"].(map[string]any)
			if facts["timezone"] != canonical || in["timezone_name"] != canonical {
				t.Errorf("%s %s: timezone %v, input_normalized %v", surface, zone, facts["timezone"], in["timezone_name"])
			}
			if env["result_hash"] != envs["REST"]["result_hash"] {
				t.Errorf("%s %s: result_hash differs from REST's", surface, zone)
			}
		}
	}
	colon := testhttp.PostJSON(t, base+"/invoke", []byte(`{"tool":"time_facts","args":{"instant":"2026-07-29T12:00:00Z","timezone_name":"+05:30"}}`)).JSON(t)
	if colon["error"] != "Input schema validation failed for 'time_facts': timezone_name:pattern" {
		t.Errorf("+05:30: %v", colon)
	}
}
