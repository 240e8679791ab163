package evidence

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// parseSeeds are documents of every shape parseGeneric meets, and the edge
// cases where it must leave the document to encoding/json.
var parseSeeds = []string{
	`{"a":391,"b":299}`,
	` {"tool":"gcd_lcm","args":{"a":391,"b":299,"operation":"both"}} `,
	`{"x":[1,2.5,-0,-0.0,1e3,1E-3,2.50e+10,true,false,null,"s"],"y":{},"z":[]}`,
	`{"esc":"a\"b\\c\/d\be\ff\ng\rh\ti\u0041\u00e9\u20ac\ud83d\ude00"}`,
	`{"utf8":"héllo wörld €😀","k\u0065y":1}`,
	`{"dup":1,"dup":2}`,
	`"just a string"`, `12345678901234567890123456789`, `true`, `null`, `[]`, `{}`,
	// Left to encoding/json (ok must be false, or equal to it):
	`{"lone":"\ud800"}`, `{"lone":"\udc00x"}`, `{"pair":"\ud800\u0041"}`,
	"{\"bad\":\"\xff\"}", "{\"ctl\":\"\x01\"}", `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`,
	`{"a":1e}`, `{"a":+1}`, `{"a":tru}`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{a:1}`, `{"a":1}}`,
	`{"a":1} x`, `{"a":1} {}`, ``, `   `, `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"unterminated`,
	"\ufeff{}", `[` + strings.Repeat(`[`, 1100) + strings.Repeat(`]`, 1101),
}

// TestParseGenericAgreesWithEncodingJSON: on every seed parseGeneric either
// declines or gives exactly encoding/json's value, and it takes the ordinary
// documents itself (the point of having it).
func TestParseGenericAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range parseSeeds {
		checkParseGeneric(t, []byte(s))
	}
	for _, s := range parseSeeds[:12] {
		if _, ok := parseGeneric([]byte(s)); !ok {
			t.Errorf("parseGeneric declined the ordinary document %q", s)
		}
	}
	for _, s := range parseSeeds[12:] {
		if _, ok := parseGeneric([]byte(s)); ok {
			t.Errorf("parseGeneric took %q, which it must leave to encoding/json", s)
		}
	}
}

func checkParseGeneric(t *testing.T, data []byte) {
	t.Helper()
	fast, ok := parseGeneric(data)
	slow, err := decodeGenericStd(data)
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("parseGeneric accepted %q, encoding/json refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("parseGeneric(%q) = %#v, encoding/json gives %#v", data, fast, slow)
	}
	// decodeGeneric (what callers use) gives the same value either way.
	if v, err := decodeGeneric(data); err != nil || !reflect.DeepEqual(v, slow) {
		t.Fatalf("decodeGeneric(%q) = %#v, %v", data, v, err)
	}
}

// FuzzParseGeneric compares parseGeneric with encoding/json on arbitrary bytes.
func FuzzParseGeneric(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParseGeneric(t, data)
	})
}

// TestToGenericKeepsNumbers: facts converted by ToGeneric keep integers exact
// and floats as their encoding/json text.
func TestToGenericKeepsNumbers(t *testing.T) {
	type facts struct {
		N *json.Number `json:"n"`
		F float64      `json:"f"`
		S []string     `json:"s"`
		E []int        `json:"e"`
	}
	n := json.Number("123456789012345678901234567890")
	v, err := ToGeneric(facts{N: &n, F: 0.1, S: []string{"<&>"}, E: []int{}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"n": n, "f": json.Number("0.1"), "s": []any{"<&>"}, "e": []any{}}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("ToGeneric = %#v, want %#v", v, want)
	}
}
