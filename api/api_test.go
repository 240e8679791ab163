package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/tools"
)

// fakeContract is a minimal valid contract for the behaviour tool below.
const fakeContract = `{
 "tool": "behave", "contract_version": "1.0.0", "title": "Test tool",
 "description": "Behaves as its mode says; for API tests only.",
 "determinism": "input_only", "source_policy": {"kind": "test", "name": "test"},
 "access_kind": "read", "evidence_policy": {"redact_input_fields": ["secret"], "replacement": "sha256_and_utf8_bytes"},
 "limits": {"max_result_chars": 1000},
 "inputSchema": {"type": "object", "additionalProperties": false, "required": ["mode"],
   "properties": {"mode": {"type": "string", "description": "what to do"},
                  "n": {"type": "integer", "maximum": 5, "default": 1, "description": "a number"},
                  "secret": {"type": "string", "description": "redacted"}}},
 "outputSchema": {"type": "object", "additionalProperties": false, "required": ["n"],
   "properties": {"n": {"type": "integer", "description": "echo"}}},
 "examples": [{"title": "ok", "args": {"mode": "ok"}, "facts": {"n": 1}},
              {"title": "ok 2", "args": {"mode": "ok", "n": 2}, "facts": {"n": 2}}]
}`

// gate lets a test hold a call inside its tool, and so its concurrency
// slot, for as long as the test needs, whatever the machine's load.
type gate struct{ entered, release chan struct{} }

// holdGate is the gate the "hold" mode of behaveTool waits on.
var holdGate atomic.Pointer[gate]

// behaveTool fails in whichever way its mode asks, to exercise every error row.
type behaveTool struct{ c *contracts.Contract }

func (b behaveTool) tool() tools.Tool { return tools.Tool{Contract: b.c, Execute: b.Execute} }

func (b behaveTool) Execute(ctx context.Context, args map[string]any) (tools.Output, error) {
	n := args["n"]
	switch args["mode"] {
	case "domain":
		return tools.Output{}, tools.Fail("division_by_zero", "division by zero")
	case "result":
		return tools.Output{}, tools.FailResult("dimensionality_mismatch", "cannot convert")
	case "wrongargs":
		return tools.Output{}, &tools.Error{Code: tools.CodeWrongArguments, Reason: "invalid_unit_expression", Message: "complex"}
	case "cost":
		return tools.Output{}, tools.TooCostly("exponent_too_large", "exponent too large")
	case "slow":
		<-ctx.Done()
		return tools.Output{}, ctx.Err()
	case "hold": // takes its slot, says so, and keeps it until the test releases it
		g := holdGate.Load()
		g.entered <- struct{}{}
		<-g.release
	case "stuck": // ignores its context and runs far past any test's deadline: the deadline must still hold
		time.Sleep(time.Minute)
	case "panic":
		panic("boom with a secret inside")
	case "bug":
		return tools.Output{}, errors.New("database password is hunter2")
	case "badfacts":
		return tools.Output{Facts: map[string]any{"n": "not a number"}, Text: "x", Warnings: []tools.Warning{}}, nil
	case "long": // a legacy text over max_result_chars (1000 characters)
		return tools.Output{Facts: map[string]any{"n": n}, Text: strings.Repeat("é", 1001), Warnings: []tools.Warning{}}, nil
	case "bigfacts": // a short text, but facts that make the envelope too large
		return tools.Output{Facts: map[string]any{"n": json.Number("1" + strings.Repeat("0", 1000+tools.EnvelopeAllowance))}, Text: "ok", Warnings: []tools.Warning{}}, nil
	}
	return tools.Output{Facts: map[string]any{"n": n}, Text: "ok", Warnings: []tools.Warning{}}, nil
}

func newTestServer(t *testing.T, limiter *tools.Limiter) (*httptest.Server, *tools.Registry, *syncBuf) {
	t.Helper()
	logs := &syncBuf{}
	ts, reg := newTestServerWith(t, limiter, newBufLogger(logs))
	return ts, reg, logs
}

// newTestServerWith is newTestServer logging to log. Its call deadline is
// generous, so that no answer depends on the machine's speed; tests of the
// deadline use newShortDeadlineServer.
func newTestServerWith(t *testing.T, limiter *tools.Limiter, log *slog.Logger) (*httptest.Server, *tools.Registry) {
	t.Helper()
	return newTestServerDeadline(t, limiter, log, 2*time.Minute)
}

// newShortDeadlineServer is newTestServer with a 100 ms call deadline, for the
// calls that must run into it (behave's slow and stuck modes).
func newShortDeadlineServer(t *testing.T) *httptest.Server {
	t.Helper()
	ts, _ := newTestServerDeadline(t, nil, newBufLogger(&syncBuf{}), 100*time.Millisecond)
	return ts
}

func newTestServerDeadline(t *testing.T, limiter *tools.Limiter, log *slog.Logger, deadline time.Duration) (*httptest.Server, *tools.Registry) {
	t.Helper()
	c, err := contracts.Parse([]byte(fakeContract))
	if err != nil {
		t.Fatal(err)
	}
	gcd := tools.Builtin(tools.Deps{})[0]
	reg := tools.NewRegistry([]tools.Tool{gcd, behaveTool{c}.tool()}, tools.Options{Limiter: limiter, DefaultTimeout: deadline})
	srv := New(reg, Options{Logger: log, MaxBodyBytes: 1 << 20})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, reg
}

func post(t *testing.T, url, contentType, body string) (int, map[string]any, http.Header) {
	t.Helper()
	r := testhttp.Do(t, http.MethodPost, url, map[string]string{"Content-Type": contentType}, []byte(body))
	return r.Status, r.JSON(t), r.Header
}

// TestErrorTable exercises every row of the error table (README, Errors) on
// both routes.
func TestErrorTable(t *testing.T) {
	ts, reg, logs := newTestServer(t, nil)
	short := newShortDeadlineServer(t)
	_, pin, _ := reg.Lookup("behave")
	big := `{"tool":"behave","args":{"mode":"` + strings.Repeat("a", 2<<20) + `"}}`
	cases := []struct {
		name, body, ct   string
		code, reason     string
		legacy, v1Status int
	}{
		{"unknown tool", `{"tool":"nope","args":{}}`, "application/json", "unknown_tool", "", 200, 404},
		{"contract mismatch", `{"tool":"behave","args":{"mode":"ok"},"contract_hash":"` + strings.Repeat("0", 64) + `"}`, "application/json", "contract_mismatch", "", 200, 409},
		{"pin matches", `{"tool":"behave","args":{"mode":"ok"},"contract_hash":"` + pin + `"}`, "application/json", "", "", 200, 200},
		{"unknown argument", `{"tool":"behave","args":{"mode":"ok","zzz":1}}`, "application/json", "input_schema_invalid", "", 200, 400},
		{"wrong type", `{"tool":"behave","args":{"mode":5}}`, "application/json", "input_schema_invalid", "", 200, 400},
		{"out of range", `{"tool":"behave","args":{"mode":"ok","n":6}}`, "application/json", "input_schema_invalid", "", 200, 400},
		{"huge exponent", `{"tool":"behave","args":{"mode":"ok","n":1e999999999}}`, "application/json", "invalid_request", "", 400, 400},
		{"float beyond a double", `{"tool":"behave","args":{"mode":"ok","n":1e309}}`, "application/json", "invalid_request", "", 400, 400},
		{"exponent beyond 400", `{"tool":"behave","args":{"mode":"ok","n":-1e400}}`, "application/json", "invalid_request", "", 400, 400},
		{"domain error", `{"tool":"behave","args":{"mode":"domain"}}`, "application/json", "tool_execution_error", "division_by_zero", 200, 422},
		{"tool result error", `{"tool":"behave","args":{"mode":"result"}}`, "application/json", "tool_result_error", "dimensionality_mismatch", 200, 422},
		{"wrong arguments", `{"tool":"behave","args":{"mode":"wrongargs"}}`, "application/json", "wrong_arguments", "invalid_unit_expression", 200, 422},
		{"cost limit", `{"tool":"behave","args":{"mode":"cost"}}`, "application/json", "cost_limit_exceeded", "exponent_too_large", 200, 422},
		{"timeout", `{"tool":"behave","args":{"mode":"slow"}}`, "application/json", "timeout", "deadline_exceeded", 200, 504},
		{"timeout, tool ignores ctx", `{"tool":"behave","args":{"mode":"stuck"}}`, "application/json", "timeout", "deadline_exceeded", 200, 504},
		{"result too large", `{"tool":"behave","args":{"mode":"long"}}`, "application/json", "tool_result_too_large", "max_result_chars", 200, 422},
		{"envelope too large", `{"tool":"behave","args":{"mode":"bigfacts"}}`, "application/json", "tool_result_too_large", "max_result_chars", 200, 422},
		{"facts fail schema", `{"tool":"behave","args":{"mode":"badfacts"}}`, "application/json", "output_schema_invalid", "", 200, 500},
		{"panic", `{"tool":"behave","args":{"mode":"panic"}}`, "application/json", "internal_error", "", 200, 500},
		{"internal error", `{"tool":"behave","args":{"mode":"bug"}}`, "application/json", "internal_error", "", 200, 500},
		{"malformed JSON", `{"tool":`, "application/json", "invalid_request", "", 400, 400},
		{"not an object", `[1,2]`, "application/json", "invalid_request", "", 400, 400},
		{"unknown top-level field", `{"tool":"behave","args":{},"extra":1}`, "application/json", "invalid_request", "", 400, 400},
		{"args not an object", `{"tool":"behave","args":[1]}`, "application/json", "invalid_request", "", 400, 400},
		{"tool missing", `{"args":{}}`, "application/json", "invalid_request", "", 400, 400},
		{"wrong content type", `{"tool":"behave","args":{"mode":"ok"}}`, "text/plain", "unsupported_media_type", "", 415, 415},
		{"form content type", `{"tool":"behave","args":{"mode":"ok"}}`, "application/x-www-form-urlencoded", "unsupported_media_type", "", 415, 415},
		{"2 MiB body", big, "application/json", "payload_too_large", "", 413, 413},
		{"no content type is JSON", `{"tool":"behave","args":{"mode":"ok"}}`, "", "", "", 200, 200},
	}
	for _, c := range cases {
		for _, route := range []string{"/invoke", "/v1/invoke"} {
			t.Run(c.name+" "+route, func(t *testing.T) {
				url := ts.URL
				if c.code == "timeout" {
					url = short.URL
				}
				status, body, _ := post(t, url+route, c.ct, c.body)
				want := c.legacy
				if route == "/v1/invoke" {
					want = c.v1Status
				}
				if status != want {
					t.Errorf("status %d, want %d (body %v)", status, want, body)
				}
				if c.code == "" {
					if body["structured_result"] == nil {
						t.Errorf("no structured_result: %v", body)
					}
					return
				}
				if body["error_code"] != c.code {
					t.Errorf("error_code %v, want %s (%v)", body["error_code"], c.code, body)
				}
				if c.reason != "" && body["reason"] != c.reason {
					t.Errorf("reason %v, want %s", body["reason"], c.reason)
				}
				if _, ok := body["error"].(string); !ok {
					t.Errorf("no error message: %v", body)
				}
				if _, ok := body["tool"].(string); !ok {
					t.Errorf("no tool field: %v", body)
				}
			})
		}
	}
	if strings.Contains(logs.String(), "hunter2") == false {
		t.Error("the internal error was not logged for operators")
	}
	// Internal details never reach the client.
	_, body, _ := post(t, ts.URL+"/invoke", "application/json", `{"tool":"behave","args":{"mode":"bug"}}`)
	if strings.Contains(fmt.Sprint(body), "hunter2") || strings.Contains(fmt.Sprint(body), "secret") {
		t.Errorf("internal details leaked: %v", body)
	}
}

// TestSchemaErrorDetails: the error text is the reference's (the first
// failure in its order: the missing b belongs to the object, "value"), the
// details list every failure with JSON Pointer paths in that order, and the
// unknown property names the nearest allowed one and all of them.
func TestSchemaErrorDetails(t *testing.T) {
	ts, _, _ := newTestServer(t, nil)
	_, body, _ := post(t, ts.URL+"/invoke", "application/json", `{"tool":"gcd_lcm","args":{"a":"x","c":1}}`)
	if want := "Input schema validation failed for 'gcd_lcm': value:required"; body["error"] != want {
		t.Errorf("error = %v, want %s", body["error"], want)
	}
	details, _ := body["details"].([]any)
	var got []string
	for _, d := range details {
		m := d.(map[string]any)
		got = append(got, m["path"].(string)+":"+m["keyword"].(string))
	}
	if want := []string{"/b:required", "/c:additionalProperties", "/c:did_you_mean", "/c:did_you_mean", "/a:type"}; !slices.Equal(got, want) {
		t.Errorf("details %v, want %v", got, want)
	}
	unknown := details[1].(map[string]any)
	if fmt.Sprint(unknown["allowed"]) != "[a b operation]" || unknown["message"] != `unknown property "c" (not in the schema; did you mean "a" or "b"?)` ||
		details[2].(map[string]any)["message"] != "a" || details[3].(map[string]any)["message"] != "b" {
		t.Errorf("unknown property hints: %v", details)
	}
}

func TestRedactionAndRequestID(t *testing.T) {
	ts, _, logs := newTestServer(t, nil)
	resp := testhttp.Do(t, http.MethodPost, ts.URL+"/invoke", map[string]string{"X-Request-Id": "abc-123"},
		[]byte(`{"tool":"behave","args":{"mode":"ok","secret":"päss"}}`))
	if got := resp.Header.Get("X-Request-Id"); got != "abc-123" {
		t.Errorf("X-Request-Id = %q", got)
	}
	raw := resp.Body
	v, _ := evidence.ParseJSON(raw)
	sr := v.(map[string]any)["structured_result"].(map[string]any)
	in := sr["input_normalized"].(map[string]any)
	want := map[string]any{"sha256": evidence.HashBytes([]byte("päss")), "utf8_bytes": json.Number("5")}
	if fmt.Sprint(in["secret"]) != fmt.Sprint(want) {
		t.Errorf("secret = %v, want %v", in["secret"], want)
	}
	if strings.Contains(string(raw), "päss") || strings.Contains(logs.String(), "päss") {
		t.Error("redacted value appears in the response or the logs")
	}
	if !strings.Contains(logs.String(), `"request_id":"abc-123"`) {
		t.Error("request id missing from the access log")
	}
	// A hostile request id is replaced, not echoed.
	resp2 := testhttp.Do(t, http.MethodPost, ts.URL+"/invoke", map[string]string{"X-Request-Id": "evil\"id with spaces"},
		[]byte(`{"tool":"behave","args":{"mode":"ok"}}`))
	if got := resp2.Header.Get("X-Request-Id"); got == "" || strings.Contains(got, " ") {
		t.Errorf("hostile request id handled badly: %q", got)
	}
}

func TestDisabledTool(t *testing.T) {
	ts, reg, _ := newTestServer(t, nil)
	before := reg.CatalogHash()
	reg.SetEnabled("behave", false)
	status, body, _ := post(t, ts.URL+"/v1/invoke", "application/json", `{"tool":"behave","args":{"mode":"ok"}}`)
	if status != 403 || body["error_code"] != "tool_disabled" || body["reason"] != "disabled" {
		t.Errorf("disabled: %d %v", status, body)
	}
	status, body, _ = post(t, ts.URL+"/invoke", "application/json", `{"tool":"behave","args":{"mode":"ok"}}`)
	if status != 200 || body["error_code"] != "tool_disabled" {
		t.Errorf("disabled legacy: %d %v", status, body)
	}
	if reg.CatalogHash() == before {
		t.Error("catalog_hash did not change when a tool was disabled")
	}
	entry := testhttp.GetJSON(t, ts.URL+"/tools/behave")
	if entry["enabled"] != false {
		t.Errorf("catalogue entry enabled = %v", entry["enabled"])
	}
}

func TestOverloaded(t *testing.T) {
	lim := tools.NewLimiter(1, time.Millisecond, nil)
	ts, _, _ := newTestServer(t, lim)
	g := &gate{entered: make(chan struct{}, 1), release: make(chan struct{})}
	holdGate.Store(g)
	done := make(chan struct{})
	go func() { // occupies the only slot until released (past its deadline if need be)
		defer close(done)
		testhttp.Do(t, http.MethodPost, ts.URL+"/invoke", map[string]string{"Content-Type": "application/json"},
			[]byte(`{"tool":"behave","args":{"mode":"hold"}}`))
	}()
	<-g.entered
	status, body, hdr := post(t, ts.URL+"/invoke", "application/json", `{"tool":"behave","args":{"mode":"ok"}}`)
	close(g.release)
	<-done
	if status != 503 || body["error_code"] != "overloaded" || hdr.Get("Retry-After") == "" {
		t.Errorf("overload: %d %v retry-after %q", status, body, hdr.Get("Retry-After"))
	}
}

func TestRoutes(t *testing.T) {
	ts, reg, _ := newTestServer(t, nil)
	h := testhttp.GetJSON(t, ts.URL+"/health")
	if h["status"] != "ok" || fmt.Sprint(h["tools"]) != "[gcd_lcm behave]" || h["catalog_hash"] != reg.CatalogHash() {
		t.Errorf("health = %v", h)
	}
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/tools/nope", 404}, {"GET", "/nowhere", 404}, {"GET", "/invoke", 405}, {"GET", "/tools", 200},
	} {
		resp := testhttp.Do(t, c.method, ts.URL+c.path, nil, nil)
		var body map[string]any
		if decErr := json.Unmarshal(resp.Body, &body); resp.Status != c.status || decErr != nil {
			t.Errorf("%s %s: %d (%v), want %d", c.method, c.path, resp.Status, decErr, c.status)
		}
	}
}

// FuzzInvokeBody: request decoding never panics and accepts only well-formed
// bodies: a tool name and args that are absent (nil, meaning {}) or the JSON
// text of an object, which Registry.Call parses.
func FuzzInvokeBody(f *testing.F) {
	for _, s := range []string{`{"tool":"gcd_lcm","args":{"a":1,"b":2}}`, `{"tool":"x"}`, `{`, `[]`, `{"tool":1}`,
		`{"tool":"a","args":null,"contract_hash":"x"}`, `{"tool":"a","args":{"n":1e999}}`, `"\u0000"`,
		` {"args" : {"a":[1,{"b":"}"}]} , "tool":"gcd_lcm" ,"contract_hash":null} `, `{"tool":"a","tool":"b"}`,
		`{"tool":"\u0061"}`, `{"tool":"a","args":[]}`, `{"tool":"a","contract_hash":7}`, `{"tool":"a","x":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if fast, ok := splitInvokeBody(data); ok {
			// The one-pass split agrees with encoding/json where it answers.
			if slow, aerr := decodeInvokeBody(data); aerr != nil || fast.Tool != slow.Tool ||
				!bytes.Equal(fast.Args, slow.Args) || fast.ContractHash != slow.ContractHash {
				t.Fatalf("split %q: %+v; encoding/json: %+v, %v", data, fast, slow, aerr)
			}
		}
		req, aerr := parseInvokeBody(data)
		if aerr != nil {
			if aerr.Code != surface.CodeInvalidRequest {
				t.Fatalf("unexpected code %s", aerr.Code)
			}
			return
		}
		if req.Tool == "" || (req.Args != nil && (req.Args[0] != '{' || !json.Valid(req.Args))) {
			t.Fatalf("accepted an incomplete request: %+v", req)
		}
	})
}
