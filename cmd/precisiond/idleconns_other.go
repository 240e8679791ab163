//go:build !unix

package main

// idleBudget: without a descriptor limit to read, idle connections are
// bounded by the idle timeout alone (in effect).
func idleBudget() int { return 1 << 18 }
