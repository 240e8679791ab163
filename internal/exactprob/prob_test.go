package exactprob

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"testing"
)

type oracleCase struct {
	Name      string                     `json:"name"`
	Args      map[string]json.RawMessage `json:"args"`
	Facts     map[string]json.RawMessage `json:"facts"`
	ErrorCode string                     `json:"error_code"`
	Reason    string                     `json:"reason"`
}

func optInt(raw json.RawMessage) *int64 {
	if raw == nil || string(raw) == "null" {
		return nil
	}
	var v int64
	if err := json.Unmarshal(raw, &v); err != nil {
		panic(err)
	}
	return &v
}

func optText(raw json.RawMessage) *string {
	if raw == nil || string(raw) == "null" {
		return nil
	}
	s := string(raw)
	if s[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			panic(err)
		}
	}
	return &s
}

// TestOracle replays the exact_probability oracle cases (fractions, math.comb,
// math.perm, decimal) directly against Compute; tools/ replays them again through
// the full execution path.
func TestOracle(t *testing.T) {
	var all []oracleCase
	for _, path := range []string{"../../tools/testdata/exact_probability/oracle_cases.json", "testdata/oracle_huge.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Cases []oracleCase `json:"cases"`
		}
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&file); err != nil {
			t.Fatal(err)
		}
		all = append(all, file.Cases...)
	}
	n := 0
	for _, c := range all {
		if c.ErrorCode == "input_schema_invalid" || c.ErrorCode == "tool_result_too_large" {
			continue
		}
		n++
		var op string
		_ = json.Unmarshal(c.Args["operation"], &op)
		in := Input{Operation: op, N: optInt(c.Args["n"]), K: optInt(c.Args["k"]),
			Numerator: optText(c.Args["numerator"]), Denominator: optText(c.Args["denominator"]),
			Scale: optInt(c.Args["decimal_scale"]), Rounding: optText(c.Args["rounding"])}
		out, err := Compute(in)
		if c.ErrorCode != "" {
			pe, ok := err.(*Error)
			if !ok || pe.Reason != c.Reason || pe.Costly != (c.ErrorCode == "cost_limit_exceeded") {
				t.Errorf("%s: got %v, want %s/%s", c.Name, err, c.ErrorCode, c.Reason)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		check := func(key string, got *big.Int) {
			t.Helper()
			want := string(c.Facts[key])
			g := "null"
			if got != nil {
				g = got.String()
			}
			if g != want {
				t.Errorf("%s: %s = %s, want %s", c.Name, key, g, want)
			}
		}
		check("result_numerator", out.ResultNum)
		check("result_denominator", out.ResultDen)
		check("probability_numerator", out.ProbNum)
		check("probability_denominator", out.ProbDen)
		wantDec := optText(c.Facts["decimal"])
		if (wantDec == nil) != (out.Decimal == nil) || (wantDec != nil && *wantDec != *out.Decimal) {
			t.Errorf("%s: decimal %v, want %v", c.Name, out.Decimal, wantDec)
		}
	}
	if n < 250 {
		t.Errorf("only %d oracle cases ran", n)
	}
}

func TestCombPermEdges(t *testing.T) {
	// C(5,2)=10, P(5,2)=20, k>n gives 0 (math.comb/math.perm), P(n,0)=1.
	for _, c := range []struct {
		n, k       int64
		comb, perm string
	}{{5, 2, "10", "20"}, {3, 5, "0", "0"}, {0, 0, "1", "1"}, {7, 0, "1", "1"}, {7, 7, "1", "5040"}} {
		if got := Comb(c.n, c.k).String(); got != c.comb {
			t.Errorf("Comb(%d,%d) = %s, want %s", c.n, c.k, got, c.comb)
		}
		if got := Perm(c.n, c.k).String(); got != c.perm {
			t.Errorf("Perm(%d,%d) = %s, want %s", c.n, c.k, got, c.perm)
		}
	}
}
