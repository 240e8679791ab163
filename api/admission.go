package api

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/tools"
)

// bodyBudget bounds the bytes of request bodies in flight: a request with a
// body is admitted, and its body read, only once its share fits; it keeps the
// share until its handler has returned (the parsed arguments, validation and
// the call itself live that long). Waiters are not served in order, so a
// large body waiting for room never holds up the small ones behind it.
type bodyBudget struct {
	mu      sync.Mutex
	limit   int64
	used    int64
	waiters int
	changed chan struct{} // closed and replaced on every release
}

func newBodyBudget(limit int64) *bodyBudget {
	return &bodyBudget{limit: limit, changed: make(chan struct{})}
}

// tryAcquire takes n bytes if they fit now; it reports whether it did.
func (b *bodyBudget) tryAcquire(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n <= b.limit {
		b.used += n
		return true
	}
	return false
}

// acquire takes n bytes, waiting until ctx ends; it reports whether it did.
func (b *bodyBudget) acquire(ctx context.Context, n int64) bool {
	for {
		b.mu.Lock()
		if b.used+n <= b.limit {
			b.used += n
			b.mu.Unlock()
			return true
		}
		ch := b.changed
		b.waiters++
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
		b.mu.Lock()
		b.waiters--
		b.mu.Unlock()
		if ctx.Err() != nil {
			return false
		}
	}
}

func (b *bodyBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	if b.waiters > 0 {
		// Only a waiter holds the channel (it counts itself in waiters
		// before it lets go of the lock).
		close(b.changed)
		b.changed = make(chan struct{})
	}
	b.mu.Unlock()
}

// waiting is the number of requests waiting for room.
func (b *bodyBudget) waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.waiters
}

// inFlight is the number of body bytes admitted right now.
func (b *bodyBudget) inFlight() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// admitBody is the admission of requests with a body (POST, PUT, PATCH),
// before anything reads it: a declared Content-Length over --max-body-bytes
// is refused at once (413); otherwise the request waits up to the queue wait
// for its share of the body budget — its Content-Length, or --max-body-bytes
// when the length is not declared — and is refused with 503 overloaded
// (reason body_budget, Retry-After) when none frees up.
func (s *Server) admitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
		default:
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > s.opts.MaxBodyBytes {
			s.refuse(w, r, surface.NewError(surface.CodePayloadTooLarge, fmt.Sprintf("request body of %d bytes exceeds %d bytes", r.ContentLength, s.opts.MaxBodyBytes)))
			return
		}
		n := s.opts.MaxBodyBytes
		if r.ContentLength >= 0 {
			n = r.ContentLength
		}
		ok := s.bodies.tryAcquire(n)
		if !ok {
			ctx, cancel := context.WithTimeout(r.Context(), s.opts.QueueWait)
			ok = s.bodies.acquire(ctx, n)
			cancel()
		}
		if !ok {
			if s.opts.Metrics != nil {
				s.opts.Metrics.OnReject()
			}
			s.refuse(w, r, &surface.Error{Code: tools.CodeOverloaded, Reason: "body_budget",
				Message: "too many request bytes in flight; retry shortly"})
			return
		}
		defer s.bodies.release(n)
		next.ServeHTTP(w, r)
	})
}

// refuse answers a request that middleware turns away before any route.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, e *surface.Error) {
	surface.SetLogError(r.Context(), e.Code)
	surface.WriteError(w, e, false)
}

// DefaultQueueWait is how long a request waits for admission when Options set
// no QueueWait (the same default as the execution slots').
const DefaultQueueWait = 250 * time.Millisecond
