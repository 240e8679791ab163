package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// cacheable serves a GET route's 200 answers with an ETag (the SHA-256 of
// the body), answers If-None-Match with 304, and gzips the body for clients
// that accept it (GET /tools and /openapi.json: large, and the same until the
// catalogue changes). The gzip of the last body is kept, so that a stable
// answer is compressed once.
func cacheable(next http.Handler) http.Handler {
	var last atomic.Pointer[gzipped]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &bufferedResponse{header: http.Header{}}
		next.ServeHTTP(rec, r)
		h := w.Header()
		for k, v := range rec.header {
			h[k] = v
		}
		if rec.status != 0 && rec.status != http.StatusOK {
			w.WriteHeader(rec.status)
			_, _ = w.Write(rec.body.Bytes())
			return
		}
		body := rec.body.Bytes()
		sum := sha256.Sum256(body)
		tag := hex.EncodeToString(sum[:16])
		gz := acceptsGzip(r)
		etag := `"` + tag + `"`
		if gz {
			etag = `"` + tag + `-gzip"`
		}
		h.Add("Vary", "Accept-Encoding")
		h.Set("ETag", etag)
		h.Set("Cache-Control", "no-cache")
		if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatches(inm, tag) {
			h.Del("Content-Length")
			h.Del("Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if gz {
			g := last.Load()
			if g == nil || g.tag != tag {
				g = &gzipped{tag: tag, body: gzipBytes(body)}
				last.Store(g)
			}
			body = g.body
			h.Set("Content-Encoding", "gzip")
		}
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
}

type gzipped struct {
	tag  string
	body []byte
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// etagMatches reports whether an If-None-Match list names the body's tag, in
// either representation ("tag" or "tag-gzip", weak or strong), or is "*".
func etagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == `"`+tag+`"` || t == `"`+tag+`-gzip"` {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether Accept-Encoding admits gzip (q > 0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if name = strings.ToLower(strings.TrimSpace(name)); name != "gzip" && name != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
			return false
		}
		return true
	}
	return false
}

// bufferedResponse collects a handler's answer.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
