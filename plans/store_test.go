package plans_test

import (
	"context"
	"testing"

	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/plans/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Basics(t, plans.NewMemoryStore(0))
	const capBytes = 10 * (1000 + plans.EntryOverhead)
	s := plans.NewMemoryStore(capBytes)
	storetest.Eviction(t, s, capBytes, s.Bytes)
}

// TestReadThrough: Put writes both stores; a cache miss is filled from the
// backing store; a cache entry that no longer hashes to its id is passed
// over for the backing copy and repaired.
func TestReadThrough(t *testing.T) {
	cache, backing := plans.NewMemoryStore(0), plans.NewMemoryStore(0)
	rt := plans.ReadThrough{Cache: cache, Backing: backing}
	storetest.Basics(t, rt)
	ctx := context.Background()
	id, plan := storetest.Plan(7, 300)
	if err := backing.Put(ctx, id, plan); err != nil {
		t.Fatal(err)
	}
	if got, err := rt.Get(ctx, id); err != nil || string(got) != string(plan) {
		t.Fatalf("miss: %v", err)
	}
	if got, err := cache.Get(ctx, id); err != nil || string(got) != string(plan) {
		t.Fatalf("cache not filled: %v", err)
	}
	_ = cache.Put(ctx, id, []byte(`{"tampered":true}`))
	if got, err := rt.Get(ctx, id); err != nil || string(got) != string(plan) {
		t.Fatalf("tampered cache entry served: %q %v", got, err)
	}
	if got, _ := cache.Get(ctx, id); string(got) != string(plan) {
		t.Fatalf("tampered cache entry not repaired: %q", got)
	}
}
