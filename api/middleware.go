package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"
	"time"
)

type ctxKey int

const (
	keyRequestID ctxKey = iota
	keyLogFields
	keyAdminID
)

// safeRequestID accepts a caller's X-Request-Id only when it cannot inject
// anything into logs or headers.
var safeRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestID takes X-Request-Id from the request (when safe) or makes one, stores
// it in the context and echoes it in the response.
func (s *Server) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !safeRequestID.MatchString(id) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyRequestID, id)))
	})
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// RequestID returns the request id stored in ctx, or "".
func RequestID(ctx context.Context) string { return requestID(ctx) }

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(keyRequestID).(string)
	return id
}

// logFields collects what a handler learns (tool, error code) for the access log.
type logFields struct {
	tool      string
	errorCode string
}

func setLogTool(ctx context.Context, tool string) {
	if f, ok := ctx.Value(keyLogFields).(*logFields); ok {
		f.tool = tool
	}
}

func setLogError(ctx context.Context, code string) {
	if f, ok := ctx.Value(keyLogFields).(*logFields); ok {
		f.errorCode = code
	}
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

// accessLog writes one structured line per request: never a body or argument.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		fields := &logFields{}
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), keyLogFields, fields)))
		if !s.log.Enabled(r.Context(), slog.LevelInfo) {
			return
		}
		// Typed attributes (LogAttrs) write the same record as Info(msg, k, v...)
		// without boxing every value.
		attrs := make([]slog.Attr, 0, 8)
		attrs = append(attrs,
			slog.String("request_id", requestID(r.Context())),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", rec.status),
			slog.Int("bytes", rec.bytes),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
		)
		if fields.tool != "" {
			attrs = append(attrs, slog.String("tool", fields.tool))
		}
		if fields.errorCode != "" {
			attrs = append(attrs, slog.String("error_code", fields.errorCode))
		}
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
}
