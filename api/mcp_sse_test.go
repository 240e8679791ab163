package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
)

// openSSE opens a raw GET /mcp/sse and returns the response once the endpoint
// event arrived (or the refusal).
func openSSE(t *testing.T, url string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/mcp/sse", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	if resp.StatusCode == http.StatusOK {
		line, err := bufio.NewReader(resp.Body).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "event: endpoint") {
			t.Fatalf("first SSE line %q %v", line, err)
		}
	}
	return resp
}

// TestSSEStreamCap: beyond MaxSSEStreams a GET gets 503 overloaded with
// Retry-After, /health keeps answering, and a closed stream frees its place.
func TestSSEStreamCap(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{MaxSSEStreams: 3}, Options{})
	var open []*http.Response
	for i := 0; i < 3; i++ {
		open = append(open, openSSE(t, env.ts.URL))
		if open[i].StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %d", i, open[i].StatusCode)
		}
	}
	refused := openSSE(t, env.ts.URL)
	if refused.StatusCode != http.StatusServiceUnavailable || refused.Header.Get("Retry-After") == "" {
		t.Fatalf("fourth stream: %d (Retry-After %q)", refused.StatusCode, refused.Header.Get("Retry-After"))
	}
	var body map[string]any
	if err := json.NewDecoder(refused.Body).Decode(&body); err != nil || body["error_code"] != "overloaded" {
		t.Fatalf("refusal body %v %v", body, err)
	}
	testhttp.Get(t, env.ts.URL+"/health") // answers with the streams full
	open[0].Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp := openSSE(t, env.ts.URL)
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a closed stream never freed its place")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSSERefusedStreamClosesConnection: the 503 of a stream past the cap
// says Connection: close and the server closes the connection after it,
// instead of keeping it alive for the idle timeout.
func TestSSERefusedStreamClosesConnection(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{MaxSSEStreams: 1}, Options{})
	open := openSSE(t, env.ts.URL)
	if open.StatusCode != http.StatusOK {
		t.Fatalf("first stream: %d", open.StatusCode)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(env.ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The deadline only keeps a regression from hanging the test; the server
	// closes at once.
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	if _, err := io.WriteString(conn, "GET /mcp/sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || !resp.Close {
		t.Fatalf("refused stream: %d, Connection %q", resp.StatusCode, resp.Header.Get("Connection"))
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	if n, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("after the refusal the connection is still open (read %v, %v)", n, err)
	}
}

// TestSSEIdleStreamClosed: a session whose client sends nothing is closed after
// the idle timeout, while one that keeps calling stays open past it.
func TestSSEIdleStreamClosed(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{SSEIdleTimeout: 3 * time.Second}, Options{})
	idle := env.connect(t, "sse", nil)
	busy := env.connect(t, "sse", nil)
	idleDone := make(chan struct{})
	go func() { _ = idle.Wait(); close(idleDone) }()
	stop := time.Now().Add(7 * time.Second)
	for time.Now().Before(stop) {
		if testing.Short() {
			select {
			case <-idleDone: // one more call shows the busy session outlived the idle one; the full run keeps calling for 7 s
				stop = time.Now()
			default:
			}
		}
		res, err := busy.CallTool(ctxT(t), &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 4, "b": 6}})
		if err != nil || res.IsError {
			t.Fatalf("an active session was cut: %v %v", err, res)
		}
		time.Sleep(200 * time.Millisecond)
	}
	waitSignal(t, idleDone, "end of the idle SSE session")
}

// TestSSEWaitingSessionIsNotIdle: a session whose request is still being
// answered is not idle, however long the answer takes. Over the SSE transport
// the POST returns at once and the answer comes later on the stream; the call
// here (behave's hold mode) is held well past the idle timeout, so the session
// would be cut while it waits if only POSTs counted. The timeout is long
// enough for the client's messages before the call to come within it on a
// loaded machine; the call is held until the test releases it.
func TestSSEWaitingSessionIsNotIdle(t *testing.T) {
	const idle = 2 * time.Second
	_, reg := newTestServerWith(t, nil, newBufLogger(&syncBuf{})) // its registry, with behave
	store := newDownloadStore(t, "")
	srv := New(reg, Options{MCP: &mcpserver.Options{Files: store, SSEIdleTimeout: idle}})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	env := &mcpEnv{ts: ts, srv: srv, reg: reg, store: store}
	g := &gate{entered: make(chan struct{}, 1), release: make(chan struct{})}
	holdGate.Store(g)
	cs := env.connect(t, "sse", nil)
	answered := make(chan error, 1)
	go func() {
		res, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "behave", Arguments: map[string]any{"mode": "hold"}})
		if err == nil && res.IsError {
			err = fmt.Errorf("error result %+v", res.StructuredContent)
		}
		answered <- err
	}()
	<-g.entered
	time.Sleep(idle * 5 / 2) // the session waits on its answer past the idle timeout
	close(g.release)
	if err := <-answered; err != nil {
		t.Fatalf("the session was cut while its call was being answered: %v", err)
	}
	// Once answered and quiet, it is idle again and ends.
	done := make(chan struct{})
	go func() { _ = cs.Wait(); close(done) }()
	waitSignal(t, done, "end of the idle SSE session after its answer")
}

// TestSSEMaxLifetime: even an active session ends after the lifetime limit.
func TestSSEMaxLifetime(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{SSEMaxLifetime: 500 * time.Millisecond}, Options{})
	cs := env.connect(t, "sse", nil)
	done := make(chan struct{})
	go func() { _ = cs.Wait(); close(done) }()
	for {
		select {
		case <-done:
			return
		case <-time.After(100 * time.Millisecond):
		}
		_, _ = cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "gcd_lcm", Arguments: map[string]any{"a": 4, "b": 6}})
		if t.Failed() {
			return
		}
	}
}

// TestListChangedCoalesced: many generate_file calls (which anyone may make)
// send one resources/list_changed per interval to a connected session, not one
// per call.
func TestListChangedCoalesced(t *testing.T) {
	env := newMCPEnv(t, mcpserver.Options{ListChangedInterval: time.Hour}, Options{})
	var notes atomic.Int32
	first := make(chan struct{}, 1)
	listener := env.connect(t, "sse", &mcp.ClientOptions{ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
		notes.Add(1)
		select {
		case first <- struct{}{}:
		default:
		}
	}})
	_ = listener
	caller := env.connect(t, "streamable", nil)
	for i := 0; i < 20; i++ {
		res, err := caller.CallTool(ctxT(t), &mcp.CallToolParams{Name: "generate_file",
			Arguments: map[string]any{"content": "# n " + strings.Repeat("x", i), "filename": "f", "format": "md"}})
		if err != nil || res.IsError {
			t.Fatalf("generate_file: %v %v", err, res)
		}
		// Spaced beyond the SDK's own 10 ms debounce, which alone would send
		// one notification per call.
		time.Sleep(30 * time.Millisecond)
	}
	waitSignal(t, first, "the first resources/list_changed")
	time.Sleep(500 * time.Millisecond)
	if n := notes.Load(); n != 1 {
		t.Errorf("%d notifications for 20 calls within one interval, want 1", n)
	}
}
