// Command worstcase measures every tool's worst case at the default limits, as
// a client meets it: the real binary, started fresh for each case with its
// default configuration, one /invoke call of the costliest input the tool's
// contract admits that we know of, and the call's outcome, wall time and the
// server's peak resident set (VmHWM, including its start-up) afterwards.
// Tools that run in a worker subprocess (generate_file, structured_validate
// with a schema) are measured in the worker by bench/isolation instead; their
// rows here show the server's side only. docs/operations.md ("Worst case per
// tool") records its output.
//
//	go run ./bench/worstcase                 # every case
//	go run ./bench/worstcase -cases calculate/factorial,json_query/amplification
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/precisiond/precisiond/bench/internal/benchbin"
)

func main() {
	binary := flag.String("binary", "", "precisiond binary (default: go build ./cmd/precisiond)")
	only := flag.String("cases", "", "comma-separated case names (default: all)")
	parallel := flag.Int("parallel", 1, "copies of each call sent at once (the default --max-concurrency is 4 per core)")
	flag.Parse()
	if err := run(*binary, *only, *parallel); err != nil {
		fmt.Fprintln(os.Stderr, "worstcase:", err)
		os.Exit(1)
	}
}

type testCase struct {
	name, tool string
	args       map[string]any
}

func run(binary, only string, parallel int) error {
	binary, dir, cleanup, err := benchbin.Prepare(binary, "worstcase")
	if err != nil {
		return err
	}
	defer cleanup()
	idle, err := measure(binary, dir, testCase{"idle", "gcd_lcm", map[string]any{"a": 1, "b": 2}}, 1)
	if err != nil {
		return err
	}
	fmt.Printf("server after one small call: %s; %d call(s) at once per case\n\n", idle.rss, parallel)
	fmt.Println("| case | request bytes | outcome | time | server peak RSS |")
	fmt.Println("|---|---|---|---|---|")
	for _, c := range cases() {
		if only != "" && !slices.Contains(strings.Split(only, ","), c.name) {
			continue
		}
		r, err := measure(binary, dir, c, parallel)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		fmt.Printf("| %s | %d | %s | %v | %s |\n", c.name, r.bytes, r.outcome, r.took.Round(time.Millisecond), r.rss)
	}
	return nil
}

type result struct {
	bytes   int
	outcome string
	took    time.Duration
	rss     string
}

// measure starts a fresh server, makes the call (parallel copies at once; the
// outcome and time shown are the slowest copy's) and reads the server's peak
// resident set after it.
func measure(binary, dir string, c testCase, parallel int) (result, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return result{}, err
	}
	addr := ln.Addr().String()
	ln.Close()
	data, err := os.MkdirTemp(dir, "data")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(data)
	cmd := exec.Command(binary, "serve", "--addr", addr, "--data-dir", data)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	url := "http://" + addr
	if err := waitHealthy(url); err != nil {
		return result{}, fmt.Errorf("%w\n%s", err, stderr.String())
	}
	body, err := json.Marshal(map[string]any{"tool": c.tool, "args": c.args})
	if err != nil {
		return result{}, err
	}
	type answer struct {
		outcome string
		took    time.Duration
		err     error
	}
	answers := make(chan answer, parallel)
	for range parallel {
		go func() {
			start := time.Now()
			resp, err := http.Post(url+"/invoke", "application/json", bytes.NewReader(body))
			if err != nil {
				answers <- answer{err: fmt.Errorf("server died? %w\n%s", err, stderr.String())}
				return
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			answers <- answer{outcome(resp.StatusCode, b), time.Since(start), err}
		}()
	}
	var slowest answer
	for range parallel {
		a := <-answers
		if a.err != nil {
			return result{}, a.err
		}
		if a.took >= slowest.took {
			slowest = a
		}
	}
	rss, err := peakRSS(cmd.Process.Pid)
	if err != nil {
		return result{}, err
	}
	return result{bytes: len(body), outcome: slowest.outcome, took: slowest.took, rss: rss}, nil
}

func waitHealthy(url string) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("server not healthy after 60 s")
}

func outcome(status int, answer []byte) string {
	var m struct {
		ErrorCode string `json:"error_code"`
		Error     string `json:"error"`
		Details   []struct {
			Reason string `json:"reason"`
		} `json:"details"`
	}
	if err := json.Unmarshal(answer, &m); err != nil {
		return fmt.Sprintf("HTTP %d, not JSON", status)
	}
	if m.ErrorCode == "" && m.Error == "" {
		return fmt.Sprintf("ok (%d bytes)", len(answer))
	}
	code := m.ErrorCode
	if code == "" {
		code = m.Error
	}
	if status != http.StatusOK {
		code = strconv.Itoa(status) + " " + code
	}
	return "`" + code + "`"
}

func peakRSS(pid int) (string, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "", err
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%d MiB", kb>>10), nil
		}
	}
	return "", errors.New("no VmHWM")
}

// cases are the costliest inputs we know for each tool within the default
// request limit (1 MiB body), from its contract's limits and the hostile suite.
func cases() []testCase {
	rep := strings.Repeat
	list := func(item string, n int) string { return strings.TrimSuffix(rep(item+",", n), ",") }
	mib := 1<<20 - 64
	words := func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "w%x. ", uint64(i)*2654435761%(1<<30))
		}
		return b.String()[:n]
	}
	digits50 := "1234567890123456789012345678901234567890.123456789"
	return []testCase{
		{"base64_codec/encode-1MiB", "base64_codec", map[string]any{"text": rep("\u00e9", mib/4)}},
		{"base64_codec/decode-1MiB", "base64_codec", map[string]any{"text": rep("QUJD", mib/4), "mode": "decode"}},
		{"business_calendar/count-1978-2100-SCT", "business_calendar", map[string]any{"operation": "business_days_between", "country": "GB", "subdivision": "SCT", "start": "1978-01-01", "end": "2100-12-31"}},
		// the US subdivision with the most rules over its whole span (each year's
		// holidays come from all 120-odd US rules, filtered by subdivision)
		{"business_calendar/count-1986-2100-US-VI", "business_calendar", map[string]any{"operation": "business_days_between", "country": "US", "subdivision": "VI", "start": "1986-01-01", "end": "2100-12-31"}},
		{"business_calendar/walk-out-of-range", "business_calendar", map[string]any{"operation": "add_business_days", "country": "US", "date": "1971-01-01", "days": 47000, "weekend": []any{}}},
		{"calculate/factorial-8000", "calculate", map[string]any{"expression": "factorial(8000)"}},
		{"calculate/power-tower", "calculate", map[string]any{"expression": "9**9**9**9 + sin(10**10000)"}},
		{"calculate/trig-1000-digits", "calculate", map[string]any{"expression": strings.Join(slices.Repeat([]string{"sin(10**300+1)*exp(69314)"}, 70), "*"), "precision": 1000}},
		// x - x' for a huge transcendental x written two ways: the engine
		// cannot know the difference is exactly 0, so it works to the
		// decision cap (2^-16384 below values near 2^100000) before
		// precision_exhausted.
		{"calculate/cancellation", "calculate", map[string]any{"expression": "sin(10**300)*exp(69314)-exp(69314)*sin(10**300)", "precision": 1000}},
		{"calculate/nesting-100", "calculate", map[string]any{"expression": rep("sqrt(", 100) + "2" + rep(")", 100), "precision": 1000}},
		{"calendar_facts/year-9999", "calendar_facts", map[string]any{"date_str": "9999-12-31"}},
		{"date_add/max-days", "date_add", map[string]any{"base_date": "0001-01-01", "days": 3652058}},
		{"date_diff/whole-range", "date_diff", map[string]any{"date1": "0001-01-01", "date2": "9999-12-31"}},
		{"day_of_week/year-1", "day_of_week", map[string]any{"date_str": "0001-01-01"}},
		{"decimal_finance/compound-27y-daily", "decimal_finance", map[string]any{"operation": "compound_interest",
			"operands": []string{rep("9", 47) + ".99", "99.99", "27", "365"}, "currency": "EUR", "scale": 12, "rounding": "half_even"}},
		{"exact_probability/binomial-4096", "exact_probability", map[string]any{"operation": "binomial_probability",
			"n": 4096, "k": 2048, "numerator": 1, "denominator": 2, "decimal_scale": 18, "rounding": "half_even"}},
		{"gcd_lcm/large", "gcd_lcm", map[string]any{"a": int64(999999999999999989), "b": int64(999999999999999877)}},
		// identifier_validate: the longest value of each costly shape (an
		// IBAN's mod-97 over 256 characters, an ISBN's range lookup).
		{"identifier_validate/iban-256", "identifier_validate", map[string]any{"kind": "iban", "value": "DE" + rep("9", 254)}},
		{"identifier_validate/isbn-256", "identifier_validate", map[string]any{"kind": "isbn", "value": rep("978-", 64)}},
		// physical_constant: an unknown 128-character name (the did-you-mean
		// search over every name of the edition) and a one-letter query.
		{"physical_constant/unknown-128", "physical_constant", map[string]any{"name": rep("electron mass ", 10)[:128]}},
		{"physical_constant/query-e", "physical_constant", map[string]any{"query": "e", "edition": "CODATA2018"}},
		// geodesic: the largest rings and point lists (10 000 points); the
		// ring's edges are nearly antipodal, the inverse problem's costliest
		// case (astroid start, Newton), and the transform is UTM to Web
		// Mercator through geographic coordinates.
		{"geodesic/area-10000-antipodal", "geodesic", map[string]any{"operation": "area", "points": geodesicPoints(10000, func(i int) [2]float64 {
			if i%2 == 0 {
				return [2]float64{-30 + float64(i%7)*1e-3, float64(i%360) * 1e-3}
			}
			return [2]float64{29.9 - float64(i%5)*1e-3, 179.8 + float64(i%360)*1e-3}
		})}},
		{"geodesic/transform-10000-utm-3857", "geodesic", map[string]any{"operation": "transform", "from_crs": "EPSG:32733", "to_crs": "EPSG:3857",
			"points": geodesicPoints(10000, func(i int) [2]float64 { return [2]float64{166021.4431 + float64(i)*66.7, 1116915.044 + float64(i)*800} })}},
		// token_count: 512 KiB of prose with a budget (the prefix search), the
		// same without spaces (one pre-token: the heap merge), and that one with
		// a small budget (the prefix search runs into its 1 MiB budget).
		{"token_count/512KiB-prose", "token_count", map[string]any{"text": rep("The quick brown fox doesn't jump; it's 1234 m away. 日本語も。 😀\n", 512*1024/70), "max_tokens": 8000}},
		{"token_count/512KiB-cl100k", "token_count", map[string]any{"text": rep("The quick brown fox doesn't jump; it's 1234 m away. 日本語も。 😀\n", 512*1024/70), "encoding": "cl100k_base"}},
		{"token_count/512KiB-nospace", "token_count", map[string]any{"text": rep("supercalifragilistic", 512*1024/20)}},
		{"token_count/512KiB-nospace-budget", "token_count", map[string]any{"text": rep("supercalifragilistic", 512*1024/20), "max_tokens": 1000}},
		{"hash_text/1MiB-blake2b", "hash_text", map[string]any{"text": rep("a", mib), "algorithm": "blake2b"}},
		{"json_query/amplification", "json_query", map[string]any{"json_str": `"` + rep("x", 100000) + `"`,
			"path": strings.TrimSuffix(rep("[@,@] | ", 11), " | ")}},
		{"json_query/sort-1MiB", "json_query", map[string]any{"json_str": "[" + list(`[3,[1,2]]`, mib/11) + "]",
			"path": "sort_by(@, &[0])[][1][]"}},
		{"prime_factorize/hard-semiprime", "prime_factorize", map[string]any{"n": json.Number("2100000000000000000000000000000000001300000000000000000000000000000000000169")}},
		{"prime_factorize/256-bit-prime-power", "prime_factorize", map[string]any{"n": json.Number("115792089237316195423570985008687907853269984665640564039457584007913129639747")}},
		{"regex_extract/nested-groups-1MB", "regex_extract", map[string]any{"pattern": nestedGroups(40), "text": rep("a", 1000000)}},
		{"regex_extract/backtracking-1MB", "regex_extract", map[string]any{"pattern": `(a|aa)*b`, "text": rep("a", 1000000)}},
		{"roman_numeral/3888", "roman_numeral", map[string]any{"value": 3888}},
		{"solve_equation/degree-64", "solve_equation", map[string]any{"equation": "x**64 - " + rep("7", 300) + "*x**63 + x - 1 = 0"}},
		{"solve_equation/degree-64-60-digit-coefficient", "solve_equation", map[string]any{"equation": "x**64 - " + rep("7", 60) + "*x**63 + x - 1 = 0"}},
		{"solve_equation/degree-64-200-digit-coefficient", "solve_equation", map[string]any{"equation": "x**64 - " + rep("7", 200) + "*x**63 + x - 1 = 0"}},
		{"solve_equation/dense-degree-64", "solve_equation", map[string]any{"equation": denseDegree64()}},
		{"solve_equation/terms", "solve_equation", map[string]any{"equation": strings.Join(slices.Repeat([]string{"(x+1)**2"}, 100), "+") + " = 0"}},
		{"advanced_statistics/quantiles-100000-wide-1000-probabilities", "advanced_statistics", map[string]any{"operation": "quantiles", "method": "hazen",
			"data": wideNumbers(100000, 0), "probabilities": probabilities1000()}},
		{"advanced_statistics/regression-2x100000-wide", "advanced_statistics", map[string]any{"operation": "linear_regression", "x": wideNumbers(100000, 0), "y": wideNumbers(100000, 5)}},
		{"advanced_statistics/kendall-2x100000-wide", "advanced_statistics", map[string]any{"operation": "correlation", "method": "kendall", "x": wideNumbers(100000, 0), "y": wideNumbers(100000, 5)}},
		{"advanced_statistics/interval-100000-wide", "advanced_statistics", map[string]any{"operation": "confidence_interval", "data": wideNumbers(100000, 0), "confidence": "0.99"}},
		{"statistics_calc/100000-values-all-ops", "statistics_calc", map[string]any{"data": list(digits50[:20], 10000),
			"operations": "mean,median,mode,multimode,variance,stdev,pvariance,pstdev,geometric_mean,harmonic_mean,quantiles", "quantiles_n": 1000}},
		{"statistics_calc/100000-short-values", "statistics_calc", map[string]any{"data": list("1.5", 100000),
			"operations": "mean,median,mode,multimode,variance,stdev,pvariance,pstdev,geometric_mean,harmonic_mean,quantiles", "quantiles_n": 1000}},
		{"schedule_expand/cron-every-minute-1000-both", "schedule_expand", map[string]any{"syntax": "cron", "expression": "* * * * *",
			"start": "2026-10-25T00:00:00", "timezone": "Europe/Berlin", "count": 1000, "ambiguous": "both"}},
		{"schedule_expand/cron-never", "schedule_expand", map[string]any{"syntax": "cron", "expression": "0 0 30 2 *",
			"start": "2026-01-01T00:00:00", "timezone": "Europe/Berlin", "count": 1000}},
		{"schedule_expand/rrule-every-by-maxed", "schedule_expand", map[string]any{"syntax": "rrule", "expression": maxedRRule(),
			"start": "2026-01-01T00:00:00", "timezone": "Australia/Lord_Howe", "count": 1000, "ambiguous": "both"}},
		{"schedule_expand/rrule-setpos-never", "schedule_expand", map[string]any{"syntax": "rrule", "expression": "FREQ=MONTHLY;BYSETPOS=2",
			"start": "2026-01-01T00:00:00", "timezone": "Europe/Berlin", "count": 1000}},
		{"schedule_expand/rrule-budget", "schedule_expand", map[string]any{"syntax": "rrule", "expression": "FREQ=SECONDLY;BYHOUR=23;BYMINUTE=59;BYSECOND=59",
			"start": "2026-01-01T00:00:00", "timezone": "Europe/Berlin", "count": 1000}},
		{"structured_validate/csv-1000x100", "structured_validate", map[string]any{"format_name": "csv", "payload": rep(list("ab", 100)+"\n", 210), "csv_dialect": "comma"}},
		{"structured_validate/json-10000-nodes", "structured_validate", map[string]any{"format_name": "json", "payload": "[" + list("[1,2]", 3300) + "]"}},
		{"subnet_calc/ipv6-0", "subnet_calc", map[string]any{"cidr": "::/0"}},
		{"version_compare/semver-sort-1000-long", "version_compare", map[string]any{"scheme": "semver", "operation": "sort", "versions": versionList(func(i int) string { return fmt.Sprintf("1.0.0-%s%d", rep("a.1.", 60), 999-i) })}},
		{"version_compare/pep440-sort-1000-long", "version_compare", map[string]any{"scheme": "pep440", "operation": "sort", "versions": versionList(func(i int) string { return fmt.Sprintf("%s%d", rep("1.", 124), 999-i) })}},
		{"version_compare/debian-sort-1000-long", "version_compare", map[string]any{"scheme": "debian", "operation": "sort", "versions": versionList(func(i int) string { return fmt.Sprintf("%s%d", rep("1.a", 83), 999-i) })}},
		{"version_compare/semver-or-range-1024", "version_compare", map[string]any{"scheme": "semver", "operation": "satisfies", "version": "2.0.0", "constraint": rep("^1.2.3 || ", 101) + "2.0.0"}},
		{"version_compare/semver-range-long-runs", "version_compare", map[string]any{"scheme": "semver", "operation": "satisfies", "version": "2.0.0", "constraint": rep(">=1.2.3-"+rep("a", 251)+" <1.2.4 || ", 3) + rep("9", 200)}},
		{"version_compare/pep440-specifiers-1024", "version_compare", map[string]any{"scheme": "pep440", "operation": "satisfies", "version": "2.0", "constraint": list("~=1.0.0", 128)}},
		{"text_analyze/1MiB-unique-words", "text_analyze", map[string]any{"text": words(mib)}},
		{"time_facts/lmt", "time_facts", map[string]any{"instant": "1900-01-01T00:00:00Z", "timezone_name": "Asia/Kolkata"}},
		{"timezone_convert/fold", "timezone_convert", map[string]any{"local_datetime": "2100-10-31T02:30:00", "from_timezone": "Europe/Berlin", "to_timezone": "Pacific/Kiritimati", "fold": 1}},
		{"unit_convert/nested-powers", "unit_convert", map[string]any{"value": 1, "from_unit": rep("(", 28) + "km**100" + rep(")", 28), "to_unit": "m**100"}},
		{"generate_file/emphasis (worker)", "generate_file", map[string]any{"content": rep("*a **", 100000), "filename": "e", "format": "html"}},
		{"structured_validate/anyOf-not (worker)", "structured_validate", map[string]any{"format_name": "json", "payload": "[" + list("0", 1000) + "]",
			"schema_json": `{"items":{"anyOf":[` + list(`{"not":{}}`, 2900) + `]}}`}},
	}
}

// maxedRRule is a YEARLY rule with every BYxxx part as full as the 1024-byte
// expression limit allows: 86 400 times a day on 28 days a month, BYSETPOS
// picking from 29 million candidates a year.
func maxedRRule() string {
	seq := func(a, b int) string {
		var p []string
		for i := a; i <= b; i++ {
			p = append(p, fmt.Sprint(i))
		}
		return strings.Join(p, ",")
	}
	r := "FREQ=YEARLY;BYMONTH=" + seq(1, 12) + ";BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR=" + seq(0, 23) + ";BYMINUTE=" + seq(0, 59) +
		";BYSECOND=" + seq(0, 59) + ";BYMONTHDAY=" + seq(1, 28) + ";WKST=SU;BYSETPOS="
	var pos []string
	for i := 1; len(r)+len(strings.Join(pos, ","))+12 < 1024; i++ {
		pos = append(pos, fmt.Sprint(367-i), fmt.Sprint(-i))
	}
	return r + strings.Join(pos, ",")
}

// versionList is 1000 versions made by f from their index.
// wideNumbers returns n JSON numbers ke99 (k = 1..9, shifted by shift) and
// one 1e-99: the common scale makes every value a 200-digit integer, the
// largest advanced_statistics meets within a 1 MiB body for two arrays.
func wideNumbers(n, shift int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = json.Number(strconv.Itoa((i*7+shift)%9+1) + "e99")
	}
	out[n/2] = json.Number("1e-99")
	return out
}

// probabilities1000 returns 0.000, 0.001, ..., 0.999.
func probabilities1000() []any {
	out := make([]any, 1000)
	for i := range out {
		out[i] = json.Number(fmt.Sprintf("0.%03d", i))
	}
	return out
}

func versionList(f func(int) string) []string {
	out := make([]string, 1000)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func nestedGroups(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "(?P<g%d>", i)
	}
	b.WriteString("a*")
	b.WriteString(strings.Repeat(")", n))
	return b.String()
}

// denseDegree64 is a degree-64 polynomial with every coefficient a distinct
// 30-digit number (1 000 characters at most, the contract's limit).
func denseDegree64() string {
	var b strings.Builder
	for d := 64; d >= 0; d-- {
		c := fmt.Sprintf("%d", (d+1)*1000003)
		fmt.Fprintf(&b, "%s*x**%d+", c, d)
	}
	return strings.TrimSuffix(b.String(), "+") + " = 0"
}

// geodesicPoints is n points of f as JSON arrays.
func geodesicPoints(n int, f func(i int) [2]float64) []any {
	pts := make([]any, n)
	for i := range pts {
		p := f(i)
		pts[i] = []float64{p[0], p[1]}
	}
	return pts
}
