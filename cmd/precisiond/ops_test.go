package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/internal/toggles"
)

const opsToken = "ops-test-token-0123456789"

// runMain starts the real wiring and returns its base URL and a stop function
// that drains and waits for Run to return.
func runMain(t *testing.T, cfg Config, logs io.Writer) (string, func()) {
	t.Helper()
	m, stop := launchMain(t, cfg, newLogger(logs, "info"))
	return "http://" + m.Addr(), stop
}

// launchMain runs NewMain(cfg).Run on its listener until the test ends or stop
// is called; stop drains and waits for Run to return.
func launchMain(t *testing.T, cfg Config, log *slog.Logger) (*Main, func()) {
	t.Helper()
	m, err := NewMain(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			m.Close()
		})
	}
	t.Cleanup(stop)
	return m, stop
}

func opsConfig(t *testing.T, dir string) Config {
	cfg := DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = dir
	cfg.AdminToken = opsToken
	return cfg
}

func adminDo(t *testing.T, method, url, body string) (int, map[string]any) {
	t.Helper()
	r := testhttp.Do(t, method, url, map[string]string{"Authorization": "Bearer " + opsToken}, []byte(body))
	return r.Status, r.JSON(t)
}

func enabledOf(t *testing.T, base, name string) bool {
	t.Helper()
	for _, e := range getJSON(t, base+"/tools")["tools"].([]any) {
		m := e.(map[string]any)
		if m["name"] == name {
			return m["enabled"].(bool)
		}
	}
	t.Fatalf("%s not in /tools", name)
	return false
}

// TestTogglePersistsAcrossRestart: toggle, stop, start a new Main on the same
// data directory: the state is kept and the file has the reference format.
func TestTogglePersistsAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	base, stop := runMain(t, opsConfig(t, dir), io.Discard)
	if status, body := adminDo(t, "POST", base+"/tools/roman_numeral/toggle", ""); status != 200 || body["enabled"] != false {
		t.Fatalf("toggle: %d %v", status, body)
	}
	if status, body := adminDo(t, "PUT", base+"/admin/tools/calculate", `{"enabled":false}`); status != 200 || body["enabled"] != false {
		t.Fatalf("put: %d %v", status, body)
	}
	hash := getJSON(t, base+"/tools")["catalog_hash"]
	stop()

	raw, err := os.ReadFile(filepath.Join(dir, toggles.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"disabled":["calculate","roman_numeral"]}`; string(raw) != want {
		t.Fatalf("toggle file = %s, want %s", raw, want)
	}
	base2, _ := runMain(t, opsConfig(t, dir), io.Discard)
	if enabledOf(t, base2, "roman_numeral") || enabledOf(t, base2, "calculate") || !enabledOf(t, base2, "gcd_lcm") {
		t.Fatal("state not restored after restart")
	}
	if got := getJSON(t, base2+"/tools")["catalog_hash"]; got != hash {
		t.Fatalf("catalog_hash after restart %v, before %v", got, hash)
	}
	health := getJSON(t, base2+"/health")
	if fmt.Sprint(health["disabled"]) != "[calculate roman_numeral]" {
		t.Fatalf("/health disabled = %v", health["disabled"])
	}
}

// TestToggleReachesCLIAtOnce: a tool disabled over HTTP is refused by /invoke
// and by `precisiond call` on the same data directory right away, and accepted
// again by both once re-enabled.
func TestToggleReachesCLIAtOnce(t *testing.T) {
	dir := t.TempDir()
	base, _ := runMain(t, opsConfig(t, dir), io.Discard)
	call := func() (int, map[string]any) {
		var out, errb bytes.Buffer
		code := run([]string{"call", "--data-dir", dir, "gcd_lcm", `{"a":4,"b":6}`}, strings.NewReader(""), &out, &errb, func(string) string { return "" })
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("call output %q (stderr %s)", out.String(), errb.String())
		}
		return code, m
	}
	invoke := func() map[string]any {
		v, _ := evidence.ParseJSON(invokeRaw(t, base, []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`)))
		return v.(map[string]any)
	}
	adminDo(t, "POST", base+"/tools/gcd_lcm/toggle", "")
	if got := invoke(); got["error_code"] != "tool_disabled" || got["reason"] != "disabled" {
		t.Fatalf("/invoke after disable: %v", got)
	}
	if code, got := call(); code != 1 || got["error_code"] != "tool_disabled" || got["reason"] != "disabled" {
		t.Fatalf("call after disable: exit %d %v", code, got)
	}
	adminDo(t, "POST", base+"/tools/gcd_lcm/toggle", "")
	if got := invoke(); got["structured_result"] == nil {
		t.Fatalf("/invoke after enable: %v", got)
	}
	if code, got := call(); code != 0 || got["structured_result"] == nil {
		t.Fatalf("call after enable: exit %d %v", code, got)
	}
	// `precisiond tools --json` prints the same enabled state as /tools, and
	// the list marks the disabled tool.
	adminDo(t, "PUT", base+"/admin/tools/hash_text", `{"enabled":false}`)
	var out bytes.Buffer
	if code := run([]string{"tools", "--json", "--data-dir", dir}, nil, &out, io.Discard, func(string) string { return "" }); code != 0 {
		t.Fatalf("tools exit %d", code)
	}
	var cat map[string]any
	_ = json.Unmarshal(out.Bytes(), &cat)
	if cat["catalog_hash"] != getJSON(t, base+"/tools")["catalog_hash"] {
		t.Fatal("`precisiond tools --json` and /tools disagree on catalog_hash")
	}
	out.Reset()
	if code := run([]string{"tools", "--data-dir", dir}, nil, &out, io.Discard, func(string) string { return "" }); code != 0 {
		t.Fatalf("tools exit %d", code)
	}
	if !strings.Contains(out.String(), "\nhash_text            Cryptographic hash of a text (disabled)\n") ||
		strings.Contains(out.String(), "Base64 encode or decode (disabled)") {
		t.Errorf("tools list does not mark exactly hash_text disabled:\n%s", out.String())
	}
}

// TestToggleFollowedByAnotherProcess: two servers on one data directory (a
// shared volume): a toggle on one reaches the other through the file watcher.
func TestToggleFollowedByAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	a, _ := runMain(t, opsConfig(t, dir), io.Discard)
	b, _ := runMain(t, opsConfig(t, dir), io.Discard)
	adminDo(t, "PUT", a+"/admin/tools/subnet_calc", `{"enabled":false}`)
	for enabledOf(t, b, "subnet_calc") {
		time.Sleep(50 * time.Millisecond) // the watcher polls every 2 s; the test timeout bounds this
	}
	if getJSON(t, a+"/tools")["catalog_hash"] != getJSON(t, b+"/tools")["catalog_hash"] {
		t.Fatal("replicas disagree after the watcher applied the change")
	}
}

func TestToggleFileAtStartup(t *testing.T) {
	t.Run("corrupt file is a start-up error", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, toggles.FileName), []byte(`{"disabled":"gcd_lcm"}`), 0o644)
		_, err := NewMain(opsConfig(t, dir), newLogger(io.Discard, "error"))
		if err == nil || !strings.Contains(err.Error(), toggles.FileName) {
			t.Fatalf("NewMain: %v", err)
		}
		var errb bytes.Buffer
		if code := run([]string{"call", "--data-dir", dir, "gcd_lcm", `{"a":1,"b":2}`}, nil, io.Discard, &errb, func(string) string { return "" }); code != 1 ||
			!strings.Contains(errb.String(), toggles.FileName) {
			t.Fatalf("call with a corrupt toggle file: exit %d, stderr %s", code, errb.String())
		}
	})
	t.Run("unknown names are logged and ignored", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, toggles.FileName), []byte(`{"disabled": ["retired_tool", "gcd_lcm"]}`), 0o644)
		var logs syncBuffer
		base, _ := runMain(t, opsConfig(t, dir), &logs)
		if enabledOf(t, base, "gcd_lcm") {
			t.Fatal("gcd_lcm from the file not applied")
		}
		if !strings.Contains(logs.String(), `"unknown":["retired_tool"]`) {
			t.Fatalf("unknown name not logged:\n%s", logs.String())
		}
	})
}

// syncBuffer collects a child process's stderr for the test to read.
type syncBuffer = testhttp.SyncBuffer

// slowPrime is a genuinely expensive valid input: a 40-digit product of two
// 20-digit primes, which ECM needs about a third of a second of CPU to split (it comes from
// tools/testdata/prime_factorize/oracle_ecm.json; factors confirmed by sympy).
const (
	slowPrimeN  = "2079188486568532009545972717089118059693"
	slowPrimeP1 = "27908337302279840261"
	slowPrimeP2 = "74500621948505778313"
)

// startBinary runs the real binary as `serve` with extra flags and waits for /health.
func startBinary(t *testing.T, flags ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	return startBinaryEnv(t, nil, flags...)
}

// startBinaryEnv is startBinary with extra environment variables.
func startBinaryEnv(t *testing.T, env []string, flags ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	bin := buildBinary(t)
	addr := testhttp.FreeAddr(t)
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--data-dir", t.TempDir()}, flags...)...)
	cmd.Env = append(append(os.Environ(), "PRECISIOND_ADMIN_TOKEN="+opsToken), env...)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	base := "http://" + addr
	testhttp.WaitUp(t, base, logs)
	return base, cmd, logs
}

// scrape reads one unlabelled or labelled sample from /metrics.
func scrape(t *testing.T, base, sample string) float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	re := regexp.MustCompile(`^` + regexp.QuoteMeta(sample) + ` (\S+)$`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			return v
		}
	}
	return -1
}

func slowCall(base string) (int, []byte, error) {
	body := `{"tool":"prime_factorize","args":{"n":"` + slowPrimeN + `"}}`
	resp, err := http.Post(base+"/invoke", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, err
}

func checkSlowFacts(t *testing.T, raw []byte) {
	t.Helper()
	v, err := evidence.ParseJSON(raw)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	sr, _ := v.(map[string]any)["structured_result"].(map[string]any)
	if sr == nil {
		t.Fatalf("not a result: %s", raw)
	}
	factors := sr["facts"].(map[string]any)["factors"].([]any)
	if len(factors) != 2 || fmt.Sprint(factors[0].(map[string]any)["prime"]) != slowPrimeP1 ||
		fmt.Sprint(factors[1].(map[string]any)["prime"]) != slowPrimeP2 {
		t.Fatalf("factors %v", factors)
	}
}

// TestShutdownFinishesInFlightCalls: SIGTERM while expensive calls run lets
// every call in flight finish with its correct answer, and the process exits 0.
// It aims for all 20 calls in flight at once; on a machine so busy that they
// never are, it signals after 30 s with the ones that are (at least one), so the
// outcome does not depend on the machine's load, only the strength of the check.
func TestShutdownFinishesInFlightCalls(t *testing.T) {
	// A long queue wait: on a busy machine no call may be refused for waiting.
	base, cmd, logs := startBinary(t, "--max-concurrency", "32", "--call-timeout", "120s", "--queue-wait", "60s")
	const n = 20
	type answer struct {
		status int
		raw    []byte
		err    error
	}
	answers := make(chan answer, n)
	for range n {
		go func() {
			s, raw, err := slowCall(base)
			answers <- answer{s, raw, err}
		}()
	}
	aim := time.Now().Add(30 * time.Second)
	inFlight := 0.0
	for {
		inFlight = scrape(t, base, "precisiond_tool_calls_in_flight")
		if inFlight >= n || (inFlight >= 1 && time.Now().After(aim)) {
			break
		}
		if len(answers) == n {
			a := <-answers
			t.Fatalf("all %d calls answered before one was seen in flight; one: %v %d %.300s", n, a.err, a.status, a.raw)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	ok := 0
	for range n {
		a := <-answers
		switch {
		case a.err == nil && a.status == 200:
			checkSlowFacts(t, a.raw)
			ok++
		case inFlight < n && (a.err != nil || a.status == 503):
			// Not yet admitted when the signal came: refused, never cut off mid-answer.
		default:
			t.Fatalf("call in flight at SIGTERM: %v %d %s", a.err, a.status, a.raw)
		}
	}
	if float64(ok) < inFlight {
		t.Fatalf("%d calls answered, %v were in flight at SIGTERM", ok, inFlight)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v\n%s", err, logs.String())
	}
	if !strings.Contains(logs.String(), "draining in-flight calls") || !strings.Contains(logs.String(), `"msg":"stopped"`) {
		t.Fatalf("no drain in the log:\n%s", logs.String())
	}
}

// TestOverloadAccountingInTheBinary: pool of 2 (--max-concurrency), 50
// concurrent expensive calls. Every request gets exactly one answer: a correct
// result or 503 overloaded with Retry-After; the metrics agree with the clients.
func TestOverloadAccountingInTheBinary(t *testing.T) {
	base, _, _ := startBinary(t, "--max-concurrency", "2", "--queue-wait", "50ms", "--call-timeout", "120s")
	const n = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, overloaded := 0, 0
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, raw, err := slowCall(base)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case status == 200 && bytes.Contains(raw, []byte(`"status":"completed"`)):
				checkSlowFacts(t, raw)
				ok++
			case status == 503 && bytes.Contains(raw, []byte(`"error_code":"overloaded"`)):
				overloaded++
			default:
				t.Errorf("unexpected answer %d %s", status, raw)
			}
		}()
	}
	wg.Wait()
	if ok+overloaded != n || ok < 2 || overloaded == 0 {
		t.Fatalf("%d ok + %d overloaded, want %d in all, at least 2 ok and some refused", ok, overloaded, n)
	}
	if got := scrape(t, base, "precisiond_overload_rejections_total"); got != float64(overloaded) {
		t.Errorf("overload_rejections_total = %v, clients saw %d", got, overloaded)
	}
	if got := scrape(t, base, `precisiond_tool_calls_total{outcome="ok",tool="prime_factorize"}`); got != float64(ok) {
		t.Errorf("calls_total ok = %v, clients saw %d", got, ok)
	}
	if got := scrape(t, base, `precisiond_tool_calls_total{outcome="overloaded",tool="prime_factorize"}`); got != float64(overloaded) {
		t.Errorf("calls_total overloaded = %v, clients saw %d", got, overloaded)
	}
	if got := scrape(t, base, "precisiond_tool_call_slots"); got != 2 {
		t.Errorf("slots = %v, want 2", got)
	}
}
