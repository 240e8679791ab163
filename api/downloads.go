package api

import (
	"errors"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/precisiond/precisiond/internal/filestore"
	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// The download route's error bodies are constants (with a final newline, as
// they always were): the route serves files, not the JSON API.
const (
	notFoundBody         = `{"error":"not found","error_code":"not_found","tool":"generate_file"}` + "\n"
	methodNotAllowedBody = `{"error":"method not allowed","error_code":"method_not_allowed","tool":"generate_file"}` + "\n"
	internalErrorBody    = `{"error":"internal error","error_code":"internal_error","tool":"generate_file"}` + "\n"
	storeUnavailableBody = `{"error":"the download store is not answering; try again shortly","error_code":"store_unavailable","reason":"not_answering","tool":"generate_file"}` + "\n"
	storeRefusedBody     = `{"error":"the download store cannot be read","error_code":"store_unavailable","reason":"refused","tool":"generate_file"}` + "\n"
)

func writeDownloadError(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	if status == http.StatusServiceUnavailable {
		h.Set("Retry-After", "1")
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// downloadHandler serves GET and HEAD /downloads/{filename} from the download
// store, streaming from it (a replica serves every replica's files when they
// share an S3 store). The file name is the last segment of the request path.
// Only names matching filestore.NamePattern, written without percent-escapes,
// are looked up, and only unexpired objects whose content hashes to their
// name are served, with their media type, Content-Disposition: attachment,
// X-Content-Type-Options: nosniff, a restrictive CSP and ETag = "<sha256
// hex>" (If-None-Match → 304; Range requests read only their part from the
// store). Everything else is 404 with {"error":"not found",
// "error_code":"not_found","tool":"generate_file"}; other methods get 405
// (Allow: GET, HEAD) with error_code "method_not_allowed"; a store that does
// not answer or refuses is 503 store_unavailable (Retry-After: 1); anything
// else is 500 "internal_error". log receives the store's failures.
func downloadHandler(s *filestore.Store, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeDownloadError(w, http.StatusMethodNotAllowed, methodNotAllowedBody)
			return
		}
		name, ok := downloadName(r)
		if !ok {
			writeDownloadError(w, http.StatusNotFound, notFoundBody)
			return
		}
		e, rs, err := s.Reader(r.Context(), name)
		var ue *filestore.UnavailableError
		switch {
		case errors.Is(err, filestore.ErrNotFound):
			writeDownloadError(w, http.StatusNotFound, notFoundBody)
			return
		case errors.As(err, &ue):
			log.Warn("download store unavailable", "request_id", surface.RequestID(r.Context()), "file", name, "err", err.Error())
			surface.SetLogError(r.Context(), tools.CodeStoreUnavailable)
			body := storeRefusedBody
			if ue.NotAnswering() {
				body = storeUnavailableBody
			}
			writeDownloadError(w, http.StatusServiceUnavailable, body)
			return
		case err != nil:
			log.Error("download", "request_id", surface.RequestID(r.Context()), "file", name, "err", err.Error())
			writeDownloadError(w, http.StatusInternalServerError, internalErrorBody)
			return
		}
		defer rs.Close()
		h := w.Header()
		h.Set("Content-Type", filestore.MediaType(strings.TrimPrefix(path.Ext(name), ".")))
		h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
		h.Set("Cache-Control", "private, no-cache")
		h.Set("ETag", `"`+e.SHA256+`"`)
		// A zero modtime: no Last-Modified, validation is by ETag only. A
		// store that fails in the middle of the body cuts the response short
		// (the status line has gone out).
		http.ServeContent(w, r, name, time.Time{}, rs)
	})
}

// downloadName extracts the file name from the last path segment. The raw
// (escaped) segment must equal the decoded one: valid names never need escaping,
// so "%2e%2e", "%2F" or "%00" in a request can never reach the file system.
func downloadName(r *http.Request) (string, bool) {
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
	if !filestore.NamePattern.MatchString(name) {
		return "", false
	}
	return name, true
}
