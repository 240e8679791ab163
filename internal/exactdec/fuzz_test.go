package exactdec

import (
	"errors"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/refusal/refusaltest"
)

// FuzzParse: Parse never panics, and what it accepts round-trips through Plain
// to the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-0.00", "1.5e3", ".5", "5.", "+1", "1e", "e1", "--1", "1.2.3", "00012.3400", "9" + strings.Repeat("0", 80), "1e-100", "0.000000000000000000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 400 {
			return
		}
		d, err := Parse(s, 100, 200)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrRange) {
				t.Fatalf("Parse(%q): unexpected error %v", s, err)
			}
			return
		}
		p := Plain(d)
		back, err := Parse(p, 1000, 0)
		if err != nil {
			t.Fatalf("Plain(%q) = %q does not parse: %v", s, p, err)
		}
		if back.Cmp(d) != 0 {
			t.Fatalf("%q -> %q -> different value", s, p)
		}
		if strings.Contains(p, ".") && strings.HasSuffix(p, "0") {
			t.Fatalf("Plain(%q) = %q keeps a trailing zero", s, p)
		}
	})
}

// FuzzFinance: any operand strings, operation, scale and rounding give a
// result or a DomainError, never a panic; results always have exactly scale
// decimals and calculation values carry no trailing zeros.
func FuzzFinance(f *testing.F) {
	f.Add("compound_interest", "1000", "5", "2", "12", 2, 0)
	f.Add("divide", "1", "3", "", "", 12, 6)
	f.Add("percentage", "-0.5", "200", "", "", 0, 3)
	f.Add("simple_interest", "100", "-3.5", "0.5", "", 4, 1)
	f.Add("compound_interest", "0", "-99.99", "70", "1", 2, 4)
	f.Add("multiply", "-0.001", "1", "", "", 2, 0)
	modes := []string{"half_even", "half_up", "half_down", "down", "up", "floor", "ceiling", "05up"}
	f.Fuzz(func(t *testing.T, op, a, b, c, d string, scale, mode int) {
		ops := []string{a, b}
		if c != "" {
			ops = append(ops, c)
		}
		if d != "" {
			ops = append(ops, d)
		}
		scale = ((scale%15)+15)%15 - 1
		rounding := modes[((mode%len(modes))+len(modes))%len(modes)]
		res, err := Finance(op, ops, scale, rounding)
		if refusaltest.Refused[*DomainError](t, err, "") {
			return
		}
		frac := ""
		if i := strings.IndexByte(res.Result, '.'); i >= 0 {
			frac = res.Result[i+1:]
		}
		if len(frac) != scale {
			t.Fatalf("result %q has %d decimals, want %d", res.Result, len(frac), scale)
		}
		if strings.Contains(res.Plain, ".") && strings.HasSuffix(res.Plain, "0") || res.Plain == "-0" {
			t.Fatalf("calculation value %q is not in plain form", res.Plain)
		}
	})
}
