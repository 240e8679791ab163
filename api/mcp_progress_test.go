package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/tools"
)

// blocker is a test tool that reports progress, says it has started and then
// waits for release or the end of its context, and says it has stopped: the
// tests synchronise on these events, never on time.
type blocker struct {
	started, stopped chan struct{}
	release          chan struct{}
}

func newBlocker(t *testing.T) (*blocker, tools.Tool) {
	t.Helper()
	c, err := contracts.Parse([]byte(strings.Replace(sleeperContract, `"tool": "sleeper"`, `"tool": "blocker"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	b := &blocker{started: make(chan struct{}, 64), stopped: make(chan struct{}, 64), release: make(chan struct{})}
	return b, tools.Tool{Contract: c, Execute: func(ctx context.Context, args map[string]any) (tools.Output, error) {
		defer func() { b.stopped <- struct{}{} }()
		tools.ReportProgress(ctx, 1, 2, "blocked")
		b.started <- struct{}{}
		select {
		case <-b.release:
		case <-ctx.Done():
			return tools.Output{}, ctx.Err()
		}
		return tools.Output{Facts: map[string]any{"ms": args["ms"]}, Text: "0", Warnings: []tools.Warning{}}, nil
	}}
}

// progressEnv serves the built-in tools, the blocker and the sleeper with one
// concurrency slot (queue wait one minute): a call succeeds after a
// cancelled one only if the cancelled one freed its slot.
type progressEnv struct {
	ts  *httptest.Server
	reg *tools.Registry
	b   *blocker
}

func newProgressEnv(t *testing.T, sdkOnly bool) *progressEnv {
	t.Helper()
	b, bt := newBlocker(t)
	reg := tools.NewRegistry(append(tools.Builtin(tools.Deps{}), bt, newSleeper(t)),
		tools.Options{Limiter: tools.NewLimiter(1, time.Minute, nil), DefaultTimeout: 2 * time.Minute})
	srv := New(reg, Options{MCP: &mcpserver.Options{SDKOnly: sdkOnly}})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(b.release) })
	return &progressEnv{ts: ts, reg: reg, b: b}
}

// wait receives from ch or fails after a generous deadline.
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not happen within a minute", what)
	}
}

// slotFree checks that the one slot is free: a call needing it succeeds.
func (e *progressEnv) slotFree(t *testing.T) {
	t.Helper()
	if _, err := e.reg.Call(context.Background(), "sleeper", []byte(`{"ms":0}`), ""); err != nil {
		t.Fatalf("the slot was not freed: %v", err)
	}
}

func (e *progressEnv) connect(t *testing.T, kind string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	var tr mcp.Transport
	switch kind {
	case "streamable":
		tr = &mcp.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp", MaxRetries: -1}
	case "sse":
		tr = &mcp.SSEClientTransport{Endpoint: e.ts.URL + "/mcp/sse"}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "progress-test", Version: "1"}, opts).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestMCPProgress: a tools/call with a progressToken gets
// notifications/progress before its result, on Streamable HTTP (stateless:
// answered as an SSE stream; fast path on and off) and legacy SSE.
func TestMCPProgress(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		sdkOnly bool
	}{{"streamable", false}, {"streamable", true}, {"sse", false}} {
		t.Run(fmt.Sprintf("%s/sdkOnly=%v", tc.kind, tc.sdkOnly), func(t *testing.T) {
			e := newProgressEnv(t, tc.sdkOnly)
			got := make(chan *mcp.ProgressNotificationParams, 16)
			cs := e.connect(t, tc.kind, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
				got <- r.Params
			}})
			res := make(chan error, 1)
			go func() {
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "blocker", Arguments: map[string]any{},
					Meta: mcp.Meta{"progressToken": "tok-1"}})
				if err == nil && r.IsError {
					err = fmt.Errorf("isError: %v", r.Content)
				}
				res <- err
			}()
			select {
			case p := <-got:
				if p.ProgressToken != "tok-1" || p.Progress != 1 || p.Total != 2 || p.Message != "blocked" {
					t.Fatalf("progress %+v", p)
				}
			case err := <-res:
				t.Fatalf("the call ended before any progress: %v", err)
			case <-time.After(time.Minute):
				t.Fatal("no progress within a minute")
			}
			e.b.release <- struct{}{}
			select {
			case err := <-res:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(time.Minute):
				t.Fatal("no result within a minute")
			}
		})
	}
}

// TestMCPNoProgressWithoutToken: without a progressToken the stateless answer
// stays JSON and no notification is sent.
func TestMCPNoProgressWithoutToken(t *testing.T) {
	e := newProgressEnv(t, false)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":4,"b":6}}}`
	resp := postMCPCtx(t, context.Background(), e.ts.URL, body)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
}

func postMCPCtx(t *testing.T, ctx context.Context, base, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestMCPCancelledStateless: on stateless Streamable HTTP a
// notifications/cancelled POST naming a call in flight ends the call's
// context; its POST is answered and the slot is free (fast path and SDK).
func TestMCPCancelledStateless(t *testing.T) {
	for _, sdkOnly := range []bool{false, true} {
		for _, id := range []string{`7`, `"call-7"`} {
			t.Run(fmt.Sprintf("sdkOnly=%v/id=%s", sdkOnly, id), func(t *testing.T) {
				e := newProgressEnv(t, sdkOnly)
				answer := make(chan string, 1)
				go func() {
					resp := postMCPCtx(t, context.Background(), e.ts.URL,
						`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"blocker","arguments":{}}}`)
					defer resp.Body.Close()
					b, _ := io.ReadAll(resp.Body)
					answer <- string(b)
				}()
				wait(t, e.b.started, "the call's start")
				// Another id cancels nothing.
				resp := postMCPCtx(t, context.Background(), e.ts.URL, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}`)
				resp.Body.Close()
				resp = postMCPCtx(t, context.Background(), e.ts.URL, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`,"reason":"test"}}`)
				resp.Body.Close()
				if resp.StatusCode != http.StatusAccepted {
					t.Fatalf("notifications/cancelled: HTTP %d", resp.StatusCode)
				}
				wait(t, e.b.stopped, "the call's stop")
				select {
				case a := <-answer:
					// The spec lets a cancelled request go unanswered (the SDK
					// writes nothing); the fast path answers it as canceled.
					if (a != "" || !sdkOnly) && !strings.Contains(a, `"reason":"canceled"`) {
						t.Fatalf("answer of the cancelled call: %s", a)
					}
				case <-time.After(time.Minute):
					t.Fatal("the cancelled call was not answered")
				}
				e.slotFree(t)
			})
		}
	}
}

// TestMCPDisconnectCancels: a client that closes its connection (stateless
// Streamable HTTP, fast path and SDK; REST /invoke) ends the call's context
// and frees the slot.
func TestMCPDisconnectCancels(t *testing.T) {
	cases := []struct {
		name, path, body string
		sdkOnly          bool
	}{
		{"mcp fast", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"blocker","arguments":{}}}`, false},
		{"mcp sdk", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"blocker","arguments":{}}}`, true},
		{"mcp sse stream", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"blocker","arguments":{},"_meta":{"progressToken":1}}}`, false},
		{"rest", "/invoke", `{"tool":"blocker","args":{}}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newProgressEnv(t, tc.sdkOnly)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.ts.URL+tc.path, strings.NewReader(tc.body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				if resp, err := http.DefaultClient.Do(req); err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}()
			wait(t, e.b.started, "the call's start")
			cancel() // closes the connection
			wait(t, e.b.stopped, "the call's stop")
			<-done
			e.slotFree(t)
		})
	}
}

// TestMCPCancelSession: on legacy SSE a client's cancellation
// (notifications/cancelled, sent by the go-sdk client when the call's
// context ends) stops the work and frees the slot.
func TestMCPCancelSession(t *testing.T) {
	for _, kind := range []string{"sse", "streamable"} {
		t.Run(kind, func(t *testing.T) {
			e := newProgressEnv(t, false)
			cs := e.connect(t, kind, nil)
			ctx, cancel := context.WithCancel(context.Background())
			res := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "blocker", Arguments: map[string]any{}})
				res <- err
			}()
			wait(t, e.b.started, "the call's start")
			cancel()
			wait(t, e.b.stopped, "the call's stop")
			select {
			case err := <-res:
				if err == nil {
					t.Fatal("a cancelled call returned no error to the client")
				}
			case <-time.After(time.Minute):
				t.Fatal("the client's call did not return")
			}
			e.slotFree(t)
		})
	}
}

// TestStdioProgressAndCancel: on stdio a call with a progressToken gets
// notifications/progress, and notifications/cancelled stops a call and frees
// its slot (the cancelled request gets no answer, as the spec allows).
func TestStdioProgressAndCancel(t *testing.T) {
	b, bt := newBlocker(t)
	defer close(b.release)
	reg := tools.NewRegistry(append(tools.Builtin(tools.Deps{}), bt, newSleeper(t)),
		tools.Options{Limiter: tools.NewLimiter(1, time.Minute, nil), DefaultTimeout: 2 * time.Minute})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() {
		mcpserver.ServeStdio(ctx, reg, mcpserver.Options{}, inR, outW)
		outW.Close()
	}()
	lines := make(chan map[string]any, 64)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				lines <- m
			}
		}
		close(lines)
	}()
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func(pred func(map[string]any) bool, what string) map[string]any {
		t.Helper()
		deadline := time.After(time.Minute)
		for {
			select {
			case m, ok := <-lines:
				if !ok {
					t.Fatalf("stdout ended before %s", what)
				}
				if pred(m) {
					return m
				}
			case <-deadline:
				t.Fatalf("no %s within a minute", what)
			}
		}
	}
	send(strings.TrimSpace(stdioInit))
	send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"blocker","arguments":{},"_meta":{"progressToken":"p"}}}`)
	p := next(func(m map[string]any) bool { return m["method"] == "notifications/progress" }, "progress")
	if params := p["params"].(map[string]any); params["progressToken"] != "p" || params["progress"] != 1.0 || params["total"] != 2.0 {
		t.Fatalf("progress %v", p)
	}
	wait(t, b.started, "the call's start")
	b.release <- struct{}{}
	next(func(m map[string]any) bool { return m["id"] == 10.0 }, "answer to 10")
	wait(t, b.stopped, "the first call's stop")

	send(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"blocker","arguments":{}}}`)
	wait(t, b.started, "the second call's start")
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11}}`)
	wait(t, b.stopped, "the cancelled call's stop")
	if _, err := reg.Call(context.Background(), "sleeper", []byte(`{"ms":0}`), ""); err != nil {
		t.Fatalf("the slot was not freed: %v", err)
	}
	// The session still serves.
	send(`{"jsonrpc":"2.0","id":12,"method":"ping"}`)
	next(func(m map[string]any) bool { return m["id"] == 12.0 }, "answer to ping")
	inW.Close()
}
