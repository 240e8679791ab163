package api

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/precisiond/precisiond/internal/surface"
)

type ctxKey int

const keyAdminID ctxKey = 0

// request is what requestLog keeps about one request, in one allocation:
// what the access line records (surface.Request, one context value) and the
// writer that records the answer's status and size.
type request struct {
	surface.Request
	rec statusRecorder
}

// validRequestID accepts a caller's X-Request-Id only when it cannot inject
// anything into logs or headers: 1 to 128 of A-Z a-z 0-9 . _ : -.
func validRequestID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

// requestLog is the first middleware. It takes X-Request-Id from the request
// (when safe) or makes one, echoes it in the response, keeps it in the
// context with what the handlers learn, and writes the access line (one
// structured line per request: never a body or argument) when the request is
// done.
func (s *Server) requestLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			id = newRequestID()
		}
		w.Header()["X-Request-Id"] = []string{id} // Set, without canonicalizing a canonical key
		start := time.Now()
		req := &request{Request: surface.Request{ID: id}, rec: statusRecorder{ResponseWriter: w}}
		next.ServeHTTP(&req.rec, r.WithContext(surface.WithRequest(r.Context(), &req.Request)))
		logAccess(s.log, r.Context(), req, r.Method, r.URL.Path, time.Since(start))
	})
}

// newRequestID is 12 random bytes in hex. Only logs and headers use it, to
// correlate; crypto/rand costs ~0.1 µs here, so there is nothing to gain from
// anything weaker.
func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Flush keeps streaming responses (SSE) working through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
