package worker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/precisiond/precisiond/internal/defaults"
	"github.com/precisiond/precisiond/tools"
)

// Defaults of Config.
const (
	DefaultSize         = 2
	DefaultStartTimeout = 10 * time.Second
	DefaultRecycleCPU   = 10 * time.Minute
)

// WorkerEnv is added to every worker's environment. A worker runs one call at a
// time: one P keeps it to one core (two workers cannot starve the server of a
// two-core machine) and it creates few threads. In a binary built with cgo each
// thread also costs its C stack and possibly a malloc arena of address space,
// which RLIMIT_AS counts: one arena bounds that.
var WorkerEnv = []string{"GOMAXPROCS=1", "MALLOC_ARENA_MAX=1"}

// workerDeadlineMargin is how much earlier a worker's deadline is than its
// call's (at most a tenth of the time left).
const workerDeadlineMargin = 50 * time.Millisecond

// Config configures a Pool.
type Config struct {
	// Command is the worker's argv (Command[0] the executable), e.g.
	// [os.Executable(), "worker", "--data-dir", dir, ...]. Required.
	Command []string
	// Env is the workers' environment; nil inherits the server's. Either way
	// WorkerEnv is appended (it wins over the same variables in Env).
	Env []string
	// Size is the most worker processes alive at once (default DefaultSize);
	// calls beyond it wait for a worker (until their context ends).
	Size int
	// StartTimeout bounds a worker's start until its hello (default
	// DefaultStartTimeout).
	StartTimeout time.Duration
	// RecycleCPU retires a worker once it has used this much CPU time in all
	// (default DefaultRecycleCPU), well before its hard RLIMIT_CPU.
	RecycleCPU time.Duration
	// MaxResponseBytes bounds one answer (default DefaultMaxResponseBytes).
	MaxResponseBytes int
	// Logger gets a line for every worker that died or was killed; nil discards.
	Logger *slog.Logger
	// OnExit, if set, is called after a worker process ended abnormally (killed
	// at a deadline, or died of a limit), with the reason: "deadline",
	// "memory_limit", "cpu_limit" or "crashed". The server removes temporary
	// files such a worker may have left in the download store.
	OnExit func(reason string)
}

// Stats are counters over a pool's life.
type Stats struct {
	Spawned     int64 // worker processes started
	Calls       int64 // calls answered by a worker (successes and tool errors)
	Killed      int64 // workers killed because a call's context ended
	MemoryLimit int64 // workers that died of their memory limit
	CPULimit    int64 // workers that died of their CPU limit
	Crashed     int64 // workers that died otherwise
	Retired     int64 // workers retired after RecycleCPU
	// Peak resident set of any worker at the end of a call, bytes.
	MaxRSSBytes int64
}

// Pool runs tool executions in worker processes; it implements tools.Runner.
type Pool struct {
	cfg   Config
	log   *slog.Logger
	slots chan struct{} // one per live worker process
	idle  chan *proc

	mu     sync.Mutex
	procs  map[*proc]bool
	closed bool
	nextID atomic.Uint64

	spawned, calls, killed, memLimit, cpuLimit, crashed, retired, maxRSS atomic.Int64
}

var _ tools.Runner = (*Pool)(nil)

// NewPool returns a pool; workers start on demand.
func NewPool(cfg Config) (*Pool, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("worker: no command to start workers with")
	}
	defaults.Positive(&cfg.Size, DefaultSize)
	defaults.Positive(&cfg.StartTimeout, DefaultStartTimeout)
	defaults.Positive(&cfg.RecycleCPU, DefaultRecycleCPU)
	defaults.Positive(&cfg.MaxResponseBytes, DefaultMaxResponseBytes)
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Pool{cfg: cfg, log: log, slots: make(chan struct{}, cfg.Size), idle: make(chan *proc, cfg.Size), procs: map[*proc]bool{}}, nil
}

// Stats returns the pool's counters.
func (p *Pool) Stats() Stats {
	return Stats{Spawned: p.spawned.Load(), Calls: p.calls.Load(), Killed: p.killed.Load(), MemoryLimit: p.memLimit.Load(),
		CPULimit: p.cpuLimit.Load(), Crashed: p.crashed.Load(), Retired: p.retired.Load(), MaxRSSBytes: p.maxRSS.Load()}
}

// Busy reports how many worker processes are running a call right now.
func (p *Pool) Busy() int { return len(p.slots) - len(p.idle) }

// Warm starts one worker now (if none is alive), so that the first call does
// not pay for the start.
func (p *Pool) Warm() error {
	select {
	case p.slots <- struct{}{}:
	default:
		return nil
	}
	w, err := p.spawn()
	if err != nil {
		<-p.slots
		return err
	}
	p.putIdle(w)
	return nil
}

// Close kills every worker; calls still running get an error.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	list := make([]*proc, 0, len(p.procs))
	for w := range p.procs {
		list = append(list, w)
	}
	p.mu.Unlock()
	for _, w := range list {
		w.kill()
	}
	return nil
}

// Execute runs tool on args in a worker. When ctx ends first, the worker is
// killed (its whole process: nothing keeps running) and ctx.Err() returned. A
// worker that dies of its memory or CPU limit makes the call
// cost_limit_exceeded (reason memory_limit or cpu_limit). Errors the tool
// returned come back as the same types (*tools.Error, *refusal.Error).
func (p *Pool) Execute(ctx context.Context, tool string, args map[string]any) (tools.Output, error) {
	req := &request{ID: p.nextID.Add(1), Tool: tool, Args: args}
	if dl, ok := ctx.Deadline(); ok {
		// The worker's copy of the deadline is a little earlier, so that a tool
		// that honours its context answers before the pool would kill it (a
		// killed worker costs a new process).
		left := time.Until(dl)
		req.DeadlineUnixMilli = dl.Add(-min(workerDeadlineMargin, left/10)).UnixMilli()
		req.CPUSeconds = int64(left/time.Second) + 1
	}
	frame, err := encodeRequest(req)
	if err != nil {
		return tools.Output{}, &tools.InternalError{Tool: tool, Err: err}
	}
	for attempt := 0; ; attempt++ {
		w, err := p.acquire(ctx)
		if err != nil {
			return tools.Output{}, err
		}
		out, err, retry := p.run(ctx, w, tool, frame)
		if retry && attempt == 0 {
			continue // the worker had died while idle: the call never reached it
		}
		return out, err
	}
}

// acquire returns an idle worker or starts one, waiting while Size workers are
// busy.
func (p *Pool) acquire(ctx context.Context) (*proc, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case w := <-p.idle:
		return w, nil
	default:
	}
	select {
	case w := <-p.idle:
		return w, nil
	case p.slots <- struct{}{}:
		w, err := p.spawn()
		if err != nil {
			<-p.slots
			return nil, err
		}
		return w, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *Pool) putIdle(w *proc) {
	p.idle <- w // capacity Size: never blocks
}

// run sends one request to w and waits for its answer or ctx's end. retry
// reports a worker that was already gone before it could read the request.
func (p *Pool) run(ctx context.Context, w *proc, tool string, frame []byte) (tools.Output, error, bool) {
	if err := writeFrame(w.stdin, frame); err != nil {
		p.discard(w, "crashed")
		return tools.Output{}, &tools.InternalError{Tool: tool, Err: fmt.Errorf("worker gone: %w", err)}, true
	}
	type answer struct {
		frame []byte
		err   error
	}
	ch := make(chan answer, 1)
	go func() {
		b, err := readFrame(w.stdout, p.cfg.MaxResponseBytes)
		ch <- answer{b, err}
	}()
	var a answer
	select {
	case a = <-ch:
	case <-ctx.Done():
		p.noteRSS(peakRSS(w.pid))
		w.kill()
		<-ch // the pipe closes with the process
		p.killed.Add(1)
		p.discard(w, "deadline")
		return tools.Output{}, ctx.Err(), false
	}
	if a.err != nil {
		if errors.Is(a.err, ErrFrameTooLarge) {
			w.kill()
			p.discard(w, "crashed")
			return tools.Output{}, &tools.Error{Code: tools.CodeResultTooLarge, Reason: "worker_response_too_large",
				Message: fmt.Sprintf("the result of %s is larger than %d bytes", tool, p.cfg.MaxResponseBytes)}, false
		}
		return tools.Output{}, p.died(w, tool), false
	}
	resp, err := decodeResponse(a.frame)
	if err != nil {
		w.kill()
		p.discard(w, "crashed")
		return tools.Output{}, &tools.InternalError{Tool: tool, Err: err}, false
	}
	p.calls.Add(1)
	p.noteRSS(resp.MaxRSSBytes)
	if time.Duration(resp.CPUNanos) >= p.cfg.RecycleCPU {
		p.retired.Add(1)
		w.retire()
		p.discard(w, "")
	} else {
		p.putIdle(w)
	}
	if resp.Error != nil && resp.Error.Kind == kindDeadline {
		// The tool saw the deadline (the worker's copy of ctx's, in whole
		// milliseconds) a moment before ctx itself ends.
		<-ctx.Done()
		return tools.Output{}, ctx.Err(), false
	}
	out, err := resp.output(tool)
	return out, err, false
}

// decodeResponse reads a worker's answer.
func decodeResponse(frame []byte) (*response, error) {
	var resp response
	if err := decodeStrict(frame, &resp); err != nil {
		return nil, fmt.Errorf("malformed worker answer: %w", err)
	}
	return &resp, nil
}

// output is what Execute returns for the answer.
func (resp *response) output(tool string) (tools.Output, error) {
	if resp.Error != nil {
		return tools.Output{}, fromWire(tool, resp.Error)
	}
	if resp.Facts == nil {
		resp.Facts = map[string]any{}
	}
	return tools.Output{Facts: resp.Facts, Text: resp.Text, Warnings: resp.Warnings}, nil
}

// noteRSS raises the MaxRSSBytes statistic to n.
func (p *Pool) noteRSS(n int64) {
	for {
		cur := p.maxRSS.Load()
		if n <= cur || p.maxRSS.CompareAndSwap(cur, n) {
			return
		}
	}
}

// died classifies a worker that ended in the middle of a call.
func (p *Pool) died(w *proc, tool string) error {
	select {
	case <-w.exited:
	case <-time.After(5 * time.Second):
		w.kill()
		<-w.exited
	}
	reason, msg := w.cause()
	p.log.Warn("worker died during a call", "tool", tool, "pid", w.pid, "reason", reason, "status", w.state.String(), "stderr", w.stderr.tail())
	switch reason {
	case "memory_limit":
		p.memLimit.Add(1)
	case "cpu_limit":
		p.cpuLimit.Add(1)
	default:
		p.crashed.Add(1)
	}
	p.discard(w, reason)
	if reason == "crashed" {
		return &tools.InternalError{Tool: tool, Err: fmt.Errorf("worker exited: %s: %s", w.state, w.stderr.tail())}
	}
	return &tools.Error{Code: tools.CodeCostLimit, Reason: reason, Message: fmt.Sprintf("%s %s", tool, msg)}
}

// discard forgets a worker that is gone (or going) and frees its slot.
func (p *Pool) discard(w *proc, reason string) {
	p.mu.Lock()
	delete(p.procs, w)
	p.mu.Unlock()
	go func() {
		<-w.exited
		<-p.slots
		if reason != "" && p.cfg.OnExit != nil {
			p.cfg.OnExit(reason)
		}
	}()
}

// spawn starts a worker and waits for its hello.
func (p *Pool) spawn() (*proc, error) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return nil, errors.New("worker: pool closed")
	}
	cmd := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	env := p.cfg.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(slices.Clip(env), WorkerEnv...)
	configureChild(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w := &proc{cmd: cmd, stdin: stdin, exited: make(chan struct{}), stderr: &tailBuffer{max: 4096}}
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("worker: start: %w", err)
	}
	w.pid = cmd.Process.Pid
	w.stdout = bufio.NewReaderSize(stdout, 64<<10)
	p.spawned.Add(1)
	go func() {
		_ = cmd.Wait()
		w.state = cmd.ProcessState
		close(w.exited)
	}()
	type helloOrErr struct {
		h   hello
		err error
	}
	ch := make(chan helloOrErr, 1)
	go func() {
		var h hello
		b, err := readFrame(w.stdout, 4096)
		if err == nil {
			err = decodeStrict(b, &h)
		}
		ch <- helloOrErr{h, err}
	}()
	var r helloOrErr
	select {
	case r = <-ch:
	case <-time.After(p.cfg.StartTimeout):
		r.err = errors.New("no hello in time")
	}
	if r.err != nil {
		w.kill()
		<-w.exited
		return nil, fmt.Errorf("worker: start: %v (%s; stderr: %s)", r.err, w.state, w.stderr.tail())
	}
	w.hello = r.h
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		w.kill()
		return nil, errors.New("worker: pool closed")
	}
	p.procs[w] = true
	p.mu.Unlock()
	return w, nil
}

// proc is one worker process.
type proc struct {
	cmd    *exec.Cmd
	pid    int
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *tailBuffer
	hello  hello

	exited chan struct{} // closed once reaped; state is set then
	state  *os.ProcessState
	killed atomic.Bool
}

// kill ends the process at once (SIGKILL: it cannot run any further code).
func (w *proc) kill() {
	w.killed.Store(true)
	_ = w.cmd.Process.Signal(syscall.SIGKILL)
}

// retire lets an idle worker exit on its own (end of its input).
func (w *proc) retire() { _ = w.stdin.Close() }

// cause explains a worker that ended during a call, as a reason and the end
// of a sentence for the client.
func (w *proc) cause() (reason, msg string) {
	if w.killed.Load() {
		return "crashed", "" // the pool stopped it (Close): not the call's doing
	}
	if w.state.ExitCode() == ExitCPULimit {
		return "cpu_limit", "used up its CPU time limit and was stopped"
	}
	if sig, ok := exitSignal(w.state); ok {
		switch sig {
		case syscall.SIGXCPU:
			return "cpu_limit", "used up its CPU time limit and was stopped"
		case syscall.SIGKILL:
			// Not killed by the pool (that is a deadline): the kernel's OOM
			// killer, or the hard CPU limit.
			return "memory_limit", "was killed by the operating system (out of memory)"
		}
	}
	tail := w.stderr.tail()
	for _, s := range []string{"out of memory", "cannot allocate memory", "failed to reserve", "failed to create new OS thread", "pthread_create failed", "mmap",
		"failed to allocate", // the race detector's runtime
	} {
		if strings.Contains(tail, s) {
			return "memory_limit", "exceeded the memory limit of its worker process"
		}
	}
	return "crashed", ""
}

// tailBuffer keeps the first and the last bytes written to it (a worker's
// stderr: a Go runtime's fatal error names its cause first, then dumps stacks).
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	head []byte
	buf  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max/4 - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return n, nil
}

func (t *tailBuffer) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) == 0 {
		return string(t.head)
	}
	return string(t.head) + " … " + string(t.buf)
}
