// Package tick is the one periodic loop of the service: the store monitor,
// the download janitor, the toggle and token watches and the key-ring refresh
// all run on it.
package tick

import (
	"context"
	"time"
)

// Every calls f every interval until ctx ends; f runs on the caller's
// goroutine, so two runs never overlap.
func Every(ctx context.Context, interval time.Duration, f func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}
