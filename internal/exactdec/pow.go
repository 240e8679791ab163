package exactdec

import (
	"errors"
	"math/big"
	"math/bits"

	"github.com/precisiond/precisiond/internal/bigx"
)

// ErrZeroPowerZero is returned by PowInt for 0**0, which Python's decimal module
// refuses with InvalidOperation.
var ErrZeroPowerZero = errors.New("0 ** 0 is undefined")

// PowInt returns base**n for an integer n >= 0 the way CPython's decimal module
// (libmpdec mpd_qpow with an integral exponent) computes it under the context:
//
//   - 0**0 is ErrZeroPowerZero; 0**n is a zero with exponent 0, negative for a
//     negative zero and odd n; x**0 is 1.
//   - a base equal to 1 gives 1 with min(n × -base.Exp, Prec-1) zeros after the
//     point (1.000**3 = 1.000000000).
//   - otherwise binary exponentiation from the most significant bit of n, every
//     product rounded half-even to a working precision of Prec + digits(n) + 2
//     under the same exponent limits, stopping early at an overflow (ErrOverflow)
//     or at an underflow to zero; then the result is rounded once more to the
//     context. That double rounding makes the result "almost always" but not
//     always correctly rounded; reproducing the algorithm (rather than rounding
//     the exact power) is what makes every digit match Python.
func (c Context) PowInt(base Num, n int64) (Num, error) {
	if n < 0 {
		return Num{}, errors.New("exactdec: negative exponent")
	}
	neg := base.Neg && n%2 == 1
	if base.IsZero() {
		if n == 0 {
			return Num{}, ErrZeroPowerZero
		}
		return Num{Neg: neg, Coef: new(big.Int)}, nil
	}
	if n == 0 {
		return NumFromInt64(1), nil
	}
	if !base.Neg && base.Cmp(NumFromInt64(1)) == 0 {
		shift := int64(0)
		if e := int64(-base.Exp); e > 0 {
			shift = int64(c.Prec - 1)
			if n <= shift/e {
				shift = n * e
			}
		}
		return c.finalize(Num{Coef: new(big.Int).Set(bigx.Pow10(int(shift))), Exp: -int(shift)}, false)
	}
	work := Context{Prec: c.Prec + NumDigits(big.NewInt(n)) + 2, Rounding: HalfEven, Emin: c.Emin, Emax: c.Emax}
	abs := Num{Coef: base.Coef, Exp: base.Exp}
	result := abs
	u := uint64(n)
	for bit := bits.Len64(u) - 2; bit >= 0; bit-- {
		var err error
		if result, err = work.Mul(result, result); err != nil {
			return Num{}, err
		}
		if u&(1<<uint(bit)) != 0 {
			if result, err = work.Mul(result, abs); err != nil {
				return Num{}, err
			}
		}
		if result.IsZero() {
			break // underflowed to zero: nothing changes it any more
		}
	}
	result.Neg = neg
	return c.finalize(result, false)
}
