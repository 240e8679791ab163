package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// slogLine is the oracle: what slog's JSON handler (the service's handler
// before NewLogger, and logInfo's way for any other logger) writes for the
// record at time at, info level, with msg and attrs.
func slogLine(t *testing.T, at time.Time, msg string, attrs []slog.Attr) []byte {
	t.Helper()
	var buf bytes.Buffer
	r := slog.NewRecord(at, slog.LevelInfo, msg, 0)
	r.AddAttrs(attrs...)
	if err := slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}).Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hostileStrings reach the access line from the request (path, method, the
// tool named in the body): every class of character slog's JSON handler
// treats apart.
var hostileStrings = []string{
	"", "/invoke", `"`, `\`, `\"`, "a\"b\\c", "\n\r\t", "\x00\x01\x07\x08\x0b\x0c\x0e\x1b\x1f", "\x7f",
	"<script>&amp;</script>", "ä€😀", "\xff", "a\xffb", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80",
	"\u2028\u2029", "x\u2028y", "\ufffd", "\u00a0\u200b\ufeff", "/no such/route%20?x=1", strings.Repeat("é\"\x01", 300),
}

func TestAccessLineMatchesSlog(t *testing.T) {
	zones := []*time.Location{time.UTC, time.Local, time.FixedZone("", 5*3600+30*60), time.FixedZone("X", -7*3600)}
	times := []time.Time{
		time.Now(), // with a monotonic reading, which slog strips
		time.Date(2026, 12, 1, 8, 30, 0, 0, time.UTC),
		time.Date(2026, 12, 1, 8, 30, 0, 120000000, time.UTC),
		time.Date(1, 1, 2, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 30, 23, 59, 59, 999999999, time.UTC), // 9999 in every zone here
	}
	durations := []float64{0, math.Copysign(0, -1), 0.001, 0.042, 1, 1.5, 12.345, 999.999, 123456.789, 3.6e6, 1e-6, 9.99e-7, 1e-7, 5e-324,
		1e20, 1e21, 1.5e300, math.MaxFloat64, -0.001, -1e-7, -1e21}
	ints := []int{0, 1, 200, 503, -1, math.MaxInt32, math.MaxInt, math.MinInt}
	check := func(at time.Time, e *accessEntry) {
		t.Helper()
		got, ok := appendInfoLine(nil, at, "request", e.appendAttrs)
		if !ok {
			t.Fatalf("appendInfoLine declined %+v at %v", e, at)
		}
		if want := slogLine(t, at, "request", e.attrs()); !bytes.Equal(got, want) {
			t.Fatalf("access line differs from slog's\n got %q\nwant %q", got, want)
		}
	}
	for _, z := range zones {
		for _, at := range times {
			check(at.In(z), &accessEntry{requestID: "abc-123", method: "POST", path: "/invoke", status: 200, bytes: 512, durationMS: 0.123, tool: "gcd_lcm"})
		}
	}
	for _, s := range hostileStrings {
		check(times[0], &accessEntry{requestID: s, method: s, path: s, status: 400, bytes: 1, durationMS: 1, tool: s, errorCode: s})
	}
	for _, d := range durations {
		check(times[1], &accessEntry{requestID: "r", method: "GET", path: "/", durationMS: d})
	}
	for _, n := range ints {
		check(times[1], &accessEntry{requestID: "r", method: "GET", path: "/", status: n, bytes: n, errorCode: "not_found"})
	}
}

// TestMCPCallLineMatchesSlog: the line of an MCP tool call, as
// TestAccessLineMatchesSlog.
func TestMCPCallLineMatchesSlog(t *testing.T) {
	at := time.Now()
	for _, s := range hostileStrings {
		for _, code := range []any{nil, "tool_failed", s} {
			e := &mcpCallEntry{requestID: s, surface: "mcp_compact", tool: s, durationMS: 0.25, code: code}
			got, ok := appendInfoLine(nil, at, "mcp tool call", e.appendAttrs)
			if !ok {
				t.Fatalf("appendInfoLine declined %+v", e)
			}
			if want := slogLine(t, at, "mcp tool call", e.attrs()); !bytes.Equal(got, want) {
				t.Fatalf("MCP line differs from slog's\n got %q\nwant %q", got, want)
			}
		}
	}
}

// TestLinesDecline: what a line cannot write as slog does goes back to slog
// (logInfo then logs the record there), having appended nothing.
func TestLinesDecline(t *testing.T) {
	e := &accessEntry{requestID: "r", method: "GET", path: "/"}
	for _, at := range []time.Time{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if b, ok := appendInfoLine([]byte("x"), at, "request", e.appendAttrs); ok || string(b) != "x" {
			t.Errorf("year %d: %q, %v; want declined, nothing appended", at.Year(), b, ok)
		}
	}
	for _, d := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		e.durationMS = d
		if b, ok := appendInfoLine([]byte("x"), time.Now(), "request", e.appendAttrs); ok || string(b) != "x" {
			t.Errorf("duration %v: %q, %v; want declined, nothing appended", d, b, ok)
		}
		m := &mcpCallEntry{durationMS: d}
		if _, ok := appendInfoLine(nil, time.Now(), "mcp tool call", m.appendAttrs); ok {
			t.Errorf("MCP line with duration %v not declined", d)
		}
	}
	m := &mcpCallEntry{code: 42}
	if b, ok := appendInfoLine([]byte("x"), time.Now(), "mcp tool call", m.appendAttrs); ok || string(b) != "x" {
		t.Errorf("a code that is not a string: %q, %v; want declined", b, ok)
	}
	// Declined, the line goes through slog, in slog's words.
	var logs testhttp.SyncBuffer
	logMCPCall(NewLogger(&logs, nil), context.Background(), "mcp", "gcd_lcm", 42, time.Now())
	if !strings.Contains(logs.String(), `"msg":"mcp tool call","request_id":"","surface":"mcp","tool":"gcd_lcm","duration_ms":`) ||
		!strings.HasSuffix(logs.String(), `,"error_code":42}`+"\n") {
		t.Errorf("declined MCP line: %q", logs.String())
	}
}

func FuzzLogLines(f *testing.F) {
	for i, s := range hostileStrings {
		f.Add(s, "POST", "gcd_lcm", int64(200+i), 0.5*float64(i), int64(1764577800123456789)+int64(i)*7)
	}
	f.Add("/x", "GET", "", int64(-5), 1e-7, int64(0))
	f.Fuzz(func(t *testing.T, path, method, tool string, n int64, d float64, unixNano int64) {
		if math.IsNaN(d) || math.IsInf(d, 0) {
			return // declined (TestAccessLineDeclines)
		}
		at := time.Unix(0, unixNano).In(time.FixedZone("", int(n%(14*3600))))
		e := &accessEntry{requestID: tool + path, method: method, path: path, status: int(n), bytes: int(n >> 3), durationMS: d, tool: tool, errorCode: method}
		got, ok := appendInfoLine(nil, at, "request", e.appendAttrs)
		if !ok {
			t.Fatalf("declined %+v at %v", e, at)
		}
		if want := slogLine(t, at, "request", e.attrs()); !bytes.Equal(got, want) {
			t.Fatalf("access line differs from slog's\n got %q\nwant %q", got, want)
		}
		m := &mcpCallEntry{requestID: method, surface: path, tool: tool, durationMS: d, code: path}
		if got, ok = appendInfoLine(nil, at, "mcp tool call", m.appendAttrs); !ok {
			t.Fatalf("declined %+v at %v", m, at)
		}
		if want := slogLine(t, at, "mcp tool call", m.attrs()); !bytes.Equal(got, want) {
			t.Fatalf("MCP line differs from slog's\n got %q\nwant %q", got, want)
		}
	})
}

// accessLinePattern is the access line's shape: slog's fixed keys, then the
// request's, in this order.
var accessLinePattern = regexp.MustCompile(`^\{"time":"[^"]+","level":"INFO","msg":"request","request_id":"[^"]*","method":"[A-Z]+","path":".*","status":\d+,"bytes":\d+,"duration_ms":[0-9.e-]+(,"tool":"[^"]*")?(,"error_code":"[^"]*")?\}$`)

// TestAccessLogThroughServer: through the real router, the access line (the
// fast one of NewLogger's logger, and slog's for a plain logger) carries the
// request's fields in slog's order, a hostile path escaped as slog escapes
// it; other lines written at the same time stay whole; and a logger above
// info writes no access line.
func TestAccessLogThroughServer(t *testing.T) {
	for _, fast := range []bool{true, false} {
		var logs testhttp.SyncBuffer
		log := slog.New(slog.NewJSONHandler(&logs, nil))
		if fast {
			log = NewLogger(&logs, slog.LevelInfo)
		}
		ts, _ := newTestServerWith(t, nil, log)
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				testhttp.Do(t, http.MethodPost, ts.URL+"/invoke", map[string]string{"X-Request-Id": "req-1"}, []byte(`{"tool":"behave","args":{"mode":"ok"}}`))
				log.Warn("in between", "n", 1) // a slog line written while access lines are
				testhttp.Do(t, http.MethodGet, ts.URL+"/no%22such%0Aroute%E2%80%A8\xff", nil, nil)
			}()
		}
		wg.Wait()
		var access, other int
		sc := bufio.NewScanner(strings.NewReader(logs.String()))
		for sc.Scan() {
			line := sc.Text()
			var v map[string]any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("fast=%v: not a JSON line: %q", fast, line)
			}
			if v["msg"] != "request" {
				other++
				continue
			}
			access++
			if !accessLinePattern.MatchString(line) {
				t.Errorf("fast=%v: access line %q has not slog's shape", fast, line)
			}
			switch v["path"] {
			case "/invoke":
				if v["request_id"] != "req-1" || v["method"] != "POST" || v["status"] != float64(200) || v["tool"] != "behave" || v["bytes"].(float64) <= 0 {
					t.Errorf("fast=%v: /invoke access line %q", fast, line)
				}
			case "/no\"such\nroute\u2028\ufffd":
				if !strings.Contains(line, `"path":"/no\"such\nroute\u2028\ufffd"`) || v["status"] != float64(404) || v["error_code"] != CodeNotFound {
					t.Errorf("fast=%v: hostile path logged as %q", fast, line)
				}
			default:
				t.Errorf("fast=%v: unexpected access line %q", fast, line)
			}
		}
		if access != 16 || other != 8 {
			t.Errorf("fast=%v: %d access lines and %d others, want 16 and 8:\n%s", fast, access, other, logs.String())
		}
	}

	var logs testhttp.SyncBuffer
	ts, _ := newTestServerWith(t, nil, NewLogger(&logs, slog.LevelWarn))
	testhttp.Do(t, http.MethodGet, ts.URL+"/health", nil, nil)
	if logs.String() != "" {
		t.Errorf("a warn-level logger wrote %q", logs.String())
	}
}

// TestDerivedLoggerKeepsItsAttributes: a logger derived from NewLogger's with
// With is plain slog, so its attributes reach the access line.
func TestDerivedLoggerKeepsItsAttributes(t *testing.T) {
	var logs testhttp.SyncBuffer
	ts, _ := newTestServerWith(t, nil, NewLogger(&logs, nil).With("replica", "r1"))
	testhttp.Do(t, http.MethodGet, ts.URL+"/health", nil, nil)
	if !strings.Contains(logs.String(), `"msg":"request","replica":"r1","request_id":`) {
		t.Errorf("access line of a derived logger: %q", logs.String())
	}
}

func TestValidRequestIDAgreesWithPattern(t *testing.T) {
	for _, id := range []string{"", "a", "abc-123", "A.b_c:d-9", "evil\"id with spaces", "a\n", "a\nb", "é", strings.Repeat("x", 128), strings.Repeat("x", 129), "x/y", "x\x00"} {
		checkRequestID(t, id)
	}
}

func FuzzValidRequestID(f *testing.F) {
	for _, s := range []string{"abc-123", "a b", "a\n", strings.Repeat("9", 128), strings.Repeat("9", 129)} {
		f.Add(s)
	}
	f.Fuzz(checkRequestID)
}

// requestIDPattern is the rule validRequestID implements, as a regexp.
var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

func checkRequestID(t *testing.T, id string) {
	if got, want := validRequestID(id), requestIDPattern.MatchString(id); got != want {
		t.Errorf("validRequestID(%q) = %v, the pattern says %v", id, got, want)
	}
}
