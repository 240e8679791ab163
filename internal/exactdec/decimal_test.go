package exactdec

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/vectors"
)

type powVector struct {
	Base   string `json:"base"`
	N      int64  `json:"n"`
	Result string `json:"result"`
	Error  string `json:"error"` // "Overflow": Python raised decimal.Overflow
}

// TestPowIntMatchesPython replays Decimal ** int vectors computed by CPython's
// decimal module (libmpdec) under prec=128, ROUND_HALF_EVEN: the coefficient,
// the exponent and the sign must all be Python's (str(Decimal) keeps them).
func TestPowIntMatchesPython(t *testing.T) {
	vs := vectors.Cases[powVector](t, "testdata/pow_vectors.json", 1000)
	bad := 0
	for _, v := range vs {
		base, err := ParseNum(v.Base, 200, 2000)
		if err != nil {
			t.Fatalf("base %q: %v", v.Base, err)
		}
		got, err := FinanceContext.PowInt(base, v.N)
		if v.Error == "Overflow" {
			if err != ErrOverflow {
				t.Errorf("%s ** %d = %v, want ErrOverflow", v.Base, v.N, err)
			}
			continue
		}
		want, perr := ParseNum(v.Result, 200, 2000)
		if perr != nil {
			t.Fatalf("result %q: %v", v.Result, perr)
		}
		if err != nil {
			t.Fatalf("%s ** %d: %v", v.Base, v.N, err)
		}
		if got.Neg != want.Neg || got.Exp != want.Exp || got.Coef.Cmp(want.Coef) != 0 {
			bad++
			if bad <= 5 {
				t.Errorf("%s ** %d = %sE%d, want %s", v.Base, v.N, got.Coef, got.Exp, v.Result)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d pow vectors differ", bad, len(vs))
	}
}

// referenceReason turns the reference service's error text for a refusal into
// the reason Finance gives: the text itself when it is a machine code, else
// the reason chosen for a bare decimal exception (docs/compatibility.md).
func referenceReason(text string) (string, bool) {
	switch text {
	case "[<class 'decimal.Overflow'>]":
		return "decimal_overflow", true
	case "[<class 'decimal.InvalidOperation'>]":
		return "zero_power_zero", true
	}
	for _, r := range text {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '[' || r == ']') {
			return "", false
		}
	}
	return text, true
}

// TestFinanceReference replays the reference service's decimal_finance answers
// (tools/testdata/reference/decimal_finance, written by gen_numbers.py from the
// reference's own code) directly against Finance; the tools package replays
// them again through the full execution path.
func TestFinanceReference(t *testing.T) {
	var file struct {
		Cases []struct {
			Name string `json:"id"`
			Args struct {
				Operation string          `json:"operation"`
				Operands  json.RawMessage `json:"operands"`
				Scale     json.RawMessage `json:"scale"`
				Rounding  json.RawMessage `json:"rounding"`
			} `json:"args"`
			Reference struct {
				Facts     map[string]any `json:"facts"`
				ErrorCode string         `json:"error_code"`
				Error     string         `json:"error"`
			} `json:"reference"`
		} `json:"cases"`
	}
	vectors.Decode(t, "../../tools/testdata/reference/decimal_finance/vectors.json", &file)
	n := 0
	for _, c := range file.Cases {
		var ops []string
		var scale int
		var rounding string
		if json.Unmarshal(c.Args.Operands, &ops) != nil || json.Unmarshal(c.Args.Scale, &scale) != nil ||
			json.Unmarshal(c.Args.Rounding, &rounding) != nil || c.Reference.ErrorCode == "input_schema_invalid" {
			continue // not representable as Finance's arguments, or refused by the schema
		}
		res, err := Finance(c.Args.Operation, ops, scale, rounding)
		if c.Reference.Facts == nil {
			text, _ := strings.CutPrefix(c.Reference.Error, "Error in 'decimal_finance': ")
			want, ok := referenceReason(text)
			if !ok {
				t.Errorf("%s: unexpected reference error %q", c.Name, c.Reference.Error)
				continue
			}
			n++
			de, ok := err.(*DomainError)
			if !ok || de.Reason != want {
				t.Errorf("%s: got %v, want reason %s", c.Name, err, want)
			}
			continue
		}
		n++
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if got, want := res.Plain, c.Reference.Facts["calculation_value"]; got != want {
			t.Errorf("%s: calculation_value %s, want %s", c.Name, got, want)
		}
		if got, want := res.Result, c.Reference.Facts["result"]; got != want {
			t.Errorf("%s: result %s, want %s", c.Name, got, want)
		}
	}
	t.Logf("%d reference cases", n)
	if n < 500 {
		t.Errorf("only %d reference cases ran", n)
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
