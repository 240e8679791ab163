package units

import (
	"math/big"
	"testing"
)

var fuzzSeeds = []string{
	"km/h", "m/s**2", "m/s^2", "degC", "°F", "delta_degC", "lbf*ft", "kWh", "psi", "mmHg",
	"mile", "nautical_mile", "acre", "gallon", "imperial_gallon", "µm", "μm", "um", "m²", "m³",
	"s⁻¹", "kg·m²/s³", "N m", "J/kg K", "(m/s)**(1/2)", "m**0.5", "m**-1", "1/s", "square meter",
	"cubic foot", "meters per second squared", "sq ft", "%", "‰", "ppm", "dimensionless",
	"degC/m", "kdegC", "dB", "1000 m", "-m", "m**", "((((m))))", "m**2**2", "m**(2**3)",
	"a_u_intensity**128", "qm**128", "Å", "ångström", "ℓ", "Δcelsius", "R_∞", "ρH2O",
	"2**10", "1e-30", "m**+2", "m ** - 1", "m**(-3/2)", "m·s⁻²", "(", ")", "**", "",
	"m**128*m**128*m", "(m**128)**128", "planck_length/planck_time", "rad/s", "rpm", "KiB/s",
}

// FuzzParse checks the expression parser: it never panics, and whatever parses
// prints (String) to a form that parses back to the same print.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err != nil {
			return
		}
		out := String(n)
		n2, err := Parse(out)
		if err != nil {
			t.Fatalf("%q printed as %q which does not parse: %v", s, out, err)
		}
		if again := String(n2); again != out {
			t.Fatalf("%q: print %q reprints as %q", s, out, again)
		}
	})
}

// FuzzConvert runs whole conversions on arbitrary unit strings (up to the
// contract's 64 characters): never a panic, a hang or an unbounded result, and
// a unit converted to itself gives the value back.
func FuzzConvert(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "m")
	}
	f.Add("km/h", "mph")
	f.Add("degF", "K")
	f.Fuzz(func(t *testing.T, from, to string) {
		if len(from) > 64 || len(to) > 64 {
			return
		}
		r := Default()
		v := big.NewRat(3, 2)
		if res, err := r.Convert(v, from, to); err == nil {
			res.Decimal()
			res.Float64()
		}
		res, err := r.Convert(v, from, from)
		if err != nil {
			return
		}
		if res.Exact != nil && res.Exact.Cmp(v) != 0 {
			t.Fatalf("%q to itself: %s", from, res.Exact.RatString())
		}
		if res.Exact == nil {
			got, _ := res.Decimal()
			if got != "1.5" {
				t.Fatalf("%q to itself: %s", from, got)
			}
		}
	})
}

// FuzzParseQuantity checks source expressions with numbers (the reference's
// from_unit): never a panic or an unbounded factor, and an expression that
// Parse accepts as well (no number but 1) gets the same factor and dimensions
// from both.
func FuzzParseQuantity(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("2**3 m/4")
	f.Add("-0.5e3 km**2")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		r := Default()
		e, err := r.ParseQuantity(s)
		if err != nil {
			return
		}
		if e.F.Bits() > maxFactorBits {
			t.Fatalf("%q: factor of %d bits", s, e.F.Bits())
		}
		plain, err := r.Parse(s)
		if err != nil {
			return // the numbers are what Parse refuses
		}
		if plain.F.String() != e.F.String() || !plain.D.Equal(e.D) {
			t.Fatalf("%q without numbers: Parse %v %v, ParseQuantity %v %v", s, plain.F, plain.D, e.F, e.D)
		}
	})
}
