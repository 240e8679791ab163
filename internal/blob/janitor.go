package blob

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"
)

// ExpireStats counts what one Expire or Trim pass did.
type ExpireStats struct {
	Scanned int   // objects listed under the prefix
	Deleted int   // objects this pass deleted
	Skipped int   // candidates gone or rewritten before their turn (another janitor, a fresh write)
	Bytes   int64 // Trim: the listed size of what is left under the prefix
	Objects int   // Trim: the objects left under the prefix
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
	var candidates []Info
	err := s.List(ctx, prefix, func(info Info) error {
		st.Scanned++
		if info.ModTime.Before(cutoff) {
			candidates = append(candidates, info)
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	for _, c := range candidates {
		deleted, _, err := deleteUnchanged(ctx, s, c.Key, func(info Info) bool { return info.ModTime.Before(cutoff) })
		if err != nil {
			return st, err
		}
		st.count(deleted)
	}
	return st, nil
}

// count records one candidate: deleted by this pass, or skipped.
func (st *ExpireStats) count(deleted bool) {
	if deleted {
		st.Deleted++
	} else {
		st.Skipped++
	}
}

// deleteUnchanged deletes key if it still exists and stale(its current Info)
// holds; it reports whether it deleted and whether the key was gone already.
func deleteUnchanged(ctx context.Context, s Store, key string, stale func(Info) bool) (deleted, gone bool, err error) {
	info, err := s.Stat(ctx, key)
	if errors.Is(err, ErrNotFound) {
		return false, true, nil
	}
	if err != nil {
		return false, false, err
	}
	if !stale(info) {
		return false, false, nil
	}
	if err := s.Delete(ctx, key); err != nil {
		return false, false, err
	}
	return true, false, nil
}

// Trim deletes the least recently written objects under prefix (the oldest
// ModTime first, ties by key) until what is listed there adds up to at most
// maxBytes, never the object keep (the one just written; "" for none). It is
// safe on several replicas at once as Expire is: each victim is looked at again
// just before it is deleted and skipped if it was rewritten since it was
// listed. Replicas trimming at the same moment pick the same victims, as they
// list the same objects; ones that list at different moments may together
// delete a little more than needed. Errors as Expire.
func Trim(ctx context.Context, s Store, prefix string, maxBytes int64, keep string) (ExpireStats, error) {
	var st ExpireStats
	var all []Info
	err := s.List(ctx, prefix, func(info Info) error {
		st.Scanned++
		st.Bytes += info.Size
		all = append(all, info)
		return nil
	})
	st.Objects = st.Scanned
	if err != nil || st.Bytes <= maxBytes {
		return st, err
	}
	slices.SortFunc(all, func(a, b Info) int {
		if c := a.ModTime.Compare(b.ModTime); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	for _, c := range all {
		if st.Bytes <= maxBytes {
			break
		}
		if c.Key == keep {
			continue
		}
		deleted, gone, err := deleteUnchanged(ctx, s, c.Key, func(info Info) bool { return !info.ModTime.After(c.ModTime) })
		if err != nil {
			return st, err
		}
		st.count(deleted)
		if deleted || gone {
			st.Bytes -= c.Size
			st.Objects--
		}
	}
	return st, nil
}
