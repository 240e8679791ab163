// Command load measures precisiond against a bare chi server in one run.
//
// It builds and starts (a) the real precisiond binary and (b) this program in
// -bare mode — a chi server whose handler only decodes a comparable JSON body and
// encodes a comparable JSON answer — each as its own process on loopback, then
// drives both with the same closed-loop load generator and prints requests/s,
// p50/p99/p99.9 latency, errors, the ratios precisiond ÷ bare, and precisiond's
// peak resident memory.
//
//	go run ./bench/load -concurrency 32 -duration 10s -mix gcd_lcm,structured_validate,prime_factorize,mcp
//
// With -oauth, precisiond also runs as an OAuth resource server of an
// in-process JWT issuer (internal/oauthtest, on loopback), and each mix is
// measured a third way, interleaved with the other two: with a JWT access
// token as the bearer instead of the static token (issue 34: within 10 % of
// the static token's throughput).
//
// Mixes: gcd_lcm, gcd_lcm_distinct (every answer new), structured_validate,
// prime_factorize, mcp, and all_tools (the 30 calls of
// bench/compare_inputs.json in turn; run from the repository root or give
// -inputs).
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/precisiond/precisiond/internal/oauthtest"
)

func main() {
	bare := flag.String("bare", "", "serve the bare chi baseline on this address (internal)")
	concurrency := flag.Int("concurrency", 32, "concurrent closed-loop clients")
	duration := flag.Duration("duration", 10*time.Second, "measurement time per mix and server")
	warmup := flag.Duration("warmup", 2*time.Second, "warm-up time per mix and server (not measured)")
	mixes := flag.String("mix", "gcd_lcm,structured_validate,prime_factorize,mcp", "comma-separated request mixes")
	binary := flag.String("binary", "", "precisiond binary (default: go build ./cmd/precisiond)")
	out := flag.String("out", "", "also append the results as Markdown to this file")
	repeat := flag.Int("repeat", 3, "measure each mix this many times (server order rotating); medians are reported")
	flag.StringVar(&compareInputs, "inputs", compareInputs, "the inputs the all_tools mix cycles through")
	flag.BoolVar(&withTokens, "tokens", true, "run precisiond with --api-tokens and send every request a bearer token (as deployed); the bare server ignores it")
	flag.BoolVar(&withOAuth, "oauth", false, "also run precisiond as an OAuth resource server of an in-process JWT issuer and measure each mix with a JWT access token too, interleaved with the static token (needs -tokens)")
	flag.Parse()
	if *bare != "" {
		serveBare(*bare)
		return
	}
	if withOAuth && !withTokens {
		fmt.Fprintln(os.Stderr, "load: -oauth compares against the static token: it needs -tokens")
		os.Exit(2)
	}
	if err := runAll(*concurrency, *duration, *warmup, strings.Split(*mixes, ","), *binary, *out, max(1, *repeat)); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

// withTokens runs precisiond as it is deployed: with an API tokens file, every
// request carrying its bearer token (-tokens=false measures without).
var withTokens bool

// loadToken is the bearer token of the tokens file precisiond runs with.
const loadToken = "load-harness-token-0123456789abcdef"

// withOAuth adds the OAuth measurement (-oauth).
var withOAuth bool

// loadResource is precisiond's OAuth resource identifier under -oauth: the
// audience of the JWT the load sends.
const loadResource = "https://precisiond.load.test/mcp"

// startIssuer starts the in-process JWT issuer and signs one access token
// for loadResource with the scope of every tool, valid for a day: the
// server verifies it once against the issuer's keys and then serves it from
// its verification cache, as it would a client's token in use.
func startIssuer() (*oauthtest.Issuer, string, error) {
	is, err := oauthtest.StartIssuer()
	if err != nil {
		return nil, "", err
	}
	tok, err := is.SignJWT(is.Claims(loadResource, 24*time.Hour), map[string]any{"scope": "precisiond:tools", "client_id": "load"}, "")
	if err != nil {
		is.Close()
		return nil, "", err
	}
	return is, tok, nil
}

// mix is one request shape: the same body goes to both servers (the bare one
// ignores the tool and echoes a comparable answer).
type mix struct {
	name, path string
	body       []byte
	headers    map[string]string
	check      func(status int, body []byte) bool
	// next, when set, gives each request its own body instead of body.
	next func() []byte
}

func mixes() map[string]mix {
	schema := `{"type":"object","required":["id","items"],"properties":{"id":{"type":"integer","minimum":1},"items":{"type":"array","maxItems":50,"items":{"type":"object","required":["sku","qty"],"properties":{"sku":{"type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$"},"qty":{"type":"integer","minimum":1}}}}}}`
	var items []string
	for i := 0; i < 20; i++ {
		items = append(items, fmt.Sprintf(`{"sku":"ABC-%04d","qty":%d}`, i, i+1))
	}
	payload := `{"id":7,"items":[` + strings.Join(items, ",") + `]}`
	sv, _ := json.Marshal(map[string]any{"tool": "structured_validate", "args": map[string]any{
		"format_name": "json", "payload": payload, "schema_json": schema}})
	// okResult accepts only a successful /invoke answer: HTTP 200 with a completed
	// envelope carrying a result hash (tool-level errors are also HTTP 200 there).
	okResult := func(status int, body []byte) bool {
		if status != 200 {
			return false
		}
		var v struct {
			Bare bool `json:"bare"`
			SR   struct {
				Status     string `json:"status"`
				ResultHash string `json:"result_hash"`
			} `json:"structured_result"`
		}
		if json.Unmarshal(body, &v) != nil {
			return false
		}
		return v.Bare || v.SR.Status == "completed" && len(v.SR.ResultHash) == 64
	}
	// okMCP accepts only a successful JSON-RPC tools/call answer: a result (not an
	// error), isError unset, and structuredContent a completed envelope.
	okMCP := func(status int, body []byte) bool {
		if status != 200 {
			return false
		}
		var v struct {
			Bare   bool            `json:"bare"`
			Error  json.RawMessage `json:"error"`
			Result *struct {
				IsError bool `json:"isError"`
				SC      struct {
					Status     string `json:"status"`
					ResultHash string `json:"result_hash"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(body, &v) != nil {
			return false
		}
		if v.Bare {
			return true
		}
		return v.Error == nil && v.Result != nil && !v.Result.IsError && v.Result.SC.Status == "completed" && len(v.Result.SC.ResultHash) == 64
	}
	mcpCall, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "gcd_lcm", "arguments": map[string]any{"a": 391, "b": 299}}})
	return map[string]mix{
		"gcd_lcm": {name: "gcd_lcm", path: "/invoke", body: []byte(`{"tool":"gcd_lcm","args":{"a":391,"b":299}}`), check: okResult},
		// A new answer every request: nothing repeats (the signature memo and
		// any cache miss every time), the worst case for signing (issue 21).
		"gcd_lcm_distinct": {name: "gcd_lcm, every answer new", path: "/invoke", check: okResult, next: func() []byte {
			return fmt.Appendf(nil, `{"tool":"gcd_lcm","args":{"a":%d,"b":299}}`, distinctA.Add(1))
		}},
		"structured_validate": {name: "structured_validate (JSON + schema)", path: "/invoke", body: sv, check: okResult},
		"prime_factorize": {name: "prime_factorize (30-digit semiprime)", path: "/invoke",
			body: []byte(`{"tool":"prime_factorize","args":{"n":"` + semiprime + `"}}`), check: okResult},
		// Stateless Streamable HTTP: every POST stands alone (no initialize, no
		// Mcp-Session-Id); the client must accept both JSON and SSE answers and
		// names the protocol version it speaks.
		"mcp": {name: "MCP tools/call gcd_lcm (Streamable HTTP)", path: "/mcp", body: mcpCall,
			headers: map[string]string{"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-06-18"},
			check:   okMCP},
		// Every tool in turn: the 30 calls of bench/compare_inputs.json (one or
		// more per tool, cheap and heavy), each request the next one. Requests
		// repeat every 30, so a signing build measured on it must sign every
		// answer anyway (no signature memo) to stand for a stream of new
		// answers (bench/RESULTS.md, section 6.4).
		"all_tools": {name: "every tool in turn (the 30 calls of §2)", path: "/invoke", check: okResult, next: cycle(compareBodies)},
	}
}

// compareInputs is the file the all_tools mix reads (-inputs).
var compareInputs = "bench/compare_inputs.json"

// compareBodies reads the /invoke bodies of compareInputs, once.
var compareBodies = sync.OnceValue(func() [][]byte {
	data, err := os.ReadFile(compareInputs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	var in struct {
		Cases []struct {
			Tool string          `json:"tool"`
			Args json.RawMessage `json:"args"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &in); err != nil || len(in.Cases) == 0 {
		fmt.Fprintf(os.Stderr, "load: %s: no cases (%v)\n", compareInputs, err)
		os.Exit(1)
	}
	bodies := make([][]byte, len(in.Cases))
	for i, c := range in.Cases {
		bodies[i], _ = json.Marshal(map[string]any{"tool": c.Tool, "args": c.Args})
	}
	return bodies
})

// cycle gives the bodies in turn, across all clients.
func cycle(bodies func() [][]byte) func() []byte {
	var n atomic.Int64
	return func() []byte {
		b := bodies()
		return b[(n.Add(1)-1)%int64(len(b))]
	}
}

// distinctA numbers the requests of the gcd_lcm_distinct mix.
var distinctA atomic.Int64

// semiprime is the 30-digit product 300000000000089 × 2000000000000021 of two
// primes (sympy.isprime), computed rather than typed.
var semiprime = func() string {
	p, _ := new(big.Int).SetString("300000000000089", 10)
	q, _ := new(big.Int).SetString("2000000000000021", 10)
	return new(big.Int).Mul(p, q).String()
}()

type result struct {
	requests, errors int64
	seconds          float64
	lat              []time.Duration
	rssKiB           int64 // largest VmRSS of precisiond seen during the run
	// serverCPU and clientCPU are the CPU time (user + system) the server
	// process and this process (the load generator) used during the measured
	// loop: unlike req/s they barely move when other work shares the machine.
	serverCPU, clientCPU time.Duration
}

// cpuPerRequest is a CPU time per measured request in µs.
func (r result) cpuPerRequest(d time.Duration) float64 {
	if r.requests == 0 {
		return 0
	}
	return float64(d.Microseconds()) / float64(r.requests)
}

func (r result) rps() float64 { return float64(r.requests) / r.seconds }

func (r result) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(p * float64(len(r.lat)-1))
	return r.lat[i]
}

// drive runs a closed loop: each client sends the next request when the previous
// answer has arrived.
// pid is the server's process, whose CPU time is read around the measured loop.
// auth is the Authorization header every request carries ("" for none).
func drive(base, auth string, pid int, m mix, concurrency int, warmup, d time.Duration) result {
	tr := &http.Transport{MaxIdleConns: concurrency * 2, MaxIdleConnsPerHost: concurrency * 2, IdleConnTimeout: time.Minute}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	defer tr.CloseIdleConnections()
	send := func() (time.Duration, bool) {
		body := m.body
		if m.next != nil {
			body = m.next()
		}
		req, _ := http.NewRequest(http.MethodPost, base+m.path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		for k, v := range m.headers {
			req.Header.Set(k, v)
		}
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return time.Since(start), false
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return time.Since(start), m.check(resp.StatusCode, answer)
	}
	loop := func(until time.Time, record bool) result {
		var wg sync.WaitGroup
		var n, errs atomic.Int64
		lats := make([][]time.Duration, concurrency)
		start := time.Now()
		for c := 0; c < concurrency; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				for time.Now().Before(until) {
					l, ok := send()
					n.Add(1)
					if !ok {
						errs.Add(1)
					}
					if record {
						lats[c] = append(lats[c], l)
					}
				}
			}(c)
		}
		wg.Wait()
		r := result{requests: n.Load(), errors: errs.Load(), seconds: time.Since(start).Seconds()}
		for _, l := range lats {
			r.lat = append(r.lat, l...)
		}
		slices.Sort(r.lat)
		return r
	}
	loop(time.Now().Add(warmup), false)
	s0, c0 := processCPU(pid), selfCPU()
	r := loop(time.Now().Add(d), true)
	r.serverCPU, r.clientCPU = processCPU(pid)-s0, selfCPU()-c0
	return r
}

// processCPU is the user + system CPU time of pid so far, all threads, from
// /proc/PID/stat (fields 14 and 15, in USER_HZ ticks of 10 ms on Linux).
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// selfCPU is this process's user + system CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func runAll(concurrency int, d, warmup time.Duration, names []string, binary, out string, repeat int) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "precisiond-load")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if binary == "" {
		binary = filepath.Join(tmp, "precisiond")
		cmd := exec.Command("go", "build", "-o", binary, "./cmd/precisiond")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building precisiond: %w", err)
		}
	}
	// precisiond runs with its defaults (access log at info level, written to a
	// file here) except a concurrency limit above the client count, so that the
	// run measures throughput and not the limiter's 503s.
	logFile, err := os.Create(filepath.Join(tmp, "precisiond.log"))
	if err != nil {
		return err
	}
	defer logFile.Close()
	pdArgs := []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", filepath.Join(tmp, "data"),
		"--max-concurrency", strconv.Itoa(max(64, concurrency*2))}
	if withTokens {
		sum := sha256.Sum256([]byte(loadToken))
		tokens := fmt.Sprintf(`{"tokens":[{"name":"load","sha256":"%s"}]}`, hex.EncodeToString(sum[:]))
		file := filepath.Join(tmp, "tokens.json")
		if err := os.WriteFile(file, []byte(tokens), 0o600); err != nil {
			return err
		}
		pdArgs = append(pdArgs, "--api-tokens", file)
	}
	// The precisiond runs of each mix: the static token (or none), and with
	// -oauth a JWT access token too.
	type variant struct{ name, auth string }
	variants := []variant{{"precisiond", ""}}
	if withTokens {
		variants[0].auth = "Bearer " + loadToken
	}
	if withOAuth {
		variants[0].name = "precisiond, static token"
		is, jwt, err := startIssuer()
		if err != nil {
			return fmt.Errorf("starting the JWT issuer: %w", err)
		}
		defer is.Close()
		pdArgs = append(pdArgs, "--oauth-issuer", is.URL(), "--oauth-resource", loadResource)
		variants = append(variants, variant{"precisiond, OAuth JWT", "Bearer " + jwt})
	}
	pd := exec.Command(binary, pdArgs...)
	pd.Stderr = logFile
	// Both servers bind a port of their own choosing and say which: the bare
	// one on its stdout, precisiond in its "listening" log line.
	bare := exec.Command(self, "-bare", "127.0.0.1:0")
	bare.Stderr = os.Stderr
	bareOut, err := bare.StdoutPipe()
	if err != nil {
		return err
	}
	for _, c := range []*exec.Cmd{pd, bare} {
		if err := c.Start(); err != nil {
			return err
		}
		defer c.Process.Kill()
	}
	bAddr, err := bufio.NewReader(bareOut).ReadString('\n')
	if err != nil {
		return fmt.Errorf("the bare server did not say its address: %w", err)
	}
	bAddr = strings.TrimSpace(bAddr)
	pAddr, err := listenAddr(logFile.Name())
	if err != nil {
		return err
	}
	for _, a := range []string{pAddr, bAddr} {
		if err := waitUp("http://" + a); err != nil {
			return err
		}
	}
	all := mixes()
	var report strings.Builder
	host, _ := os.Hostname()
	fmt.Fprintf(&report, "### Load run %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&report, "- machine: %s, %d CPUs (%s), %s/%s, %s, load average at start %s\n", host, runtime.NumCPU(), cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.Version(), loadAvg())
	fmt.Fprintf(&report, "- command: `go run ./bench/load -concurrency %d -duration %s -warmup %s -repeat %d -mix %s -tokens=%t -oauth=%t`\n", concurrency, d, warmup, repeat, strings.Join(names, ","), withTokens, withOAuth)
	fmt.Fprintf(&report, "- closed loop, %d clients, keep-alive; each mix measured %d× per server, server order rotating; figures are medians over the repeats\n", concurrency, repeat)
	if withOAuth {
		report.WriteString("- one precisiond process with both `--api-tokens` and `--oauth-issuer` (an in-process JWT issuer on loopback): the static-token and OAuth rows are the same server, measured in turn with the bare server\n")
	}
	report.WriteString("\n")
	report.WriteString("| mix | server | req/s | p50 | p99 | p99.9 | errors | max RSS |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
	var ratios strings.Builder
	ratios.WriteString("\n| mix | req/s ratio (precisiond ÷ bare), median | per repeat | p99 ratio, median | per repeat |\n|---|---:|---|---:|---|\n")
	var oauthCmp strings.Builder
	oauthCmp.WriteString("\n| mix | req/s ratio (OAuth JWT ÷ static token), median | per repeat |\n|---|---:|---|\n")
	var cpu strings.Builder
	cpu.WriteString("\n| mix | precisiond CPU µs/request, median | per repeat | bare CPU µs/request | load generator CPU µs/request (precisiond / bare runs) |\n|---|---:|---|---:|---:|\n")
	for _, name := range names {
		m, ok := all[strings.TrimSpace(name)]
		if !ok {
			return fmt.Errorf("unknown mix %q", name)
		}
		ps := make([][]result, len(variants)) // per variant, per repeat
		var bs []result
		rpsRatios, p99Ratios := make([][]float64, len(variants)), make([][]float64, len(variants))
		var oauthRatios []float64 // OAuth ÷ static req/s, per repeat
		var rssMax int64
		for i := 0; i < repeat; i++ {
			// Each repeat measures every precisiond variant and the bare
			// server once, in an order rotated by one per repeat.
			rp := make([]result, len(variants))
			var rb result
			runs := make([]func(), 0, len(variants)+1)
			for v := range variants {
				runs = append(runs, func() {
					stop := sampleRSS(pd.Process.Pid)
					rp[v] = drive("http://"+pAddr, variants[v].auth, pd.Process.Pid, m, concurrency, warmup, d)
					rp[v].rssKiB = stop()
					rssMax = max(rssMax, rp[v].rssKiB)
				})
			}
			runs = append(runs, func() { rb = drive("http://"+bAddr, "", bare.Process.Pid, m, concurrency, warmup, d) })
			for k := range runs {
				runs[(i+k)%len(runs)]()
			}
			line := fmt.Sprintf("%s #%d:", m.name, i+1)
			for v := range variants {
				line += fmt.Sprintf(" %s %.0f req/s (%d errors),", variants[v].name, rp[v].rps(), rp[v].errors)
				ps[v] = append(ps[v], rp[v])
				rpsRatios[v] = append(rpsRatios[v], rp[v].rps()/rb.rps())
				p99Ratios[v] = append(p99Ratios[v], float64(rp[v].pct(0.99))/float64(rb.pct(0.99)))
			}
			fmt.Fprintf(os.Stderr, "%s bare %.0f req/s\n", line, rb.rps())
			bs = append(bs, rb)
			if withOAuth {
				oauthRatios = append(oauthRatios, rp[1].rps()/rp[0].rps())
			}
		}
		type row struct {
			who string
			rs  []result
			rss string
		}
		rows := make([]row, 0, len(variants)+1)
		for v := range variants {
			rows = append(rows, row{variants[v].name, ps[v], fmt.Sprintf("%.1f MiB", float64(rssMax)/1024)})
		}
		for _, x := range append(rows, row{"bare chi", bs, ""}) {
			var errs int64
			for _, r := range x.rs {
				errs += r.errors
			}
			fmt.Fprintf(&report, "| %s | %s | %.0f | %s | %s | %s | %d | %s |\n", m.name, x.who,
				median(x.rs, func(r result) float64 { return r.rps() }),
				msf(median(x.rs, func(r result) float64 { return float64(r.pct(0.50)) })),
				msf(median(x.rs, func(r result) float64 { return float64(r.pct(0.99)) })),
				msf(median(x.rs, func(r result) float64 { return float64(r.pct(0.999)) })),
				errs, x.rss)
		}
		for v := range variants {
			who := m.name
			if len(variants) > 1 {
				who += ", " + strings.TrimPrefix(variants[v].name, "precisiond, ")
			}
			fmt.Fprintf(&ratios, "| %s | %.2f | %s | %.2f | %s |\n", who, medianF(rpsRatios[v]), joinF(rpsRatios[v]), medianF(p99Ratios[v]), joinF(p99Ratios[v]))
			pcpu := make([]float64, len(ps[v]))
			for i, r := range ps[v] {
				pcpu[i] = r.cpuPerRequest(r.serverCPU)
			}
			fmt.Fprintf(&cpu, "| %s | %.1f | %s | %.1f | %.1f / %.1f |\n", who, medianF(pcpu), joinF(pcpu),
				median(bs, func(r result) float64 { return r.cpuPerRequest(r.serverCPU) }),
				median(ps[v], func(r result) float64 { return r.cpuPerRequest(r.clientCPU) }),
				median(bs, func(r result) float64 { return r.cpuPerRequest(r.clientCPU) }))
		}
		if withOAuth {
			fmt.Fprintf(&oauthCmp, "| %s | %.2f | %s |\n", m.name, medianF(oauthRatios), joinF(oauthRatios))
		}
	}
	report.WriteString(ratios.String())
	if withOAuth {
		report.WriteString(oauthCmp.String())
	}
	report.WriteString(cpu.String())
	report.WriteString("\nCPU per request is the server process's user + system time (/proc/PID/stat) and this process's (the clients') during the measured loop, divided by the requests answered: it depends far less on what else runs on the machine than req/s does.\n")
	fmt.Fprintf(&report, "\nerrors are summed over all repeats; max RSS is the largest VmRSS of precisiond sampled every 50 ms while it was loaded; peak resident memory over the whole life of the process (VmHWM): %s\n\n", peakRSS(pd.Process.Pid))
	fmt.Print(report.String())
	if out != "" {
		f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString(report.String())
		return err
	}
	return nil
}

func median(rs []result, f func(result) float64) float64 {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = f(r)
	}
	return medianF(xs)
}

func medianF(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func joinF(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(parts, ", ")
}

func msf(ns float64) string { return fmt.Sprintf("%.2f ms", ns/1e6) }

// sampleRSS polls the resident set size of pid every 50 ms until the returned
// function is called, which reports the largest value seen in KiB.
func sampleRSS(pid int) func() int64 {
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if kb := statusKiB(pid, "VmRSS:"); kb > peak.Load() {
				peak.Store(kb)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

func statusKiB(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field) {
			f := strings.Fields(strings.TrimPrefix(line, field))
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "model name") {
			if i := strings.IndexByte(line, ':'); i >= 0 {
				return strings.TrimSpace(line[i+1:])
			}
		}
	}
	return "unknown CPU"
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// listenAddr reads the address precisiond bound from the "listening" line of
// its log file, waiting for it up to a minute.
func listenAddr(log string) (string, error) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(log)
		for _, line := range bytes.Split(b, []byte("\n")) {
			var l struct{ Msg, Addr string }
			if json.Unmarshal(line, &l) == nil && l.Msg == "listening" && l.Addr != "" {
				return l.Addr, nil
			}
		}
	}
	b, _ := os.ReadFile(log)
	return "", fmt.Errorf("precisiond did not log its address:\n%s", b)
}

func waitUp(base string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if resp, err := http.Get(base + "/health"); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s did not come up", base)
}

// serveBare is the baseline: chi, decode the JSON body, encode a comparable JSON
// answer. Nothing else.
func serveBare(addr string) {
	r := chi.NewRouter()
	// decode reads the JSON body, answering 400 itself when it cannot.
	decode := func(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
		var req map[string]any
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
		dec.UseNumber()
		if err := dec.Decode(&req); err != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return nil, false
		}
		return req, true
	}
	handler := func(w http.ResponseWriter, r *http.Request) {
		req, ok := decode(w, r)
		if !ok {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"bare": true, "tool": req["tool"], "result": "ok",
			"structured_result": map[string]any{"status": "completed", "input_normalized": req["args"], "facts": req["args"],
				"contract_hash": strings.Repeat("0", 64), "result_hash": strings.Repeat("0", 64), "warnings": []any{}},
		})
	}
	r.Post("/invoke", handler)
	// The MCP baseline answers a JSON-RPC tools/call shape of the same size.
	r.Post("/mcp", func(w http.ResponseWriter, r *http.Request) {
		req, ok := decode(w, r)
		if !ok {
			return
		}
		params, _ := req["params"].(map[string]any)
		sc := map[string]any{"status": "completed", "input_normalized": params["arguments"], "facts": params["arguments"],
			"contract_hash": strings.Repeat("0", 64), "result_hash": strings.Repeat("0", 64), "warnings": []any{}}
		text, _ := json.Marshal(sc)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req["id"], "bare": true,
			"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": string(text)}}, "structuredContent": sc}})
	})
	r.Get("/health", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"status":"ok"}`)) })
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr()) // the address the load run reads (addr may have port 0)
	srv := &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}

// peakRSS is the process's peak resident set size over its life (VmHWM).
func peakRSS(pid int) string {
	kb := statusKiB(pid, "VmHWM:")
	if kb == 0 {
		return "unknown"
	}
	return fmt.Sprintf("%.1f MiB", float64(kb)/1024)
}
