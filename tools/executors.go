package tools

import (
	"sync"
	"sync/atomic"
)

// executors run the work of calls (Registry.execute) on goroutines that are
// kept, at most 64 of them, for the next call when their work is done. A
// call's work goes deep (argument parsing, schema validation in and out, the
// envelope): on a new goroutine it grew the stack from its starting size by
// copying it several times per call, ~3 % of the server's CPU under load
// (bench/RESULTS.md §5.6); a kept goroutine has its stack grown already.
// Nothing else changes: the work still runs on a goroutine of its own,
// holding the call's slot until it stops, and a call never waits for an
// executor (there is always a new one).
var executors = executorPool{maxIdle: 64} // the default concurrency limit is 4 × CPUs; the load harness sets 64

type executorPool struct {
	maxIdle int
	mu      sync.Mutex
	idle    []chan func() // of the waiting executors, the last to wait last
	spawned atomic.Int64  // executors started, for tests
}

// do runs f on the executor that waited last, or on a new one when none waits.
func (p *executorPool) do(f func()) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		work := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		work <- f // buffered: its executor takes it when it is scheduled
		return
	}
	p.mu.Unlock()
	p.spawned.Add(1)
	go p.run(make(chan func(), 1), f)
}

// run runs f, then waits on work for more unless maxIdle executors wait
// already.
func (p *executorPool) run(work chan func(), f func()) {
	for {
		f()
		p.mu.Lock()
		if len(p.idle) >= p.maxIdle {
			p.mu.Unlock()
			return
		}
		p.idle = append(p.idle, work)
		p.mu.Unlock()
		f = <-work
	}
}

// waiting is the number of idle executors.
func (p *executorPool) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}
