package intent

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestArgCheck compares the argCheck of each tool with the JSON-Schema
// library (contracts.ValidateInput, the authority) on the arguments of every
// pattern that matches a corpus, reference or example text, and on those
// arguments altered (a required argument dropped, an unknown one added, each
// value replaced by values of other types, out of range, too long, not in an
// enum). Wherever argCheck says valid, the library must accept; argCheck
// must also decide most real intents, or it saves nothing.
func TestArgCheck(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	texts := corpusTexts(t, r)
	seen := map[string]bool{}
	checked, shownBy := map[string]int{}, map[string]int{}
	real, realShown, realValid, altered, alteredShown, alteredRefused := 0, 0, 0, 0, 0, 0
	compare := func(ts *toolSet, args map[string]any) (shown, ok bool) {
		shown = ts.check.valid(args)
		ok = ts.contract.ValidateInput(args) == nil
		if shown && !ok {
			b, _ := json.Marshal(args)
			t.Errorf("%s: argCheck accepts %s, the schema does not", ts.name, b)
		}
		return shown, ok
	}
	for _, text := range texts {
		norm := collapse(text)
		for _, ts := range r.tools {
			for _, p := range ts.patterns {
				s := norm
				if p.raw {
					s = text
				}
				m := p.re.FindStringSubmatchIndex(s)
				if m == nil {
					continue
				}
				args, _ := r.arguments(ts, candidate{p: p, m: m, text: s})
				if args == nil {
					continue
				}
				b, _ := json.Marshal(args)
				if key := ts.name + string(b); seen[key] {
					continue
				} else {
					seen[key] = true
				}
				real++
				shown, ok := compare(ts, args)
				if shown {
					realShown++
					shownBy[ts.name]++
				}
				if ok {
					realValid++
					if ts.check != nil {
						checked[ts.name]++
					}
				}
				for _, alt := range alterations(ts.contract, args) {
					altered++
					shown, ok := compare(ts, alt)
					if shown {
						alteredShown++
					}
					if !ok {
						alteredRefused++
					}
				}
			}
		}
	}
	t.Logf("%d distinct argument sets of matching patterns: %d valid, %d shown valid by argCheck; %d altered: %d refused by the schema, %d shown valid",
		real, realValid, realShown, altered, alteredRefused, alteredShown)
	for name, n := range checked {
		if shownBy[name]*10 < n*9 {
			t.Errorf("%s: argCheck shows %d of %d valid argument sets valid", name, shownBy[name], n)
		}
	}
	if alteredRefused == 0 || alteredShown == 0 || real < 300 {
		t.Errorf("the comparison needs refused and accepted alterations and the corpus (%d, %d, %d)", alteredRefused, alteredShown, real)
	}
	for _, name := range []string{"gcd_lcm", "calendar_facts", "unit_convert", "day_of_week"} {
		if r.byName[name].check == nil {
			t.Errorf("%s has no argCheck", name)
		}
	}
}

// TestArgCheckKeywords checks argCheck's keywords one by one against the
// library on small schemas of their own.
func TestArgCheckKeywords(t *testing.T) {
	schema := `{"type":"object","additionalProperties":false,"required":["n"],"properties":{
	  "n":{"type":"integer","minimum":-5,"maximum":1000000000000000000,"description":"n"},
	  "x":{"type":"number","minimum":0.5,"maximum":2,"description":"x"},
	  "s":{"type":"string","minLength":2,"maxLength":3,"pattern":"^[a-zß]+$","description":"s"},
	  "e":{"type":"string","enum":["a","b",1],"description":"e"},
	  "c":{"const":"k","description":"c"},
	  "l":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"integer"},"description":"l"},
	  "o":{"type":"object","additionalProperties":{"type":"string"},"description":"o"},
	  "any":{"description":"any"},
	  "v":{"type":["integer","string"],"maxLength":3,"minimum":1,"enum":[1,2,"ab","abcd"],"description":"v"},
	  "b":{"type":["boolean","null"],"description":"b"}}}`
	// Compiled as contracts compiles an input schema (draft 2020-12).
	dec := json.NewDecoder(strings.NewReader(schema))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	if err := comp.AddResource("mem://probe.json", doc); err != nil {
		t.Fatal(err)
	}
	lib, err := comp.Compile("mem://probe.json")
	if err != nil {
		t.Fatal(err)
	}
	check := compileArgCheck(doc)
	if check == nil {
		t.Fatal("no argCheck")
	}
	n := func(s string) json.Number { return json.Number(s) }
	cases := []map[string]any{
		{"n": n("3")}, {"n": n("-5")}, {"n": n("-6")}, {"n": n("1000000000000000000")}, {"n": n("1000000000000000001")},
		{"n": n("99999999999999999999")}, {"n": n("3.0")}, {"n": n("3.5")}, {"n": "3"}, {},
		{"n": n("1"), "x": n("0.5")}, {"n": n("1"), "x": n("0.4999")}, {"n": n("1"), "x": n("2")}, {"n": n("1"), "x": n("2.0001")},
		{"n": n("1"), "x": n("1")}, {"n": n("1"), "s": "ab"}, {"n": n("1"), "s": "a"}, {"n": n("1"), "s": "abcd"},
		{"n": n("1"), "s": "aßß"}, {"n": n("1"), "s": "AB"}, {"n": n("1"), "e": "a"}, {"n": n("1"), "e": "c"},
		{"n": n("1"), "e": n("1")}, {"n": n("1"), "c": "k"}, {"n": n("1"), "c": "K"}, {"n": n("1"), "l": []any{n("1")}},
		{"n": n("1"), "l": []any{}}, {"n": n("1"), "l": []any{n("1"), n("2"), n("3")}}, {"n": n("1"), "l": []any{"1"}},
		{"n": n("1"), "o": map[string]any{"k": "v"}}, {"n": n("1"), "o": map[string]any{"k": n("1")}},
		{"n": n("1"), "any": []any{nil}}, {"n": n("1"), "b": true}, {"n": n("1"), "b": nil}, {"n": n("1"), "b": "true"},
		{"n": n("1"), "zz": "unknown"}, {"n": n("1"), "v": n("1")}, {"n": n("1"), "v": n("0")}, {"n": n("1"), "v": n("1.0")},
		{"n": n("1"), "v": "ab"}, {"n": n("1"), "v": "abcd"}, {"n": n("1"), "v": "a"}, {"n": n("1"), "v": n("3")},
		{"n": n("1"), "e": n("1.0")}, {"n": n("1"), "o": []any{}}, {"n": n("1"), "l": map[string]any{}},
	}
	shown := 0
	for _, args := range cases {
		got, want := check.valid(args), lib.Validate(any(args)) == nil
		if got && !want {
			t.Errorf("argCheck accepts %v, the schema does not", args)
		}
		if got {
			shown++
		}
	}
	if shown < 10 {
		t.Errorf("argCheck shows only %d cases valid", shown)
	}
	for _, bad := range []string{`{"allOf":[]}`, `{"type":"string","format":"date"}`, `{"type":"array","uniqueItems":true}`,
		`{"properties":{"a":{"$ref":"#"}}}`, `{"minimum":"1"}`} {
		var s any
		if err := json.Unmarshal([]byte(bad), &s); err != nil {
			t.Fatal(err)
		}
		if compileArgCheck(s) != nil {
			t.Errorf("argCheck compiled %s, which has a keyword it does not know", bad)
		}
	}
}

// alterations returns copies of args, each changed in one place.
func alterations(c *contracts.Contract, args map[string]any) []map[string]any {
	var out []map[string]any
	type absent struct{}
	with := func(name string, v any) {
		m := maps.Clone(args)
		if v == (absent{}) {
			delete(m, name)
		} else {
			m[name] = v
		}
		out = append(out, m)
	}
	with("no_such_argument", "x")
	props, _ := c.InputSchema["properties"].(map[string]any)
	names := slices.Sorted(maps.Keys(props))
	replacements := []any{"x", "", strings.Repeat("y", 5000), json.Number("0"), json.Number("-1"), json.Number("1.5"),
		json.Number("1e3"), json.Number("99999999999999999999999"), json.Number("-99999999999999999999999"),
		json.Number("0.000001"), true, []any{}, []any{json.Number("1"), "a"}, map[string]any{}, "2026-02-31", "zz"}
	for _, name := range names {
		with(name, absent{})
		with(name, nil)
		for _, v := range replacements {
			with(name, v)
		}
		if v, ok := args[name].(string); ok {
			with(name, strings.ToUpper(v))
			with(name, v+"x")
		}
		if list, ok := args[name].([]any); ok && len(list) > 0 {
			with(name, append(slices.Clone(list), list...))
			with(name, list[:len(list)-1])
		}
	}
	return out
}
