package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// referenceCase is one case of
// testdata/reference/structured_validate/vectors.json: the reference sidecar's
// own answer (gen_structured.py runs its structured_validate through its
// execute_tool path).
type referenceCase struct {
	Name     string
	Args     map[string]any
	Response struct {
		Facts     map[string]any
		ErrorCode string
		Error     string
	}
}

// knownDifference lists cases (or a rule for findings of one format and code)
// where we answer differently on purpose or cannot match; every id is a row
// of docs/compatibility.md's structured_validate table.
type knownDifference struct {
	ID     string   `json:"id"`
	Cases  []string `json:"cases"`
	Format string   `json:"format"` // with Code: every finding of that code
	Code   string   `json:"code"`
	Fields []string `json:"fields"` // finding fields allowed to differ; empty: the whole answer
}

func loadStructuredReference(t *testing.T) ([]referenceCase, []knownDifference) {
	t.Helper()
	raw, err := os.ReadFile("testdata/reference/structured_validate/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	// evidence.ParseJSON keeps numbers exact (2, not 2.0), as the facts are.
	v, err := evidence.ParseJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	top, _ := v.(map[string]any)
	versions, _ := top["versions"].(map[string]any)
	if versions["jsonschema"] != "4.26.0" || versions["PyYAML"] != "6.0.3" {
		t.Fatalf("vectors written with %v, not the reference's pinned libraries", versions)
	}
	rawCases, _ := top["cases"].([]any)
	cases := make([]referenceCase, 0, len(rawCases))
	for _, rc := range rawCases {
		m, _ := rc.(map[string]any)
		var c referenceCase
		c.Name, _ = m["name"].(string)
		c.Args, _ = m["args"].(map[string]any)
		resp, _ := m["response"].(map[string]any)
		c.Response.Facts, _ = resp["facts"].(map[string]any)
		c.Response.ErrorCode, _ = resp["error_code"].(string)
		c.Response.Error, _ = resp["error"].(string)
		cases = append(cases, c)
	}
	raw, err = os.ReadFile("testdata/reference/structured_validate/differences.json")
	if err != nil {
		t.Fatal(err)
	}
	var diffs struct {
		Differences []knownDifference `json:"differences"`
	}
	if err := json.Unmarshal(raw, &diffs); err != nil {
		t.Fatal(err)
	}
	return cases, diffs.Differences
}

// TestStructuredReference replays the reference's answers: ours must be the
// same facts (canonical JSON) or the same error code and text, unless the case
// is a listed difference; a listed difference must still differ (no stale
// entries) and be documented in docs/compatibility.md.
func TestStructuredReference(t *testing.T) {
	cases, diffs := loadStructuredReference(t)
	if len(cases) < 1000 {
		t.Fatalf("only %d reference cases", len(cases))
	}
	doc, err := os.ReadFile("../docs/compatibility.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## structured_validate")
	section, _, _ = strings.Cut(section, "\n## ")
	byCase := map[string]*knownDifference{}
	for i := range diffs {
		d := &diffs[i]
		if !regexp.MustCompile(`\| ` + regexp.QuoteMeta(d.ID) + ` \|`).MatchString(section) {
			t.Errorf("difference %s is not in docs/compatibility.md's structured_validate table", d.ID)
		}
		for _, c := range d.Cases {
			byCase[c] = d
		}
	}
	used := map[string]bool{}
	reg := testRegistry(t)
	matched := 0
	for _, c := range cases {
		got, gotErr := referenceAnswer(reg, c.Args)
		var diff []string
		switch want := c.Response; {
		case want.Facts != nil && gotErr != nil:
			diff = []string{"answer: " + gotErr.Error()}
		case want.Facts != nil:
			diff = factsDiff(got, want.Facts, diffs, used)
		case gotErr == nil:
			diff = []string{"answer: facts, want error " + want.Error}
		default:
			diff = errorDiff(gotErr, want.ErrorCode, want.Error)
		}
		d := byCase[c.Name]
		switch {
		case len(diff) == 0 && d != nil:
			t.Errorf("%s matches the reference but is listed as difference %s", c.Name, d.ID)
		case len(diff) == 0:
			matched++
		case d == nil:
			t.Errorf("%s differs from the reference: %s", c.Name, strings.Join(diff, "; "))
		default:
			used[d.ID] = true
		}
	}
	for _, d := range diffs {
		if !used[d.ID] {
			t.Errorf("difference %s matches no case", d.ID)
		}
	}
	t.Logf("%d of %d reference answers matched exactly", matched, len(cases))
}

func referenceAnswer(reg *Registry, args map[string]any) (map[string]any, error) {
	resp, err := reg.Invoke(context.Background(), Request{Tool: "structured_validate", Args: args})
	if err != nil {
		return nil, err
	}
	return resp.Envelope.Facts, nil
}

func errorDiff(err error, wantCode, wantText string) []string {
	var te *Error
	if !errors.As(err, &te) {
		return []string{"error " + err.Error()}
	}
	if te.Code != wantCode {
		return []string{"error code " + te.Code + ", want " + wantCode}
	}
	if te.Code != CodeExecution {
		return nil // input_schema_invalid, tool_result_too_large: the execution path's text, not the tool's
	}
	text := strings.TrimPrefix(wantText, "Error in 'structured_validate': ")
	var out []string
	if te.Message != text {
		out = append(out, fmt.Sprintf("message %q, want %q", te.Message, text))
	}
	if regexp.MustCompile(`^[a-z_]+$`).MatchString(text) && te.Reason != text {
		out = append(out, "reason "+te.Reason+", want "+text)
	}
	return out
}

// factsDiff compares facts; differences a rule allows (format + finding code +
// fields) are recorded as used and not reported.
func factsDiff(got, want map[string]any, rules []knownDifference, used map[string]bool) []string {
	g, _ := evidence.Canonical(got)
	w, _ := evidence.Canonical(want)
	if string(g) == string(w) {
		return nil
	}
	var out []string
	for _, k := range []string{"valid", "format", "payload_hash", "schema_hash", "warnings", "details"} {
		a, _ := evidence.Canonical(got[k])
		b, _ := evidence.Canonical(want[k])
		if string(a) != string(b) {
			out = append(out, fmt.Sprintf("%s %s, want %s", k, a, b))
		}
	}
	ge, _ := got["errors"].([]any)
	we, _ := want["errors"].([]any)
	if len(ge) != len(we) {
		a, _ := evidence.Canonical(ge)
		b, _ := evidence.Canonical(we)
		return append(out, fmt.Sprintf("errors %.400s, want %.400s", a, b))
	}
	for i := range ge {
		gf, _ := ge[i].(map[string]any)
		wf, _ := we[i].(map[string]any)
		for _, field := range []string{"code", "message", "line", "column", "path"} {
			a, _ := evidence.Canonical(gf[field])
			b, _ := evidence.Canonical(wf[field])
			if string(a) == string(b) {
				continue
			}
			if id := allowedBy(rules, want["format"], wf["code"], field); id != "" {
				used[id] = true
				continue
			}
			out = append(out, fmt.Sprintf("errors[%d].%s %s, want %s", i, field, a, b))
		}
	}
	return out
}

func allowedBy(rules []knownDifference, format, code any, field string) string {
	for _, r := range rules {
		if r.Code == "" || r.Format != format || r.Code != code {
			continue
		}
		for _, f := range r.Fields {
			if f == field {
				return r.ID
			}
		}
	}
	return ""
}

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
		facts, _ := json.Marshal(resp.Envelope.Facts)
		if strings.Contains(string(facts), secret) != tc.echoed {
			t.Errorf("%v: facts %s; quoting the payload: got %v, want %v", tc.args["format_name"], facts, !tc.echoed, tc.echoed)
		}
		payload := resp.Envelope.InputNormalized["payload"].(map[string]any)
		if payload["sha256"] != resp.Envelope.Facts["payload_hash"] {
			t.Errorf("payload_hash %v differs from the redaction hash %v", resp.Envelope.Facts["payload_hash"], payload["sha256"])
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
		{`[1, 2, 3]`, "@" + strings.Repeat(" | [@, @]", 30), CodeCostLimit, "evaluation_limit"},
	} {
		_, err := reg.Invoke(context.Background(), Request{Tool: "json_query", Args: map[string]any{"json_str": tc.doc, "path": tc.path}})
		var te *Error
		if !errors.As(err, &te) || te.Code != tc.code || te.Reason != tc.reason {
			t.Errorf("%.30s: got %v, want %s/%s", tc.path, err, tc.code, tc.reason)
		}
	}
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
