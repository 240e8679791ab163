package exactprob

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/vectors"
)

type referenceCase struct {
	Name      string                     `json:"id"`
	Args      map[string]json.RawMessage `json:"args"`
	Reference struct {
		Facts     map[string]json.RawMessage `json:"facts"`
		ErrorCode string                     `json:"error_code"`
		Error     string                     `json:"error"`
	} `json:"reference"`
	Oracle struct {
		Facts map[string]json.RawMessage `json:"correctly_rounded_facts"`
	} `json:"oracle"`
}

// optInt reads an optional integer argument; ok is false for a number written
// as a float (5.0), which the reference refuses and this test leaves to tools.
func optInt(raw json.RawMessage) (v *int64, ok bool) {
	if raw == nil || string(raw) == "null" {
		return nil, true
	}
	var n int64
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, false
	}
	return &n, true
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

// wantReason is the reason Compute gives for the reference's error text: the
// text itself when it is a machine code; Python's int-to-str limit becomes
// probability_result_digit_limit_exceeded (docs/compatibility.md).
func wantReason(text string) string {
	if strings.HasPrefix(text, "Exceeds the limit (4300 digits)") {
		return "probability_result_digit_limit_exceeded"
	}
	return text
}

// TestReference replays the reference service's exact_probability answers
// (tools/testdata/reference/exact_probability, written by gen_numbers.py from
// the reference's own code) directly against Compute; tools/ replays them again
// through the full execution path. Where the reference's decimal is not the
// correctly rounded one, the generator's integer-only rounding is expected.
func TestReference(t *testing.T) {
	n := 0
	for _, c := range vectors.Cases[referenceCase](t, "../../tools/testdata/reference/exact_probability/vectors.json", 1) {
		ref := c.Reference
		if ref.ErrorCode == "input_schema_invalid" {
			continue
		}
		var op string
		_ = json.Unmarshal(c.Args["operation"], &op)
		nv, ok1 := optInt(c.Args["n"])
		kv, ok2 := optInt(c.Args["k"])
		sv, ok3 := optInt(c.Args["decimal_scale"])
		if !ok1 || !ok2 || !ok3 || bytes.ContainsAny(c.Args["numerator"], ".eE") || bytes.ContainsAny(c.Args["denominator"], ".eE") {
			continue
		}
		in := Input{Operation: op, N: nv, K: kv, Numerator: optText(c.Args["numerator"]),
			Denominator: optText(c.Args["denominator"]), Scale: sv, Rounding: optText(c.Args["rounding"])}
		out, err := Compute(in)
		want := ref.Facts
		if c.Oracle.Facts != nil && (want == nil && strings.Contains(ref.Error, "[<class 'decimal.") ||
			want != nil && string(want["decimal"]) != string(c.Oracle.Facts["decimal"])) {
			want = c.Oracle.Facts
		}
		n++
		if want == nil {
			reason := wantReason(strings.TrimPrefix(ref.Error, "Error in 'exact_probability': "))
			pe, ok := err.(*Error)
			if !ok || pe.Reason != reason || pe.Costly {
				t.Errorf("%s: got %v, want tool_execution_error/%s", c.Name, err, reason)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		check := func(key string, got *big.Int) {
			t.Helper()
			g := "null"
			if got != nil {
				g = got.String()
			}
			if w := string(want[key]); g != w {
				t.Errorf("%s: %s = %s, want %s", c.Name, key, g, w)
			}
		}
		check("result_numerator", out.ResultNum)
		check("result_denominator", out.ResultDen)
		check("probability_numerator", out.ProbNum)
		check("probability_denominator", out.ProbDen)
		wantDec := optText(want["decimal"])
		if (wantDec == nil) != (out.Decimal == nil) || (wantDec != nil && *wantDec != *out.Decimal) {
			t.Errorf("%s: decimal %v, want %v", c.Name, out.Decimal, wantDec)
		}
	}
	if n < 300 {
		t.Errorf("only %d reference cases ran", n)
	}
}

// TestOperandGuard: operands over 65536 bits (the contract's limit; JSON
// requests never carry them, integers being limited to 4300 digits) are
// refused before any arithmetic, as a cost limit.
func TestOperandGuard(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 65536).String() // 65537 bits
	edge := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 65536), big.NewInt(1)).String()
	three := "3"
	for _, c := range []struct {
		num, den string
		reason   string
	}{
		{huge, three, "operand_too_large"},
		{three, huge, "operand_too_large"},
		{"1e20000", three, "operand_too_large"},
		// 65536 bits pass the guard; the reduced result has 19729 digits.
		{edge, three, "probability_result_digit_limit_exceeded"},
	} {
		num, den := c.num, c.den
		_, err := Compute(Input{Operation: "fraction", Numerator: &num, Denominator: &den})
		pe, ok := err.(*Error)
		if !ok || pe.Reason != c.reason || pe.Costly != (c.reason == "operand_too_large") {
			t.Errorf("%.20s…/%.20s…: got %v, want %s", c.num, c.den, err, c.reason)
		}
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
