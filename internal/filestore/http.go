package filestore

import (
	"bytes"
	"errors"
	"net/http"
	"path"
	"strings"
	"time"
)

// MediaType returns the media type served for a stored file's extension, or ""
// for an extension the store does not write.
func MediaType(ext string) string {
	switch ext {
	case "html":
		return "text/html; charset=utf-8"
	case "md":
		return "text/markdown; charset=utf-8"
	case "txt":
		return "text/plain; charset=utf-8"
	case "csv":
		return "text/csv; charset=utf-8"
	case "pdf":
		return "application/pdf"
	case "docx":
		return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	case "pptx":
		return "application/vnd.openxmlformats-officedocument.presentationml.presentation"
	case "xlsx":
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	return ""
}

const (
	notFoundBody         = `{"error":"not found","error_code":"not_found","tool":"generate_file"}` + "\n"
	methodNotAllowedBody = `{"error":"method not allowed","error_code":"method_not_allowed","tool":"generate_file"}` + "\n"
	internalErrorBody    = `{"error":"internal error","error_code":"internal_error","tool":"generate_file"}` + "\n"
)

func writeJSON(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// Handler serves GET and HEAD /downloads/{filename}; the file name is the last
// segment of the request path. Only names matching NamePattern, written without
// percent-escapes, are looked up, and only regular, unexpired files whose content
// matches their hash are served, with their media type, Content-Disposition:
// attachment, X-Content-Type-Options: nosniff, a restrictive CSP and
// ETag = "<sha256 hex>" (If-None-Match → 304; Range requests are honoured).
// Everything else is 404 with {"error":"not found","error_code":"not_found",
// "tool":"generate_file"}; other methods get 405 (Allow: GET, HEAD) with
// error_code "method_not_allowed"; an I/O error is 500 "internal_error".
func (s *Store) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeJSON(w, http.StatusMethodNotAllowed, methodNotAllowedBody)
			return
		}
		name, ok := requestName(r)
		if !ok {
			writeJSON(w, http.StatusNotFound, notFoundBody)
			return
		}
		data, e, err := s.ReadFile(name)
		if errors.Is(err, ErrNotFound) {
			writeJSON(w, http.StatusNotFound, notFoundBody)
			return
		}
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, internalErrorBody)
			return
		}
		h := w.Header()
		h.Set("Content-Type", MediaType(strings.TrimPrefix(path.Ext(name), ".")))
		h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
		h.Set("Cache-Control", "private, no-cache")
		h.Set("ETag", `"`+e.SHA256+`"`)
		// A zero modtime: no Last-Modified, validation is by ETag only.
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
	})
}

// requestName extracts the file name from the last path segment. The raw
// (escaped) segment must equal the decoded one: valid names never need escaping,
// so "%2e%2e", "%2F" or "%00" in a request can never reach the file system.
func requestName(r *http.Request) (string, bool) {
	p := r.URL.Path
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", false
	}
	name := p[i+1:]
	// No router cleans the path for us: a path with "." or ".." segments or an
	// empty segment ("//") is refused outright, even where its last segment
	// would name a stored file.
	for _, seg := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
	}
	raw := r.URL.EscapedPath()
	if j := strings.LastIndexByte(raw, '/'); j < 0 || raw[j+1:] != name {
		return "", false
	}
	if !NamePattern.MatchString(name) {
		return "", false
	}
	return name, true
}
