// Package exactprob computes exact fractions, binomial coefficients, permutation
// counts and binomial probabilities with big rationals, with the cost guards of the
// exact_probability contract checked before any expensive work.
package exactprob

import (
	"math/big"

	"github.com/precisiond/precisiond/internal/exactdec"
	"github.com/precisiond/precisiond/internal/refusal"
)

// Limits of the exact_probability contract.
const (
	MaxN     = 4096  // n and k
	MaxBits  = 65536 // result numerator/denominator, operands, bitlen(den)·n+n
	MaxScale = 18    // decimal_scale
	// MaxDigits bounds every integer in the facts: JSON integers are limited to
	// 4300 digits (Python's int/str conversion limit, enforced by the envelope too).
	MaxDigits     = 4300
	maxOperandLen = 19730 // decimal digits of a 65536-bit integer, plus a sign
)

// Error is a refusal of the input (see package refusal): Costly marks a
// cost-limit refusal rather than a domain refusal.
type Error = refusal.Error

var (
	fail   = refusal.Domain
	costly = refusal.Cost
)

// Input is one request; nil means the argument was null or absent.
type Input struct {
	Operation   string
	N, K        *int64
	Numerator   *string // integer in decimal, kept as text until its size is checked
	Denominator *string
	Scale       *int64
	Rounding    *string
}

// Output is the exact result: Probability is the reduced p (fraction and
// binomial_probability only), Result the reduced result, Decimal the rounded
// decimal when both scale and rounding were given.
type Output struct {
	ProbNum, ProbDen *big.Int
	ResultNum        *big.Int
	ResultDen        *big.Int
	Decimal          *string
}

// Compute evaluates the request. Errors are *Error with reasons
// missing_argument, division_by_zero, probability_out_of_range,
// incomplete_decimal_options, unknown_rounding, unknown_operation (domain) and
// operand_too_large, binomial_too_large, result_too_large (cost).
func Compute(in Input) (Output, error) {
	var out Output
	if (in.Scale == nil) != (in.Rounding == nil) {
		return out, fail("incomplete_decimal_options", "decimal_scale and rounding must be given together (or both null)")
	}
	var mode exactdec.Rounding
	if in.Rounding != nil {
		m, ok := exactdec.ParseRounding(*in.Rounding)
		if !ok {
			return out, fail("unknown_rounding", "unknown rounding mode")
		}
		mode = m
	}
	needNK := func() error {
		if in.N == nil || in.K == nil {
			return fail("missing_argument", "%s needs n and k", in.Operation)
		}
		return nil
	}
	needFrac := func() (*big.Rat, error) {
		if in.Numerator == nil || in.Denominator == nil {
			return nil, fail("missing_argument", "%s needs numerator and denominator", in.Operation)
		}
		num, err := parseInt(*in.Numerator, "numerator")
		if err != nil {
			return nil, err
		}
		den, err := parseInt(*in.Denominator, "denominator")
		if err != nil {
			return nil, err
		}
		if den.Sign() == 0 {
			return nil, fail("division_by_zero", "denominator is zero")
		}
		return new(big.Rat).SetFrac(num, den), nil
	}

	var result *big.Rat
	switch in.Operation {
	case "fraction":
		p, err := needFrac()
		if err != nil {
			return out, err
		}
		out.ProbNum, out.ProbDen = p.Num(), p.Denom()
		result = p
	case "combination", "permutation":
		if err := needNK(); err != nil {
			return out, err
		}
		var v *big.Int
		if in.Operation == "combination" {
			v = Comb(*in.N, *in.K)
		} else {
			v = Perm(*in.N, *in.K)
		}
		result = new(big.Rat).SetInt(v)
	case "binomial_probability":
		if err := needNK(); err != nil {
			return out, err
		}
		p, err := needFrac()
		if err != nil {
			return out, err
		}
		if p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
			return out, fail("probability_out_of_range", "p = numerator/denominator must be in [0, 1]")
		}
		n, k := *in.N, *in.K
		if int64(p.Denom().BitLen())*n+n > MaxBits {
			return out, costly("binomial_too_large", "bitlen(denominator)·n + n = %d exceeds %d", int64(p.Denom().BitLen())*n+n, MaxBits)
		}
		out.ProbNum, out.ProbDen = p.Num(), p.Denom()
		result = Binomial(n, k, p)
	default:
		return out, fail("unknown_operation", "unknown operation %q", in.Operation)
	}
	if result.Num().BitLen() > MaxBits || result.Denom().BitLen() > MaxBits {
		return out, costly("result_too_large", "the result needs more than %d bits", MaxBits)
	}
	if exactdec.NumDigits(result.Num()) > MaxDigits || exactdec.NumDigits(result.Denom()) > MaxDigits {
		return out, costly("result_too_large", "the result has more than %d decimal digits", MaxDigits)
	}
	out.ResultNum, out.ResultDen = result.Num(), result.Denom()
	if in.Scale != nil {
		q, _ := exactdec.RoundRat(result.Num(), result.Denom(), int(*in.Scale), mode)
		s := exactdec.Fixed(q)
		out.Decimal = &s
	}
	return out, nil
}

// parseInt reads an integer written as JSON may write it (also 3.0 or 3e2, which
// JSON Schema counts as integers), refusing anything over MaxBits before the
// big-number conversion.
func parseInt(s, name string) (*big.Int, error) {
	if len(s) > maxOperandLen {
		return nil, costly("operand_too_large", "%s has more than %d bits", name, MaxBits)
	}
	d, err := exactdec.Parse(s, maxOperandLen, maxOperandLen)
	if err == exactdec.ErrRange || (err == nil && d.Adjusted() > maxOperandLen) {
		return nil, costly("operand_too_large", "%s has more than %d bits", name, MaxBits)
	}
	if err != nil || !d.IsInteger() {
		return nil, fail("invalid_integer", "%s is not an integer", name)
	}
	v := d.Int()
	if v.BitLen() > MaxBits {
		return nil, costly("operand_too_large", "%s has more than %d bits", name, MaxBits)
	}
	return v, nil
}

// Comb returns C(n, k) (0 when k > n), as Python's math.comb.
func Comb(n, k int64) *big.Int {
	if k > n {
		return new(big.Int)
	}
	return new(big.Int).Binomial(n, k)
}

// Perm returns n!/(n-k)! (0 when k > n), as Python's math.perm.
func Perm(n, k int64) *big.Int {
	if k > n {
		return new(big.Int)
	}
	if k == 0 {
		return big.NewInt(1)
	}
	return new(big.Int).MulRange(n-k+1, n)
}

// Binomial returns C(n,k)·p^k·(1-p)^(n-k) exactly (0 when k > n).
func Binomial(n, k int64, p *big.Rat) *big.Rat {
	if k > n {
		return new(big.Rat)
	}
	a, b := p.Num(), p.Denom()
	num := Comb(n, k)
	num.Mul(num, new(big.Int).Exp(a, big.NewInt(k), nil))
	num.Mul(num, new(big.Int).Exp(new(big.Int).Sub(b, a), big.NewInt(n-k), nil))
	den := new(big.Int).Exp(b, big.NewInt(n), nil)
	return new(big.Rat).SetFrac(num, den)
}
