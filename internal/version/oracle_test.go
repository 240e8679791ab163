package version

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/precisiond/precisiond/internal/refusal"
)

type oracleCase struct {
	Name string `json:"name"`
	Args struct {
		Scheme     string   `json:"scheme"`
		Operation  string   `json:"operation"`
		A          string   `json:"a"`
		B          string   `json:"b"`
		Versions   []string `json:"versions"`
		Version    string   `json:"version"`
		Constraint string   `json:"constraint"`
	} `json:"args"`
	Facts  map[string]json.RawMessage `json:"facts"`
	Reason string                     `json:"reason"`
}

// TestOracle runs every vector of tools/testdata/version_compare (npm
// semver, packaging, dpkg) through this package's functions directly; the
// tools package replays them through the whole execution path.
func TestOracle(t *testing.T) {
	files, _ := filepath.Glob("../../tools/testdata/version_compare/oracle_*.json")
	if len(files) != 3 {
		t.Fatalf("vector files: %v", files)
	}
	n := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Cases []oracleCase }
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		for _, c := range doc.Cases {
			n++
			got, err := runOracle(c)
			if c.Reason != "" {
				var r *refusal.Error
				if !errors.As(err, &r) || r.Reason != c.Reason {
					t.Errorf("%s %+v: got %v, %v; want refusal %s", c.Name, c.Args, got, err, c.Reason)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %+v: %v", c.Name, c.Args, err)
				continue
			}
			for k, want := range c.Facts {
				g, _ := json.Marshal(got[k])
				var w any
				_ = json.Unmarshal(want, &w)
				wb, _ := json.Marshal(w)
				if string(g) != string(wb) {
					t.Errorf("%s %+v: %s = %s, want %s", c.Name, c.Args, k, g, wb)
				}
			}
		}
	}
	if n < 1500 {
		t.Fatalf("only %d cases", n)
	}
}

func runOracle(c oracleCase) (map[string]any, error) {
	a := c.Args
	switch a.Operation {
	case "compare":
		r, err := Compare(a.Scheme, a.A, a.B)
		return map[string]any{"result": r.Result, "a_normalized": r.ANormalized, "b_normalized": r.BNormalized}, err
	case "sort":
		s, err := Sort(a.Scheme, a.Versions)
		return map[string]any{"sorted": s}, err
	case "max":
		m, err := Max(a.Scheme, a.Versions)
		return map[string]any{"max": m}, err
	}
	ok, err := Satisfies(a.Scheme, a.Version, a.Constraint)
	return map[string]any{"satisfied": ok}, err
}

// TestSchemes: the schemes this package knows are the contract's.
func TestSchemes(t *testing.T) {
	var keys []string
	for k := range schemes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := slices.Clone(Schemes)
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Errorf("schemes %v, Schemes %v", keys, want)
	}
}
