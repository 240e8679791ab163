package plans_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/plandb"
	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/internal/s3test/s3store"
	"github.com/precisiond/precisiond/plans"
	"github.com/precisiond/precisiond/plans/storetest"
	"github.com/precisiond/precisiond/tools"
)

func TestObjectStoreDir(t *testing.T) {
	b, err := blob.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	storetest.Basics(t, plans.ObjectStore{Store: b})
}

// TestObjectStoreFleet: on a real S3 server, a plan registered through one
// replica (its own SQLite cache in front of the shared bucket) is read by
// another replica whose cache never saw it; with the bucket unreachable a
// plan in the local cache still reads, an uncached one is store_unavailable.
func TestObjectStoreFleet(t *testing.T) {
	srv := s3test.Start(t)
	open := s3store.Opener(t, srv)
	replica := func() (plans.ReadThrough, blob.Store) {
		b := open()
		cache, err := plandb.Open(t.TempDir(), 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cache.Close() })
		return plans.ReadThrough{Cache: cache, Backing: plans.ObjectStore{Store: b}}, b
	}
	storetest.Basics(t, plans.ObjectStore{Store: func() blob.Store { _, b := replica(); return b }()})
	a, _ := replica()
	b, _ := replica()
	ctx := context.Background()
	id, plan := storetest.Plan(7, 300)
	if err := a.Put(ctx, id, plan); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Get(ctx, id); err != nil || !bytes.Equal(got, plan) {
		t.Fatalf("the other replica: %q %v", got, err)
	}
	other, otherPlan := storetest.Plan(8, 300)
	if err := a.Put(ctx, other, otherPlan); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	if got, err := b.Get(ctx, id); err != nil || !bytes.Equal(got, plan) {
		t.Fatalf("a cached plan with the store down: %q %v", got, err)
	}
	_, err := b.Get(ctx, other)
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != tools.CodeStoreUnavailable || te.Reason != tools.ReasonStoreNotAnswering {
		t.Fatalf("an uncached plan with the store down: %v, want store_unavailable", err)
	}
	if err := b.Put(ctx, other, otherPlan); !errors.As(err, &te) || te.Code != tools.CodeStoreUnavailable {
		t.Fatalf("registering with the store down: %v", err)
	}
}
