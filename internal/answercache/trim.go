package answercache

import (
	"context"
	"log/slog"
	"time"

	"github.com/precisiond/precisiond/internal/tick"
)

// KeepTrimmed trims the store tier to StoreOptions.MaxBytes at once (so that
// its bytes are known from the start) and then every interval until ctx
// ends, each pass bounded by 30 s; a failed pass is logged and the next one
// tries again. Without a store tier a pass does nothing.
func (c *Cache) KeepTrimmed(ctx context.Context, interval time.Duration, log *slog.Logger) {
	trim := func() {
		tctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if n, err := c.TrimStore(tctx); err != nil {
			log.Warn("answer cache: trimming the store tier failed", "err", err.Error())
		} else if n > 0 {
			log.Debug("answer cache: store tier trimmed", "removed", n)
		}
	}
	trim()
	tick.Every(ctx, interval, trim)
}
