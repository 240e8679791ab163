package contracts

import (
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
