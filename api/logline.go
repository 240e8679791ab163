package api

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/precisiond/precisiond/internal/surface"
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
		slog.String("request_id", req.ID),
		slog.String("method", method),
		slog.String("path", path),
		slog.Int("status", req.rec.status),
		slog.Int("bytes", req.rec.bytes),
		slog.Float64("duration_ms", surface.DurationMS(duration)),
	)
	if req.Tool != "" {
		attrs = append(attrs, slog.String("tool", req.Tool))
	}
	if req.ErrorCode != "" {
		attrs = append(attrs, slog.String("error_code", req.ErrorCode))
	}
	log.LogAttrs(ctx, slog.LevelInfo, "request", attrs...)
}
