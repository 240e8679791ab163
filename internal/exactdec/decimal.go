// Package exactdec implements the small part of the General Decimal Arithmetic
// model that precisiond needs to reproduce Python's decimal module digit for digit:
// finite decimals coefficient×10^exponent on big integers, rounding to a number of
// significant digits or to a fixed scale in the seven rounding modes, and exact
// rational-to-decimal conversion.
//
// A Decimal is a value: it keeps neither the sign of a zero nor a meaningful
// exponent, and its operations are value-exact before a single rounding step.
// Num (gda.go) is the full General Decimal Arithmetic number — sign of zero,
// exponent — with a Context that rounds, limits exponents and computes powers
// exactly as CPython's decimal module (libmpdec) does; decimal_finance uses it
// because the reference service prints what Python's Decimal holds.
package exactdec

import (
	"errors"
	"math"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// Rounding is a rounding mode for the last kept digit.
type Rounding int

// The seven rounding modes of Python's decimal module (ROUND_05UP is not offered).
const (
	HalfEven Rounding = iota // ties to the even digit (banker's rounding)
	HalfUp                   // ties away from zero
	HalfDown                 // ties toward zero
	Down                     // toward zero (truncate)
	Up                       // away from zero
	Floor                    // toward negative infinity
	Ceiling                  // toward positive infinity
)

var roundingNames = map[string]Rounding{
	"half_even": HalfEven, "half_up": HalfUp, "half_down": HalfDown,
	"down": Down, "up": Up, "floor": Floor, "ceiling": Ceiling,
}

// ParseRounding maps a mode name (half_even, half_up, half_down, down, up, floor,
// ceiling) to a Rounding; ok is false for any other name.
func ParseRounding(name string) (r Rounding, ok bool) {
	r, ok = roundingNames[name]
	return r, ok
}

// Decimal is the finite value Coef × 10^Exp. The zero value is not usable; build
// values with Parse, New or the arithmetic functions. Decimals are immutable.
type Decimal struct {
	Coef *big.Int
	Exp  int
}

// New returns coef × 10^exp (coef is copied).
func New(coef *big.Int, exp int) Decimal {
	return Decimal{Coef: new(big.Int).Set(coef), Exp: exp}
}

// FromInt64 returns v × 10^0.
func FromInt64(v int64) Decimal { return Decimal{Coef: big.NewInt(v), Exp: 0} }

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int { return d.Coef.Sign() }

// IsZero reports whether d is zero.
func (d Decimal) IsZero() bool { return d.Coef.Sign() == 0 }

// Digits returns the number of decimal digits of |Coef| (1 for zero).
func (d Decimal) Digits() int { return NumDigits(d.Coef) }

// Adjusted returns the exponent of the most significant digit, as Python's
// Decimal.adjusted(): Exp + digits - 1 (for zero: Exp).
func (d Decimal) Adjusted() int {
	if d.Coef.Sign() == 0 {
		return d.Exp
	}
	return d.Exp + NumDigits(d.Coef) - 1
}

// IsInteger reports whether d has an integral value.
func (d Decimal) IsInteger() bool {
	if d.Exp >= 0 || d.Coef.Sign() == 0 {
		return true
	}
	var r big.Int
	r.Rem(d.Coef, bigx.Pow10(-d.Exp))
	return r.Sign() == 0
}

// Int returns the integral value of d truncated toward zero.
func (d Decimal) Int() *big.Int {
	if d.Exp >= 0 {
		return new(big.Int).Mul(d.Coef, bigx.Pow10(d.Exp))
	}
	return new(big.Int).Quo(d.Coef, bigx.Pow10(-d.Exp))
}

// Cmp compares the values of d and e: -1, 0 or +1.
func (d Decimal) Cmp(e Decimal) int {
	a, b := align(d, e)
	return a.Cmp(b)
}

// Rat returns the exact value as a big.Rat.
func (d Decimal) Rat() *big.Rat {
	if d.Exp >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Mul(d.Coef, bigx.Pow10(d.Exp)))
	}
	return new(big.Rat).SetFrac(d.Coef, bigx.Pow10(-d.Exp))
}

// ErrSyntax is returned by Parse for text that is not a decimal number.
var ErrSyntax = errors.New("not a decimal number")

// ErrRange is returned by Parse when the number has more significant digits or a
// larger exponent than the caller allows.
var ErrRange = errors.New("decimal number out of range")

// Parse reads a finite decimal number: an optional sign, digits with an optional
// point (at least one digit on either side), and an optional exponent
// e|E[sign]digits. No spaces, underscores, infinities or NaNs. maxDigits bounds
// the significant digits of the mantissa (leading and trailing zeros not
// counted) and maxExp bounds |exponent| as written; both are checked before any
// big-number work (callers bound the text length).
func Parse(s string, maxDigits, maxExp int) (Decimal, error) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	intDigits, fracDigits := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		intDigits++
	}
	intPart := s[start:i]
	fracPart := ""
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			fracDigits++
		}
		fracPart = s[fs:i]
	}
	if intDigits+fracDigits == 0 {
		return Decimal{}, ErrSyntax
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		es := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if exp > 1_000_000_000 {
				return Decimal{}, ErrRange
			}
			exp = exp*10 + int(s[i]-'0')
			i++
		}
		if i == es {
			return Decimal{}, ErrSyntax
		}
		if exp > maxExp {
			return Decimal{}, ErrRange
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(s) {
		return Decimal{}, ErrSyntax
	}
	digits := strings.TrimLeft(intPart+fracPart, "0")
	if len(strings.TrimRight(digits, "0")) > maxDigits {
		return Decimal{}, ErrRange
	}
	coef := new(big.Int)
	if digits != "" {
		if _, ok := coef.SetString(digits, 10); !ok {
			return Decimal{}, ErrSyntax
		}
	}
	if neg {
		coef.Neg(coef)
	}
	return Decimal{Coef: coef, Exp: exp - fracDigits}, nil
}

// NumDigits returns the number of decimal digits of |x| (1 for zero).
func NumDigits(x *big.Int) int {
	bl := x.BitLen()
	if bl == 0 {
		return 1
	}
	if bl > 4096 {
		// Huge numbers: decide from log10 of the top 64 bits unless the value is
		// within a hair of a power of ten (then compare exactly below).
		var top big.Int
		top.Abs(x)
		top.Rsh(&top, uint(bl-64))
		l := math.Log10(float64(top.Uint64())) + float64(bl-64)*math.Log10(2)
		if fl := math.Floor(l); l-fl > 1e-9 && fl+1-l > 1e-9 {
			return int(fl) + 1
		}
	}
	// log10(2) ≈ 0.30103; the estimate is exact or one too small.
	d := int(float64(bl-1)*0.30102999566398119521) + 1
	var a big.Int
	a.Abs(x)
	if a.Cmp(bigx.Pow10(d)) >= 0 {
		d++
	}
	return d
}

// roundQuo returns num/den rounded to an integer with mode r, and whether the
// division was inexact. sticky says the true dividend is slightly larger in
// magnitude than num (digits already dropped that were not all zero). den > 0.
func roundQuo(num, den *big.Int, sticky bool, r Rounding) (*big.Int, bool) {
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	neg := num.Sign() < 0
	if rem.Sign() == 0 && !sticky {
		return q, false
	}
	rem.Abs(rem)
	// cmpHalf: compare 2*rem with den; with sticky the remainder is a bit larger.
	twice := rem.Lsh(rem, 1)
	half := twice.Cmp(den)
	if half == 0 && sticky {
		half = 1
	}
	if rem.Sign() == 0 { // only sticky: strictly between 0 and half
		half = -1
	}
	var away bool
	switch r {
	case HalfEven:
		away = half > 0 || (half == 0 && q.Bit(0) == 1)
	case HalfUp:
		away = half >= 0
	case HalfDown:
		away = half > 0
	case Down:
		away = false
	case Up:
		away = true
	case Floor:
		away = neg
	case Ceiling:
		away = !neg
	}
	if away {
		if neg {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q, true
}

// RoundSig rounds d to at most prec significant digits with mode r, the way a
// Python decimal context of precision prec rounds an exact result. It reports
// whether the value changed.
func RoundSig(d Decimal, prec int, r Rounding) (Decimal, bool) {
	return roundSigSticky(d, prec, r, false)
}

func roundSigSticky(d Decimal, prec int, r Rounding, sticky bool) (Decimal, bool) {
	nd := NumDigits(d.Coef)
	if nd <= prec && !sticky {
		return d, false
	}
	shift := nd - prec
	if shift < 0 {
		shift = 0
	}
	q, inexact := roundQuo(d.Coef, bigx.Pow10(shift), sticky, r)
	exp := d.Exp + shift
	if NumDigits(q) > prec { // carried into a new digit: q = ±10^prec
		q.Quo(q, big.NewInt(10))
		exp++
	}
	return Decimal{Coef: q, Exp: exp}, inexact
}

// Quantize returns d rounded with mode r to exactly scale digits after the point
// (exponent -scale), without any precision limit, and whether it was inexact.
func Quantize(d Decimal, scale int, r Rounding) (Decimal, bool) {
	target := -scale
	if d.Exp >= target {
		return Decimal{Coef: new(big.Int).Mul(d.Coef, bigx.Pow10(d.Exp-target)), Exp: target}, false
	}
	q, inexact := roundQuo(d.Coef, bigx.Pow10(target-d.Exp), false, r)
	return Decimal{Coef: q, Exp: target}, inexact
}

func align(a, b Decimal) (*big.Int, *big.Int) {
	switch {
	case a.Exp == b.Exp:
		return a.Coef, b.Coef
	case a.Exp > b.Exp:
		return new(big.Int).Mul(a.Coef, bigx.Pow10(a.Exp-b.Exp)), b.Coef
	default:
		return a.Coef, new(big.Int).Mul(b.Coef, bigx.Pow10(b.Exp-a.Exp))
	}
}

// Context is a decimal context, like Python's decimal.Context: results are
// rounded to Prec significant digits with Rounding, and exponents are limited
// to Emin..Emax (Etiny = Emin - Prec + 1 for subnormal results) with clamp=0.
// Overflow, division by zero and invalid operations are errors, as under
// Python's default traps; underflow is not (a result rounds to a subnormal or
// zero, as Python rounds it).
type Context struct {
	Prec       int
	Rounding   Rounding
	Emin, Emax int
}

// ErrDivisionByZero is returned by Quo for a zero divisor and a non-zero dividend.
var ErrDivisionByZero = errors.New("division by zero")

// RatSig returns num/den rounded to prec significant digits with mode r, as
// coefficient and exponent (value coef×10^exp). den must be non-zero.
func RatSig(num, den *big.Int, prec int, r Rounding) (*big.Int, int) {
	n := new(big.Int).Set(num)
	dd := new(big.Int).Set(den)
	if dd.Sign() < 0 {
		dd.Neg(dd)
		n.Neg(n)
	}
	if n.Sign() == 0 {
		return n, 0
	}
	// Scale so that the integer quotient has at least prec+1 digits.
	shift := prec + 1 - (NumDigits(n) - NumDigits(dd))
	exp := 0
	if shift > 0 {
		n.Mul(n, bigx.Pow10(shift))
		exp = -shift
	} else if shift < 0 {
		dd.Mul(dd, bigx.Pow10(-shift))
		exp = -shift
	}
	q, rem := new(big.Int).QuoRem(n, dd, new(big.Int))
	d, _ := roundSigSticky(Decimal{Coef: q, Exp: exp}, prec, r, rem.Sign() != 0)
	return d.Coef, d.Exp
}

// Plain renders d in plain notation (no exponent) with trailing fractional zeros
// and a trailing point removed; every zero renders as "0".
func Plain(d Decimal) string {
	if d.Coef.Sign() == 0 {
		return "0"
	}
	s := fixed(d.Coef, d.Exp)
	if strings.IndexByte(s, '.') >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// Fixed renders d in plain notation with exactly max(0, -Exp) digits after the
// point, keeping trailing zeros; a zero never carries a minus sign.
func Fixed(d Decimal) string {
	if d.Coef.Sign() == 0 {
		if d.Exp >= 0 {
			return "0"
		}
		return "0." + strings.Repeat("0", -d.Exp)
	}
	return fixed(d.Coef, d.Exp)
}

func fixed(coef *big.Int, exp int) string {
	neg := coef.Sign() < 0
	digits := new(big.Int).Abs(coef).String()
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case exp >= 0:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", exp))
	case len(digits) > -exp:
		p := len(digits) + exp
		b.WriteString(digits[:p])
		b.WriteByte('.')
		b.WriteString(digits[p:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -exp-len(digits)))
		b.WriteString(digits)
	}
	return b.String()
}

// RoundRat returns num/den rounded with mode r to exactly scale digits after the
// point (exponent -scale), and whether it was inexact. den must be non-zero.
func RoundRat(num, den *big.Int, scale int, r Rounding) (Decimal, bool) {
	n := new(big.Int).Mul(num, bigx.Pow10(scale))
	d := new(big.Int).Set(den)
	if d.Sign() < 0 {
		d.Neg(d)
		n.Neg(n)
	}
	q, inexact := roundQuo(n, d, false, r)
	return Decimal{Coef: q, Exp: -scale}, inexact
}
