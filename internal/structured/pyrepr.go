package structured

import (
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/precisiond/precisiond/evidence"
)

// reprWriter renders Python's repr() of a value into b, stopping once b holds
// at least limit bytes (limit < 0: no limit), so that a message about a large
// value costs only the prefix that is shown or compared.
type reprWriter struct {
	b     []byte
	limit int
}

func (w *reprWriter) full() bool { return w.limit >= 0 && len(w.b) >= w.limit }

func (w *reprWriter) str(s string) {
	if !w.full() {
		w.b = append(w.b, s...)
	}
}

func (w *reprWriter) value(v any) {
	if w.full() {
		return
	}
	switch x := v.(type) {
	case nil:
		w.str("None")
	case bool:
		if x {
			w.str("True")
		} else {
			w.str("False")
		}
	case int64:
		w.b = strconv.AppendInt(w.b, x, 10)
	case *big.Int:
		w.b = x.Append(w.b, 10)
	case float64:
		w.str(evidence.PyFloatRepr(x))
	case string:
		w.b = appendPyStrRepr(w.b, x, w.limit)
	case []any:
		w.str("[")
		for i, e := range x {
			if w.full() {
				return
			}
			if i > 0 {
				w.str(", ")
			}
			w.value(e)
		}
		w.str("]")
	case *Object:
		w.str("{")
		for i, k := range x.Keys {
			if w.full() {
				return
			}
			if i > 0 {
				w.str(", ")
			}
			w.b = appendPyStrRepr(w.b, k, w.limit)
			w.str(": ")
			w.value(x.Values[i])
		}
		w.str("}")
	}
}

// pyRepr returns repr(v) in full.
func pyRepr(v any) string {
	w := reprWriter{limit: -1}
	w.value(v)
	return string(w.b)
}

// appendPyStrRepr appends Python's repr of a str: single quotes unless the text
// holds a single quote and no double quote; backslash escapes for the quote,
// the backslash, \t \n \r and every non-printable code point (\xhh, \uhhhh,
// \Uhhhhhhhh; lone surrogates are non-printable).
func appendPyStrRepr(b []byte, s string, limit int) []byte {
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
		if isWTF8Surrogate(s, i) {
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
		case r < 0x20 || r == 0x7f:
			b = appendHexEscape(b, 'x', r, 2)
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
		case pyPrintable(r):
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

// pyPrintable is str.isprintable() for one non-ASCII code point under CPython
// 3.11's Unicode 14.0 database: letters, marks, numbers, punctuation and
// symbols. Go's tables are a later Unicode version; code points assigned after
// 14.0 are unassigned (non-printable) to Python and listed in unicode15Additions.
func pyPrintable(r rune) bool {
	if !unicode.IsPrint(r) {
		return false
	}
	return !inRanges(unicode15Additions, r)
}

func inRanges(t [][2]rune, r rune) bool {
	lo, hi := 0, len(t)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < t[m][0]:
			hi = m
		case r > t[m][1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// unicode15Additions are the printable code points of Go's Unicode tables that
// CPython 3.11 (Unicode 14.0) does not know; TestPyPrintable checks the whole
// code space against Python's str.isprintable.
var unicode15Additions = [][2]rune{
	{0xCF3, 0xCF3}, {0xECE, 0xECE}, {0x10EFD, 0x10EFF}, {0x1123F, 0x11241}, {0x11B00, 0x11B09}, {0x11F00, 0x11F10},
	{0x11F12, 0x11F3A}, {0x11F3E, 0x11F59}, {0x1342F, 0x1342F}, {0x13440, 0x13455}, {0x1B132, 0x1B132}, {0x1B155, 0x1B155},
	{0x1D2C0, 0x1D2D3}, {0x1DF25, 0x1DF2A}, {0x1E030, 0x1E06D}, {0x1E08F, 0x1E08F}, {0x1E4D0, 0x1E4F9}, {0x1F6DC, 0x1F6DC},
	{0x1F774, 0x1F776}, {0x1F77B, 0x1F77F}, {0x1F7D9, 0x1F7D9}, {0x1FA75, 0x1FA77}, {0x1FA87, 0x1FA88}, {0x1FAAD, 0x1FAAF},
	{0x1FABB, 0x1FABD}, {0x1FABF, 0x1FABF}, {0x1FACE, 0x1FACF}, {0x1FADA, 0x1FADB}, {0x1FAE8, 0x1FAE8}, {0x1FAF7, 0x1FAF8},
	{0x2B739, 0x2B739}, {0x31350, 0x323AF},
}
