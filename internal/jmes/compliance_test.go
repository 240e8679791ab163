package jmes

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/precisiond/precisiond/internal/structured"
)

// complianceDir is the JMESPath compliance suite (jmespath/jmespath.test),
// copied into testdata with its SOURCE and LICENSE.
const complianceDir = "testdata/compliance"

type complianceGroup struct {
	Given json.RawMessage `json:"given"`
	Cases []struct {
		Expression string          `json:"expression"`
		Result     json.RawMessage `json:"result"`
		Error      string          `json:"error"`
		Bench      string          `json:"bench"`
	} `json:"cases"`
}

// canonicalOf renders a value with sorted keys, keeping int and float apart.
func canonicalOf(t *testing.T, v any) string {
	t.Helper()
	g, err := ToGeneric(v)
	if err != nil {
		t.Fatalf("ToGeneric: %v", err)
	}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

func parseExact(t *testing.T, raw []byte) any {
	t.Helper()
	v, _, f := structured.ParseJSON(string(raw), structured.JSONOptions{Build: true})
	if f != nil {
		t.Fatalf("bad JSON in suite: %v", f.Message)
	}
	return v
}

func TestCompliance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(complianceDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("compliance suite not found in %s: %v", complianceDir, err)
	}
	total := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var groups []complianceGroup
		if err := json.Unmarshal(raw, &groups); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for gi, g := range groups {
			given := parseExact(t, g.Given)
			for ci, c := range g.Cases {
				total++
				name := filepath.Base(file) + "/" + itoa(gi) + "/" + itoa(ci)
				q, err := Compile(c.Expression)
				if c.Error == KindSyntax {
					if err == nil {
						t.Errorf("%s %q: compiled, want syntax error", name, c.Expression)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s %q: compile: %v", name, c.Expression, err)
					continue
				}
				got, err := q.Search(context.Background(), given, DefaultLimits)
				if c.Error != "" {
					var je *Error
					if !errors.As(err, &je) || je.Kind != c.Error {
						t.Errorf("%s %q: got (%v, %v), want error %s", name, c.Expression, got, err, c.Error)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s %q: error %v", name, c.Expression, err)
					continue
				}
				if c.Bench != "" && c.Result == nil {
					continue
				}
				want := parseExact(t, c.Result)
				if g, w := canonicalOf(t, got), canonicalOf(t, want); g != w {
					t.Errorf("%s %q: got %s, want %s", name, c.Expression, g, w)
				}
			}
		}
	}
	if total < 900 {
		t.Errorf("only %d compliance cases found", total)
	}
	t.Logf("%d compliance cases", total)
}

func itoa(i int) string {
	return json.Number(string(rune('0'+i/100%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))).String()
}
