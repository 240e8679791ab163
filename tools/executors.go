package tools

// executors runs the work of a call (Registry.execute) on a goroutine of its
// own, which holds the call's slot until the work stops.
//
// A pool of kept goroutines (issue 20, bench/RESULTS.md §5.6) saved the
// stack growth of a new goroutine, ~3 % of the server's CPU, below the 10 %
// a fast path must gain (issue 29); it is gone. What remains is only the name
// invoke.go calls: `go f()` there makes this file unnecessary.
var executors executorPool

type executorPool struct{}

// do runs f on a new goroutine.
func (executorPool) do(f func()) { go f() }
