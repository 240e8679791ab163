package exactdec

import (
	"math/big"

	"github.com/precisiond/precisiond/internal/bigx"
)

// SqrtIrrational is sqrt(n/d) rounded half-even to digits significant
// digits, for n, d > 0 where n/d in lowest terms is not a ratio of two
// squares. The root is then irrational: it lies strictly between S and S+1
// for S = floor(sqrt(n·10^(2t)/d)), so S with a sticky digit 1 below it
// rounds as the true root does, and there is never a tie.
func SqrtIrrational(n, d *big.Int, digits int) Decimal {
	t := digits + 2 - (NumDigits(n)-NumDigits(d))/2
	for {
		var x *big.Int
		if t >= 0 {
			x = new(big.Int).Mul(n, bigx.Pow10(2*t))
			x.Quo(x, d)
		} else {
			x = new(big.Int).Quo(n, new(big.Int).Mul(d, bigx.Pow10(-2*t)))
		}
		s := x.Sqrt(x)
		if NumDigits(s) > digits {
			c := new(big.Int).Mul(s, big.NewInt(10))
			c.Add(c, big.NewInt(1))
			r, _ := RoundSig(Decimal{Coef: c, Exp: -t - 1}, digits, HalfEven)
			return r
		}
		t += 2
	}
}
