package mcpserver

// The surface's parts alone: cursors, JSON-RPC ids and kinds, stateless call
// tracking, the scope check's tool name and the list_changed coalescer. api's
// tests drive the whole surface through the HTTP server.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// FuzzAppendHTMLString: the fast path's string encoder writes what
// json.Marshal writes for every string, valid UTF-8 or not.
func FuzzAppendHTMLString(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "\x00\x01\b\f\n\r\t\x1f\x7f", "<a href='x'>&amp;</a>", "\u2028\u2029\u2027\u202a", "é 日本 😀", "\xff\xfe a \xed\xa0\x80 \xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendHTMLString([]byte("x"), s); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("%q: got %s, json.Marshal %s", s, got, want)
		}
	})
}

// FuzzCursor: parseCursor never panics and round-trips pageCursor.
func FuzzCursor(f *testing.F) {
	for _, s := range []string{"", "gcd_lcm", "a/b", "\x00", "after:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, err := parseCursor(pageCursor(s)); err != nil || got != s {
			t.Fatalf("round trip of %q: %q %v", s, got, err)
		}
		_, _ = parseCursor(s)
	})
}

func TestIDRoundTrips(t *testing.T) {
	for _, id := range testhttp.RefusedIDs {
		if idRoundTrips([]byte(id)) {
			t.Errorf("idRoundTrips(%s) = true", id)
		}
	}
	for _, id := range testhttp.KeptIDs {
		if !idRoundTrips([]byte(id)) {
			t.Errorf("idRoundTrips(%s) = false", id)
		}
	}
}

// FuzzUnexactID: any body: no panic; a refused id is a number that does
// not round-trip, and the refusal is valid JSON echoing its text.
func FuzzUnexactID(f *testing.F) {
	for _, id := range append(append([]string{}, testhttp.RefusedIDs...), testhttp.KeptIDs...) {
		f.Add(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	}
	f.Add(`[{"id":1},{"id":1.5}]`)
	f.Add(`{"id":}`)
	f.Fuzz(func(t *testing.T, body string) {
		id := unexactID([]byte(body))
		if id == nil {
			return
		}
		if idRoundTrips(id) {
			t.Fatalf("refused id %s round-trips", id)
		}
		b := idRefusal(id)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil || string(m["id"]) != string(id) {
			t.Fatalf("refusal %s of id %s: %v", b, id, err)
		}
	})
}

// FuzzStatelessCalls feeds any body through statelessCalls: it never panics,
// passes every body on unchanged, cancels nothing it did not track, and
// leaves no call or context behind.
func FuzzStatelessCalls(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a\u0041"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1}}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, ``, `{`, `{"id":{"a":1},"method":"tools/call"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		f := newInflight()
		var got []byte
		var sawStream bool
		next := func(stream bool) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got, _ = io.ReadAll(r.Body)
				sawStream = stream
				if r.Header.Get(callContextHeader) == "" {
					t.Error("no call context key")
				}
			})
		}
		h := f.statelessCalls(next(false), next(true))
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(string(body)))
		h.ServeHTTP(httptest.NewRecorder(), req)
		if string(got) != string(body) {
			t.Fatalf("body changed: %q -> %q", body, got)
		}
		if want := strings.Contains(string(body), `"progressToken"`); sawStream != want {
			t.Fatalf("stream %v, want %v", sawStream, want)
		}
		f.mu.Lock()
		left := len(f.calls)
		f.mu.Unlock()
		callContexts.mu.Lock()
		ctxs := len(callContexts.m)
		callContexts.mu.Unlock()
		if left != 0 || ctxs != 0 {
			t.Fatalf("%d calls and %d contexts left behind", left, ctxs)
		}
	})
}

// TestIDKey: ids name calls by value: "a" and "\u0061" are one id, 1 and "1"
// are two, and objects, arrays, null and booleans name none.
func TestIDKey(t *testing.T) {
	k1, _ := idKey([]byte(`"a"`))
	k2, _ := idKey([]byte(`"\u0061"`))
	n, _ := idKey([]byte(`1`))
	s, _ := idKey([]byte(`"1"`))
	if k1 != k2 || n == s {
		t.Fatalf("%v %v %v %v", k1, k2, n, s)
	}
	for _, bad := range []string{`null`, `true`, `{}`, `[]`, ``, `"\x"`} {
		if _, ok := idKey([]byte(bad)); ok {
			t.Errorf("idKey(%s) named a call", bad)
		}
	}
}

// FuzzToolsCallName: any body gives a name only for one tools/call request
// with an id, and never panics.
func FuzzToolsCallName(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"gcd_lcm"}}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm"}}]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		name, ok := toolsCallName(body)
		if !ok {
			return
		}
		var msg map[string]json.RawMessage
		if json.Unmarshal(body, &msg) != nil || msg["id"] == nil || name == "" {
			t.Fatalf("%q gave name %q", body, name)
		}
	})
}

// FuzzRPCKind: any body is classified without a panic and without consuming
// it, and a request is only what has both an id and a method.
func FuzzRPCKind(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}`, `{"id":1,"result":{}}`,
		`{"method":"m"}`, `[{"id":1}]`, `{"id":`, `{"a":{"id":1,"method":"m"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := httptest.NewRequest(http.MethodPost, "/mcp/sse?sessionid=x", bytes.NewReader(data))
		request := isRequest(r)
		kind := rpcKind(data[:min(len(data), rpcPeekBytes)])
		if request != (kind == rpcRequest) {
			t.Fatalf("isRequest %v, rpcKind %d", request, kind)
		}
		if rest, _ := io.ReadAll(r.Body); !bytes.Equal(rest, data) {
			t.Fatalf("consumed: %d of %d bytes left", len(rest), len(data))
		}
		if kind == rpcRequest {
			var m map[string]json.RawMessage
			head := data[:min(len(data), rpcPeekBytes)]
			if json.Unmarshal(data, &m) == nil && (m["id"] == nil || m["method"] == nil) && bytes.Equal(head, data) {
				t.Fatalf("a request without an id and a method: %q", data)
			}
		}
	})
}

func TestRPCKind(t *testing.T) {
	long := strings.Repeat("x", 2*rpcPeekBytes)
	for msg, want := range map[string]int{
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gcd_lcm"}}`:     rpcRequest,
		`{"jsonrpc":"2.0","method":"tools/call","id":"a","params":{"x":"` + long + `"}}`: rpcRequest,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:                         rpcNotification,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`:  rpcNotification,
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"` + long + `"}]}}`:        rpcResponse,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`:                rpcResponse,
		`{"jsonrpc":"2.0","params":{"x":"` + long + `"},"method":"m"}`:                   rpcUnknown,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`:                                     rpcUnknown,
		`{"jsonrpc":"2.0","id":`: rpcUnknown,
		`not json`:               rpcUnknown,
		``:                       rpcUnknown,
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp/sse?sessionid=x", strings.NewReader(msg))
		if got := isRequest(r); got != (want == rpcRequest) {
			t.Errorf("%.60s: isRequest %v, kind want %d", msg, got, want)
		}
		if got := rpcKind([]byte(msg)[:min(len(msg), rpcPeekBytes)]); got != want {
			t.Errorf("%.60s: kind %d, want %d", msg, got, want)
		}
		// Nothing is consumed: the SDK reads the whole message after it.
		if rest, _ := io.ReadAll(r.Body); string(rest) != msg {
			t.Errorf("%.60s: %d bytes left to read, want %d", msg, len(rest), len(msg))
		}
	}
}

// TestCoalescer: the first change is reported at once; a burst of changes
// within the interval is one run, scheduled for the interval's end. The
// interval is an hour, so that how long the burst takes does not matter; the
// scheduled run is then brought forward instead of waited for.
func TestCoalescer(t *testing.T) {
	runs := make(chan struct{}, 100)
	c := newCoalescer(time.Hour, func() { runs <- struct{}{} })
	c.trigger()
	<-runs // the first change is reported at once
	c.trigger()
	c.mu.Lock()
	scheduled := c.pending
	c.mu.Unlock()
	if scheduled == nil {
		t.Fatal("a change within the interval scheduled no run")
	}
	for i := 0; i < 1000; i++ {
		c.trigger()
	}
	c.mu.Lock()
	same := c.pending == scheduled
	c.mu.Unlock()
	if !same {
		t.Fatal("a burst of triggers scheduled more than one run")
	}
	select {
	case <-runs:
		t.Fatal("a change within the interval ran at once")
	default:
	}
	scheduled.Reset(0)
	<-runs // ...and the burst is reported once
	c.trigger()
	select {
	case <-runs:
		t.Fatal("a change right after a run ran at once")
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		t.Error("a change after the scheduled run was not scheduled in turn")
	}
}
