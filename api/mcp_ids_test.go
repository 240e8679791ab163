package api

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/surface"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/mcpserver"
	"github.com/precisiond/precisiond/plans"
)

// wantIDEcho checks that answer carries exactly the id text sent, and an
// error when the id is one of testhttp.RefusedIDs.
func wantIDEcho(t *testing.T, where, id, answer string) {
	t.Helper()
	if !strings.Contains(answer, `"id":`+id+`,`) {
		t.Errorf("%s: id %s: answer %s does not echo it", where, id, answer)
	}
	refused := strings.Contains(answer, `"error":{"code":-32600`)
	if want := slices.Contains(testhttp.RefusedIDs, id); refused != want {
		t.Errorf("%s: id %s: refused = %v, want %v (%s)", where, id, refused, want, answer)
	}
}

// TestIDsRoundTripOnEveryTransport: Streamable HTTP (/mcp and
// /mcp/compact, the fast path and the SDK's), legacy SSE and stdio answer
// an id exactly as sent, or refuse it with -32600 echoing it.
func TestIDsRoundTripOnEveryTransport(t *testing.T) {
	svc := plans.NewService(builtinRegistry(), plans.NewMemoryStore(0), plans.Options{ErrorBody: surface.PlanErrorBody(nil)})
	env := newMCPEnv(t, mcpserver.Options{}, Options{Plans: svc})
	ids := append(append([]string{}, testhttp.RefusedIDs...), testhttp.KeptIDs...)
	for _, path := range []string{"/mcp", "/mcp/compact"} {
		for _, version := range []string{"", "1999-01-01"} { // the second is not the fast path's
			for _, id := range ids {
				h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
				if version != "" {
					h["Mcp-Protocol-Version"] = version
				}
				r := testhttp.Do(t, "POST", env.ts.URL+path, h, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`))
				if version != "" && r.Status == http.StatusBadRequest && !slices.Contains(testhttp.RefusedIDs, id) {
					continue // the SDK refuses the version itself
				}
				wantIDEcho(t, fmt.Sprintf("POST %s (version %q)", path, version), id, string(r.Body))
			}
		}
	}

	// Legacy SSE: a refused id is answered on the POST (400); a kept one
	// on the stream.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, env.ts.URL+"/mcp/sse", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	stream := bufio.NewReader(resp.Body)
	var endpoint string
	for endpoint == "" {
		line, err := stream.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			endpoint = d
		}
	}
	post := func(body string) testhttp.Response {
		return testhttp.Do(t, "POST", env.ts.URL+endpoint, map[string]string{"Content-Type": "application/json"}, []byte(body))
	}
	post(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	nextData := func() string {
		for {
			line, err := stream.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if d, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
				return d
			}
		}
	}
	nextData() // the initialize answer
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, id := range testhttp.RefusedIDs {
		r := post(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if r.Status != http.StatusBadRequest {
			t.Errorf("SSE POST with id %s: %d", id, r.Status)
		}
		wantIDEcho(t, "SSE POST", id, string(r.Body))
	}
	for _, id := range testhttp.KeptIDs {
		if r := post(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`); r.Status != http.StatusAccepted {
			t.Fatalf("SSE POST with id %s: %d %s", id, r.Status, r.Body)
		}
		wantIDEcho(t, "SSE stream", id, nextData())
	}

	// stdio (not id 0: initialize uses it, and a ping with the id of a
	// request in progress is refused as a duplicate).
	ids = slices.DeleteFunc(ids, func(id string) bool { return id == "0" })
	var in strings.Builder
	in.WriteString(stdioInit)
	for _, id := range ids {
		in.WriteString(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` + "\n")
	}
	lines := rawStdio(t, in.String())
	if len(lines) != 1+len(ids) {
		t.Fatalf("stdio: %d answers to %d requests:\n%s", len(lines), 1+len(ids), strings.Join(lines, "\n"))
	}
	for _, id := range ids {
		found := false
		for _, l := range lines {
			if strings.Contains(l, `"id":`+id+`,`) {
				wantIDEcho(t, "stdio", id, l)
				found = true
			}
		}
		if !found {
			t.Errorf("stdio: no answer with id %s", id)
		}
	}
}

// rawStdio serves input (then EOF) and returns the output lines as sent.
func rawStdio(t *testing.T, input string) []string {
	t.Helper()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeStdio(context.Background(), builtinRegistry(), mcpserver.Options{}, strings.NewReader(input), pw)
		pw.Close()
	}()
	var out []string
	sc := bufio.NewScanner(pr)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := testhttp.Returned(t, done, "mcpserver.ServeStdio (after EOF)"); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStdioDuplicateIDs: 200 tools/call lines reusing one id, stdin held
// open: each gets an answer (a result, or -32600 while the id is in use);
// none vanishes.
func TestStdioDuplicateIDs(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeStdio(context.Background(), builtinRegistry(), mcpserver.Options{}, inR, outW)
		outW.Close()
	}()
	go func() {
		var b strings.Builder
		b.WriteString(stdioInit)
		for range 200 {
			b.WriteString(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":12,"b":18}}}` + "\n")
		}
		_, _ = io.WriteString(inW, b.String())
	}()
	// A missing answer would leave the reader waiting: a generous deadline
	// turns that into a failure naming the counts (it is no measure of speed).
	var results, refusals atomic.Int32
	read := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(outR)
		for results.Load()+refusals.Load() < 200 && sc.Scan() {
			l := sc.Text()
			switch {
			case !strings.Contains(l, `"id":7,`):
			case strings.Contains(l, `"result"`):
				results.Add(1)
			case strings.Contains(l, `"code":-32600`):
				refusals.Add(1)
			default:
				read <- fmt.Errorf("unexpected answer %s", l)
				return
			}
		}
		read <- nil
	}()
	select {
	case err := <-read:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testhttp.Timeout):
		t.Fatalf("200 calls with one id: only %d results and %d refusals arrived", results.Load(), refusals.Load())
	}
	if results.Load()+refusals.Load() != 200 || results.Load() == 0 {
		t.Fatalf("200 calls with one id: %d results, %d refusals", results.Load(), refusals.Load())
	}
	inW.Close()
	if err := testhttp.Returned(t, done, "mcpserver.ServeStdio (after EOF)"); err != nil {
		t.Fatal(err)
	}
}
