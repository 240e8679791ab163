package filestore

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/precisiond/precisiond/internal/tick"
)

// JanitorInterval sweeps often enough that a file outlives its TTL by at
// most a tenth of it (and at least every minute, at most every 10 minutes).
func JanitorInterval(ttl time.Duration) time.Duration {
	return min(max(ttl/10, time.Minute), 10*time.Minute)
}

// RunJanitor sweeps the store every interval until ctx ends, each pass
// bounded by interval, a failed one logged. Every replica may run one: the
// passes are safe side by side. The first pass waits a random part of a
// tenth of interval, which spreads the passes of replicas started together
// (this only saves work).
func (s *Store) RunJanitor(ctx context.Context, interval time.Duration, log *slog.Logger) {
	sweep := func() {
		sctx, cancel := context.WithTimeout(ctx, interval)
		defer cancel()
		if err := s.Sweep(sctx); err != nil && ctx.Err() == nil {
			log.Warn("download janitor", "err", err.Error())
		}
	}
	t := time.NewTimer(rand.N(interval / 10))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return
	case <-t.C:
	}
	sweep()
	tick.Every(ctx, interval, sweep)
}
