package api

import (
	"context"
	"io"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// NewLogger is the service's logger: slog's JSON handler over w at level
// (nil: info), with one addition. The access log (one line per HTTP request,
// accessLog) writes its line itself, byte for byte what slog's JSON handler
// writes for the same record, into a pooled buffer: no slog.Record, no
// attributes, no caller lookup, no encoding/json for the duration. Every other
// line goes through slog as before, and both kinds reach w one whole line per
// Write, in turn. A logger derived with With or WithGroup is plain slog
// (its lines carry more than the access line knows), and so is any logger not
// made here: Options.Logger may be any *slog.Logger.
func NewLogger(w io.Writer, level slog.Leveler) *slog.Logger {
	if level == nil {
		level = slog.LevelInfo
	}
	out := &lockedWriter{w: w}
	return slog.New(&LogHandler{Handler: slog.NewJSONHandler(out, &slog.HandlerOptions{Level: level}), out: out, level: level})
}

// LogHandler is NewLogger's handler: slog's JSON handler plus the writer the
// access line goes to.
type LogHandler struct {
	slog.Handler // slog's JSON handler over out
	out          *lockedWriter
	level        slog.Leveler
}

// lockedWriter hands w one line at a time, from slog's handler and from the
// access line alike.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// accessEntry is what the access line says about one request.
type accessEntry struct {
	requestID, method, path string
	status, bytes           int
	durationMS              float64
	tool, errorCode         string // omitted when empty
}

// attrs are the entry's attributes for slog, in the line's order.
func (e *accessEntry) attrs() []slog.Attr {
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs,
		slog.String("request_id", e.requestID),
		slog.String("method", e.method),
		slog.String("path", e.path),
		slog.Int("status", e.status),
		slog.Int("bytes", e.bytes),
		slog.Float64("duration_ms", e.durationMS),
	)
	if e.tool != "" {
		attrs = append(attrs, slog.String("tool", e.tool))
	}
	if e.errorCode != "" {
		attrs = append(attrs, slog.String("error_code", e.errorCode))
	}
	return attrs
}

// appendAttrs appends attrs as slog's JSON handler writes them; false for a
// duration that is not finite (slog writes an error there).
func (e *accessEntry) appendAttrs(b []byte) ([]byte, bool) {
	if !finite(e.durationMS) {
		return b, false
	}
	b = appendLogString(append(b, `,"request_id":`...), e.requestID)
	b = appendLogString(append(b, `,"method":`...), e.method)
	b = appendLogString(append(b, `,"path":`...), e.path)
	b = strconv.AppendInt(append(b, `,"status":`...), int64(e.status), 10)
	b = strconv.AppendInt(append(b, `,"bytes":`...), int64(e.bytes), 10)
	b = appendLogFloat(append(b, `,"duration_ms":`...), e.durationMS)
	if e.tool != "" {
		b = appendLogString(append(b, `,"tool":`...), e.tool)
	}
	if e.errorCode != "" {
		b = appendLogString(append(b, `,"error_code":`...), e.errorCode)
	}
	return b, true
}

// mcpCallEntry is what the line of an MCP tool call says (logMCPCall).
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

// appendAttrs appends attrs as slog's JSON handler writes them; false for a
// duration that is not finite or a code that is not a string.
func (e *mcpCallEntry) appendAttrs(b []byte) ([]byte, bool) {
	if !finite(e.durationMS) {
		return b, false
	}
	b = appendLogString(append(b, `,"request_id":`...), e.requestID)
	b = appendLogString(append(b, `,"surface":`...), e.surface)
	b = appendLogString(append(b, `,"tool":`...), e.tool)
	b = appendLogFloat(append(b, `,"duration_ms":`...), e.durationMS)
	switch c := e.code.(type) {
	case nil:
	case string:
		b = appendLogString(append(b, `,"error_code":`...), c)
	default:
		return b, false
	}
	return b, true
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// logInfo writes one line at info level, if log writes info: with msg and
// the attributes appendAttrs appends, at time at, when log's handler is
// NewLogger's; else, or when appendAttrs declines, through slog with the
// attributes attrs gives (slog takes the time itself).
func logInfo(log *slog.Logger, ctx context.Context, at time.Time, msg string, appendAttrs func([]byte) ([]byte, bool), attrs func() []slog.Attr) {
	if h, ok := log.Handler().(*LogHandler); ok {
		if h.level.Level() > slog.LevelInfo {
			return
		}
		bp := lineBufs.Get().(*[]byte)
		line, ok := appendInfoLine((*bp)[:0], at, msg, appendAttrs)
		if ok {
			_, _ = h.out.Write(line)
			if cap(line) > 16<<10 { // keep the pool's buffers small
				return
			}
			*bp = line
		}
		lineBufs.Put(bp)
		if ok {
			return
		}
	}
	if !log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	log.LogAttrs(ctx, slog.LevelInfo, msg, attrs()...)
}

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// appendInfoLine appends the line slog's JSON handler (no options but the
// level) writes for a record at time t, info level, with msg and the
// attributes appendAttrs appends. It reports false, having appended nothing,
// for what it does not write as slog would: a year outside 0–9999, or what
// appendAttrs declines.
func appendInfoLine(b []byte, t time.Time, msg string, appendAttrs func([]byte) ([]byte, bool)) ([]byte, bool) {
	if y := t.Year(); y < 0 || y >= 10000 {
		return b, false
	}
	n := len(b)
	b = append(b, `{"time":"`...)
	b = t.Round(0).AppendFormat(b, time.RFC3339Nano)
	b = appendLogString(append(b, `","level":"INFO","msg":`...), msg)
	b, ok := appendAttrs(b)
	if !ok {
		return b[:n], false
	}
	return append(b, "}\n"...), true
}

// appendLogString appends s as slog's JSON handler quotes a string: the
// quote, the backslash and the control characters escaped (\n, \r and \t by
// name, the others as \u00XX), each byte that is not UTF-8 as \ufffd, U+2028
// and U+2029 as \u2028 and \u2029; everything else (<, >, &, DEL, any other
// character) as it is.
func appendLogString(b []byte, s string) []byte { return appendJSONString(b, s, &logSafe, false) }

// logSafe marks the ASCII bytes slog's JSON handler writes as they are.
var logSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendLogFloat appends a finite f as encoding/json writes a float64 (which
// is what slog's JSON handler calls): the shortest decimal that reads back as
// f, in exponent form only below 1e-6 or from 1e21 on, with a one-digit
// negative exponent not padded (1e-7, not 1e-07).
func appendLogFloat(b []byte, f float64) []byte {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		b = strconv.AppendFloat(b, f, 'e', -1, 64)
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		return b
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}
