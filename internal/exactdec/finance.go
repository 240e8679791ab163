package exactdec

import (
	"errors"
	"fmt"

	"github.com/precisiond/precisiond/internal/refusal"
)

// Finance context, as the reference service configures Python's decimal module:
// prec=128, ROUND_HALF_EVEN, Emin=-999, Emax=999.
const (
	FinancePrec   = 128
	FinanceEmax   = 999
	FinanceEmin   = -999
	MaxAdjusted   = 256   // |adjusted exponent| of the calculation value (a zero's exponent)
	MaxYears      = 1000  // compound interest years
	MaxCompounds  = 365   // compounds per year
	MaxPeriods    = 10000 // years × compounds per year
	operandDigits = 72    // 48 integer + 24 fractional digits (the input pattern)
)

// DomainError is a refusal on domain grounds with a machine reason (see package
// refusal; these refusals are never Costly).
type DomainError = refusal.Error

var domainErr = refusal.Domain

// FinanceOperandCount is the number of operands each operation takes.
var FinanceOperandCount = map[string]int{
	"add": 2, "subtract": 2, "multiply": 2, "divide": 2, "percentage": 2,
	"simple_interest": 3, "compound_interest": 4,
}

// FinanceResult is the outcome of one decimal_finance calculation.
type FinanceResult struct {
	Value  Num    // the calculation value under FinanceContext
	Plain  string // Value in plain notation, trailing zeros removed, "0" for a zero of either sign
	Result string // Value quantized to scale places: exactly scale decimals, "-0.00" kept
}

// Finance evaluates operation on the operand strings under FinanceContext and
// quantizes the value to scale places with the named rounding, exactly as the
// reference service's decimal_finance does with Python's decimal module, in
// the same order of checks. Errors are *DomainError whose reasons are the
// reference's: unsupported_decimal_finance_operation, scale_out_of_range,
// unsupported_rounding_mode, <operation>_requires_<n>_operands,
// operands[<i>]_must_be_canonical_decimal_string, division_by_zero,
// years_must_be_non_negative, years_must_be_integer_0_to_1000,
// compounds_per_year_must_be_integer_1_to_365,
// compound_iteration_limit_exceeded, compound_base_must_be_non_negative,
// decimal_result_magnitude_exceeded, decimal_quantization_failed; and two the
// reference raises as bare decimal exceptions: zero_power_zero
// (InvalidOperation) and decimal_overflow (Overflow).
func Finance(operation string, operands []string, scale int, rounding string) (FinanceResult, error) {
	want, ok := FinanceOperandCount[operation]
	if !ok {
		return FinanceResult{}, domainErr("unsupported_decimal_finance_operation", "unknown operation %q", operation)
	}
	if scale < 0 || scale > 12 {
		return FinanceResult{}, domainErr("scale_out_of_range", "scale %d is outside 0..12", scale)
	}
	mode, ok := ParseRounding(rounding)
	if !ok {
		return FinanceResult{}, domainErr("unsupported_rounding_mode", "unknown rounding mode %q", rounding)
	}
	if len(operands) != want {
		return FinanceResult{}, domainErr(fmt.Sprintf("%s_requires_%d_operands", operation, want),
			"%s takes %d operands, got %d", operation, want, len(operands))
	}
	ops := make([]Num, len(operands))
	for i, s := range operands {
		d, err := ParseNum(s, operandDigits, 0)
		if err != nil || !canonicalOperand(s) {
			return FinanceResult{}, domainErr(fmt.Sprintf("operands[%d]_must_be_canonical_decimal_string", i),
				"operand %d is not a canonical decimal string (at most 48 integer and 24 fractional digits, no exponent)", i)
		}
		ops[i] = d
	}
	v, err := financeValue(operation, ops)
	if err != nil {
		return FinanceResult{}, err
	}
	if adj := v.Adjusted(); adj > MaxAdjusted || adj < -MaxAdjusted {
		what := "value"
		if v.IsZero() {
			what = "zero value's exponent" // Python judges a zero by its exponent
		}
		return FinanceResult{}, domainErr("decimal_result_magnitude_exceeded",
			"the calculation %s has adjusted exponent %d, outside ±%d", what, adj, MaxAdjusted)
	}
	q, err := v.Quantize(scale, mode, FinancePrec)
	if err != nil {
		return FinanceResult{}, domainErr("decimal_quantization_failed",
			"rounding the calculation value (adjusted exponent %d) to %d places needs more than %d digits", v.Adjusted(), scale, FinancePrec)
	}
	return FinanceResult{Value: v, Plain: Plain(v.Value()), Result: q.String()}, nil
}

// calc chains context operations and keeps the first error, so that a formula
// reads as the reference writes it; after an error every step returns a zero
// value that is never used.
type calc struct {
	ctx Context
	err error
}

func (k *calc) step(f func(Context, Num, Num) (Num, error), a, b Num) Num {
	if k.err != nil {
		return Num{}
	}
	v, err := f(k.ctx, a, b)
	k.err = err
	return v
}

func (k *calc) add(a, b Num) Num { return k.step(Context.Add, a, b) }
func (k *calc) sub(a, b Num) Num { return k.step(Context.Sub, a, b) }
func (k *calc) mul(a, b Num) Num { return k.step(Context.Mul, a, b) }
func (k *calc) quo(a, b Num) Num { return k.step(Context.Quo, a, b) }

// financeValue computes the calculation value, operation by operation as the
// reference writes it (left to right, each step rounded to the context).
func financeValue(operation string, ops []Num) (Num, error) {
	k := &calc{ctx: FinanceContext}
	one, hundred := NumFromInt64(1), NumFromInt64(100)
	var v Num
	switch operation {
	case "add":
		v = k.add(ops[0], ops[1])
	case "subtract":
		v = k.sub(ops[0], ops[1])
	case "multiply":
		v = k.mul(ops[0], ops[1])
	case "divide":
		if ops[1].IsZero() {
			return Num{}, domainErr("division_by_zero", "the divisor is zero")
		}
		v = k.quo(ops[0], ops[1])
	case "percentage":
		v = k.quo(k.mul(ops[0], ops[1]), hundred)
	case "simple_interest":
		if ops[2].Sign() < 0 {
			return Num{}, domainErr("years_must_be_non_negative", "years is negative")
		}
		v = k.mul(ops[0], k.add(one, k.quo(k.mul(ops[1], ops[2]), hundred)))
	case "compound_interest":
		years, n := ops[2], ops[3]
		if !years.IsInteger() || years.Sign() < 0 || years.Cmp(NumFromInt64(MaxYears)) > 0 {
			return Num{}, domainErr("years_must_be_integer_0_to_1000", "years must be a whole number from 0 to %d", MaxYears)
		}
		if !n.IsInteger() || n.Cmp(one) < 0 || n.Cmp(NumFromInt64(MaxCompounds)) > 0 {
			return Num{}, domainErr("compounds_per_year_must_be_integer_1_to_365", "compounds_per_year must be a whole number from 1 to %d", MaxCompounds)
		}
		periods := years.Value().Int().Int64() * n.Value().Int().Int64()
		if periods > MaxPeriods {
			return Num{}, domainErr("compound_iteration_limit_exceeded", "years × compounds_per_year = %d exceeds %d", periods, MaxPeriods)
		}
		base := k.add(one, k.quo(ops[1], k.mul(hundred, n)))
		if k.err == nil && base.Sign() < 0 {
			return Num{}, domainErr("compound_base_must_be_non_negative",
				"the growth base 1 + annual_percent/(100 × compounds_per_year) = %s is negative", Plain(base.Value()))
		}
		if k.err == nil {
			var g Num
			g, k.err = k.ctx.PowInt(base, periods)
			v = k.mul(ops[0], g)
		}
	}
	switch err := k.err; {
	case err == nil:
		return v, nil
	case errors.Is(err, ErrZeroPowerZero):
		return Num{}, domainErr("zero_power_zero", "the growth base 1 + annual_percent/(100 × compounds_per_year) is 0 and years × compounds_per_year is 0: 0 ** 0 is undefined")
	case errors.Is(err, ErrOverflow):
		return Num{}, domainErr("decimal_overflow", "an intermediate result exceeds the decimal exponent limit of %d", FinanceEmax)
	default:
		return Num{}, err
	}
}

// canonicalOperand checks the wire pattern ^-?(?:0|[1-9]\d{0,47})(?:\.\d{1,24})?$
// (the schema enforces it already; this keeps the function safe on its own).
func canonicalOperand(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intLen := i - start
	if intLen == 0 || intLen > 48 || (intLen > 1 && s[start] == '0') {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != '.' {
		return false
	}
	i++
	fs := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i == len(s) && i-fs >= 1 && i-fs <= 24
}
