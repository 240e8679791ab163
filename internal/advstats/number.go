// Package advstats computes the advanced statistics of the advanced_statistics
// tool exactly on decimal data: numpy's nine quantile methods, ordinary least
// squares, Pearson, Spearman and Kendall (tau-b) correlation as scipy.stats
// defines them, and the Student-t confidence interval of the mean.
//
// Every data value is the decimal number it is written as. A rational result is
// a Number with its fraction; an irrational one (a square root, a t quantile)
// is a decimal string correctly rounded to Digits significant digits, proved
// by an integer square root or by an error-bounded big.Float evaluation.
package advstats

import (
	"math"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
	"github.com/precisiond/precisiond/internal/exactdec"
	"github.com/precisiond/precisiond/internal/refusal"
)

// Digits is the number of significant digits of a decimal string that is not
// exact (a non-terminating rational or an irrational value).
const Digits = 30

// MaxExactDigits bounds the significant digits of an exact decimal string; a
// longer terminating expansion is rounded to Digits digits like a
// non-terminating one (the fraction stays exact).
const MaxExactDigits = 200

var fail = refusal.Domain

// Number is one result: Fraction ("p/q" in lowest terms, q > 0; "p" when q
// is 1) when the value is rational, Decimal in plain notation, Exact when
// Decimal is the exact value (else it is rounded half-even to Digits
// significant digits, trailing zeros kept) and Float, the float64 nearest the
// exact value (nil beyond float64's range: a slope over a spread of 1e-250
// can reach 1e350).
type Number struct {
	Fraction *string
	Decimal  string
	Exact    bool
	Float    *float64
}

// finite returns &f, or nil for an infinity (a value beyond float64's range).
func finite(f float64) *float64 {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil
	}
	return &f
}

// ratNumber describes the rational r.
func ratNumber(r *big.Rat) Number {
	f := r.RatString()
	fl, _ := r.Float64()
	d, exact := ratDecimal(r.Num(), r.Denom())
	return Number{Fraction: &f, Decimal: d, Exact: exact, Float: finite(fl)}
}

// ratDecimal renders num/den (den > 0, lowest terms): in full when it
// terminates within MaxExactDigits significant digits, else rounded half-even
// to Digits significant digits.
func ratDecimal(num, den *big.Int) (string, bool) {
	if num.Sign() == 0 {
		return "0", true
	}
	if k, ok := bigx.TerminatingScale(den); ok {
		c := new(big.Int).Mul(num, bigx.Pow10(k))
		c.Quo(c, den)
		v := exactdec.Decimal{Coef: c, Exp: -k}
		if sigDigits(c) <= MaxExactDigits {
			return exactdec.Plain(v), true
		}
	}
	coef, exp := exactdec.RatSig(num, den, Digits, exactdec.HalfEven)
	return exactdec.Fixed(exactdec.Decimal{Coef: coef, Exp: exp}), false
}

// sigDigits counts the digits of c without trailing zeros.
func sigDigits(c *big.Int) int {
	s := strings.TrimLeft(new(big.Int).Abs(c).String(), "0")
	return len(strings.TrimRight(s, "0"))
}

// signedSqrtNumber describes sign·sqrt(num/den) for num >= 0, den > 0: a
// rational Number when num/den is a ratio of squares, else the irrational root
// correctly rounded to Digits significant digits (an irrational root is never
// a rounding tie, so the integer square root with a sticky digit decides).
func signedSqrtNumber(sign int, num, den *big.Int) Number {
	if num.Sign() == 0 {
		return ratNumber(new(big.Rat))
	}
	q := new(big.Rat).SetFrac(num, den)
	rn, rd := new(big.Int).Sqrt(q.Num()), new(big.Int).Sqrt(q.Denom())
	if new(big.Int).Mul(rn, rn).Cmp(q.Num()) == 0 && new(big.Int).Mul(rd, rd).Cmp(q.Denom()) == 0 {
		r := new(big.Rat).SetFrac(rn, rd)
		if sign < 0 {
			r.Neg(r)
		}
		return ratNumber(r)
	}
	r := exactdec.SqrtIrrational(q.Num(), q.Denom(), Digits)
	// The float: the root at 256 bits is far inside a float64 rounding
	// interval unless the value is a float64 tie, which an irrational number
	// never is.
	f := new(big.Float).SetPrec(256).SetRat(q)
	f.Sqrt(f)
	fl, _ := f.Float64()
	if sign < 0 {
		r.Coef = new(big.Int).Neg(r.Coef)
		fl = -fl
	}
	return Number{Decimal: exactdec.Fixed(r), Float: finite(fl)}
}

// floatOK reports whether f is a finite float64.
func floatOK(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }
