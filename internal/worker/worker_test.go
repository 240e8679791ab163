package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/refusal"
	"github.com/precisiond/precisiond/tools"
)

// serveEnv makes the test binary a worker (see TestMain); its value is the
// memory budget in bytes.
const serveEnv = "WORKER_TEST_SERVE_MEMORY"

func TestMain(m *testing.M) {
	if mem := os.Getenv(serveEnv); mem != "" {
		n, _ := strconv.ParseInt(mem, 10, 64)
		if err := Serve(os.Stdin, os.Stdout, testTools(), Limits{MemoryBytes: n}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func testContract(name string) *contracts.Contract {
	c, err := contracts.Parse([]byte(`{
 "tool": "` + name + `", "contract_version": "1.0.0", "title": "Test tool",
 "description": "For worker tests only.", "determinism": "input_only",
 "source_policy": {"kind": "test", "name": "test"}, "access_kind": "read",
 "limits": {}, "inputSchema": {"type": "object", "additionalProperties": false, "properties": {"how": {"type": "string", "description": "what to do"}}},
 "outputSchema": {"type": "object", "additionalProperties": false, "properties": {"pid": {"type": "string", "description": "process id"}}},
 "examples": [{"title": "a", "args": {}, "facts": {}}, {"title": "b", "args": {}, "facts": {}}]}`))
	if err != nil {
		panic(err)
	}
	return c
}

var sink [][]byte

func testTools() []tools.Tool {
	t := func(name string, run func(ctx context.Context, args map[string]any) (tools.Output, error)) tools.Tool {
		return tools.Tool{Contract: testContract(name), Execute: run} // misbehaves as its name says
	}
	return []tools.Tool{
		t("echo", func(_ context.Context, args map[string]any) (tools.Output, error) {
			// The text shows the float literal as the tool received it.
			return tools.Output{Facts: args, Text: fmt.Sprintf("echo ✓ %v", args["f"]), Warnings: []tools.Warning{{Code: "w", Message: "m"}}}, nil
		}),
		t("spin", func(context.Context, map[string]any) (tools.Output, error) {
			for x := 0; ; x++ { // ignores its context, as goldmark does
				if x == -1 {
					return tools.Output{}, nil
				}
			}
		}),
		t("hog", func(context.Context, map[string]any) (tools.Output, error) {
			for {
				b := make([]byte, 1<<20)
				for i := range b {
					b[i] = byte(i)
				}
				sink = append(sink, b)
			}
		}),
		t("fail", func(_ context.Context, args map[string]any) (tools.Output, error) {
			switch args["how"] {
			case "tool":
				return tools.Output{}, tools.Fail("division_by_zero", "no")
			case "refusal":
				return tools.Output{}, refusal.Cost("too_big", "too big")
			case "panic":
				panic("boom")
			case "exit":
				os.Exit(7)
			}
			return tools.Output{}, errors.New("a bug")
		}),
		t("wait", func(ctx context.Context, _ map[string]any) (tools.Output, error) {
			<-ctx.Done() // honours its context: stops at the worker's copy of the deadline
			return tools.Output{}, ctx.Err()
		}),
		t("pid", func(context.Context, map[string]any) (tools.Output, error) {
			return tools.Output{Facts: map[string]any{"pid": strconv.Itoa(os.Getpid())}}, nil
		}),
	}
}

func newTestPool(t *testing.T, memory int64, mutate func(*Config)) *Pool {
	t.Helper()
	cfg := Config{
		Command: []string{os.Args[0], "-test.run=^$"},
		Env:     append(os.Environ(), serveEnv+"="+strconv.FormatInt(memory, 10)),
		Size:    2,
		// No test here is about the start bound: a start under -race on a
		// loaded machine may take longer than DefaultStartTimeout.
		StartTimeout: 5 * time.Minute,
	}
	if mutate != nil {
		mutate(&cfg)
	}
	p, err := NewPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// raceMemory is the budget the memory tests use: the race detector's shadow
// memory grows with the heap, so the same heap needs more room under -race.
func raceMemory() int64 {
	if raceEnabled {
		return 1 << 30
	}
	return 128 << 20
}

func TestRoundTrip(t *testing.T) {
	p := newTestPool(t, 0, nil)
	args := map[string]any{"s": "grüße \u2028 \"q\"", "n": jsonNumber("123456789012345678901234567890"), "f": jsonNumber("1.50"),
		"list": []any{true, nil, jsonNumber("-0"), map[string]any{}}}
	out, err := p.Execute(context.Background(), "echo", args)
	if err != nil {
		t.Fatal(err)
	}
	// Arguments reach the tool exactly as written (1.50 stays 1.50).
	if out.Text != "echo ✓ 1.50" || len(out.Warnings) != 1 || out.Warnings[0] != (tools.Warning{Code: "w", Message: "m"}) {
		t.Fatalf("text %q warnings %v", out.Text, out.Warnings)
	}
	// Facts travel as canonical JSON, what they are hashed as: the same bytes.
	got, err := evidence.Canonical(out.Facts)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := evidence.Canonical(args)
	if string(got) != string(want) {
		t.Fatalf("facts\n got %s\nwant %s", got, want)
	}
}

func TestErrorsKeepTheirType(t *testing.T) {
	p := newTestPool(t, 0, nil)
	ctx := context.Background()
	_, err := p.Execute(ctx, "fail", map[string]any{"how": "tool"})
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != tools.CodeExecution || te.Reason != "division_by_zero" {
		t.Errorf("tool error: %v", err)
	}
	_, err = p.Execute(ctx, "fail", map[string]any{"how": "refusal"})
	var re *refusal.Error
	if !errors.As(err, &re) || !re.Costly || re.Reason != "too_big" {
		t.Errorf("refusal: %v", err)
	}
	for _, how := range []string{"bug", "panic"} {
		_, err = p.Execute(ctx, "fail", map[string]any{"how": how})
		var ie *tools.InternalError
		if !errors.As(err, &ie) {
			t.Errorf("%s: %v, want an internal error", how, err)
		}
	}
	// A worker that exits in the middle of a call is an internal error of that
	// call only; the next call gets a fresh worker.
	_, err = p.Execute(ctx, "fail", map[string]any{"how": "exit"})
	var ie *tools.InternalError
	if !errors.As(err, &ie) {
		t.Errorf("exit: %v", err)
	}
	if _, err := p.Execute(ctx, "echo", map[string]any{}); err != nil {
		t.Errorf("after a crash: %v", err)
	}
}

// TestDeadlineKillsTheProcess: a tool that ignores its context is stopped at the
// deadline by killing its worker; the process is gone (no work left running)
// and the next call runs in a new worker.
func TestDeadlineKillsTheProcess(t *testing.T) {
	exits := make(chan string, 4)
	p := newTestPool(t, 0, func(c *Config) { c.OnExit = func(r string) { exits <- r } })
	out, err := p.Execute(context.Background(), "pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(out.Facts["pid"].(string))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = p.Execute(ctx, "spin", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the deadline", err)
	}
	t.Logf("spin returned %v after the start, deadline 300ms", time.Since(start))
	if got := <-exits; got != "deadline" {
		t.Errorf("OnExit(%q), want deadline", got)
	}
	if processAlive(pid) {
		t.Errorf("worker %d still running after its call's deadline", pid)
	}
	out, err = p.Execute(context.Background(), "pid", nil)
	if err != nil || out.Facts["pid"] == strconv.Itoa(pid) {
		t.Fatalf("next call: %v %v", out.Facts, err)
	}
	if s := p.Stats(); s.Killed != 1 || s.Spawned != 2 {
		t.Errorf("stats %+v", s)
	}
}

func processAlive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// A zombie (state Z) has stopped running.
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

// TestDeadlineSeenByTheTool: a tool that stops at the deadline itself gives the
// caller its context's error, as in process (whether its answer or the pool's
// kill came first, which depends on the machine's load).
func TestDeadlineSeenByTheTool(t *testing.T) {
	p := newTestPool(t, 0, nil)
	// A worker started first, without a deadline: the short deadline below
	// then bounds the tool, not the start of a process.
	if err := p.Warm(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := p.Execute(ctx, "wait", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the deadline", err)
	}
	if _, err := p.Execute(context.Background(), "echo", nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("stats %+v", p.Stats())
}

// TestMemoryLimit: a tool that allocates without bound kills only its worker,
// and the call is cost_limit_exceeded memory_limit.
func TestMemoryLimit(t *testing.T) {
	p := newTestPool(t, raceMemory(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := p.Execute(ctx, "hog", nil)
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != tools.CodeCostLimit || te.Reason != "memory_limit" {
		t.Fatalf("err %v, want cost_limit_exceeded memory_limit", err)
	}
	if _, err := p.Execute(context.Background(), "echo", nil); err != nil {
		t.Errorf("after the memory limit: %v", err)
	}
	if s := p.Stats(); s.MemoryLimit != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestCPULimit: a call whose context has no deadline is still stopped by the
// worker's CPU limit (the soft RLIMIT_CPU the request sets).
func TestCPULimit(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: the worker burns a full CPU second to reach RLIMIT_CPU; runs without -short")
	}
	p := newTestPool(t, 0, nil)
	// A deadline far away for the pool, but a CPU budget of 1 s for the worker:
	// the request's CPU budget is derived from the deadline, so send it by hand.
	w, err := p.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	frame, _ := encodeRequest(&request{ID: 1, Tool: "spin", CPUSeconds: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err, _ = p.run(ctx, w, "spin", frame)
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != tools.CodeCostLimit || te.Reason != "cpu_limit" {
		t.Fatalf("err %v, want cost_limit_exceeded cpu_limit", err)
	}
}

// TestPoolBoundsWorkers: at most Size workers run at once; further calls wait
// for one and give up with their context.
func TestPoolBoundsWorkers(t *testing.T) {
	p := newTestPool(t, 0, func(c *Config) { c.Size = 2 })
	// Two workers spin for the whole deadline: 4 CPU seconds in the full run,
	// one in -short.
	spin := 2 * time.Second
	if testing.Short() {
		spin = 500 * time.Millisecond
	}
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), spin)
	defer cancel()
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.Execute(ctx, "spin", nil)
			errs <- err
		}()
	}
	// While they run, never more than two processes.
	deadline := time.Now().Add(spin / 2)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		n := len(p.procs)
		p.mu.Unlock()
		if n > 2 {
			t.Fatalf("%d workers alive, Size 2", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err %v", err)
		}
	}
	if s := p.Stats(); s.Spawned > 2 {
		t.Errorf("spawned %d workers for 2 slots within one deadline", s.Spawned)
	}
}

func TestRetireAfterCPU(t *testing.T) {
	p := newTestPool(t, 0, func(c *Config) { c.RecycleCPU = time.Nanosecond })
	a, err := p.Execute(context.Background(), "pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Execute(context.Background(), "pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Facts["pid"] == b.Facts["pid"] {
		t.Error("a worker past RecycleCPU served another call")
	}
	if s := p.Stats(); s.Retired != 2 {
		t.Errorf("stats %+v", s)
	}
}

func TestCloseKillsWorkers(t *testing.T) {
	p := newTestPool(t, 0, nil)
	out, err := p.Execute(context.Background(), "pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(out.Facts["pid"].(string))
	// A call running when the pool closes gets an internal error, not a limit.
	errc := make(chan error, 1)
	go func() {
		_, err := p.Execute(context.Background(), "spin", nil)
		errc <- err
	}()
	for p.Busy() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	p.Close()
	var te *tools.Error
	if err := <-errc; err == nil || errors.As(err, &te) {
		t.Errorf("call during Close: %v, want an internal error (not a limit)", err)
	}
	deadline := time.Now().Add(time.Minute) // a bound on waiting for the kernel, not a measurement
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatal("worker alive after Close")
		}
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond)
	}
}

func jsonNumber(s string) json.Number { return json.Number(s) }

// TestWorkerProcessSettings: a worker runs at a lower CPU priority than the
// server, is the OOM killer's first choice, has one P and its RLIMIT_AS set
// over its start-up size.
func TestWorkerProcessSettings(t *testing.T) {
	p := newTestPool(t, 64<<20, nil)
	out, err := p.Execute(context.Background(), "pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid := out.Facts["pid"].(string)
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if nice := fields[16]; nice != strconv.Itoa(workerNice) { // field 19 of stat
		t.Errorf("nice %s, want %d", nice, workerNice)
	}
	if adj, _ := os.ReadFile("/proc/" + pid + "/oom_score_adj"); strings.TrimSpace(string(adj)) != "1000" {
		t.Errorf("oom_score_adj %q, want 1000", adj)
	}
	env, _ := os.ReadFile("/proc/" + pid + "/environ")
	if !strings.Contains(string(env), "\x00GOMAXPROCS=1\x00") && !strings.HasPrefix(string(env), "GOMAXPROCS=1\x00") {
		t.Error("worker environment lacks GOMAXPROCS=1")
	}
	limits, _ := os.ReadFile("/proc/" + pid + "/limits")
	var asLimit int64
	for _, line := range strings.Split(string(limits), "\n") {
		if strings.HasPrefix(line, "Max address space") {
			asLimit, _ = strconv.ParseInt(strings.Fields(line)[3], 10, 64)
		}
	}
	w := <-p.idle
	p.putIdle(w)
	if asLimit != w.hello.ASLimitBytes || w.hello.ASLimitBytes != w.hello.BaselineBytes+64<<20 {
		t.Errorf("RLIMIT_AS %d, hello %+v", asLimit, w.hello)
	}
}
