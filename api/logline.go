package api

import (
	"context"
	"io"
	"log/slog"
	"time"
)

// NewLogger is the service's logger: slog's JSON handler over w at level
// (nil: info). Every line, the access line included, goes through slog.
func NewLogger(w io.Writer, level slog.Leveler) *slog.Logger {
	if level == nil {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
}

// logAccess writes the access line of one request (requestLog): its fields
// in this order, tool and error code only when known.
func logAccess(log *slog.Logger, ctx context.Context, req *request, method, path string, duration time.Duration) {
	if !log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs,
		slog.String("request_id", req.id),
		slog.String("method", method),
		slog.String("path", path),
		slog.Int("status", req.rec.status),
		slog.Int("bytes", req.rec.bytes),
		slog.Float64("duration_ms", durationMS(duration)),
	)
	if req.tool != "" {
		attrs = append(attrs, slog.String("tool", req.tool))
	}
	if req.errorCode != "" {
		attrs = append(attrs, slog.String("error_code", req.errorCode))
	}
	log.LogAttrs(ctx, slog.LevelInfo, "request", attrs...)
}

// durationMS is d in milliseconds, to the microsecond.
func durationMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// mcpCallEntry is what the line of an MCP tool call says (logMCPCall in
// mcp.go).
//
// It and logInfo remain only so that mcp.go, which the MCP change owns,
// compiles unchanged: logMCPCall can log its attributes through slog itself,
// after which both go (bench/RESULTS.md, issue 29).
type mcpCallEntry struct {
	requestID, surface, tool string
	durationMS               float64
	code                     any // the error code; nil: omitted
}

func (e *mcpCallEntry) attrs() []slog.Attr {
	attrs := make([]slog.Attr, 0, 5)
	attrs = append(attrs, slog.String("request_id", e.requestID), slog.String("surface", e.surface), slog.String("tool", e.tool),
		slog.Float64("duration_ms", e.durationMS))
	if e.code != nil {
		attrs = append(attrs, slog.Any("error_code", e.code))
	}
	return attrs
}

// appendAttrs declines: there is no longer a line written outside slog.
func (e *mcpCallEntry) appendAttrs(b []byte) ([]byte, bool) { return b, false }

// logInfo writes one line at info level through slog with the attributes
// attrs gives (slog takes the time itself).
func logInfo(log *slog.Logger, ctx context.Context, _ time.Time, msg string, _ func([]byte) ([]byte, bool), attrs func() []slog.Attr) {
	if !log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	log.LogAttrs(ctx, slog.LevelInfo, msg, attrs()...)
}
