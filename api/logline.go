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
