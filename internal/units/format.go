package units

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// SigDigits is the number of significant digits reported for a value that has
// no exact, terminating decimal form (IEEE 754 decimal128 precision).
const SigDigits = 34

var bigTwo = big.NewInt(2)

// DecimalString renders q exactly when its decimal expansion terminates
// (exact = true), otherwise rounded half-to-even to SigDigits significant
// digits. The notation is FormatDecimal's.
func DecimalString(q *big.Rat) (s string, exact bool) {
	if q.Sign() == 0 {
		return "0", true
	}
	if k, ok := bigx.TerminatingScale(q.Denom()); ok {
		scaled := new(big.Rat).Mul(q, bigx.Pow10Rat(k))
		n := new(big.Int).Abs(scaled.Num())
		return FormatDecimal(q.Sign() < 0, n.String(), -k), true
	}
	neg, digits, exp := RoundSig(q, SigDigits)
	return FormatDecimal(neg, digits, exp), false
}

// RoundSig rounds q half-to-even to n significant digits, returning the sign,
// the digit string and the exponent of its last digit (q ≈ ±digits·10^exp).
func RoundSig(q *big.Rat, n int) (neg bool, digits string, exp int) {
	if q.Sign() == 0 {
		return false, "0", 0
	}
	a := new(big.Rat).Abs(q)
	// Estimate the decimal exponent of a from the sizes of its integers, then
	// correct it so that 10^e ≤ a < 10^(e+1).
	e := len(a.Num().String()) - len(a.Denom().String())
	for cmpPow10(a, e) < 0 {
		e--
	}
	for cmpPow10(a, e+1) >= 0 {
		e++
	}
	shift := n - 1 - e // a·10^shift has n digits before the point
	scaled := new(big.Rat).Mul(a, bigx.Pow10Rat(shift))
	quo, rem := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	twice := new(big.Int).Mul(rem, bigTwo)
	switch c := twice.Cmp(scaled.Denom()); {
	case c > 0, c == 0 && quo.Bit(0) == 1:
		quo.Add(quo, big.NewInt(1))
	}
	s := quo.String()
	if len(s) > n { // rounding carried into a new digit: 999.. → 1000..
		s = s[:n]
		shift--
	}
	return q.Sign() < 0, s, -shift
}

func cmpPow10(a *big.Rat, e int) int { return a.Cmp(bigx.Pow10Rat(e)) }

// FormatDecimal writes ±digits·10^exp with trailing zeros removed: plain
// notation when the adjusted exponent (that of the first digit) is in [-7, 21),
// otherwise scientific `d.ddde±XX` with at least two exponent digits, like
// Python's float repr ("1.602176634e-19", "9.4607304725808e+24").
func FormatDecimal(neg bool, digits string, exp int) string {
	t := strings.TrimRight(digits, "0")
	exp += len(digits) - len(t)
	digits = strings.TrimLeft(t, "0")
	if digits == "" {
		return "0"
	}
	adj := exp + len(digits) - 1
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case adj < -7 || adj >= 21:
		b.WriteString(digits[:1])
		if len(digits) > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteString(expSuffix(adj))
	case exp >= 0:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", exp))
	case adj >= 0:
		b.WriteString(digits[:adj+1])
		b.WriteByte('.')
		b.WriteString(digits[adj+1:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -adj-1))
		b.WriteString(digits)
	}
	return b.String()
}

func expSuffix(e int) string {
	sign := "+"
	if e < 0 {
		sign, e = "-", -e
	}
	s := strconv.Itoa(e)
	if len(s) < 2 {
		s = "0" + s
	}
	return "e" + sign + s
}

// FormatG10 formats x exactly as Python's format(x, '.10g'): ten significant
// digits, correctly rounded, scientific notation when the exponent is below -4
// or at least 10, trailing zeros and a bare point removed, exponent `e±XX`.
func FormatG10(x float64) string {
	return strconv.FormatFloat(x, 'g', 10, 64)
}
