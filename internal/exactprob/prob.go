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

// Output is the exact result: ProbNum/ProbDen echo the numerator and
// denominator as given (nil when absent), Result is reduced, Decimal is the
// rounded decimal when both scale and rounding were given.
type Output struct {
	ProbNum, ProbDen *big.Int
	ResultNum        *big.Int
	ResultDen        *big.Int
	Decimal          *string
}

// Compute evaluates the request with the reference service's checks, in its
// order, and its reasons (all domain refusals, tool_execution_error):
// unsupported_probability_operation, fraction_requires_numerator_and_denominator,
// denominator_must_not_be_zero, <operation>_requires_n_and_k, n_out_of_range,
// k_must_be_between_zero_and_n (also for combination and permutation),
// binomial_requires_positive_probability_denominator (numerator or denominator
// missing, or denominator <= 0), probability_must_be_between_zero_and_one,
// probability_cost_limit_exceeded (bitlen(denominator as given)·n + n > 65536,
// checked before computing), probability_result_bit_limit_exceeded,
// probability_result_digit_limit_exceeded (more than 4300 digits, where the
// reference stops at Python's int-to-str limit), then the decimal options:
// decimal_scale_and_rounding_must_be_supplied_together,
// decimal_scale_out_of_range, unsupported_rounding_mode. Operands over 65536
// bits are refused before any arithmetic as operand_too_large (cost); JSON
// requests never carry them (integers are limited to 4300 digits).
func Compute(in Input) (Output, error) {
	var out Output
	switch in.Operation {
	case "fraction", "combination", "permutation", "binomial_probability":
	default:
		return out, fail("unsupported_probability_operation", "unknown operation %q", in.Operation)
	}
	var err error
	if in.Numerator != nil {
		if out.ProbNum, err = parseInt(*in.Numerator, "numerator"); err != nil {
			return out, err
		}
	}
	if in.Denominator != nil {
		if out.ProbDen, err = parseInt(*in.Denominator, "denominator"); err != nil {
			return out, err
		}
	}
	num, den := out.ProbNum, out.ProbDen
	var result *big.Rat
	if in.Operation == "fraction" {
		if num == nil || den == nil {
			return out, fail("fraction_requires_numerator_and_denominator", "fraction needs numerator and denominator")
		}
		if den.Sign() == 0 {
			return out, fail("denominator_must_not_be_zero", "the denominator is zero")
		}
		result = new(big.Rat).SetFrac(num, den)
	} else {
		if in.N == nil || in.K == nil {
			return out, fail(in.Operation+"_requires_n_and_k", "%s needs n and k", in.Operation)
		}
		n, k := *in.N, *in.K
		if n < 0 || n > MaxN {
			return out, fail("n_out_of_range", "n = %d is outside 0..%d", n, MaxN)
		}
		if k < 0 || k > n {
			return out, fail("k_must_be_between_zero_and_n", "k = %d is outside 0..n (n = %d)", k, n)
		}
		switch in.Operation {
		case "combination":
			result = new(big.Rat).SetInt(Comb(n, k))
		case "permutation":
			result = new(big.Rat).SetInt(Perm(n, k))
		default:
			if num == nil || den == nil || den.Sign() <= 0 {
				return out, fail("binomial_requires_positive_probability_denominator",
					"binomial_probability needs numerator and a denominator > 0 for p = numerator/denominator")
			}
			p := new(big.Rat).SetFrac(num, den)
			if p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
				return out, fail("probability_must_be_between_zero_and_one", "p = %s is outside [0, 1]", p.RatString())
			}
			// The estimate uses the denominator as given (not reduced), as the
			// reference does: 2/4 costs more than 1/2.
			if cost := int64(max(1, den.BitLen()))*n + n; cost > MaxBits {
				return out, fail("probability_cost_limit_exceeded",
					"bitlen(denominator)·n + n = %d exceeds %d (the cost estimate uses the denominator as given)", cost, MaxBits)
			}
			result = Binomial(n, k, p)
		}
	}
	if result.Num().BitLen() > MaxBits || result.Denom().BitLen() > MaxBits {
		return out, fail("probability_result_bit_limit_exceeded", "the result needs more than %d bits", MaxBits)
	}
	if exactdec.NumDigits(result.Num()) > MaxDigits || exactdec.NumDigits(result.Denom()) > MaxDigits {
		return out, fail("probability_result_digit_limit_exceeded",
			"the result has more than %d decimal digits, the limit of a JSON integer", MaxDigits)
	}
	out.ResultNum, out.ResultDen = result.Num(), result.Denom()
	if out.Decimal, err = project(result, in.Scale, in.Rounding); err != nil {
		return out, err
	}
	return out, nil
}

// project returns the result rounded once to scale places with the rounding
// (nil when neither is given). A negative result that rounds to zero keeps its
// minus sign ("-0.00"), as Python's Decimal.quantize keeps it.
func project(r *big.Rat, scale *int64, rounding *string) (*string, error) {
	if scale == nil && rounding == nil {
		return nil, nil
	}
	if scale == nil || rounding == nil {
		return nil, fail("decimal_scale_and_rounding_must_be_supplied_together", "decimal_scale and rounding must be given together (or both null)")
	}
	if *scale < 0 || *scale > MaxScale {
		return nil, fail("decimal_scale_out_of_range", "decimal_scale %d is outside 0..%d", *scale, MaxScale)
	}
	mode, ok := exactdec.ParseRounding(*rounding)
	if !ok {
		return nil, fail("unsupported_rounding_mode", "unknown rounding mode %q", *rounding)
	}
	q, _ := exactdec.RoundRat(r.Num(), r.Denom(), int(*scale), mode)
	s := exactdec.Fixed(q)
	if r.Sign() < 0 && q.IsZero() {
		s = "-" + s
	}
	return &s, nil
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
		return nil, fail(name+"_must_be_integer", "%s is not an integer", name)
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
