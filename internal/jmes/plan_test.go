package jmes

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestPlanDialectVectors runs the vectors that gen_vectors.py wrote with
// Python's jmespath and the reference substr.
func TestPlanDialectVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/plans/plan_dialect.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Given json.RawMessage `json:"given"`
		Cases []struct {
			Expression string          `json:"expression"`
			Result     json.RawMessage `json:"result"`
			Error      string          `json:"error"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 30 {
		t.Fatalf("only %d cases", len(doc.Cases))
	}
	given := parseExact(t, doc.Given)
	for _, c := range doc.Cases {
		q, err := Compile(c.Expression)
		if err != nil {
			t.Errorf("%q: compile: %v", c.Expression, err)
			continue
		}
		got, _, err := q.SearchIn(context.Background(), given, DefaultLimits, Plans)
		if c.Error != "" {
			var je *Error
			if !errors.As(err, &je) || je.Kind != c.Error {
				t.Errorf("%q: got (%v, %v), want error %s", c.Expression, got, err, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.Expression, err)
			continue
		}
		if g, w := canonicalOf(t, got), canonicalOf(t, parseExact(t, c.Result)); g != w {
			t.Errorf("%q: got %s, want %s", c.Expression, g, w)
		}
	}
}

// TestPlanFunctionsNotInStandard holds json_query's contract: a function
// the Plans dialect adds is unknown to the standard evaluator.
func TestPlanFunctionsNotInStandard(t *testing.T) {
	for _, name := range PlanFunctionNames() {
		if slices.Contains(FunctionNames(), name) {
			t.Errorf("%s is in the standard function set", name)
		}
		if KnownFunction(name, Standard) || !KnownFunction(name, Plans) {
			t.Errorf("KnownFunction(%s): want Plans only", name)
		}
		q, err := Compile(name + "('abc', `1`)")
		if err != nil {
			t.Fatal(err)
		}
		_, err = q.Search(context.Background(), nil, DefaultLimits)
		var je *Error
		if !errors.As(err, &je) || je.Kind != KindUnknownFunction {
			t.Errorf("Search %s(): got %v, want unknown-function", name, err)
		}
	}
}

func TestSubstrBudget(t *testing.T) {
	q, err := Compile("substr(@, `0`)")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = q.SearchIn(context.Background(), strings.Repeat("x", 5000), Limits{MaxWorkBytes: 1000}, Plans)
	var je *Error
	if !errors.As(err, &je) || je.Kind != KindLimit {
		t.Fatalf("got %v, want a limit error", err)
	}
}

func TestRefs(t *testing.T) {
	for _, c := range []struct {
		expr  string
		paths string
		funcs string
	}{
		{"steps.conv.facts.x", "steps.conv steps", ""},
		{"params.a", "params.a params", ""},
		{"substr(steps.c.facts.d, `0`, `10`)", "steps.c steps", "substr"},
		{"steps.m.facts.matches[*].match", "steps.m steps", ""},
		{"steps.m.facts.matches[?x == params.p].y", "steps.m steps", ""},
		{"steps.m.facts.matches[*].[@, params.p]", "steps.m steps", ""},
		{"[params.a, item.b]", "params.a params item.b item", ""},
		{"{d: item}", "item", ""},
		{"params.a | b.c", "params.a params", ""},
		{"map(&foo.bar, steps.s.facts.l)", "steps.s steps", "map"},
		{"$.steps.q", "steps.q steps", ""},
		{"steps.m.facts.l[?a == $.params.z]", "steps.m steps params.z params", ""},
		{"`1`", "", ""},
		{"foo[0].bar", "foo", ""},
	} {
		q, err := Compile(c.expr)
		if err != nil {
			t.Fatalf("%q: %v", c.expr, err)
		}
		paths, funcs := q.Refs(2)
		var ps []string
		for _, p := range paths {
			ps = append(ps, strings.Join(p, "."))
		}
		if got := strings.Join(ps, " "); got != c.paths {
			t.Errorf("%q: paths %q, want %q", c.expr, got, c.paths)
		}
		if got := strings.Join(funcs, " "); got != c.funcs {
			t.Errorf("%q: funcs %q, want %q", c.expr, got, c.funcs)
		}
	}
}
