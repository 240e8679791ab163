package mcpserver

import (
	"sync"
	"time"
)

// DefaultListChangedInterval is the least time between two list_changed
// notifications of one kind (Options.ListChangedInterval).
const DefaultListChangedInterval = time.Second

// coalescer runs fire at most once per interval however often trigger is
// called: the first trigger after a quiet interval fires at once, later ones
// share one trailing run at the end of the interval. A generate_file call from
// any anonymous client makes the store's resource list change; coalescing keeps
// the resulting fan-out to every connected session at one notification per
// interval instead of one per call.
type coalescer struct {
	interval time.Duration
	fire     func()

	mu      sync.Mutex
	last    time.Time   // when fire last started
	pending *time.Timer // a scheduled run; nil when none
}

func newCoalescer(interval time.Duration, fire func()) *coalescer {
	return &coalescer{interval: interval, fire: fire}
}

// trigger asks for one run of fire, now or at the end of the current interval.
func (c *coalescer) trigger() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending != nil {
		return // the scheduled run will report this change too
	}
	wait := max(c.interval-time.Since(c.last), 0)
	c.pending = time.AfterFunc(wait, func() {
		c.mu.Lock()
		c.pending = nil
		c.last = time.Now()
		c.mu.Unlock()
		c.fire()
	})
}
