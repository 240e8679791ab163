package evidence

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// parseGeneric decodes one JSON document into the generic values
// encoding/json's Decoder (with UseNumber) gives for an `any`: objects as
// map[string]any, arrays as []any (empty: non-nil), numbers as json.Number of
// their literal text, strings, bools and nil. It is a single pass over data
// without reflection, for the hot path (arguments, facts).
//
// It handles only the documents whose value is unambiguous: ok is false for a
// syntax error, trailing data, text a decoder would change (invalid UTF-8, a
// lone surrogate escape, both replaced by U+FFFD there) and nesting deeper
// than parseMaxDepth. The caller then decodes with encoding/json, which gives
// the value or the error in its own words; FuzzParseGeneric checks that
// whenever ok is true the value is encoding/json's.
func parseGeneric(data []byte) (v any, ok bool) {
	p := genericParser{data: data}
	v, ok = p.value(0)
	if !ok {
		return nil, false
	}
	if p.skipSpace(); p.i != len(data) {
		return nil, false
	}
	return v, true
}

// parseMaxDepth bounds the nesting parseGeneric follows (encoding/json allows
// 10000 levels; deeper documents than this are left to it).
const parseMaxDepth = 1000

type genericParser struct {
	data []byte
	i    int
}

func (p *genericParser) skipSpace() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *genericParser) value(depth int) (any, bool) {
	p.skipSpace()
	if p.i >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.i]; {
	case c == '{':
		if depth >= parseMaxDepth {
			return nil, false
		}
		return p.object(depth + 1)
	case c == '[':
		if depth >= parseMaxDepth {
			return nil, false
		}
		return p.array(depth + 1)
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		return s, true
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, false
}

func (p *genericParser) literal(word string) bool {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		return false
	}
	p.i += len(word)
	return true
}

func (p *genericParser) object(depth int) (any, bool) {
	p.i++ // '{'
	m := make(map[string]any)
	p.skipSpace()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m, true
	}
	for {
		p.skipSpace()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.skipSpace()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, false
		}
		p.i++
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		m[k] = v // a repeated key: the last value, as encoding/json
		if more, ok := p.more('}'); !more {
			return m, ok
		}
	}
}

func (p *genericParser) array(depth int) (any, bool) {
	p.i++ // '['
	a := make([]any, 0)
	p.skipSpace()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return a, true
	}
	for {
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		if more, ok := p.more(']'); !more {
			return a, ok
		}
	}
}

// more reads what follows a member or an element: ',' (more follows) or the
// closing bracket; ok is false for anything else.
func (p *genericParser) more(closing byte) (more, ok bool) {
	p.skipSpace()
	if p.i < len(p.data) {
		switch p.data[p.i] {
		case ',':
			p.i++
			return true, true
		case closing:
			p.i++
			return false, true
		}
	}
	return false, false
}

// number reads a JSON number literal (RFC 8259 grammar) as json.Number.
func (p *genericParser) number() (any, bool) {
	d, start := p.data, p.i
	i := p.i
	if d[i] == '-' {
		i++
	}
	digits := func() bool {
		s := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > s
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return nil, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return nil, false
		}
	}
	p.i = i
	return json.Number(d[start:i]), true
}

// str reads the JSON string at p.i (its opening quote).
func (p *genericParser) str() (string, bool) {
	d := p.data
	start := p.i + 1
	i := start
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			p.i = i + 1
			return string(d[start:i]), true
		case c == '\\':
			return p.escaped(start, i)
		case c < 0x20:
			return "", false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			i += size
		}
	}
	return "", false
}

// escaped finishes a string that has an escape at i (start is its first byte).
func (p *genericParser) escaped(start, i int) (string, bool) {
	d := p.data
	b := make([]byte, 0, i-start+16)
	b = append(b, d[start:i]...)
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			p.i = i + 1
			return string(b), true
		case c == '\\':
			if i+1 >= len(d) {
				return "", false
			}
			i += 2
			switch d[i-1] {
			case '"', '\\', '/':
				b = append(b, d[i-1])
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				u, ok := hex4(d, i)
				if !ok {
					return "", false
				}
				i += 4
				r := rune(u)
				if utf16.IsSurrogate(r) {
					lo, ok := uint16(0), false
					if i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
						lo, ok = hex4(d, i+2)
					}
					if !ok {
						return "", false // a lone surrogate: U+FFFD to a decoder
					}
					if r = utf16.DecodeRune(r, rune(lo)); r == utf8.RuneError {
						return "", false
					}
					i += 6
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", false
			}
		case c < 0x20:
			return "", false
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			b = append(b, d[i:i+size]...)
			i += size
		}
	}
	return "", false
}
