// Package evidence implements the wire-compatible canonical JSON encoding, the
// contract, result and catalogue hashes, and the evidence envelope (README, The
// evidence envelope).
package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/precisiond/precisiond/internal/pyrepr"
)

// Float is a float64 fact. It marshals in Python repr form (`100.0`, `1e-05`,
// `1.5e+300`), so a float stays a float on the wire and in every hash; a plain
// float64 would marshal 100.0 as the integer 100 and change the hash.
type Float float64

// MarshalJSON writes f in Python repr form. NaN and infinities are refused: JSON
// cannot carry them and no fact may hold them.
func (f Float) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return nil, fmt.Errorf("evidence: float %v has no JSON form", float64(f))
	}
	return pyrepr.AppendFloat(nil, float64(f)), nil
}

// ErrNonFinite is returned for a number that is not a finite float64 (1e400).
var ErrNonFinite = errors.New("number out of float range")

// IsFloatLiteral reports whether a JSON number literal is a float in Python's
// reading: written with '.', 'e' or 'E'.
func IsFloatLiteral(n string) bool {
	return strings.ContainsAny(n, ".eE")
}

// ParseJSON decodes one JSON document into generic values: objects as
// map[string]any, arrays as []any, numbers as json.Number (so integers keep every
// digit and floats keep their float-ness). Trailing data is an error, and so is
// text without an exact Unicode value (a *TextError: invalid UTF-8 or a lone
// surrogate escape, which a decoder would turn into U+FFFD).
func ParseJSON(data []byte) (any, error) {
	if err := CheckText(data); err != nil {
		return nil, err
	}
	v, err := decodeGeneric(data)
	if err != nil {
		return nil, err
	}
	if err := CheckNumbers(v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeGeneric decodes one JSON document as encoding/json (UseNumber) does:
// the single-pass parseGeneric for the documents it handles, encoding/json
// for the rest (and for the words of every error).
func decodeGeneric(data []byte) (any, error) {
	if v, ok := parseGeneric(data); ok {
		return v, nil
	}
	return decodeGenericStd(data)
}

// decodeGenericStd is decodeGeneric by encoding/json alone.
func decodeGenericStd(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// MaxIntegerDigits bounds integer literals, as Python's int() does by default.
const MaxIntegerDigits = 4300

// CheckNumbers refuses number literals that cannot be carried exactly: a float
// that overflows float64 or underflows a non-zero value to zero, or an integer of
// more than MaxIntegerDigits digits. It keeps huge exponents (1e999999999) from
// ever reaching big-number code.
func CheckNumbers(v any) error {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if IsFloatLiteral(s) {
			if i := strings.IndexAny(s, "eE"); i >= 0 {
				// Bound the exponent before anything (a schema validator's big.Rat)
				// expands it: 1e-999999999 would take minutes.
				if e, err := strconv.Atoi(s[i+1:]); err != nil || e > 400 || e < -400 {
					return fmt.Errorf("number %.40s has an exponent outside ±400", s)
				}
			}
			if _, err := strconv.ParseFloat(s, 64); err != nil {
				return fmt.Errorf("number %.40s is outside the float range", s)
			}
			return nil
		}
		if len(strings.TrimPrefix(s, "-")) > MaxIntegerDigits {
			return fmt.Errorf("integer of %d digits exceeds the limit of %d", len(s), MaxIntegerDigits)
		}
	case map[string]any:
		for _, e := range x {
			if err := CheckNumbers(e); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := CheckNumbers(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// ToGeneric converts a Go value (a facts struct) into generic JSON values via its
// JSON encoding. Unlike ParseJSON it puts no bound on integer size: facts may be
// larger than what a request may carry.
func ToGeneric(v any) (any, error) {
	buf := GetBuffer()
	defer PutBuffer(buf)
	w := bytes.NewBuffer(*buf)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	*buf = w.Bytes()
	return decodeGeneric(*buf) // copies what it keeps
}

// Canonical returns canonical(v), the encoding every hash is computed over:
// exactly what Python's json.dumps(v, ensure_ascii=False, sort_keys=True,
// separators=(",", ":")) writes.
// v is a generic value (see ParseJSON); json.Number, Float, *big.Int, ints, bool,
// nil and string are accepted; other types go through their JSON encoding first.
func Canonical(v any) ([]byte, error) {
	return AppendCanonical(make([]byte, 0, 256), v)
}

// AppendCanonical appends canonical(v) to b.
func AppendCanonical(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case string:
		return appendPyString(b, x), nil
	case json.Number:
		return appendNumber(b, string(x))
	case Float:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, ErrNonFinite
		}
		return pyrepr.AppendFloat(b, float64(x)), nil
	case float64:
		// A bare float64 is a float in Python too.
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, ErrNonFinite
		}
		return pyrepr.AppendFloat(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case *big.Int:
		return x.Append(b, 10), nil
	case map[string]any:
		// Small maps (nearly all facts and arguments) sort their keys in a stack
		// array instead of a fresh slice.
		var kbuf [16]string
		keys := kbuf[:0]
		if len(x) > len(kbuf) {
			keys = make([]string, 0, len(x))
		}
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareCodePoints)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPyString(b, k)
			b = append(b, ':')
			var err error
			if b, err = AppendCanonical(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = AppendCanonical(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	default:
		g, err := ToGeneric(v)
		if err != nil {
			return nil, err
		}
		return AppendCanonical(b, g)
	}
}

// compareCodePoints orders strings by Unicode code point, as Python sorts str keys.
// For valid UTF-8, byte order equals code-point order.
func compareCodePoints(a, b string) int { return strings.Compare(a, b) }

func appendNumber(b []byte, n string) ([]byte, error) {
	if IsFloatLiteral(n) {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%w: %s", ErrNonFinite, n)
		}
		return pyrepr.AppendFloat(b, f), nil
	}
	// An integer literal: normalise as Python's int() would ("-0" is 0). Literals
	// already in normal form (what a JSON decoder and strconv produce) are copied
	// as they are, without a big.Int round trip.
	if isNormalInteger(n) {
		return append(b, n...), nil
	}
	var z big.Int
	if _, ok := z.SetString(n, 10); !ok {
		return nil, fmt.Errorf("evidence: invalid integer %q", n)
	}
	return z.Append(b, 10), nil
}

// isNormalInteger reports whether n is an integer literal exactly as big.Int
// would print it: an optional '-', then digits without a leading zero, and not
// "-0".
func isNormalInteger(n string) bool {
	d := n
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || (d[0] == '0' && (len(d) > 1 || len(n) > 1)) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

const hexDigits = "0123456789abcdef"

// shortEscapes maps the bytes that have a two-character JSON escape to its
// letter; the other bytes map to 0.
var shortEscapes = [256]byte{'"': '"', '\\': '\\', '\b': 'b', '\t': 't', '\n': 'n', '\f': 'f', '\r': 'r'}

// ShortEscape returns the letter of c's two-character JSON escape (\" \\ \b
// \t \n \f \r), which Python's json.dumps prefers to \u00XX, or 0 when c has
// none.
func ShortEscape(c byte) byte { return shortEscapes[c] }

// AppendString appends canonical(s): AppendCanonical for a string, without
// boxing it in an interface (an allocation on the hot path).
func AppendString(b []byte, s string) []byte { return appendPyString(b, s) }

func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			if c < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				// Invalid UTF-8 cannot come from a JSON decoder; write U+FFFD as
				// encoding/json would have.
				b = append(b, s[start:i]...)
				b = append(b, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		if e := ShortEscape(c); e != 0 {
			b = append(b, '\\', e)
		} else {
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Hash returns H(v): the lowercase hex SHA-256 of canonical(v).
func Hash(v any) (string, error) {
	buf := GetBuffer()
	defer PutBuffer(buf)
	b, err := AppendCanonical((*buf)[:0], v)
	if err != nil {
		return "", err
	}
	*buf = b
	return HashBytes(b), nil
}

// bufPool recycles the byte slices canonical JSON is written into on the hot
// path (hashes, response bodies), so a call does not grow a fresh buffer each time.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// maxPooledBuffer keeps one huge response from pinning its buffer in the pool.
const maxPooledBuffer = 64 << 10

// GetBuffer returns an empty buffer from the pool; give it back with PutBuffer
// once nothing refers to its bytes any more.
func GetBuffer() *[]byte {
	b := bufPool.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// PutBuffer returns a buffer obtained from GetBuffer to the pool.
func PutBuffer(b *[]byte) {
	if cap(*b) > maxPooledBuffer {
		return
	}
	bufPool.Put(b)
}

// HashBytes returns the lowercase hex SHA-256 of b.
func HashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
