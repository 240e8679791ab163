package advstats

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/exactdec"
	"github.com/precisiond/precisiond/internal/exactstats"
)

// fuzzValues parses up to 40 comma-separated values; ok is false when one
// does not parse (a refusal, which is all the parser must give).
func fuzzValues(s string) ([]exactdec.Decimal, bool) {
	parts := strings.Split(s, ",")
	if len(parts) > 40 {
		parts = parts[:40]
	}
	var out []exactdec.Decimal
	for i, p := range parts {
		d, err := exactstats.ParseValue(strings.TrimSpace(p), i)
		if err != nil {
			return nil, false
		}
		out = append(out, d)
	}
	return out, true
}

// checkNumber: the fraction and the decimal agree (exactly, or to half an
// ulp of the 30th digit), and the float is finite.
func checkNumber(t *testing.T, what string, n Number) *big.Rat {
	t.Helper()
	if n.Float != nil && !floatOK(*n.Float) {
		t.Fatalf("%s: float %v", what, *n.Float)
	}
	d, err := exactdec.Parse(n.Decimal, 1000, 100000)
	if err != nil {
		t.Fatalf("%s: decimal %q does not parse: %v", what, n.Decimal, err)
	}
	if n.Fraction == nil {
		if n.Exact {
			t.Fatalf("%s: exact without a fraction", what)
		}
		return d.Rat()
	}
	r, ok := new(big.Rat).SetString(*n.Fraction)
	if !ok {
		t.Fatalf("%s: fraction %q", what, *n.Fraction)
	}
	if n.Exact && d.Rat().Cmp(r) != 0 {
		t.Fatalf("%s: exact decimal %s is not %s", what, n.Decimal, *n.Fraction)
	}
	if !n.Exact {
		ulp := exactdec.Decimal{Coef: big.NewInt(1), Exp: d.Adjusted() - Digits}.Rat() // a tenth of the 30th digit's unit
		diff := new(big.Rat).Sub(d.Rat(), r)
		if diff.Abs(diff).Cmp(new(big.Rat).Mul(ulp, big.NewRat(6, 1))) > 0 {
			t.Fatalf("%s: decimal %s is more than half an ulp from %s", what, n.Decimal, *n.Fraction)
		}
	}
	return r
}

// FuzzProbabilityConfidence: the argument parsers never panic, and what they
// accept is in range.
func FuzzProbabilityConfidence(f *testing.F) {
	for _, s := range []string{"0", "1", "0.5", "1.0000", "-0", "1e-1", ".5", "5.", "1e-101", "0.9999999999999", "nan", "+0.25", " 0.5", "0x1p-1", "１"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p, err := ParseProbability(s, 0); err == nil && (p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0) {
			t.Fatalf("probability %q accepted as %v", s, p)
		}
		if c, err := ParseConfidence(s); err == nil && (c.Sign() <= 0 || c.Cmp(big.NewRat(1, 1)) >= 0) {
			t.Fatalf("confidence %q accepted as %v", s, c)
		}
	})
}

// FuzzQuantiles: every method's quantile lies between the smallest and the
// largest value, the discontinuous methods answer a data value, quantiles
// do not decrease with p, and the number's forms agree.
func FuzzQuantiles(f *testing.F) {
	f.Add("1,2,3,4,10", "0.9", uint8(6))
	f.Add("3,1,2,2,2,5,5,1", "0.375", uint8(2))
	f.Add("1e100,-1e-100,0", "0.5", uint8(4))
	f.Add("7.25", "0", uint8(8))
	f.Fuzz(func(t *testing.T, data, prob string, m uint8) {
		values, ok := fuzzValues(data)
		if !ok {
			return
		}
		p, err := ParseProbability(prob, 0)
		if err != nil {
			return
		}
		method := Methods[int(m)%len(Methods)]
		probs := []*big.Rat{big.NewRat(0, 1), p, big.NewRat(1, 1)}
		qs, err := Quantiles(context.Background(), values, probs, method)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := values[0].Rat(), values[0].Rat()
		for _, v := range values {
			lo, hi = minRat(lo, v.Rat()), maxRat(hi, v.Rat())
		}
		var prev *big.Rat
		for i, q := range qs {
			r := checkNumber(t, method, q.Value)
			if r.Cmp(lo) < 0 || r.Cmp(hi) > 0 {
				t.Fatalf("%s q(%v) = %v outside [%v, %v]", method, probs[i], r, lo, hi)
			}
			if prev != nil && r.Cmp(prev) < 0 {
				t.Fatalf("%s: q(%v) = %v below the previous %v", method, probs[i], r, prev)
			}
			prev = r
			if method == "inverted_cdf" || method == "closest_observation" {
				found := false
				for _, v := range values {
					found = found || v.Rat().Cmp(r) == 0
				}
				if !found {
					t.Fatalf("%s: %v is not a data value", method, r)
				}
			}
		}
	})
}

// FuzzPairs: |r| <= 1 for every correlation method, 0 <= r² <= 1, and the
// regression line passes through the means.
func FuzzPairs(f *testing.F) {
	f.Add("1,2,3,4", "2,4.1,5.9,8.2")
	f.Add("1,2,2,3,3,3", "1,1,2,2,3,3")
	f.Add("1e-90,2e-90,3e-90", "1e90,-2e90,7e90")
	f.Fuzz(func(t *testing.T, xs, ys string) {
		x, ok1 := fuzzValues(xs)
		y, ok2 := fuzzValues(ys)
		if !ok1 || !ok2 || len(x) != len(y) {
			return
		}
		ctx := context.Background()
		one := big.NewRat(1, 1)
		for _, m := range CorrelationMethods {
			c, err := Correlation(ctx, x, y, m)
			if err != nil {
				continue
			}
			r := checkNumber(t, m, c)
			if new(big.Rat).Abs(r).Cmp(new(big.Rat).Add(one, big.NewRat(1, 1_000_000_000))) > 0 {
				t.Fatalf("%s: |r| = %v > 1", m, r)
			}
		}
		reg, err := LinearRegression(ctx, x, y)
		if err != nil {
			return
		}
		slope, icpt := checkNumber(t, "slope", reg.Slope), checkNumber(t, "intercept", reg.Intercept)
		if reg.RSquared != nil {
			r2 := checkNumber(t, "r_squared", *reg.RSquared)
			if r2.Sign() < 0 || r2.Cmp(one) > 0 {
				t.Fatalf("r² = %v", r2)
			}
		}
		if reg.Stderr != nil {
			checkNumber(t, "stderr", *reg.Stderr)
		}
		sx, sy := new(big.Rat), new(big.Rat)
		for i := range x {
			sx.Add(sx, x[i].Rat())
			sy.Add(sy, y[i].Rat())
		}
		n := new(big.Rat).SetInt64(int64(len(x)))
		at := new(big.Rat).Mul(slope, new(big.Rat).Quo(sx, n))
		if at.Add(at, icpt).Cmp(new(big.Rat).Quo(sy, n)) != 0 {
			t.Fatal("the line misses the means")
		}
	})
}

// FuzzInterval: low <= mean <= high and t > 0 for small samples.
func FuzzInterval(f *testing.F) {
	f.Add("1,2,3,4,5", "0.95")
	f.Add("1,2", "0.99")
	f.Add("2.5,2.5", "0.5")
	f.Fuzz(func(t *testing.T, data, conf string) {
		values, ok := fuzzValues(data)
		if !ok || len(values) > 12 {
			return
		}
		c, err := ParseConfidence(conf)
		if err != nil {
			return
		}
		iv, err := ConfidenceInterval(context.Background(), values, c)
		if err != nil {
			return // too_few_points, precision_exhausted: typed refusals
		}
		lo, mean, hi := checkNumber(t, "low", iv.Low), checkNumber(t, "mean", iv.Mean), checkNumber(t, "high", iv.High)
		if lo.Cmp(mean) > 0 || mean.Cmp(hi) > 0 || iv.T.Float == nil || *iv.T.Float <= 0 {
			t.Fatalf("low %v, mean %v, high %v, t %v", lo, mean, hi, iv.T.Float)
		}
	})
}

func minRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func maxRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}
