package codata

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The hashes SOURCE.md records; the contract's source_policy.version carries
// the same (tools.TestPhysicalConstantSource).
var wantSHA256 = map[string]string{
	Edition2018: "4785aa8737c67206a0d0421566e51746a0ed65b9b20c3d46f7c6f40bdd1fabb2",
	Edition2022: "572bbb50ce2b716e8b784c7791ee774554eedcbbe67ef37114d318c3d87852c8",
}

func TestTables(t *testing.T) {
	source, err := os.ReadFile("data/SOURCE.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, ed := range Editions() {
		tab, ok := Lookup(ed)
		if !ok {
			t.Fatalf("no table %s", ed)
		}
		if got, want := tab.SHA256, wantSHA256[ed]; got != want {
			t.Errorf("%s: sha256 %s, want %s", ed, got, want)
		}
		if !strings.Contains(string(source), tab.SHA256) {
			t.Errorf("%s: data/SOURCE.md does not record sha256 %s", ed, tab.SHA256)
		}
		if tab.Edition != ed {
			t.Errorf("%s: Edition %q", ed, tab.Edition)
		}
	}
	if _, ok := Lookup("CODATA2014"); ok {
		t.Error("Lookup(CODATA2014) found a table")
	}
	if _, ok := Lookup("codata2022"); ok {
		t.Error("Lookup is case-sensitive, found codata2022")
	}
	t18, _ := Lookup(Edition2018)
	t22, _ := Lookup(Edition2022)
	if got, want := t18.Len(), 354; got != want {
		t.Errorf("CODATA2018 has %d rows, want %d", got, want)
	}
	if got, want := t22.Len(), 355; got != want {
		t.Errorf("CODATA2022 has %d rows, want %d", got, want)
	}
}

// TestFacts checks a few rows against the published text, by hand. The full
// tables are checked against scipy by the golden vectors of physical_constant.
func TestFacts(t *testing.T) {
	cases := []struct {
		ed, name string
		want     Constant
	}{
		{Edition2022, "electron mass", Constant{Name: "electron mass", Value: "9.1093837139e-31", Uncertainty: "0.0000000028e-31", Unit: "kg"}},
		{Edition2018, "ELECTRON MASS", Constant{Name: "electron mass", Value: "9.1093837015e-31", Uncertainty: "0.0000000028e-31", Unit: "kg"}},
		{Edition2022, "planck constant", Constant{Name: "Planck constant", Value: "6.62607015e-34", Uncertainty: "0", Exact: true, Unit: "J Hz^-1"}},
		{Edition2022, "von Klitzing constant", Constant{Name: "von Klitzing constant", Value: "25812.80745", Uncertainty: "0", Exact: true, Truncated: true, Unit: "ohm"}},
		{Edition2022, "Wien frequency displacement law constant", Constant{Name: "Wien frequency displacement law constant", Value: "5.878925757e10", Uncertainty: "0", Exact: true, Truncated: true, Unit: "Hz K^-1"}},
		{Edition2022, "electron g factor", Constant{Name: "electron g factor", Value: "-2.00231930436092", Uncertainty: "0.00000000000036"}},
		{Edition2022, "W to Z mass ratio", Constant{Name: "W to Z mass ratio", Value: "0.88145", Uncertainty: "0.00013"}},
		{Edition2022, "alpha particle-electron mass ratio", Constant{Name: "alpha particle-electron mass ratio", Value: "7294.29954171", Uncertainty: "0.00000017"}},
		{Edition2018, "Cu x unit", Constant{Name: "Cu x unit", Value: "1.00207697e-13", Uncertainty: "0.00000028e-13", Unit: "m"}},
	}
	for _, c := range cases {
		tab, _ := Lookup(c.ed)
		got, ok := tab.Get(c.name)
		if !ok || got != c.want {
			t.Errorf("%s %q: got %+v %v, want %+v", c.ed, c.name, got, ok, c.want)
		}
	}
	t22, _ := Lookup(Edition2022)
	for _, name := range []string{"Cu x unit", "electron mass ", " electron mass", "electron  mass", "Boltzmann constant in eV/\u212a", "", "électron mass"} {
		if c, ok := t22.Get(name); ok {
			t.Errorf("Get(%q) = %+v, want nothing", name, c)
		}
	}
}

var (
	decimal   = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?(e-?[0-9]+)?$`)
	unsigned  = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(e-?[0-9]+)?$`)
	unitChars = regexp.MustCompile(`^[A-Za-z0-9 ^/()_-]*$`)
)

// TestRowShape checks every row of both tables against the contract's
// patterns, so that no row can fail the outputSchema.
func TestRowShape(t *testing.T) {
	for _, ed := range Editions() {
		tab, _ := Lookup(ed)
		for _, c := range tab.All() {
			if !decimal.MatchString(c.Value) || !unsigned.MatchString(c.Uncertainty) || !unitChars.MatchString(c.Unit) {
				t.Errorf("%s %q: %+v", ed, c.Name, c)
			}
			if c.Exact != (c.Uncertainty == "0") || (c.Truncated && !c.Exact) {
				t.Errorf("%s %q: exact %v, truncated %v, uncertainty %s", ed, c.Name, c.Exact, c.Truncated, c.Uncertainty)
			}
			if len(c.Name) > 128 {
				t.Errorf("%s %q: longer than the contract's maxLength", ed, c.Name)
			}
		}
	}
}

func TestSearch(t *testing.T) {
	t22, _ := Lookup(Edition2022)
	names, total := t22.Search("X UNIT", 20)
	if got, want := strings.Join(names, "|"), "Copper x unit|Molybdenum x unit"; got != want || total != 2 {
		t.Errorf("x unit: %q %d, want %q 2", got, total, want)
	}
	names, total = t22.Search("", 5)
	if len(names) != 5 || total != t22.Len() || names[0] != "alpha particle-electron mass ratio" {
		t.Errorf("empty query: %q %d", names, total)
	}
	names, total = t22.Search("no such thing", 20)
	if names == nil || len(names) != 0 || total != 0 {
		t.Errorf("no match: %#v %d", names, total)
	}
	names, total = t22.Search("electron", 0)
	if len(names) != 0 || total == 0 {
		t.Errorf("max 0: %q %d", names, total)
	}
}

func TestParseRefuses(t *testing.T) {
	good := "electron mass                                               9.109 383 7139 e-31      0.000 000 0028 e-31      kg"
	if _, err := Parse("x", []byte(good+"\n")); err != nil {
		t.Fatalf("good row: %v", err)
	}
	pad := func(name, value, unc, unit string) string {
		return name + strings.Repeat(" ", 60-len(name)) + value + strings.Repeat(" ", 25-len(value)) + unc + strings.Repeat(" ", 25-len(unc)) + unit
	}
	bad := map[string]string{
		"short":              "electron mass     9.1",
		"value into unc":     strings.Replace(good, "e-31      0.000", "e-31 0.00000000", 1),
		"letters in value":   pad("x", "9.1O9", "0.1", "kg"),
		"dots, inexact":      pad("x", "9.109...", "0.1", "kg"),
		"bad uncertainty":    pad("x", "9.109", "(approx)", "kg"),
		"negative unc":       pad("x", "9.109", "-0.1", "kg"),
		"duplicate":          good + "\n" + strings.Replace(good, "electron mass", "ELECTRON MASS", 1),
		"tab":                strings.Replace(good, "kg", "\tkg", 1),
		"non-ASCII name":     pad("électron", "9.1", "0.1", "kg"),
		"empty name":         pad("", "9.1", "0.1", "kg"),
		"two spaces in name": pad("electron  mass", "9.1", "0.1", "kg"),
		"empty":              "",
	}
	for name, text := range bad {
		if tab, err := Parse("x", []byte(text)); err == nil {
			t.Errorf("%s: parsed %+v", name, tab.All())
		}
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{"Planck": "planck", "abc": "abc", "\u212a": "\u212a", "ÉA": "Éa", "": ""} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzMatch: lookups and searches never panic; a name found is the query
// without regard to ASCII case; every match contains the query so, and the
// count agrees with a plain scan.
func FuzzMatch(f *testing.F) {
	for _, s := range []string{"electron mass", "PLANCK CONSTANT", "x unit", "", " ", "\u212a", "é", "mag.", "...", "(exact)", "\xff\xfe", strings.Repeat("a", 200), "W to Z mass ratio"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, ed := range Editions() {
			tab, _ := Lookup(ed)
			if c, ok := tab.Get(q); ok && Key(c.Name) != Key(q) {
				t.Fatalf("Get(%q) = %q", q, c.Name)
			}
			names, total := tab.Search(q, 20)
			if len(names) > 20 || total < len(names) || (total > len(names) && len(names) != 20) {
				t.Fatalf("Search(%q): %d names, total %d", q, len(names), total)
			}
			n := 0
			for _, name := range tab.Names() {
				if strings.Contains(Key(name), Key(q)) {
					n++
				}
			}
			if n != total {
				t.Fatalf("Search(%q): total %d, scan %d", q, total, n)
			}
			for _, name := range names {
				if !strings.Contains(Key(name), Key(q)) {
					t.Fatalf("Search(%q) gave %q", q, name)
				}
			}
		}
	})
}

// FuzzParse: Parse never panics, and a table it accepts has rows whose
// facts have the contract's shape.
func FuzzParse(f *testing.F) {
	data, _ := os.ReadFile("data/codata2022.txt")
	lines := strings.Split(string(data), "\n")
	f.Add(strings.Join(lines[:3], "\n"))
	f.Add(lines[350])
	f.Add(lines[87])
	f.Fuzz(func(t *testing.T, text string) {
		tab, err := Parse("x", []byte(text))
		if err != nil {
			return
		}
		for _, c := range tab.All() {
			if !decimal.MatchString(c.Value) || !unsigned.MatchString(c.Uncertainty) || c.Name == "" {
				t.Fatalf("accepted %+v from %q", c, text)
			}
		}
	})
}

func BenchmarkGet(b *testing.B) {
	tab, _ := Lookup(Edition2022)
	for b.Loop() {
		tab.Get("Electron Mass")
	}
}
