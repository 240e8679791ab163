package contracts

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// testContract returns a minimal valid contract document with the given input
// schema properties (JSON) and required list, for the tests below.
func testContract(props, required string) string {
	return `{
 "tool": "t", "contract_version": "1.2.3", "title": "T", "description": "test",
 "determinism": "input_only", "source_policy": {"kind": "test", "name": "test"}, "access_kind": "read",
 "inputSchema": {"type": "object", "additionalProperties": false, "required": ` + required + `, "properties": ` + props + `},
 "outputSchema": {"type": "object", "additionalProperties": false, "properties": {"ok": {"type": "boolean", "description": "d"}}},
 "examples": [{"title": "a", "args": {"x": 1}, "facts": {"ok": true}}, {"title": "b", "args": {"x": 2}, "facts": {}}]
}`
}

func mustParse(t *testing.T, doc string) *Contract {
	t.Helper()
	c, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestParseFillsConstantPolicies: the policies every contract has the same
// (normalization, retry, cache) are filled in
// when a contract leaves them out, and the declared ones are kept.
func TestParseFillsConstantPolicies(t *testing.T) {
	c := mustParse(t, testContract(`{"x": {"type": "integer", "description": "x"}}`, `["x"]`))
	for name, got := range map[string]any{
		"contract_id":          c.ContractID,
		"normalization_policy": c.NormalizationPolicy,
		"retry_policy":         c.RetryPolicy,
		"cache_policy":         c.CachePolicy,
		"evidence_policy":      c.EvidencePolicy,
		"limits":               c.Limits,
		"annotations":          c.Annotations,
	} {
		want := map[string]string{
			"contract_id":          `"precisiond.t"`,
			"normalization_policy": `{"apply_schema_defaults":true,"reject_unknown_properties":true}`,
			"retry_policy":         `{"argument_mutation":false,"max_attempts":1}`,
			"cache_policy":         `{"mode":"bypass"}`,
			"evidence_policy":      `{}`,
			"limits":               `{"max_result_chars":65536}`,
			"annotations":          `{"destructiveHint":false,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":true,"title":"T"}`,
		}[name]
		if g := canonical(t, got); g != want {
			t.Errorf("%s = %s, want %s", name, g, want)
		}
	}
	doc := strings.Replace(testContract(`{"x": {"type": "integer", "description": "x"}}`, `["x"]`),
		`"access_kind": "read",`, `"access_kind": "write", "limits": {"max_result_chars": 10}, "annotations": {"idempotentHint": false},`, 1)
	c = mustParse(t, doc)
	if g := canonical(t, c.Limits); g != `{"max_result_chars":10}` {
		t.Errorf("declared limits replaced: %s", g)
	}
	if c.Annotations["idempotentHint"] != false || c.Annotations["readOnlyHint"] != false {
		t.Errorf("annotations %v", c.Annotations)
	}
}

// TestParseRefusesMalformedContracts: each rule of the contract shape is
// enforced, with an error naming it.
func TestParseRefusesMalformedContracts(t *testing.T) {
	good := testContract(`{"x": {"type": "integer", "description": "x"}}`, `["x"]`)
	for name, c := range map[string]struct{ from, to, want string }{
		"bad name":             {`"tool": "t"`, `"tool": "T-1"`, "invalid tool name"},
		"wrong id":             {`"tool": "t",`, `"tool": "t", "contract_id": "other.t",`, "contract_id"},
		"bad version":          {`"1.2.3"`, `"1.2"`, "semver"},
		"bad determinism":      {`"input_only"`, `"random"`, "determinism"},
		"bad access":           {`"access_kind": "read"`, `"access_kind": "delete"`, "access_kind"},
		"no source":            {`"source_policy": {"kind": "test", "name": "test"}`, `"source_policy": {"kind": "test"}`, "source_policy.name"},
		"open input":           {`"additionalProperties": false, "required"`, `"additionalProperties": true, "required"`, "additionalProperties"},
		"undocumented":         {`"description": "x"`, `"title": "x"`, `property "x" has no description`},
		"unknown key":          {`"title": "T",`, `"title": "T", "colour": "red",`, "unknown field"},
		"one example":          {`, {"title": "b", "args": {"x": 2}, "facts": {}}]`, `]`, "at least two examples"},
		"example args invalid": {`"args": {"x": 2}`, `"args": {"x": "two"}`, "example 1 (b): args"},
		"example facts wrong":  {`"facts": {}`, `"facts": {"ok": 1}`, "example 1 (b): facts"},
		"redacts unknown":      {`"access_kind": "read",`, `"access_kind": "read", "evidence_policy": {"redact_input_fields": ["y"]},`, `redacts unknown field "y"`},
		"external ref":         {`{"type": "integer", "description": "x"}`, `{"$ref": "https://example.com/s.json", "description": "x"}`, "inputSchema"},
	} {
		doc := strings.Replace(good, c.from, c.to, 1)
		if doc == good {
			t.Fatalf("%s: test setup does not change the document", name)
		}
		_, err := Parse([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one mentioning %q", name, err, c.want)
		}
	}
}

// TestApplyDefaults: absent properties get their default, recursively into
// object properties that are present; present values win; the input is not
// modified and no default value is shared with the schema.
func TestApplyDefaults(t *testing.T) {
	c := mustParse(t, testContract(`{
	  "x": {"type": "integer", "description": "x"},
	  "mode": {"type": "string", "default": "fast", "description": "m"},
	  "tags": {"type": "array", "default": ["a"], "description": "t"},
	  "opts": {"type": "object", "description": "o", "properties": {
	     "depth": {"type": "integer", "default": 3, "description": "d"},
	     "inner": {"type": "object", "description": "i", "properties": {"z": {"type": "boolean", "default": true, "description": "z"}}}}}
	}`, `["x"]`))
	in := map[string]any{"x": json.Number("1"), "opts": map[string]any{"inner": map[string]any{}}}
	before := canonical(t, in)
	got := c.ApplyDefaults(in)
	want := `{"mode":"fast","opts":{"depth":3,"inner":{"z":true}},"tags":["a"],"x":1}`
	if g := canonical(t, got); g != want {
		t.Errorf("ApplyDefaults = %s, want %s", g, want)
	}
	if canonical(t, in) != before {
		t.Errorf("ApplyDefaults modified its input: %s", canonical(t, in))
	}
	got["tags"].([]any)[0] = "changed"
	if g := canonical(t, c.ApplyDefaults(map[string]any{"x": json.Number("1")})["tags"]); g != `["a"]` {
		t.Errorf("a default value is shared with the schema: %s", g)
	}
	kept := c.ApplyDefaults(map[string]any{"x": json.Number("1"), "mode": "slow", "opts": "not an object"})
	if kept["mode"] != "slow" || kept["opts"] != "not an object" {
		t.Errorf("present values replaced: %v", kept)
	}
	if err := c.ValidateInput(got); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
}

// TestPointerEscaping: JSON Pointer tokens escape "~" as "~0" and "/" as
// "~1" (RFC 6901), in that order, and the root is "".
func TestPointerEscaping(t *testing.T) {
	for _, c := range []struct {
		tokens []string
		want   string
	}{
		{nil, ""},
		{[]string{"a"}, "/a"},
		{[]string{"a/b", "c~d", "0"}, "/a~1b/c~0d/0"},
		{[]string{"~1"}, "/~01"},
		{[]string{""}, "/"},
		{[]string{"ü/€"}, "/ü~1€"},
	} {
		if got := pointer(c.tokens); got != c.want {
			t.Errorf("pointer(%q) = %q, want %q", c.tokens, got, c.want)
		}
	}
}

// TestValidationDetails: every failure is collected as one detail with a JSON
// Pointer path, the failing keyword and a message; a missing or unknown
// property is reported at its own path, one detail each; details are in the
// reference's order (Python jsonschema's errors sorted by path parts, then
// message: a missing property belongs to its object) and the error text is
// the reference's "path:keyword" of the first one.
func TestValidationDetails(t *testing.T) {
	c := mustParse(t, testContract(`{
	  "x": {"type": "integer", "description": "x"},
	  "a/b": {"type": "integer", "minimum": 0, "description": "slash"},
	  "list": {"type": "array", "items": {"type": "string", "maxLength": 2}, "description": "l"},
	  "obj": {"type": "object", "additionalProperties": false, "required": ["k~"], "description": "o",
	          "properties": {"k~": {"type": "string", "description": "k"}}}
	}`, `["x"]`))
	err := c.ValidateInput(map[string]any{
		"a/b":   json.Number("-1"),
		"list":  []any{"ok", "toolong"},
		"obj":   map[string]any{"extra": true},
		"other": true,
	})
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v (%T), want *ValidationError", err, err)
	}
	type d struct{ path, keyword string }
	var got []d
	for _, x := range ve.Details {
		if x.Message == "" {
			t.Errorf("%s:%s has no message", x.Path, x.Keyword)
		}
		got = append(got, d{x.Path, x.Keyword})
	}
	want := []d{
		{"/x", "required"},                 // ('', "'x' is a required property")
		{"/other", "additionalProperties"}, // ('', "Additional properties are not allowed …")
		{"/a~1b", "minimum"},
		{"/list/1", "maxLength"},
		{"/obj/k~0", "required"},
		{"/obj/extra", "additionalProperties"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("details\n got %v\nwant %v", got, want)
	}
	if err.Error() != "value:required" {
		t.Errorf("Error() = %q", err.Error())
	}
	if c.ValidateOutput(map[string]any{"ok": true}) != nil || c.ValidateOutput(map[string]any{"ok": "yes"}) == nil {
		t.Error("ValidateOutput does not check the outputSchema")
	}
}

// TestValidateAgainstRefusesOutsideRefs: a verifier's schema can load nothing
// from outside.
func TestValidateAgainstRefusesOutsideRefs(t *testing.T) {
	err := ValidateAgainst(map[string]any{"$ref": "https://example.com/s.json"}, map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("err = %v", err)
	}
}

// TestLoadIsCachedAndChecked: Load returns one shared contract per name,
// refuses names that are not tool names and reports a missing file.
func TestLoadIsCachedAndChecked(t *testing.T) {
	a, err := Load("gcd_lcm")
	if err != nil {
		t.Fatal(err)
	}
	if b := MustLoad("gcd_lcm"); a != b {
		t.Error("Load returned two contracts for one name")
	}
	for _, name := range []string{"../gcd_lcm", "GCD", "", "no_such_tool"} {
		if _, err := Load(name); err == nil {
			t.Errorf("Load(%q) succeeded", name)
		}
	}
}

// TestDetailsAreBounded: an input with thousands of failures yields at most
// MaxDetails details, the first ones by path, in the same order every time.
func TestDetailsAreBounded(t *testing.T) {
	c := mustParse(t, testContract(`{
	  "x": {"type": "integer", "description": "x"},
	  "list": {"type": "array", "items": {"type": "string"}, "description": "l"}
	}`, `["x"]`))
	list := make([]any, 5000)
	for i := range list {
		list[i] = json.Number("1")
	}
	var first []Detail
	for range 3 {
		var ve *ValidationError
		if !errors.As(c.ValidateInput(map[string]any{"x": json.Number("1"), "list": list}), &ve) {
			t.Fatal("5000 type errors validated")
		}
		if len(ve.Details) != MaxDetails {
			t.Fatalf("%d details, want %d", len(ve.Details), MaxDetails)
		}
		if first == nil {
			first = ve.Details
		} else if !reflect.DeepEqual(first, ve.Details) {
			t.Fatal("the kept details differ between runs")
		}
	}
	for i := 1; i < len(first); i++ {
		if first[i-1].Path > first[i].Path {
			t.Fatalf("details not sorted by path: %q before %q", first[i-1].Path, first[i].Path)
		}
	}
	if first[0].Path != "/list/0" {
		t.Errorf("first detail %q", first[0].Path)
	}
}

// TestCapacity: the most values an instance valid against a schema can hold.
func TestCapacity(t *testing.T) {
	for _, c := range []struct {
		schema string
		want   int64
	}{
		{`{"type": "string"}`, 1},
		{`{"type": "array", "maxItems": 3, "items": {"type": "integer"}}`, 4},
		{`{"type": "array", "items": {"type": "integer"}}`, unbounded},
		{`{"type": "array", "maxItems": 3}`, unbounded},
		{`{"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}, "b": {"type": "array", "maxItems": 2, "items": {"type": ["string", "null"]}}}}`, 5},
		{`{"type": "object", "properties": {"a": {"type": "string"}}}`, unbounded},
		{`{"anyOf": [{"type": "string"}, {"type": "array", "maxItems": 10, "items": {"type": "number"}}]}`, 11},
		{`{"oneOf": [{"type": "string"}, {"type": "array", "items": {}}]}`, unbounded},
		{`{"type": ["string", "array"], "maxItems": 2, "items": {"type": "string"}}`, 3},
		{`{"const": [1, 2]}`, 3},
		{`{"$ref": "#/$defs/x"}`, unbounded},
		{`{}`, unbounded},
	} {
		var s any
		dec := json.NewDecoder(strings.NewReader(c.schema))
		dec.UseNumber()
		if err := dec.Decode(&s); err != nil {
			t.Fatal(err)
		}
		if got := capacity(s); got != c.want {
			t.Errorf("capacity(%s) = %d, want %d", c.schema, got, c.want)
		}
	}
	// Every contract's examples fit its capacity (Parse checks them), and the
	// big-array contract is bounded.
	if c := MustLoad("statistics_calc"); c.inputValues == unbounded || c.inputValues < 100001 {
		t.Errorf("statistics_calc capacity %d", c.inputValues)
	}
}

// TestOversizedInstanceRefusedFirst: an instance with more values than the
// schema can ever accept gets one detail without the schema being evaluated
// (no detail per value), while one just over a limit gets the library's own
// detail for that limit.
func TestOversizedInstanceRefusedFirst(t *testing.T) {
	c := mustParse(t, testContract(`{
	  "x": {"type": "integer", "description": "x"},
	  "list": {"type": "array", "maxItems": 3, "items": {"type": "string"}, "description": "l"}
	}`, `["x"]`))
	huge := make([]any, 100000)
	for i := range huge {
		huge[i] = map[string]any{}
	}
	var ve *ValidationError
	if !errors.As(c.ValidateInput(map[string]any{"x": json.Number("1"), "list": huge}), &ve) {
		t.Fatal("an oversized instance validated")
	}
	if len(ve.Details) != 1 || ve.Details[0].Path != "" || !strings.Contains(ve.Details[0].Message, "more than 6 JSON values") {
		t.Errorf("details %v", ve.Details)
	}
	err := c.ValidateInput(map[string]any{"x": json.Number("1"), "list": []any{"a", "b", "c", "d"}})
	if !errors.As(err, &ve) || len(ve.Details) != 1 || ve.Details[0].Path != "/list" || ve.Details[0].Keyword != "maxItems" {
		t.Errorf("4 items: %v", err)
	}
	if err := c.ValidateInput(map[string]any{"x": json.Number("1"), "list": []any{"a", "b", "c"}}); err != nil {
		t.Errorf("3 items: %v", err)
	}
}

// TestLongArraysValidateInWindows: a long array is validated a window at a
// time without changing the verdict: an error anywhere is found with its true
// path, and what only the whole array can break (maxItems, uniqueItems across
// windows) is still checked.
func TestLongArraysValidateInWindows(t *testing.T) {
	c := mustParse(t, testContract(`{
	  "x": {"type": "integer", "description": "x"},
	  "list": {"type": "array", "maxItems": 4000, "uniqueItems": true, "items": {"type": "integer"}, "description": "l"}
	}`, `["x"]`))
	if !c.windowed["list"] {
		t.Fatal("list is not validated in windows")
	}
	list := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = json.Number(strconv.Itoa(i))
		}
		return out
	}
	detailsOf := func(l []any) []Detail {
		t.Helper()
		var ve *ValidationError
		if err := c.ValidateInput(map[string]any{"x": json.Number("1"), "list": l}); !errors.As(err, &ve) {
			if err != nil {
				t.Fatal(err)
			}
			return nil
		}
		return ve.Details
	}
	if d := detailsOf(list(3999)); d != nil {
		t.Fatalf("3999 distinct integers: %v", d)
	}
	bad := list(3999)
	bad[3500] = "x"
	if d := detailsOf(bad); len(d) != 1 || d[0].Path != "/list/3500" || d[0].Keyword != "type" {
		t.Errorf("one bad element at 3500: %v", d)
	}
	if d := detailsOf(list(4001)); len(d) != 1 || d[0].Path != "/list" || d[0].Keyword != "maxItems" {
		t.Errorf("4001 elements: %v", d)
	}
	dup := list(3999)
	dup[2500] = json.Number("10")
	if d := detailsOf(dup); len(d) != 1 || d[0].Path != "/list" || d[0].Keyword != "uniqueItems" {
		t.Errorf("a duplicate across windows: %v", d)
	}
	// Two long arrays: each is windowed in its turn, the other cut to its
	// first window meanwhile, and a bad element of either is still found.
	c2 := mustParse(t, testContract(`{
	  "x": {"type": "integer", "description": "x"},
	  "a": {"type": "array", "maxItems": 4000, "items": {"type": "integer"}, "description": "a"},
	  "b": {"type": "array", "maxItems": 4000, "items": {"type": "integer"}, "description": "b"}
	}`, `["x"]`))
	for _, badIn := range []string{"a", "b"} {
		args := map[string]any{"x": json.Number("1"), "a": list(3999), "b": list(3999)}
		args[badIn].([]any)[2500] = "z"
		var ve *ValidationError
		if err := c2.ValidateInput(args); !errors.As(err, &ve) || len(ve.Details) != 1 || ve.Details[0].Path != "/"+badIn+"/2500" {
			t.Errorf("a bad element at %s/2500 with two long arrays: %v", badIn, err)
		}
	}
	if err := c2.ValidateInput(map[string]any{"x": json.Number("1"), "a": list(3999), "b": list(3999)}); err != nil {
		t.Errorf("two valid long arrays: %v", err)
	}
	if windowable(map[string]any{"type": "array", "prefixItems": []any{}}) || windowable(map[string]any{"items": map[string]any{"$ref": "#/$defs/x"}}) {
		t.Error("prefixItems or $ref judged windowable")
	}
}
