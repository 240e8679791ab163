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
//
// A cfg with the default call deadline gets 2 minutes instead: no test here is
// about the default 5 s, and under -race on a loaded machine a call that
// starts a worker (generate_file, structured_validate) can take longer. A test
// of a deadline sets its own.
func launchMain(t *testing.T, cfg Config, log *slog.Logger) (*Main, func()) {
	t.Helper()
	if cfg.CallTimeout == DefaultConfig().CallTimeout {
		cfg.CallTimeout = 2 * time.Minute
	}
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
	t.Run("corrupt file: start anyway, log it, /health names it", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, toggles.FileName), []byte(`{"disabled":"gcd_lcm"}`), 0o644)
		var logs syncBuffer
		base, _ := runMain(t, opsConfig(t, dir), &logs)
		if !strings.Contains(logs.String(), "toggle state unreadable") || !strings.Contains(logs.String(), toggles.FileName) {
			t.Fatalf("corrupt toggle file not logged:\n%s", logs.String())
		}
		h := getJSON(t, base+"/health")
		tg, _ := h["toggles"].(map[string]any)
		if h["status"] != "ok" || tg["ok"] != false || !strings.Contains(fmt.Sprint(tg["error"]), toggles.FileName) {
			t.Fatalf("/health with a corrupt toggle file: %v", h)
		}
		if !enabledOf(t, base, "gcd_lcm") {
			t.Fatal("gcd_lcm disabled by a file that could not be read")
		}
		var errb bytes.Buffer
		if code := run([]string{"call", "--data-dir", dir, "gcd_lcm", `{"a":1,"b":2}`}, nil, io.Discard, &errb, func(string) string { return "" }); code != 0 ||
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

// slowPrimes are genuinely expensive valid inputs: 40-digit products of two
// 20-digit primes, which ECM needs a third to half a second of CPU to split.
// The first comes from tools/testdata/prime_factorize/oracle_ecm.json; the
// others are sympy.nextprime of random 20-digit numbers (random.seed(1201)).
// The calls that must overlap use distinct numbers: a repeated call would be
// answered from the answer cache as soon as the first one finished.
var slowPrimes = [...]struct{ n, p, q string }{
	{"2079188486568532009545972717089118059693", "27908337302279840261", "74500621948505778313"},
	{"3646251258798100945770889409088538884839", "50291241719624528159", "72502708903591646521"},
	{"1787065331753507792936486432872587712007", "36467057408185050077", "49004922764961015091"},
	{"4769415135293965761451965350457390761303", "51702254632516410379", "92247720514192064357"},
	{"928811186771356459464529026322192796581", "28426562213874341021", "32674059556805128361"},
	{"6078570646907379898946841212876315422463", "73867666622391298243", "82290004881036811541"},
	{"2866057770516766597513115315664599555933", "43213248163015071101", "66323590388415649633"},
	{"3656565551872707636199010983222345622863", "57480107876670444599", "63614451798146407337"},
	{"5653935222495418933574290192269782359853", "69021893714739492061", "81915098502839715473"},
	{"1808687635922740141876858912815095990819", "30491829628525531457", "59317123897041837667"},
	{"3307925848974414258659422564279157883761", "50030256817868415061", "66118506267450966701"},
	{"2823633811009635854863189313612622568051", "38040311100901951967", "74227411114487081453"},
	{"4177712352881960401969035626142788204603", "54155396506319361181", "77143048013589294263"},
}

// startBinary runs the real binary as `serve` with extra flags and waits for /health.
func startBinary(t *testing.T, flags ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	return startBinaryEnv(t, nil, flags...)
}

// startBinaryEnv is startBinary with extra environment variables.
func startBinaryEnv(t *testing.T, env []string, flags ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	bin := buildBinary(t)
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, flags...)...)
	cmd.Env = append(append(os.Environ(), "PRECISIOND_ADMIN_TOKEN="+opsToken), env...)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	base := "http://" + testhttp.ListenAddr(t, logs)
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

func slowCall(base string, i int) (int, []byte, error) {
	body := `{"tool":"prime_factorize","args":{"n":"` + slowPrimes[i].n + `"}}`
	resp, err := http.Post(base+"/invoke", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, err
}

// checkSlowFacts checks the answer to slowCall(base, i) against sympy's factors.
func checkSlowFacts(t *testing.T, i int, raw []byte) {
	t.Helper()
	want := slowPrimes[i]
	v, err := evidence.ParseJSON(raw)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	sr, _ := v.(map[string]any)["structured_result"].(map[string]any)
	if sr == nil {
		t.Fatalf("not a result: %s", raw)
	}
	factors := sr["facts"].(map[string]any)["factors"].([]any)
	if len(factors) != 2 || fmt.Sprint(factors[0].(map[string]any)["prime"]) != want.p ||
		fmt.Sprint(factors[1].(map[string]any)["prime"]) != want.q {
		t.Fatalf("factors of %s: %v, want %s × %s", want.n, factors, want.p, want.q)
	}
}

// TestShutdownFinishesInFlightCalls: SIGTERM while expensive calls run lets
// every call in flight finish with its correct answer, and the process exits 0.
// It aims for all calls in flight at once; on a machine so busy that they
// never are, it signals with the ones that are (at least one), so the outcome
// does not depend on the machine's load, only the strength of the check.
func TestShutdownFinishesInFlightCalls(t *testing.T) {
	// A long queue wait: on a busy machine no call may be refused for waiting.
	base, cmd, logs := startBinary(t, "--max-concurrency", "32", "--call-timeout", "120s", "--queue-wait", "60s")
	n := len(slowPrimes)
	type answer struct {
		i      int
		status int
		raw    []byte
		err    error
	}
	answers := make(chan answer, n)
	for i := range n {
		go func() {
			s, raw, err := slowCall(base, i)
			answers <- answer{i, s, raw, err}
		}()
	}
	// Each call needs a third of a second of CPU or more, and they are all
	// different, so together they keep two cores busy for over two seconds:
	// SIGTERM comes when all are in flight, or, on a machine too busy to start
	// them all together, a second after the first was seen, with those in flight then.
	var seen time.Time
	inFlight := 0.0
	for {
		inFlight = scrape(t, base, "precisiond_tool_calls_in_flight")
		if inFlight >= 1 && seen.IsZero() {
			seen = time.Now()
		}
		if inFlight >= float64(n) || (inFlight >= 1 && time.Since(seen) > time.Second) {
			break
		}
		if len(answers) == n {
			a := <-answers
			t.Fatalf("all %d calls answered before SIGTERM (in flight: %v, first seen %v); one: %v %d %.300s",
				n, inFlight, seen, a.err, a.status, a.raw)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("SIGTERM with %v of %d calls in flight", inFlight, n)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	ok := 0
	for range n {
		a := <-answers
		switch {
		case a.err == nil && a.status == 200:
			checkSlowFacts(t, a.i, a.raw)
			ok++
		case inFlight < float64(n) && (a.err != nil || a.status == 503):
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
			status, raw, err := slowCall(base, 0)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case status == 200 && bytes.Contains(raw, []byte(`"status":"completed"`)):
				checkSlowFacts(t, 0, raw)
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
