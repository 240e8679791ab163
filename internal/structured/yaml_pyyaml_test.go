package structured

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/precisiond/precisiond/internal/vectors"
)

// pyyamlCase is one case of testdata/yaml_pyyaml.json: PyYAML's verdict on
// Src as the reference reaches it (testdata/gen_yaml_pyyaml.py).
type pyyamlCase struct {
	Src     string `json:"src"`
	Finding        // PyYAML's error; Code "" when it reads the document
}

// knownYAMLDifference is one case of testdata/yaml_pyyaml_known.json where
// our verdict is not PyYAML's, and why (docs/compatibility.md, SV-6).
type knownYAMLDifference struct {
	Src        string `json:"src"`
	PyYAML     string `json:"pyyaml"`
	Precisiond string `json:"precisiond"`
	Why        string `json:"why"`
}

var dumpYAMLDifferences = flag.String("yaml.dump", "", "write the YAML verdicts that differ from PyYAML's to this file (to review testdata/yaml_pyyaml_known.json)")

// verdict is a Result's code as the differential compares it.
func verdict(res Result) string {
	if res.Valid {
		return "valid"
	}
	return res.Errors[0].Code
}

// TestYAMLAgreesWithPyYAML holds the YAML reader to PyYAML's verdict, as
// the reference applies it, on every case of testdata/yaml_pyyaml.json
// (one-character insertions into small documents and seeded random ones):
// the same validity and code everywhere, except where PyYAML's scanner
// fails on a payload that also has an anchor, alias or tag (SV-7: both
// invalid) and the cases of testdata/yaml_pyyaml_known.json, each with its
// cause; a tab error, whose wording we reproduce, is at PyYAML's line and
// column.
func TestYAMLAgreesWithPyYAML(t *testing.T) {
	cases := vectors.Cases[pyyamlCase](t, "testdata/yaml_pyyaml.json", 5000)
	var knownList []knownYAMLDifference
	vectors.Decode(t, "testdata/yaml_pyyaml_known.json", &knownList)
	known := map[string]knownYAMLDifference{}
	for _, k := range knownList {
		known[k.Src] = k
	}
	var differ []knownYAMLDifference
	agree, sv7 := 0, 0
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
		k, listed := known[c.Src]
		switch {
		case want == got:
			agree++
			if listed {
				t.Errorf("%q is listed as a known difference (%s) but now agrees with PyYAML (%s): drop it from testdata/yaml_pyyaml_known.json", c.Src, k.Why, want)
			}
			f := res.Errors
			if want == CodeYAMLParse && c.Message == "found character '\\t' that cannot start any token" &&
				(f[0].Message != c.Message || deref(f[0].Line) != deref(c.Line) || deref(f[0].Column) != deref(c.Column)) {
				t.Errorf("%q: %q at %d:%d, PyYAML %q at %d:%d", c.Src, f[0].Message, deref(f[0].Line), deref(f[0].Column), c.Message, deref(c.Line), deref(c.Column))
			}
		case want == CodeYAMLParse && got == CodeYAMLRejected:
			sv7++
		default:
			differ = append(differ, knownYAMLDifference{Src: c.Src, PyYAML: want, Precisiond: got, Why: k.Why})
			if !listed || k.PyYAML != want || k.Precisiond != got {
				t.Errorf("%q: %s, PyYAML says %s (%q at %d:%d)", c.Src, got, want, c.Message, deref(c.Line), deref(c.Column))
			}
		}
	}
	if *dumpYAMLDifferences != "" {
		out, _ := json.MarshalIndent(differ, "", "  ")
		if err := os.WriteFile(*dumpYAMLDifferences, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(differ) != len(knownList) {
		t.Errorf("%d known differences listed, %d found", len(knownList), len(differ))
	}
	t.Logf("%d cases: %d agree, %d SV-7, %d known differences", len(cases), agree, sv7, len(differ))
}

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// TestYAMLTabInDoubleQuotes: a tab in a double-quoted scalar inside a flow
// collection is read around goccy (withoutQuotedTabs) and is a tab again in
// the value: as a key it equals the escape "\t" (PyYAML loads
// {"x<TAB>y": 1, "x\ty": 2} as {'x\ty': 2}, one key) and differs from a
// space.
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
		"{\"\uE000\": 1, \"\t\": 2, \"\uE001\": 3}\n": threeKeys, // the stand-in never meets the payload's own runes
	} {
		if got := shape(payload); got != want {
			t.Errorf("%q: depth and nodes %v, want %v", payload, got, want)
		}
	}
}
