package tools

import (
	"context"
	"errors"
	"testing"

	"github.com/precisiond/precisiond/internal/blob"
)

// pinged is a store whose ping answers health.
type pinged struct {
	blob.Store
	health blob.Health
}

func (p *pinged) Ping(context.Context) blob.Health { return p.health }

func TestStoreGuard(t *testing.T) {
	if StoreGuard(nil) != nil {
		t.Fatal("a guard without a monitor")
	}
	dir, err := blob.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	store := &pinged{Store: dir, health: blob.Health{OK: true}}
	mon := blob.NewMonitor(store, blob.MonitorOptions{})
	guard := StoreGuard(mon)
	if err := guard(); err != nil {
		t.Errorf("store up: %v", err)
	}
	for _, c := range []struct{ healthReason, reason string }{
		{"store_error", ReasonStoreRefused},
		{"store_unavailable", ReasonStoreNotAnswering},
	} {
		store.health = blob.Health{Reason: c.healthReason}
		mon.Check(context.Background())
		var te *Error
		if err := guard(); !errors.As(err, &te) || te.Code != CodeStoreUnavailable || te.Reason != c.reason {
			t.Errorf("store down (%s): got %v, want reason %s", c.healthReason, err, c.reason)
		}
	}
}
