package toggles

import (
	"context"
	"log/slog"
	"time"

	"github.com/precisiond/precisiond/internal/tick"
)

// Watch follows the toggle state other processes write into the store
// (another replica, precisiond mcp beside serve): it reloads it every
// interval, each read bounded by max(interval, timeout), until ctx ends, and
// calls changed (when not nil) after a reload that changed the enabled
// state. A state that cannot be read is logged once, and once more when it
// can be read again; the current state stays in force meanwhile.
func (s *Store) Watch(ctx context.Context, interval, timeout time.Duration, log *slog.Logger, changed func()) {
	failing := false
	tick.Every(ctx, interval, func() {
		rctx, cancel := context.WithTimeout(ctx, max(interval, timeout))
		defer cancel()
		did, _, err := s.Reload(rctx)
		switch {
		case err != nil && ctx.Err() == nil:
			if !failing {
				log.Warn("toggle state unreadable; keeping the current state until it can be read", "err", err.Error())
			}
			failing = true
			return
		case failing:
			log.Info("toggle state readable again")
		}
		failing = false
		if did && changed != nil {
			changed()
		}
	})
}
