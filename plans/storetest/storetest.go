// Package storetest checks that a plans.Store behaves as the interface says,
// so that every backend (memory, SQLite, a later object store) is held to the
// same tests.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/plans"
)

// Plan returns the canonical bytes of a distinct plan of about size bytes and
// its id.
func Plan(i, size int) (string, []byte) {
	pad := size - 80
	if pad < 0 {
		pad = 0
	}
	b := []byte(fmt.Sprintf(`{"params":{},"steps":[{"args":{"text":"%d-%s"},"id":"s","tool":"hash_text"}]}`, i, bytes.Repeat([]byte("x"), pad)))
	return evidence.HashBytes(b), b
}

// Basics: a stored plan reads back byte for byte, an absent id is
// ErrNotFound, storing again is harmless, and different bytes under an id
// (a corrupted entry) are replaced by Put.
func Basics(t *testing.T, s plans.Store) {
	t.Helper()
	ctx := context.Background()
	id, plan := Plan(1, 200)
	if err := s.Put(ctx, id, plan); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, id, plan); err != nil {
		t.Fatalf("second put: %v", err)
	}
	got, err := s.Get(ctx, id)
	if err != nil || !bytes.Equal(got, plan) {
		t.Fatalf("get: %q, %v", got, err)
	}
	other, _ := Plan(2, 200)
	if _, err := s.Get(ctx, other); !errors.Is(err, plans.ErrNotFound) {
		t.Fatalf("absent id: %v, want ErrNotFound", err)
	}
	if err := s.Put(ctx, id, []byte("corrupt")); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, id, plan); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, id); err != nil || !bytes.Equal(got, plan) {
		t.Fatalf("after repair: %q, %v", got, err)
	}
}

// Eviction: with a cap of capBytes (as the store was opened), filling the
// store past the cap evicts the least recently used plans first, where a Get
// counts as a use; the newest plan always stays. used reports the bytes the
// store counts, or -1 when it cannot tell.
func Eviction(t *testing.T, s plans.Store, capBytes int64, used func() int64) {
	t.Helper()
	ctx := context.Background()
	const size = 1000
	per := int64(size + plans.EntryOverhead)
	fit := int(capBytes / per)
	if fit < 3 {
		t.Fatalf("cap %d holds fewer than 3 plans of %d bytes", capBytes, size)
	}
	ids := make([]string, fit+2)
	for i := range ids[:fit] {
		id, plan := Plan(100+i, size)
		ids[i] = id
		if err := s.Put(ctx, id, plan); err != nil {
			t.Fatal(err)
		}
	}
	// Touch the oldest: now the second oldest is the least recently used.
	if _, err := s.Get(ctx, ids[0]); err != nil {
		t.Fatalf("plan 0 evicted before the cap was reached: %v", err)
	}
	for i := fit; i < fit+2; i++ {
		id, plan := Plan(100+i, size)
		ids[i] = id
		if err := s.Put(ctx, id, plan); err != nil {
			t.Fatal(err)
		}
	}
	for i, id := range ids {
		_, err := s.Get(ctx, id)
		evicted := errors.Is(err, plans.ErrNotFound)
		if err != nil && !evicted {
			t.Fatal(err)
		}
		if want := i == 1 || i == 2; evicted != want {
			t.Errorf("plan %d of %d: evicted %v, want %v (cap %d, %d bytes each)", i, len(ids), evicted, want, capBytes, per)
		}
	}
	if used != nil {
		if u := used(); u > capBytes || u < capBytes-per {
			t.Errorf("store counts %d bytes, cap %d", u, capBytes)
		}
	}
}
