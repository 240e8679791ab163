package contracts

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// agree compares the precheck of one schema with the library on v: a
// verdict other than unknown must be the library's. It reports the verdict.
func agree(t *testing.T, what string, p *precheck, c *Contract, input bool, v map[string]any) verdict {
	t.Helper()
	s := c.output
	if input {
		s = c.input
	}
	got := p.check(v)
	lib := s.Validate(any(v)) == nil
	if got != unknown && (got == valid) != lib {
		b, _ := json.Marshal(v)
		t.Errorf("%s: precheck says %v, jsonschema says valid=%v for %s", what, got == valid, lib, b)
	}
	return got
}

// checkBoth runs v through both prechecks of c (the input with its defaults
// applied) and reports their verdicts.
func checkBoth(t *testing.T, what string, c *Contract, v map[string]any) (in, out verdict) {
	t.Helper()
	return agree(t, what+" (input)", c.inCheck, c, true, c.ApplyDefaults(v)), agree(t, what+" (output)", c.outCheck, c, false, v)
}

// vectorObjects returns every distinct JSON object in the tool's vector
// files (tools/testdata/<tool> and tools/testdata/reference/<tool>), at any
// depth: arguments, facts and whatever else the files hold.
func vectorObjects(t *testing.T, tool string) []map[string]any {
	t.Helper()
	seen := map[string]bool{}
	var out []map[string]any
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			b, _ := json.Marshal(x)
			if !seen[string(b)] {
				seen[string(b)] = true
				out = append(out, x)
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, dir := range []string{"../tools/testdata/" + tool, "../tools/testdata/reference/" + tool} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Errorf("%s: %v", path, err)
				return nil
			}
			walk(v)
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	return out
}

// mutants are v changed in one place each: a member dropped, an unknown one
// added, each member replaced by values of every JSON type, including the
// numbers and strings around the usual limits.
func mutants(v map[string]any) []map[string]any {
	with := func(k string, e any) map[string]any {
		m := make(map[string]any, len(v)+1)
		for k2, e2 := range v {
			m[k2] = e2
		}
		if e == nil && k == "" {
			return m
		}
		m[k] = e
		return m
	}
	replacements := []any{nil, true, false, json.Number("0"), json.Number("-1"), json.Number("1"), json.Number("2.0"),
		json.Number("1.5"), json.Number("1e3"), json.Number("-1000000000000000001"), json.Number("1000000000000000001"),
		json.Number("99999999999999999999"), "", "x", "2026-01-01", strings.Repeat("a", 300), []any{}, []any{"x"},
		[]any{json.Number("1"), json.Number("1")}, map[string]any{}}
	out := []map[string]any{with("zz_unknown", "x")}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		dropped := with("", nil)
		delete(dropped, k)
		out = append(out, dropped)
		for _, r := range replacements {
			out = append(out, with(k, r))
		}
		if s, ok := v[k].(string); ok && s != "" {
			out = append(out, with(k, s[:len(s)-1]), with(k, s+"0"), with(k, strings.ToUpper(s)))
		}
		if arr, ok := v[k].([]any); ok && len(arr) > 0 {
			out = append(out, with(k, arr[:len(arr)-1]), with(k, append(append([]any{}, arr...), arr[0])))
		}
	}
	return out
}

// TestPrecheckAgreesWithJSONSchema: on every object in every tool's vector
// files, on the contract examples, and on mutants of the vectors each schema
// accepts, the precheck of each contract schema says what jsonschema/v6 says
// whenever it says anything; and it does say "valid" for every example's
// arguments and facts, so that the common call does not reach the library.
func TestPrecheckAgreesWithJSONSchema(t *testing.T) {
	total, decided := 0, 0
	for _, name := range Names() {
		c := MustLoad(name)
		if c.inCheck == nil || c.outCheck == nil {
			t.Errorf("%s: no precheck for its input or output schema", name)
			continue
		}
		for i, ex := range c.Examples {
			in, out := checkBoth(t, name+" example", c, ex.Args)
			if in != valid {
				t.Errorf("%s: example %d: the input precheck says %v, not valid", name, i, in)
			}
			if agree(t, name+" example facts", c.outCheck, c, false, ex.Facts) != valid {
				t.Errorf("%s: example %d: the output precheck does not find its facts valid", name, i)
			}
			_ = out
		}
		objs := vectorObjects(t, name)
		mutated := 0
		for _, v := range objs {
			in, out := checkBoth(t, name+" vector", c, v)
			total += 2
			decided += btoi(in != unknown) + btoi(out != unknown)
			if (in == valid || out == valid) && mutated < 20 {
				mutated++
				for _, m := range mutants(v) {
					in, out := checkBoth(t, name+" mutant", c, m)
					total += 2
					decided += btoi(in != unknown) + btoi(out != unknown)
				}
			}
		}
		if len(objs) == 0 {
			t.Errorf("%s: no vector objects found", name)
		}
	}
	t.Logf("%d checks, %d decided by the precheck", total, decided)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPrecheckKeywords: a schema with a keyword the precheck does not know
// has no precheck, at any depth, so that the library decides each of its
// instances; the ones it knows compile.
func TestPrecheckKeywords(t *testing.T) {
	for _, c := range []struct {
		schema string
		ok     bool
	}{
		{`{"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}}`, true},
		{`{"type": "object", "properties": {"a": {"type": "string", "format": "date"}}}`, false},
		{`{"type": "object", "patternProperties": {"^a": {"type": "string"}}}`, false},
		{`{"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}}`, false},
		{`{"type": "array", "items": [{"type": "string"}]}`, false},
		{`{"type": "array", "prefixItems": [{"type": "string"}]}`, false},
		{`{"anyOf": [{"type": "string"}, {"multipleOf": 2}]}`, false},
		{`{"type": "strange"}`, false},
		{`{"pattern": "("}`, false},
		{`{"if": {"const": 1}, "then": {"minimum": 1}, "else": false}`, true},
	} {
		dec := json.NewDecoder(strings.NewReader(c.schema))
		dec.UseNumber()
		var s any
		if err := dec.Decode(&s); err != nil {
			t.Fatal(err)
		}
		if got := compilePrecheck(s) != nil; got != c.ok {
			t.Errorf("%s: compiled %v, want %v", c.schema, got, c.ok)
		}
	}
}

// TestPrecheckUnknownValues: values of Go types a JSON decoder does not
// produce, and numbers that are not numbers, are left to the library.
func TestPrecheckUnknownValues(t *testing.T) {
	c := MustLoad("gcd_lcm")
	for _, v := range []map[string]any{
		{"a": 391, "b": json.Number("299")},
		{"a": float64(391), "b": json.Number("299")},
		{"a": json.Number("x"), "b": json.Number("299")},
	} {
		if got := c.inCheck.check(v); got != unknown {
			t.Errorf("%v: %v, want unknown", v, got)
		}
	}
}

// FuzzPrecheck: on any JSON object, every contract schema's precheck says
// what jsonschema/v6 says whenever it says anything.
func FuzzPrecheck(f *testing.F) {
	for _, name := range Names() {
		c := MustLoad(name)
		for _, ex := range c.Examples {
			for _, v := range []map[string]any{ex.Args, ex.Facts} {
				b, _ := json.Marshal(v)
				f.Add(b)
			}
		}
	}
	contracts := make([]*Contract, 0, len(Names()))
	for _, name := range Names() {
		contracts = append(contracts, MustLoad(name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, c := range contracts {
			checkBoth(t, c.Tool, c, obj)
		}
	})
}
