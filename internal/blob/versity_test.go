package blob

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"go/build"
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
)

// The S3 tests run against a real S3 server, Versity Gateway
// (github.com/versity/versitygw, Apache-2.0), started per test on a free
// loopback port over a temporary directory. .ci/run installs it with
//
//	go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
//
// Without the binary the S3 tests skip on a developer machine and FAIL under
// CI=true, so CI never counts a missing check as passed.

const (
	versityAccess = "precisiondtest"
	versitySecret = "precisiond-test-secret-key"
	versityBucket = "fleet"
)

// versityBinary finds versitygw on PATH, in $GOBIN or in $GOPATH/bin.
func versityBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	for _, gp := range filepath.SplitList(build.Default.GOPATH) {
		dirs = append(dirs, filepath.Join(gp, "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "versitygw")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	const install = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"
	if os.Getenv("CI") == "true" {
		t.Fatalf("versitygw is not installed (not on PATH, in $GOBIN or $GOPATH/bin); CI must run: %s", install)
	}
	t.Skipf("SKIPPING the S3 tests: versitygw is not installed; run `%s` to test the S3 store against a real server", install)
	return ""
}

// versity is one running Versity Gateway with an empty bucket.
type versity struct {
	endpoint string
	dir      string
	log      string

	mu     sync.Mutex
	cmd    *exec.Cmd
	paused bool
}

// startVersity starts versitygw on a free loopback port over a new temporary
// directory holding the bucket, and waits until it answers. The process is
// killed when the test ends (and with the test binary: Pdeathsig).
func startVersity(t *testing.T) *versity {
	t.Helper()
	bin := versityBinary(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, versityBucket), 0o750); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	v := &versity{endpoint: "http://" + addr, dir: dir, log: filepath.Join(dir, "versitygw.log")}
	logf, err := os.Create(v.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, "--access", versityAccess, "--secret", versitySecret, "--port", addr, "posix", dir)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	v.cmd = cmd
	t.Cleanup(v.stop)
	// Ready when it answers HTTP (an unsigned request gets 403). The bound only
	// keeps a broken start from hanging the test; it is not a measurement.
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := client.Get(v.endpoint + "/")
		if err == nil {
			_ = resp.Body.Close()
			return v
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(v.log)
			t.Fatalf("versitygw did not answer on %s: %v\n%s", addr, err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (v *versity) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	v.paused = sig == syscall.SIGSTOP
}

// pause freezes the server (SIGSTOP): the kernel still accepts connections,
// nothing answers.
func (v *versity) pause(t *testing.T) { v.signal(t, syscall.SIGSTOP) }

// resume undoes pause (SIGCONT).
func (v *versity) resume(t *testing.T) { v.signal(t, syscall.SIGCONT) }

// stop kills the server and waits for it; calling it again is a no-op.
func (v *versity) stop() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.cmd == nil {
		return
	}
	if v.paused {
		_ = v.cmd.Process.Signal(syscall.SIGCONT)
	}
	_ = v.cmd.Process.Kill()
	_ = v.cmd.Wait()
	v.cmd = nil
}

// env is the AWS environment pointing at this server.
func (v *versity) env() map[string]string {
	return map[string]string{
		"AWS_ENDPOINT_URL":      v.endpoint,
		"AWS_ACCESS_KEY_ID":     versityAccess,
		"AWS_SECRET_ACCESS_KEY": versitySecret,
		"AWS_REGION":            "us-east-1",
	}
}

// location is a fresh, empty prefix in the bucket.
func (v *versity) location() Location {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return Location{Kind: "s3", Bucket: versityBucket, Prefix: "t-" + hex.EncodeToString(b[:]) + "/"}
}

// open opens the store at loc through the same path the service takes (Open
// with the AWS variables).
func (v *versity) open(t *testing.T, loc Location, tm Timeouts) Store {
	t.Helper()
	env := v.env()
	s, err := Open(loc, Options{Getenv: func(k string) string { return env[k] }, Timeouts: tm})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// shortTimeouts keep the unavailable tests brief; what they assert is the
// error's kind, not how long it took.
var shortTimeouts = Timeouts{Op: time.Second, Dial: time.Second, IO: 2 * time.Second}

// testCtx bounds a test's store calls so a regression shows as a failure, not a
// hung test binary.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func itoa(i int) string { return strconv.Itoa(i) }
