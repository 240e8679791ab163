package idleconns

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestIdleConnsBoundedByBudget: a real server on loopback with room for 5
// idle keep-alive connections; 20 clients each make one request and keep
// their connection. Once all 20 have turned idle, 5 are still idle and the
// 15 idle longest were closed by the server: they read EOF, while the 5 kept
// answer a second request on the same connection.
func TestIdleConnsBoundedByBudget(t *testing.T) {
	const budget, clients = 5, 20
	ic := New(budget)
	turned := make(chan struct{}, 1000)
	ic.OnIdle = func() { turned <- struct{}{} }
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }))
	ts.Config.ConnState = ic.ConnState
	ts.Config.IdleTimeout = time.Hour // time alone would keep all 20
	ts.Start()
	defer ts.Close()

	get := func(c net.Conn, r *bufio.Reader) error {
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			return err
		}
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return err
	}
	conns := make([]net.Conn, clients)
	readers := make([]*bufio.Reader, clients)
	for i := range conns {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i], readers[i] = c, bufio.NewReader(c)
		if err := get(c, readers[i]); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		<-turned // its connection is idle now: the order of idleness is the order of clients
	}
	if n := ic.Idle(); n != budget {
		t.Fatalf("%d idle connections, want %d", n, budget)
	}
	for i, c := range conns[:clients-budget] {
		// The server closed it: the read ends with EOF (no deadline needed;
		// the test's own timeout bounds a broken build).
		if _, err := readers[i].ReadByte(); err != io.EOF {
			t.Fatalf("client %d (idle longest): read %v, want EOF", i, err)
		}
		_ = c
	}
	for i := clients - budget; i < clients; i++ {
		if err := get(conns[i], readers[i]); err != nil {
			t.Fatalf("client %d (kept): second request: %v", i, err)
		}
		<-turned
	}
}
