package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestStructuredValidateNeverEchoes: the payload and the schema appear nowhere
// in the response (facts, text, input_normalized), only their hashes.
func TestStructuredValidateNeverEchoes(t *testing.T) {
	reg := testRegistry(t)
	secret := "s3cr3t-payload-marker"
	schemaSecret := "s3cr3t-schema-marker"
	for _, args := range []map[string]any{
		{"format_name": "json", "payload": `{"` + secret + `": [1, 2}`},
		{"format_name": "json", "payload": `{"x": "` + secret + `"}`, "schema_json": `{"properties": {"x": {"enum": ["` + schemaSecret + `"]}}}`},
		{"format_name": "yaml", "payload": secret + ": &a [1]\n"},
		{"format_name": "xml", "payload": "<a>&" + secret + ";</a>"},
		{"format_name": "csv", "payload": "=" + secret + "\n", "csv_dialect": "comma"},
	} {
		resp, err := reg.Invoke(context.Background(), Request{Tool: "structured_validate", Args: args})
		if err != nil {
			t.Fatalf("%v", err)
		}
		body, _ := json.Marshal(map[string]any{"result": resp.Result, "structured_result": resp.Envelope.Generic()})
		if strings.Contains(string(body), secret) || strings.Contains(string(body), schemaSecret) {
			t.Errorf("response echoes the input: %s", body)
		}
		in := resp.Envelope.InputNormalized["payload"].(map[string]any)
		if in["sha256"] != resp.Envelope.Facts["payload_hash"] {
			t.Errorf("payload_hash %v differs from the redaction hash %v", resp.Envelope.Facts["payload_hash"], in["sha256"])
		}
	}
}

func TestStructuredValidateArgumentErrors(t *testing.T) {
	reg := testRegistry(t)
	for _, tc := range []struct {
		args         map[string]any
		code, reason string
	}{
		{map[string]any{"format_name": "csv", "payload": "a,b"}, CodeExecution, "csv_dialect_required"},
		{map[string]any{"format_name": "yaml", "payload": "a: 1", "schema_json": "{}"}, CodeExecution, "schema_requires_json"},
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

func benchStructured(b *testing.B, tool string, args map[string]any) {
	reg := testRegistry(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Invoke(ctx, Request{Tool: tool, Args: args}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStructuredValidate(b *testing.B) {
	schema := `{"type": "array", "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}`
	var large strings.Builder
	large.WriteString("[")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			large.WriteByte(',')
		}
		fmt.Fprintf(&large, `{"id": %d, "name": "item %d"}`, i, i)
	}
	large.WriteString("]")
	b.Run("small_json_schema", func(b *testing.B) {
		benchStructured(b, "structured_validate", map[string]any{"format_name": "json", "payload": `[{"id": 1, "name": "x"}]`, "schema_json": schema})
	})
	b.Run("large_json_schema", func(b *testing.B) {
		benchStructured(b, "structured_validate", map[string]any{"format_name": "json", "payload": large.String(), "schema_json": schema})
	})
	b.Run("small_csv", func(b *testing.B) {
		benchStructured(b, "structured_validate", map[string]any{"format_name": "csv", "payload": "a,b\n1,2\n", "csv_dialect": "comma"})
	})
}

func BenchmarkJSONQuery(b *testing.B) {
	var large strings.Builder
	large.WriteString(`{"items": [`)
	for i := 0; i < 2000; i++ {
		if i > 0 {
			large.WriteByte(',')
		}
		fmt.Fprintf(&large, `{"id": %d, "price": %d.25}`, i, i%100)
	}
	large.WriteString("]}")
	b.Run("small_dotted", func(b *testing.B) {
		benchStructured(b, "json_query", map[string]any{"json_str": `{"a": {"b": [{"c": 1}]}}`, "path": "a.b[0].c"})
	})
	b.Run("large_filter_sum", func(b *testing.B) {
		benchStructured(b, "json_query", map[string]any{"json_str": large.String(), "path": "sum(items[?price > `50`].price)"})
	})
}
