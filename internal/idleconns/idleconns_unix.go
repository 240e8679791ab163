//go:build unix

package idleconns

import "syscall"

// Budget is the number of idle keep-alive connections allowed under the
// process's descriptor limit: a quarter of it (the rest is for requests in
// flight, SSE streams, files, the store and worker processes), at least 16.
func Budget() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur == 0 || rl.Cur > 1<<20 {
		return 1 << 18
	}
	return max(16, int(rl.Cur/4))
}
