package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/fleetkey"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// fetchKeySet reads a running server's GET /.well-known/jwks.json.
func fetchKeySet(t *testing.T, base string) *attest.KeySet {
	t.Helper()
	body := testhttp.Do(t, http.MethodGet, base+"/.well-known/jwks.json", nil, nil).OK(t)
	keys, err := attest.ParseJWKS(body)
	if err != nil {
		t.Fatalf("jwks: %v\n%s", err, body)
	}
	return keys
}

// checkAttestation verifies the attestation of an /invoke answer (generic
// JSON) against keys and returns who signed.
func checkAttestation(t *testing.T, keys *attest.KeySet, resp map[string]any) attest.Verified {
	t.Helper()
	jws, ok := resp["attestation"].(string)
	if !ok {
		t.Fatalf("answer has no attestation: %v", resp)
	}
	sr, _ := resp["structured_result"].(map[string]any)
	claims, err := attest.ResultClaimsFromGeneric(sr, "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := keys.VerifyResult(jws, claims, time.Now())
	if err != nil {
		t.Fatalf("attestation does not verify: %v", err)
	}
	return v
}

// writeKeyFile writes k as a PKCS#8 PEM file (the --signing-key form).
func writeKeyFile(t *testing.T, k *attest.Key) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), k.KID()+".pem")
	if err := os.WriteFile(path, k.MarshalPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func newKey(t *testing.T) *attest.Key {
	t.Helper()
	k, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// runVerify runs `precisiond verify ARGS` in process on input.
func runVerify(input []byte, args ...string) (int, string) {
	var out, errOut bytes.Buffer
	code := run(append([]string{"verify"}, args...), bytes.NewReader(input), &out, &errOut, func(string) string { return "" })
	return code, out.String() + errOut.String()
}

// gcdAnswer is one signed /invoke answer of gcd_lcm, as bytes and as
// generic JSON.
func gcdAnswer(t *testing.T, base string) ([]byte, map[string]any) {
	t.Helper()
	raw := invokeRaw(t, base, []byte(`{"tool":"gcd_lcm","args":{"a":391,"b":299}}`))
	v, err := evidence.ParseJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	return raw, v.(map[string]any)
}

// forgeFact returns a copy of an answer with one numeric fact changed,
// result_hash recomputed over it and no legacy result text, so that only the
// attestation can tell.
func forgeFact(t *testing.T, answer map[string]any, fact, value string) map[string]any {
	t.Helper()
	forged := contracts.DeepCopy(answer).(map[string]any)
	sr := forged["structured_result"].(map[string]any)
	sr["facts"].(map[string]any)[fact] = json.Number(value)
	rh, err := evidence.ResultHash(sr["contract_hash"].(string), sr["input_normalized"].(map[string]any), sr["facts"].(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	sr["result_hash"] = rh
	// A forger rewrites the legacy text too (verify re-renders it from the
	// facts); dropping it leaves only the hashes and the attestation to check.
	delete(forged, "result")
	return forged
}

// TestVerifyAttestation: precisiond verify --jwks accepts a live answer and
// names the key that signed it, and refuses a tampered fact (result_hash
// recomputed, so only the signature can tell), a tampered result_hash, a
// signature by a key the service never published, and a signature by a key
// past its retention in the key set given. A rotation keeps the old key
// published, so an answer signed before it still verifies.
func TestVerifyAttestation(t *testing.T) {
	k1, k2, stranger := newKey(t), newKey(t), newKey(t)
	dir := t.TempDir()
	base, _ := startMain(t, func(c *Config) { c.DataDir = dir; c.Signing.KeyFile = writeKeyFile(t, k1) })
	raw, answer := gcdAnswer(t, base)
	sr := answer["structured_result"].(map[string]any)

	code, out := runVerify(raw, "--jwks", base)
	if want := "signed by kid " + k1.KID() + ` (iss "precisiond")`; code != 0 || !strings.Contains(out, want) {
		t.Fatalf("verify --jwks URL: exit %d %q, want OK … %s", code, out, want)
	}
	jwksFile := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(jwksFile, testhttp.Do(t, http.MethodGet, base+"/.well-known/jwks.json", nil, nil).OK(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := runVerify(raw, "--jwks", jwksFile, "--issuer", "precisiond"); code != 0 || !strings.Contains(out, k1.KID()) {
		t.Fatalf("verify --jwks FILE --issuer: exit %d %q", code, out)
	}
	if code, out := runVerify(raw, "--jwks", jwksFile, "--issuer", "https://other.example"); code != 1 || !strings.Contains(out, "payload_mismatch") {
		t.Errorf("another required issuer: exit %d %q", code, out)
	}
	mcpResult := map[string]any{"structuredContent": sr, "_meta": map[string]any{"precisiond/attestation": answer["attestation"]}}
	if code, out := runVerify(testhttp.Canonical(t, mcpResult), "--jwks", jwksFile); code != 0 || !strings.Contains(out, k1.KID()) {
		t.Errorf("an MCP result with the attestation in _meta: exit %d %q", code, out)
	}
	if code, out := runVerify(testhttp.Canonical(t, sr), "--jwks", jwksFile); code != 1 || !strings.Contains(out, "no attestation") {
		t.Errorf("a bare structured_result with --jwks: exit %d %q", code, out)
	}

	// A forged fact with result_hash recomputed over it: the hashes agree.
	forged := forgeFact(t, answer, "gcd", "1")
	// result_hash changed alone.
	rhOnly := contracts.DeepCopy(answer).(map[string]any)
	rhOnly["structured_result"].(map[string]any)["result_hash"] = strings.Repeat("0", 64)
	// Signed by a key the service never had.
	strangerJWS, err := mustSignerFor(t, stranger).SignResult(envelopeOf(t, sr))
	if err != nil {
		t.Fatal(err)
	}
	unpublished := contracts.DeepCopy(answer).(map[string]any)
	unpublished["attestation"] = strangerJWS
	// The key set as a client fetched it long ago: k1 retired three hours ago
	// with a retention of one hour, so its not_after passed two hours ago.
	now := time.Now()
	ring := attest.NewKeyring(k1, attest.External, now.Add(-4*time.Hour))
	ring, err = ring.Rotate(k2, attest.External, now.Add(-3*time.Hour), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	staleFile := filepath.Join(t.TempDir(), "stale-jwks.json")
	if err := os.WriteFile(staleFile, ring.JWKS(now.Add(-3*time.Hour)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, jwks, want string
		answer           map[string]any
	}{
		{"fact tampered, result_hash recomputed", jwksFile, "attestation payload_mismatch", forged},
		{"result_hash tampered", jwksFile, "result_hash", rhOnly},
		{"signed by an unpublished key", jwksFile, "attestation unknown_kid", unpublished},
		{"signed by a key past its retention", staleFile, "attestation key_expired", answer},
	} {
		code, out := runVerify(testhttp.Canonical(t, c.answer), "--jwks", c.jwks)
		if code != 1 || !strings.HasPrefix(out, "FAIL") || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d %q, want FAIL … %s", c.name, code, out, c.want)
		}
	}
	// Without --jwks only the hashes are checked, as before: the forged fact
	// passes, which is why the attestation exists.
	if code, out := runVerify(testhttp.Canonical(t, forged)); code != 0 {
		t.Errorf("forged fact without --jwks: exit %d %q", code, out)
	}

	// Rotation: a replica started on the same data directory with k2; k1
	// stays published.
	base2, _ := startMain(t, func(c *Config) { c.DataDir = dir; c.Signing.KeyFile = writeKeyFile(t, k2) })
	keys := fetchKeySet(t, base2).Keys()
	if len(keys) != 2 || keys[0].KID != k2.KID() || keys[1].KID != k1.KID() || keys[1].NotAfter.Before(now.Add(29*24*time.Hour)) {
		t.Fatalf("after rotation the key set is %+v, want %s current and %s retained for 30 days", keys, k2.KID(), k1.KID())
	}
	if code, out := runVerify(raw, "--jwks", base2); code != 0 || !strings.Contains(out, "signed by kid "+k1.KID()) {
		t.Errorf("an answer signed before the rotation: exit %d %q", code, out)
	}
	_, after := gcdAnswer(t, base2)
	if v := checkAttestation(t, fetchKeySet(t, base2), after); v.KID != k2.KID() {
		t.Errorf("after the rotation answers are signed by %s, want %s", v.KID, k2.KID())
	}
}

func mustSignerFor(t *testing.T, k *attest.Key) *attest.Signer {
	t.Helper()
	s, err := attest.NewSigner(k, fleetkey.DefaultIssuer)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// envelopeOf is the part of an envelope a signature covers.
func envelopeOf(t *testing.T, sr map[string]any) *evidence.Envelope {
	t.Helper()
	c, err := attest.ResultClaimsFromGeneric(sr, "")
	if err != nil {
		t.Fatal(err)
	}
	return &evidence.Envelope{Tool: c.Tool, ContractID: c.ContractID, ContractVersion: c.ContractVersion,
		ContractHash: c.ContractHash, ResultHash: c.ResultHash}
}

// joseDir and pythonDir hold the JavaScript (jose) and Python
// (cryptography) verifiers of docs/attestation.md.
var (
	joseDir   = filepath.Join("..", "..", "test", "jose")
	pythonDir = filepath.Join("..", "..", "internal", "attest", "testdata", "crosscheck")
)

// liveAnswers writes the key set of a live server and answers it gave (a
// tool answer, a plan run, and a forged answer) to files; it returns the
// key set file and the answer files with the outcome each verifier must
// report.
func liveAnswers(t *testing.T, base string) (jwksFile string, want map[string]string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	jwksFile = write("jwks.json", testhttp.Do(t, http.MethodGet, base+"/.well-known/jwks.json", nil, nil).OK(t))
	kid := fetchKeySet(t, base).Keys()[0].KID
	raw, answer := gcdAnswer(t, base)
	forged := forgeFact(t, answer, "lcm", "5084")
	status, _, planRaw := postJSON(t, base+"/v1/plans/run", `{"plan": `+citiesPlan+`, "params": {"city": "Asia/Tokyo"}}`)
	if status != 200 {
		t.Fatalf("plan run: %d %s", status, planRaw)
	}
	v, err := evidence.ParseJSON(planRaw)
	if err != nil {
		t.Fatal(err)
	}
	planDoc := v.(map[string]any)
	run := planDoc["runs"].([]any)[0].(map[string]any)
	planRun := map[string]any{"plan_id": planDoc["plan_id"], "run_hash": run["run_hash"], "attestation": run["attestation"]}
	step := run["steps"].([]any)[0].(map[string]any)
	stepAnswer := map[string]any{"structured_result": step["structured_result"], "attestation": step["attestation"]}
	return jwksFile, map[string]string{
		write("answer.json", raw):                                  "OK kid=" + kid,
		write("plan-run.json", testhttp.Canonical(t, planRun)):     "OK kid=" + kid,
		write("plan-step.json", testhttp.Canonical(t, stepAnswer)): "OK kid=" + kid,
		write("forged.json", testhttp.Canonical(t, forged)):        "FAIL payload_mismatch",
	}
}

// checkVerifierOutput runs a verifier command over the live answers and
// checks one line per answer with the expected outcome.
func checkVerifierOutput(t *testing.T, dir string, jwksFile string, want map[string]string, argv ...string) {
	t.Helper()
	args := append(argv[1:], jwksFile)
	for file := range want {
		args = append(args, file)
	}
	cmd := exec.Command(argv[0], args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	t.Logf("%s:\n%s", strings.Join(argv, " "), out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines for %d answers", len(lines), len(want))
	}
	for _, line := range lines {
		status, rest, _ := strings.Cut(line, " ")
		file, detail, _ := strings.Cut(rest, " ")
		w, ok := want[file]
		if !ok {
			t.Fatalf("unexpected line %q", line)
		}
		if got := status + " " + detail; !strings.HasPrefix(got, w) {
			t.Errorf("%s: %q, want %q…", filepath.Base(file), got, w)
		}
	}
}

// TestLiveAnswersVerifyWithJoseAndPython: answers a running server gives (a
// tool answer, a plan run and one of its steps) verify with the jose npm
// package and with Python's cryptography package against the server's
// /.well-known/jwks.json, and a forged one is refused by both. Under CI=true
// a missing node or node_modules is a failure (as in internal/attest);
// otherwise each check is skipped when its runtime is missing.
func TestLiveAnswersVerifyWithJoseAndPython(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs the external verifiers (node, Python); runs without -short")
	}
	base, _ := startMain(t, nil)
	jwksFile, want := liveAnswers(t, base)
	t.Run("jose", func(t *testing.T) {
		checkVerifierOutput(t, joseDir, jwksFile, want, testhttp.NodePackage(t, joseDir, "jose"), "verify.mjs")
	})
	t.Run("python", func(t *testing.T) {
		py := testhttp.PythonWith(t, "cryptography")
		checkVerifierOutput(t, pythonDir, jwksFile, want, py, "verify_answer.py")
	})
}

// TestTwoServeProcessesSignWithOneKey: two `precisiond serve` processes on one
// data directory publish the same key set and sign the same answer with the
// same kid, byte for byte; a `precisiond call` on that directory too.
func TestTwoServeProcessesSignWithOneKey(t *testing.T) {
	dir := t.TempDir()
	base1, _, _ := startBinary(t, "--data-dir", dir)
	base2, _, _ := startBinary(t, "--data-dir", dir)
	j1 := testhttp.Do(t, http.MethodGet, base1+"/.well-known/jwks.json", nil, nil).OK(t)
	j2 := testhttp.Do(t, http.MethodGet, base2+"/.well-known/jwks.json", nil, nil).OK(t)
	if !bytes.Equal(j1, j2) {
		t.Fatalf("key sets differ:\n%s\n%s", j1, j2)
	}
	raw1, a1 := gcdAnswer(t, base1)
	raw2, _ := gcdAnswer(t, base2)
	if !bytes.Equal(raw1, raw2) {
		t.Fatalf("answers differ:\n%s\n%s", raw1, raw2)
	}
	v := checkAttestation(t, fetchKeySet(t, base2), a1)
	call := exec.Command(buildBinary(t), "call", "--data-dir", dir, "gcd_lcm", `{"a":391,"b":299}`)
	out, err := call.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.TrimSpace(out); !bytes.Equal(got, raw1) {
		t.Errorf("precisiond call answers\n%s\nthe servers\n%s", got, raw1)
	}
	t.Logf("both replicas and the CLI sign with kid %s", v.KID)
}

// structuredResultBytes cuts the structured_result out of an /invoke body
// (keys are in canonical order: it is followed by "tool").
func structuredResultBytes(t *testing.T, raw []byte) []byte {
	t.Helper()
	_, rest, ok := bytes.Cut(raw, []byte(`"structured_result":`))
	end := bytes.LastIndex(rest, []byte(`,"tool":`))
	if !ok || end < 0 {
		t.Fatalf("no structured_result in %s", raw)
	}
	return rest[:end]
}

// TestAnswerCacheThroughTheService: with --answer-cache a repeated call of a
// cacheable tool is served from the cache, byte-identical, and counted in
// /metrics; a tool without cache_policy.answer_cache is not; without the
// flag nothing is cached and the cache metrics are absent.
func TestAnswerCacheThroughTheService(t *testing.T) {
	base, _ := startMain(t, func(c *Config) { c.Signing.AnswerCacheBytes = 1 << 20 })
	body := []byte(`{"tool":"solve_equation","args":{"equation":"x**3 - 6*x**2 + 11*x - 6 = 0"}}`)
	first := invokeRaw(t, base, body)
	second := invokeRaw(t, base, body)
	if !bytes.Equal(structuredResultBytes(t, first), structuredResultBytes(t, second)) || !bytes.Equal(first, second) {
		t.Fatalf("the cached answer differs:\n%s\n%s", first, second)
	}
	invokeRaw(t, base, []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`))
	invokeRaw(t, base, []byte(`{"tool":"gcd_lcm","args":{"a":4,"b":6}}`))
	for result, want := range map[string]float64{"hit": 1, "miss": 1, "refused": 0} {
		if got := scrape(t, base, `precisiond_answer_cache_total{result="`+result+`",tier="memory"}`); got != want {
			t.Errorf("answer cache %s = %v, want %v", result, got, want)
		}
	}
	if got := scrape(t, base, `precisiond_answer_cache_bytes{tier="memory"}`); got <= 0 {
		t.Errorf("answer cache bytes = %v", got)
	}
	v, err := evidence.ParseJSON(second)
	if err != nil {
		t.Fatal(err)
	}
	checkAttestation(t, fetchKeySet(t, base), v.(map[string]any))

	off, _ := startMain(t, nil)
	invokeRaw(t, off, body)
	if got := scrape(t, off, `precisiond_answer_cache_total{result="miss",tier="memory"}`); got != -1 {
		t.Errorf("without --answer-cache the cache metrics are exported (miss = %v)", got)
	}
}

// docExample matches a fenced block of docs/attestation.md after its
// `<!-- example: NAME -->` marker.
var docExample = regexp.MustCompile("(?s)<!-- example: ([^ ]+) -->\n```[a-z]*\n(.*?)\n```")

// TestDocVerifyExample runs the `precisiond verify --jwks` commands that
// docs/attestation.md shows, on the example files it shows, and compares
// the output line for line.
func TestDocVerifyExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "attestation.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	for _, m := range docExample.FindAllStringSubmatch(string(doc), -1) {
		blocks[m[1]] = m[2]
	}
	session := blocks["precisiond-verify"]
	if session == "" || blocks["jwks.json"] == "" {
		t.Fatal("docs/attestation.md lacks the precisiond-verify example or its files")
	}
	dir := t.TempDir()
	for name, text := range blocks {
		if strings.HasSuffix(name, ".json") {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmdLine := regexp.MustCompile(`^\$ precisiond verify --jwks (\S+) < (\S+)$`)
	lines := strings.Split(session, "\n")
	ran := 0
	for i := 0; i < len(lines); i++ {
		m := cmdLine.FindStringSubmatch(lines[i])
		if m == nil {
			t.Fatalf("unexpected line in the example: %q", lines[i])
		}
		input, err := os.ReadFile(filepath.Join(dir, m[2]))
		if err != nil {
			t.Fatal(err)
		}
		_, out := runVerify(input, "--jwks", filepath.Join(dir, m[1]))
		var want []string
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
			i++
			want = append(want, lines[i])
		}
		if got := strings.TrimRight(out, "\n"); got != strings.Join(want, "\n") {
			t.Errorf("%s:\n got %s\nwant %s", lines[i-len(want)], got, strings.Join(want, "\n"))
		}
		ran++
	}
	if ran != 2 {
		t.Fatalf("ran %d commands, want 2", ran)
	}
}

// TestJWKSEndpoint: GET /.well-known/jwks.json is the published key set as
// canonical JSON with its content type, a strong ETag and a cache lifetime;
// a matching If-None-Match (alone, in a list, or weak) gets 304 without a
// body, another ETag gets the set again.
func TestJWKSEndpoint(t *testing.T) {
	k := newKey(t)
	base, m := startMain(t, func(c *Config) { c.Signing.KeyFile = writeKeyFile(t, k) })
	url := base + "/.well-known/jwks.json"
	r := testhttp.Do(t, http.MethodGet, url, nil, nil)
	want := m.Signing.Ring().JWKS(time.Now())
	etag := r.Header.Get("ETag")
	if r.Status != 200 || !bytes.Equal(r.Body, want) || r.Header.Get("Content-Type") != "application/jwk-set+json" ||
		etag != attest.ETag(want) || r.Header.Get("Cache-Control") != "public, max-age=300" {
		t.Fatalf("GET: %d %v %s", r.Status, r.Header, r.Body)
	}
	if !bytes.Contains(r.Body, []byte(`"kid":"`+k.KID()+`"`)) {
		t.Fatalf("the key set does not list the configured key %s: %s", k.KID(), r.Body)
	}
	for _, inm := range []string{etag, `"0000", ` + etag, "W/" + etag, "*"} {
		r := testhttp.Do(t, http.MethodGet, url, map[string]string{"If-None-Match": inm}, nil)
		if r.Status != http.StatusNotModified || len(r.Body) != 0 || r.Header.Get("ETag") != etag {
			t.Errorf("If-None-Match %s: %d %q", inm, r.Status, r.Body)
		}
	}
	if r := testhttp.Do(t, http.MethodGet, url, map[string]string{"If-None-Match": `"0000"`}, nil); r.Status != 200 || !bytes.Equal(r.Body, want) {
		t.Errorf("another ETag: %d", r.Status)
	}
	if r := testhttp.Do(t, http.MethodHead, url, nil, nil); r.Status != 200 || len(r.Body) != 0 || r.Header.Get("ETag") != etag {
		t.Errorf("HEAD: %d %v %q", r.Status, r.Header, r.Body)
	}
}

// planRunOf returns plan_id and the first completed run of a plan run answer.
func planRunOf(t *testing.T, raw []byte) (string, map[string]any) {
	t.Helper()
	v, err := evidence.ParseJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	doc := v.(map[string]any)
	for _, r := range doc["runs"].([]any) {
		if run := r.(map[string]any); run["status"] == "completed" {
			return doc["plan_id"].(string), run
		}
	}
	t.Fatal("no completed run")
	return "", nil
}

// stepAttestation is the attestation of the first step of the first
// completed run.
func stepAttestation(t *testing.T, raw []byte) string {
	t.Helper()
	_, run := planRunOf(t, raw)
	return run["steps"].([]any)[0].(map[string]any)["attestation"].(string)
}

// mustSignPlanRun signs the first completed run of raw with k.
func mustSignPlanRun(t *testing.T, k *attest.Key, raw []byte) string {
	t.Helper()
	id, run := planRunOf(t, raw)
	jws, err := mustSignerFor(t, k).SignPlanRun(id, run["run_hash"].(string))
	if err != nil {
		t.Fatal(err)
	}
	return jws
}

// TestRotationReachesRunningReplica: when a replica starts with a new key on
// a shared store, a replica already running publishes the new key at its
// next keyring refresh (so a client fetching the key set from either can
// verify answers of both), keeps signing with its own key, which stays
// published as retained, and its own answers still verify.
func TestRotationReachesRunningReplica(t *testing.T) {
	k1, k2 := newKey(t), newKey(t)
	dir := t.TempDir()
	baseA, a := startMain(t, func(c *Config) { c.DataDir = dir; c.Signing.KeyFile = writeKeyFile(t, k1) })
	if changed, err := a.Signing.Refresh(context.Background()); err != nil || changed {
		t.Fatalf("refresh with nothing new: changed %v, %v", changed, err)
	}
	baseB, _ := startMain(t, func(c *Config) { c.DataDir = dir; c.Signing.KeyFile = writeKeyFile(t, k2) })
	_, fromB := gcdAnswer(t, baseB)
	if kid := fetchKeySet(t, baseA).Keys()[0].KID; kid != k1.KID() {
		t.Fatalf("before its refresh replica A publishes %s first, want its own %s", kid, k1.KID())
	}
	if changed, err := a.Signing.Refresh(context.Background()); err != nil || !changed {
		t.Fatalf("refresh after the rotation: changed %v, %v", changed, err)
	}
	keysA := fetchKeySet(t, baseA)
	if got := keysA.Keys(); len(got) != 2 || got[0].KID != k2.KID() || got[1].KID != k1.KID() {
		t.Fatalf("after its refresh replica A publishes %+v, want %s then %s", got, k2.KID(), k1.KID())
	}
	if v := checkAttestation(t, keysA, fromB); v.KID != k2.KID() {
		t.Errorf("B's answer verified as signed by %s", v.KID)
	}
	_, fromA := gcdAnswer(t, baseA)
	if v := checkAttestation(t, fetchKeySet(t, baseB), fromA); v.KID != k1.KID() {
		t.Errorf("A's answer verified as signed by %s, want its own key %s", v.KID, k1.KID())
	}
	// A keyring damaged in the store is an error, and the published set stays.
	before := a.Signing.JWKS()
	if err := os.WriteFile(filepath.Join(dir, fleetkey.KeyringObject), []byte(`{"format":"precisiond-keyring/1"`), 0o600); err != nil {
		t.Fatal(err)
	}
	if changed, err := a.Signing.Refresh(context.Background()); err == nil || changed || !bytes.Equal(a.Signing.JWKS(), before) {
		t.Errorf("refresh of a damaged keyring: changed %v, %v; key set kept: %v", changed, err, bytes.Equal(a.Signing.JWKS(), before))
	}
}
