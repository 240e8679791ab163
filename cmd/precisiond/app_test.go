package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/fleetkey"
)

// openUnder lists this process's open file descriptors on dir or a path
// under it (Linux: /proc/self/fd).
func openUnder(t *testing.T, dir string) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	var out []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && (target == dir || strings.HasPrefix(target, dir+string(filepath.Separator))) {
			out = append(out, fd.Name()+" -> "+target)
		}
	}
	return out
}

// TestNewMainClosesWhatItOpenedOnError: a start that fails after the store
// was opened (here: on a broken tokens file, and on a download signing key
// too short, after the store and the tokens) leaves no file of the data
// directory open: NewMain closes the store and its monitor on the way out,
// as a successful start's Close does.
func TestNewMainClosesWhatItOpenedOnError(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if fds := openUnder(t, dir); len(fds) != 0 {
		t.Fatalf("open before the start: %v", fds)
	}
	// A successful start holds the store open until Close: the probe sees it.
	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir, cfg.IsolateTools = "127.0.0.1:0", dir, nil
	m, err := NewMain(cfg, newLogger(io.Discard, "error"))
	if err != nil {
		t.Fatal(err)
	}
	if fds := openUnder(t, dir); len(fds) == 0 {
		t.Fatal("a running Main holds nothing open in its data directory: the probe sees nothing")
	}
	m.Close()
	if fds := openUnder(t, dir); len(fds) != 0 {
		t.Fatalf("open after Close: %v", fds)
	}

	bad := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"nothex"}]}`)
	good := writeTokensFile(t, `{"tokens":[{"name":"a","sha256":"`+strings.Repeat("ab", 32)+`"}]}`)
	for name, set := range map[string]func(*Config){
		"broken tokens file":    func(c *Config) { c.Access.APITokens = bad },
		"short signing key":     func(c *Config) { c.Access.APITokens, c.Access.DownloadSigningKey = good, "short" },
		"missing --signing-key": func(c *Config) { c.Signing.KeyFile = filepath.Join(dir, "no-such-key.pem") },
	} {
		c := cfg
		set(&c)
		if _, err := NewMain(c, newLogger(io.Discard, "error")); err == nil {
			t.Fatalf("%s: the start succeeded", name)
		}
		if fds := openUnder(t, dir); len(fds) != 0 {
			t.Errorf("%s: after the failed start, still open: %v", name, fds)
		}
	}
}

// TestDamagedKeyringStopsTheStart: a keyring in the data directory that
// does not parse stops serve's start with an error naming it (no panic, no
// key of its own), and `precisiond call` on that directory too: only a
// state directory that cannot be created or read gives call an ephemeral
// key.
func TestDamagedKeyringStopsTheStart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, filepath.FromSlash(fleetkey.KeyringObject))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"format":"precisiond-keyring/1"`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir, cfg.IsolateTools = "127.0.0.1:0", dir, nil
	if _, err := NewMain(cfg, newLogger(io.Discard, "error")); err == nil || !strings.Contains(err.Error(), "keyring") {
		t.Fatalf("serve on a damaged keyring: %v", err)
	}
	var stdout, stderr bytes.Buffer
	env := map[string]string{"PRECISIOND_DATA_DIR": dir}
	code := run([]string{"call", "gcd_lcm", `{"a":391,"b":299}`}, strings.NewReader(""), &stdout, &stderr, func(k string) string { return env[k] })
	if code != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "keyring") || strings.Contains(stderr.String(), "ephemeral") {
		t.Fatalf("call on a damaged keyring: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
