package advstats

import (
	"context"
	"math/big"
	"slices"

	"github.com/precisiond/precisiond/internal/bigx"
	"github.com/precisiond/precisiond/internal/exactdec"
	"github.com/precisiond/precisiond/internal/exactstats"
)

// MaxValues is the most values of data, x or y (exactstats' limit).
const MaxValues = exactstats.MaxValues

// MaxProbabilities bounds the probabilities of one quantiles call.
const MaxProbabilities = 1000

// Methods lists numpy's nine quantile methods in the order of its documentation.
var Methods = []string{"inverted_cdf", "averaged_inverted_cdf", "closest_observation",
	"interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased"}

// ParseData reads data, x or y (a JSON array of numbers and decimal strings)
// with exactstats' value syntax and bounds. Reasons: empty_data,
// invalid_number, non_finite_value, value_out_of_range; too_many_values
// (cost). The message names the argument.
func ParseData(ctx context.Context, name string, list []any) ([]exactdec.Decimal, error) {
	v, err := exactstats.ParseList(ctx, list)
	if e, ok := err.(*exactstats.Error); ok {
		c := *e
		c.Message = name + ": " + c.Message
		return nil, &c
	}
	return v, err
}

// scaled returns the values as integers X_i = v_i·10^s with the smallest
// s >= 0 that makes all of them integral. The parse bounds (50 significant
// digits, |exponent| <= 100 as written) keep every X_i below 10^(50+200).
func scaled(values []exactdec.Decimal) ([]*big.Int, int) {
	s := 0
	for _, v := range values {
		s = max(s, -v.Exp)
	}
	xs := make([]*big.Int, len(values))
	for i, v := range values {
		xs[i] = new(big.Int).Mul(v.Coef, bigx.Pow10(v.Exp+s))
	}
	return xs, s
}

// ParseProbability reads a probability in [0, 1]: reasons invalid_probability
// (not a decimal number) and probability_out_of_range.
func ParseProbability(v any, index int) (*big.Rat, error) {
	d, err := decimalArg(v)
	if err != nil {
		return nil, fail("invalid_probability", "probability %d is not a decimal number in [0, 1]", index)
	}
	r := d.Rat()
	if r.Sign() < 0 || r.Cmp(big.NewRat(1, 1)) > 0 {
		return nil, fail("probability_out_of_range", "probability %d (%s) is outside [0, 1]", index, exactdec.Plain(d))
	}
	return r, nil
}

// decimalArg reads a JSON number (json.Number) or decimal string with the
// data values' syntax and bounds.
func decimalArg(v any) (exactdec.Decimal, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case interface{ String() string }: // json.Number
		s = x.String()
	default:
		return exactdec.Decimal{}, exactdec.ErrSyntax
	}
	return exactstats.ParseValue(s, 0)
}

// Quantile is one probability's answer.
type Quantile struct {
	Probability string // the probability as a plain decimal
	Value       Number
}

// Quantiles computes the quantiles of values at probs with numpy 2.x's method
// (its definitions in exact arithmetic: the virtual index is computed from the
// exact probability, where numpy uses float64). Reasons: unknown_method.
func Quantiles(ctx context.Context, values []exactdec.Decimal, probs []*big.Rat, method string) ([]Quantile, error) {
	if !slices.Contains(Methods, method) {
		return nil, fail("unknown_method", "unknown quantile method %q", method)
	}
	xs, s := scaled(values)
	slices.SortFunc(xs, func(a, b *big.Int) int { return a.Cmp(b) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	den := new(big.Rat).SetInt(bigx.Pow10(s))
	out := make([]Quantile, len(probs))
	for i, p := range probs {
		v := quantile(xs, p, method)
		v.Quo(v, den)
		out[i] = Quantile{Probability: ratPlain(p), Value: ratNumber(v)}
	}
	return out, nil
}

// ratPlain renders a rational with a terminating expansion (a parsed
// decimal) in plain notation.
func ratPlain(r *big.Rat) string {
	d, _ := ratDecimal(r.Num(), r.Denom())
	return d
}

// quantile is numpy's method on the sorted integers xs at probability p.
func quantile(xs []*big.Int, p *big.Rat, method string) *big.Rat {
	n := len(xs)
	nr := new(big.Rat).SetInt64(int64(n))
	np := new(big.Rat).Mul(nr, p)
	at := func(i int64) *big.Rat { return new(big.Rat).SetInt(xs[max(0, min(int64(n-1), i))]) }
	switch method {
	case "inverted_cdf", "closest_observation":
		// numpy's _discrete_interpolation_to_boundaries: index = n·p - 1
		// (closest_observation: n·p - 1.5); take floor(index) when the
		// condition holds, else floor(index) + 1; negative indices are 0.
		idx := new(big.Rat).Sub(np, big.NewRat(1, 1))
		if method == "closest_observation" {
			idx.Sub(idx, big.NewRat(1, 2))
		}
		fl, frac := floorRat(idx)
		var take bool
		if method == "inverted_cdf" {
			take = frac.Sign() == 0
		} else { // numpy >= 2.0.1: g == 0 and floor(index) odd
			take = frac.Sign() == 0 && fl.Bit(0) == 1
		}
		j := new(big.Int).Set(fl)
		if !take {
			j.Add(j, big.NewInt(1))
		}
		return at(clampIndex(j, n))
	}
	// Continuous methods: virtual index v; outside [0, n-1] the end values.
	var v *big.Rat
	if method == "averaged_inverted_cdf" {
		v = new(big.Rat).Sub(np, big.NewRat(1, 1))
	} else {
		a := map[string]*big.Rat{
			"interpolated_inverted_cdf": big.NewRat(0, 1), "hazen": big.NewRat(1, 2),
			"weibull": big.NewRat(0, 1), "linear": big.NewRat(1, 1),
			"median_unbiased": big.NewRat(1, 3), "normal_unbiased": big.NewRat(3, 8),
		}[method]
		b := a
		if method == "interpolated_inverted_cdf" {
			b = big.NewRat(1, 1)
		}
		// v = n·p + alpha + p·(1 - alpha - beta) - 1
		t := new(big.Rat).Sub(big.NewRat(1, 1), a)
		t.Sub(t, b)
		t.Mul(t, p)
		v = new(big.Rat).Add(np, a)
		v.Add(v, t)
		v.Sub(v, big.NewRat(1, 1))
	}
	if v.Sign() < 0 {
		return at(0)
	}
	if v.Cmp(new(big.Rat).SetInt64(int64(n-1))) >= 0 {
		return at(int64(n - 1))
	}
	fl, g := floorRat(v)
	if method == "averaged_inverted_cdf" {
		if g.Sign() == 0 {
			g = big.NewRat(1, 2)
		} else {
			g = big.NewRat(1, 1)
		}
	}
	i := fl.Int64()
	lo, hi := at(i), at(i+1)
	d := new(big.Rat).Sub(hi, lo)
	d.Mul(d, g)
	return d.Add(d, lo)
}

// floorRat returns floor(r) and r - floor(r).
func floorRat(r *big.Rat) (*big.Int, *big.Rat) {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	return q, new(big.Rat).SetFrac(m, r.Denom())
}

func clampIndex(j *big.Int, n int) int64 {
	if j.Sign() < 0 {
		return 0
	}
	if !j.IsInt64() || j.Int64() > int64(n-1) {
		return int64(n - 1)
	}
	return j.Int64()
}
