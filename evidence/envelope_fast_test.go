package evidence

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/precisiond/precisiond/contracts"
)

// TestBuildBytesMatchGeneric checks the hand-written canonical paths of Build
// (result hash) and Envelope.AppendCanonical against the generic ones they
// replace, on values that exercise every canonical rule: key order, escapes,
// non-ASCII, floats, big and non-normal integers, null, as_of, redaction,
// warnings.
func TestBuildBytesMatchGeneric(t *testing.T) {
	huge, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	cases := []struct {
		tool     string
		input    map[string]any
		facts    map[string]any
		warnings []Warning
	}{
		{"gcd_lcm", map[string]any{"a": json.Number("391"), "b": json.Number("-0"), "operation": "both"},
			map[string]any{"a": json.Number("0391"), "b": json.Number("+7"), "operation": "both", "gcd": huge, "lcm": int64(5083)}, nil},
		{"structured_validate", map[string]any{"format_name": "json", "payload": "{\"ä\":\"\u2028<&>\"}", "schema_json": nil},
			map[string]any{"z": []any{Float(100), Float(1e-5), json.Number("1.50"), json.Number("1E400")[:4], nil, true, false},
				"ä": "tab\there \"q\" \\ \x01 \u007f", "as_of": "2026-07-29T12:00:00+00:00", "a": map[string]any{"é": 1, "e": 2}},
			[]Warning{{Code: "rounded", Message: "ünïcode \"quoted\"\n"}, {Code: "x", Message: ""}}},
	}
	for _, c := range cases {
		con := contracts.MustLoad(c.tool)
		env, err := Build(con, "abc\"def", c.input, c.facts, c.warnings)
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		want, err := ResultHash("abc\"def", Redact(con, c.input), c.facts)
		if err != nil {
			t.Fatal(err)
		}
		if env.ResultHash != want {
			t.Errorf("%s: result_hash %s, generic path %s", c.tool, env.ResultHash, want)
		}
		got, err := env.AppendCanonical(nil)
		if err != nil {
			t.Fatal(err)
		}
		wantBytes, err := Canonical(env.Generic())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, wantBytes) {
			t.Errorf("%s: AppendCanonical\n got %s\nwant %s", c.tool, got, wantBytes)
		}
		// Without the cached bytes (an envelope made by hand) the result is the same.
		bare := *env
		bare.inputJSON, bare.factsJSON = nil, nil
		if got2, err := bare.AppendCanonical(nil); err != nil || !bytes.Equal(got2, wantBytes) {
			t.Errorf("%s: uncached AppendCanonical differs (%v)\n got %s\nwant %s", c.tool, err, got2, wantBytes)
		}
	}
}

// TestNormalIntegerFastPath compares the copy-through path for integer
// literals with the big.Int normalisation it skips.
func TestNormalIntegerFastPath(t *testing.T) {
	for _, n := range []string{"0", "-0", "7", "-7", "007", "-007", "+5", "10", "-10",
		"123456789012345678901234567890", "1-2", "", "-", "00"} {
		got, gotErr := appendNumber(nil, n)
		var z big.Int
		_, ok := z.SetString(n, 10)
		if !ok {
			if gotErr == nil {
				t.Errorf("%q: accepted as %s, big.Int refuses it", n, got)
			}
			continue
		}
		if gotErr != nil || string(got) != z.String() {
			t.Errorf("%q: got %q (%v), want %q", n, got, gotErr, z.String())
		}
	}
}
