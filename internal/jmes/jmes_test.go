package jmes

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func eval(t *testing.T, doc, expr string, lim Limits) (string, error) {
	t.Helper()
	q, err := Compile(expr)
	if err != nil {
		return "", err
	}
	d, err := ParseInput(doc)
	if err != nil {
		return "", err
	}
	res, err := q.Search(context.Background(), d, lim)
	if err != nil {
		return "", err
	}
	if _, err := ToGeneric(res); err != nil {
		return "", err
	}
	var b strings.Builder
	writeJSON(&b, res) // keeps key order, unlike the facts' canonical form
	return b.String(), nil
}

// TestPythonSemantics pins answers of Python's jmespath 1.1.0 on json.loads
// output (each checked with python3 -c 'import jmespath, json; ...').
func TestPythonSemantics(t *testing.T) {
	for _, tc := range []struct{ doc, expr, want string }{
		{`{"b": 1, "a": 2, "c": 3}`, `keys(@)`, `["b","a","c"]`},
		{`{"b": 1, "a": 2}`, `*`, `[1,2]`},
		{`{"a": 1, "a": 2, "b": 3}`, `keys(@)`, `["a","b"]`},
		{`{"a": 1, "a": 2}`, `a`, `2`},
		{`{"big": 123456789012345678901234567890}`, `big`, `123456789012345678901234567890`},
		{`[1.10, 1E2, 1e-5, 1e16, -0.0]`, `@`, `[1.1,100.0,1e-05,1e+16,-0.0]`},
		{`[1, 2.5, 3]`, `sum(@)`, `6.5`},
		{`[1, 2, 3]`, `sum(@)`, `6`},
		{`[1, 2]`, `avg(@)`, `1.5`},
		{`[2, 2]`, `avg(@)`, `2.0`},
		{`[]`, `sum(@)`, `0`},
		{`1.5`, `ceil(@)`, `2`},
		{`-1.5`, `floor(@)`, `-2`},
		{`-3`, `abs(@)`, `3`},
		{`{"b": [1, 2.0], "a": "é"}`, `to_string(@)`, `"{\"b\":[1,2.0],\"a\":\"\\u00e9\"}"`},
		{`{}`, `[to_number('42'), to_number('4.20'), to_number('1e3'), to_number('x')]`, `[42,4.2,1000.0,null]`},
		{`[1, 1.0]`, "[@[0] == @[1], `1` == `1.0`, `true` == `1`]", `[true,true,false]`},
		{`{}`, "[`1`, `1.0`, `2.50`]", `[1,1.0,2.5]`},
		{`{"a": "x"}`, `'a' < 'b'`, `true`},
		{`{"a": "x"}`, "a < `1`", `null`},
		{`"abc"`, `@[0:2]`, `null`},
		{`{"a": {"b": [{"c": 1}, {"c": 2}]}}`, `a.b[0].c`, `1`},
		{`[{"n": "x", "v": 2}, {"n": "y", "v": 1}]`, `sort_by(@, &v)[*].n`, `["y","x"]`},
		{`[{"v": 2}, {"v": 2}]`, `max_by(@, &v)`, `{"v":2}`},
		{`{"x": 1}`, "merge(@, `{\"a\": 2, \"x\": 3}`)", `{"x":3,"a":2}`},
		{`null`, "`-7` // `2`", `-4`},
		{`null`, "`-7` % `3`", `2`},
		{`null`, "`1` / `2`", `0.5`},
		{`[1, 2, 3]`, `let $x = @[0] in [$x, $[1]]`, `[1,2]`},
	} {
		got, err := eval(t, tc.doc, tc.expr, DefaultLimits)
		if err != nil || got != tc.want {
			t.Errorf("%s on %s: got %s (%v), want %s", tc.expr, tc.doc, got, err, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ doc, expr, kind string }{
		{`[1]`, `a.`, KindSyntax},
		{`[1]`, `a = b`, KindSyntax},
		{`[1]`, `let $x in $x`, KindSyntax},
		{`[1]`, "`{\"a\"`", KindSyntax},
		{`[1]`, `length(@, @)`, KindInvalidArity},
		{`[1]`, `abs('x')`, KindInvalidType},
		{`[1]`, `nope(@)`, KindUnknownFunction},
		{`[1]`, `@[::0]`, KindInvalidValue},
		{`[1]`, `$undefined`, KindUndefinedVariable},
		{`[{"a": 1}, {"a": "x"}]`, `sort_by(@, &a)`, KindInvalidType},
		{`1`, "@ / `0`", KindInvalidValue},
		{`[1]`, strings.Repeat("a.", 2100) + "a", KindSyntax},
	} {
		_, err := eval(t, tc.doc, tc.expr, DefaultLimits)
		var je *Error
		if !errors.As(err, &je) || je.Kind != tc.kind {
			t.Errorf("%.40s: got %v, want %s", tc.expr, err, tc.kind)
		}
	}
	for _, tc := range []struct{ doc, reason string }{
		{`[1,`, "invalid_json"},
		{strings.Repeat("[", 600) + strings.Repeat("]", 600), "json_too_deep"},
		{"[" + strings.Repeat("9", 4301) + "]", "integer_too_long"},
		{`NaN`, "invalid_json"},
	} {
		_, err := ParseInput(tc.doc)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Reason != tc.reason {
			t.Errorf("%.20s: got %v, want %s", tc.doc, err, tc.reason)
		}
	}
}

// TestBudget: an expression whose result doubles at every step stops at the
// budget with KindLimit instead of eating memory; a cancelled context ends a
// long evaluation with its error.
func TestBudget(t *testing.T) {
	blowup := "@" + strings.Repeat(" | [@, @]", 40)
	_, err := eval(t, `[1,2,3]`, blowup, DefaultLimits)
	var je *Error
	if !errors.As(err, &je) || je.Kind != KindLimit {
		t.Fatalf("blow-up: got %v, want limit", err)
	}
	q, _ := Compile("[*].[@, @, @] | [] | [*].[@, @] | []")
	d, _ := ParseInput(zeroThenOnes(50000))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.Search(ctx, d, DefaultLimits); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v", err)
	}
}

// zeroThenOnes returns the JSON array [0,1,1,...] of n >= 1 numbers.
func zeroThenOnes(n int) string { return "[0" + strings.Repeat(",1", n-1) + "]" }

func TestFormatFloat(t *testing.T) {
	for f, want := range map[float64]string{100: "100.0", 1e-4: "0.0001", 1e-5: "1e-05", 1e16: "1e+16",
		123456789012345.6: "123456789012345.6", 1.5e300: "1.5e+300", 0.1: "0.1", -2.5e-7: "-2.5e-07", 5e-324: "5e-324"} {
		if got := FormatFloat(f); got != want {
			t.Errorf("FormatFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestToGenericKeepsNumbers(t *testing.T) {
	d, _ := ParseInput(`{"i": 10, "f": 10.0, "z": -0}`)
	g, err := ToGeneric(d)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(g)
	if string(b) != `{"f":10.0,"i":10,"z":0}` {
		t.Errorf("got %s", b)
	}
}

// TestFunctionWork: repeated sorts of a large array are charged n log n each
// and stop at the step budget instead of running for seconds.
func TestFunctionWork(t *testing.T) {
	d, err := ParseInput(zeroThenOnes(200000))
	if err != nil {
		t.Fatal(err)
	}
	expr := "[" + strings.TrimSuffix(strings.Repeat("length(sort(@)),", 50), ",") + "]"
	q, err := Compile(expr)
	if err != nil {
		t.Fatal(err)
	}
	_, err = q.Search(context.Background(), d, DefaultLimits)
	var je *Error
	if !errors.As(err, &je) || je.Kind != KindLimit {
		t.Fatalf("got %v, want limit", err)
	}
	// One sort of the same array is within the budget.
	q1, _ := Compile("length(sort(@))")
	if _, err := q1.Search(context.Background(), d, DefaultLimits); err != nil {
		t.Fatalf("single sort: %v", err)
	}
}
