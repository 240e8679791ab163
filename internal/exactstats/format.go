package exactstats

import (
	"math/big"

	"github.com/precisiond/precisiond/internal/bigx"
	"github.com/precisiond/precisiond/internal/exactdec"
)

// RatString renders num/den (den != 0) as a decimal string. When the decimal
// expansion terminates within maxExactDigits significant digits it is written in
// full (plain notation, no trailing zeros) and exact is true; otherwise the value
// is rounded half-even to Precision significant digits (trailing zeros kept, so
// the precision shows) and exact is false.
func RatString(num, den *big.Int) (s string, exact bool) {
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	if d.Sign() < 0 {
		n.Neg(n)
		d.Neg(d)
	}
	if n.Sign() == 0 {
		return "0", true
	}
	// num/den terminates iff den = 2^a·5^b·d' with d' dividing num. Stripping the
	// twos is a shift; the fives come off in chunks, and the first remainder
	// usually ends the loop. The only big division has a small quotient when num
	// and den are of similar size, so this stays cheap for huge operands.
	a := d.TrailingZeroBits()
	dp := new(big.Int).Rsh(d, a)
	b := bigx.Strip5(dp)
	var q, r big.Int
	q.QuoRem(n, dp, &r)
	if r.Sign() == 0 {
		// num/den = q / (2^a·5^b) = q·2^(k-a)·5^(k-b) / 10^k with k = max(a, b).
		k := max(int(a), b)
		c := new(big.Int).Lsh(&q, uint(k-int(a)))
		c.Mul(c, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k-b)), nil))
		v := exactdec.Decimal{Coef: c, Exp: -k}
		if significantDigits(v) <= maxExactDigits {
			return exactdec.Plain(v), true
		}
	}
	coef, exp := exactdec.RatSig(n, d, Precision, exactdec.HalfEven)
	return exactdec.Fixed(exactdec.Decimal{Coef: coef, Exp: exp}), false
}

// significantDigits counts the digits of the coefficient without trailing zeros.
func significantDigits(v exactdec.Decimal) int {
	s := new(big.Int).Abs(v.Coef).String()
	end := len(s)
	for end > 1 && s[end-1] == '0' {
		end--
	}
	return end
}

// SqrtRatString renders sqrt(num/den) for num/den >= 0: exact when it is a
// terminating decimal (num/den reduced is a ratio of perfect squares whose root
// terminates), otherwise correctly rounded half-even to Precision significant
// digits (the root is then irrational or non-terminating, never a tie).
func SqrtRatString(num, den *big.Int) (string, bool) {
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	if d.Sign() < 0 {
		n.Neg(n)
		d.Neg(d)
	}
	if n.Sign() <= 0 {
		return "0", true
	}
	g := new(big.Int).GCD(nil, nil, n, d)
	n.Quo(n, g)
	d.Quo(d, g)
	rn, rd := new(big.Int).Sqrt(n), new(big.Int).Sqrt(d)
	if new(big.Int).Mul(rn, rn).Cmp(n) == 0 && new(big.Int).Mul(rd, rd).Cmp(d) == 0 {
		// A rational root: exact if it terminates, else correctly rounded.
		return RatString(rn, rd)
	}
	// Irrational: correctly rounded, never a tie.
	return exactdec.Fixed(exactdec.SqrtIrrational(n, d, Precision)), false
}
