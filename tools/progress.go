package tools

import (
	"context"
	"math"
	"sync"
	"time"
)

// ProgressInterval is the shortest time between two progress reports that
// reach a ProgressFunc: a tool may report as often as it likes, the hook
// passes on at most one report per interval.
const ProgressInterval = 250 * time.Millisecond

// ProgressFunc receives a call's progress: done units of work out of total
// (total 0: unknown) and an optional message. A surface that can deliver
// progress to its client (MCP notifications/progress) installs one with
// WithProgress; it is called from the goroutine doing the work and must not
// block for long.
type ProgressFunc func(done, total float64, message string)

type progressKey struct{}

// progressHook throttles reports to ProgressInterval and keeps them
// increasing (MCP requires each notification's progress to exceed the last).
type progressHook struct {
	fn   ProgressFunc
	now  func() time.Time
	mu   sync.Mutex
	last time.Time
	done float64
	sent bool
}

// WithProgress returns ctx carrying fn as the progress hook of the calls run
// under it. A nil fn returns ctx unchanged.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, &progressHook{fn: fn, now: time.Now})
}

// WithoutProgress returns ctx without a progress hook: for work whose own
// reports would mix with its caller's measure (the steps of a plan run).
func WithoutProgress(ctx context.Context) context.Context {
	if !HasProgress(ctx) {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, (*progressHook)(nil))
}

// HasProgress reports whether ctx carries a progress hook: tools may skip
// counting work nobody will see.
func HasProgress(ctx context.Context) bool {
	h, _ := ctx.Value(progressKey{}).(*progressHook)
	return h != nil
}

// ReportProgress reports that done units of total (0: unknown) are complete.
// It costs one context lookup when nobody listens. Reports closer than
// ProgressInterval to the last one passed on, reports that do not advance,
// and non-finite or negative values are dropped; a final report (done ==
// total) is passed on only at its turn, like any other.
func ReportProgress(ctx context.Context, done, total float64, message string) {
	h, _ := ctx.Value(progressKey{}).(*progressHook)
	if h == nil {
		return
	}
	h.report(done, total, message)
}

func (h *progressHook) report(done, total float64, message string) {
	if !finiteNonNeg(done) || !finiteNonNeg(total) {
		return
	}
	if total > 0 && done > total {
		done = total
	}
	h.mu.Lock()
	now := h.now()
	if h.sent && (done <= h.done || now.Sub(h.last) < ProgressInterval) {
		h.mu.Unlock()
		return
	}
	h.sent, h.done, h.last = true, done, now
	h.mu.Unlock()
	h.fn(done, total, message)
}

func finiteNonNeg(f float64) bool { return f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f) }
