package structured

import (
	"cmp"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/pyrepr"
)

// The reference reads JSON with Python's json module and checks it with Python
// jsonschema, so structured_validate works on Python's value model: nil (None),
// bool, int64 or *big.Int (int), float64 (float, NaN and ±Inf included), string
// (str; a lone surrogate escape is kept as its 3-byte WTF-8 form, see
// appendWTF8), []any (list) and *Object (dict, first-insertion key order).

// pyIsNumber reports whether v is a Python int or float (bool excluded).
func pyIsNumber(v any) bool {
	switch v.(type) {
	case int64, *big.Int, float64:
		return true
	}
	return false
}

// pyIsInteger is jsonschema's "integer" type: an int, or a float with an
// integral value.
func pyIsInteger(v any) bool {
	switch x := v.(type) {
	case int64, *big.Int:
		return true
	case float64:
		return !math.IsInf(x, 0) && x == math.Trunc(x)
	}
	return false
}

// bigOf returns an int as *big.Int.
func bigOf(v any) *big.Int {
	if x, ok := v.(*big.Int); ok {
		return x
	}
	return big.NewInt(v.(int64))
}

// pyCompare compares two Python numbers exactly as Python does (an int and a
// float compare by exact value). ok is false when a NaN is involved: every
// comparison is then false.
func pyCompare(a, b any) (c int, ok bool) {
	fa, aFloat := a.(float64)
	fb, bFloat := b.(float64)
	switch {
	case aFloat && bFloat:
		if math.IsNaN(fa) || math.IsNaN(fb) {
			return 0, false
		}
		return cmp.Compare(fa, fb), true
	case aFloat:
		c, ok := pyCompare(b, a)
		return -c, ok
	case bFloat:
		if math.IsNaN(fb) {
			return 0, false
		}
		if math.IsInf(fb, 1) {
			return -1, true
		}
		if math.IsInf(fb, -1) {
			return 1, true
		}
		if x, ok := a.(int64); ok && x > -1<<53 && x < 1<<53 {
			return cmp.Compare(float64(x), fb), true
		}
		r := new(big.Rat).SetInt(bigOf(a))
		return r.Cmp(new(big.Rat).SetFloat64(fb)), true
	}
	x, xok := a.(int64)
	y, yok := b.(int64)
	if xok && yok {
		return cmp.Compare(x, y), true
	}
	return bigOf(a).Cmp(bigOf(b)), true
}

// errIntTooLarge is Python's OverflowError for float(int) beyond the float
// range.
const errIntTooLarge = "int too large to convert to float"

// pyFloat converts a Python number to float as float(x) does (ints correctly
// rounded); ok is false for an int beyond the float range.
func pyFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f, !math.IsInf(f, 0)
	}
	return 0, false
}

// pyLen is Python's len() of a str: code points, a WTF-8 lone surrogate being
// one.
func pyLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if pyrepr.IsSurrogateAt(s, i) {
			i += 3
		} else {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
		n++
	}
	return n
}

// pyRunes decodes a WTF-8 string into code points, surrogates included.
func pyRunes(s string) []rune {
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); {
		if pyrepr.IsSurrogateAt(s, i) {
			out = append(out, rune(0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F)))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		out = append(out, r)
		i += size
	}
	return out
}

// appendWTF8 appends a code point, encoding a surrogate as its 3 generalized
// UTF-8 bytes so that it stays one distinct character (Python keeps lone
// surrogates in a str).
func appendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

// hasSurrogate reports whether s holds a WTF-8 lone surrogate.
func hasSurrogate(s string) bool {
	for i := strings.IndexByte(s, 0xED); i >= 0 && i < len(s); {
		if pyrepr.IsSurrogateAt(s, i) {
			return true
		}
		j := strings.IndexByte(s[i+1:], 0xED)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
