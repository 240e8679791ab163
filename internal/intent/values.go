package intent

import (
	"encoding/json"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/tzdb"
)

// valueError is why a captured value cannot become an argument: its reason is
// ReasonInvalidValue or ReasonAmbiguous.
type valueError struct{ reason string }

func (e *valueError) Error() string { return e.reason }

var (
	errInvalid   = &valueError{ReasonInvalidValue}
	errAmbiguous = &valueError{ReasonAmbiguous}
)

// words splits s into lower-case words: runs of letters, digits and the
// degree sign (°C is one word), and each of the operator signs + * ^ = alone
// (so that a trigger can be "+").
func words(s string) []string { return appendWords(nil, s) }

// appendWords appends the words of s (as words splits them) to out.
func appendWords(out []string, s string) []string {
	if cap(out)-len(out) < len(s)/5+2 {
		out = slices.Grow(out, len(s)/5+2) // about one word per five bytes: one allocation
	}
	s = strings.ToLower(s)
	start := -1
	for i, r := range s {
		var word bool
		if r < utf8.RuneSelf {
			c := byte(r) // s is in lower case
			word = 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		} else {
			word = unicode.IsLetter(r) || unicode.IsDigit(r) || r == '°'
		}
		if word && start < 0 {
			start = i
		}
		if !word && start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
		if r == '+' || r == '*' || r == '^' || r == '=' {
			out = append(out, s[i:i+1])
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// maxWordBuf bounds the lower-case text of a word segmentWords looks up.
const maxWordBuf = 64

// segmentWords appends the words of s to out as appendWords splits them, but
// without a lower-case copy of s: a word already in lower case is a part of
// s, and one with an upper-case letter is the vocabulary's copy of its lower
// case, or "" when no trigger or decline phrase has it. The words are only
// ever compared with the words of triggers and decline phrases, which are
// never "", so every comparison has appendWords' answer.
func (r *Rules) segmentWords(out []string, s string) []string {
	if cap(out)-len(out) < len(s)/5+2 {
		out = slices.Grow(out, len(s)/5+2)
	}
	start, upper := -1, false
	end := func(i int) {
		if !upper {
			out = append(out, s[start:i])
			return
		}
		var buf [maxWordBuf]byte
		b := buf[:0]
		for _, r := range s[start:i] {
			if len(b) > maxWordBuf-utf8.UTFMax {
				b = nil
				break
			}
			if r < utf8.RuneSelf {
				if 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				b = append(b, byte(r))
			} else {
				b = utf8.AppendRune(b, unicode.ToLower(r))
			}
		}
		w := ""
		if b != nil && len(b) <= r.maxVocab {
			w = r.vocab[string(b)]
		}
		out = append(out, w)
	}
	for i, c := range s {
		var word, changes bool
		if c < utf8.RuneSelf {
			b := byte(c)
			changes = 'A' <= b && b <= 'Z'
			word = changes || 'a' <= b && b <= 'z' || '0' <= b && b <= '9'
		} else {
			// As appendWords reads strings.ToLower(s): the class of the
			// lower-case rune (an invalid byte reads as U+FFFD there).
			l := unicode.ToLower(c)
			changes = l != c || c == utf8.RuneError
			if l < utf8.RuneSelf {
				b := byte(l)
				word = 'a' <= b && b <= 'z' || '0' <= b && b <= '9'
			} else {
				word = unicode.IsLetter(l) || unicode.IsDigit(l) || l == '°'
			}
		}
		if word && start < 0 {
			start, upper = i, false
		}
		if word {
			upper = upper || changes
		}
		if !word && start >= 0 {
			end(i)
			start = -1
		}
		if c == '+' || c == '*' || c == '^' || c == '=' {
			out = append(out, s[i:i+1])
		}
	}
	if start >= 0 {
		end(len(s))
	}
	return out
}

// collapse trims s and replaces every run of white space by one space.
func collapse(s string) string {
	if isCollapsed(s) {
		return s // most segments are: no copy
	}
	return strings.Join(strings.Fields(s), " ")
}

// isCollapsed reports whether collapse(s) is s: no white space but single
// blanks between other characters.
func isCollapsed(s string) bool {
	for i, r := range s {
		switch {
		case r == ' ':
			if i == 0 || i == len(s)-1 || s[i+1] == ' ' {
				return false
			}
		case r < utf8.RuneSelf:
			if '\t' <= r && r <= '\r' {
				return false
			}
		case unicode.IsSpace(r):
			return false
		}
	}
	return true
}

// lowerKey returns strings.ToLower(collapse(s)) for a map lookup, in buf
// when s is ASCII (the caller converts it with string(), which a map lookup
// does without copying).
func lowerKey(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(buf[:0], strings.ToLower(collapse(s))...)
		}
	}
	out := buf[:0]
	for f := range strings.FieldsSeq(s) {
		if len(out) > 0 {
			out = append(out, ' ')
		}
		for i := 0; i < len(f); i++ {
			c := f[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			out = append(out, c)
		}
	}
	return out
}

var integerText = regexp.MustCompile(`^[+-]?\d+$`)

// canonicalInteger returns the integer written (sign, digits) without leading
// zeros or plus sign.
func canonicalInteger(s string) (string, error) {
	if n, ok := shortInteger(s); ok {
		return n, nil
	}
	s = strings.ReplaceAll(s, " ", "")
	if !integerText.MatchString(s) || len(s) > 400 {
		return "", errInvalid
	}
	var n big.Int
	if _, ok := n.SetString(s, 10); !ok {
		return "", errInvalid
	}
	return n.String(), nil
}

// shortInteger is canonicalInteger for an optional sign and 1 to 18 digits,
// without copying when there is nothing to drop; ok is false for anything
// else.
func shortInteger(s string) (string, bool) {
	body := s
	neg := false
	if len(body) > 0 && (body[0] == '-' || body[0] == '+') {
		neg, body = body[0] == '-', body[1:]
	}
	if len(body) == 0 || len(body) > 18 {
		return "", false
	}
	for i := 0; i < len(body); i++ {
		if body[i] < '0' || body[i] > '9' {
			return "", false
		}
	}
	for len(body) > 1 && body[0] == '0' {
		body = body[1:]
	}
	switch {
	case body == "0" || !neg:
		return body, true
	case len(s) == len(body)+1:
		return s, true // "-N" as written
	}
	return "-" + body, true
}

var decimalText = regexp.MustCompile(`^([+-]?)(\d+(?:[.,]\d+)*)$`)

// canonicalDecimal reads a decimal number as a person writes it in English or
// German and returns it in canonical form (no plus sign, no leading zeros, a
// point as decimal separator, the fraction digits as written):
//
//   - both "." and "," present: the last one is the decimal separator, the
//     other separates thousands ("1.234,5" and "1,234.5" are 1234.5);
//   - one separator repeated: thousands ("1.234.567");
//   - one separator once: decimal, unless exactly three digits follow a
//     leading group of 1-3 digits other than "0" ("1.234", "12,500"): that
//     reads as thousands in one language and as a fraction in the other, so it
//     is ambiguous.
//
// Thousands groups must have exactly three digits.
func canonicalDecimal(s string) (string, error) {
	if n, ok := shortInteger(s); ok {
		if s[0] == '-' && n == "0" {
			return "-0", nil // as written: the reading below keeps the sign
		}
		return n, nil
	}
	s = strings.ReplaceAll(s, " ", "")
	m := decimalText.FindStringSubmatch(s)
	if m == nil || len(s) > 200 {
		return "", errInvalid
	}
	sign, body := m[1], m[2]
	lastDot, lastComma := strings.LastIndexByte(body, '.'), strings.LastIndexByte(body, ',')
	var intPart, frac string
	switch {
	case lastDot < 0 && lastComma < 0:
		intPart = body
	case lastDot >= 0 && lastComma >= 0:
		sep := max(lastDot, lastComma)
		intPart, frac = body[:sep], body[sep+1:]
		thousands := ","
		if body[sep] == ',' {
			thousands = "."
		}
		if strings.ContainsAny(frac, ".,") {
			return "", errInvalid
		}
		var err error
		if intPart, err = ungroup(intPart, thousands); err != nil {
			return "", err
		}
	default:
		sep := "."
		if lastComma >= 0 {
			sep = ","
		}
		parts := strings.Split(body, sep)
		if len(parts) > 2 {
			var err error
			if intPart, err = ungroup(body, sep); err != nil {
				return "", err
			}
			break
		}
		intPart, frac = parts[0], parts[1]
		if len(frac) == 3 && len(intPart) <= 3 && intPart != "0" {
			return "", errAmbiguous
		}
	}
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	out := intPart
	if frac != "" {
		out += "." + frac
	}
	if sign == "-" {
		out = "-" + out
	}
	return out, nil
}

var pointText = regexp.MustCompile(`^[+-]?\d+(?:\.\d+)?$`)

// pointDecimal reads a number written with a decimal point only (coordinates:
// 13.405 is never thirteen thousand), canonical as canonicalDecimal.
func pointDecimal(s string) (string, error) {
	if !pointText.MatchString(s) || len(s) > 200 {
		return "", errInvalid
	}
	s = strings.TrimPrefix(s, "+")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	if frac != "" {
		intPart += "." + frac
	}
	if neg {
		intPart = "-" + intPart
	}
	return intPart, nil
}

// ungroup removes thousands separators sep from s, which must be grouped by
// three after a first group of 1-3 digits.
func ungroup(s, sep string) (string, error) {
	parts := strings.Split(s, sep)
	if len(parts[0]) == 0 || len(parts[0]) > 3 {
		return "", errInvalid
	}
	for i, p := range parts {
		if i > 0 && len(p) != 3 || strings.Trim(p, "0123456789") != "" {
			return "", errInvalid
		}
	}
	return strings.Join(parts, ""), nil
}

var (
	isoDate    = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})$`)
	germanDate = regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})\.(\d{4})$`)
	clockTime  = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::(\d{2}))?$`)
	dateTime   = regexp.MustCompile(`^([0-9.\-]+)(?:[T ]|\s*,\s*|\s+um\s+|\s+at\s+)(\d{1,2}:\d{2}(?::\d{2})?)(?:\s*uhr)?$`)
	instantEnd = regexp.MustCompile(`^(.*?)\s*(Z|[+-]\d{2}:\d{2}|UTC)$`)
)

// canonicalDate reads YYYY-MM-DD or DD.MM.YYYY and returns YYYY-MM-DD for a
// date that exists (years 0001-9999).
func canonicalDate(s string) (string, error) {
	var y, mo, d int
	if yy, mm, dd, ok := splitDate(s); ok {
		y, mo, d = yy, mm, dd
	} else if m := isoDate.FindStringSubmatch(s); m != nil {
		y, mo, d = atoi(m[1]), atoi(m[2]), atoi(m[3])
	} else if m := germanDate.FindStringSubmatch(s); m != nil {
		d, mo, y = atoi(m[1]), atoi(m[2]), atoi(m[3])
	} else {
		return "", errInvalid
	}
	if y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) {
		return "", errInvalid
	}
	if len(s) == 10 && s[4] == '-' {
		return s, nil // already YYYY-MM-DD
	}
	b := []byte("0000-00-00")
	for i, v := range []int{y / 1000, y / 100 % 10, y / 10 % 10, y % 10, -1, mo / 10, mo % 10, -1, d / 10, d % 10} {
		if v >= 0 {
			b[i] = byte('0' + v)
		}
	}
	return string(b), nil
}

// splitDate reads YYYY-M-D and D.M.YYYY (one or two digits for day and
// month) as canonicalDate's regexes do, without them.
func splitDate(s string) (y, mo, d int, ok bool) {
	num := func(t string, min, max int) (int, bool) {
		if len(t) < min || len(t) > max {
			return 0, false
		}
		n := 0
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return 0, false
			}
			n = n*10 + int(t[i]-'0')
		}
		return n, true
	}
	sep, order := byte('-'), [3][2]int{{4, 4}, {1, 2}, {1, 2}}
	if strings.IndexByte(s, '-') < 0 {
		sep, order = '.', [3][2]int{{1, 2}, {1, 2}, {4, 4}}
	}
	var parts [3]int
	rest := s
	for i := range 3 {
		part := rest
		if i < 2 {
			j := strings.IndexByte(rest, sep)
			if j < 0 {
				return 0, 0, 0, false
			}
			part, rest = rest[:j], rest[j+1:]
		}
		n, good := num(part, order[i][0], order[i][1])
		if !good {
			return 0, 0, 0, false
		}
		parts[i] = n
	}
	if sep == '-' {
		return parts[0], parts[1], parts[2], true
	}
	return parts[2], parts[1], parts[0], true
}

// canonicalDateTime reads a date and a wall time (T, space, comma, "um" or
// "at" between; seconds optional; "Uhr" after) and returns
// YYYY-MM-DDTHH:MM:SS.
func canonicalDateTime(s string) (string, error) {
	m := dateTime.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", errInvalid
	}
	d, err := canonicalDate(m[1])
	if err != nil {
		return "", err
	}
	c := clockTime.FindStringSubmatch(m[2])
	h, mi, sec := atoi(c[1]), atoi(c[2]), 0
	if c[3] != "" {
		sec = atoi(c[3])
	}
	if h > 23 || mi > 59 || sec > 59 {
		return "", errInvalid
	}
	return d + "T" + pad(h, 2) + ":" + pad(mi, 2) + ":" + pad(sec, 2), nil
}

// canonicalInstant is canonicalDateTime followed by Z, UTC or ±HH:MM; UTC
// becomes Z.
func canonicalInstant(s string) (string, error) {
	m := instantEnd.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", errInvalid
	}
	dt, err := canonicalDateTime(m[1])
	if err != nil {
		return "", err
	}
	off := m[2]
	switch off {
	case "UTC", "Z":
		off = "Z"
	default:
		if atoi(off[1:3]) > 23 || atoi(off[4:6]) > 59 {
			return "", errInvalid
		}
	}
	return dt + off, nil
}

// canonicalZone returns the IANA id of a zone written as an id (any case) or
// as UTC; abbreviations such as CET, MEZ or EST are ambiguous and refused.
func canonicalZone(s string) (string, error) {
	if strings.EqualFold(s, "UTC") {
		return "UTC", nil
	}
	if !strings.Contains(s, "/") {
		return "", errAmbiguous
	}
	z, err := tzdb.Lookup(s)
	if err != nil {
		return "", errInvalid
	}
	return z.Name(), nil
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

var listSep = regexp.MustCompile(`(?i)\s*;\s*|,\s+|\s+(?:und|and|sowie)\s+`)

// value converts one captured text to an argument value of type typ.
func value(typ, s string) (any, error) {
	switch typ {
	case "integer":
		n, err := canonicalInteger(s)
		return json.Number(n), err
	case "number":
		n, err := canonicalDecimal(s)
		return json.Number(n), err
	case "decimal":
		return canonicalDecimal(s)
	case "point_number":
		n, err := pointDecimal(s)
		return json.Number(n), err
	case "date":
		return canonicalDate(s)
	case "datetime":
		return canonicalDateTime(s)
	case "instant":
		return canonicalInstant(s)
	case "zone":
		return canonicalZone(s)
	case "string", "payload":
		return s, nil
	case "lower":
		return strings.ToLower(s), nil
	case "upper":
		return strings.ToUpper(s), nil
	case "integers", "numbers", "decimals":
		elem := strings.TrimSuffix(typ, "s")
		parts := listSep.Split(strings.TrimSpace(s), -1)
		out := make([]any, 0, len(parts))
		for _, p := range parts {
			v, err := value(elem, p)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, errInvalid
}
