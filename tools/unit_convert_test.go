package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/units"
)

func unitArgs(value, from, to string) map[string]any {
	return map[string]any{"value": json.Number(value), "from_unit": from, "to_unit": to}
}

// The legacy result line is the rendered fact (unit_convert keeps the
// reference's text line); value prints as the reference prints what it received, f"{value}":
// an integer literal as its digits, a float literal in repr form.
func TestUnitConvertLegacyText(t *testing.T) {
	reg := testRegistry(t)
	cases := []struct{ value, from, to, want string }{
		{"100", "km/h", "m/s", "100 km/h = 27.77777778 m/s"},
		{"100.0", "km/h", "m/s", "100.0 km/h = 27.77777778 m/s"},
		{"1e-05", "km", "m", "1e-05 km = 0.01 m"},
		{"1E2", "km", "m", "100.0 km = 100000 m"},
		{"0.00001", "km", "m", "1e-05 km = 0.01 m"},
		{"2.5", "ft", "in", "2.5 ft = 30 in"},
		{"-0", "degC", "K", "0 degC = 273.15 K"},
		{"-0.0", "degC", "K", "-0.0 degC = 273.15 K"},
		{"-0.0", "km", "m", "-0.0 km = -0 m"}, // the reference's float product keeps the sign
		{"-0.0", "-km", "m", "-0.0 -km = 0 m"},
		{"-0", "km", "m", "0 km = 0 m"},
		{"12345678901234567", "mm", "m", "12345678901234567 mm = 1.23456789e+13 m"},
		{"12345678901234567.0", "mm", "m", "1.2345678901234568e+16 mm = 1.23456789e+13 m"},
		{"1e16", "m", "km", "1e+16 m = 1e+13 km"},
	}
	for _, c := range cases {
		resp, err := reg.Invoke(context.Background(), Request{Tool: "unit_convert", Args: unitArgs(c.value, c.from, c.to)})
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if resp.Result != c.want {
			t.Errorf("got %q, want %q", resp.Result, c.want)
		}
		if resp.Envelope.Facts()["rendered"] != c.want {
			t.Errorf("rendered %v, want %q", resp.Envelope.Facts()["rendered"], c.want)
		}
	}
}

func TestUnitConvertLimits(t *testing.T) {
	reg := testRegistry(t)
	cases := []struct {
		value, from, to string
		code, reason    string
	}{
		{"1", "a_u_intensity**128", "W/m**2", CodeCostLimit, "exponent_too_large"},
		{"1", "m**128*m**128*m", "m", CodeCostLimit, "exponent_too_large"},
		{"1" + strings.Repeat("0", 400), "m", "km", CodeToolResult, "value_out_of_range"}, // an integer beyond the double range
		{"1e308", "ly", "qm", CodeToolResult, "result_out_of_range"},
		{"1e300", "nmi", "nm", CodeToolResult, "result_out_of_range"},                                // the reference answers inf, then HTTP 500
		{"1", "m**" + strings.Repeat("-", 60) + "1", "m", CodeToolResult, "invalid_unit_expression"}, // nesting depth
		{"1", "m", "parsec**(1/3)", CodeToolResult, "invalid_unit_expression"},
	}
	for _, c := range cases {
		_, err := reg.Invoke(context.Background(), Request{Tool: "unit_convert", Args: unitArgs(c.value, c.from, c.to)})
		var te *Error
		if !errors.As(err, &te) || te.Code != c.code || te.Reason != c.reason {
			t.Errorf("%s %s -> %s: got %v, want %s/%s", c.value, c.from, c.to, err, c.code, c.reason)
		}
	}
}

// A result below the double range keeps its exact decimal and says so.
func TestUnitConvertUnderflow(t *testing.T) {
	reg := testRegistry(t)
	resp, err := reg.Invoke(context.Background(), Request{Tool: "unit_convert", Args: unitArgs("1e-300", "ym", "Ym")})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Envelope.Facts()["exact_value"]; got != "1e-348" {
		t.Errorf("exact_value %v, want 1e-348", got)
	}
	if len(resp.Envelope.Warnings) != 1 || resp.Envelope.Warnings[0].Code != "float_underflow" {
		t.Errorf("warnings %v, want float_underflow", resp.Envelope.Warnings)
	}
}

// Error messages name the offending token and both dimensions.
func TestUnitConvertMessages(t *testing.T) {
	reg := testRegistry(t)
	cases := []struct{ from, to, want string }{
		{"furlong/fortnite", "m/s", `from_unit "furlong/fortnite": unknown unit "fortnite" (did you mean "fortnight"?)`},
		{"m", "s", `cannot convert from "m" ([length]) to "s" ([time])`},
		{"imperial gallon", "L", `from_unit "imperial gallon": unknown unit "imperial" (did you mean "imperial_gallon"?)`},
	}
	for _, c := range cases {
		_, err := reg.Invoke(context.Background(), Request{Tool: "unit_convert", Args: unitArgs("1", c.from, c.to)})
		var te *Error
		if !errors.As(err, &te) || te.Message != c.want {
			t.Errorf("%s -> %s: got %v, want message %q", c.from, c.to, err, c.want)
		}
	}
}

func BenchmarkUnitConvertSmall(b *testing.B) {
	benchTool(b, "unit_convert", unitArgs("100", "km/h", "m/s"))
}

func BenchmarkUnitConvertLarge(b *testing.B) {
	benchTool(b, "unit_convert", unitArgs("-123456.789e-3", "planck_mass*(nmi/h)**2*kWh**(3/2)/(µs**-1*Btu*sr)", "kg*(ft/min)**2*J**(3/2)/(Hz*cal)*deg**-2"))
}

// TestUnitConvertOracleWarnings checks the oracle's warning lists exactly,
// including the empty ones (an exact, terminating result must not warn), which
// the generic golden replay does not compare.
func TestUnitConvertOracleWarnings(t *testing.T) {
	reg := testRegistry(t)
	n := 0
	for _, c := range loadGolden(t, "testdata/unit_convert/oracle_table.json") {
		resp, err := reg.Invoke(context.Background(), Request{Tool: "unit_convert", Args: c.Args})
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		var codes []string
		for _, w := range resp.Envelope.Warnings {
			codes = append(codes, w.Code)
		}
		if strings.Join(codes, ",") != strings.Join(c.Warnings, ",") {
			t.Errorf("%s: warnings %v, want %v", c.Name, codes, c.Warnings)
		}
		n++
	}
	if n < 500 {
		t.Fatalf("only %d oracle conversions", n)
	}
}

// The contract pins the pint commit the embedded registry was generated from.
func TestUnitConvertSourcePinned(t *testing.T) {
	tool, _, ok := testRegistry(t).Lookup("unit_convert")
	if !ok {
		t.Fatal("unit_convert not registered")
	}
	got := tool.Contract.SourcePolicy["version"]
	src := units.Default().Source
	if want := "pint " + src.Release + " (" + src.Commit + ")"; got != want || src.Release != "0.25.3" || len(src.Commit) != 40 {
		t.Fatalf("source_policy.version %v, want %s", got, want)
	}
}
