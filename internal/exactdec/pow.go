package exactdec

import (
	"errors"
	"math/big"
	"math/bits"
)

// ErrZeroPowerZero is returned by PowInt for 0**0, which Python's decimal module
// refuses with InvalidOperation.
var ErrZeroPowerZero = errors.New("0 ** 0 is undefined")

// PowInt returns base**n for an integer n >= 0 the way CPython's decimal module
// (libmpdec mpd_qpow) computes it under a context of precision c.Prec with
// ROUND_HALF_EVEN: binary exponentiation from the most significant bit of n, every
// product rounded half-even to a working precision of c.Prec + digits(n) + 2, and
// the result rounded once more to c.Prec. That double rounding makes the result
// "almost always" but not always correctly rounded; reproducing the algorithm
// (rather than rounding the exact power) is what makes every digit match Python.
// Exponent limits (Emax/Emin) are not applied here: the caller checks the
// adjusted exponent of the result, which is monotone in the intermediate values.
func (c Context) PowInt(base Decimal, n int64) (Decimal, error) {
	if n < 0 {
		return Decimal{}, errors.New("exactdec: negative exponent")
	}
	if base.IsZero() {
		if n == 0 {
			return Decimal{}, ErrZeroPowerZero
		}
		return Decimal{Coef: new(big.Int), Exp: 0}, nil
	}
	if n == 0 {
		return FromInt64(1), nil
	}
	neg := base.Sign() < 0 && n%2 == 1
	var abs big.Int
	abs.Abs(base.Coef)
	absBase := Decimal{Coef: &abs, Exp: base.Exp}
	if absBase.Cmp(FromInt64(1)) == 0 {
		// libmpdec's power-of-one shortcut; the value is exactly ±1.
		if neg {
			return FromInt64(-1), nil
		}
		return FromInt64(1), nil
	}
	work := Context{Prec: c.Prec + NumDigits(big.NewInt(n)) + 2, Rounding: HalfEven}
	result := absBase
	u := uint64(n)
	for bit := bits.Len64(u) - 2; bit >= 0; bit-- {
		result = work.Mul(result, result)
		if u&(1<<uint(bit)) != 0 {
			result = work.Mul(result, absBase)
		}
	}
	out, _ := RoundSig(result, c.Prec, HalfEven)
	if neg {
		out.Coef = new(big.Int).Neg(out.Coef)
	}
	return out, nil
}
