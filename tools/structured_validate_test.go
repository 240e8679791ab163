package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestStructuredValidateRedaction: the payload and the schema never reach the
// evidence's input_normalized (only their hashes), and the findings quote the
// payload only where the reference's messages do (JSON Schema errors, whose
// jsonschema messages show Python's repr of the failing value).
func TestStructuredValidateRedaction(t *testing.T) {
	reg := testRegistry(t)
	secret := "s3cr3t-payload-marker"
	for _, tc := range []struct {
		args   map[string]any
		echoed bool
	}{
		{map[string]any{"format_name": "json", "payload": `{"` + secret + `": [1, 2}`}, false},
		{map[string]any{"format_name": "json", "payload": `{"x": "` + secret + `"}`, "schema_json": `{"properties": {"x": {"type": "integer"}}}`}, true},
		{map[string]any{"format_name": "yaml", "payload": secret + ": &a [1]\n"}, false},
		{map[string]any{"format_name": "yaml", "payload": secret + ": [1\n"}, false},
		{map[string]any{"format_name": "xml", "payload": "<a>&" + secret + ";</a>"}, false},
		{map[string]any{"format_name": "csv", "payload": "=" + secret + "\n\"" + secret, "csv_dialect": "comma"}, false},
	} {
		resp, err := reg.Invoke(context.Background(), Request{Tool: "structured_validate", Args: tc.args})
		if err != nil {
			t.Fatalf("%v", err)
		}
		in, _ := json.Marshal(resp.Envelope.InputNormalized)
		if strings.Contains(string(in), secret) {
			t.Errorf("input_normalized holds the payload: %s", in)
		}
		facts, _ := json.Marshal(resp.Envelope.Facts())
		if strings.Contains(string(facts), secret) != tc.echoed {
			t.Errorf("%v: facts %s; quoting the payload: got %v, want %v", tc.args["format_name"], facts, !tc.echoed, tc.echoed)
		}
		payload := resp.Envelope.InputNormalized["payload"].(map[string]any)
		if payload["sha256"] != resp.Envelope.Facts()["payload_hash"] {
			t.Errorf("payload_hash %v differs from the redaction hash %v", resp.Envelope.Facts()["payload_hash"], payload["sha256"])
		}
	}
}

func TestStructuredValidateArgumentErrors(t *testing.T) {
	reg := testRegistry(t)
	for _, tc := range []struct {
		args         map[string]any
		code, reason string
	}{
		{map[string]any{"format_name": "csv", "payload": "a,b"}, CodeExecution, "csv_dialect_must_be_explicit"},
		{map[string]any{"format_name": "yaml", "payload": "a: 1", "schema_json": "{}"}, CodeExecution, "schema_json_is_supported_only_for_json"},
		{map[string]any{"format_name": "yaml", "payload": strings.Repeat("é", 32769)}, CodeExecution, "structured_payload_size_limit_exceeded"},
		{map[string]any{"format_name": "json", "payload": "1", "schema_json": `"` + strings.Repeat("é", 16400) + `"`}, CodeExecution, "structured_schema_size_limit_exceeded"},
		{map[string]any{"format_name": "json", "payload": strings.Repeat("[", 70) + strings.Repeat("]", 70)}, CodeExecution, "structured_depth_limit_exceeded"},
		{map[string]any{"format_name": "json", "payload": "[" + strings.Repeat("0,", 10000) + "0]"}, CodeExecution, "structured_node_limit_exceeded"},
		{map[string]any{"format_name": "toml", "payload": "a = 1"}, CodeInputSchemaInvalid, ""},
		{map[string]any{"format_name": "json", "payload": strings.Repeat("x", 65537)}, CodeInputSchemaInvalid, ""},
	} {
		_, err := reg.Invoke(context.Background(), Request{Tool: "structured_validate", Args: tc.args})
		var te *Error
		if !errors.As(err, &te) || te.Code != tc.code || (tc.reason != "" && te.Reason != tc.reason) {
			t.Errorf("%v: got %v, want %s/%s", tc.args["format_name"], err, tc.code, tc.reason)
		}
	}
}

// TestStructuredValidateIssue13: the request of issue 13 that took the process
// out of memory (1000 zeros against an anyOf of 2900 branches that all fail),
// and a larger one, are refused with cost_limit_exceeded after a bounded
// amount of work: the schema check counts work units (deterministic, the same
// on every machine) and stops at its budget; the bytes the call allocates are
// bounded too (runtime.MemStats, not wall-clock).
func TestStructuredValidateIssue13(t *testing.T) {
	reg := testRegistry(t)
	branches := `{"items":{"anyOf":[` + strings.TrimSuffix(strings.Repeat(`{"not":{}},`, 2900), ",") + `]}}`
	for _, n := range []int{1000, 9999} {
		args := map[string]any{
			"format_name": "json",
			"payload":     "[" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]",
			"schema_json": branches,
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := reg.Invoke(context.Background(), Request{Tool: "structured_validate", Args: args})
		runtime.ReadMemStats(&after)
		var te *Error
		if !errors.As(err, &te) || te.Code != CodeCostLimit || te.Reason != "schema_validation_work_limit" {
			t.Fatalf("%d items: got %v, want cost_limit_exceeded/schema_validation_work_limit", n, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
			t.Errorf("%d items: the call allocated %d MiB", n, alloc>>20)
		}
	}
}

// jsonArray returns the JSON array of n elements, element i written by elem.
func jsonArray(n int, elem func(i int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(elem(i))
	}
	b.WriteByte(']')
	return b.String()
}

func BenchmarkStructuredValidate(b *testing.B) {
	schema := `{"type": "array", "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}`
	large := jsonArray(1000, func(i int) string { return fmt.Sprintf(`{"id": %d, "name": "item %d"}`, i, i) })
	b.Run("small_json_schema", func(b *testing.B) {
		benchTool(b, "structured_validate", map[string]any{"format_name": "json", "payload": `[{"id": 1, "name": "x"}]`, "schema_json": schema})
	})
	b.Run("large_json_schema", func(b *testing.B) {
		benchTool(b, "structured_validate", map[string]any{"format_name": "json", "payload": large, "schema_json": schema})
	})
	b.Run("small_csv", func(b *testing.B) {
		benchTool(b, "structured_validate", map[string]any{"format_name": "csv", "payload": "a,b\n1,2\n", "csv_dialect": "comma"})
	})
}

func TestJSONQueryErrors(t *testing.T) {
	reg := testRegistry(t)
	deep := strings.Repeat("[", 600) + strings.Repeat("]", 600)
	for _, tc := range []struct {
		doc, path, code, reason string
	}{
		{`{"a": 1}`, "a[", CodeExecution, "invalid_jmespath"},
		{`{"a": 1`, "a", CodeExecution, "invalid_json"},
		{`{"a": 1}`, "abs(a, a)", CodeExecution, "invalid-arity"},
		{`{"a": "x"}`, "abs(a)", CodeExecution, "invalid-type"},
		{`{"a": 1}`, "nope(a)", CodeExecution, "unknown-function"},
		{deep, "@", CodeCostLimit, "json_too_deep"},
		{`[1, 2, 3]`, "@" + strings.Repeat(" | [@, @]", 30), CodeCostLimit, "work_limit"},
	} {
		_, err := reg.Invoke(context.Background(), Request{Tool: "json_query", Args: map[string]any{"json_str": tc.doc, "path": tc.path}})
		var te *Error
		if !errors.As(err, &te) || te.Code != tc.code || te.Reason != tc.reason {
			t.Errorf("%.30s: got %v, want %s/%s", tc.path, err, tc.code, tc.reason)
		}
	}
}

func BenchmarkJSONQuery(b *testing.B) {
	large := `{"items": ` + jsonArray(2000, func(i int) string { return fmt.Sprintf(`{"id": %d, "price": %d.25}`, i, i%100) }) + "}"
	b.Run("small_dotted", func(b *testing.B) {
		benchTool(b, "json_query", map[string]any{"json_str": `{"a": {"b": [{"c": 1}]}}`, "path": "a.b[0].c"})
	})
	b.Run("large_filter_sum", func(b *testing.B) {
		benchTool(b, "json_query", map[string]any{"json_str": large, "path": "sum(items[?price > `50`].price)"})
	})
}
