package evidence

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckText(t *testing.T) {
	cases := []struct {
		name   string
		doc    string
		reason string // "" means accepted
		offset int
	}{
		{"ascii", `{"a":"b"}`, "", 0},
		{"valid multibyte", `{"a":"äö€😀"}`, "", 0},
		{"escaped pair", `{"a":"\ud83d\ude00"}`, "", 0},
		{"escaped pair upper case", `{"a":"\uD83D\uDE00"}`, "", 0},
		{"escaped BMP", `{"a":"\u00e4\u20ac\ufffd"}`, "", 0},
		{"literal U+FFFD", "{\"a\":\"\xef\xbf\xbd\"}", "", 0},
		{"escaped backslash before u", `{"a":"\\ud800"}`, "", 0},
		{"lone high", `{"a":"\ud800"}`, ReasonLoneSurrogate, 6},
		{"lone high at end of doc", `"\ud800`, ReasonLoneSurrogate, 1},
		{"lone low", `{"a":"x\udc00"}`, ReasonLoneSurrogate, 7},
		{"high then BMP escape", `{"a":"\ud800\u0041"}`, ReasonLoneSurrogate, 6},
		{"high then high", `{"a":"\ud800\ud800"}`, ReasonLoneSurrogate, 6},
		{"high then literal", `{"a":"\ud800x"}`, ReasonLoneSurrogate, 6},
		{"lone surrogate in key", `{"\udfff":1}`, ReasonLoneSurrogate, 2},
		{"bad byte in string", "{\"a\":\"x\xffy\"}", ReasonInvalidUTF8, 7},
		{"truncated sequence", "{\"a\":\"\xe2\x82\"}", ReasonInvalidUTF8, 6},
		{"encoded surrogate (CESU)", "{\"a\":\"\xed\xa0\x80\"}", ReasonInvalidUTF8, 6},
		{"overlong slash", "{\"a\":\"\xc0\xaf\"}", ReasonInvalidUTF8, 6},
		{"bad byte outside strings", "{\"a\":1\x80}", ReasonInvalidUTF8, 6},
		{"latin-1 key", "{\"\xe4\":1}", ReasonInvalidUTF8, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckText([]byte(c.doc))
			if c.reason == "" {
				if err != nil {
					t.Fatalf("CheckText = %v, want nil", err)
				}
				return
			}
			var te *TextError
			if !errors.As(err, &te) {
				t.Fatalf("CheckText = %v, want *TextError", err)
			}
			if te.Reason != c.reason || te.Offset != c.offset {
				t.Errorf("got reason %s offset %d, want %s offset %d", te.Reason, te.Offset, c.reason, c.offset)
			}
			// ParseJSON refuses the same documents with the same error.
			if _, perr := ParseJSON([]byte(c.doc)); !errors.As(perr, &te) {
				t.Errorf("ParseJSON = %v, want *TextError", perr)
			}
		})
	}
}

func TestParseJSONKeepsValidText(t *testing.T) {
	v, err := ParseJSON([]byte(`{"a":"\ud83d\ude00 \u00e4","b":"\ufffd"}`))
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if got, want := m["a"], "😀 ä"; got != want {
		t.Errorf("a = %q, want %q", got, want)
	}
	if got, want := m["b"], "\uFFFD"; got != want {
		t.Errorf("b = %q, want %q", got, want)
	}
}

// FuzzCheckText checks CheckText against what a lenient decoder does: for a
// well-formed document, CheckText accepts exactly when decoding with encoding/json
// introduces no U+FFFD that the document did not spell out (literally or as
// \ufffd), i.e. when no text was replaced.
func FuzzCheckText(f *testing.F) {
	for _, s := range []string{
		`{"a":"b"}`, `"\ud800"`, `"\ud83d\ude00"`, `"\udc00"`, "\"\xff\"", `["\\ud800"]`,
		`{"\ud800\u0041":1}`, "\"\xef\xbf\xbd\"", `"\uFFFD"`, `"\ud800\\"`, `"\ud800\u"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := CheckText(data)
		if err != nil {
			var te *TextError
			if !errors.As(err, &te) || te.Offset < 0 || te.Offset >= len(data) {
				t.Fatalf("CheckText = %#v for %q", err, data)
			}
		}
		if !json.Valid(data) {
			return
		}
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		decoded := countReplacement(v)
		spelled := bytes.Count(data, []byte("\uFFFD")) + strings.Count(strings.ToLower(string(data)), `\ufffd`)
		// An escaped backslash followed by "ufffd" is counted as spelled but
		// decodes to text, not U+FFFD: only compare when that cannot happen.
		if bytes.Contains(data, []byte(`\\`)) {
			if err == nil && decoded > spelled {
				t.Fatalf("CheckText accepted %q but decoding replaced text", data)
			}
			return
		}
		if (err == nil) != (decoded == spelled) {
			t.Fatalf("CheckText = %v, decoded U+FFFD %d, spelled %d, for %q", err, decoded, spelled, data)
		}
	})
}

func countReplacement(v any) int {
	n := 0
	switch x := v.(type) {
	case string:
		n = strings.Count(x, "\uFFFD")
		if !utf8.ValidString(x) {
			n += 1000
		}
	case map[string]any:
		for k, e := range x {
			n += strings.Count(k, "\uFFFD") + countReplacement(e)
		}
	case []any:
		for _, e := range x {
			n += countReplacement(e)
		}
	}
	return n
}
