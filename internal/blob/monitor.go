package blob

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/internal/tick"
)

// DefaultCheckInterval is how often a Monitor pings its store.
const DefaultCheckInterval = 2 * time.Second

// errStoreDown is the cause of the errors a Monitor answers without asking
// its store.
var errStoreDown = errors.New("the store did not answer the last check; waiting for it to answer again")

// Monitor is a Store that watches the store it wraps, so that callers learn
// quickly that it is down and /health can say so without waiting on it:
//
//   - Run pings the store every interval; Health reports the last outcome.
//   - An operation that fails with ErrUnavailable (the store's own timeout, not
//     the caller's deadline) marks the store down at once; any operation that
//     gets an answer marks it up.
//   - While the store is down, every operation but Ping fails at once with
//     ErrUnavailable instead of waiting for a timeout of its own; the next
//     successful ping (at most an interval later) lets them through again.
//
// Its methods are safe for concurrent use.
type Monitor struct {
	Store
	interval time.Duration
	onChange func(Health)

	down atomic.Bool
	mu   sync.Mutex
	last Health
	seen bool // a check or an operation has reported the store's state
}

var _ Store = (*Monitor)(nil)

// MonitorOptions configure a Monitor. Zero values mean the defaults.
type MonitorOptions struct {
	// Interval between two pings (default DefaultCheckInterval).
	Interval time.Duration
	// OnChange, when not nil, is called whenever the store goes down or comes
	// back (a log line), never concurrently with itself.
	OnChange func(Health)
}

// NewMonitor wraps s. It contacts nothing: until the first check or operation
// the store counts as up (Known reports false).
func NewMonitor(s Store, opts MonitorOptions) *Monitor {
	defaults.Positive(&opts.Interval, DefaultCheckInterval)
	return &Monitor{Store: s, interval: opts.Interval, onChange: opts.OnChange,
		last: Health{Kind: s.Kind(), OK: true}}
}

// Unwrap returns the wrapped store.
func (m *Monitor) Unwrap() Store { return m.Store }

// Health is the store's state as last observed (by a ping or an operation).
func (m *Monitor) Health() Health {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

// Known reports whether the store's state has been observed at least once.
func (m *Monitor) Known() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen
}

// Run pings the store now and then every interval until ctx ends.
func (m *Monitor) Run(ctx context.Context) {
	m.Check(ctx)
	tick.Every(ctx, m.interval, func() { m.Check(ctx) })
}

// Check pings the store now, records and returns the outcome. A ping cut
// short by ctx records nothing.
func (m *Monitor) Check(ctx context.Context) Health {
	h := m.Store.Ping(ctx)
	if ctx.Err() != nil && !h.OK {
		return h
	}
	m.set(h)
	return h
}

func (m *Monitor) set(h Health) {
	m.mu.Lock()
	defer m.mu.Unlock()
	changed := !m.seen || m.last.OK != h.OK || m.last.Reason != h.Reason
	m.last, m.seen = h, true
	m.down.Store(!h.OK)
	if changed && m.onChange != nil {
		m.onChange(h)
	}
}

// observe records what an operation learnt about the store.
func (m *Monitor) observe(ctx context.Context, err error) {
	switch {
	case err == nil, errors.Is(err, ErrNotFound), errors.Is(err, ErrPreconditionFailed),
		errors.Is(err, ErrNotModified), errors.Is(err, ErrInvalidRange):
		if m.down.Load() || !m.Known() {
			m.set(Health{Kind: m.Kind(), OK: true})
		}
	case errors.Is(err, ErrUnavailable) && ctx.Err() == nil:
		m.set(Health{Kind: m.Kind(), Reason: "store_unavailable", Err: err})
	}
}

// refuse is the answer of an operation while the store is down.
func (m *Monitor) refuse(op, key string) error {
	if !m.down.Load() {
		return nil
	}
	return newErr(op, key, ErrUnavailable, errStoreDown)
}

// Put implements Store.
func (m *Monitor) Put(ctx context.Context, key string, data []byte, opts PutOptions) (Info, error) {
	if err := m.refuse("put", key); err != nil {
		return Info{}, err
	}
	info, err := m.Store.Put(ctx, key, data, opts)
	m.observe(ctx, err)
	return info, err
}

// Get implements Store; a read of the object that fails with ErrUnavailable
// marks the store down too.
func (m *Monitor) Get(ctx context.Context, key string, opts GetOptions) (*Object, error) {
	if err := m.refuse("get", key); err != nil {
		return nil, err
	}
	obj, err := m.Store.Get(ctx, key, opts)
	m.observe(ctx, err)
	if obj != nil {
		wrap := obj.wrap
		obj.wrap = func(err error) error {
			e := wrap(err)
			m.observe(ctx, e)
			return e
		}
	}
	return obj, err
}

// Stat implements Store.
func (m *Monitor) Stat(ctx context.Context, key string) (Info, error) {
	if err := m.refuse("stat", key); err != nil {
		return Info{}, err
	}
	info, err := m.Store.Stat(ctx, key)
	m.observe(ctx, err)
	return info, err
}

// Delete implements Store.
func (m *Monitor) Delete(ctx context.Context, key string) error {
	if err := m.refuse("delete", key); err != nil {
		return err
	}
	err := m.Store.Delete(ctx, key)
	m.observe(ctx, err)
	return err
}

// List implements Store. An error that fn returns says nothing about the
// store.
func (m *Monitor) List(ctx context.Context, prefix string, fn func(Info) error) error {
	if err := m.refuse("list", prefix); err != nil {
		return err
	}
	var fnErr error
	err := m.Store.List(ctx, prefix, func(info Info) error {
		fnErr = fn(info)
		return fnErr
	})
	if fnErr == nil || err != fnErr {
		m.observe(ctx, err)
	}
	return err
}

// Ping pings the store and records the outcome (as Check).
func (m *Monitor) Ping(ctx context.Context) Health { return m.Check(ctx) }

// Inner returns the first store in s's chain of wrappers (a Monitor's Unwrap)
// that is a T, so that a caller can reach what only one kind of store offers
// (a directory store's hygiene) through a Monitor.
func Inner[T any](s Store) (T, bool) {
	for s != nil {
		if t, ok := s.(T); ok {
			return t, true
		}
		u, ok := s.(interface{ Unwrap() Store })
		if !ok {
			break
		}
		s = u.Unwrap()
	}
	var zero T
	return zero, false
}
