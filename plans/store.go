package plans

import (
	"container/list"
	"context"
	"errors"
	"sync"

	"github.com/precisiond/precisiond/internal/defaults"
)

// Store keeps registered plans: the canonical JSON of a plan under its
// plan_id. Plans are immutable and content-addressed, so a store never
// updates an entry, only adds, reads and evicts; the Service checks on every
// read that the bytes still hash to their id, so a store needs no integrity
// of its own. Implementations must be safe for concurrent use.
//
// Backends: MemoryStore (no data directory), internal/plandb (SQLite in the
// data directory, the default), and ReadThrough, which puts a local store in
// front of a shared one (an object store for a fleet, with SQLite as the
// read-through cache).
type Store interface {
	// Put stores plan (canonical JSON) under id. Storing an id that is
	// already there counts as a use; if the stored bytes differ (a corrupted
	// entry: ids are content hashes), they are replaced.
	Put(ctx context.Context, id string, plan []byte) error
	// Get returns the plan stored under id, or an error wrapping ErrNotFound;
	// a hit counts as a use (stores that evict, evict the least recently used).
	Get(ctx context.Context, id string) ([]byte, error)
}

// ErrNotFound is the error of Store.Get for an id the store does not hold.
var ErrNotFound = errors.New("plan not found")

// MemoryStore is a Store in memory with a size cap in bytes and
// least-recently-used eviction; it is what a process without a data
// directory uses. The zero value is not usable; see NewMemoryStore.
type MemoryStore struct {
	mu       sync.Mutex
	maxBytes int64
	used     int64
	order    *list.List // front: most recently used; values are *memEntry
	byID     map[string]*list.Element
}

type memEntry struct {
	id   string
	plan []byte
}

// EntryOverhead is the bytes a store counts per entry besides the plan
// itself (its id and bookkeeping), so that a cap in bytes also bounds many
// tiny plans.
const EntryOverhead = 128

// NewMemoryStore returns an empty store holding at most maxBytes (plan bytes
// plus EntryOverhead each); maxBytes <= 0 means DefaultStoreBytes.
func NewMemoryStore(maxBytes int64) *MemoryStore {
	defaults.Positive(&maxBytes, DefaultStoreBytes)
	return &MemoryStore{maxBytes: maxBytes, order: list.New(), byID: map[string]*list.Element{}}
}

// DefaultStoreBytes is the default size cap of a plan store (64 MiB).
const DefaultStoreBytes = 64 << 20

// Put implements Store. A plan larger than the whole cap is not kept (the
// caller's run still works; a later rerun answers unknown_plan).
func (s *MemoryStore) Put(_ context.Context, id string, plan []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.byID[id]; ok {
		e := el.Value.(*memEntry)
		s.used += int64(len(plan) - len(e.plan))
		e.plan = append(e.plan[:0:0], plan...)
		s.order.MoveToFront(el)
		return nil
	}
	size := int64(len(plan)) + EntryOverhead
	if size > s.maxBytes {
		return nil
	}
	s.byID[id] = s.order.PushFront(&memEntry{id: id, plan: append([]byte(nil), plan...)})
	s.used += size
	for s.used > s.maxBytes {
		old := s.order.Back()
		e := old.Value.(*memEntry)
		s.order.Remove(old)
		delete(s.byID, e.id)
		s.used -= int64(len(e.plan)) + EntryOverhead
	}
	return nil
}

// Get implements Store.
func (s *MemoryStore) Get(_ context.Context, id string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.byID[id]
	if !ok {
		return nil, ErrNotFound
	}
	s.order.MoveToFront(el)
	return el.Value.(*memEntry).plan, nil
}

// Bytes is the size the store counts against its cap.
func (s *MemoryStore) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// ReadThrough is a Store that keeps a shared backing store authoritative and
// a local one as a cache: Put writes the backing store first, then the cache;
// Get answers from the cache and, on a miss, reads the backing store and
// fills the cache. A cache that fails is bypassed, never fatal. (For a fleet:
// the backing store is the object store every replica shares, the cache the
// replica's SQLite.)
type ReadThrough struct {
	Cache, Backing Store
}

// Put implements Store.
func (rt ReadThrough) Put(ctx context.Context, id string, plan []byte) error {
	if err := rt.Backing.Put(ctx, id, plan); err != nil {
		return err
	}
	_ = rt.Cache.Put(ctx, id, plan)
	return nil
}

// Get implements Store. A cached entry that is no longer valid for its id
// (EntryValid) is passed over for the backing store's copy, which then
// replaces it.
func (rt ReadThrough) Get(ctx context.Context, id string) ([]byte, error) {
	if b, err := rt.Cache.Get(ctx, id); err == nil && EntryValid(id, b) {
		return b, nil
	}
	b, err := rt.Backing.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	_ = rt.Cache.Put(ctx, id, b)
	return b, nil
}
