package plans_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/precisiond/precisiond/evidence"
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

// TestRunRecordsAcrossReplicas: on a real S3 server, two replicas (each its
// own SQLite cache in front of the shared bucket) give the same plan_id and
// run_hash for the same projected run, and each serves the record the other
// stored (docs/plans.md, Output projection).
func TestRunRecordsAcrossReplicas(t *testing.T) {
	srv := s3test.Start(t)
	runRecordsAcrossReplicas(t, s3store.Opener(t, srv))
}

// TestRunRecordsAcrossReplicasDir is TestRunRecordsAcrossReplicas over a
// shared directory (it runs where no S3 server is installed).
func TestRunRecordsAcrossReplicasDir(t *testing.T) {
	dir := t.TempDir()
	runRecordsAcrossReplicas(t, func() blob.Store {
		b, err := blob.OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

func runRecordsAcrossReplicas(t *testing.T, open func() blob.Store) {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	replica := func() *plans.Service {
		cache, err := plandb.Open(t.TempDir(), 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cache.Close() })
		return plans.NewService(reg, plans.ReadThrough{Cache: cache, Backing: plans.ObjectStore{Store: open()}}, plans.Options{})
	}
	a, b := replica(), replica()
	const plan = `{"params": {"city": {"type": "string"}},
	 "steps": [{"id": "conv", "tool": "timezone_convert", "args": {"local_datetime": "2026-12-24T18:00:00", "from_timezone": "Europe/Berlin", "to_timezone": {"$param": "city"}}},
	  {"id": "cal", "tool": "calendar_facts", "foreach": {"$jmes": "[substr(steps.conv.facts.target_datetime, ` + "`0`, `10`" + `)]"}, "args": {"date_str": {"$item": ""}}}],
	 "output": {"$jmes": "steps.cal.facts.items[0].iso_week"}}`
	ctx := context.Background()
	hashOf := func(s *plans.Service, city string) (string, string) {
		v, err := evidence.ParseJSON([]byte(plan))
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Register(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Run(ctx, p, []any{map[string]any{"city": city}}, false)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := evidence.ParseJSON(out)
		run := doc.(map[string]any)["runs"].([]any)[0].(map[string]any)
		h, _ := run["run_hash"].(string)
		return p.ID, h
	}
	idA, hA := hashOf(a, "Asia/Tokyo")
	idB, hB := hashOf(b, "Asia/Tokyo")
	if idA != idB || hA != hB || hA == "" {
		t.Fatalf("replicas differ: plan_id %s / %s, run_hash %s / %s", idA, idB, hA, hB)
	}
	_, hOnlyA := hashOf(a, "Europe/London")
	recA, err := a.GetRun(ctx, hOnlyA)
	if err != nil {
		t.Fatal(err)
	}
	recB, err := b.GetRun(ctx, hOnlyA)
	if err != nil || !bytes.Equal(recA, recB) {
		t.Fatalf("replica b does not serve replica a's record: %v", err)
	}
}
