package pintdef

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/units"
)

// A small definition file in pint's syntax, written for this test: base units,
// prefixes (with symbols, aliases and a power), an offset unit, a symbolic π,
// a square root, a later definition, blocks to skip, a group and @alias.
const sample = `
# comment line
@defaults
    group = international
@end

kilo- = 1e3 = k-
kibi- = 2**10 = Ki-
micro- = 1e-6 = µ- = u-
semi- = 0.5 = _ = demi-

meter = [length] = m = metre
second = [time] = s
kelvin = [temperature]; offset: 0 = K
radian = [] = rad
pi = 3.1415926535897932384626433832795028841971693993751 = π
tansec = 4.8481368111333441675396429478852851658848753880815e-6

inch = yard / 36 = in = inches   # refers forward
turn = 2 * π * radian
degree = π / 180 * radian = deg
parsec_like = 1 / tansec * meter
root2m = (2 * m ** 2) ** 0.5
areaish = (4 * m ** 2) ** 0.5
hertz = 1 / second = Hz
degree_Celsius = kelvin; offset: 273.15 = °C = celsius = degC
degree_Fahrenheit = 5 / 9 * kelvin; offset: 233.15 + 200 / 9 = °F = degF
decibel = 1 ; logbase: 10; logfactor: 10 = dB

@group Imperialish
    yard = 0.9144 * meter = yd
@end

@context fake = f
    [length] -> [time]: value / meter
@end

@system mine using Imperialish
    yard
@end

@alias meter = my_meter
`

func resolveSample(t *testing.T) (*units.Registry, *units.File) {
	t.Helper()
	r := &Reader{}
	if err := r.Read("sample", []byte(sample)); err != nil {
		t.Fatal(err)
	}
	f, err := r.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	reg, err := units.NewRegistry(f)
	if err != nil {
		t.Fatal(err)
	}
	return reg, f
}

func TestResolveSample(t *testing.T) {
	reg, f := resolveSample(t)
	byName := map[string]units.UnitData{}
	for _, u := range f.Units {
		byName[u.Name] = u
	}
	check := func(name, q, r string, h int, approx bool) {
		t.Helper()
		u, ok := byName[name]
		if !ok {
			t.Fatalf("%s missing", name)
		}
		if u.Q != q || u.R != r || u.H != h || u.Approx != approx {
			t.Errorf("%s: got q=%s r=%s h=%d approx=%v, want q=%s r=%s h=%d approx=%v", name, u.Q, u.R, u.H, u.Approx, q, r, h, approx)
		}
	}
	check("inch", "127/5000", "", 0, false)                                                                                                   // 0.9144/36
	check("turn", "2", "", 2, false)                                                                                                          // 2π
	check("degree", "1/180", "", 2, false)                                                                                                    // π/180
	check("pi", "1", "", 2, false)                                                                                                            // the literal is replaced by π
	check("tansec", "9696273622266688335079285895770570331769750776163/2000000000000000000000000000000000000000000000000000000", "", 0, true) // 4.848...e-6, reduced
	check("root2m", "1", "2", 0, false)                                                                                                       // √2 m
	check("areaish", "2", "", 0, false)                                                                                                       // √4 = 2 exactly
	check("degree_Fahrenheit", "5/9", "", 0, false)
	if o := byName["degree_Fahrenheit"].Offset; o != "45967/180" { // 233.15 + 200/9
		t.Errorf("degF offset %s", o)
	}
	if o := byName["kelvin"].Offset; o != "" {
		t.Errorf("kelvin offset %q, want none (offset 0 is multiplicative)", o)
	}
	if !byName["decibel"].Log {
		t.Errorf("decibel not marked logarithmic")
	}
	if byName["parsec_like"].Approx != true {
		t.Errorf("a unit built on tansec must be approximate")
	}
	// delta units, as pint defines them for offset units.
	d, ok := byName["delta_degree_Celsius"]
	if !ok || d.Symbol != "Δ°C" || strings.Join(d.Aliases, ",") != "Δcelsius,ΔdegC,delta_celsius,delta_degC" || d.Offset != "" {
		t.Errorf("delta_degree_Celsius = %+v", d)
	}
	// dims in halves; a dimensionless base has none.
	if hz := byName["hertz"]; hz.Dims["time"] != -2 || len(hz.Dims) != 1 {
		t.Errorf("hertz dims %v", hz.Dims)
	}
	if len(byName["radian"].Dims) != 0 {
		t.Errorf("radian dims %v", byName["radian"].Dims)
	}
	// Prefixes: symbols, aliases and powers.
	for _, c := range []struct{ name, unit, q string }{
		{"km", "meter", "1000"}, {"Kis", "second", "1024"}, {"us", "second", "1/1000000"},
		{"µm", "meter", "1/1000000"}, {"demimeter", "meter", "1/2"}, {"my_meter", "meter", ""},
		{"inches", "inch", ""}, {"yd", "yard", ""},
	} {
		p, u, ok := reg.Lookup(c.name)
		if !ok || u.Name != c.unit {
			t.Errorf("%s: got %v, want %s", c.name, u, c.unit)
			continue
		}
		if c.q != "" && (p == nil || p.F.RatString() != c.q) {
			t.Errorf("%s: prefix %v, want %s", c.name, p, c.q)
		}
	}
	// The skipped context and system blocks define nothing.
	if _, _, ok := reg.Lookup("value"); ok {
		t.Errorf("context body leaked into the registry")
	}
	res, err := reg.Convert(big.NewRat(1, 1), "turn", "deg")
	if err != nil || res.Exact == nil || res.Exact.RatString() != "360" {
		t.Errorf("turn -> deg: %v %v", res.Exact, err)
	}
}

func TestReadErrors(t *testing.T) {
	for _, bad := range []string{
		"meter = [length]\nfoo = bar * meter\n",    // unknown reference
		"a = b\nb = a\n",                           // cycle
		"meter = [length]\n@context x\n",           // unterminated block
		"meter = [length]\n@frobnicate\n",          // unknown directive
		"meter = [length]; scale: 2\n",             // unknown modifier
		"meter\n",                                  // no value
		"pi = 3.2\n",                               // wrong π
		"meter = [length]\n@alias nothing = x\n",   // alias of nothing
		"meter = [length]\nodd = meter ** (1/3)\n", // not a multiple of 1/2
	} {
		r := &Reader{}
		err := r.Read("bad", []byte(bad))
		if err == nil {
			_, err = r.Resolve()
		}
		if err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// ReadDir follows @import and records the commit and file hashes.
func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"default_en.txt":   "meter = [length] = m\nsecond = [time] = s\n@import constants_en.txt\nknotish = lightish / 1000\n",
		"constants_en.txt": "lightish = 299792458 m/s = cc\n",
		"SOURCE":           "at the release tag 9.8.7 (commit 0123456789abcdef0123456789abcdef01234567) of somewhere.\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Source.Commit != "0123456789abcdef0123456789abcdef01234567" || f.Source.Release != "9.8.7" {
		t.Errorf("commit %q, release %q", f.Source.Commit, f.Source.Release)
	}
	sum := sha256.Sum256([]byte(files["constants_en.txt"]))
	if f.Source.ConstantsSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("constants hash %q", f.Source.ConstantsSHA256)
	}
	reg, err := units.NewRegistry(f)
	if err != nil {
		t.Fatal(err)
	}
	res, err := reg.Convert(big.NewRat(1, 1), "knotish", "m/s")
	if err != nil || res.Exact == nil || res.Exact.RatString() != "149896229/500" {
		t.Fatalf("knotish: %v %v", res.Exact, err)
	}
	if _, err := ReadDir(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("missing directory: no error")
	}
}

// The embedded units_gen.json is what go generate writes from the pinned copy
// of pint 0.25.3's files in internal/units/pintdata: neither has drifted.
func TestGeneratedDataIsUpToDate(t *testing.T) {
	f, err := ReadDir("../pintdata")
	if err != nil {
		t.Fatal(err)
	}
	if f.Source.Release != "0.25.3" || f.Source.Commit != "5e79411e1be2dc39c52a536168338773b49fd512" {
		t.Errorf("pintdata is pint %q (%s), want the reference's 0.25.3", f.Source.Release, f.Source.Commit)
	}
	want, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../units_gen.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("internal/units/units_gen.json differs from what internal/units/pintdata generates: run go generate ./internal/units/")
	}
	if units.Default().Source != f.Source {
		t.Errorf("embedded registry source %+v, want %+v", units.Default().Source, f.Source)
	}
}
