package contracts

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEveryContractHasSummaryAndGroup: every embedded contract carries a
// one-line summary of at most MaxSummaryChars characters and a group of
// groups.json, and every group holds at least one tool.
func TestEveryContractHasSummaryAndGroup(t *testing.T) {
	used := map[string]bool{}
	for _, name := range Names() {
		c := MustLoad(name)
		if c.Summary == "" || c.Group == "" {
			t.Errorf("%s: summary %q, group %q: both are required in an embedded contract", name, c.Summary, c.Group)
		}
		used[c.Group] = true
	}
	for _, g := range Groups() {
		if !used[g.Name] {
			t.Errorf("group %s has no tool", g.Name)
		}
		if g.Summary == "" || len(g.Summary) > MaxSummaryChars {
			t.Errorf("group %s: summary %q", g.Name, g.Summary)
		}
	}
}

// TestSummaryChecks: a summary over the limit, one with a line break and an
// unknown group are refused by Parse; the fields are optional.
func TestSummaryChecks(t *testing.T) {
	base := testContract(`{"x": {"type": "integer", "description": "x"}}`, `["x"]`)
	with := func(fields string) string { return strings.Replace(base, `"title":`, fields+`, "title":`, 1) }
	for name, tc := range map[string]struct {
		doc  string
		want string
	}{
		"none":          {base, ""},
		"ok":            {with(`"summary": "One line.", "group": "numbers"`), ""},
		"100 chars":     {with(`"summary": "` + strings.Repeat("é", 100) + `"`), ""},
		"101 chars":     {with(`"summary": "` + strings.Repeat("é", 101) + `"`), "at most 100 characters"},
		"line break":    {with(`"summary": "two\nlines"`), "one line"},
		"unknown group": {with(`"group": "misc"`), `group "misc"`},
	} {
		_, err := Parse([]byte(tc.doc))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", name, err, tc.want)
		}
	}
}

// TestCopyJSON: the copy shares no map or slice with the original (changing
// it leaves the original as it was), and leaf rewrites every leaf, nested or
// not, while DeepCopy keeps them.
func TestCopyJSON(t *testing.T) {
	orig := map[string]any{"a": []any{json.Number("1"), map[string]any{"b": "x"}}, "c": nil, "d": true}
	want := `{"a":[1,{"b":"x"}],"c":null,"d":true}`
	cp := DeepCopy(orig).(map[string]any)
	cp["a"].([]any)[1].(map[string]any)["b"] = "changed"
	cp["a"].([]any)[0] = json.Number("2")
	cp["e"] = 1
	if got, _ := json.Marshal(orig); string(got) != want {
		t.Fatalf("original changed through the copy: %s", got)
	}
	tagged := CopyJSON(orig, func(leaf any) any { return []any{"leaf", leaf} })
	if got, _ := json.Marshal(tagged); string(got) != `{"a":[["leaf",1],{"b":["leaf","x"]}],"c":["leaf",null],"d":["leaf",true]}` {
		t.Fatalf("leaves: %s", got)
	}
}
