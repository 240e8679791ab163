package pyrepr

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestFloat: Python 3.11's repr(float) in every regime (values checked with
// python3 -c 'print(repr(x))'); contracts/testdata/pyrepr_errors.json and the
// evidence vectors check many more through their callers.
func TestFloat(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{100, "100.0"}, {1e16, "1e+16"}, {1e-5, "1e-05"}, {1e-4, "0.0001"},
		{123456789012345.6, "123456789012345.6"}, {1234567890123456, "1234567890123456.0"},
		{1.5e300, "1.5e+300"}, {math.Copysign(0, -1), "-0.0"}, {0, "0.0"}, {-2.5e-7, "-2.5e-07"},
		{5e-324, "5e-324"}, {1e22, "1e+22"}, {0.1, "0.1"}, {-1234.5, "-1234.5"},
		{math.NaN(), "nan"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
	}
	for _, c := range cases {
		if got := Float(c.f); got != c.want {
			t.Errorf("Float(%v) = %s, want %s", c.f, got, c.want)
		}
		if got := string(AppendFloat([]byte("x"), c.f)); got != "x"+c.want {
			t.Errorf("AppendFloat(x, %v) = %s", c.f, got)
		}
	}
}

// TestString: Python 3.11's repr(str): the quote choice, escapes of the quote
// and backslash, \t \n \r, \xhh \uhhhh \Uhhhhhhhh for what str.isprintable
// refuses (separators, format characters, private use, code points assigned
// after Unicode 14.0), WTF-8 lone surrogates, and the byte limit.
func TestString(t *testing.T) {
	cases := []struct{ s, want string }{
		{"a", `'a'`}, {"it's", `"it's"`}, {`say "hi"`, `'say "hi"'`}, {`'"`, `'\'"'`}, {`\`, `'\\'`},
		{"\t\n\r\x00\x7f", `'\t\n\r\x00\x7f'`}, {"\u00a0\u00ad\u2028\u3000", `'\xa0\xad\u2028\u3000'`},
		{"\u00e9\u65e5\U0001F600", "'\u00e9\u65e5\U0001F600'"},
		{"\U0001FAE8\u0CF3\uE000\U000E0001", `'\U0001fae8\u0cf3\ue000\U000e0001'`},
		{"a\xed\xa0\x80b", `'a\ud800b'`},
	}
	for _, c := range cases {
		if got := String(c.s); got != c.want {
			t.Errorf("String(%q) = %s, want %s", c.s, got, c.want)
		}
	}
	if got := string(AppendString(nil, "abcdef", 3)); got != "'ab" {
		t.Errorf("limit 3: %s", got)
	}
}

// FuzzFloat: every float's repr reads back as the same float (the same bits,
// so -0.0 stays negative) and is spelt as Python spells floats: a '.' or an
// exponent, never a bare integer.
func FuzzFloat(f *testing.F) {
	for _, x := range []float64{0, 100, 1e16, 1e-5, 1234567890123456, 5e-324, math.MaxFloat64} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		s := Float(x)
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(back) != math.Float64bits(x) {
			t.Fatalf("%v: repr %s reads back as %v (%v)", x, s, back, err)
		}
		if !strings.ContainsAny(s, ".e") {
			t.Fatalf("%v: repr %s is not a float literal", x, s)
		}
	})
}

// FuzzString: the repr of any string is quoted, a byte limit yields a prefix
// of the full repr, and the repr holds no code point Python would escape.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a'b", `"'`, "\x7f\u00a0\U0001FAE8", "\xed\xa0\x80", "\xff"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		full := String(s)
		if len(full) < 2 || full[0] != full[len(full)-1] || (full[0] != '\'' && full[0] != '"') {
			t.Fatalf("%q: repr %s is not quoted", s, full)
		}
		for _, r := range full {
			if !Printable(r) {
				t.Fatalf("%q: repr %s holds %U", s, full, r)
			}
		}
		if limit = limit % 64; limit >= 0 {
			if p := string(AppendString(nil, s, limit)); !strings.HasPrefix(full, p) || len(p) < min(limit, len(full)) {
				t.Fatalf("%q limit %d: %s is not a prefix of %s", s, limit, p, full)
			}
		}
	})
}
