package tools

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/codata"
)

// The contract's source_policy.version names the SHA-256 of every embedded
// table, so an envelope says exactly which published text answered.
func TestPhysicalConstantSource(t *testing.T) {
	c := contracts.MustLoad("physical_constant")
	var parts []string
	for _, ed := range codata.Editions() {
		tab, _ := codata.Lookup(ed)
		parts = append(parts, ed+" sha256:"+tab.SHA256)
	}
	if got, want := c.SourcePolicy["version"], strings.Join(parts, "; "); got != want {
		t.Errorf("source_policy.version %q, want %q", got, want)
	}
	resp := invokeOK(t, "physical_constant", map[string]any{"name": "electron mass"})
	if got := resp.Envelope.Source.Version; got != c.SourcePolicy["version"] {
		t.Errorf("envelope source.version %q", got)
	}
	enum := c.InputSchema["properties"].(map[string]any)["edition"].(map[string]any)["enum"].([]any)
	var eds []string
	for _, e := range enum {
		eds = append(eds, e.(string))
	}
	if !slices.Equal(eds, codata.Editions()) {
		t.Errorf("edition enum %v, codata has %v", eds, codata.Editions())
	}
}

func TestPhysicalConstantHints(t *testing.T) {
	cases := []struct {
		args    map[string]any
		hints   []string
		message string
	}{
		{map[string]any{"name": "Cu x unit"}, []string{"Copper x unit"}, `"Cu x unit" is a CODATA2018 name`},
		{map[string]any{"name": "mo x UNIT"}, []string{"Molybdenum x unit"}, `"Mo x unit" is a CODATA2018 name`},
		{map[string]any{"name": "Copper x unit", "edition": "CODATA2018"}, []string{"Cu x unit"}, `"Copper x unit" is a CODATA2022 name`},
		{map[string]any{"name": "alpha particle rms charge radius", "edition": "CODATA2018"}, nil, `is a CODATA2022 name`},
		{map[string]any{"name": "Plank constant"}, []string{"Planck constant"}, `did you mean "Planck constant"`},
		{map[string]any{"name": "electron mass "}, []string{"electron mass"}, `no constant named "electron mass " in CODATA2022`},
		{map[string]any{"name": "boltzmann"}, []string{"Boltzmann constant", "Boltzmann constant in eV/K", "Boltzmann constant in Hz/K"}, ""},
		{map[string]any{"name": "zzzzzzzz"}, nil, ""},
	}
	for _, c := range cases {
		e := invokeErr(t, "physical_constant", c.args)
		if e.Code != CodeExecution || e.Reason != "unknown_constant" {
			t.Errorf("%v: %s/%s", c.args, e.Code, e.Reason)
		}
		var got []string
		for _, d := range e.Details {
			if d.Keyword == KeywordDidYouMean && d.Path == "/name" {
				got = append(got, d.Message)
			}
		}
		if len(got) > maxConstantHints || (c.hints != nil && !slices.Equal(got[:min(len(got), len(c.hints))], c.hints)) || (c.hints == nil && strings.HasPrefix(c.args["name"].(string), "zzz") && len(got) != 0) {
			t.Errorf("%v: hints %q, want %q first", c.args, got, c.hints)
		}
		if !strings.Contains(e.Message, c.message) {
			t.Errorf("%v: message %q lacks %q", c.args, e.Message, c.message)
		}
	}
}

// An edition the enum refuses gets the schema's did-you-mean hints.
func TestPhysicalConstantEditionHints(t *testing.T) {
	for in, want := range map[string]string{"codata2022": "CODATA2022", "CODATA 2018": "CODATA2018", "CODATA2021": "CODATA2022"} {
		e := invokeErr(t, "physical_constant", map[string]any{"name": "electron mass", "edition": in})
		if e.Code != CodeInputSchemaInvalid {
			t.Fatalf("%q: %s", in, e.Code)
		}
		var got []string
		for _, d := range e.Details {
			if d.Keyword == KeywordDidYouMean {
				got = append(got, d.Message)
			}
		}
		if len(got) == 0 || got[0] != want {
			t.Errorf("%q: hints %q, want %q first", in, got, want)
		}
	}
}

func TestPhysicalConstantLegacyText(t *testing.T) {
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"name": "electron mass"}, "electron mass (CODATA2022) = 9.1093837139e-31 kg, standard uncertainty 0.0000000028e-31 kg"},
		{map[string]any{"name": "planck constant", "edition": "CODATA2018"}, "Planck constant (CODATA2018) = 6.62607015e-34 J Hz^-1 (exact)"},
		{map[string]any{"name": "von Klitzing constant"}, "von Klitzing constant (CODATA2022) = 25812.80745... ohm (exact)"},
		{map[string]any{"name": "fine-structure constant"}, "fine-structure constant (CODATA2022) = 7.2973525643e-3, standard uncertainty 0.0000000011e-3"},
		{map[string]any{"query": "x unit"}, `"x unit" in CODATA2022: 2 names: Copper x unit; Molybdenum x unit`},
		{map[string]any{"query": "qqq"}, `"qqq" in CODATA2022: 0 names`},
	}
	for _, c := range cases {
		if got := invokeOK(t, "physical_constant", c.args).Result; got != c.want {
			t.Errorf("%v: got %q, want %q", c.args, got, c.want)
		}
	}
	got := invokeOK(t, "physical_constant", map[string]any{"query": "electron"}).Result
	if !strings.HasSuffix(got, "; … (first 20 shown)") {
		t.Errorf("truncated search: %q", got)
	}
}

// FuzzPhysicalConstant runs the tool's lookup on any name or query in either
// edition: it never panics, answers facts the outputSchema accepts, or a typed
// unknown_constant error with at most three hints that are names of the
// edition.
func FuzzPhysicalConstant(f *testing.F) {
	for _, s := range []string{"electron mass", "PLANCK CONSTANT", "Cu x unit", "x unit", "Plank constant", "", " ", "\u212a", "é", "mag.", "\xff", strings.Repeat("e", 300)} {
		f.Add(s, false, false)
		f.Add(s, true, true)
	}
	c := contracts.MustLoad("physical_constant")
	f.Fuzz(func(t *testing.T, s string, query, old bool) {
		in := constantInput{Edition: codata.Edition2022}
		if old {
			in.Edition = codata.Edition2018
		}
		if query {
			in.Query = &s
		} else {
			in.Name = &s
		}
		out, err := lookupConstant(in)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Reason != "unknown_constant" || query {
				t.Fatalf("%q: %v", s, err)
			}
			tab, _ := codata.Lookup(in.Edition)
			n := 0
			for _, d := range err.(*Error).Details {
				if _, found := tab.Get(d.Message); !found {
					t.Fatalf("%q: hint %q is not a %s name", s, d.Message, in.Edition)
				}
				n++
			}
			if n > maxConstantHints {
				t.Fatalf("%q: %d hints", s, n)
			}
			return
		}
		g, err := evidence.ToGeneric(out)
		if err != nil {
			t.Fatal(err)
		}
		facts := g.(map[string]any)
		if s == "" || len(s) > 128 { // the schema refuses these before Run
			return
		}
		if err := c.ValidateOutput(facts); err != nil {
			t.Fatalf("%q: %v (%v)", s, err, facts)
		}
		_ = constantText(in, out)
	})
}

func BenchmarkPhysicalConstant(b *testing.B) {
	benchTool(b, "physical_constant", map[string]any{"name": "Electron Mass"})
}

func BenchmarkPhysicalConstantQuery(b *testing.B) {
	benchTool(b, "physical_constant", map[string]any{"query": "electron"})
}

// The vectors were generated from the tables embedded now: each vector file
// records the SHA-256 of the tables its generator read.
func TestPhysicalConstantVectorsMatchTables(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "physical_constant", "*.json"))
	if len(files) == 0 {
		t.Fatal("no vector files")
	}
	for _, f := range files {
		gen, _ := readExact(t, f)["generator"].(map[string]any)
		hashes, _ := gen["tables_sha256"].(map[string]any)
		for _, ed := range codata.Editions() {
			tab, _ := codata.Lookup(ed)
			if got := hashes[ed]; got != tab.SHA256 {
				t.Errorf("%s: generated from %s table %v, embedded is %s: rerun gen_constants.py", f, ed, got, tab.SHA256)
			}
		}
	}
}
