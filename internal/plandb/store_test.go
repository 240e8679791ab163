package plandb

import (
	"context"
	"errors"
	"testing"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/plans/storetest"
)

// TestOpenStore: memory without a data directory, plans.db with one, and
// with a backing store a read-through cache in front of it, so that a plan
// put through one data directory is found through another.
func TestOpenStore(t *testing.T) {
	ctx := context.Background()
	id, plan := storetest.Plan(1, 500)

	mem, closeMem, err := OpenStore("", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeMem()
	if _, ok := mem.(*plans.MemoryStore); !ok {
		t.Errorf("no data directory: %T", mem)
	}
	db, closeDB, err := OpenStore(t.TempDir(), 0, func() (blob.Store, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	if _, ok := db.(*DB); !ok {
		t.Errorf("data directory, no backing store: %T", db)
	}

	shared, err := blob.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	backing := func() (blob.Store, error) { return shared, nil }
	a, closeA, err := OpenStore(t.TempDir(), 0, backing)
	if err != nil {
		t.Fatal(err)
	}
	defer closeA()
	b, closeB, err := OpenStore(t.TempDir(), 0, backing)
	if err != nil {
		t.Fatal(err)
	}
	defer closeB()
	if err := a.Put(ctx, id, plan); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Get(ctx, id); err != nil || string(got) != string(plan) {
		t.Errorf("through the other replica: %q, %v", got, err)
	}

	boom := errors.New("boom")
	if _, _, err := OpenStore(t.TempDir(), 0, func() (blob.Store, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("backing store error: %v", err)
	}
}
