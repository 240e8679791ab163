// Package testhttp is the client side of the HTTP tests of api,
// cmd/precisiond and plans: one way to send a request to a real server on
// loopback, read its answer and encode what is sent or compared, instead of a
// copy per test file. Transport and encoding errors fail the test; statuses
// are the caller's to check.
package testhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
)

// Timeout bounds one request, so that a hung server fails its test instead of
// hanging the run.
const Timeout = 60 * time.Second

// Response is a server's answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends one request. Header values are set as given ("Host" sets the
// request's Host); empty values are left out.
func Do(t testing.TB, method, url string, header map[string]string, body []byte) Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		switch {
		case v == "":
		case k == "Host":
			req.Host = v
		default:
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// JSON decodes the body as a JSON object with exact numbers (json.Number),
// failing the test when it is not one.
func (r Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	v, err := evidence.ParseJSON(r.Body)
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		t.Fatalf("status %d, body is not a JSON object: %q", r.Status, r.Body)
	}
	return m
}

// OK fails the test unless the status is 200, and returns the body.
func (r Response) OK(t testing.TB) []byte {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	return r.Body
}

// Get sends a GET and returns the body of its 200 answer.
func Get(t testing.TB, url string) []byte {
	t.Helper()
	return Do(t, http.MethodGet, url, nil, nil).OK(t)
}

// GetJSON sends a GET and returns its 200 answer as a JSON object.
func GetJSON(t testing.TB, url string) map[string]any {
	t.Helper()
	r := Do(t, http.MethodGet, url, nil, nil)
	r.OK(t)
	return r.JSON(t)
}

// PostJSON posts body as application/json.
func PostJSON(t testing.TB, url string, body []byte) Response {
	t.Helper()
	return Do(t, http.MethodPost, url, map[string]string{"Content-Type": "application/json"}, body)
}

// Marshal encodes v with encoding/json (a request body, a value to compare).
func Marshal(t testing.TB, v any) []byte {
	t.Helper()
	return encode(t, json.Marshal, v)
}

// Canonical encodes v the way envelopes are hashed (evidence.Canonical).
func Canonical(t testing.TB, v any) []byte {
	t.Helper()
	return encode(t, evidence.Canonical, v)
}

func encode(t testing.TB, enc func(any) ([]byte, error), v any) []byte {
	t.Helper()
	b, err := enc(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// RefusedAddr returns a loopback address ("127.0.0.1:PORT") that refuses
// every connection until the test ends: for a store or server that does not
// answer. A socket bound to the port without listening holds it, so nothing
// else can listen there meanwhile (a port closed again could be taken by
// another process and answer).
func RefusedAddr(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	in4, ok := sa.(*syscall.SockaddrInet4)
	if !ok {
		t.Fatalf("bound to %T", sa)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(in4.Port))
}

// ListenAddr returns the address a `precisiond serve` started with --addr
// 127.0.0.1:0 bound, read from its "listening" log line (JSON, level info) in
// log, its stderr. It fails the test with the log when the line has not come
// within Timeout.
func ListenAddr(t testing.TB, log fmt.Stringer) string {
	t.Helper()
	for deadline := time.Now().Add(Timeout); ; time.Sleep(20 * time.Millisecond) {
		for _, line := range strings.Split(log.String(), "\n") {
			var l struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "listening" && l.Addr != "" {
				return l.Addr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not log its address: %s", log)
		}
	}
}

// WaitUp waits until the server at base answers GET /health (with any
// status), and fails the test with the server's log when it has not within
// Timeout.
func WaitUp(t testing.TB, base string, log fmt.Stringer) {
	t.Helper()
	for deadline := time.Now().Add(Timeout); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/health"); err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server at %s did not come up: %s", base, log)
		}
	}
}

// Returned waits for the error of something the test has stopped (a server's
// Run, a process's Wait) and returns it; when nothing arrives within Timeout
// the test fails with "<what> did not return".
func Returned(t testing.TB, done <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(Timeout):
		t.Fatalf("%s did not return", what)
		return nil
	}
}

// SyncBuffer is a bytes.Buffer that concurrent writers (a server's logger, a
// child process's stderr) may share with the test that reads it.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// String returns everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}
