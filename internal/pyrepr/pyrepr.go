// Package pyrepr writes Python's repr() of floats and strings, and Python's
// str.isprintable() rule, as CPython 3.11 (the reference sidecar's Python,
// Unicode 14.0) has them. Canonical JSON, schema-error messages and the
// structured-data validator's messages all depend on them byte for byte, so
// there is one implementation. The package imports nothing of the project.
package pyrepr

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AppendFloat appends Python's repr(f): the shortest round-trip digits, plain
// notation with at least one fractional digit when 1e-4 <= |f| < 1e16
// (100.0, 0.0001, 1234567890123456.0), otherwise d[.ddd]e±XX with at least two
// exponent digits (1e+16, 1e-05, 1.5e+300); "-0.0" for negative zero and
// "nan", "inf", "-inf" for values JSON cannot carry.
func AppendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // -d.ddde±XX
	if s[0] == '-' {
		b = append(b, '-')
		s = s[1:]
	}
	epos := bytes.IndexByte(s, 'e')
	mant, expPart := s[:epos], s[epos+1:]
	exp, _ := strconv.Atoi(string(expPart))
	var dbuf [32]byte // shortest round-trip digits of a float64: at most 17
	digits := dbuf[:0]
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	if exp < -4 || exp >= 16 {
		b = append(b, digits[0])
		if len(digits) > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	}
	if exp < 0 {
		b = append(b, "0."...)
		for i := 0; i < -exp-1; i++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	if len(digits) <= exp+1 {
		b = append(b, digits...)
		for i := len(digits); i < exp+1; i++ {
			b = append(b, '0')
		}
		return append(b, ".0"...)
	}
	b = append(b, digits[:exp+1]...)
	b = append(b, '.')
	return append(b, digits[exp+1:]...)
}

// Float is AppendFloat as a string.
func Float(f float64) string { return string(AppendFloat(nil, f)) }

// IsSurrogateAt reports whether s holds a WTF-8 encoded lone surrogate
// (U+D800..U+DFFF, three bytes ED A0..BF 80..BF) at byte i. Python strings may
// hold such code points; Go strings carry them this way.
func IsSurrogateAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF
}

// String is Python's repr of a str; see AppendString.
func String(s string) string { return string(AppendString(nil, s, -1)) }

// AppendString appends Python's repr of a str: single quotes unless the text
// holds a single quote and no double quote; backslash escapes for that quote,
// the backslash, \t \n \r and every code point that is not Printable (\xhh,
// \uhhhh, \Uhhhhhhhh; WTF-8 lone surrogates included). With limit >= 0 it
// stops once b holds at least limit bytes (the closing quote then missing), so
// that a message about a long string costs only the prefix that is shown.
func AppendString(b []byte, s string, limit int) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b = append(b, quote)
	for i := 0; i < len(s); {
		if limit >= 0 && len(b) >= limit {
			return b
		}
		var r rune
		size := 1
		if IsSurrogateAt(s, i) {
			r, size = rune(0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F)), 3
		} else if c := s[i]; c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case r == rune(quote) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case Printable(r):
			b = utf8.AppendRune(b, r)
		case r < 0x100:
			b = appendHexEscape(b, 'x', r, 2)
		case r < 0x10000:
			b = appendHexEscape(b, 'u', r, 4)
		default:
			b = appendHexEscape(b, 'U', r, 8)
		}
	}
	return append(b, quote)
}

func appendHexEscape(b []byte, kind byte, r rune, width int) []byte {
	b = append(b, '\\', kind)
	h := strconv.FormatInt(int64(r), 16)
	for i := len(h); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, h...)
}

// Printable is Python's str.isprintable() for one code point under CPython
// 3.11's Unicode 14.0 database: the space, letters, marks, numbers,
// punctuation and symbols; not other separators (U+00A0, U+2028), format
// characters (U+00AD), controls, private use, surrogates or unassigned code
// points. Go's tables are a later Unicode version; code points assigned since
// 14.0 are unassigned, so not printable, to Python (unicode15Additions).
func Printable(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0x20 && r < 0x7f
	}
	return unicode.IsPrint(r) && !unicode.Is(unicode15Additions, r)
}

// unicode15Additions are the printable code points of Go's Unicode tables that
// CPython 3.11 (Unicode 14.0) does not know; internal/structured's
// TestStructuredPyPrintable checks the whole code space against Python's
// str.isprintable.
var unicode15Additions = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0xCF3, Hi: 0xCF3, Stride: 1}, {Lo: 0xECE, Hi: 0xECE, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x10EFD, Hi: 0x10EFF, Stride: 1}, {Lo: 0x1123F, Hi: 0x11241, Stride: 1}, {Lo: 0x11B00, Hi: 0x11B09, Stride: 1},
		{Lo: 0x11F00, Hi: 0x11F10, Stride: 1}, {Lo: 0x11F12, Hi: 0x11F3A, Stride: 1}, {Lo: 0x11F3E, Hi: 0x11F59, Stride: 1},
		{Lo: 0x1342F, Hi: 0x1342F, Stride: 1}, {Lo: 0x13440, Hi: 0x13455, Stride: 1}, {Lo: 0x1B132, Hi: 0x1B132, Stride: 1},
		{Lo: 0x1B155, Hi: 0x1B155, Stride: 1}, {Lo: 0x1D2C0, Hi: 0x1D2D3, Stride: 1}, {Lo: 0x1DF25, Hi: 0x1DF2A, Stride: 1},
		{Lo: 0x1E030, Hi: 0x1E06D, Stride: 1}, {Lo: 0x1E08F, Hi: 0x1E08F, Stride: 1}, {Lo: 0x1E4D0, Hi: 0x1E4F9, Stride: 1},
		{Lo: 0x1F6DC, Hi: 0x1F6DC, Stride: 1}, {Lo: 0x1F774, Hi: 0x1F776, Stride: 1}, {Lo: 0x1F77B, Hi: 0x1F77F, Stride: 1},
		{Lo: 0x1F7D9, Hi: 0x1F7D9, Stride: 1}, {Lo: 0x1FA75, Hi: 0x1FA77, Stride: 1}, {Lo: 0x1FA87, Hi: 0x1FA88, Stride: 1},
		{Lo: 0x1FAAD, Hi: 0x1FAAF, Stride: 1}, {Lo: 0x1FABB, Hi: 0x1FABD, Stride: 1}, {Lo: 0x1FABF, Hi: 0x1FABF, Stride: 1},
		{Lo: 0x1FACE, Hi: 0x1FACF, Stride: 1}, {Lo: 0x1FADA, Hi: 0x1FADB, Stride: 1}, {Lo: 0x1FAE8, Hi: 0x1FAE8, Stride: 1},
		{Lo: 0x1FAF7, Hi: 0x1FAF8, Stride: 1}, {Lo: 0x2B739, Hi: 0x2B739, Stride: 1}, {Lo: 0x31350, Hi: 0x323AF, Stride: 1},
	},
}
