package poly

import (
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/bigx"
)

// The decimals are printed exactly as SymPy prints sympy.N(root, 34): the value
// is rounded to a 116-bit binary float (SymPy's precision for 34 digits), then
// converted with mpmath's to_str algorithm (truncate to 37 digits, round half
// up at digit 35, fixed notation when the decimal exponent e satisfies
// -11 < e < 34). Trailing zeros are kept for a real root ("2.000…0"); inside a
// complex value "re + im*I" they are stripped, as SymPy's printer does for
// nested floats.

// Digits is the number of significant digits of every decimal.
const Digits = 34

const (
	mpfPrec  = 116                // dps_to_prec(34)
	log2of10 = 3.3219280948873626 // Python's math.log(10, 2)
)

// roundMpf rounds x to a 116-bit binary float (ties to even), as mpmath does.
func roundMpf(x *big.Float) *big.Float {
	return new(big.Float).SetMode(big.ToNearestEven).SetPrec(mpfPrec).Set(x)
}

func ratMpf(r *big.Rat) *big.Float {
	return new(big.Float).SetMode(big.ToNearestEven).SetPrec(mpfPrec).SetRat(r)
}

// mpfString renders a 116-bit float with mpmath's to_str(dps=34).
func mpfString(f *big.Float, strip bool) string {
	if f.Sign() == 0 {
		return "0.0"
	}
	neg := f.Sign() < 0
	mant := new(big.Float)
	e := f.MantExp(mant) // |f| = mant * 2^e, 0.5 <= mant < 1
	mant.Abs(mant)
	mant.SetMantExp(mant, mpfPrec)
	man, _ := mant.Int(nil)
	exp := e - mpfPrec
	for man.Bit(0) == 0 {
		man.Rsh(man, 1)
		exp++
	}
	return toStr(neg, man, exp, Digits, strip)
}

func toStr(neg bool, man *big.Int, exp int, dps int, strip bool) string {
	bc := man.BitLen()
	// to_digits_exp(s, dps+3)
	bitprec := int(float64(dps+3)*log2of10) + 10
	fixprec := max(bitprec-exp-bc, 0)
	fixdps := int(float64(fixprec)/log2of10 + 0.5)
	sf := new(big.Int)
	if off := exp + fixprec; off >= 0 {
		sf.Lsh(man, uint(off))
	} else {
		sf.Rsh(man, uint(-off))
	}
	sd := new(big.Int).Mul(sf, bigx.Pow10(fixdps))
	sd.Rsh(sd, uint(fixprec))
	digits := sd.String()
	exponent := len(digits) - fixdps - 1
	// rounding in to_str
	if len(digits) > dps && strings.IndexByte("56789", digits[dps]) >= 0 {
		d := []byte(digits[:dps])
		i := dps - 1
		for i >= 0 && d[i] == '9' {
			i--
		}
		if i >= 0 {
			d[i]++
			for j := i + 1; j < dps; j++ {
				d[j] = '0'
			}
			digits = string(d)
		} else {
			digits = "1" + strings.Repeat("0", dps-1)
			exponent++
		}
	} else if len(digits) > dps {
		digits = digits[:dps]
	}
	minFixed := min(-(dps / 3), -5)
	maxFixed := dps
	split := 1
	if minFixed < exponent && exponent < maxFixed {
		if exponent < 0 {
			digits = strings.Repeat("0", -exponent) + digits
			split = 1
		} else {
			split = exponent + 1
			if split > dps {
				digits += strings.Repeat("0", split-dps)
			}
		}
		exponent = 0
	}
	s := digits[:split] + "." + digits[split:]
	if strip {
		s = strings.TrimRight(s, "0")
		if s[len(s)-1] == '.' {
			s += "0"
		}
	}
	sign := ""
	if neg {
		sign = "-"
	}
	switch {
	case exponent == 0:
		return sign + s
	case exponent > 0:
		return sign + s + "e+" + itoa(exponent)
	default:
		return sign + s + "e" + itoa(exponent)
	}
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// complexString renders re + im*I as SymPy prints N(z, 34) for a non-real z:
// "re + im*I" / "re - |im|*I", or just "im*I" when re is exactly zero.
// re may be nil for an exactly zero real part.
func complexString(re, im *big.Float) string {
	ims := mpfString(im, true) + "*I"
	if re == nil || re.Sign() == 0 {
		return ims
	}
	res := mpfString(re, true)
	if strings.HasPrefix(ims, "-") {
		return res + " - " + ims[1:]
	}
	return res + " + " + ims
}
