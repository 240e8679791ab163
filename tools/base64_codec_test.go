package tools

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// TestBase64Messages: every refusal names the offset and what is wrong there
// (issue 14: "QR==" was refused as "invalid character 'Q' at offset 0").
func TestBase64Messages(t *testing.T) {
	for _, c := range []struct {
		text    string
		urlsafe bool
		want    []string // fragments the message must contain
	}{
		{"=QQ", false, []string{"'=' at offset 0", "before any data"}},
		{"\n=QQ==", false, []string{"'=' at offset 1", "before any data"}},
		{"QQ=Q", false, []string{"'Q' at offset 3", "follows the padding '=' at offset 2"}},
		{"QQ===", false, []string{"'=' at offset 4", "follows the padding that ends the data at offset 3"}},
		{"QUJDR", false, []string{"5 data characters", "single character"}},
		{"QQ=", false, []string{"incomplete padding at offset 2", `"=="`}},
		{"QUJDRA=", false, []string{"incomplete padding at offset 6", `"=="`}},
		{"QUI\n=\n=", false, []string{"'=' at offset 6", "ends the data at offset 4"}},
		{"ab$c", false, []string{"'$' at offset 2", "standard alphabet"}},
		{"QQé=", false, []string{"'é' at offset 2"}},
		{"aGV sbG8", false, []string{"' ' at offset 3", "only CR and LF"}},
		{"-_-_", false, []string{"'-' at offset 0", "urlsafe variant"}},
		{"ab+c", true, []string{"'+' at offset 2", "urlsafe alphabet", "standard variant"}},
	} {
		_, _, err := decodeBase64(c.text, c.urlsafe)
		var te *Error
		if !errors.As(err, &te) || te.Reason != "invalid_base64" {
			t.Errorf("%q: got %v, want invalid_base64", c.text, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(te.Message, w) {
				t.Errorf("%q: message %q lacks %q", c.text, te.Message, w)
			}
		}
	}
}

// FuzzBase64Decode: decoding never panics and refuses only with
// invalid_base64; whatever Go's lenient decoders accept (padded or not,
// trailing bits ignored, CR/LF skipped) decodes to the same bytes here, and
// what decodes here re-encodes and decodes back to itself.
func FuzzBase64Decode(f *testing.F) {
	for _, s := range []string{"aGVsbG8=", "aGVsbG8", "a", "====", "ab\r\ncd", "w7w_Pg", "", "QR==", "QUJ=", "QQ===", "QUJD=", "Q=Q="} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, urlsafe bool) {
		got, read, err := decodeBase64(s, urlsafe)
		std, raw := base64.StdEncoding, base64.RawStdEncoding
		if urlsafe {
			std, raw = base64.URLEncoding, base64.RawURLEncoding
		}
		if err != nil {
			var te *Error
			if !errors.As(err, &te) || te.Reason != "invalid_base64" {
				t.Fatalf("%q: untyped error %v", s, err)
			}
			for _, enc := range []*base64.Encoding{std, raw} {
				if b, gerr := enc.DecodeString(s); gerr == nil {
					t.Fatalf("%q: refused (%v), but Go decodes it to %x", s, err, b)
				}
			}
			return
		}
		if want := len(strings.NewReplacer("\r", "", "\n", "").Replace(s)); read != want {
			t.Fatalf("%q: read %d characters, want %d", s, read, want)
		}
		for _, enc := range []*base64.Encoding{std, raw} {
			if b, gerr := enc.DecodeString(s); gerr == nil && string(b) != string(got) {
				t.Fatalf("%q: decodes to %x, Go to %x", s, got, b)
			}
		}
		back, _, err := decodeBase64(std.EncodeToString(got), urlsafe)
		if err != nil || string(back) != string(got) {
			t.Fatalf("%q: %x does not round-trip: %x, %v", s, got, back, err)
		}
	})
}
