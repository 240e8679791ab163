package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
)

// slowExpression is the sum of four differences x_k - x_k', x_k =
// sin(10**300+k)*exp(69314) and x_k' the same product written the other way
// round, all about 2^99999, at 1000 digits: within every limit of calculate,
// but the engine cannot know that the differences are exactly 0 (it knows
// x - x only when both are written alike), so it approximates them ever
// more finely, to the decision cap 2^-16384 (about 116 000 bits of each
// factor), before it answers precision_exhausted: about 3 s of work on the
// 2-core development machine when idle (the work checks its context
// throughout), so with a 1 s deadline its calls time out. (The 70 products
// sin(10**300+k)*exp(69314-k) used before are now refused within
// milliseconds: their magnitude is probed from their leading bits.)
var slowExpression = func() string {
	var terms []string
	for k := range 4 {
		terms = append(terms, fmt.Sprintf("sin(10**300+%d)*exp(69314)-exp(69314)*sin(10**300+%d)", k, k))
	}
	return strings.Join(terms, "+")
}()

// cpuTime is the CPU time (user + system) a process has used so far, from
// /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s: Linux's
// USER_HZ).
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The command name (field 2) may hold spaces; the fields after it do not.
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("/proc/%d/stat: %q", pid, b)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// TestTimedOutWorkStopsAndNeverStacks: with --max-concurrency 2 and a 1 s
// deadline, waves of calls that cannot finish in time get timeout (or
// overloaded while the slots are taken), no more than 2 executions ever run at
// once (the process's own high-water mark, precisiond_tool_executions_peak,
// and the running gauge polled throughout), and once the last call has timed
// out the process goes idle: in a window starting 2 s after the last timeout
// it uses almost no CPU time. The CPU condition compares CPU-time deltas, so a
// loaded machine can only make it easier to pass for a process that is idle
// and harder to pass for one that still works: the work it would catch runs
// for tens of seconds.
func TestTimedOutWorkStopsAndNeverStacks(t *testing.T) {
	base, cmd, logs := startBinary(t, "--max-concurrency", "2", "--call-timeout", "1s", "--queue-wait", "100ms")
	pid := cmd.Process.Pid

	var mu sync.Mutex
	maxRunning := 0.0
	polling := make(chan struct{})
	pollDone := make(chan struct{})
	go func() {
		defer close(pollDone)
		for {
			select {
			case <-polling:
				return
			case <-time.After(20 * time.Millisecond):
			}
			v, err := sample(base, "precisiond_tool_executions_running")
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			maxRunning = max(maxRunning, v)
			mu.Unlock()
		}
	}()

	body := []byte(`{"tool":"calculate","args":{"precision":1000,"expression":"` + slowExpression + `"}}`)
	codes := map[string]int{}
	var lastTimeout time.Time
	cpuBefore := cpuTime(t, pid)
	for range 3 {
		var wg sync.WaitGroup
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, err := callCode(base+"/v1/invoke", body)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				codes[code]++
				if code == "timeout" {
					lastTimeout = time.Now()
				}
			}()
		}
		wg.Wait()
	}
	close(polling)
	<-pollDone
	busy := cpuTime(t, pid) - cpuBefore
	t.Logf("answers %v; CPU time during the waves %v; most executions seen running %v", codes, busy, maxRunning)
	for code := range codes {
		// Under a light load a call may also finish within the second.
		if code != "timeout" && code != "overloaded" && code != "cost_limit_exceeded" && code != "ok" {
			t.Errorf("unexpected answer %s", code)
		}
	}
	if codes["timeout"] == 0 {
		t.Fatalf("no call timed out (%v): the slow input is no longer slow, pick another", codes)
	}
	if peak := scrape(t, base, "precisiond_tool_executions_peak"); peak < 1 || peak > 2 {
		t.Errorf("precisiond_tool_executions_peak = %v, want 1 or 2", peak)
	}
	if maxRunning > 2 {
		t.Errorf("%v executions seen running at once", maxRunning)
	}

	// Idle: from 2 s after the last timeout, CPU time grows by at most 5 % of
	// one core over a 3 s window (an idle Go server uses a few ms).
	time.Sleep(time.Until(lastTimeout.Add(2 * time.Second)))
	from := cpuTime(t, pid)
	time.Sleep(3 * time.Second)
	if used := cpuTime(t, pid) - from; used > 150*time.Millisecond {
		t.Errorf("still working after the last timeout: %v of CPU time in 3 s\n%s", used, logs.String())
	}
	if running := scrape(t, base, "precisiond_tool_executions_running"); running != 0 {
		t.Errorf("%v executions still running", running)
	}
}

// callCode posts body and returns "ok" or the answer's error_code; it may run
// on any goroutine.
func callCode(url string, body []byte) (string, error) {
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode == http.StatusOK {
		return "ok", nil
	}
	v, err := evidence.ParseJSON(raw)
	m, _ := v.(map[string]any)
	code, _ := m["error_code"].(string)
	if err != nil || code == "" {
		return "", fmt.Errorf("status %d: %q", resp.StatusCode, raw)
	}
	return code, nil
}

// sample reads one sample from /metrics; it may run on any goroutine.
func sample(base, name string) (float64, error) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			return strconv.ParseFloat(v, 64)
		}
	}
	return 0, fmt.Errorf("no sample %s in /metrics", name)
}
