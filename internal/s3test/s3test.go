// Package s3test runs a real S3 server for tests: Versity Gateway
// (github.com/versity/versitygw, Apache-2.0), started per test on a free
// loopback port over a temporary directory, one bucket ready. Every test that
// needs S3 (the blob store, the download store, the toggles, the plans, the
// multi-replica end-to-end test) starts its server here, so no test stands in a
// mock for S3. .ci/run installs the binary with
//
//	go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
//
// Without it the S3 tests skip on a developer machine and FAIL under CI=true,
// so CI never counts a missing check as passed.
//
// The package does not import the store it helps to test (internal/blob's own
// tests use it too): it hands out the endpoint, the AWS variables and fresh
// prefixes.
package s3test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/gobin"
)

// Credentials and bucket of every server this package starts.
const (
	Access = "precisiondtest"
	Secret = "precisiond-test-secret-key"
	Bucket = "fleet"
)

// Install is the command that installs the server.
const Install = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// Binary finds versitygw on PATH, in $GOBIN or in $GOPATH/bin. Without it the
// test is skipped, or fails when CI=true. With -short every S3 test is skipped:
// each starts its own server, and several wait out store timeouts.
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: S3 test against a Versity Gateway process; runs without -short")
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	if p := gobin.Find("versitygw"); p != "" {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("versitygw is not installed (not on PATH, in $GOBIN or $GOPATH/bin); CI must run: %s", Install)
	}
	t.Skipf("SKIPPING the S3 tests: versitygw is not installed; run `%s` to test against a real S3 server", Install)
	return ""
}

// Server is one running Versity Gateway with an empty bucket named Bucket.
type Server struct {
	// Endpoint is the server's base URL, http://127.0.0.1:PORT.
	Endpoint string
	// Dir holds the bucket (a directory) and the server's log.
	Dir string
	log string

	mu     sync.Mutex
	cmd    *exec.Cmd
	paused bool
}

// Start starts versitygw on a free loopback port over a new temporary
// directory holding the bucket, and waits until it answers. The process is
// killed when the test ends (and with the test binary: Pdeathsig).
//
// versitygw takes a concrete port and does not report one it was given as 0,
// so the port is one the kernel just handed out and released: another process
// may take it first. Then versitygw logs "address already in use" and is
// started again on another port.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, Bucket), 0o750); err != nil {
		t.Fatal(err)
	}
	s := &Server{Dir: dir, log: filepath.Join(dir, "versitygw.log")}
	t.Cleanup(s.Stop)
	for attempt := 1; ; attempt++ {
		if s.start(t, bin) {
			return s
		}
		if attempt == 3 {
			log, _ := os.ReadFile(s.log)
			t.Fatalf("versitygw found its port taken %d times:\n%s", attempt, log)
		}
		s.Stop()
	}
}

// start starts versitygw on a port just released and waits until it answers
// (true) or logs that the port was taken meanwhile (false).
func (s *Server) start(t testing.TB, bin string) bool {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	s.Endpoint = "http://" + addr
	logf, err := os.Create(s.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, "--access", Access, "--secret", Secret, "--port", addr, "posix", s.Dir)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.cmd = cmd
	s.mu.Unlock()
	// Ready when it answers HTTP (an unsigned request gets 403). The bound only
	// keeps a broken start from hanging the test; it is not a measurement.
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := client.Get(s.Endpoint + "/")
		if err == nil {
			_ = resp.Body.Close()
			return true
		}
		log, _ := os.ReadFile(s.log)
		if bytes.Contains(log, []byte("address already in use")) {
			return false
		}
		if time.Now().After(deadline) {
			t.Fatalf("versitygw did not answer on %s: %v\n%s", addr, err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *Server) signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		t.Fatal("s3test: the server was stopped")
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	s.paused = sig == syscall.SIGSTOP
}

// Pause freezes the server (SIGSTOP): the kernel still accepts connections,
// nothing answers. It returns once every thread of the server has stopped
// (the signal is delivered asynchronously).
func (s *Server) Pause(t testing.TB) {
	t.Helper()
	s.signal(t, syscall.SIGSTOP)
	pid := s.cmd.Process.Pid
	for deadline := time.Now().Add(30 * time.Second); !allStopped(pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("s3test: versitygw (pid %d) did not stop after SIGSTOP", pid)
		}
	}
}

// allStopped reports whether every thread of pid is in state T (stopped).
func allStopped(pid int) bool {
	tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "stat"))
	if err != nil || len(tasks) == 0 {
		return false
	}
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			return false
		}
		// "pid (comm) S ...": the state follows the last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+2 >= len(b) || b[i+2] != 'T' {
			return false
		}
	}
	return true
}

// Resume undoes Pause (SIGCONT).
func (s *Server) Resume(t testing.TB) { s.signal(t, syscall.SIGCONT) }

// Stop kills the server and waits for it; calling it again is a no-op.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	if s.paused {
		_ = s.cmd.Process.Signal(syscall.SIGCONT)
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Env is the AWS environment pointing at this server.
func (s *Server) Env() map[string]string {
	return map[string]string{
		"AWS_ENDPOINT_URL":      s.Endpoint,
		"AWS_ACCESS_KEY_ID":     Access,
		"AWS_SECRET_ACCESS_KEY": Secret,
		"AWS_REGION":            "us-east-1",
	}
}

// Getenv reads Env, for blob.Options.Getenv.
func (s *Server) Getenv(k string) string { return s.Env()[k] }

// Environ is os.Environ with Env added, for a subprocess.
func (s *Server) Environ() []string {
	env := os.Environ()
	for k, v := range s.Env() {
		env = append(env, k+"="+v)
	}
	return env
}

// Prefix is a fresh, empty key prefix in the bucket ("t-<12 hex>").
func Prefix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "t-" + hex.EncodeToString(b[:])
}

// Location is a --store value for a fresh, empty prefix in the bucket.
func (s *Server) Location() string { return "s3://" + Bucket + "/" + Prefix() }
