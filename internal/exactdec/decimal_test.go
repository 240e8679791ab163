package exactdec

import (
	"encoding/json"
	"math/big"
	"os"
	"testing"
)

type powVector struct {
	Base   string `json:"base"`
	N      int64  `json:"n"`
	Result string `json:"result"`
}

// TestPowIntMatchesPython replays Decimal ** int vectors computed by CPython's
// decimal module (libmpdec) under prec=128, ROUND_HALF_EVEN.
func TestPowIntMatchesPython(t *testing.T) {
	data, err := os.ReadFile("testdata/pow_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []powVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 1000 {
		t.Fatalf("only %d pow vectors", len(vs))
	}
	ctx := Context{Prec: FinancePrec, Rounding: HalfEven}
	bad := 0
	for _, v := range vs {
		base, err := Parse(v.Base, 200, 2000)
		if err != nil {
			t.Fatalf("base %q: %v", v.Base, err)
		}
		want, err := Parse(v.Result, 200, 2000)
		if err != nil {
			t.Fatalf("result %q: %v", v.Result, err)
		}
		got, err := ctx.PowInt(base, v.N)
		if err != nil {
			t.Fatalf("%s ** %d: %v", v.Base, v.N, err)
		}
		if got.Cmp(want) != 0 {
			bad++
			if bad <= 5 {
				t.Errorf("%s ** %d = %s, want %s", v.Base, v.N, Plain(got), Plain(want))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d pow vectors differ", bad, len(vs))
	}
}

type financeCase struct {
	Name      string         `json:"name"`
	Args      map[string]any `json:"args"`
	Facts     map[string]any `json:"facts"`
	ErrorCode string         `json:"error_code"`
	Reason    string         `json:"reason"`
}

// TestFinanceOracle replays the decimal_finance oracle cases directly against
// Finance (the tools package replays them again through the full execution path).
func TestFinanceOracle(t *testing.T) {
	data, err := os.ReadFile("../../tools/testdata/decimal_finance/oracle_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []financeCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range file.Cases {
		if c.ErrorCode == "input_schema_invalid" {
			continue
		}
		n++
		ops := []string{}
		for _, o := range c.Args["operands"].([]any) {
			ops = append(ops, o.(string))
		}
		mode, ok := ParseRounding(c.Args["rounding"].(string))
		if !ok {
			t.Fatalf("%s: rounding", c.Name)
		}
		res, err := Finance(c.Args["operation"].(string), ops, int(c.Args["scale"].(float64)), mode)
		if c.Reason != "" {
			de, ok := err.(*DomainError)
			if !ok || de.Reason != c.Reason {
				t.Errorf("%s: got %v, want reason %s", c.Name, err, c.Reason)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if got, want := res.Plain, c.Facts["calculation_value"]; got != want {
			t.Errorf("%s: calculation_value %s, want %s", c.Name, got, want)
		}
		if got, want := res.Result, c.Facts["result"]; got != want {
			t.Errorf("%s: result %s, want %s", c.Name, got, want)
		}
	}
	if n < 300 {
		t.Errorf("only %d oracle cases", n)
	}
}

func TestRoundingModesOnTies(t *testing.T) {
	// Expected values from the definition of each mode (Python's decimal docs).
	cases := []struct {
		in   string
		mode Rounding
		want string
	}{
		{"2.5", HalfEven, "2"}, {"3.5", HalfEven, "4"}, {"-2.5", HalfEven, "-2"},
		{"2.5", HalfUp, "3"}, {"-2.5", HalfUp, "-3"},
		{"2.5", HalfDown, "2"}, {"-2.5", HalfDown, "-2"}, {"2.51", HalfDown, "3"},
		{"2.9", Down, "2"}, {"-2.9", Down, "-2"},
		{"2.1", Up, "3"}, {"-2.1", Up, "-3"},
		{"2.9", Floor, "2"}, {"-2.1", Floor, "-3"},
		{"2.1", Ceiling, "3"}, {"-2.9", Ceiling, "-2"},
		{"-0.4", HalfEven, "0"}, {"-0.4", Down, "0"},
	}
	for _, c := range cases {
		d, err := Parse(c.in, 10, 10)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := Quantize(d, 0, c.mode)
		if got := Fixed(q); got != c.want {
			t.Errorf("Quantize(%s, 0, %d) = %s, want %s", c.in, c.mode, got, c.want)
		}
	}
}

func TestRatSigRepeating(t *testing.T) {
	coef, exp := RatSig(big.NewInt(2), big.NewInt(3), 34, HalfEven)
	if got, want := Plain(Decimal{coef, exp}), "0.6666666666666666666666666666666667"; got != want {
		t.Errorf("2/3 = %s, want %s", got, want)
	}
	coef, exp = RatSig(big.NewInt(-1), big.NewInt(8), 34, HalfEven)
	if got, want := Plain(Decimal{coef, exp}), "-0.125"; got != want {
		t.Errorf("-1/8 = %s, want %s", got, want)
	}
}

func TestParse(t *testing.T) {
	good := map[string]string{"1": "1", "-0": "0", "+1.50": "1.5", ".5": "0.5", "5.": "5", "1e3": "1000", "1.5E-3": "0.0015", "-00012.3400": "-12.34"}
	for in, want := range good {
		d, err := Parse(in, 50, 100)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := Plain(d); got != want {
			t.Errorf("Parse(%q) = %s, want %s", in, got, want)
		}
	}
	for _, in := range []string{"", "-", ".", "e5", "1e", "1e+", "1..2", "1.2.3", " 1", "1 ", "inf", "nan", "1_000", "0x10", "1e101", "1" + string(make([]byte, 0))} {
		if in == "1" {
			continue
		}
		if _, err := Parse(in, 50, 100); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
	if _, err := Parse("123456", 5, 10); err != ErrRange {
		t.Errorf("too many digits: %v", err)
	}
}
