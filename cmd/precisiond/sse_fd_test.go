package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/testhttp"
)

// TestRefusedSSEStreamsUnderFDLimit: the server runs with a 1 024-descriptor
// limit and 10 SSE streams at most; 1 100 more stream requests, from
// clients that never close their side, are each refused with 503 and
// Connection: close, and the server closes each connection (the client
// reads EOF) instead of holding it for the idle timeout, so /health keeps
// answering throughout (issue 34).
func TestRefusedSSEStreamsUnderFDLimit(t *testing.T) {
	addr, base := serveUnderFDLimit(t, "--max-sse-streams", "10")

	for range 10 { // the streams that fill the cap, held open
		resp, err := http.Get(base + "/mcp/sse")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("stream within the cap: %v %v", err, resp)
		}
		defer resp.Body.Close()
	}
	const refused, parallel = 1100, 32
	var wg sync.WaitGroup
	errs := make(chan error, refused)
	sem := make(chan struct{}, parallel)
	var failed atomic.Bool
	for i := range refused {
		if failed.Load() {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			err := refusedAndClosed(addr)
			if err != nil {
				failed.Store(true)
			}
			errs <- err
		}()
		if i%100 == 99 {
			testhttp.Get(t, base+"/health") // answers while the refusals go on
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	testhttp.Get(t, base+"/health")
}

// refusedAndClosed asks for a stream on a raw connection it never closes
// first, and checks that the answer is 503 with Connection: close and that
// the server then closes the connection. The deadline only turns a held
// connection into a failure instead of a hang.
func refusedAndClosed(addr string) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(testhttp.Timeout))
	if _, err := io.WriteString(c, "GET /mcp/sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"); err != nil {
		return err
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || !resp.Close {
		return fmt.Errorf("refused stream: status %d, Connection %q", resp.StatusCode, resp.Header.Get("Connection"))
	}
	// The server closes right after its answer; 10 s (against its 120 s
	// idle timeout) only bounds how long a regression takes to show.
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if b, err := br.ReadByte(); err != io.EOF {
		return fmt.Errorf("the connection stayed open after the refusal (read %v, %v)", b, err)
	}
	return nil
}

// TestIdleKeepAliveUnderFDLimit: the server runs with a 1 024-descriptor
// limit; 1 100 clients each make one keep-alive request and leave their
// connection idle, never closing it. The server closes the connections idle
// longest once a quarter of its descriptors are idle (internal/idleconns), so
// /health on a new connection answers every 100 clients and at the end;
// with the 120 s idle timeout alone, accept would run out of descriptors.
func TestIdleKeepAliveUnderFDLimit(t *testing.T) {
	addr, base := serveUnderFDLimit(t)

	for i := range 1100 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(testhttp.Timeout)) // bounds a regression, not a wait
		if _, err := io.WriteString(c, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusOK || resp.Close {
			t.Fatalf("client %d: keep-alive /health: %v %v", i, err, resp)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if i%100 == 99 {
			testhttp.Get(t, base+"/health") // a new connection is still accepted
		}
	}
	testhttp.Get(t, base+"/health")
}

// serveUnderFDLimit starts the built binary's serve with a 1 024-descriptor
// limit (ulimit -n in sh) and flags, on a loopback port it picks itself; it
// returns the bound address and base URL once /health answers, and stops the
// server when the test ends.
func serveUnderFDLimit(t *testing.T, flags ...string) (addr, base string) {
	t.Helper()
	bin := buildBinary(t)
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to set the descriptor limit")
	}
	args := append([]string{"-c", `dir=$1; shift; ulimit -n 1024 && exec "$0" serve --addr 127.0.0.1:0 --data-dir "$dir" "$@"`, bin, t.TempDir()}, flags...)
	srv := exec.Command("sh", args...)
	stderr := &testhttp.SyncBuffer{}
	srv.Stderr = stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	addr = testhttp.ListenAddr(t, stderr)
	base = "http://" + addr
	testhttp.WaitUp(t, base, stderr)
	return addr, base
}
