package units

import (
	"errors"
	"math/big"
	"reflect"
	"strings"
	"testing"
)

func rat(t testing.TB, s string) *big.Rat {
	t.Helper()
	q, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad rational %q", s)
	}
	return q
}

// Everyday conversions (speeds, lengths, masses, pressures, energies, angles,
// offset temperatures) with their exact values: the float each must round to,
// and the exact decimal (or 34-digit rounding).
func TestSpecConversions(t *testing.T) {
	cases := []struct {
		value, from, to string
		float           float64
		decimal         string
		exact           bool
	}{
		{"100", "km/h", "m/s", 27.77777777777778, "27.77777777777777777777777777777778", false},
		{"1", "mile", "km", 1.609344, "1.609344", true},
		{"100", "degF", "degC", 37.77777777777778, "37.77777777777777777777777777777778", false},
		{"0", "degC", "kelvin", 273.15, "273.15", true},
		{"5", "lb", "kg", 2.26796185, "2.26796185", true},
		// 101325 Pa / (0.45359237·9.80665 N / 0.0254² m²) = 14.69594877551344872550347...
		{"1", "atm", "psi", 14.695948775513449, "14.69594877551344872550347215715473", false},
		{"1", "kWh", "J", 3600000, "3600000", true},
		// 1 turn = 2π rad and 1 degree = π/180 rad: π cancels exactly.
		{"1", "turn", "deg", 360, "360", true},
		{"-40", "degC", "degF", -40, "-40", true},
		{"0", "K", "degC", -273.15, "-273.15", true},
		{"1", "gallon", "L", 3.785411784, "3.785411784", true},
		{"1", "imperial_gallon", "L", 4.54609, "4.54609", true},
		{"1", "nautical_mile", "m", 1852, "1852", true},
		{"1", "inch", "cm", 2.54, "2.54", true},
		{"1", "KiB", "bit", 8192, "8192", true},
	}
	r := Default()
	for _, c := range cases {
		res, err := r.Convert(rat(t, c.value), c.from, c.to)
		if err != nil {
			t.Errorf("%s %s -> %s: %v", c.value, c.from, c.to, err)
			continue
		}
		f, ok := res.Float64()
		if !ok || f != c.float {
			t.Errorf("%s %s -> %s: got float %v, want %v", c.value, c.from, c.to, f, c.float)
		}
		d, exact := res.Decimal()
		if d != c.decimal || exact != c.exact {
			t.Errorf("%s %s -> %s: got %s (exact %v), want %s (exact %v)", c.value, c.from, c.to, d, exact, c.decimal, c.exact)
		}
	}
}

// Name resolution follows pint: exact keys first, then the first prefix/unit/
// plural split with no suffix tried before "s" and prefixes in file order.
func TestLookup(t *testing.T) {
	r := Default()
	cases := []struct{ name, prefix, unit string }{
		{"m", "", "meter"},
		{"mm", "milli", "meter"},
		{"km", "kilo", "meter"},
		{"kilometers", "kilo", "meter"},
		{"meters", "", "meter"},
		{"feet", "", "foot"},
		{"ms", "milli", "second"}, // not "meters"
		{"min", "", "minute"},     // exact key beats milli-inch
		{"kWh", "kilo", "watt_hour"},
		{"µm", "micro", "meter"}, // U+00B5 MICRO SIGN
		{"μm", "micro", "meter"}, // U+03BC GREEK SMALL LETTER MU
		{"um", "micro", "meter"},
		{"dam", "deca", "meter"},
		{"kt", "", "knot"},
		{"mmHg", "milli", "meter_Hg"},
		{"KiB", "kibi", "byte"},
		{"degC", "", "degree_Celsius"},
		{"delta_degF", "", "delta_degree_Fahrenheit"},
		{"Δcelsius", "", "delta_degree_Celsius"},
		{"psi", "", "pound_force_per_square_inch"},
		{"pt", "", "pint"},
		{"lbs", "", "pound"},
		{"B", "", "byte"},
		{"rads", "", "rads"},
		{"π", "", "pi"},
	}
	for _, c := range cases {
		p, u, ok := r.Lookup(c.name)
		if !ok {
			t.Errorf("%s: not found", c.name)
			continue
		}
		pn := ""
		if p != nil {
			pn = p.Name
		}
		if pn != c.prefix || u.Name != c.unit {
			t.Errorf("%s: got %s+%s, want %s+%s", c.name, pn, u.Name, c.prefix, c.unit)
		}
	}
	for _, bad := range []string{"KB", "Cal", "meterz", "ss", ""} {
		if _, u, ok := r.Lookup(bad); ok {
			t.Errorf("%q resolved to %s, want unknown", bad, u.Name)
		}
	}
}

func TestParseErrors(t *testing.T) {
	r := Default()
	cases := []struct {
		expr string
		want any
	}{
		{"m**", &SyntaxError{}},
		{"(m", &SyntaxError{}},
		{"m)", &SyntaxError{}},
		{"", &SyntaxError{}},
		{"   ", &SyntaxError{}},
		{"m $", &SyntaxError{}},
		{"m**x", &SyntaxError{}},
		{"m**(1/3)", &SyntaxError{}},
		{"m**129", &SyntaxError{}},
		{"per m", &SyntaxError{}},
		{strings.Repeat("(", 40) + "m" + strings.Repeat(")", 40), &SyntaxError{}},
		{"1e999999 m", &SyntaxError{}},
		{"1000 m", &ScaleError{}},
		{"-m", &ScaleError{}},
		{"foo", &UnknownUnitError{}},
		{"degC/m", &OffsetError{}},
		{"degC**2", &OffsetError{}},
		{"kdegC", &OffsetError{}},
		{"m*degF", &OffsetError{}},
		{"dB", &LogUnitError{}},
		{"m**128*m**128*m", &ExponentError{}},
		{"(m**128)**128", &ExponentError{}},
	}
	for _, c := range cases {
		_, err := r.Parse(c.expr)
		if err == nil {
			t.Errorf("%q: no error", c.expr)
			continue
		}
		ok := hasErrorType(err, c.want)
		if !ok {
			t.Errorf("%q: got %T %v, want %T", c.expr, err, err, c.want)
		}
	}
}

// A source expression carries its numbers, as pint's parse_expression reads the
// reference's from_unit; a bare number, an offset unit with a number and a
// number with no exact power are refused.
func TestParseQuantity(t *testing.T) {
	r := Default()
	for _, c := range []struct{ expr, want string }{
		{"1000 m", "1000"}, {"-m", "-1"}, {"2**3 m", "8"}, {"m/4", "1/4"}, {"1e3 m", "1000"}, {"0.5/s", "1/2"}, {"2*m*3", "6"},
	} {
		e, err := r.ParseQuantity(c.expr)
		if err != nil {
			t.Errorf("%q: %v", c.expr, err)
			continue
		}
		want, _ := new(big.Rat).SetString(c.want)
		if !e.F.IsRational() || e.F.Q.Cmp(want) != 0 {
			t.Errorf("%q: factor %v, want %s (in metres or hertz)", c.expr, e.F, c.want)
		}
	}
	if e, err := r.ParseQuantity("2**0.5 m"); err != nil || e.F.IsRational() || e.F.R.Cmp(big.NewRat(2, 1)) != 0 {
		t.Errorf("2**0.5 m: %v %v, want the exact root of 2", e.F, err)
	}
	for expr, want := range map[string]any{
		"3": &NumberError{}, "2 degC": &OffsetError{}, "(-2)**0.5 m": &NumberError{}, "0**-1 m": &NumberError{}, "1 m $": &SyntaxError{},
	} {
		_, err := r.ParseQuantity(expr)
		ok := hasErrorType(err, want)
		if !ok {
			t.Errorf("%q: got %T %v, want %T", expr, err, err, want)
		}
	}
}

// hasErrorType reports whether err's chain holds an error of want's type (want
// is a typed nil-valued pointer such as &SyntaxError{}).
func hasErrorType(err error, want any) bool {
	if err == nil {
		return false
	}
	return errors.As(err, reflect.New(reflect.TypeOf(want)).Interface())
}

func TestFactorTooLarge(t *testing.T) {
	// The atomic unit of intensity has a factor of several hundred bits; its
	// 128th power would exceed maxFactorBits and is refused before computing.
	_, err := Default().Parse("a_u_intensity**128")
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
}

func TestUnknownUnitHint(t *testing.T) {
	_, err := Default().Parse("imperial gallon")
	var u *UnknownUnitError
	if !errors.As(err, &u) || u.Token != "imperial" || len(u.Suggestions) == 0 || u.Suggestions[0] != "imperial_gallon" {
		t.Fatalf("got %v, want unknown imperial with hint imperial_gallon", err)
	}
}

// Equivalent spellings must give identical factors and dimensions.
func TestSpellings(t *testing.T) {
	groups := [][]string{
		{"m/s**2", "m/s^2", "m s^-2", "m·s⁻²", "m/s²", "meter / second ** 2", "m/(s*s)", "m/s/s", "meters per second squared"},
		{"m**2", "m^2", "m²", "square meter", "sq m", "meter squared", "(m)**2", "m*m"},
		{"ft**3", "cubic foot", "foot cubed", "ft³", "cu_ft", "cubic_feet"},
		{"kW*h", "kWh", "kilowatt hour", "kW h", "kW·h", "kilowatt_hour"},
		{"degC", "°C", "celsius", "degree_Celsius", "degreeC"},
		{"1/s", "s**-1", "Hz", "s⁻¹", "1 / second"},
		{"km/h", "kph", "kilometer_per_hour", "km per hour", "km h**-1", "kilometers/hour"},
		{"bit", "dimensionless", "1", "count", "rad"},
	}
	r := Default()
	for _, g := range groups {
		base, err := r.Parse(g[0])
		if err != nil {
			t.Fatalf("%q: %v", g[0], err)
		}
		for _, s := range g[1:] {
			e, err := r.Parse(s)
			if err != nil {
				t.Errorf("%q: %v", s, err)
				continue
			}
			if e.F.String() != base.F.String() || !e.D.Equal(base.D) {
				t.Errorf("%q = %s %s, want %s %s (as %q)", s, e.F, e.D, base.F, base.D, g[0])
			}
		}
	}
}

func TestFactorAlgebra(t *testing.T) {
	two := RatFactor(big.NewRat(2, 1))
	sq, err := two.Pow(1) // √2
	if err != nil {
		t.Fatal(err)
	}
	if sq.IsRational() {
		t.Fatalf("√2 reported rational: %s", sq)
	}
	back := sq.Mul(sq)
	if !back.IsRational() || back.Q.Cmp(big.NewRat(2, 1)) != 0 {
		t.Fatalf("√2·√2 = %s, want 2", back)
	}
	quarter, _ := RatFactor(big.NewRat(9, 4)).Pow(1)
	if !quarter.IsRational() || quarter.Q.Cmp(big.NewRat(3, 2)) != 0 {
		t.Fatalf("√(9/4) = %s, want 3/2", quarter)
	}
	piSq, _ := Pi().Pow(4)
	if piSq.H != 4 || piSq.Div(Pi()).Div(Pi()).String() != "1" {
		t.Fatalf("π²/π/π = %s", piSq.Div(Pi()).Div(Pi()))
	}
	if _, err := RatFactor(big.NewRat(-1, 1)).Pow(1); !errors.Is(err, ErrNegativeRoot) {
		t.Fatalf("√-1: got %v", err)
	}
	// π to 40 digits.
	got := Pi().Float(200).Text('f', 40)
	if want := "3.1415926535897932384626433832795028841972"; got != want {
		t.Fatalf("π = %s, want %s", got, want)
	}
}

func TestDims(t *testing.T) {
	cases := map[string]string{
		"m":        "[length]",
		"km/h":     "[length] / [time]",
		"psi":      "[mass] / [length] / [time] ** 2",
		"J":        "[length] ** 2 * [mass] / [time] ** 2",
		"Hz":       "1 / [time]",
		"rad":      "dimensionless",
		"franklin": "[length] ** 1.5 * [mass] ** 0.5 / [time]",
		"mol/L":    "[substance] / [length] ** 3",
		"A*s":      "[time] * [current]",
		"K":        "[temperature]",
	}
	for expr, want := range cases {
		e, err := Default().Parse(expr)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if got := e.D.String(); got != want {
			t.Errorf("%s: got %q, want %q", expr, got, want)
		}
	}
}

func TestFormatDecimal(t *testing.T) {
	cases := []struct {
		q, want string
		exact   bool
	}{
		{"0", "0", true},
		{"1/8", "0.125", true},
		{"-5/2", "-2.5", true},
		{"1000", "1000", true},
		{"1/3", "0.3333333333333333333333333333333333", false},
		{"2/3", "0.6666666666666666666666666666666667", false},
		{"1602176634/10000000000000000000000000000", "1.602176634e-19", true},
		{"9460730472580800", "9460730472580800", true},
		{"100000000000000000000", "100000000000000000000", true},
		{"1000000000000000000000", "1e+21", true},
		{"1/10000000", "0.0000001", true},
		{"1/100000000", "1e-08", true},
		{"299999999999999999999999999999999999/300000000000000000000000000000000000", "1", false},
	}
	for _, c := range cases {
		got, exact := DecimalString(rat(t, c.q))
		if got != c.want || exact != c.exact {
			t.Errorf("%s: got %s (%v), want %s (%v)", c.q, got, exact, c.want, c.exact)
		}
	}
}

// Python: format(x, '.10g') for these values.
func TestFormatG10(t *testing.T) {
	cases := map[float64]string{
		27.77777777777778:     "27.77777778",
		3600000:               "3600000",
		1e10:                  "1e+10",
		1234567890:            "1234567890",
		12345678901:           "1.23456789e+10",
		0.0001:                "0.0001",
		0.00001234:            "1.234e-05",
		1.616255024423705e-35: "1.616255024e-35",
		-40:                   "-40",
		0:                     "0",
		2.5:                   "2.5",
	}
	for x, want := range cases {
		if got := FormatG10(x); got != want {
			t.Errorf("%v: got %s, want %s", x, got, want)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	for in, want := range map[string]string{"100": "100", "-2.5": "-5/2", "1e-05": "1/100000", "0.1": "1/10", "1E+3": "1000", "-0.0": "0"} {
		q, err := ParseDecimal(in)
		if err != nil || q.RatString() != want {
			t.Errorf("%s: got %v %v, want %s", in, q, err, want)
		}
	}
	for _, bad := range []string{"", "-", "1e401", "1e-401", "abc", "1.2.3", "--1"} {
		if _, err := ParseDecimal(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// String must print a tree that parses back to the same tree.
func TestStringRoundTrip(t *testing.T) {
	for _, s := range []string{"km/h", "m/(s*s)", "kg*m**2/s**3", "(m**2)**3", "m**-1", "m**(3/2)", "a/(b/c)", "sq m per s", "m²·s⁻¹"} {
		n, err := Parse(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		out := String(n)
		n2, err := Parse(out)
		if err != nil {
			t.Fatalf("%q -> %q: %v", s, out, err)
		}
		if String(n2) != out {
			t.Errorf("%q -> %q -> %q", s, out, String(n2))
		}
	}
}

func TestUnknownUnitCaseHint(t *testing.T) {
	for token, want := range map[string]string{"Celsius": "celsius", "Kelvin": "kelvin", "Fahrenheit": "fahrenheit", "KM": "km", "Qxqxqxq": ""} {
		_, err := Default().Parse(token)
		var u *UnknownUnitError
		if !errors.As(err, &u) || u.Token != token || (want == "") != (len(u.Suggestions) == 0) || (want != "" && u.Suggestions[0] != want) {
			t.Errorf("%s: got %v, want hint %q", token, err, want)
		}
	}
}

// The registry and its shared factors are read by many calls at once.
func TestConcurrentConversions(t *testing.T) {
	r := Default()
	done := make(chan string, 8)
	for i := 0; i < 8; i++ {
		go func() {
			var got string
			for j := 0; j < 50; j++ {
				res, err := r.Convert(big.NewRat(1, 1), "planck_length*deg**2/km", "mm*rad**2/ft")
				if err != nil {
					done <- err.Error()
					return
				}
				got, _ = res.Decimal()
			}
			done <- got
		}()
	}
	first := <-done
	for i := 1; i < 8; i++ {
		if got := <-done; got != first {
			t.Fatalf("concurrent results differ: %s vs %s", got, first)
		}
	}
}
