package filestore

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
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

// FuzzHandlerPath: any request path reaches the handler without a panic, and
// only the exact name of a stored file is ever served.
func FuzzHandlerPath(f *testing.F) {
	s, err := Open(Config{Dir: filepath.Join(f.TempDir(), "dl")})
	if err != nil {
		f.Fatal(err)
	}
	e, err := s.Put("ok", "txt", []byte("ok"))
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	for _, p := range []string{"/downloads/" + e.Name, "/downloads/../x", "/downloads/%2e%2e%2f", "/downloads/" + e.Name + "%00", "//", ""} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.ParseRequestURI("/downloads/" + strings.TrimPrefix(raw, "/"))
		if err != nil {
			return
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.URL = u
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		last := u.Path[strings.LastIndexByte(u.Path, '/')+1:]
		dirty := strings.Contains(u.Path, "//") || strings.Contains(u.Path, "/./") || strings.Contains(u.Path, "/../")
		if w.Code == http.StatusOK && (last != e.Name || dirty || strings.Contains(u.EscapedPath()[strings.LastIndexByte(u.EscapedPath(), '/')+1:], "%")) {
			t.Fatalf("served %q for %q", w.Body.String(), raw)
		}
		if w.Code != http.StatusOK && w.Code != http.StatusNotFound {
			t.Fatalf("status %d for %q", w.Code, raw)
		}
	})
}
