package jmes

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/refusal/refusaltest"
)

const fuzzDoc = `{"a": {"b": [{"c": 1}, {"c": 2.5}, {"c": "x"}]}, "people": [{"name": "Ann", "age": 31}, {"name": "Bo", "age": 25}],
 "n": [3, 1.5, -2, 10], "s": ["pear", "apple"], "big": 123456789012345678901234567890, "o": {"k": [true, null]}}`

// FuzzExpression: any expression compiles or gives a syntax *Error; a compiled
// one evaluates to a JSON value or a typed *Error — never a panic or an
// untyped (internal) error — within its budget.
func FuzzExpression(f *testing.F) {
	for _, s := range []string{"a.b[0].c", "people[?age > `30`].name", "sort_by(people, &age)[-1]", "n[::-1] | [0]",
		"{x: a.b[*].c, y: length(s)}", "let $x = n in $x[0]", "$.a", "n[0] + n[1] * `2`", "a || b && !c",
		"map(&to_string(@), n)", "merge(o, `{\"z\": 1}`)", "`[1, {\"a\": 2.0}]`", "'raw\\'s'", "foo[?a==`\"x\"`]",
		"group_by(people, &name)", "pad_left('x', `5`, '-')", "zip(n, s)", "items(o)", "a.b[1:2].c", "sum(n) // `0`"} {
		f.Add(s)
	}
	doc, err := ParseInput(fuzzDoc)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		q, err := Compile(expr)
		if err != nil {
			var je *Error
			if !errors.As(err, &je) || je.Kind != KindSyntax {
				t.Fatalf("compile %q: untyped error %v", expr, err)
			}
			return
		}
		res, err := q.Search(context.Background(), doc, Limits{MaxSteps: 200000, MaxWorkBytes: 200000, MaxResultBytes: 100000})
		if refusaltest.Refused[*Error](t, err, expr) {
			return
		}
		g, err := ToGeneric(res)
		if err != nil {
			var je *Error
			if !errors.As(err, &je) {
				t.Fatalf("%q: ToGeneric: %v", expr, err)
			}
			return
		}
		if _, err := json.Marshal(g); err != nil {
			t.Fatalf("%q: result not JSON: %v", expr, err)
		}
	})
}

// FuzzInput: any json_str is parsed or refused with an *InputError; "@" gives
// the document back, and its re-encoding parses to the same value.
func FuzzInput(f *testing.F) {
	for _, s := range []string{fuzzDoc, `[1, 1.0, 1e2, -0, -0.0, 1E-7]`, `{"a":1,"a":2}`, `"\ud800"`, `[1,]`, `1e400`,
		`12345678901234567890123456789`, `{"\u00e9": ["x"]}`} {
		f.Add(s)
	}
	q, _ := Compile("@")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // json_str arrives as a JSON string: always valid UTF-8
		}
		doc, err := ParseInput(s)
		if refusaltest.Refused[*InputError](t, err, s) {
			return
		}
		res, err := q.Search(context.Background(), doc, DefaultLimits)
		if err != nil {
			t.Fatalf("identity failed: %v", err)
		}
		g, err := ToGeneric(res)
		if err != nil {
			return // a float beyond the double range: a typed refusal
		}
		b, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		doc2, err := ParseInput(string(b))
		if err != nil {
			t.Fatalf("re-encoded %s does not parse: %v", b, err)
		}
		if !equal(doc, doc2) {
			t.Fatalf("round trip changed the value: %q -> %s", s, b)
		}
	})
}

// FuzzPlanDialect: in the Plans dialect, any compiled expression evaluates
// to a value or a typed *Error within its budget, and Refs lists non-empty
// root paths of at most the depth asked, without a panic.
func FuzzPlanDialect(f *testing.F) {
	for _, s := range []string{"substr(s[0], `1`, `2`)", "substr(@, `0`)", "a.b[?c == $.d].e", "steps.x.facts.y[*].z",
		"{d: substr(to_string(n[0]), `0`, `10`)}", "map(&substr(@, `1`), s)", "let $x = a in $x.b"} {
		f.Add(s)
	}
	doc, err := ParseInput(fuzzDoc)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		q, err := Compile(expr)
		if err != nil {
			return
		}
		paths, _ := q.Refs(2)
		for _, p := range paths {
			if len(p) == 0 || len(p) > 2 {
				t.Fatalf("%q: path %v", expr, p)
			}
		}
		res, _, err := q.SearchIn(context.Background(), doc, Limits{MaxSteps: 200000, MaxWorkBytes: 200000, MaxResultBytes: 100000}, Plans)
		if refusaltest.Refused[*Error](t, err, expr) {
			return
		}
		if _, err := ToGeneric(res); err != nil {
			var je *Error
			if !errors.As(err, &je) {
				t.Fatalf("%q: ToGeneric: %v", expr, err)
			}
		}
	})
}
