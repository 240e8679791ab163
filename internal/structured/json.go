package structured

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSONOptions bounds a JSON parse.
type JSONOptions struct {
	MaxDepth int  // deepest container nesting allowed (root container = 1)
	MaxNodes int  // most values allowed (every scalar, array and object counts 1)
	Build    bool // build the value tree; false only checks the text
	// Python reads the text as Python's json.loads does (pyvalue.go): NaN,
	// Infinity and -Infinity are accepted, numbers become int64, *big.Int or
	// float64, a lone surrogate escape stays one WTF-8 character, and an
	// integer of more than 4300 digits is the finding CodeIntTooLong.
	Python bool
}

// CodeIntTooLong is the finding of a Python-mode parse for an integer literal
// of more than 4300 digits, which Python's int() refuses.
const CodeIntTooLong = "int_too_long"

// maxIntDigits is CPython's default int_max_str_digits.
const maxIntDigits = 4300

// Stats describes a parsed document.
type Stats struct {
	Depth int // deepest container nesting (a scalar root has depth 0)
	Nodes int // number of values
}

// frame is one open container on the parse path, kept so that a finding can name
// the JSON Pointer where it happened without building paths on the happy path.
type frame struct {
	key   string
	index int
	isArr bool
}

type jsonParser struct {
	src   string
	opt   JSONOptions
	stats Stats
	stack []frame
	err   *Finding
	sb    strings.Builder
	wtf   [3]byte
}

// ParseJSON parses src as one JSON text (RFC 8259) and returns its value (nil
// unless opt.Build), statistics, or the first finding. Syntax findings carry the
// message, line and column that Python's json module reports for the same text
// (code json_syntax); NaN and Infinity are refused, as RFC 8259 requires. Limit
// findings have codes depth_limit and node_limit. Objects are *Object (ordered),
// arrays []any, numbers Number, strings string (lone surrogate escapes decode to
// U+FFFD).
func ParseJSON(src string, opt JSONOptions) (any, Stats, *Finding) {
	p := &jsonParser{src: src, opt: opt}
	if strings.HasPrefix(src, "\ufeff") {
		return nil, Stats{}, p.syntax("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0)
	}
	i := p.ws(0)
	v, end, ok := p.value(i)
	if !ok {
		return nil, p.stats, p.err
	}
	end = p.ws(end)
	if end != len(src) {
		return nil, p.stats, p.syntax("Extra data", end)
	}
	return v, p.stats, nil
}

func (p *jsonParser) ws(i int) int {
	for i < len(p.src) {
		switch p.src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (p *jsonParser) syntax(msg string, off int) *Finding {
	line, col := LineCol(p.src, off)
	p.err = &Finding{Code: CodeJSONSyntax, Message: "JSON syntax error: " + msg, Line: &line, Column: &col}
	return p.err
}

func (p *jsonParser) limit(code, msg string, off int) *Finding {
	line, col := LineCol(p.src, off)
	path := p.pointer()
	p.err = &Finding{Code: code, Message: msg, Line: &line, Column: &col, Path: path}
	return p.err
}

// pointer renders the open containers as an RFC 6901 JSON Pointer.
func (p *jsonParser) pointer() string {
	var b strings.Builder
	for _, f := range p.stack {
		b.WriteByte('/')
		if f.isArr {
			b.WriteString(strconv.Itoa(f.index))
		} else {
			b.WriteString(EscapePointer(f.key))
		}
	}
	return b.String()
}

// EscapePointer escapes one JSON Pointer reference token (RFC 6901).
func EscapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// LineCol converts a byte offset into Python's json line and column: lines
// counted by '\n', the column 1-based in code points.
func LineCol(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	head := src[:off]
	line = strings.Count(head, "\n") + 1
	if nl := strings.LastIndexByte(head, '\n'); nl >= 0 {
		head = head[nl+1:]
	}
	return line, utf8.RuneCountInString(head) + 1
}

// countNode accounts for one value starting at off.
func (p *jsonParser) countNode(off int) bool {
	p.stats.Nodes++
	if p.opt.MaxNodes > 0 && p.stats.Nodes > p.opt.MaxNodes {
		p.limit(CodeNodeLimit, "document has more than "+strconv.Itoa(p.opt.MaxNodes)+" values", off)
		return false
	}
	return true
}

// enter opens a container at off; the depth is checked before any recursion.
func (p *jsonParser) enter(off int, isArr bool) bool {
	d := len(p.stack) + 1
	if p.opt.MaxDepth > 0 && d > p.opt.MaxDepth {
		msg := "nesting deeper than " + strconv.Itoa(p.opt.MaxDepth) + " levels"
		if p.opt.Python {
			// What CPython's scanner raises when the nesting exhausts its
			// recursion limit.
			msg = "maximum recursion depth exceeded while decoding a JSON object from a unicode string"
			if isArr {
				msg = "maximum recursion depth exceeded while decoding a JSON array from a unicode string"
			}
		}
		p.limit(CodeDepthLimit, msg, off)
		return false
	}
	if d > p.stats.Depth {
		p.stats.Depth = d
	}
	p.stack = append(p.stack, frame{isArr: isArr})
	return true
}

// value parses the value at i (whitespace already skipped) and returns it with
// the offset after it.
func (p *jsonParser) value(i int) (any, int, bool) {
	s := p.src
	if i >= len(s) {
		p.syntax("Expecting value", i)
		return nil, i, false
	}
	switch c := s[i]; {
	case c == '"':
		if !p.countNode(i) {
			return nil, i, false
		}
		str, end, ok := p.str(i + 1)
		return str, end, ok
	case c == '{' || c == '[':
		isArr := c == '['
		if !p.countNode(i) || !p.enter(i, isArr) {
			return nil, i, false
		}
		container := p.object
		if isArr {
			container = p.array
		}
		v, end, ok := container(i + 1)
		p.stack = p.stack[:len(p.stack)-1]
		return v, end, ok
	case c == 'n' && strings.HasPrefix(s[i:], "null"):
		return nil, i + 4, p.countNode(i)
	case c == 't' && strings.HasPrefix(s[i:], "true"):
		return true, i + 4, p.countNode(i)
	case c == 'f' && strings.HasPrefix(s[i:], "false"):
		return false, i + 5, p.countNode(i)
	case p.opt.Python && c == 'N' && strings.HasPrefix(s[i:], "NaN"):
		return math.NaN(), i + 3, p.countNode(i)
	case p.opt.Python && c == 'I' && strings.HasPrefix(s[i:], "Infinity"):
		return math.Inf(1), i + 8, p.countNode(i)
	case p.opt.Python && c == '-' && strings.HasPrefix(s[i:], "-Infinity"):
		return math.Inf(-1), i + 9, p.countNode(i)
	case c == '-' || (c >= '0' && c <= '9'):
		end := matchNumber(s, i)
		if end < 0 {
			p.syntax("Expecting value", i)
			return nil, i, false
		}
		if !p.countNode(i) {
			return nil, i, false
		}
		if p.opt.Python {
			return p.pyNumber(s[i:end], i)
		}
		if !p.opt.Build {
			return nil, end, true
		}
		return Number(s[i:end]), end, true
	}
	p.syntax("Expecting value", i)
	return nil, i, false
}

// matchNumber matches Python's NUMBER_RE -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?
// at i and returns the end offset, or -1.
func matchNumber(s string, i int) int {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return -1
	}
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i += 2
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k > j {
			i = k
		}
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *jsonParser) object(i int) (any, int, bool) {
	s := p.src
	var obj *Object
	if p.opt.Build {
		obj = NewObject(4)
	}
	i = p.ws(i)
	if i < len(s) && s[i] == '}' {
		return obj, i + 1, true
	}
	for {
		if i >= len(s) || s[i] != '"' {
			p.syntax("Expecting property name enclosed in double quotes", i)
			return nil, i, false
		}
		key, end, ok := p.str(i + 1)
		if !ok {
			return nil, end, false
		}
		p.stack[len(p.stack)-1].key = key
		i = p.ws(end)
		if i >= len(s) || s[i] != ':' {
			p.syntax("Expecting ':' delimiter", i)
			return nil, i, false
		}
		i = p.ws(i + 1)
		v, end, ok := p.value(i)
		if !ok {
			return nil, end, false
		}
		if obj != nil {
			obj.Set(key, v)
		}
		var done bool
		if i, done, ok = p.next(end, '}'); !ok {
			return nil, i, false
		}
		if done {
			return obj, i, true
		}
	}
}

func (p *jsonParser) array(i int) (any, int, bool) {
	s := p.src
	var arr []any
	if p.opt.Build {
		arr = make([]any, 0, 4)
	}
	i = p.ws(i)
	if i < len(s) && s[i] == ']' {
		return arr, i + 1, true
	}
	for n := 0; ; n++ {
		p.stack[len(p.stack)-1].index = n
		v, end, ok := p.value(i)
		if !ok {
			return nil, end, false
		}
		if p.opt.Build {
			arr = append(arr, v)
		}
		var done bool
		if i, done, ok = p.next(end, ']'); !ok {
			return nil, i, false
		}
		if done {
			return arr, i, true
		}
	}
}

// next reads what follows an object member or array element that ends at end:
// the closing byte (done, i after it) or a comma (i at the next item). ok is
// false after a syntax error.
func (p *jsonParser) next(end int, closing byte) (i int, done, ok bool) {
	s := p.src
	i = p.ws(end)
	if i < len(s) && s[i] == closing {
		return i + 1, true, true
	}
	if i >= len(s) || s[i] != ',' {
		p.syntax("Expecting ',' delimiter", i)
		return i, false, false
	}
	return p.ws(i + 1), false, true
}

// str scans a string body starting after the opening quote at i-1, following
// CPython's scanstring (strict mode) for the error messages and positions.
func (p *jsonParser) str(i int) (string, int, bool) {
	s := p.src
	begin := i - 1
	// Fast path: no escapes.
	j, ok := p.chunk(i, begin)
	if !ok {
		return "", j, false
	}
	if s[j] == '"' {
		return s[i:j], j + 1, true
	}
	b := &p.sb
	b.Reset()
	b.WriteString(s[i:j])
	for {
		// s[j] is '\\' here.
		j++
		if j >= len(s) {
			p.syntax("Unterminated string starting at", begin)
			return "", j, false
		}
		c := s[j]
		if c != 'u' {
			var r byte
			switch c {
			case '"', '\\', '/':
				r = c
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			default:
				p.syntax("Invalid \\escape", j-1)
				return "", j, false
			}
			b.WriteByte(r)
			j++
		} else {
			upos := j
			cp, ok := hex4(s, j+1)
			if !ok {
				p.syntax("Invalid \\uXXXX escape", upos)
				return "", j, false
			}
			j += 5
			if utf16.IsSurrogate(rune(cp)) && cp < 0xdc00 && j+6 < len(s) && s[j] == '\\' && s[j+1] == 'u' {
				cp2, ok := hex4(s, j+2)
				if !ok {
					p.syntax("Invalid \\uXXXX escape", j+1)
					return "", j, false
				}
				if cp2 >= 0xdc00 && cp2 <= 0xdfff {
					cp = int(utf16.DecodeRune(rune(cp), rune(cp2)))
					j += 6
				}
			}
			switch {
			case utf16.IsSurrogate(rune(cp)) && p.opt.Python:
				b.Write(appendWTF8(p.wtf[:0], rune(cp)))
			case utf16.IsSurrogate(rune(cp)):
				b.WriteRune(utf8.RuneError)
			default:
				b.WriteRune(rune(cp))
			}
		}
		// Copy up to the next quote or escape.
		k, ok := p.chunk(j, begin)
		if !ok {
			return "", k, false
		}
		b.WriteString(s[j:k])
		if s[k] == '"' {
			return b.String(), k + 1, true
		}
		j = k
	}
}

// chunk scans the characters of a string from j up to the next quote or
// backslash, and returns where it stopped. ok is false after a syntax error: a
// control character, or the end of the text (the string began at begin).
func (p *jsonParser) chunk(j, begin int) (k int, ok bool) {
	s := p.src
	for k = j; k < len(s); k++ {
		c := s[k]
		if c == '"' || c == '\\' {
			return k, true
		}
		if c <= 0x1f {
			p.syntax("Invalid control character at", k)
			return k, false
		}
	}
	p.syntax("Unterminated string starting at", begin)
	return k, false
}

// hex4 decodes four hex digits at i; like CPython it also demands that at least
// one more character follows them.
func hex4(s string, i int) (int, bool) {
	if i+4 >= len(s) {
		return 0, false
	}
	v := 0
	for k := i; k < i+4; k++ {
		c := s[k]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// pyNumber converts a number literal as Python's json module does: an integer
// to int (int64 when it fits), anything with a fraction or exponent to float
// (out of range: ±inf or 0).
func (p *jsonParser) pyNumber(lit string, off int) (any, int, bool) {
	end := off + len(lit)
	if !Number(lit).IsInt() {
		f, _ := strconv.ParseFloat(lit, 64)
		return f, end, true
	}
	if digits := len(strings.TrimPrefix(lit, "-")); digits > maxIntDigits {
		line, col := LineCol(p.src, off)
		p.err = &Finding{Code: CodeIntTooLong, Message: "Exceeds the limit (4300 digits) for integer string conversion: value has " +
			strconv.Itoa(digits) + " digits; use sys.set_int_max_str_digits() to increase the limit", Line: &line, Column: &col}
		return nil, off, false
	}
	if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return n, end, true
	}
	n, _ := new(big.Int).SetString(lit, 10)
	return n, end, true
}
