package worker

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// addressSpace is the process's current virtual size (VmSize), in bytes.
func addressSpace() (int64, error) { return statusBytes("self", "VmSize:") }

// peakRSS is a process's peak resident set (VmHWM) in bytes, or 0.
func peakRSS(pid int) int64 {
	n, _ := statusBytes(strconv.Itoa(pid), "VmHWM:")
	return n
}

// statusBytes reads one "kB" field of /proc/<pid>/status.
func statusBytes(pid, field string) (int64, error) {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte(field)); ok {
			kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
			return kb << 10, err
		}
	}
	return 0, os.ErrNotExist
}

// limitAddressSpace sets RLIMIT_AS (soft and hard) to n bytes, or keeps a
// lower limit the process inherited (which it could not raise anyway).
func limitAddressSpace(n int64) error {
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &cur); err != nil {
		return err
	}
	v := min(uint64(n), cur.Max)
	return syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: v, Max: v})
}

// limitCPU sets RLIMIT_CPU: the soft limit (SIGXCPU) and, when hard > 0, the
// hard limit (SIGKILL), in seconds of CPU time.
func limitCPU(soft, hard int64) error {
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CPU, &cur); err != nil {
		return err
	}
	if hard > 0 {
		cur.Max = uint64(hard)
	}
	cur.Cur = min(uint64(soft), cur.Max)
	return syscall.Setrlimit(syscall.RLIMIT_CPU, &cur)
}

// usage returns the process's CPU time (user + system) and peak resident set.
func usage() (cpu time.Duration, maxRSS int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return cpu, int64(ru.Maxrss) << 10 // kB on Linux (int32 on 386)
}

// exitOnCPULimit makes the soft RLIMIT_CPU signal end the worker with
// ExitCPULimit, which the server reads as the call's cost_limit_exceeded.
func exitOnCPULimit() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGXCPU)
	go func() {
		<-ch
		os.Exit(ExitCPULimit)
	}()
}

// lowerPriority gives the worker a lower CPU priority (nice 10) than the server,
// so that on a small machine the server's own requests (/health among them)
// are not starved by isolated work; raising one's niceness needs no privilege.
func lowerPriority() {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, workerNice)
}

// preferOOMKill makes this process the kernel OOM killer's first choice, so that
// under memory pressure a worker dies rather than the server.
func preferOOMKill() {
	_ = os.WriteFile("/proc/self/oom_score_adj", []byte("1000"), 0)
}

// configureChild makes a worker die with the server (SIGKILL when the parent
// goes) and keeps it out of the terminal's process group (the server decides
// when it stops).
func configureChild(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// exitSignal reports the signal that ended a process, if any.
func exitSignal(ps *os.ProcessState) (syscall.Signal, bool) {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	return ws.Signal(), true
}
