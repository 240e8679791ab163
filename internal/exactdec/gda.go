package exactdec

import (
	"errors"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// Num is a finite number of the General Decimal Arithmetic, the model of
// Python's decimal module: a sign, a coefficient and an exponent. Unlike
// Decimal it keeps what that model keeps besides the value — the sign of a
// zero (-0 × 5 is -0) and the exponent (0.00 has exponent -2) — because Python
// prints both ("-0.00") and judges a zero's magnitude by its exponent.
// Nums are immutable; build them with ParseNum, NumFromInt64 or a Context.
type Num struct {
	Neg  bool     // the sign, also of a zero
	Coef *big.Int // the coefficient, >= 0
	Exp  int
}

// ParseNum reads a decimal number as Parse does (same syntax and limits) and
// keeps the sign of a zero and the exponent as written ("-0.00" is a negative
// zero with exponent -2).
func ParseNum(s string, maxDigits, maxExp int) (Num, error) {
	d, err := Parse(s, maxDigits, maxExp)
	if err != nil {
		return Num{}, err
	}
	return Num{Neg: strings.HasPrefix(s, "-"), Coef: d.Coef.Abs(d.Coef), Exp: d.Exp}, nil
}

// NumFromInt64 returns v with exponent 0, as Python's Decimal(v).
func NumFromInt64(v int64) Num {
	c := big.NewInt(v)
	return Num{Neg: v < 0, Coef: c.Abs(c)}
}

// IsZero reports whether n is a zero of either sign.
func (n Num) IsZero() bool { return n.Coef.Sign() == 0 }

// Sign returns the sign of the value: -1, 0 (for both zeros) or +1.
func (n Num) Sign() int {
	switch {
	case n.IsZero():
		return 0
	case n.Neg:
		return -1
	}
	return 1
}

// Adjusted returns the exponent of the most significant digit, as Python's
// Decimal.adjusted(): for a zero, its exponent.
func (n Num) Adjusted() int {
	if n.IsZero() {
		return n.Exp
	}
	return n.Exp + NumDigits(n.Coef) - 1
}

// Value returns the value of n as a Decimal (a negative zero becomes 0). The
// Decimal may share n's coefficient; neither is ever modified.
func (n Num) Value() Decimal {
	if !n.Neg {
		return Decimal{Coef: n.Coef, Exp: n.Exp}
	}
	return Decimal{Coef: new(big.Int).Neg(n.Coef), Exp: n.Exp}
}

// Cmp compares the values of n and m (-0 equals 0): -1, 0 or +1.
func (n Num) Cmp(m Num) int { return n.Value().Cmp(m.Value()) }

// IsInteger reports whether the value of n is integral.
func (n Num) IsInteger() bool { return n.Value().IsInteger() }

// Python prints with format(n, "f"): the sign (also of a zero), then the digits
// with exactly max(0, -Exp) of them after the point; a zero with a positive
// exponent prints as "0".
func (n Num) String() string {
	var s string
	if n.IsZero() && n.Exp >= 0 {
		s = "0"
	} else {
		s = fixed(n.Coef, n.Exp)
	}
	if n.Neg {
		return "-" + s
	}
	return s
}

// Signals of the decimal context that Python's default traps turn into
// exceptions.
var (
	// ErrOverflow: a result's adjusted exponent exceeds Emax (decimal.Overflow).
	ErrOverflow = errors.New("decimal overflow: the adjusted exponent exceeds Emax")
	// ErrDivisionUndefined: 0/0 (decimal.InvalidOperation).
	ErrDivisionUndefined = errors.New("0/0 is undefined")
	// ErrQuantize: the quantized coefficient needs more digits than the
	// precision (decimal.InvalidOperation).
	ErrQuantize = errors.New("the quantized result has more digits than the precision")
)

// FinanceContext is the context of the reference service's decimal_finance:
// Context(prec=128, Emin=-999, Emax=999), rounding half-even.
var FinanceContext = Context{Prec: FinancePrec, Rounding: HalfEven, Emin: FinanceEmin, Emax: FinanceEmax}

// etiny is the smallest exponent of a subnormal number, Emin - Prec + 1.
func (c Context) etiny() int { return c.Emin - c.Prec + 1 }

// roundMag rounds the magnitude mag/div (div > 0) to an integer with mode r for
// a number of sign neg; sticky says the true magnitude is slightly larger.
func roundMag(mag, div *big.Int, sticky, neg bool, r Rounding) *big.Int {
	num := mag
	if neg {
		num = new(big.Int).Neg(mag)
	}
	q, _ := roundQuo(num, div, sticky, r)
	return q.Abs(q)
}

// finalize rounds an exact result to the context, as libmpdec's mpd_qfinalize:
// exponent checks first (overflow, subnormal rescaling to Etiny, clamping of a
// zero's exponent into [Etiny, Emax]), then rounding to Prec digits. sticky
// says the exact magnitude is slightly larger than x's (an inexact quotient).
func (c Context) finalize(x Num, sticky bool) (Num, error) {
	if x.IsZero() && !sticky {
		switch {
		case x.Exp > c.Emax:
			x.Exp = c.Emax
		case x.Exp < c.etiny():
			x.Exp = c.etiny()
		}
		return x, nil
	}
	if x.Adjusted() > c.Emax {
		return Num{}, ErrOverflow
	}
	if x.Adjusted() < c.Emin {
		if x.Exp < c.etiny() || sticky {
			shift := c.etiny() - x.Exp
			if shift < 0 {
				shift = 0
			}
			q := roundMag(x.Coef, bigx.Pow10(shift), sticky, x.Neg, c.Rounding)
			return Num{Neg: x.Neg, Coef: q, Exp: c.etiny()}, nil
		}
		return x, nil
	}
	nd := NumDigits(x.Coef)
	if nd <= c.Prec && !sticky {
		return x, nil
	}
	shift := nd - c.Prec
	if shift < 0 {
		shift = 0
	}
	q := roundMag(x.Coef, bigx.Pow10(shift), sticky, x.Neg, c.Rounding)
	exp := x.Exp + shift
	if NumDigits(q) > c.Prec { // carried into a new digit: q = 10^Prec
		q.Quo(q, big.NewInt(10))
		exp++
	}
	out := Num{Neg: x.Neg, Coef: q, Exp: exp}
	if out.Adjusted() > c.Emax {
		return Num{}, ErrOverflow
	}
	return out, nil
}

// Add returns a+b rounded to the context. A zero sum has the sign both operands
// share, else + (- under Floor), as the decimal specification says. The only
// error is ErrOverflow.
func (c Context) Add(a, b Num) (Num, error) {
	x, y := align(a.Value(), b.Value())
	sum := new(big.Int).Add(x, y)
	neg := sum.Sign() < 0
	if sum.Sign() == 0 {
		if a.Neg == b.Neg {
			neg = a.Neg
		} else {
			neg = c.Rounding == Floor
		}
	}
	return c.finalize(Num{Neg: neg, Coef: sum.Abs(sum), Exp: min(a.Exp, b.Exp)}, false)
}

// Sub returns a-b rounded to the context (a + (-b), the sign of a zero b
// flipped too). The only error is ErrOverflow.
func (c Context) Sub(a, b Num) (Num, error) {
	return c.Add(a, Num{Neg: !b.Neg, Coef: b.Coef, Exp: b.Exp})
}

// Mul returns a×b rounded to the context; the sign is the exclusive or of the
// operands' signs, also for a zero product. The only error is ErrOverflow.
func (c Context) Mul(a, b Num) (Num, error) {
	return c.finalize(Num{Neg: a.Neg != b.Neg, Coef: new(big.Int).Mul(a.Coef, b.Coef), Exp: a.Exp + b.Exp}, false)
}

// Quo returns a/b rounded to the context. An exact quotient has the exponent
// closest to the ideal a.Exp - b.Exp (10/4 is 2.5, 100/4 is 25), a rounded one
// has Prec digits, as in libmpdec. Errors: ErrDivisionByZero for a zero divisor,
// ErrDivisionUndefined for 0/0, ErrOverflow.
func (c Context) Quo(a, b Num) (Num, error) {
	if b.IsZero() {
		if a.IsZero() {
			return Num{}, ErrDivisionUndefined
		}
		return Num{}, ErrDivisionByZero
	}
	neg := a.Neg != b.Neg
	ideal := a.Exp - b.Exp
	if a.IsZero() {
		return c.finalize(Num{Neg: neg, Coef: new(big.Int), Exp: ideal}, false)
	}
	// Scale so that the integer quotient has at least Prec+1 digits.
	shift := NumDigits(b.Coef) - NumDigits(a.Coef) + c.Prec + 1
	exp := ideal - shift
	num, den := a.Coef, b.Coef
	if shift > 0 {
		num = new(big.Int).Mul(num, bigx.Pow10(shift))
	} else if shift < 0 {
		den = new(big.Int).Mul(den, bigx.Pow10(-shift))
	}
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() == 0 {
		ten, digit := big.NewInt(10), new(big.Int)
		for exp < ideal {
			var t big.Int
			t.QuoRem(q, ten, digit)
			if digit.Sign() != 0 {
				break
			}
			q.Set(&t)
			exp++
		}
	}
	return c.finalize(Num{Neg: neg, Coef: q, Exp: exp}, r.Sign() != 0)
}

// Quantize returns n rounded with mode r to exactly scale digits after the
// point (exponent -scale), keeping its sign even when the result is zero
// (-0.001 gives -0.00), as Python's Decimal.quantize under a context of
// precision prec. It returns ErrQuantize when the result would need more than
// prec digits.
func (n Num) Quantize(scale int, r Rounding, prec int) (Num, error) {
	target := -scale
	if n.IsZero() {
		return Num{Neg: n.Neg, Coef: new(big.Int), Exp: target}, nil
	}
	if n.Adjusted()+1+scale > prec {
		return Num{}, ErrQuantize
	}
	if n.Exp >= target {
		return Num{Neg: n.Neg, Coef: new(big.Int).Mul(n.Coef, bigx.Pow10(n.Exp-target)), Exp: target}, nil
	}
	q := roundMag(n.Coef, bigx.Pow10(target-n.Exp), false, n.Neg, r)
	if NumDigits(q) > prec {
		return Num{}, ErrQuantize
	}
	return Num{Neg: n.Neg, Coef: q, Exp: target}, nil
}
