package exactdec

import (
	"math/big"

	"github.com/precisiond/precisiond/internal/refusal"
)

// Finance context, as the reference service configures Python's decimal module:
// prec=128, ROUND_HALF_EVEN, Emin=-999, Emax=999.
const (
	FinancePrec   = 128
	FinanceEmax   = 999
	FinanceEmin   = -999
	MaxAdjusted   = 256   // |adjusted exponent| of a non-zero calculation value
	MaxYears      = 1000  // compound (and simple) interest years
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
	Value  Decimal // the calculation value under the 128-digit context
	Plain  string  // Value in plain notation, trailing zeros removed, "0" for zero
	Result string  // Value rounded to scale places, exactly scale digits
}

// Finance evaluates operation on the operand strings under the 128-digit
// half-even context and rounds the value to scale places with mode r. Errors are
// *DomainError with reasons: operand_count, invalid_operand, unknown_operation,
// division_by_zero, zero_power_zero, exponent_out_of_range, years_out_of_range,
// years_not_integer, compounds_per_year_out_of_range,
// compounds_per_year_not_integer, periods_out_of_range.
func Finance(operation string, operands []string, scale int, r Rounding) (FinanceResult, error) {
	want, ok := FinanceOperandCount[operation]
	if !ok {
		return FinanceResult{}, domainErr("unknown_operation", "unknown operation %q", operation)
	}
	if len(operands) != want {
		return FinanceResult{}, domainErr("operand_count", "%s takes %d operands, got %d", operation, want, len(operands))
	}
	ops := make([]Decimal, len(operands))
	for i, s := range operands {
		d, err := Parse(s, operandDigits, 0)
		if err != nil || !canonicalOperand(s) {
			return FinanceResult{}, domainErr("invalid_operand", "operand %d is not a canonical decimal string", i)
		}
		ops[i] = d
	}
	ctx := Context{Prec: FinancePrec, Rounding: HalfEven}
	hundred := FromInt64(100)
	var v Decimal
	switch operation {
	case "add":
		v = ctx.Add(ops[0], ops[1])
	case "subtract":
		v = ctx.Sub(ops[0], ops[1])
	case "multiply":
		v = ctx.Mul(ops[0], ops[1])
	case "divide":
		q, err := ctx.Quo(ops[0], ops[1])
		if err != nil {
			return FinanceResult{}, domainErr("division_by_zero", "division by zero")
		}
		v = q
	case "percentage":
		v, _ = ctx.Quo(ctx.Mul(ops[0], ops[1]), hundred)
	case "simple_interest":
		years := ops[2]
		if years.Sign() < 0 || years.Cmp(FromInt64(MaxYears)) > 0 {
			return FinanceResult{}, domainErr("years_out_of_range", "years must be between 0 and %d", MaxYears)
		}
		t, _ := ctx.Quo(ctx.Mul(ops[1], years), hundred)
		v = ctx.Mul(ops[0], ctx.Add(FromInt64(1), t))
	case "compound_interest":
		years, n := ops[2], ops[3]
		if !years.IsInteger() {
			return FinanceResult{}, domainErr("years_not_integer", "years must be a whole number for compound interest")
		}
		if years.Sign() < 0 || years.Cmp(FromInt64(MaxYears)) > 0 {
			return FinanceResult{}, domainErr("years_out_of_range", "years must be between 0 and %d", MaxYears)
		}
		if !n.IsInteger() {
			return FinanceResult{}, domainErr("compounds_per_year_not_integer", "compounds_per_year must be a whole number")
		}
		if n.Cmp(FromInt64(1)) < 0 || n.Cmp(FromInt64(MaxCompounds)) > 0 {
			return FinanceResult{}, domainErr("compounds_per_year_out_of_range", "compounds_per_year must be between 1 and %d", MaxCompounds)
		}
		periods := new(big.Int).Mul(years.Int(), n.Int())
		if periods.Cmp(big.NewInt(MaxPeriods)) > 0 {
			return FinanceResult{}, domainErr("periods_out_of_range", "years × compounds_per_year must not exceed %d", MaxPeriods)
		}
		rate, _ := ctx.Quo(ops[1], ctx.Mul(hundred, n))
		base := ctx.Add(FromInt64(1), rate)
		p, err := ctx.PowInt(base, periods.Int64())
		if err != nil {
			return FinanceResult{}, domainErr("zero_power_zero", "(1 + rate/(100 × n)) is 0 and the exponent is 0: 0 ** 0 is undefined")
		}
		if !p.IsZero() && (p.Adjusted() > FinanceEmax || p.Adjusted() < FinanceEmin) {
			return FinanceResult{}, domainErr("exponent_out_of_range", "the growth factor (1 + rate/(100 × n))^(years × n) overflows the decimal exponent range ±999")
		}
		v = ctx.Mul(ops[0], p)
	}
	if !v.IsZero() && (v.Adjusted() > MaxAdjusted || v.Adjusted() < -MaxAdjusted) {
		return FinanceResult{}, domainErr("exponent_out_of_range", "the calculation value's adjusted exponent %d is outside ±%d", v.Adjusted(), MaxAdjusted)
	}
	q, _ := Quantize(v, scale, r)
	return FinanceResult{Value: v, Plain: Plain(v), Result: Fixed(q)}, nil
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
