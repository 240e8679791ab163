package intent

import (
	"strings"
	"testing"
)

// TestLoneLiterals checks the fallback of an alternation whose branches'
// exact strings are too many to join: each branch is then represented by a
// literal it contains on its own. "alpha [a-e][f-h]" has 15 exact strings, two
// such branches 30, more than a clause may hold; "ALPHA " and "BETA " are
// what remains required. On the rule set it checks that the German weekday
// phrasing, whose clause was lost that way, is no longer tried on an
// English weekday question, and still is on a German one.
func TestLoneLiterals(t *testing.T) {
	src := `(?i)^(?:alpha [a-e][f-h]|beta [a-e][f-h])$`
	if got, want := fmtClauses(requiredLits(src)), `[["ALPHA " "BETA "]]`; got != want {
		t.Errorf("requiredLits(%s) = %s, want %s", src, got, want)
	}
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, ts := range r.tools {
		for _, p := range ts.patterns {
			if !strings.HasSuffix(p.id, "weekday-de") || strings.Contains(p.id, "after") {
				continue
			}
			found++
			if len(p.lits) == 0 {
				t.Errorf("%s %s has no literal clause", ts.name, p.id)
				continue
			}
			for text, want := range map[string]bool{
				"Which weekday was 2026-07-29?":         false,
				"Welcher Wochentag war der 29.07.2026?": true,
				"Wochentag für 2026-07-29":              true,
			} {
				if got := mayMatch(p.lits, foldKey(nil, text)); got != want {
					t.Errorf("%s %s: mayMatch(%q) = %v, want %v", ts.name, p.id, text, got, want)
				}
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d German weekday phrasings, want 2 (calendar_facts, day_of_week)", found)
	}
}
