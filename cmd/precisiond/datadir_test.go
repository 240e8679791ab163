package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/mcpserver"
)

// TestStateDir: the per-user state directory is $XDG_STATE_HOME/precisiond
// (an absolute XDG_STATE_HOME only, as the XDG spec says), else
// $HOME/.local/state/precisiond, else ./data; serve keeps ./data.
func TestStateDir(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/x/state", "HOME": "/home/u"}, "/x/state/precisiond"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/home/u"}, "/home/u/.local/state/precisiond"},
		{map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/precisiond"},
		{map[string]string{}, "./data"},
	} {
		getenv := func(k string) string { return c.env[k] }
		for _, cmd := range []string{"mcp", "call", "tools"} {
			if cfg, _, err := loadConfig(cmd, nil, getenv); err != nil || cfg.DataDir != c.want {
				t.Errorf("%s with %v: data dir %q (%v), want %q", cmd, c.env, cfg.DataDir, err, c.want)
			}
		}
		if cfg, _, _ := loadConfig("serve", nil, getenv); cfg.DataDir != "./data" {
			t.Errorf("serve with %v: data dir %q, want ./data", c.env, cfg.DataDir)
		}
	}
	env := map[string]string{"HOME": "/home/u", "PRECISIOND_DATA_DIR": "/srv/p"}
	if cfg, _, _ := loadConfig("call", nil, func(k string) string { return env[k] }); cfg.DataDir != "/srv/p" {
		t.Errorf("PRECISIOND_DATA_DIR does not win over the state directory: %q", cfg.DataDir)
	}
}

// TestCallAndMCPWriteNothing: `precisiond call` and `precisiond mcp` started
// as a desktop client starts them (working directory / or an empty
// directory, HOME a fresh directory, no PRECISIOND_DATA_DIR) answer, and
// create no file or directory anywhere until generate_file stores a file,
// which then lands in the state directory and nowhere else.
func TestCallAndMCPWriteNothing(t *testing.T) {
	bin := buildBinary(t)
	home, cwd, xdg := t.TempDir(), t.TempDir(), t.TempDir()
	env := cleanEnv("HOME=" + home)
	_, rootDataBefore := os.Stat("/data")

	for _, dir := range []string{cwd, "/"} {
		call := exec.Command(bin, "call", "gcd_lcm", `{"a":391,"b":299}`)
		call.Dir, call.Env = dir, env
		if out, err := call.Output(); err != nil || !strings.Contains(string(out), `"lcm":5083`) {
			t.Fatalf("call in %s: %v %s", dir, err, out)
		}
		replies := mcpSession(t, bin, dir, env, `{"name":"gcd_lcm","arguments":{"a":391,"b":299}}`,
			`{"name":"unit_convert","arguments":{"value":1,"from_unit":"mile","to_unit":"km"}}`)
		for _, r := range replies {
			if r["isError"] == true {
				t.Errorf("mcp in %s: %v", dir, r)
			}
		}
	}
	if entries := entriesUnder(t, home); len(entries) != 0 {
		t.Errorf("call and mcp created %v under HOME", entries)
	}
	if entries := entriesUnder(t, cwd); len(entries) != 0 {
		t.Errorf("call and mcp created %v in their working directory", entries)
	}
	if _, err := os.Stat("/data"); err == nil && rootDataBefore != nil {
		t.Errorf("call or mcp created /data")
	}

	// generate_file through call: the file is in ~/.local/state/precisiond.
	gen := exec.Command(bin, "call", "generate_file", `{"content":"# Hi","format":"md","filename":"hi"}`)
	gen.Dir, gen.Env = cwd, env
	out, err := gen.Output()
	if err != nil {
		t.Fatalf("generate_file: %v %s", err, out)
	}
	v, _ := evidence.ParseJSON(out)
	name := v.(map[string]any)["structured_result"].(map[string]any)["facts"].(map[string]any)["filename"].(string)
	if entries := storeEntries(entriesUnder(t, home)); len(entries) != 5 || entries[4] != filepath.Join(".local", "state", "precisiond", "downloads", name) {
		t.Errorf("after generate_file, HOME holds %v, want the state directory and downloads/%s", entries, name)
	}
	if entries := entriesUnder(t, cwd); len(entries) != 0 {
		t.Errorf("generate_file wrote %v into the working directory", entries)
	}

	// generate_file through mcp (an isolated tool: a worker writes it), with
	// XDG_STATE_HOME set.
	xenv := cleanEnv("HOME="+home, "XDG_STATE_HOME="+xdg)
	replies := mcpSession(t, bin, cwd, xenv, `{"name":"generate_file","arguments":{"content":"# Hi","format":"txt","filename":"hi"}}`)
	sc, _ := replies[0]["structuredContent"].(map[string]any)
	facts, _ := sc["facts"].(map[string]any)
	name, _ = facts["filename"].(string)
	if entries := storeEntries(entriesUnder(t, xdg)); name == "" || len(entries) != 3 || entries[2] != filepath.Join("precisiond", "downloads", name) {
		t.Errorf("mcp generate_file: XDG_STATE_HOME holds %v (reply %v)", entries, replies[0])
	}
}

// cleanEnv is the test process's environment without precisiond's settings,
// HOME and XDG_STATE_HOME, plus extra.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PRECISIOND_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// storeEntries drops the store's own directory (.blob: its temporary files
// and write locks, created with the first stored file) from a listing.
func storeEntries(entries []string) []string {
	var out []string
	for _, e := range entries {
		if !slices.Contains(strings.Split(e, string(filepath.Separator)), ".blob") {
			out = append(out, e)
		}
	}
	return out
}

// entriesUnder lists every file and directory below dir, sorted (relative).
func entriesUnder(t *testing.T, dir string) []string {
	t.Helper()
	return pathsUnder(t, dir, true)
}

// startMCPStdio starts `precisiond mcp args…` in dir (empty: this one) with
// env (nil: this process's) and returns it with its pipes; it is killed when
// the test ends.
func startMCPStdio(t *testing.T, bin, dir string, env []string, args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, stdin, stdout, stderr
}

// mcpSession runs `precisiond mcp` in dir with env, initializes, sends one
// tools/call per params, closes stdin and returns the call results in order.
func mcpSession(t *testing.T, bin, dir string, env []string, params ...string) []map[string]any {
	t.Helper()
	var in bytes.Buffer
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i, p := range params {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", i+1, p)
	}
	cmd, stdin, stdout, stderr := startMCPStdio(t, bin, dir, env)
	go func() { _, _ = stdin.Write(in.Bytes()) }()
	results := make([]map[string]any, len(params))
	got := 0
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for got < len(params) && sc.Scan() {
		v, err := evidence.ParseJSON(sc.Bytes())
		msg, _ := v.(map[string]any)
		if err != nil || msg == nil {
			t.Fatalf("mcp stdout: %q", sc.Text())
		}
		id, ok := msg["id"].(json.Number)
		if !ok || id == "0" {
			continue
		}
		var n int
		fmt.Sscan(id.String(), &n)
		res, _ := msg["result"].(map[string]any)
		if res == nil {
			res = map[string]any{"isError": true, "jsonrpc_error": msg["error"]}
		}
		results[n-1] = res
		got++
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil || got < len(params) {
		t.Fatalf("mcp in %s: %v, %d of %d answers\n%s", dir, err, got, len(params), stderr.String())
	}
	return results
}

// TestCallAndMCPWithoutAStateDirectory: where no state directory can be
// created (HOME, XDG_STATE_HOME or --data-dir below a regular file, which
// stops even root), `precisiond call` and `precisiond mcp` still answer,
// signed, and say on stderr that attestations use an ephemeral key; they
// create nothing.
func TestCallAndMCPWithoutAStateDirectory(t *testing.T) {
	bin := buildBinary(t)
	base := t.TempDir()
	blocker := filepath.Join(base, "file")
	if err := os.WriteFile(blocker, []byte("not a directory\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, env := range map[string][]string{
		"HOME is a file":                cleanEnv("HOME=" + blocker),
		"XDG_STATE_HOME below a file":   cleanEnv("HOME="+blocker, "XDG_STATE_HOME="+filepath.Join(blocker, "state")),
		"PRECISIOND_DATA_DIR in a file": cleanEnv("HOME="+base, "PRECISIOND_DATA_DIR="+filepath.Join(blocker, "data")),
	} {
		call := exec.Command(bin, "call", "gcd_lcm", `{"a":391,"b":299}`)
		call.Dir, call.Env = base, env
		var stderr bytes.Buffer
		call.Stderr = &stderr
		out, err := call.Output()
		if err != nil || !strings.Contains(string(out), `"lcm":5083`) || !strings.Contains(string(out), `"attestation":"`) {
			t.Fatalf("%s: call: %v\n%s\n%s", name, err, out, stderr.String())
		}
		if !strings.Contains(stderr.String(), "attestations use an ephemeral key") {
			t.Errorf("%s: call warns %q, want that attestations use an ephemeral key", name, stderr.String())
		}

		cmd, stdin, stdout, mcpErr := startMCPStdio(t, bin, base, env)
		_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n"+
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":391,"b":299}}}`+"\n")
		var answer map[string]any
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for answer == nil && sc.Scan() {
			v, _ := evidence.ParseJSON(sc.Bytes())
			if msg, _ := v.(map[string]any); msg != nil && msg["id"] == json.Number("1") {
				answer = msg
			}
		}
		stdin.Close()
		if err := cmd.Wait(); err != nil || answer == nil {
			t.Fatalf("%s: mcp: %v, answer %v\n%s", name, err, answer, mcpErr.String())
		}
		res, _ := answer["result"].(map[string]any)
		meta, _ := res["_meta"].(map[string]any)
		if res == nil || res["isError"] == true || meta[mcpserver.MetaAttestation] == nil {
			t.Errorf("%s: mcp answered %v", name, answer)
		}
		if !strings.Contains(mcpErr.String(), "attestations use an ephemeral key") {
			t.Errorf("%s: mcp warns %q, want that attestations use an ephemeral key", name, mcpErr.String())
		}
	}
	if entries := entriesUnder(t, base); len(entries) != 1 || entries[0] != "file" {
		t.Errorf("call and mcp created %v", entries)
	}
}
