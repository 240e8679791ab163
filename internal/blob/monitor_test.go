package blob

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
)

// TestMonitorConformance: a Monitor is transparent while its store answers.
func TestMonitorConformance(t *testing.T) {
	testConformance(t, func(t *testing.T) func() Store {
		dir := filepath.Join(t.TempDir(), "store")
		return func() Store { return NewMonitor(openDir(t, dir), MonitorOptions{}) }
	})
}

// TestMonitorPausedS3: a paused S3 server is noticed by the first operation
// that times out; from then on operations fail at once, without asking the
// server, until a check finds it answering again.
func TestMonitorPausedS3(t *testing.T) {
	v := startVersity(t)
	var mu sync.Mutex
	var changes []Health
	m := NewMonitor(v.open(t, v.location(), shortTimeouts), MonitorOptions{OnChange: func(h Health) {
		mu.Lock()
		changes = append(changes, h)
		mu.Unlock()
	}})
	ctx := testCtx(t)
	if m.Known() {
		t.Fatal("known before any check")
	}
	if h := m.Check(ctx); !h.OK || h.Kind != "s3" || !m.Known() {
		t.Fatalf("first check: %+v", h)
	}
	mustPut(t, m, "x", []byte("x"), PutOptions{})
	v.pause(t)
	_, err := m.Stat(ctx, "x")
	wantKind(t, "stat of a paused server", err, ErrUnavailable)
	if errors.Is(err, errStoreDown) {
		t.Fatal("the first failure did not come from the server")
	}
	if h := m.Health(); h.OK || h.Reason != "store_unavailable" {
		t.Fatalf("health after a timeout: %+v", h)
	}
	for _, op := range []func() error{
		func() error { _, err := m.Get(ctx, "x", GetOptions{}); return err },
		func() error { _, err := m.Put(ctx, "y", nil, PutOptions{}); return err },
		func() error { return m.Delete(ctx, "x") },
		func() error { return m.List(ctx, "", func(Info) error { return nil }) },
	} {
		if err := op(); !errors.Is(err, ErrUnavailable) || !errors.Is(err, errStoreDown) {
			t.Errorf("while down: %v, want an immediate ErrUnavailable", err)
		}
	}
	if h := m.Check(ctx); h.OK {
		t.Fatalf("check of a paused server: %+v", h)
	}
	v.resume(t)
	if h := m.Check(ctx); !h.OK {
		t.Fatalf("check after SIGCONT: %+v", h)
	}
	if got, _ := readAll(t, m, "x", GetOptions{}); string(got) != "x" {
		t.Fatalf("after recovery: %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(changes) != 3 || !changes[0].OK || changes[1].OK || !changes[2].OK {
		t.Errorf("OnChange saw %+v, want up, down, up", changes)
	}
}

// TestMonitorCallerDeadline: an operation that runs out of its caller's time
// (here waiting for a lock another process holds) says nothing about the
// store.
func TestMonitorCallerDeadline(t *testing.T) {
	dir := t.TempDir()
	m := NewMonitor(openDir(t, dir), MonitorOptions{})
	unlock, err := openDir(t, dir).lock(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = m.Put(ctx, "k", []byte("x"), PutOptions{})
	if err == nil {
		t.Fatal("put with a canceled context succeeded")
	}
	if h := m.Health(); !h.OK {
		t.Fatalf("a caller's deadline marked the store down: %+v", h)
	}
	if _, ok := Inner[*DirStore](m); !ok {
		t.Error("Inner does not reach the directory store through the monitor")
	}
	if _, ok := Inner[*S3Store](m); ok {
		t.Error("Inner found an S3 store in a directory store's chain")
	}
}
