package api

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/tools"
)

// The download route's tests (moved here with the handler from
// internal/filestore).

// newDownloadStore opens a store in a temporary directory.
func newDownloadStore(t testing.TB, dir string) *filestore.Store {
	t.Helper()
	if dir == "" {
		dir = filepath.Join(t.TempDir(), "downloads")
	}
	s, err := filestore.Open(filestore.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// builtinRegistry is the registry of the built-in tools without a download
// store (generate_file refuses).
func builtinRegistry() *tools.Registry {
	return tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
}

// builtinOnStore returns a download store in a temporary directory and the
// built-in registry whose generate_file writes into it.
func builtinOnStore(tb testing.TB) (*filestore.Store, *tools.Registry) {
	tb.Helper()
	store := newDownloadStore(tb, "")
	return store, tools.NewRegistry(tools.Builtin(tools.Deps{Files: store}), tools.Options{})
}

func serveDownloads(t *testing.T, s *filestore.Store) *httptest.Server {
	t.Helper()
	// The handler is the whole server: no router cleans or redirects paths, so
	// hostile paths reach it exactly as sent.
	srv := httptest.NewServer(downloadHandler(s, slog.New(slog.DiscardHandler))) // loopback
	t.Cleanup(srv.Close)
	return srv
}

// rawGet sends the request path exactly as written (no client-side cleaning).
func rawGet(t *testing.T, srv *httptest.Server, method, rawPath string, hdr map[string]string) (int, http.Header, string) {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := method + " " + rawPath + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
	for k, v := range hdr {
		req += k + ": " + v + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	code, _, body := rawGet(t, srv, "GET", path, nil)
	return code, body
}

func TestHandlerServesWithHeaders(t *testing.T) {
	s := newDownloadStore(t, "")
	srv := serveDownloads(t, s)
	for _, ext := range filestore.Extensions {
		data := []byte("content of " + ext)
		e, err := s.Put(context.Background(), "Bericht", ext, data)
		if err != nil {
			t.Fatal(err)
		}
		code, h, body := rawGet(t, srv, "GET", "/downloads/"+e.Name, nil)
		if code != 200 || body != string(data) {
			t.Fatalf("%s: %d %q", ext, code, body)
		}
		wantType := map[string]string{
			"html": "text/html; charset=utf-8", "md": "text/markdown; charset=utf-8", "txt": "text/plain; charset=utf-8",
			"csv": "text/csv; charset=utf-8", "pdf": "application/pdf",
			"docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
			"pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
			"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		}[ext]
		checks := map[string]string{
			"Content-Type":           wantType,
			"Content-Disposition":    `attachment; filename="` + e.Name + `"`,
			"X-Content-Type-Options": "nosniff",
			"Etag":                   `"` + e.SHA256 + `"`,
			"Content-Length":         strconv.Itoa(len(data)),
		}
		for k, v := range checks {
			if h.Get(k) != v {
				t.Errorf("%s: %s = %q, want %q", ext, k, h.Get(k), v)
			}
		}
		if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("%s: CSP %q", ext, h.Get("Content-Security-Policy"))
		}
		// Conditional GET.
		code, _, body = rawGet(t, srv, "GET", "/downloads/"+e.Name, map[string]string{"If-None-Match": `"` + e.SHA256 + `"`})
		if code != http.StatusNotModified || body != "" {
			t.Errorf("%s: If-None-Match → %d %q", ext, code, body)
		}
		code, _, _ = rawGet(t, srv, "GET", "/downloads/"+e.Name, map[string]string{"If-None-Match": `"0000"`})
		if code != 200 {
			t.Errorf("%s: non-matching If-None-Match → %d", ext, code)
		}
		// HEAD: headers, no body.
		code, h, body = rawGet(t, srv, "HEAD", "/downloads/"+e.Name, nil)
		if code != 200 || body != "" || h.Get("Etag") != `"`+e.SHA256+`"` || h.Get("Content-Length") != strconv.Itoa(len(data)) {
			t.Errorf("%s: HEAD %d %q %v", ext, code, body, h)
		}
	}
	code, h, body := rawGet(t, srv, "POST", "/downloads/x", nil)
	if code != http.StatusMethodNotAllowed || h.Get("Allow") != "GET, HEAD" || !strings.Contains(body, `"error_code":"method_not_allowed"`) {
		t.Errorf("POST: %d %v %q", code, h, body)
	}
}

func TestHandlerNeverEscapes(t *testing.T) {
	base := t.TempDir()
	s := newDownloadStore(t, filepath.Join(base, "downloads"))
	srv := serveDownloads(t, s)
	e, _ := s.Put(context.Background(), "ok", "txt", []byte("ok"))

	// A secret outside the store, and links to it planted inside under valid names.
	secret := filepath.Join(base, "secret.txt")
	if err := os.WriteFile(secret, []byte("TOP SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("TOP SECRET"))
	linkName := hex.EncodeToString(sum[:6]) + "_secret.txt" // hash matches the target
	if err := os.Symlink(secret, filepath.Join(s.Dir(), linkName)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(s.Dir(), "aaaaaaaaaaaa_passwd.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.Name, filepath.Join(s.Dir(), "bbbbbbbbbbbb_alias.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(s.Dir(), "cccccccccccc_dir.txt"), 0o750); err != nil {
		t.Fatal(err)
	}
	// A FIFO under a valid name must not block the reader.
	if err := syscall.Mkfifo(filepath.Join(s.Dir(), "dddddddddddd_fifo.txt"), 0o640); err != nil {
		t.Fatal(err)
	}

	paths := []string{
		"/downloads/" + linkName,
		"/downloads/aaaaaaaaaaaa_passwd.txt",
		"/downloads/bbbbbbbbbbbb_alias.txt",
		"/downloads/cccccccccccc_dir.txt",
		"/downloads/dddddddddddd_fifo.txt",
		"/downloads/../secret.txt",
		"/downloads/..%2fsecret.txt",
		"/downloads/%2e%2e/secret.txt",
		"/downloads/%2e%2e%2fsecret.txt",
		"/downloads/%2E%2E%2F" + linkName,
		"/downloads/..",
		"/downloads/.",
		"/downloads/",
		"/downloads//etc/passwd",
		"/downloads/%2Fetc%2Fpasswd",
		"/downloads/" + e.Name + "%00",
		"/downloads/" + strings.Replace(e.Name, "_", "%5F", 1),
		"/downloads/" + e.Name + "/",
		"/downloads/" + e.Name + "/..",
		"/downloads/" + strings.ToUpper(e.Name),
		"/downloads/" + e.Name[:12] + "_ok.exe",
		"/downloads/.tmp-x",
		"/downloads/..%5csecret.txt",
		"/downloads/x/../../secret.txt",
		"/downloads/secret.txt",
		"/downloads/" + e.Name[:12] + "_..txt",
		"/downloads/../downloads/" + e.Name,
		"/downloads/./" + e.Name,
		"/downloads//" + e.Name,
	}
	for _, p := range paths {
		code, h, body := rawGet(t, srv, "GET", p, nil)
		if code != http.StatusNotFound {
			t.Errorf("%s: status %d body %q", p, code, body)
			continue
		}
		if strings.Contains(body, "SECRET") || strings.Contains(body, "root:") || body == "ok" {
			t.Errorf("%s: leaked %q", p, body)
		}
		if code == http.StatusNotFound {
			var m map[string]string
			if err := json.Unmarshal([]byte(body), &m); err != nil || m["error_code"] != "not_found" || m["error"] != "not found" || m["tool"] != "generate_file" {
				t.Errorf("%s: body %q", p, body)
			}
			if h.Get("Content-Type") != "application/json" {
				t.Errorf("%s: content type %q", p, h.Get("Content-Type"))
			}
		}
	}
	// The janitor leaves links alone (they are not objects of the store) and
	// never touches their targets.
	if err := s.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "TOP SECRET" {
		t.Fatal("the sweep touched the link target")
	}
	if _, err := os.Stat("/etc/passwd"); err != nil {
		t.Fatal(err)
	}
	if code, _ := get(t, srv, "/downloads/"+e.Name); code != 200 {
		t.Fatalf("the genuine file is no longer served: %d", code)
	}
}

func TestHandlerDirectRequests(t *testing.T) {
	// Requests built in-process (no client or server path cleaning) with hostile
	// URL paths.
	s := newDownloadStore(t, "")
	e, _ := s.Put(context.Background(), "ok", "txt", []byte("ok"))
	h := downloadHandler(s, slog.New(slog.DiscardHandler))
	for _, p := range []string{"/downloads/../" + e.Name, "../" + e.Name, "/downloads/./" + e.Name, "/downloads//" + e.Name, "/downloads/a\x00b", e.Name, "/downloads/" + e.Name, "/x/downloads/" + e.Name} {
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.Path = p
		r.URL.RawPath = ""
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		// Only a stored file's exact name as the last segment of a clean path
		// is served (the mount point is the router's business).
		want := http.StatusNotFound
		if p == "/downloads/"+e.Name || p == "/x/downloads/"+e.Name {
			want = http.StatusOK
		}
		if w.Code != want {
			t.Errorf("%q: %d, want %d", p, w.Code, want)
		}
	}
}

// BenchmarkServe measures GET of a stored 64 KB file through the handler.
func BenchmarkServe(b *testing.B) {
	s := newDownloadStore(b, "")
	e, err := s.Put(context.Background(), "bench", "pdf", make([]byte, 64<<10))
	if err != nil {
		b.Fatal(err)
	}
	h := downloadHandler(s, slog.New(slog.DiscardHandler))
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/downloads/"+e.Name, nil))
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// FuzzHandlerPath: any request path reaches the handler without a panic, and
// only the exact name of a stored file is ever served.
func FuzzHandlerPath(f *testing.F) {
	s := newDownloadStore(f, "")
	e, err := s.Put(context.Background(), "ok", "txt", []byte("ok"))
	if err != nil {
		f.Fatal(err)
	}
	h := downloadHandler(s, slog.New(slog.DiscardHandler))
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
