package worker

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/precisiond/precisiond/tools"
)

// TestCancelKillsTheWorker: a call of an isolated tool whose context is
// cancelled (a client's notifications/cancelled or disconnect) kills the
// worker process that runs it, and the registry's one slot is free again:
// the next call that needs it runs.
func TestCancelKillsTheWorker(t *testing.T) {
	p := newTestPool(t, 0, func(c *Config) { c.Size = 1 })
	isolated, unknown := tools.IsolateByName(testTools(), p, []string{"spin", "pid"})
	if len(unknown) > 0 {
		t.Fatal(unknown)
	}
	reg := tools.NewRegistry(isolated, tools.Options{Limiter: tools.NewLimiter(1, time.Minute, nil), DefaultTimeout: 5 * time.Minute})
	resp, err := reg.Call(context.Background(), "pid", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(resp.Envelope.Facts()["pid"].(string))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := reg.Call(ctx, "spin", nil, "")
		done <- err
	}()
	// The worker has the call once the pool counts it busy; cancelling
	// earlier would test the queue, not the kill.
	for deadline := time.Now().Add(time.Minute); p.Busy() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the spin call never reached a worker")
		}
	}
	cancel()
	if err := <-done; tools.Outcome(err) != tools.CodeTimeout {
		t.Fatalf("cancelled call: %v", err)
	}
	// The next call needs the one slot: it is served only once the killed
	// call's execution has stopped.
	resp, err = reg.Call(context.Background(), "pid", nil, "")
	if err != nil {
		t.Fatalf("the slot was not freed: %v", err)
	}
	if resp.Envelope.Facts()["pid"] == strconv.Itoa(pid) || processAlive(pid) {
		t.Fatalf("worker %d survived its call's cancellation", pid)
	}
}
