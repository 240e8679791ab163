package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/precisiond/precisiond/tools"
)

// TestMain lets the test binary serve as `precisiond worker`: a Main started in
// a test spawns its workers from os.Executable(), which is this binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	}
	os.Exit(m.Run())
}

// TestIsolatedMatchesInProcess: every tool gives byte-identical envelopes
// whether it runs in a worker or in process (every example, plus a schema
// validation), and the calls really ran in workers: isolation moves where a
// tool runs and nothing else (input_normalized, canonical spellings and the
// legacy text are the same under `serve` as under `call`).
func TestIsolatedMatchesInProcess(t *testing.T) {
	var all []string
	for _, tool := range tools.Builtin(tools.Deps{}) {
		all = append(all, tool.Name())
	}
	isolated, m := startMain(t, func(c *Config) { c.IsolateTools = all })
	inProcess, _ := startMain(t, func(c *Config) { c.IsolateTools = nil })
	if m.Workers == nil {
		t.Fatal("no worker pool with every tool isolated")
	}
	_, examples := catalogueExamples(t, isolated)
	examples = append(examples, example{tool: "structured_validate", title: "schema violation", args: map[string]any{
		"format_name": "json", "payload": `{"a":[1,"x",3.5]}`,
		"schema_json": `{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}}}`}})
	seen := map[string]bool{}
	for _, ex := range examples {
		seen[ex.tool] = true
		got := invokeEnvelope(t, isolated, ex.tool, ex.args)
		want := invokeEnvelope(t, inProcess, ex.tool, ex.args)
		if !bytes.Equal(got, want) {
			t.Errorf("%s/%s:\n isolated %s\nin process %s", ex.tool, ex.title, got, want)
		}
	}
	if len(seen) != len(all) {
		t.Fatalf("examples of %d tools, want all %d", len(seen), len(all))
	}
	if s := m.Workers.Stats(); s.Calls == 0 {
		t.Errorf("no call ran in a worker: %+v", s)
	}
}

// TestIsolatedDeadlineKillsWorker: a worker that does not answer by the
// deadline (here: stopped with SIGSTOP, as a render that cannot be interrupted
// would hang it — the inputs that did so are now refused up front) gets the
// call answered timeout at the deadline, is killed (no process keeps burning
// CPU or memory for it), and the next call works in a new worker.
//
// Only the stuck call has a short deadline (its ctx's, which the registry
// honours when it is earlier than its own): the service's call timeout stays
// launchMain's generous one, so the next call may take as long as starting a
// worker takes on a loaded machine under -race.
func TestIsolatedDeadlineKillsWorker(t *testing.T) {
	base, m := startMain(t, func(c *Config) { c.Workers = 1 })
	if err := m.Workers.Warm(); err != nil {
		t.Fatal(err)
	}
	workers := workerPIDs(t)
	if len(workers) != 1 {
		t.Fatalf("worker processes %v, want the one warm worker", workers)
	}
	if err := syscall.Kill(workers[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := m.Registry.Call(ctx, "generate_file", []byte(`{"content":"# stuck","filename":"e","format":"html"}`), "")
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != tools.CodeTimeout {
		t.Fatalf("err %v, want timeout", err)
	}
	// The answer leaves at the deadline; the pool kills the worker at the same
	// moment, on its own goroutine.
	for wait := time.Now().Add(time.Minute); m.Workers.Stats().Killed != 1 || m.Workers.Busy() != 0; {
		if time.Now().After(wait) {
			t.Fatalf("stats %+v, busy %d: want one worker killed and none busy", m.Workers.Stats(), m.Workers.Busy())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(workers[0], 0); err == nil {
		t.Errorf("the stopped worker %d still exists", workers[0])
	}
	if b := invokeEnvelope(t, base, "generate_file", map[string]any{"content": "# ok", "filename": "ok", "format": "md"}); len(b) == 0 {
		t.Fatal("no envelope after the kill")
	}
	if s := m.Workers.Stats(); s.Spawned != 2 {
		t.Errorf("stats %+v: want the next call in a second worker", s)
	}
}

// workerPIDs lists this test process's children started as `worker`.
func workerPIDs(t *testing.T) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		rest := string(b[bytes.LastIndexByte(b, ')')+1:])
		fields := strings.Fields(rest)
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		dir := filepath.Dir(f)
		cmdline, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil {
			continue
		}
		if args := strings.Split(string(cmdline), "\x00"); len(args) > 1 && args[1] == "worker" {
			pid, _ := strconv.Atoi(filepath.Base(dir))
			pids = append(pids, pid)
		}
	}
	return pids
}
