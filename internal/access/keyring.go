package access

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Keyring is the live tokens file: the parsed set, swapped atomically when
// Reload finds the file changed, and the rate limiter its tokens share.
type Keyring struct {
	path    string
	set     atomic.Pointer[Set]
	limiter *Limiter

	mu   sync.Mutex // serialises Reload
	last []byte     // the bytes of the loaded file
}

// Open reads the tokens file at path. An unreadable or invalid file is an
// error: the service must not start with a broken access policy.
func Open(path string) (*Keyring, error) {
	k := &Keyring{path: path, limiter: NewLimiter(time.Now)}
	if _, err := k.Reload(); err != nil {
		return nil, err
	}
	return k, nil
}

// Path is the tokens file's path.
func (k *Keyring) Path() string { return k.path }

// Set is the current token set.
func (k *Keyring) Set() *Set { return k.set.Load() }

// Limiter is the keyring's per-token rate limiter.
func (k *Keyring) Limiter() *Limiter { return k.limiter }

// Reload re-reads the file; changed reports whether its content differed. On
// any error the current set stays in force.
func (k *Keyring) Reload() (changed bool, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	data, err := readLimited(k.path)
	if err != nil {
		return false, err
	}
	if k.set.Load() != nil && bytes.Equal(data, k.last) {
		return false, nil
	}
	s, err := Parse(data)
	if err != nil {
		return false, fmt.Errorf("%s: %w", k.path, err)
	}
	k.set.Store(s)
	k.last = data
	k.limiter.Retain(s)
	return true, nil
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: tokens file must be a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: tokens file exceeds %d bytes", path, MaxFileBytes)
	}
	return data, nil
}

// Limiter is a token bucket per API token: a token with rate_per_minute N may
// make N requests at once, and earns one more every 60/N seconds. It keeps
// the bucket as a theoretical arrival time (GCRA), in integer nanoseconds, so
// that the answers are exact.
type Limiter struct {
	now     func() time.Time
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	rate int       // requests per minute the bucket was made for
	tat  time.Time // when the bucket will be full again
}

// NewLimiter makes a limiter reading the time from now.
func NewLimiter(now func() time.Time) *Limiter {
	return &Limiter{now: now, buckets: map[string]*bucket{}}
}

// SetClock replaces the limiter's clock (tests: a frozen clock makes a burst
// deterministic).
func (l *Limiter) SetClock(now func() time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.now = now
}

// Allow takes one request from t's budget. When it is exhausted, ok is false
// and retryAfter is how long until the next request is allowed.
func (l *Limiter) Allow(t *Token) (ok bool, retryAfter time.Duration) {
	if t.RatePerMinute <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[t.Name]
	if b == nil || b.rate != t.RatePerMinute {
		b = &bucket{rate: t.RatePerMinute, tat: now}
		l.buckets[t.Name] = b
	}
	interval := time.Minute / time.Duration(b.rate)
	burst := time.Duration(b.rate) * interval
	tat := b.tat
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(interval)
	if over := next.Sub(now) - burst; over > 0 {
		return false, over
	}
	b.tat = next
	return true, 0
}

// Retain forgets the buckets of tokens not in s (a removed token's budget
// goes with it; a renamed one starts afresh).
func (l *Limiter) Retain(s *Set) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for name := range l.buckets {
		if s.Lookup(name) == nil {
			delete(l.buckets, name)
		}
	}
}
