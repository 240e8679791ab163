package structured

import (
	"context"
	"testing"

	"github.com/precisiond/precisiond/internal/vectors"
)

// pyyamlCase is one case of testdata/yaml_pyyaml.json: PyYAML's verdict on
// Src as the reference reaches it (testdata/gen_yaml_pyyaml.py).
type pyyamlCase struct {
	Src     string `json:"src"`
	Finding        // PyYAML's error; Code "" when it reads the document
	// The details of a valid document: the depth and node count of what
	// yaml.safe_load built, as the reference counts them.
	Depth *int `json:"depth"`
	Nodes *int `json:"nodes"`
}

// verdict is a Result's code as the differential compares it.
func verdict(res Result) string {
	if res.Valid {
		return "valid"
	}
	return res.Errors[0].Code
}

// TestYAMLAgreesWithPyYAML holds the YAML reader to PyYAML's verdict, as
// the reference applies it, on every case of testdata/yaml_pyyaml.json
// (whole realistic documents, one-character insertions into small ones, and
// seeded random ones): the same validity and code everywhere, for a
// yaml_parse_error PyYAML's message, line and column, and for a valid
// document the depth and node count of the value safe_load built (so merge
// keys and duplicate keys collapse as in Python).
func TestYAMLAgreesWithPyYAML(t *testing.T) {
	cases := vectors.Cases[pyyamlCase](t, "testdata/yaml_pyyaml.json", 8600)
	for _, c := range cases {
		res, err := Validate(context.Background(), Request{Format: "yaml", Payload: c.Src}, DefaultLimits)
		if err != nil {
			t.Errorf("%q: %v", c.Src, err)
			continue
		}
		want, got := "valid", verdict(res)
		if c.Code != "" {
			want = c.Code
		}
		if got != want {
			t.Errorf("%q: %s %+v, PyYAML says %s (%q at %d:%d)", c.Src, got, res.Errors, want, c.Message, deref(c.Line), deref(c.Column))
			continue
		}
		if want == "valid" {
			d := res.Details
			if c.Depth == nil || c.Nodes == nil || d.Depth == nil || d.Nodes == nil || *d.Depth != *c.Depth || *d.Nodes != *c.Nodes {
				t.Errorf("%q: depth %d, nodes %d; PyYAML's value: %d, %d", c.Src, deref(d.Depth), deref(d.Nodes), deref(c.Depth), deref(c.Nodes))
			}
			continue
		}
		if want != CodeYAMLParse {
			continue
		}
		f := res.Errors[0]
		if f.Message != c.Message || deref(f.Line) != deref(c.Line) || deref(f.Column) != deref(c.Column) {
			t.Errorf("%q: %q at %d:%d, PyYAML %q at %d:%d", c.Src, f.Message, deref(f.Line), deref(f.Column), c.Message, deref(c.Line), deref(c.Column))
		}
	}
}

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// TestYAMLTabInDoubleQuotes: a tab in a double-quoted scalar inside a flow
// collection is text, a tab in the value: as a key it equals the escape
// "\t" (PyYAML loads {"x<TAB>y": 1, "x\ty": 2} as {'x\ty': 2}, one key) and
// differs from a space and from private-use characters.
func TestYAMLTabInDoubleQuotes(t *testing.T) {
	shape := func(payload string) [2]int {
		t.Helper()
		res, err := Validate(context.Background(), Request{Format: "yaml", Payload: payload}, DefaultLimits)
		if err != nil || !res.Valid || res.Details.Depth == nil || res.Details.Nodes == nil {
			t.Fatalf("%q: %v %+v", payload, err, res.Errors)
		}
		return [2]int{*res.Details.Depth, *res.Details.Nodes}
	}
	oneKey, twoKeys, threeKeys := shape("{\"a\": 2}\n"), shape("{\"a\": 1, \"b\": 2}\n"), shape("{\"a\": 1, \"b\": 2, \"c\": 3}\n")
	for payload, want := range map[string][2]int{
		"{\"x\ty\": 1, \"x\\ty\": 2}\n":               oneKey, // a literal tab and \t are one key
		"{\"x\\ty\": 1, \"x\\ty\": 2}\n":              oneKey,
		"{\"x\ty\": 1, \"x y\": 2}\n":                 twoKeys, // a tab is not a space
		"[{\"\t\": 1, \"\\t\": 2}]\n":                 shape("[{\"a\": 2}]\n"),
		"{\"\uE000\": 1, \"\t\": 2, \"\uE001\": 3}\n": threeKeys, // private-use characters are keys of their own
	} {
		if got := shape(payload); got != want {
			t.Errorf("%q: depth and nodes %v, want %v", payload, got, want)
		}
	}
}
