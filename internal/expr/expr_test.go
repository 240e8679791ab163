package expr

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/refusal/refusaltest"
)

func eval(t *testing.T, src string, digits int) *Result {
	t.Helper()
	r, err := Eval(context.Background(), src, digits)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return r
}

func wantReason(t *testing.T, src, reason string, cost bool) *Error {
	t.Helper()
	_, err := Eval(context.Background(), src, 34)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: got %v, want *Error %s", src, err, reason)
	}
	if e.Reason != reason || e.Cost != cost {
		t.Fatalf("%s: got %s (cost=%v), want %s (cost=%v)", src, e.Reason, e.Cost, reason, cost)
	}
	return e
}

// The brief's must-hold case and the spec's operator rules.
func TestSpecExamples(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"2**32 - 1", "4294967295"},
		{"-2**2", "-4"},
		{"2**-1", "0.5"},
		{"0.1+0.2", "0.3"},
		{"7 // -2", "-4"},
		{"-7 % 3", "2"},
		{"10% of 50", "5"},
		{"10% von 50", "5"},
		{"50 * 10%", "5"},
		{"10 % 3", "1"},
	} {
		if got := eval(t, c.src, 34); got.Value != c.want || !got.Exact {
			t.Errorf("%s: got %s exact=%v, want %s exact", c.src, got.Value, got.Exact, c.want)
		}
	}
}

// The contract promises that values reached through general real arithmetic are
// never claimed exact, even when they happen to be rational.
func TestHonestApproximation(t *testing.T) {
	r := eval(t, "(sqrt(2)+1)*(sqrt(2)-1)", 34)
	if r.Exact || r.Kind != KindIrrational || r.Fraction != "" || r.Value != "1.000000000000000000000000000000000" {
		t.Errorf("(sqrt(2)+1)*(sqrt(2)-1): got %+v", r)
	}
	// Carried exact forms are exact.
	for src, want := range map[string]string{"sqrt(2)**2": "2", "sqrt(8)/sqrt(2)": "2", "sin(pi/6)": "0.5",
		"cos(pi)": "-1", "log(e**3)": "3", "atan(1)*4/pi": "1", "2*pi - tau": "0",
		"exp(log(5))": "5", "log(2) + log(1/2)": "0", "log(1000)/log(10)": "3"} {
		if r := eval(t, src, 34); !r.Exact || r.Value != want {
			t.Errorf("%s: got %+v, want exact %s", src, r, want)
		}
	}
}

func TestPrecisionExhausted(t *testing.T) {
	wantReason(t, "sin(1)**2 + cos(1)**2 - 1", ReasonPrecisionExhausted, false)
	wantReason(t, "floor((sqrt(2)+1)*(sqrt(2)-1))", ReasonPrecisionExhausted, false)
	// What may be zero says so; what is known not to be zero but is too small
	// to reach says that instead.
	if e := wantReason(t, "exp(-30000)*(sin(1)**2 + cos(1)**2) - exp(-30000)", ReasonPrecisionExhausted, false); !strings.Contains(e.Msg, "may be exactly zero") {
		t.Errorf("a value that may be zero: %q", e.Msg)
	}
	tiny := "exp(-69314)*1e-30000*1e-30000*1e-30000*1e-30000*sin(1)" // about 2^-498600
	for _, src := range []string{tiny, "-" + tiny, tiny + "*" + tiny, "sqrt(" + tiny + ")*" + tiny} {
		if e := wantReason(t, src, ReasonPrecisionExhausted, false); !strings.Contains(e.Msg, "not zero") || strings.Contains(e.Msg, "may be") {
			t.Errorf("%s: %q", src, e.Msg)
		}
	}
	// Its floor and ceiling are known all the same.
	for src, want := range map[string]string{"floor(" + tiny + ")": "0", "floor(-" + tiny + ")": "-1",
		"ceil(" + tiny + ")": "1", "ceil(-" + tiny + ")": "0", "floor(-sin(1)*exp(-20000))": "-1", "ceil(atan(1e-6000))": "1"} {
		if r, err := Eval(context.Background(), src, 34); err != nil || r.Value != want || !r.Exact {
			t.Errorf("%s: got %+v, %v; want exact %s", src, r, err, want)
		}
	}
}

func TestSyntaxErrorPositions(t *testing.T) {
	for src, pos := range map[string]int{"2 +": 4, "(1 + 2": 7, "1 + * 2": 5, "2 ^ 3": 3, "3 4": 3, "1 + $": 5, "2pi": 2} {
		e := wantReason(t, src, ReasonSyntax, false)
		if e.Pos != pos || !strings.Contains(e.Msg, "position") {
			t.Errorf("%s: position %d (%s), want %d", src, e.Pos, e.Msg, pos)
		}
	}
}

func TestLimits(t *testing.T) {
	wantReason(t, strings.Repeat("1", MaxLength+1), ReasonTooLong, true)
	wantReason(t, strings.Repeat("(", MaxDepth+1)+"1"+strings.Repeat(")", MaxDepth+1), ReasonNesting, true)
	eval(t, strings.Repeat("(", MaxDepth)+"1"+strings.Repeat(")", MaxDepth), 34)
	wantReason(t, "9**9**9**9", ReasonExponent, true)
	wantReason(t, "factorial(10**9)", ReasonFactorial, true)
	if _, err := Eval(context.Background(), "1", 0); err == nil {
		t.Error("precision 0 accepted")
	}
	if _, err := Eval(context.Background(), "1", MaxPrecision+1); err == nil {
		t.Error("precision 1001 accepted")
	}
}

func TestContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Eval(ctx, "exp(60000) - exp(60000) + 1", 1000)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = Eval(ctx, strings.Repeat("sin(", 98)+"1"+strings.Repeat(")", 98)+"+exp(60000)-exp(60000)", 1000)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
}

// Correct rounding makes results independent of what the shared constant caches
// hold: a low precision computed before and after a high one must agree, and a
// prefix of a high-precision result must round to the low one.
func TestCacheIndependence(t *testing.T) {
	a := eval(t, "pi*e + sqrt(3)", 20).Value
	eval(t, "pi*e + sqrt(3)", 1000)
	b := eval(t, "pi*e + sqrt(3)", 20).Value
	if a != b {
		t.Fatalf("got %s then %s", a, b)
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, src := range []string{"1 + 2 * 3", "-2**-2**-1", "10% of 50 + 3%", "math.sqrt(2)", "f(1, 2, (3))",
		"1_000.5e-3 // 7 % -2", "(1)%%", "a % b", "2**3%"} {
		n, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		s1 := n.String()
		n2, err := Parse(s1)
		if err != nil {
			t.Fatalf("%s -> %s: %v", src, s1, err)
		}
		if s2 := n2.String(); s2 != s1 {
			t.Errorf("%s: %s then %s", src, s1, s2)
		}
	}
}

func TestFormatSci(t *testing.T) {
	// Python: str(Decimal) of the same sign, digits and exponent.
	for _, c := range []struct {
		neg  bool
		ds   string
		e    int
		want string
	}{
		{false, "3333", -1, "0.3333"}, {false, "1414", 0, "1.414"}, {true, "5", -7, "-5E-7"},
		{false, "5", -6, "0.000005"}, {false, "123", 2, "123"}, {false, "123", 3, "1.23E+3"},
		{false, "1", 0, "1"}, {false, "1000", 0, "1.000"},
	} {
		if got := formatSci(c.neg, c.ds, c.e); got != c.want {
			t.Errorf("formatSci(%v,%s,%d) = %s, want %s", c.neg, c.ds, c.e, got, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2**32 - 1", "-2**2", "10% of 50", "sqrt(2)*pi", "((1))", "1e309", "1_0.5_5",
		"math.pi", "gcd(12, 18, 27)", "2 ^ 3", "(", "1 +* 2", "%", "of", "5 % of 3", "--+-1", "1e-99999",
		"log(8, 2)", "min()", "comb(52, 5)", "2**-1**-1", ".5", "5.", "1..2", "é", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := Parse(src)
		if refusaltest.Refused[*Error](t, err, src) {
			return
		}
		s1 := n.String()
		n2, err := Parse(s1)
		if err != nil {
			// A fully parenthesized rendering can exceed the nesting limit.
			var e *Error
			if errors.As(err, &e) && (e.Reason == ReasonNesting || e.Reason == ReasonTooLong) {
				return
			}
			t.Fatalf("%q renders as %q which does not parse: %v", src, s1, err)
		}
		if s2 := n2.String(); s2 != s1 {
			t.Fatalf("%q: %q then %q", src, s1, s2)
		}
	})
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{"2**32 - 1", "1/3", "sqrt(2)+sqrt(3)", "sin(pi/6)", "log(1000, 10)", "factorial(30)",
		"round(2.675, 2)", "atan2(-1, -1)", "exp(-1000)", "tan(pi/2)", "9**9**9**9", "0**0", "comb(10**20, 3)",
		"floor(-e)", "hypot(3, 4)", "asin(sqrt(3)/2)", "(-8)**(1/3)", "8**(1/3)", "10% of 3%",
		// Magnitudes near both ends: bounds, probes and structural lower bounds.
		"sin(10**300)*exp(69314)*sin(10**300+1)", "sin(1)*exp(-20000)", "sin(1e-5000)", "1/(sqrt(2)*exp(20000))",
		"exp(69314)*sin(10**300)*1e-30000", "sqrt(sin(1)*exp(-60000))"} {
		f.Add(s, uint16(34))
	}
	f.Fuzz(func(t *testing.T, src string, prec uint16) {
		p := int(prec%200) + 1
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		r, err := Eval(ctx, src, p)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%q: unexpected error type %T %v", src, err, err)
			}
			return
		}
		if r.Value == "" || (r.Exact && r.Kind == KindIrrational) || (r.Fraction == "") != (r.Kind == KindIrrational) {
			t.Fatalf("%q: inconsistent result %+v", src, r)
		}
	})
}

// benchEval measures Eval of src at prec digits.
func benchEval(b *testing.B, src string, prec int) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Eval(context.Background(), src, prec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCalculateSmall(b *testing.B) { benchEval(b, "2**32 - 1 + 0.1 + 0.2", 34) }

func BenchmarkCalculateIrrational34(b *testing.B) {
	benchEval(b, "sqrt(2)*pi + exp(1/3) - log(7) + sin(1)", 34)
}

func BenchmarkCalculateLarge(b *testing.B) {
	benchEval(b, "sqrt(2)*pi + exp(1/3) - log(7) + sin(1) + atan(1/3)", 1000)
}

func BenchmarkCalculateBigExact(b *testing.B) { benchEval(b, "factorial(5000) / 3**2000", 34) }

// BenchmarkCalculateHugeProduct is a 1000-digit result near 2^99999: each
// factor is asked for its leading 3400 bits or so (it needed every integer
// bit of the first product, 1.6 s, before 2026-12-02).
func BenchmarkCalculateHugeProduct(b *testing.B) {
	benchEval(b, "sin(10**300)*exp(69314)*sin(10**300+1)", 1000)
}

// BenchmarkCalculateHugeRefused is refused with result_too_large after a
// probe of each product's leading bits (2.7 s before 2026-12-02).
func BenchmarkCalculateHugeRefused(b *testing.B) {
	var terms []string
	for k := range 70 {
		terms = append(terms, fmt.Sprintf("sin(10**300+%d)*exp(%d)", k, 69314-k))
	}
	src := strings.Join(terms, "*")
	b.ReportAllocs()
	for b.Loop() {
		var e *Error
		if _, err := Eval(context.Background(), src, 1000); !errors.As(err, &e) || e.Reason != ReasonResultTooLarge {
			b.Fatalf("want result_too_large, got %v", err)
		}
	}
}

// BenchmarkSinKernel compares sin's fixed-point kernel (halving the argument,
// then doubling back) with the plain Taylor series it replaced, at the
// precisions calculate's decisions reach near 2^100000.
func BenchmarkSinKernel(b *testing.B) {
	for _, w := range []int{3500, 20000, 60000} {
		r := new(big.Int).Lsh(big.NewInt(7), uint(w))
		r.Quo(r, big.NewInt(10))
		b.Run(fmt.Sprintf("halving/w=%d", w), func(b *testing.B) {
			for b.Loop() {
				sinCosFixed(r, w, false, func() {})
			}
		})
		b.Run(fmt.Sprintf("series/w=%d", w), func(b *testing.B) {
			for b.Loop() {
				sinCosSeries(r, w, false, func() {})
			}
		})
	}
}
