//go:build !unix

package idleconns

// Budget: without a descriptor limit to read, idle connections are
// bounded by the idle timeout alone (in effect).
func Budget() int { return 1 << 18 }
