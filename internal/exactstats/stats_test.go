package exactstats

import (
	"context"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/refusal/refusaltest"
)

func TestRatString(t *testing.T) {
	// Expected strings are the decimal expansions by hand (1/8 = 0.125, 1/3 rounded
	// half-even to 34 digits, 2/3 rounds up in the last place).
	checkRatStrings(t, "RatString", RatString, []ratCase{
		{1, 8, "0.125", true},
		{-1, 8, "-0.125", true},
		{10, 4, "2.5", true},
		{1000, 1, "1000", true},
		{0, 7, "0", true},
		{1, 3, "0.3333333333333333333333333333333333", false},
		{2, 3, "0.6666666666666666666666666666666667", false},
		{-2, 3, "-0.6666666666666666666666666666666667", false},
		{200, 3, "66.66666666666666666666666666666667", false},
		{1, -4, "-0.25", true},
	})
	// A terminating expansion longer than 200 significant digits is rounded.
	num := new(big.Int).Exp(big.NewInt(3), big.NewInt(500), nil)
	den := new(big.Int).Lsh(big.NewInt(1), 300)
	got, exact := RatString(num, den)
	if exact || len(strings.Trim(strings.ReplaceAll(got, ".", ""), "0")) != 34 {
		t.Errorf("long expansion: %s exact=%v, want 34 rounded digits", got, exact)
	}
}

// ratCase is num/den rendered as want, exact or rounded.
type ratCase struct {
	num, den int64
	want     string
	exact    bool
}

// checkRatStrings checks f (RatString or SqrtRatString) on every case.
func checkRatStrings(t *testing.T, name string, f func(num, den *big.Int) (string, bool), cases []ratCase) {
	t.Helper()
	for _, c := range cases {
		got, exact := f(big.NewInt(c.num), big.NewInt(c.den))
		if got != c.want || exact != c.exact {
			t.Errorf("%s(%d/%d) = %s,%v want %s,%v", name, c.num, c.den, got, exact, c.want, c.exact)
		}
	}
}

func TestSqrtRatString(t *testing.T) {
	checkRatStrings(t, "SqrtRatString", SqrtRatString, []ratCase{
		{4, 1, "2", true},
		{9, 4, "1.5", true},
		{1, 9, "0.3333333333333333333333333333333333", false}, // rational root 1/3
		{2, 1, "1.414213562373095048801688724209698", false},  // sqrt(2) = 1.41421356237309504880168872420969807…
		{1, 100, "0.1", true},
		{0, 5, "0", true},
	})
}

func reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

func TestParseStringErrors(t *testing.T) {
	ctx := context.Background()
	for in, want := range map[string]string{
		"":          "empty_data",
		"1,,2":      "invalid_number",
		"1,x":       "invalid_number",
		"inf":       "non_finite_value",
		"-NaN":      "non_finite_value",
		"1e101":     "value_out_of_range",
		"1_0":       "invalid_number",
		"0x1":       "invalid_number",
		"1.2.3":     "invalid_number",
		" 1 2 ":     "invalid_number",
		"12345e-99": "",
	} {
		_, err := ParseString(ctx, in)
		if got := reason(err); got != want {
			t.Errorf("ParseString(%q): reason %q (%v), want %q", in, got, err, want)
		}
	}
	tooMany := strings.Repeat("1,", MaxValues) + "1"
	_, err := ParseString(ctx, tooMany)
	var e *Error
	if !errors.As(err, &e) || !e.Costly || e.Reason != "too_many_values" {
		t.Errorf("too many values: %v", err)
	}
}

func TestMaxSizeSample(t *testing.T) {
	// 100000 values 1..100000: mean 50000.5, median 50000.5, sum 5000050000,
	// pvariance (n²-1)/12 = 833333333.25 (closed forms for 1..n).
	var b strings.Builder
	for i := 1; i <= MaxValues; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
	}
	vals, err := ParseString(context.Background(), b.String())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compute(context.Background(), vals, Operations, Options{QuantilesN: 4, QuantilesMethod: "exclusive"})
	if err != nil {
		t.Fatal(err)
	}
	for op, want := range map[string]string{"mean": "50000.5", "median": "50000.5", "sum": "5000050000", "pvariance": "833333333.25", "count": "100000", "range": "99999"} {
		if got := *res[op].Value; got != want {
			t.Errorf("%s = %s, want %s", op, got, want)
		}
	}
	if res["harmonic_mean"].Exact {
		t.Errorf("harmonic mean of 1..100000 should not terminate")
	}
}

func TestHarmonicCostLimit(t *testing.T) {
	vals, err := ParseString(context.Background(), strings.TrimSuffix(strings.Repeat("1234567890123456789012345678901234567890.5,", 50000), ","))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compute(context.Background(), vals, []string{"harmonic_mean"}, Options{QuantilesN: 4, QuantilesMethod: "exclusive"})
	var e *Error
	if !errors.As(err, &e) || !e.Costly || e.Reason != "harmonic_mean_too_costly" {
		t.Errorf("got %v, want harmonic_mean_too_costly", err)
	}
}

func TestCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	vals, _ := ParseString(context.Background(), "1,2,3")
	if _, err := Compute(ctx, vals, []string{"mean"}, Options{QuantilesN: 4}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func FuzzParseString(f *testing.F) {
	for _, s := range []string{"1,2,3", " 1.5 , -2e3 ", "", ",", "1e-100,1e100", "inf", "0.000", "+.5,5.", "1,,2", "9" + strings.Repeat("9", 60)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vals, err := ParseString(context.Background(), s)
		if refusaltest.Refused[*Error](t, err, s) {
			return
		}
		if len(vals) != strings.Count(s, ",")+1 {
			t.Fatalf("%d values from %q", len(vals), s)
		}
		// Every value round-trips through its plain rendering.
		for i, v := range vals {
			str, _ := RatString(v.Rat().Num(), v.Rat().Denom())
			if len(str) > MaxValueChars {
				continue
			}
			back, err := ParseValue(str, i)
			if err != nil || back.Cmp(v) != 0 {
				t.Fatalf("value %d of %q: %s does not round-trip (%v)", i, s, str, err)
			}
		}
		if len(vals) <= 50 {
			_, err := Compute(context.Background(), vals, Operations, Options{QuantilesN: 4, QuantilesMethod: "inclusive"})
			refusaltest.Refused[*Error](t, err, s)
		}
	})
}
