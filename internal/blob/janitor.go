package blob

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// ExpireStats counts what one Expire pass did.
type ExpireStats struct {
	Scanned int // objects listed under the prefix
	Deleted int // objects this pass deleted
	Skipped int // candidates gone or rewritten before their turn (another janitor, a fresh write)
}

// Expire deletes every object under prefix last modified before cutoff, and is
// safe to run on several replicas at once: each candidate is looked at again
// (Stat) just before it is deleted, so an object another janitor already removed
// or that a writer renewed meanwhile is skipped, and deleting an object that is
// already gone succeeds. (A write landing between that Stat and the Delete can
// still be deleted: S3 offers no delete conditional on the modification time.
// The window is one round trip, and only an object that was about to expire is
// affected; a writer that renews an object just before its expiry and must not
// lose it can Stat it again after the janitor's interval.)
//
// ModTime is the store's clock and cutoff the caller's: clocks that disagree
// shift every lifetime by the difference.
//
// Expire stops at the first error other than a vanished object, typically
// ErrUnavailable, and returns what it did so far.
func Expire(ctx context.Context, s Store, prefix string, cutoff time.Time) (ExpireStats, error) {
	var st ExpireStats
	var candidates []string
	err := s.List(ctx, prefix, func(info Info) error {
		st.Scanned++
		if info.ModTime.Before(cutoff) {
			candidates = append(candidates, info.Key)
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	for _, key := range candidates {
		info, err := s.Stat(ctx, key)
		if errors.Is(err, ErrNotFound) {
			st.Skipped++
			continue
		}
		if err != nil {
			return st, err
		}
		if !info.ModTime.Before(cutoff) {
			st.Skipped++
			continue
		}
		if err := s.Delete(ctx, key); err != nil {
			return st, err
		}
		st.Deleted++
	}
	return st, nil
}

// Janitor expires the objects under Prefix older than MaxAge, every Interval.
// Every replica of a fleet may run one on the same store (see Expire); the
// passes are spread with a random delay of up to a tenth of the interval so
// replicas started together do not all sweep at the same moment.
type Janitor struct {
	Store    Store
	Prefix   string
	MaxAge   time.Duration
	Interval time.Duration            // default one minute
	Now      func() time.Time         // default time.Now
	OnPass   func(ExpireStats, error) // optional: called after every pass
}

// Run sweeps until ctx ends.
func (j *Janitor) Run(ctx context.Context) {
	interval := j.Interval
	if interval <= 0 {
		interval = time.Minute
	}
	now := j.Now
	if now == nil {
		now = time.Now
	}
	for {
		wait := interval + rand.N(interval/10+1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		st, err := Expire(ctx, j.Store, j.Prefix, now().Add(-j.MaxAge))
		if j.OnPass != nil && ctx.Err() == nil {
			j.OnPass(st, err)
		}
	}
}
