package units

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// Factor is an exact real number of the form Q · √R · π^(H/2): a rational
// coefficient Q, a positive rational radicand R (1 when there is no root) and a
// power of π counted in halves. Every factor of the pint definition files fits
// this form except a few derived constants whose definitions take the square root
// of a number that already holds a root; those are stored as a rational
// approximation of 512 bits and marked Approx, as are the constants the file gives
// as truncated decimal expansions of irrational numbers (tansec, ln10, ...).
//
// The zero value is not valid; use One, Rat or the operations below. Factors are
// immutable: every operation returns a new value.
type Factor struct {
	Q      *big.Rat
	R      *big.Rat
	H      int
	Approx bool
}

// approxPrec is the binary precision of numeric work on irrational factors: 512
// bits is about 154 decimal digits, far more than the 34 digits ever reported.
const approxPrec = 512

// maxFactorBits bounds the size of a factor's numerator plus denominator, checked
// before a power is computed, so that `(Qm**64)**64` cannot exhaust memory.
const maxFactorBits = 1 << 16

// ErrTooLarge reports that a power would build a factor beyond maxFactorBits.
var ErrTooLarge = errors.New("unit factor too large")

// ErrNegativeRoot reports a square root of a negative factor.
var ErrNegativeRoot = errors.New("square root of a negative factor")

var ratOne = big.NewRat(1, 1)

// One returns the factor 1.
func One() Factor { return Factor{Q: new(big.Rat).SetInt64(1), R: new(big.Rat).SetInt64(1)} }

// RatFactor returns the exact factor q.
func RatFactor(q *big.Rat) Factor {
	return Factor{Q: new(big.Rat).Set(q), R: new(big.Rat).SetInt64(1)}
}

// Pi returns the factor π.
func Pi() Factor { f := One(); f.H = 2; return f }

// IsRational reports whether f is exactly a rational number (no root, no π, not
// an approximation).
func (f Factor) IsRational() bool {
	return !f.Approx && f.H == 0 && f.R.Cmp(ratOne) == 0
}

// Mul returns f·g.
func (f Factor) Mul(g Factor) Factor {
	out := Factor{
		Q:      new(big.Rat).Mul(f.Q, g.Q),
		H:      f.H + g.H,
		Approx: f.Approx || g.Approx,
	}
	switch {
	case g.R.Cmp(ratOne) == 0:
		out.R = f.R // factors are immutable, so sharing is safe
	case f.R.Cmp(ratOne) == 0:
		out.R = g.R
	default:
		out.R = new(big.Rat).Mul(f.R, g.R)
		out.foldRoot()
	}
	return out
}

// Inv returns 1/f; f must not be zero.
func (f Factor) Inv() Factor {
	return Factor{Q: new(big.Rat).Inv(f.Q), R: new(big.Rat).Inv(f.R), H: -f.H, Approx: f.Approx}
}

// Div returns f/g; g must not be zero.
func (f Factor) Div(g Factor) Factor { return f.Mul(g.Inv()) }

// IsZero reports whether f is zero.
func (f Factor) IsZero() bool { return f.Q.Sign() == 0 }

// Bits is the size of f's rationals in bits, the measure of maxFactorBits.
func (f Factor) Bits() int {
	return f.Q.Num().BitLen() + f.Q.Denom().BitLen() + f.R.Num().BitLen() + f.R.Denom().BitLen()
}

// Pow returns f raised to num/2 (the exponent counted in halves, so 3 means 1.5).
// A half-integer power of a factor that already holds a root or an odd power of
// √π is not representable exactly; it is computed numerically and marked Approx.
// It returns ErrTooLarge when the result would exceed maxFactorBits and
// ErrNegativeRoot for a half-integer power of a negative number.
func (f Factor) Pow(halves int) (Factor, error) {
	if halves == 0 {
		return One(), nil
	}
	if f.IsZero() {
		if halves < 0 {
			return Factor{}, errors.New("zero raised to a negative power")
		}
		return RatFactor(new(big.Rat)), nil
	}
	k := halves / 2
	if halves%2 != 0 {
		// f^(k + 1/2) = f^k · √f (with k rounded toward zero, the sign of the
		// half is the sign of halves).
		root, err := f.sqrt()
		if err != nil {
			return Factor{}, err
		}
		whole, err := f.powInt(k)
		if err != nil {
			return Factor{}, err
		}
		if halves < 0 {
			root = root.Inv()
		}
		return whole.Mul(root), nil
	}
	return f.powInt(k)
}

func (f Factor) powInt(k int) (Factor, error) {
	switch k {
	case 0:
		return One(), nil
	case 1:
		return f, nil
	}
	abs := k
	if abs < 0 {
		abs = -abs
	}
	if f.Bits()*abs > maxFactorBits {
		return Factor{}, ErrTooLarge
	}
	out := Factor{Q: ratPow(f.Q, abs), R: ratPow(f.R, abs), H: f.H * abs, Approx: f.Approx}
	out.foldRoot()
	if k < 0 {
		out = out.Inv()
	}
	return out, nil
}

func (f Factor) sqrt() (Factor, error) {
	if f.Q.Sign() < 0 {
		return Factor{}, ErrNegativeRoot
	}
	if f.R.Cmp(ratOne) == 0 && f.H%2 == 0 {
		out := Factor{Q: new(big.Rat).SetInt64(1), R: new(big.Rat).Set(f.Q), H: f.H / 2, Approx: f.Approx}
		out.foldRoot()
		return out, nil
	}
	v := f.Float(approxPrec)
	v.Sqrt(v)
	q, _ := v.Rat(nil)
	return Factor{Q: q, R: new(big.Rat).SetInt64(1), Approx: true}, nil
}

// foldRoot moves a perfect-square radicand into the coefficient, so that an exact
// rational factor is always recognised by IsRational.
func (f *Factor) foldRoot() {
	if f.R.Cmp(ratOne) == 0 {
		return
	}
	n, okN := intSqrt(f.R.Num())
	d, okD := intSqrt(f.R.Denom())
	if okN && okD {
		f.Q.Mul(f.Q, new(big.Rat).SetFrac(n, d))
		f.R.SetInt64(1)
	}
}

func intSqrt(x *big.Int) (*big.Int, bool) {
	if x.Sign() < 0 {
		return nil, false
	}
	r := new(big.Int).Sqrt(x)
	return r, new(big.Int).Mul(r, r).Cmp(x) == 0
}

func ratPow(q *big.Rat, k int) *big.Rat {
	e := big.NewInt(int64(k))
	n := new(big.Int).Exp(q.Num(), e, nil)
	d := new(big.Int).Exp(q.Denom(), e, nil)
	return new(big.Rat).SetFrac(n, d)
}

// piDigits is π to 200 decimal places, a mathematical fact; numeric work never
// needs more than approxPrec bits.
const piDigits = "3.14159265358979323846264338327950288419716939937510" +
	"58209749445923078164062862089986280348253421170679" +
	"82148086513282306647093844609550582231725359408128" +
	"48111745028410270193852110555964462294895493038196"

// PiFloat returns π rounded to prec bits.
func PiFloat(prec uint) *big.Float {
	p, _, err := big.ParseFloat(piDigits, 10, prec, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return p
}

// Float returns f to prec bits: computed with 64 guard bits and rounded, so
// within an ulp or so of the true value, far below the 34 digits ever reported.
func (f Factor) Float(prec uint) *big.Float {
	work := prec + 64
	v := new(big.Float).SetPrec(work).SetRat(f.Q)
	if f.R.Cmp(ratOne) != 0 {
		r := new(big.Float).SetPrec(work).SetRat(f.R)
		r.Sqrt(r)
		v.Mul(v, r)
	}
	if f.H != 0 {
		h := f.H
		if h < 0 {
			h = -h
		}
		pi := PiFloat(work)
		p := new(big.Float).SetPrec(work).SetInt64(1)
		for i := 0; i < h/2; i++ {
			p.Mul(p, pi)
		}
		if h%2 != 0 {
			p.Mul(p, new(big.Float).SetPrec(work).Sqrt(pi))
		}
		if f.H < 0 {
			v.Quo(v, p)
		} else {
			v.Mul(v, p)
		}
	}
	return new(big.Float).SetPrec(prec).Set(v)
}

// String writes f in a compact, parseable form: "Q", "Q*sqrt(R)", "Q*pi^(H/2)".
func (f Factor) String() string {
	var b strings.Builder
	b.WriteString(f.Q.RatString())
	if f.R.Cmp(ratOne) != 0 {
		fmt.Fprintf(&b, "*sqrt(%s)", f.R.RatString())
	}
	if f.H != 0 {
		fmt.Fprintf(&b, "*pi^(%d/2)", f.H)
	}
	if f.Approx {
		b.WriteString(" (approx)")
	}
	return b.String()
}
