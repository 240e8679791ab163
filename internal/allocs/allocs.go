// Package allocs measures the memory a piece of code allocates, for tests
// that bound it: a byte count does not depend on time or machine load, so a
// bound on it can be asserted where a bound on time cannot.
package allocs

import "runtime"

// Bytes returns the bytes allocated (runtime.MemStats.TotalAlloc) while f
// runs, after a garbage collection. Allocations by other goroutines count
// too, so callers run it where nothing else allocates much (tests that do not
// run in parallel).
func Bytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
