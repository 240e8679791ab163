package tick

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestEveryRunsUntilCanceled: the loop calls its function repeatedly, never
// concurrently, and returns once its context ends.
func TestEveryRunsUntilCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := make(chan struct{})
	done := make(chan struct{})
	var running sync.Mutex
	go func() {
		Every(ctx, time.Millisecond, func() {
			if !running.TryLock() {
				t.Error("two runs overlapped")
				return
			}
			defer running.Unlock()
			select {
			case calls <- struct{}{}:
			case <-ctx.Done():
			}
		})
		close(done)
	}()
	for range 3 {
		<-calls
	}
	cancel()
	<-done
}
