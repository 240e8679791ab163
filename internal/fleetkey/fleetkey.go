// Package fleetkey keeps a key that the replicas of a fleet share through an
// object of a blob store: the keyring that signs answers (Signing) and the
// key that signs download links (Links). Both follow one life cycle (Key):
// read, or created, in the store at start and changed there only by
// create-only and compare-and-swap writes, so that replicas starting at once
// agree; while the store does not answer at start, a fallback key of the
// replica's own, so that it keeps answering; and once the store answers
// again, without a restart, the fleet's key, the fallback key staying
// published in the store for as long as what it signed may still be
// checked.
package fleetkey

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/precisiond/precisiond/internal/access"
	"github.com/precisiond/precisiond/internal/blob"
)

// Key is the state both fleet keys share: where the key in use comes from
// now (one of its sources, the first being the shared store), whether the
// replica still waits for the store it started without (pending), and what
// it last warned about while retrying.
type Key struct {
	name    string   // what log lines name: "signing keyring", "download links"
	sources []string // sources[0] is the shared store
	source  atomic.Int32

	store blob.Store // the store to refresh from; nil: nothing to refresh

	// mu serializes refreshes; it guards pending and warned, and the
	// refresh state of the key that embeds Key.
	mu      sync.Mutex
	pending bool
	warned  string
}

// Source says where the key in use comes from now: one of the sources the
// key was made with.
func (k *Key) Source() string { return k.sources[k.source.Load()] }

// Sources lists every source the key can come from.
func (k *Key) Sources() []string { return slices.Clone(k.sources) }

// Store is the store the key is refreshed from, or nil when nothing is.
func (k *Key) Store() blob.Store { return k.store }

func (k *Key) setSource(src string) {
	i := slices.Index(k.sources, src)
	if i < 0 {
		panic("fleetkey: unknown source " + src)
	}
	k.source.Store(int32(i))
}

// fallBack marks a key whose store did not answer at start: it signs with
// its fallback key, named src, until adopt succeeds.
func (k *Key) fallBack(store blob.Store, src string) {
	k.store, k.pending = store, true
	k.setSource(src)
}

// step is one refresh, under k.mu: while pending, adopt tries to take up
// the fleet's key (an error leaves the replica pending); once it has, the
// store is the key's source and follow keeps up with the store.
func (k *Key) step(ctx context.Context, adopt func(context.Context) error, follow func(context.Context) (bool, error)) (recovered, changed bool, err error) {
	if k.store == nil {
		return false, false, nil
	}
	if k.pending {
		if err := adopt(ctx); err != nil {
			return false, false, err
		}
		k.pending = false
		k.setSource(k.sources[0])
		recovered = true
	}
	changed, err = follow(ctx)
	return recovered, recovered || changed, err
}

// retried logs a failed refresh while the replica waits for the store: at
// debug while the store does not answer (the start warned, and the store
// monitor logs the store's state), else at warn with msg, once for the same
// error however often it is retried.
func (k *Key) retried(log *slog.Logger, err error, msg string, attrs ...any) {
	if errors.Is(err, blob.ErrUnavailable) {
		log.Debug(k.name+": the shared store does not answer; trying again at the next refresh", "err", err.Error())
		return
	}
	if e := err.Error(); e != k.warned {
		k.warned = e
		log.Warn(msg, append(attrs, "err", e)...)
	}
}

// maxRounds bounds a read-change-write loop against replicas writing the
// same object at the same moment.
const maxRounds = 8

// readObject returns the content of object in store and its ETag, or nil
// and "" when there is none.
func readObject(ctx context.Context, store blob.Store, object string) ([]byte, string, error) {
	obj, err := store.Get(ctx, object, blob.GetOptions{})
	if errors.Is(err, blob.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer obj.Close()
	data, err := io.ReadAll(io.LimitReader(obj, 1<<20+1))
	if err != nil {
		return nil, "", err
	}
	return data, obj.Info.ETag, nil
}

// update is the compare-and-swap loop: it reads object in store, passes its
// content (nil: none) to change, and writes what change returns (nil:
// nothing to write) with a create-only write when there was none, else a
// compare-and-swap write; when another replica wrote first, it reads that
// state and changes it again. It returns the ETag of the state stored
// after it. The errors of the store and of a loop that never ends are
// prefixed with what (the key's name), doing says what the loop does;
// change's errors are returned as they are.
func update(ctx context.Context, store blob.Store, object, what, doing string, change func(state []byte) ([]byte, error)) (string, error) {
	for range maxRounds {
		state, etag, err := readObject(ctx, store, object)
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		next, err := change(state)
		if err != nil {
			return "", err
		}
		if next == nil {
			return etag, nil
		}
		info, err := store.Put(ctx, object, next, blob.PutOptions{IfMatch: etag, IfNoneMatch: state == nil})
		if errors.Is(err, blob.ErrPreconditionFailed) || errors.Is(err, blob.ErrNotFound) {
			continue // another replica wrote first: change its state
		} else if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		return info.ETag, nil
	}
	return "", fmt.Errorf("%s: %s kept changing under %d attempts to %s", what, object, maxRounds, doing)
}

// Mark is a file (its path) that says until when what a replica signed with
// its fallback key may still be checked: it outlives a restart, so that a
// replica restarted before it published its fallback key in the store
// still does. The empty Mark is no file: it reads as absent and writes
// nothing.
type Mark string

// Read is the time in the mark; false without one (or with one that does
// not parse).
func (m Mark) Read() (time.Time, bool) {
	if m == "" {
		return time.Time{}, false
	}
	b, err := os.ReadFile(string(m))
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	return t, err == nil
}

// Extend records until, never moving the mark's later end back.
func (m Mark) Extend(until time.Time) error {
	if m == "" {
		return nil
	}
	if prev, ok := m.Read(); ok && prev.After(until) {
		until = prev
	}
	return access.WriteFileAtomic(string(m), []byte(until.UTC().Format(time.RFC3339Nano)+"\n"))
}

// Clear removes the mark: nothing signed with the fallback key needs
// publishing any more.
func (m Mark) Clear() error {
	if m == "" {
		return nil
	}
	if err := os.Remove(string(m)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
