package filestore

import (
	"testing"
	"unicode/utf8"
)

// FuzzSanitizeBase: every result is a safe base name (the joined file name
// matches NamePattern), at most 64 bytes, ASCII, and sanitizing is idempotent
// when no extension is stripped.
func FuzzSanitizeBase(f *testing.F) {
	for _, s := range []string{"report", "../../etc/passwd", "Grüße aus Köln.pdf", "", "...", "a..b", "\x00", "ﬁ", "中文", "x.csv.csv", "%2e%2e/", "C:\\x", "a-._-b"} {
		f.Add(s, "pdf")
	}
	f.Fuzz(func(t *testing.T, name, ext string) {
		if !utf8.ValidString(ext) || len(ext) > 8 {
			ext = "txt"
		}
		got := SanitizeBase(name, ext)
		if len(got) == 0 || len(got) > maxBaseLen {
			t.Fatalf("length %d: %q", len(got), got)
		}
		for i := 0; i < len(got); i++ {
			if got[i] >= 0x80 || got[i] == '/' || got[i] == '\\' || got[i] == '%' {
				t.Fatalf("unsafe byte in %q", got)
			}
		}
		for _, e := range Extensions {
			if n := FileName([]byte(name), got, e); !NamePattern.MatchString(n) {
				t.Fatalf("%q does not match the pattern", n)
			}
		}
		if again := SanitizeBase(got, ""); again != got {
			t.Fatalf("not idempotent: %q -> %q", got, again)
		}
	})
}
