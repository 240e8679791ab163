package api

import (
	"net/url"
	"path"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/surface"
)

func TestDownloadLinks(t *testing.T) {
	if link := surface.DownloadLinks("https://h.example/p/")("0123456789ab_x.md"); link != "https://h.example/p/downloads/0123456789ab_x.md" {
		t.Errorf("download link %q", link)
	}
	if surface.DownloadLinks("") != nil {
		t.Error("without a public base URL links must stay relative")
	}
	if surface.DownloadLinks("ftp://h") != nil {
		t.Error("a refused base URL gave links")
	}
}

// FuzzPublicBase: every --public-base-url accepted is an absolute http(s)
// URL without credentials, query or fragment, and the download links built
// on it parse back to the same host with the file name as the last segment.
func FuzzPublicBase(f *testing.F) {
	for _, s := range []string{"https://precisiond.example.com", "http://h:8003/p/", "https://h/a%2Fb", "ftp://x", "https://u@h", "https://h/?", "https://h/#", "//h/p", "https://[::1]:80/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		base, err := surface.PublicBase(v)
		if err != nil {
			return
		}
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(base, "/") {
			t.Fatalf("accepted %q as %q (%v)", v, base, err)
		}
		link := surface.DownloadLinks(v)("0123456789ab_x.md")
		l, err := url.Parse(link)
		if err != nil || l.Host != u.Host || path.Base(l.Path) != "0123456789ab_x.md" {
			t.Fatalf("link %q from %q: %v", link, v, err)
		}
	})
}
