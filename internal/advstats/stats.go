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

// scale returns the smallest s >= 0 with v·10^s integral for every value.
// The parse bounds (50 significant digits, |exponent| <= 100 as written) keep
// every scaled value below 10^(50+200); the scaled integers are made one at a
// time (scaledInto), never held all at once.
func scale(values []exactdec.Decimal) int {
	s := 0
	for _, v := range values {
		s = max(s, -v.Exp)
	}
	return s
}

// scaledInto sets dst to v·10^s (s >= -v.Exp) and returns it.
func scaledInto(dst *big.Int, v exactdec.Decimal, s int) *big.Int {
	return dst.Mul(v.Coef, bigx.Pow10(v.Exp+s))
}

// comparer orders decimals without making their common-scale integers: by
// sign, then by adjusted exponent, and only for equal adjusted exponents
// (coefficients of at most 50 digits) by an aligned product in a reused
// scratch integer.
type comparer struct {
	adj     []int
	scratch big.Int
}

func newComparer(values []exactdec.Decimal) *comparer {
	c := &comparer{adj: make([]int, len(values))}
	for i, v := range values {
		c.adj[i] = v.Adjusted()
	}
	return c
}

// cmp compares values[i] and values[j].
func (c *comparer) cmp(values []exactdec.Decimal, i, j int) int {
	a, b := values[i], values[j]
	sa, sb := a.Coef.Sign(), b.Coef.Sign()
	if sa != sb || sa == 0 {
		return sa - sb
	}
	if c.adj[i] != c.adj[j] {
		if (c.adj[i] > c.adj[j]) == (sa > 0) {
			return 1
		}
		return -1
	}
	switch {
	case a.Exp == b.Exp:
		return a.Coef.Cmp(b.Coef)
	case a.Exp > b.Exp:
		return c.scratch.Mul(a.Coef, bigx.Pow10(a.Exp-b.Exp)).Cmp(b.Coef)
	default:
		return -c.scratch.Mul(b.Coef, bigx.Pow10(b.Exp-a.Exp)).Cmp(a.Coef)
	}
}

// order returns the indices of values in ascending order (stable).
func order(values []exactdec.Decimal) []int {
	c := newComparer(values)
	idx := make([]int, len(values))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return c.cmp(values, i, j) })
	return idx
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
	idx := order(values)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sorted := func(i int64) *big.Rat { return values[idx[i]].Rat() }
	out := make([]Quantile, len(probs))
	for i, p := range probs {
		out[i] = Quantile{Probability: ratPlain(p), Value: ratNumber(quantile(len(values), sorted, p, method))}
	}
	return out, nil
}

// ratPlain renders a rational with a terminating expansion (a parsed
// decimal) in plain notation.
func ratPlain(r *big.Rat) string {
	d, _ := ratDecimal(r.Num(), r.Denom())
	return d
}

// quantile is numpy's method at probability p on n values, sorted(i) the
// i-th smallest (0-based).
func quantile(n int, sorted func(int64) *big.Rat, p *big.Rat, method string) *big.Rat {
	nr := new(big.Rat).SetInt64(int64(n))
	np := new(big.Rat).Mul(nr, p)
	at := func(i int64) *big.Rat { return sorted(max(0, min(int64(n-1), i))) }
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
