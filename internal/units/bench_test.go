package units

import (
	"math/big"
	"testing"
)

// BenchmarkConvertSmall is the common case: a short rational conversion.
func BenchmarkConvertSmall(b *testing.B) {
	r := Default()
	v := big.NewRat(100, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Convert(v, "km/h", "m/s"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConvertLarge uses 64-character expressions with prefixes, powers,
// a square root and π, and renders the 34-digit result.
func BenchmarkConvertLarge(b *testing.B) {
	r := Default()
	v := big.NewRat(123456789, 1000)
	from := "planck_mass*(nmi/h)**2*kWh**(3/2)/(µs**-1*Btu*sr)"
	to := "kg*(ft/min)**2*J**(3/2)/(Hz*cal)*deg**-2"
	if len(from) > 64 || len(to) > 64 {
		b.Fatalf("expressions longer than the contract's 64 characters: %d %d", len(from), len(to))
	}
	if _, err := r.Convert(v, from, to); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := r.Convert(v, from, to)
		if err != nil {
			b.Fatal(err)
		}
		res.Decimal()
		res.Float64()
	}
}

// BenchmarkConvertHugeExponent is the cost-limit path: the largest powers the
// limits allow.
func BenchmarkConvertHugeExponent(b *testing.B) {
	r := Default()
	v := big.NewRat(1, 1)
	b.ReportAllocs()
	for b.Loop() {
		res, err := r.Convert(v, "qm**128*Qs**128", "ym**128*Ys**128")
		if err != nil {
			b.Fatal(err)
		}
		res.Decimal()
	}
}
