package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// memoryLimit is the limit the suite runs the server under: deploy/deployment.yaml's.
const memoryLimit = 512 << 20

// fileLimit is the server's RLIMIT_NOFILE: a common container default, low enough
// that unbounded idle connections would exhaust it.
const fileLimit = 1024

// limiter confines the server (and its workers) to memoryLimit: a child memory
// cgroup when this machine lets the test create one, RLIMIT_AS otherwise.
type limiter struct {
	kind string // "cgroup v1", "cgroup v2" or "rlimit-as"
	dir  string // the cgroup directory
	file string // its limit file
}

// newLimiter creates a child memory cgroup of the test's own, or falls back.
func newLimiter(t *testing.T) *limiter {
	t.Helper()
	data, err := os.ReadFile("/proc/self/cgroup")
	if os.Getenv("HOSTILE_NO_CGROUP") != "" {
		err = errors.New("HOSTILE_NO_CGROUP set") // to exercise the fallback
	}
	if err == nil {
		name := fmt.Sprintf("precisiond-hostile-%d", os.Getpid())
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			parts := strings.SplitN(line, ":", 3)
			if len(parts) != 3 {
				continue
			}
			var l *limiter
			switch {
			case parts[0] == "0" && parts[1] == "":
				l = &limiter{kind: "cgroup v2", dir: filepath.Join("/sys/fs/cgroup", parts[2], name), file: "memory.max"}
			case strings.Split(parts[1], ",")[0] == "memory" || strings.Contains(","+parts[1]+",", ",memory,"):
				l = &limiter{kind: "cgroup v1", dir: filepath.Join("/sys/fs/cgroup/memory", parts[2], name), file: "memory.limit_in_bytes"}
			default:
				continue
			}
			if err := os.Mkdir(l.dir, 0o755); err != nil {
				t.Logf("%s: cannot create %s: %v", l.kind, l.dir, err)
				continue
			}
			if err := os.WriteFile(filepath.Join(l.dir, l.file), []byte(strconv.Itoa(memoryLimit)), 0); err != nil {
				t.Logf("%s: cannot set %s: %v", l.kind, l.file, err)
				_ = os.Remove(l.dir)
				continue
			}
			if l.kind == "cgroup v1" {
				// No swap to escape into.
				_ = os.WriteFile(filepath.Join(l.dir, "memory.memsw.limit_in_bytes"), []byte(strconv.Itoa(memoryLimit)), 0)
			} else {
				_ = os.WriteFile(filepath.Join(l.dir, "memory.swap.max"), []byte("0"), 0)
			}
			t.Cleanup(func() { l.remove(t) })
			return l
		}
	}
	t.Log("no writable memory cgroup: falling back to RLIMIT_AS (prlimit --as)")
	return &limiter{kind: "rlimit-as"}
}

// remove deletes the cgroup once every process in it has gone.
func (l *limiter) remove(t *testing.T) {
	if l.dir == "" {
		return
	}
	for i := 0; i < 100; i++ {
		if err := os.Remove(l.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("cgroup %s could not be removed", l.dir)
}

// command wraps argv so that it runs under the limit. In a cgroup, a shell
// moves itself into it and execs the server (whose workers are born there too).
// With RLIMIT_AS the limit must cover address space, not memory: a Go process
// reserves its page allocator's summaries at start (hundreds of MiB it never
// touches), so the limit is that measured start-up size plus memoryLimit.
func (l *limiter) command(t *testing.T, argv []string) *exec.Cmd {
	t.Helper()
	script := fmt.Sprintf(`ulimit -n %d && `, fileLimit)
	switch l.kind {
	case "rlimit-as":
		limit := startupAddressSpace(t, argv[0]) + memoryLimit
		if _, err := exec.LookPath("prlimit"); err == nil {
			script += fmt.Sprintf(`exec prlimit --as=%d -- "$@"`, limit)
		} else {
			script += fmt.Sprintf(`ulimit -v %d && exec "$@"`, limit>>10) // the same RLIMIT_AS, in KiB
		}
	default:
		script += fmt.Sprintf(`echo $$ > %s/cgroup.procs && exec "$@"`, l.dir)
	}
	return exec.Command("/bin/sh", append([]string{"-c", script, "sh"}, argv...)...)
}

// startupAddressSpace is the binary's address space (VmSize) once started,
// measured on a `precisiond worker`, which builds the same tools as a server.
func startupAddressSpace(t *testing.T, binary string) int64 {
	t.Helper()
	cmd := exec.Command(binary, "worker", "--data-dir", t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	hdr := make([]byte, 4)
	if _, err := io.ReadFull(stdout, hdr); err != nil { // the worker's hello: it is up
		t.Fatal(err)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmSize")
	return 0
}

// peak reports the cgroup's peak memory use and OOM kills, when known.
func (l *limiter) peak() string {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(l.dir, name))
		if err != nil {
			return "?"
		}
		return strings.TrimSpace(string(b))
	}
	switch l.kind {
	case "cgroup v1":
		n, _ := strconv.ParseInt(read("memory.max_usage_in_bytes"), 10, 64)
		return fmt.Sprintf("peak %d MiB of %d MiB, failcnt %s, %s", n>>20, memoryLimit>>20, read("memory.failcnt"),
			strings.ReplaceAll(read("memory.oom_control"), "\n", ", "))
	case "cgroup v2":
		n, _ := strconv.ParseInt(read("memory.peak"), 10, 64)
		return fmt.Sprintf("peak %d MiB of %d MiB, events: %s", n>>20, memoryLimit>>20, strings.ReplaceAll(read("memory.events"), "\n", ", "))
	}
	return "RLIMIT_AS: no peak measurement"
}

// resetPeak starts a new peak measurement (cgroup v1 only; v2's memory.peak
// cannot be reset before Linux 6.12).
func (l *limiter) resetPeak() {
	if l.kind == "cgroup v1" {
		_ = os.WriteFile(filepath.Join(l.dir, "memory.max_usage_in_bytes"), []byte("0"), 0)
	}
}

// pids lists the processes under the limit: the cgroup's, or the server and its
// children.
func (l *limiter) pids(server int) []int {
	var out []int
	if l.dir != "" {
		b, _ := os.ReadFile(filepath.Join(l.dir, "cgroup.procs"))
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
		return out
	}
	out = append(out, server)
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", server, server))
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// cpuTicks is the CPU time (user + system, clock ticks) of the processes under
// the limit, including children they have reaped.
func (l *limiter) cpuTicks(server int) int64 {
	var total int64
	for _, pid := range l.pids(server) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		// fields after the name: state(0) ... utime(11) stime(12) cutime(13) cstime(14)
		for _, i := range []int{11, 12, 13, 14} {
			n, _ := strconv.ParseInt(f[i], 10, 64)
			total += n
		}
	}
	return total
}

// server is the real binary, running with the default configuration.
type server struct {
	t       *testing.T
	binary  string
	lim     *limiter
	dataDir string
	url     string
	cmd     *exec.Cmd
	pid     int
	stderr  *tail
	exited  chan struct{}
	deaths  int
}

// tail keeps the end of a process's stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 16<<10 {
		t.buf = t.buf[len(t.buf)-16<<10:]
	}
	return len(p), nil
}

func (t *tail) String() string { t.mu.Lock(); defer t.mu.Unlock(); return string(t.buf) }

func buildBinary(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "precisiond")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/precisiond")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as the Dockerfile builds it
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func startServer(t *testing.T) *server {
	t.Helper()
	s := &server{t: t, binary: buildBinary(t), lim: newLimiter(t), dataDir: t.TempDir()}
	t.Logf("memory limit: %s (%d MiB), RLIMIT_NOFILE %d", s.lim.kind, memoryLimit>>20, fileLimit)
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *server) start() {
	t := s.t
	t.Helper()
	if s.url == "" {
		// One address for the whole suite: a restarted server takes it over,
		// so that the prober keeps probing the service.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s.url = "http://" + ln.Addr().String()
		ln.Close()
	}
	addr := strings.TrimPrefix(s.url, "http://")
	// The default configuration: only the address and a data directory of its own.
	s.cmd = s.lim.command(t, []string{s.binary, "serve", "--addr", addr, "--data-dir", s.dataDir})
	s.stderr = &tail{}
	s.cmd.Stderr = s.stderr
	s.cmd.Env = append(os.Environ(), "PRECISIOND_ADMIN_TOKEN=") // no admin token: the default
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.pid = s.cmd.Process.Pid // the shell execs the server: same pid
	s.exited = make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.url + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		select {
		case <-s.exited:
			t.Fatalf("server exited at start: %s\n%s", s.cmd.ProcessState, s.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not healthy after 60 s\n%s", s.stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *server) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.pid, syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(35 * time.Second):
		_ = syscall.Kill(-s.pid, syscall.SIGKILL)
		<-s.exited
	}
}

// alive checks that the same server process still answers /health and a tool
// call correctly; a dead server is reported and restarted for the next case.
func (s *server) alive(t *testing.T) {
	t.Helper()
	status, body, _ := s.post(t, "/invoke", []byte(`{"tool":"gcd_lcm","args":{"a":12,"b":18}}`), nil)
	sr, _ := body["structured_result"].(map[string]any)
	facts, _ := sr["facts"].(map[string]any)
	if status == 200 && facts != nil && facts["gcd"] == json.Number("6") {
		return
	}
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		t.Errorf("canary call after the case: %d %v", status, body)
		return
	}
	s.deaths++
	t.Errorf("the server died: %s\n%s", s.cmd.ProcessState, lastLines(s.stderr.String(), 8))
	s.start()
}

// lastLines keeps the end of a log.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

var client = &http.Client{Timeout: 120 * time.Second}

// post sends a body and decodes a JSON answer (numbers as json.Number).
func (s *server) post(t *testing.T, path string, body []byte, hdr map[string]string) (int, map[string]any, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.url+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Errorf("POST %s: %v", path, err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	_ = dec.Decode(&m)
	return resp.StatusCode, m, raw
}

// invoke posts {"tool","args"} to /invoke.
func (s *server) invoke(t *testing.T, tool string, args any) (int, map[string]any, []byte) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"tool": tool, "args": args})
	if err != nil {
		t.Fatal(err)
	}
	return s.post(t, "/invoke", body, nil)
}

// prober is a separate process (this test binary in probe mode) that GETs
// /health on a new connection every 100 ms: a prober in the test's own process
// would measure the test's garbage collector as much as the server.
type prober struct {
	cmd   *exec.Cmd
	stdin io.Closer
	mu    sync.Mutex
	all   []probe
	done  chan struct{}
}

type probe struct {
	at      time.Time
	latency time.Duration
	err     string
}

const probeEnv = "HOSTILE_PROBE_URL"

// runProbeMode is the prober process: one line per probe until stdin closes.
func runProbeMode(url string) {
	// Best effort (needs CAP_SYS_NICE): the prober's own scheduling delays on a
	// busy machine should not count as the server's.
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, -5)
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); os.Exit(0) }()
	// A probe fails when /health does not answer 200 within 30 s: the suite
	// asserts that the server keeps answering, not how fast on a shared,
	// possibly busy machine (latencies over 1 s are logged, not failed).
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	for {
		start := time.Now()
		resp, err := c.Get(url + "/health")
		status := "ok"
		if err != nil {
			status = strings.ReplaceAll(err.Error(), " ", "_")
		} else {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				status = "status_" + strconv.Itoa(resp.StatusCode)
			}
		}
		fmt.Printf("%d %d %s\n", start.UnixNano(), time.Since(start).Nanoseconds(), status)
		time.Sleep(100 * time.Millisecond)
	}
}

func startProber(t *testing.T, url string) *prober {
	t.Helper()
	p := &prober{done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), probeEnv+"="+url)
	stdin, _ := p.cmd.StdinPipe()
	stdout, _ := p.cmd.StdoutPipe()
	p.stdin = stdin
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 3 {
				continue
			}
			at, _ := strconv.ParseInt(f[0], 10, 64)
			lat, _ := strconv.ParseInt(f[1], 10, 64)
			pr := probe{at: time.Unix(0, at), latency: time.Duration(lat)}
			if f[2] != "ok" {
				pr.err = f[2]
			}
			p.mu.Lock()
			p.all = append(p.all, pr)
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() { p.stdin.Close(); <-p.done; _ = p.cmd.Wait() })
	return p
}

// failures returns the probes started in [from, to) that failed (no 200
// within the prober's 30 s), those that answered but took longer than 1 s,
// and how many probes there were.
func (p *prober) failures(from, to time.Time) (bad, slow []probe, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.all {
		if pr.at.Before(from) || !pr.at.Before(to) {
			continue
		}
		n++
		switch {
		case pr.err != "":
			bad = append(bad, pr)
		case pr.latency > time.Second:
			slow = append(slow, pr)
		}
	}
	return bad, slow, n
}

// waitProbes waits until a probe started after t0 has been reported.
func (p *prober) waitProbes(t0 time.Time) {
	for i := 0; i < 100; i++ {
		p.mu.Lock()
		n := len(p.all)
		last := time.Time{}
		if n > 0 {
			last = p.all[n-1].at
		}
		p.mu.Unlock()
		if last.After(t0) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
