package evidence

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/precisiond/precisiond/internal/vectors"
)

// canonicalCase is one vector: a JSON value, its canonical form and the hash.
type canonicalCase struct {
	ValueJSON string `json:"value_json"`
	Canonical string `json:"canonical"`
	SHA256    string `json:"sha256"`
}

// TestCanonicalVectors replays the shared vectors of the reference implementation
// and the Python-oracle vectors byte for byte.
func TestCanonicalVectors(t *testing.T) {
	for _, path := range []string{"testdata/canonical_shared.json", "testdata/canonical_oracle.json"} {
		for i, c := range vectors.Cases[canonicalCase](t, path, 1) {
			v, err := ParseJSON([]byte(c.ValueJSON))
			if err != nil {
				t.Fatalf("%s case %d: parse: %v", path, i, err)
			}
			got, err := Canonical(v)
			if err != nil {
				t.Fatalf("%s case %d: canonical: %v", path, i, err)
			}
			if string(got) != c.Canonical {
				t.Errorf("%s case %d:\n got %s\nwant %s", path, i, got, c.Canonical)
			}
			if h := HashBytes(got); h != c.SHA256 {
				t.Errorf("%s case %d: hash got %s want %s", path, i, h, c.SHA256)
			}
		}
	}
}

func TestIntegerAndFloatHashDiffer(t *testing.T) {
	a, _ := Hash(map[string]any{"v": json.Number("1")})
	b, _ := Hash(map[string]any{"v": json.Number("1.0")})
	if a == b {
		t.Fatal("integer 1 and float 1.0 hash the same")
	}
}

func TestCanonicalRefusesNonFinite(t *testing.T) {
	if _, err := Canonical(json.Number("1e400")); err == nil {
		t.Fatal("1e400 accepted")
	}
	if _, err := Canonical(Float(math.Inf(1))); err == nil {
		t.Fatal("+Inf accepted")
	}
}

// FuzzCanonical checks, for any JSON document, that canonical output is itself
// valid JSON that decodes to the same value, and that canonicalisation is
// idempotent.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1,2,3]}`, `"\u2028<>&"`, `[1.0,1e+16,-0.0,1e-05]`,
		`{"é":{"a":null}}`, `123456789012345678901234567890`, `"\ud800"`, `[[[[]]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		if err != nil {
			return
		}
		c1, err := Canonical(v)
		if err != nil {
			return // e.g. a float outside float64 range
		}
		v2, err := ParseJSON(c1)
		if err != nil {
			t.Fatalf("canonical output is not JSON: %q: %v", c1, err)
		}
		c2, err := Canonical(v2)
		if err != nil || !bytes.Equal(c1, c2) {
			t.Fatalf("not idempotent: %q vs %q (%v)", c1, c2, err)
		}
		// The value, decoded independently, with numbers as Python reads
		// them: an integer literal is an int ("-0" is 0), anything else a
		// float ("-0.0" keeps its sign).
		std1, err1 := pyValue(data)
		std2, err2 := pyValue(c1)
		if err1 == nil && err2 == nil {
			j1, _ := json.Marshal(std1)
			j2, _ := json.Marshal(std2)
			if !bytes.Equal(j1, j2) {
				t.Fatalf("value changed: %s vs %s", j1, j2)
			}
		}
	})
}

// pyValue decodes JSON with encoding/json, its numbers rewritten as Python's
// json module reads them: "int:<decimal>" for an integer literal, and
// "float:<bits>" for the float64 of any other.
func pyValue(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case json.Number:
			if i, ok := new(big.Int).SetString(string(x), 10); ok {
				return "int:" + i.String()
			}
			f, _ := strconv.ParseFloat(string(x), 64)
			return "float:" + strconv.FormatUint(math.Float64bits(f), 16)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	return walk(v), nil
}

func BenchmarkCanonicalEnvelope(b *testing.B) {
	v, _ := ParseJSON([]byte(`{"contract_hash":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","input_normalized":{"a":391,"b":299,"operation":"both"},"facts":{"a":391,"b":299,"operation":"both","gcd":23,"lcm":5083}}`))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Hash(v); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseJSONBoundsNumbers(t *testing.T) {
	for _, s := range []string{`1e999999999`, `1e-999999999`, `{"a":[1e400]}`, `-1e309`, `1` + string(bytes.Repeat([]byte("0"), MaxIntegerDigits))} {
		if _, err := ParseJSON([]byte(s)); err == nil {
			t.Errorf("ParseJSON(%.30s) accepted", s)
		}
	}
	for _, s := range []string{`1e300`, `-0.0`, `123456789012345678901234567890`, `2.5e-07`} {
		if _, err := ParseJSON([]byte(s)); err != nil {
			t.Errorf("ParseJSON(%s): %v", s, err)
		}
	}
}
