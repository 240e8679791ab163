package jmes

import (
	"math"
	"math/big"
	"strconv"

	"github.com/precisiond/precisiond/internal/pyrepr"
	"github.com/precisiond/precisiond/internal/structured"
)

// Numbers are structured.Number values: the JSON text of an integer (no '.', 'e'
// or 'E': Python's int) or of a float (Python's float). Integers are exact and
// unbounded; floats are IEEE-754 doubles written in Python repr form when we
// compute them. This keeps every answer identical to the reference, which runs
// Python's jmespath on json.loads output.

type number = structured.Number

// maxIntBits bounds integers produced by arithmetic.
const maxIntBits = 65536

func isNum(v any) (number, bool) {
	n, ok := v.(number)
	return n, ok
}

// bigInt parses an integer number.
func bigInt(n number) *big.Int {
	s := string(n)
	if len(s) < 19 {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return big.NewInt(i)
		}
	}
	z, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return new(big.Int)
	}
	return z
}

// float returns the number as a float64 the way Python's float() would see it;
// ok is false when an integer is too large for a float (Python raises
// OverflowError there).
func float(n number) (float64, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		// Out of range: ParseFloat returns ±Inf with ErrRange.
		if n.IsInt() {
			return f, false
		}
		return f, true
	}
	return f, true
}

func intNum(z *big.Int) number { return number(z.String()) }

func floatNum(f float64) number { return number(FormatFloat(f)) }

// cmpNum compares two numbers exactly, like Python compares int and float.
func cmpNum(a, b number) int {
	ai, bi := a.IsInt(), b.IsInt()
	switch {
	case ai && bi:
		if len(a) < 19 && len(b) < 19 {
			x, _ := strconv.ParseInt(string(a), 10, 64)
			y, _ := strconv.ParseInt(string(b), 10, 64)
			return cmpOrdered(x, y)
		}
		return bigInt(a).Cmp(bigInt(b))
	case !ai && !bi:
		x, _ := float(a)
		y, _ := float(b)
		return cmpOrdered(x, y)
	}
	// Mixed int and float: exact comparison through rationals.
	var fi number
	var sign int
	if ai {
		fi, sign = b, 1
	} else {
		fi, sign = a, -1
	}
	f, _ := float(fi)
	var z *big.Int
	if ai {
		z = bigInt(a)
	} else {
		z = bigInt(b)
	}
	if math.IsInf(f, 0) {
		if f > 0 {
			return -sign
		}
		return sign
	}
	r := new(big.Rat).SetInt(z).Cmp(new(big.Rat).SetFloat64(f))
	return r * sign
}

func cmpOrdered[T int64 | float64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// FormatFloat renders f as Python's repr(float): the shortest round-trip
// digits, plain notation with at least one fractional digit when
// 1e-4 <= |f| < 1e16, otherwise d[.ddd]e±XX; "inf", "-inf" or "nan" for a
// value outside the double range.
func FormatFloat(f float64) string { return pyrepr.Float(f) }
