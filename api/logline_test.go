package api

import (
	"bufio"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// accessLinePattern is the access line's shape: slog's fixed keys, then the
// request's, in this order.
var accessLinePattern = regexp.MustCompile(`^\{"time":"[^"]+","level":"INFO","msg":"request","request_id":"[^"]*","method":"[A-Z]+","path":".*","status":\d+,"bytes":\d+,"duration_ms":[0-9.e-]+(,"tool":"[^"]*")?(,"error_code":"[^"]*")?\}$`)

// TestAccessLogThroughServer: through the real router, the access line
// carries the request's fields in slog's order, a hostile path escaped as
// slog escapes it; other lines written at the same time stay whole; and a
// logger above info writes no access line.
func TestAccessLogThroughServer(t *testing.T) {
	var logs testhttp.SyncBuffer
	log := NewLogger(&logs, slog.LevelInfo)
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
			t.Fatalf("not a JSON line: %q", line)
		}
		if v["msg"] != "request" {
			other++
			continue
		}
		access++
		if !accessLinePattern.MatchString(line) {
			t.Errorf("access line %q has not slog's shape", line)
		}
		switch v["path"] {
		case "/invoke":
			if v["request_id"] != "req-1" || v["method"] != "POST" || v["status"] != float64(200) || v["tool"] != "behave" || v["bytes"].(float64) <= 0 {
				t.Errorf("/invoke access line %q", line)
			}
		case "/no\"such\nroute\u2028\ufffd":
			if !strings.Contains(line, `"path":"/no\"such\nroute\u2028\ufffd"`) || v["status"] != float64(404) || v["error_code"] != surface.CodeNotFound {
				t.Errorf("hostile path logged as %q", line)
			}
		default:
			t.Errorf("unexpected access line %q", line)
		}
	}
	if access != 16 || other != 8 {
		t.Errorf("%d access lines and %d others, want 16 and 8:\n%s", access, other, logs.String())
	}

	var quiet testhttp.SyncBuffer
	ts, _ = newTestServerWith(t, nil, NewLogger(&quiet, slog.LevelWarn))
	testhttp.Do(t, http.MethodGet, ts.URL+"/health", nil, nil)
	if quiet.String() != "" {
		t.Errorf("a warn-level logger wrote %q", quiet.String())
	}
}

// TestDerivedLoggerKeepsItsAttributes: the attributes of a logger derived
// from NewLogger's with With reach the access line.
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
