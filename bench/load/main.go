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
package main

import (
	"bytes"
	"context"
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
	"time"

	"github.com/go-chi/chi/v5"
)

func main() {
	bare := flag.String("bare", "", "serve the bare chi baseline on this address (internal)")
	concurrency := flag.Int("concurrency", 32, "concurrent closed-loop clients")
	duration := flag.Duration("duration", 10*time.Second, "measurement time per mix and server")
	warmup := flag.Duration("warmup", 2*time.Second, "warm-up time per mix and server (not measured)")
	mixes := flag.String("mix", "gcd_lcm,structured_validate,prime_factorize,mcp", "comma-separated request mixes")
	binary := flag.String("binary", "", "precisiond binary (default: go build ./cmd/precisiond)")
	out := flag.String("out", "", "also append the results as Markdown to this file")
	flag.Parse()
	if *bare != "" {
		serveBare(*bare)
		return
	}
	if err := runAll(*concurrency, *duration, *warmup, strings.Split(*mixes, ","), *binary, *out); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

// mix is one request shape: the same body goes to both servers (the bare one
// ignores the tool and echoes a comparable answer).
type mix struct {
	name, path string
	body       []byte
	headers    map[string]string
	check      func(status int, body []byte) bool
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
	okResult := func(status int, body []byte) bool {
		return status == 200 && bytes.Contains(body, []byte(`"result_hash"`)) || status == 200 && bytes.Contains(body, []byte(`"bare":true`))
	}
	mcpCall, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "gcd_lcm", "arguments": map[string]any{"a": 391, "b": 299}}})
	return map[string]mix{
		"gcd_lcm":             {name: "gcd_lcm", path: "/invoke", body: []byte(`{"tool":"gcd_lcm","args":{"a":391,"b":299}}`), check: okResult},
		"structured_validate": {name: "structured_validate (JSON + schema)", path: "/invoke", body: sv, check: okResult},
		// 30-digit semiprime: 999999999999989 × 1000000000000037
		"prime_factorize": {name: "prime_factorize (30-digit semiprime)", path: "/invoke",
			body: []byte(`{"tool":"prime_factorize","args":{"n":"` + semiprime + `"}}`), check: okResult},
		"mcp": {name: "MCP tools/call gcd_lcm (Streamable HTTP)", path: "/mcp", body: mcpCall,
			headers: map[string]string{"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-06-18"},
			check: func(status int, body []byte) bool {
				return status == 200 && (bytes.Contains(body, []byte(`result_hash`)) || bytes.Contains(body, []byte(`"bare":true`)))
			}},
	}
}

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
func drive(base string, m mix, concurrency int, warmup, d time.Duration) result {
	tr := &http.Transport{MaxIdleConns: concurrency * 2, MaxIdleConnsPerHost: concurrency * 2, IdleConnTimeout: time.Minute}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	defer tr.CloseIdleConnections()
	send := func() (time.Duration, bool) {
		req, _ := http.NewRequest(http.MethodPost, base+m.path, bytes.NewReader(m.body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range m.headers {
			req.Header.Set(k, v)
		}
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return time.Since(start), false
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return time.Since(start), m.check(resp.StatusCode, body)
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
	return loop(time.Now().Add(d), true)
}

func runAll(concurrency int, d, warmup time.Duration, names []string, binary, out string) error {
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
	pAddr, bAddr := freeAddr(), freeAddr()
	pd := exec.Command(binary, "serve", "--addr", pAddr, "--data-dir", filepath.Join(tmp, "data"),
		"--max-concurrency", strconv.Itoa(max(64, concurrency*2)), "--log-level", "error")
	pd.Stderr = os.Stderr
	bare := exec.Command(self, "-bare", bAddr)
	bare.Stderr = os.Stderr
	for _, c := range []*exec.Cmd{pd, bare} {
		if err := c.Start(); err != nil {
			return err
		}
		defer c.Process.Kill()
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
	fmt.Fprintf(&report, "- machine: %s, %d CPUs, %s/%s, %s\n", host, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	fmt.Fprintf(&report, "- command: `go run ./bench/load -concurrency %d -duration %s -warmup %s -mix %s`\n\n", concurrency, d, warmup, strings.Join(names, ","))
	report.WriteString("| mix | server | req/s | p50 | p99 | p99.9 | errors |\n|---|---|---:|---:|---:|---:|---:|\n")
	var ratios strings.Builder
	ratios.WriteString("\n| mix | req/s ratio (precisiond ÷ bare) | p99 ratio |\n|---|---:|---:|\n")
	for _, name := range names {
		m, ok := all[strings.TrimSpace(name)]
		if !ok {
			return fmt.Errorf("unknown mix %q", name)
		}
		rp := drive("http://"+pAddr, m, concurrency, warmup, d)
		rb := drive("http://"+bAddr, m, concurrency, warmup, d)
		for _, x := range []struct {
			who string
			r   result
		}{{"precisiond", rp}, {"bare chi", rb}} {
			fmt.Fprintf(&report, "| %s | %s | %.0f | %s | %s | %s | %d |\n", m.name, x.who, x.r.rps(),
				ms(x.r.pct(0.50)), ms(x.r.pct(0.99)), ms(x.r.pct(0.999)), x.r.errors)
		}
		fmt.Fprintf(&ratios, "| %s | %.2f | %.2f |\n", m.name, rp.rps()/rb.rps(), float64(rp.pct(0.99))/float64(rb.pct(0.99)))
	}
	report.WriteString(ratios.String())
	fmt.Fprintf(&report, "\nprecisiond peak resident memory (VmHWM): %s\n\n", peakRSS(pd.Process.Pid))
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

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func peakRSS(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "unknown"
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
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
	handler := func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
		dec.UseNumber()
		if err := dec.Decode(&req); err != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
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
	r.Post("/mcp", handler)
	r.Get("/health", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"status":"ok"}`)) })
	srv := &http.Server{Addr: addr, Handler: r, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}
