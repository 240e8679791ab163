package advstats

import (
	"context"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
	"github.com/precisiond/precisiond/internal/exactdec"
)

// Interval is the two-sided Student-t confidence interval of the mean.
type Interval struct {
	Low, High, Mean, T Number
	DF                 int
	Confidence         string
}

// ParseConfidence reads the confidence level: a decimal in (0, 1) no closer
// than 10^-12 to either end (the t quantile's starting point is found in
// float64). Reasons: invalid_confidence, confidence_out_of_range.
func ParseConfidence(v any) (*big.Rat, error) {
	d, err := decimalArg(v)
	if err != nil {
		return nil, fail("invalid_confidence", "confidence is not a decimal number in (0, 1)")
	}
	r := d.Rat()
	lim := new(big.Rat).SetFrac(big.NewInt(1), bigx.Pow10(12))
	top := new(big.Rat).Sub(big.NewRat(1, 1), lim)
	if r.Cmp(lim) < 0 || r.Cmp(top) > 0 {
		return nil, fail("confidence_out_of_range", "confidence %s is outside [1e-12, 1 - 1e-12] (it must be strictly between 0 and 1)", exactdec.Plain(d))
	}
	return r, nil
}

// ConfidenceInterval is mean ± t·s/√n with t the (1+confidence)/2 quantile
// of Student's t with n-1 degrees of freedom and s the sample standard
// deviation. Reasons: too_few_points (n < 2), precision_exhausted.
func ConfidenceInterval(ctx context.Context, data []exactdec.Decimal, conf *big.Rat) (Interval, error) {
	n := int64(len(data))
	if n < 2 {
		return Interval{}, fail("too_few_points", "%d value; a confidence interval needs at least 2", n)
	}
	m, err := pairMoments(ctx, data, data)
	a := m.a
	if err != nil {
		return Interval{}, err
	}
	mean := new(big.Rat).SetFrac(m.sx, new(big.Int).Mul(big.NewInt(n), bigx.Pow10(a)))
	// (s/√n)² = sxx / (n²(n-1)·10^(2a))
	hd := new(big.Int).Mul(big.NewInt(n*n), big.NewInt(n-1))
	hd.Mul(hd, bigx.Pow10(2*a))
	half2 := new(big.Rat).SetFrac(m.sxx, hd)
	q := new(big.Rat).Quo(conf, big.NewRat(2, 1))
	out := Interval{Mean: ratNumber(mean), DF: int(n - 1), Confidence: ratPlain(conf)}
	for prec := uint(192); ; prec *= 2 {
		if prec > maxPrec {
			return Interval{}, fail("precision_exhausted", "an interval end is too close to a rounding boundary (or 0) to give %d certain digits", Digits)
		}
		t, tb, err := tQuantile(ctx, q, n-1, prec)
		if err != nil {
			return Interval{}, err
		}
		tn, ok := certified(t, tb)
		if !ok {
			continue
		}
		out.T = tn
		if half2.Sign() == 0 {
			out.Low, out.High = out.Mean, out.Mean
			return out, nil
		}
		// h = t·√half2; its relative error is below tb/t + 2^-(prec-4).
		wp := prec + 64
		h := new(big.Float).SetPrec(wp).SetRat(half2)
		h.Sqrt(h)
		h.Mul(h, t)
		rel := new(big.Float).SetPrec(64).Quo(tb, t)
		rel.Add(rel, new(big.Float).SetMantExp(big.NewFloat(1), -int(prec)+4))
		herr := new(big.Float).SetPrec(64).Mul(new(big.Float).Abs(h), rel)
		mf := new(big.Float).SetPrec(wp).SetRat(mean) // within 2^-wp relative
		merr := new(big.Float).SetPrec(64).SetMantExp(new(big.Float).Abs(mf), -int(wp)+1)
		herr.Add(herr, merr)
		lo := new(big.Float).SetPrec(wp).Sub(mf, h)
		hi := new(big.Float).SetPrec(wp).Add(mf, h)
		ln, ok1 := certified(lo, widen(herr, lo, wp))
		hn, ok2 := certified(hi, widen(herr, hi, wp))
		if ok1 && ok2 {
			out.Low, out.High = ln, hn
			return out, nil
		}
	}
}

// widen adds the rounding of the sum v (one ulp at precision wp) to err.
func widen(err, v *big.Float, wp uint) *big.Float {
	e := new(big.Float).SetPrec(64).SetMantExp(new(big.Float).Abs(v), -int(wp)+1)
	return e.Add(e, err)
}

// certified rounds x, known to lie within err of the true value, to Digits
// significant digits (half-even), when x-err and x+err round alike; the float
// is taken from x when both ends give the same float64 too.
func certified(x, err *big.Float) (Number, bool) {
	wp := x.Prec() + 64
	lo := new(big.Float).SetPrec(wp).Sub(x, err)
	hi := new(big.Float).SetPrec(wp).Add(x, err)
	if lo.Sign() != hi.Sign() || lo.Sign() == 0 {
		return Number{}, false
	}
	a, b := lo.Text('e', Digits-1), hi.Text('e', Digits-1)
	fa, _ := lo.Float64()
	fb, _ := hi.Float64()
	if a != b || fa != fb {
		return Number{}, false
	}
	return Number{Decimal: sciToFixed(a), Float: finite(fa)}, true
}

// sciToFixed turns big.Float's "-d.ddde±xx" into plain notation with every
// digit kept.
func sciToFixed(s string) string {
	mant, exp, _ := strings.Cut(s, "e")
	neg := strings.HasPrefix(mant, "-")
	digits := strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1)
	e := 0
	for i, c := range strings.TrimLeft(exp, "+-") {
		_ = i
		e = e*10 + int(c-'0')
	}
	if strings.HasPrefix(exp, "-") {
		e = -e
	}
	c, _ := new(big.Int).SetString(digits, 10)
	if neg {
		c.Neg(c)
	}
	return exactdec.Fixed(exactdec.Decimal{Coef: c, Exp: e - (len(digits) - 1)})
}
