package evidence

import (
	"fmt"
	"unicode/utf8"
)

// TextError reports text in a JSON document that has no exact Unicode value: a
// byte sequence that is not UTF-8, or a \u escape of a lone UTF-16 surrogate
// ("\ud800" without its low half). A JSON decoder would silently turn either into
// U+FFFD, so a request would be answered, and hashed, for text its sender never
// wrote.
type TextError struct {
	// Offset is the byte offset of the offending byte or escape in the document.
	Offset int
	// Reason is "invalid_utf8" or "lone_surrogate".
	Reason string
}

// Error implements error.
func (e *TextError) Error() string {
	if e.Reason == ReasonLoneSurrogate {
		return fmt.Sprintf("lone UTF-16 surrogate escape at byte offset %d (text must be valid Unicode)", e.Offset)
	}
	return fmt.Sprintf("invalid UTF-8 at byte offset %d (text must be valid UTF-8)", e.Offset)
}

// Reasons of a TextError.
const (
	ReasonInvalidUTF8   = "invalid_utf8"
	ReasonLoneSurrogate = "lone_surrogate"
)

// CheckText scans a JSON document (well-formed or not) for text without an exact
// Unicode value and returns a *TextError for the first one, or nil. Outside string
// literals only the UTF-8 encoding is checked; inside them also the \u escapes: a
// high surrogate (D800–DBFF) must be followed at once by an escaped low surrogate
// (DC00–DFFF), and a low surrogate may not stand alone. It reads data once and
// allocates nothing unless it fails.
func CheckText(data []byte) error {
	inString := false
	for i := 0; i < len(data); {
		c := data[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				return &TextError{Offset: i, Reason: ReasonInvalidUTF8}
			}
			i += size
			continue
		}
		switch {
		case c == '"':
			inString = !inString
		case c == '\\' && inString:
			if i+1 >= len(data) {
				return nil // truncated: the decoder reports it
			}
			if data[i+1] != 'u' {
				i += 2 // a one-character escape (or a bad one, left to the decoder)
				continue
			}
			u, ok := hex4(data, i+2)
			if !ok {
				i += 2
				continue
			}
			switch {
			case u >= 0xDC00 && u <= 0xDFFF:
				return &TextError{Offset: i, Reason: ReasonLoneSurrogate}
			case u >= 0xD800 && u <= 0xDBFF:
				lo, ok := uint16(0), false
				if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
					lo, ok = hex4(data, i+8)
				}
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return &TextError{Offset: i, Reason: ReasonLoneSurrogate}
				}
				i += 12
				continue
			}
			i += 6
			continue
		}
		i++
	}
	return nil
}

// hex4 reads four hex digits at data[i:].
func hex4(data []byte, i int) (uint16, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var v uint16
	for _, c := range data[i : i+4] {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= uint16(c - '0')
		case c >= 'a' && c <= 'f':
			v |= uint16(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			v |= uint16(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return v, true
}
