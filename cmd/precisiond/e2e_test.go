package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/fleetkey"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// startMain runs the real wiring on 127.0.0.1:0 and returns its base URL.
func startMain(t *testing.T, mutate func(*Config)) (string, *Main) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	if mutate != nil {
		mutate(&cfg)
	}
	m, _ := launchMain(t, cfg, newLogger(io.Discard, "error"))
	return "http://" + m.Addr(), m
}

func getJSON(t *testing.T, url string) map[string]any {
	t.Helper()
	return testhttp.Do(t, http.MethodGet, url, nil, nil).JSON(t)
}

func invokeRaw(t *testing.T, base string, body []byte) []byte {
	t.Helper()
	return testhttp.PostJSON(t, base+"/invoke", body).OK(t)
}

// orchestratorCheck validates a response the way the replaced sidecar's client
// does, independently of evidence.Verify: identity fields equal to the catalogue
// entry, input_normalized = sent args + schema defaults (+ redaction), facts valid
// against the entry's outputSchema, non-empty source, warnings a list, and
// result_hash recomputed with canonical JSON.
func orchestratorCheck(t *testing.T, entry map[string]any, sent map[string]any, resp map[string]any) {
	t.Helper()
	sr, ok := resp["structured_result"].(map[string]any)
	if !ok {
		t.Fatalf("no structured_result: %v", resp)
	}
	if sr["status"] != "completed" {
		t.Errorf("status %v", sr["status"])
	}
	if sr["tool"] != entry["name"] || resp["tool"] != entry["name"] {
		t.Errorf("tool %v / %v, want %v", sr["tool"], resp["tool"], entry["name"])
	}
	for _, k := range []string{"contract_id", "contract_version", "contract_hash", "determinism"} {
		if sr[k] != entry[k] {
			t.Errorf("%s = %v, catalogue %v", k, sr[k], entry[k])
		}
	}
	// input_normalized: the sent args with top-level defaults applied, redacted.
	want := map[string]any{}
	for k, v := range sent {
		want[k] = v
	}
	props, _ := entry["inputSchema"].(map[string]any)["properties"].(map[string]any)
	for name, p := range props {
		if d, ok := p.(map[string]any)["default"]; ok {
			if _, present := want[name]; !present {
				want[name] = d
			}
		}
	}
	if ep, ok := entry["evidence_policy"].(map[string]any); ok {
		if fields, ok := ep["redact_input_fields"].([]any); ok {
			for _, f := range fields {
				if s, ok := want[f.(string)].(string); ok {
					want[f.(string)] = map[string]any{"sha256": evidence.HashBytes([]byte(s)), "utf8_bytes": json.Number(fmt.Sprint(len(s)))}
				}
			}
		}
	}
	gotIn, _ := evidence.Canonical(sr["input_normalized"])
	wantIn, _ := evidence.Canonical(want)
	if !bytes.Equal(gotIn, wantIn) {
		t.Errorf("input_normalized %s, want %s", gotIn, wantIn)
	}
	facts, _ := sr["facts"].(map[string]any)
	if err := contracts.ValidateAgainst(entry["outputSchema"].(map[string]any), facts); err != nil {
		t.Errorf("facts fail outputSchema: %v", err)
	}
	src, _ := sr["source"].(map[string]any)
	for _, k := range []string{"kind", "name", "version"} {
		if s, _ := src[k].(string); s == "" {
			t.Errorf("source.%s empty", k)
		}
	}
	if _, ok := sr["warnings"].([]any); !ok {
		t.Errorf("warnings is not a list: %v", sr["warnings"])
	}
	canon, err := evidence.Canonical(map[string]any{"contract_hash": entry["contract_hash"], "input_normalized": sr["input_normalized"], "facts": facts})
	if err != nil {
		t.Fatal(err)
	}
	if rh := evidence.HashBytes(canon); rh != sr["result_hash"] {
		t.Errorf("result_hash %v, recomputed %s", sr["result_hash"], rh)
	}
	if _, ok := resp["result"].(string); !ok {
		t.Errorf("result is not a string")
	}
}

// TestEndToEndExamples runs every example of every tool through the real server
// and checks each response as an orchestrator would (the top-level
// attestation is an extra field it ignores); two replicas on one data
// directory sign with the one key kept there, so they must give byte-identical
// answers, attestation included, and every attestation verifies against the
// published key set.
func TestEndToEndExamples(t *testing.T) {
	dir := t.TempDir()
	base1, _ := startMain(t, func(c *Config) { c.DataDir = dir })
	base2, _ := startMain(t, func(c *Config) { c.DataDir = dir })
	keys := fetchKeySet(t, base2)
	cat := getJSON(t, base1+"/tools")
	list := cat["tools"].([]any)
	if len(list) == 0 {
		t.Fatal("empty catalogue")
	}
	health := getJSON(t, base1+"/health")
	if health["status"] != "ok" || health["catalog_hash"] != cat["catalog_hash"] || len(health["tools"].([]any)) != len(list) {
		t.Errorf("health %v disagrees with the catalogue", health)
	}
	for _, e := range list {
		entry := e.(map[string]any)
		name := entry["name"].(string)
		h, err := evidence.EntryContractHash(entry)
		if err != nil || h != entry["contract_hash"] {
			t.Errorf("%s: contract_hash does not recompute from the catalogue entry (%v)", name, err)
		}
		examples := entry["examples"].([]any)
		if len(examples) < 2 {
			t.Errorf("%s has %d examples", name, len(examples))
		}
		for _, x := range examples {
			ex := x.(map[string]any)
			args := ex["args"].(map[string]any)
			body, _ := evidence.Canonical(map[string]any{"tool": name, "args": args})
			raw1 := invokeRaw(t, base1, body)
			raw2 := invokeRaw(t, base2, body)
			raw1b := invokeRaw(t, base1, body)
			v, err := evidence.ParseJSON(raw1)
			if err != nil {
				t.Fatal(err)
			}
			resp := v.(map[string]any)
			t.Run(name+"/"+ex["title"].(string), func(t *testing.T) {
				orchestratorCheck(t, entry, args, resp)
				gotFacts, _ := evidence.Canonical(resp["structured_result"].(map[string]any)["facts"])
				wantFacts, _ := evidence.Canonical(ex["facts"])
				if !bytes.Equal(gotFacts, wantFacts) {
					t.Errorf("facts %s, documented %s", gotFacts, wantFacts)
				}
				if !bytes.Equal(raw1, raw2) || !bytes.Equal(raw1, raw1b) {
					t.Errorf("responses differ between calls or servers:\n%s\n%s", raw1, raw2)
				}
				checkAttestation(t, keys, resp)
				if err := evidence.Verify(resp["structured_result"].(map[string]any), entry); err != nil {
					t.Errorf("Verify: %v", err)
				}
			})
		}
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// buildBinary builds cmd/precisiond once per test run.
// Every test that needs the binary is a slow, binary-level test: it is
// skipped with -short.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("binary-level test (builds and runs precisiond): skipped with -short")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "precisiond-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "precisiond")
		// -buildvcs=auto (Go's default, which a GOFLAGS setting may turn off):
		// a build in a git checkout carries its revision, as a user's does.
		out, err := exec.Command("go", "build", "-buildvcs=auto", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// checkoutVersion is what the version of a binary built here must contain
// when this is a git checkout: the tag on HEAD, else the first 12 digits of
// HEAD (Go's pseudo-version); "" outside a checkout, and in a linked worktree
// (git worktree add), whose .git is a file: Go stamps no VCS information there.
func checkoutVersion(t *testing.T) string {
	t.Helper()
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Logf("not a git checkout (%v): the version is not checked against a revision", err)
		return ""
	}
	if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || !fi.IsDir() {
		t.Logf("a linked git worktree: Go stamps no revision, the version is not checked against one")
		return ""
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil || len(head) < 12 {
		t.Fatalf("git rev-parse HEAD: %v %q", err, head)
	}
	if tag, err := exec.Command("git", "describe", "--tags", "--exact-match").Output(); err == nil {
		return strings.TrimSpace(string(tag))
	}
	return string(head[:12])
}

// TestBinary runs the real binary: serve in a separate process with flags and env,
// health, call, verify (good and tampered), version, and graceful SIGTERM.
func TestBinary(t *testing.T) {
	bin := buildBinary(t)
	srv := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	data := t.TempDir() // the server and the CLI share it, so one signing key
	srv.Env = append(os.Environ(), "PRECISIOND_DATA_DIR="+data, "PRECISIOND_ADDR=127.0.0.1:1")
	stderr := &testhttp.SyncBuffer{}
	srv.Stderr = stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	addr := testhttp.ListenAddr(t, stderr) // the flag's port 0, not the env's port 1: the flag overrides the env
	base := "http://" + addr
	testhttp.WaitUp(t, base, stderr)
	if out, err := exec.Command(bin, "health", "--addr", addr).CombinedOutput(); err != nil {
		t.Errorf("health: %v %s", err, out)
	}
	if err := exec.Command(bin, "health", "--addr", testhttp.RefusedAddr(t)).Run(); err == nil {
		t.Error("health succeeded against a closed port")
	}

	body := []byte(`{"tool":"gcd_lcm","args":{"a":391,"b":299}}`)
	served := invokeRaw(t, base, body)
	callCmd := exec.Command(bin, "call", "gcd_lcm", `{"a":391,"b":299}`)
	callCmd.Env = append(os.Environ(), "PRECISIOND_DATA_DIR="+data)
	local, err := callCmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(local)) != string(served) {
		t.Errorf("call output differs from /invoke:\n%s\n%s", local, served)
	}
	var legacy map[string]any
	_ = json.Unmarshal(served, &legacy)
	if legacy["result"] != "GCD(391, 299) = 23  |  LCM(391, 299) = 5083" {
		t.Errorf("legacy result %q", legacy["result"])
	}

	verify := func(input []byte, args ...string) (string, error) {
		cmd := exec.Command(bin, append([]string{"verify"}, args...)...)
		cmd.Stdin = bytes.NewReader(input)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := verify(served); err != nil {
		t.Errorf("verify of a genuine response failed: %v %s", err, out)
	}
	if out, err := verify(served, "--url", base); err != nil {
		t.Errorf("verify --url failed: %v %s", err, out)
	}
	if out, err := verify(served, "--jwks", base); err != nil || !strings.Contains(out, " signed by kid ") {
		t.Errorf("verify --jwks failed: %v %s", err, out)
	}
	tampered := bytes.Replace(served, []byte(`"lcm":5083`), []byte(`"lcm":5084`), 1)
	if out, err := verify(tampered); err == nil {
		t.Errorf("verify accepted tampered facts: %s", out)
	}
	// The hashes do not cover the legacy text: verify re-renders it.
	fooled := bytes.Replace(served, []byte(`LCM(391, 299) = 5083`), []byte(`LCM(391, 299) = 9999`), 1)
	if out, err := verify(fooled); err == nil || !strings.Contains(out, "result text differs") {
		t.Errorf("verify accepted a tampered result text: %v %s", err, out)
	}

	if out, err := exec.Command(bin, "version").Output(); err != nil || !strings.HasPrefix(string(out), "precisiond ") {
		t.Errorf("version: %v %q", err, out)
	} else if want := checkoutVersion(t); want != "" && !strings.Contains(string(out), want) {
		t.Errorf("version of a build in a git checkout: %q, want it to name %s", out, want)
	}
	if err := exec.Command(bin, "bogus").Run(); err == nil {
		t.Error("unknown command exited 0")
	}

	if err := srv.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- srv.Wait() }()
	if err := testhttp.Returned(t, waitErr, "the server (stopping on SIGINT)"); err != nil {
		t.Errorf("server exit: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), `"msg":"stopped"`) {
		t.Errorf("no orderly stop logged: %s", stderr.String())
	}
}

func TestConfigPrecedence(t *testing.T) {
	env := map[string]string{"PRECISIOND_ADDR": "127.0.0.1:9001", "PRECISIOND_CALL_TIMEOUT": "2s", "PRECISIOND_ALLOWED_HOSTS": "a.example, b.example"}
	cfg, _, err := loadConfig("serve", []string{"--addr", "127.0.0.1:9002"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:9002" || cfg.CallTimeout != 2*time.Second || !reflect.DeepEqual(cfg.AllowedHosts, []string{"a.example", "b.example"}) {
		t.Errorf("config = %+v", cfg)
	}
	if _, _, err := loadConfig("serve", nil, func(k string) string {
		if k == "PRECISIOND_CALL_TIMEOUT" {
			return "soon"
		}
		return ""
	}); err == nil {
		t.Error("a malformed env value was accepted")
	}
	def := DefaultConfig()
	if def.Addr != "127.0.0.1:8003" || def.DataDir != "./data" || def.MaxBodyBytes != 1<<20 || def.CallTimeout != 5*time.Second || def.DownloadTTL != 24*time.Hour || def.LogLevel != "info" {
		t.Errorf("defaults = %+v", def)
	}
}

// filesUnder lists the regular files below dir (relative paths).
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	return pathsUnder(t, dir, false)
}

// pathsUnder lists what is below dir (relative paths, sorted): the files,
// and with dirs the directories too.
func pathsUnder(t *testing.T, dir string, dirs bool) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && (dirs || !d.IsDir()) {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// exceptKeyring returns files without the signing keyring that the first
// start writes (state/keyring.json, and the directory store's lock files
// under .blob), failing the test if the keyring is not among them.
func exceptKeyring(t *testing.T, files []string) []string {
	t.Helper()
	var out []string
	found := false
	for _, f := range files {
		switch {
		case f == filepath.FromSlash(fleetkey.KeyringObject):
			found = true
		case !strings.HasPrefix(f, ".blob"+string(filepath.Separator)):
			out = append(out, f)
		}
	}
	if !found {
		t.Errorf("no signing keyring %s among %v", fleetkey.KeyringObject, files)
	}
	return out
}

// TestStartHasNoSideEffects: starting the service (Main, as serve does) and
// `precisiond call` write nothing into the data directory but the signing
// keyring of the first start (the start-up self-check runs only read-only
// tools), and `precisiond selfcheck` runs every
// example, generate_file's into a throwaway store that it removes.
func TestStartHasNoSideEffects(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	served := t.TempDir()
	base, _ := startMain(t, func(c *Config) { c.DataDir = served })
	getJSON(t, base+"/health")
	if files := exceptKeyring(t, filesUnder(t, served)); len(files) != 0 {
		t.Errorf("starting the service wrote %v", files)
	}

	bin := buildBinary(t)
	data := t.TempDir()
	call := exec.Command(bin, "call", "gcd_lcm", `{"a":4,"b":6}`)
	call.Env = append(os.Environ(), "PRECISIOND_DATA_DIR="+data)
	if out, err := call.Output(); err != nil || !strings.Contains(string(out), `"gcd":2`) {
		t.Fatalf("call: %v %s", err, out)
	}
	if files := filesUnder(t, data); len(files) != 0 {
		t.Errorf("precisiond call gcd_lcm wrote %v", files)
	}

	tmp := t.TempDir()
	sc := exec.Command(bin, "selfcheck")
	sc.Env = append(os.Environ(), "TMPDIR="+tmp, "PRECISIOND_DATA_DIR="+data)
	out, err := sc.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "OK: ") {
		t.Fatalf("selfcheck: %v %s", err, out)
	}
	examples := 0
	for _, name := range contracts.Names() {
		examples += len(contracts.MustLoad(name).Examples)
	}
	if want := fmt.Sprintf("OK: %d examples of %d tools\n", examples, len(contracts.Names())); string(out) != want {
		t.Errorf("selfcheck said %q, want %q", out, want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("selfcheck left %d entries in its temporary directory", len(left))
	}
	if files := filesUnder(t, data); len(files) != 0 {
		t.Errorf("selfcheck wrote into the data directory: %v", files)
	}
}
