package attest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/testhttp"
)

var updateGoVectors = flag.Bool("update-go-vectors", false,
	"rewrite testdata/crosscheck/go_signed.json; then run `python3 pyjose.py verify` in that directory to renew its receipt")

// crossCase is one answer and the outcome every verifier must reach on it.
type crossCase struct {
	Name   string         `json:"name"`
	JWKS   string         `json:"jwks"` // "live" or "stale"
	Answer map[string]any `json:"answer"`
	Expect string         `json:"expect"` // "ok" or a Reason
	KID    string         `json:"kid,omitempty"`
	// Claims are the signed claims of an "ok" case (Python-made vectors only):
	// the Go signer must reproduce the attestation from them byte for byte.
	Claims map[string]string `json:"claims,omitempty"`
}

// crossVectors is the file format of go_signed.json and python_signed.json
// (the latter has further members, read by TestPythonSignedVectors).
type crossVectors struct {
	Generator string                     `json:"generator"`
	Now       string                     `json:"now"`
	JWKS      map[string]json.RawMessage `json:"jwks"`
	Cases     []crossCase                `json:"cases"`
}

// goVectorsNow is the verification time of go_signed.json.
var goVectorsNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// buildGoVectors signs the cross-implementation cases with Go at now: a keyring
// whose first key ("expired") signed from now-90d to now-60d, the second
// ("retained") from now-60d to now-2d, and the third ("current") since; the
// retention is 30 days. "live" is the key set published at now; "stale" is the
// one published at now-45d, which still lists the expired key (not_after
// now-30d). A fourth key ("unpublished") was never in the keyring.
func buildGoVectors(t testing.TB, now time.Time) *crossVectors {
	t.Helper()
	now = now.UTC().Truncate(time.Second)
	day := 24 * time.Hour
	expired, retained, current, unpublished := seededKey(t, "expired"), seededKey(t, "retained"),
		seededKey(t, "current"), seededKey(t, "unpublished")
	ring := NewKeyring(expired, InStore, now.Add(-90*day))
	ring, err := ring.Rotate(retained, InStore, now.Add(-60*day), DefaultRetention)
	if err != nil {
		t.Fatal(err)
	}
	stale := ring.JWKS(now.Add(-45 * day))
	if ring, err = ring.Rotate(current, InStore, now.Add(-2*day), DefaultRetention); err != nil {
		t.Fatal(err)
	}
	live := ring.JWKS(now)

	env := vectorEnvelope(t, "23", "5083")
	sr := env.Generic()
	cur := mustSigner(t, current, testIssuer)
	jws, err := cur.SignResult(env)
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]any{"structured_result": sr, "attestation": jws}
	with := func(attestation string) map[string]any {
		return map[string]any{"structured_result": sr, "attestation": attestation}
	}
	signWith := func(k *Key, issuer string) string {
		s, err := mustSigner(t, k, issuer).SignResult(env)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	planID, runHash := strings.Repeat("a1", 32), strings.Repeat("b2", 32)
	planJWS, err := cur.SignPlanRun(planID, runHash)
	if err != nil {
		t.Fatal(err)
	}

	// A fact changed and result_hash recomputed over it: the envelope is
	// internally consistent, only the attestation can tell.
	forgedEnv := vectorEnvelope(t, "1", "116909")
	forged := map[string]any{"structured_result": forgedEnv.Generic(), "attestation": jws}
	// result_hash changed alone.
	rhTampered := env.Generic()
	rhTampered["result_hash"] = strings.Repeat("0", 64)

	h, p, s := splitJWS(t, jws)
	_, otherPayload, _ := splitJWS(t, signWith(current, "https://other.example"))
	payload, err := b64.DecodeString(p)
	if err != nil {
		t.Fatal(err)
	}
	header := func(alg, kid, typ string, extra string) string {
		return `{"alg":"` + alg + `",` + extra + `"kid":"` + kid + `","typ":"` + typ + `"}`
	}
	noneHeader := b64.EncodeToString([]byte(header("none", current.kid, TypeResult, "")))
	hsHeader := b64.EncodeToString([]byte(header("HS256", current.kid, TypeResult, "")))
	mac := hmac.New(sha256.New, current.PublicKey())
	mac.Write([]byte(hsHeader + "." + p))
	swapped := b64.EncodeToString([]byte(header(Algorithm, retained.kid, TypeResult, "")))
	var spaced bytes.Buffer
	if err := json.Indent(&spaced, payload, "", " "); err != nil {
		t.Fatal(err)
	}

	cases := []crossCase{
		{Name: "result signed by the current key", Answer: ok, Expect: "ok", KID: current.kid},
		{Name: "issuer with quotes, escapes and non-ASCII", Answer: with(signWith(current, "präzision \"α\" \\ ✓\t\x1f\u2028")), Expect: "ok", KID: current.kid},
		{Name: "result signed by the retained key", Answer: with(signWith(retained, testIssuer)), Expect: "ok", KID: retained.kid},
		{Name: "plan run signed by the current key", Answer: map[string]any{"plan_id": planID, "run_hash": runHash, "attestation": planJWS}, Expect: "ok", KID: current.kid},
		{Name: "fact tampered, result_hash recomputed", Answer: forged, Expect: "payload_mismatch"},
		{Name: "result_hash tampered", Answer: map[string]any{"structured_result": rhTampered, "attestation": jws}, Expect: "payload_mismatch"},
		{Name: "plan run_hash tampered", Answer: map[string]any{"plan_id": planID, "run_hash": strings.Repeat("c3", 32), "attestation": planJWS}, Expect: "payload_mismatch"},
		{Name: "payload segment swapped", Answer: with(h + "." + otherPayload + "." + s), Expect: "bad_signature"},
		{Name: "signature altered", Answer: with(h + "." + p + "." + flipChar(s, 10)), Expect: "bad_signature"},
		{Name: "alg none", Answer: with(noneHeader + "." + p + "."), Expect: "unsupported_alg"},
		{Name: "alg HS256 keyed with the public key", Answer: with(hsHeader + "." + p + "." + b64.EncodeToString(mac.Sum(nil))), Expect: "unsupported_alg"},
		{Name: "kid swapped to another published key", Answer: with(swapped + "." + p + "." + s), Expect: "bad_signature"},
		{Name: "signed by an unpublished key", Answer: with(signWith(unpublished, testIssuer)), Expect: "unknown_kid"},
		{Name: "signed by a key past retention, live key set", Answer: with(signWith(expired, testIssuer)), Expect: "unknown_kid"},
		{Name: "signed by a key past retention, stale key set", JWKS: "stale", Answer: with(signWith(expired, testIssuer)), Expect: "key_expired"},
		{Name: "plan-run attestation on a tool answer", Answer: with(planJWS), Expect: "wrong_typ"},
		{Name: "crit header", Answer: with(signRaw(current, header(Algorithm, current.kid, TypeResult, `"crit":["exp"],"exp":1,`), string(payload))), Expect: "unsupported_crit"},
		{Name: "extra header parameter", Answer: with(signRaw(current, header(Algorithm, current.kid, TypeResult, `"jku":"https://evil.example/jwks",`), string(payload))), Expect: "malformed"},
		{Name: "payload not in canonical form", Answer: with(signRaw(current, header(Algorithm, current.kid, TypeResult, ""), spaced.String())), Expect: "malformed"},
		{Name: "five segments", Answer: with(jws + ".AA.AA"), Expect: "malformed"},
		{Name: "padded base64url", Answer: with(jws + "=="), Expect: "malformed"},
	}
	for i := range cases {
		if cases[i].JWKS == "" {
			cases[i].JWKS = "live"
		}
	}
	return &crossVectors{
		Generator: "go test ./internal/attest -run TestGoSignedVectors -update-go-vectors",
		Now:       now.Format(timeLayout),
		JWKS:      map[string]json.RawMessage{"live": live, "stale": stale},
		Cases:     cases,
	}
}

func splitJWS(t testing.TB, jws string) (h, p, s string) {
	t.Helper()
	parts := strings.Split(jws, ".")
	if len(parts) != 3 {
		t.Fatalf("%q has %d segments", jws, len(parts))
	}
	return parts[0], parts[1], parts[2]
}

// flipChar replaces the base64url character at i by another one that keeps
// the encoding strict (i is not the last character).
func flipChar(s string, i int) string {
	c := byte('A')
	if s[i] == 'A' {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}

// checkCases runs the Go verifier over cases and fails on any disagreement.
func checkCases(t *testing.T, v *crossVectors) {
	t.Helper()
	now := mustTime(t, v.Now)
	sets := map[string]*KeySet{}
	for name, raw := range v.JWKS {
		sets[name] = mustParseJWKS(t, raw)
	}
	for _, c := range v.Cases {
		got, err := verifyAnswer(sets[c.JWKS], c.Answer, now)
		if reason := Reason(err); reason != c.Expect && !(reason == "" && c.Expect == "ok") {
			t.Errorf("%s: got %q (%v), want %s", c.Name, reason, err, c.Expect)
			continue
		}
		if err == nil && got.KID != c.KID {
			t.Errorf("%s: signed by %s, want %s", c.Name, got.KID, c.KID)
		}
	}
}

// marshalVectors is the byte form of go_signed.json.
func marshalVectors(t testing.TB, v *crossVectors) []byte {
	t.Helper()
	out, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestGoSignedVectors checks that go_signed.json is exactly what the Go signer
// writes today (so the receipt of the Python check covers today's signer) and
// that the Go verifier reaches every expected outcome on it.
func TestGoSignedVectors(t *testing.T) {
	v := buildGoVectors(t, goVectorsNow)
	checkCases(t, v)
	data := marshalVectors(t, v)
	path := filepath.Join(crossDir, "go_signed.json")
	if *updateGoVectors {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s; now run: (cd %s && python3 pyjose.py verify)", path, crossDir)
	}
	disk, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(disk, data) {
		t.Fatalf("%s is not what the Go signer writes now; regenerate it with -update-go-vectors and re-run the Python check", path)
	}
	var fromDisk crossVectors
	readJSON(t, path, &fromDisk)
	checkCases(t, &fromDisk)
}

// TestGoSignedVectorsVerifiedByPython checks the receipt that
// `python3 pyjose.py verify` writes only when verify_answer.py (the Python
// example of docs/attestation.md, on the cryptography package) reached every
// expected outcome on go_signed.json: its SHA-256 must be that of the file as
// it is now.
func TestGoSignedVectorsVerifiedByPython(t *testing.T) {
	var receipt struct {
		Checked        string            `json:"checked"`
		SHA256         string            `json:"sha256"`
		VerifierSHA256 string            `json:"verifier_sha256"`
		Cases          int               `json:"cases"`
		Versions       map[string]string `json:"versions"`
	}
	readJSON(t, filepath.Join(crossDir, "go_signed.receipt.json"), &receipt)
	var v crossVectors
	data := readJSON(t, filepath.Join(crossDir, "go_signed.json"), &v)
	verifier, err := os.ReadFile(filepath.Join(crossDir, "verify_answer.py"))
	if err != nil {
		t.Fatal(err)
	}
	sum, vsum := sha256.Sum256(data), sha256.Sum256(verifier)
	if got := hex.EncodeToString(sum[:]); receipt.SHA256 != got || receipt.Checked != "go_signed.json" {
		t.Fatalf("the Python receipt covers %s %s, the file is %s: re-run `python3 pyjose.py verify` in %s", receipt.Checked, receipt.SHA256, got, crossDir)
	}
	if got := hex.EncodeToString(vsum[:]); receipt.VerifierSHA256 != got {
		t.Fatalf("the Python receipt was written by verify_answer.py %s, the file is %s: re-run `python3 pyjose.py verify` in %s", receipt.VerifierSHA256, got, crossDir)
	}
	if receipt.Cases != len(v.Cases) || receipt.Versions["cryptography"] == "" {
		t.Fatalf("receipt %+v does not cover the %d cases with a cryptography version", receipt, len(v.Cases))
	}
	t.Logf("verified by Python %s, cryptography %s", receipt.Versions["python"], receipt.Versions["cryptography"])
}

// TestPythonVerifierLive runs pyjose.py check (verify_answer.py over
// go_signed.json) when a Python with the cryptography package is at hand. The
// receipt test above is the one that always runs; this catches a stale
// receipt at once on a developer machine.
func TestPythonVerifierLive(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs an external verifier (Python); runs without -short")
	}
	py := testhttp.PythonWith(t, "cryptography")
	cmd := exec.Command(py, "pyjose.py", "check")
	cmd.Dir = crossDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pyjose.py check: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("cases agree")) {
		t.Fatalf("unexpected output:\n%s", out)
	}
}

// pythonVectors is python_signed.json.
type pythonVectors struct {
	crossVectors
	Versions map[string]string `json:"versions"`
	RFC8037  struct {
		Seed  string `json:"seed"`
		X     string `json:"x"`
		KID   string `json:"kid"`
		PEM   string `json:"pem"`
		JWSA4 string `json:"jws_a4"`
	} `json:"rfc8037"`
	Keys    map[string]struct{ KID, X, PEM string } `json:"keys"`
	Keyring struct {
		ExpiredSince   string `json:"expired_since"`
		RetainedSince  string `json:"retained_since"`
		CurrentSince   string `json:"current_since"`
		RetentionHours int    `json:"retention_hours"`
		StaleFetched   string `json:"stale_fetched"`
	} `json:"keyring"`
	JWKSBytes map[string]string `json:"jwks_bytes"`
}

func loadPythonVectors(t testing.TB) *pythonVectors {
	t.Helper()
	var v pythonVectors
	readJSON(t, filepath.Join(crossDir, "python_signed.json"), &v)
	if len(v.Cases) == 0 || len(v.Keys) != 4 {
		t.Fatalf("python_signed.json has %d cases and %d keys", len(v.Cases), len(v.Keys))
	}
	return &v
}

func pythonKey(t testing.TB, v *pythonVectors, name string) *Key {
	t.Helper()
	k, err := ParsePrivateKeyPEM([]byte(v.Keys[name].PEM))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return k
}

// TestPythonSignedVectors verifies the attestations Python made with the
// cryptography package, reaching the outcome Python expects on each, and
// checks that the Go signer, given the same key and claims, writes exactly the
// same attestation (Ed25519 is deterministic, and the header and payload
// encodings must agree byte for byte).
func TestPythonSignedVectors(t *testing.T) {
	v := loadPythonVectors(t)
	t.Logf("made by Python %s, cryptography %s", v.Versions["python"], v.Versions["cryptography"])
	checkCases(t, &v.crossVectors)
	signed := 0
	for _, c := range v.Cases {
		if c.Expect != "ok" {
			continue
		}
		var k *Key
		for name, pk := range v.Keys {
			if pk.KID == c.KID {
				k = pythonKey(t, v, name)
			}
		}
		if k == nil {
			t.Fatalf("%s: no key %s", c.Name, c.KID)
		}
		s := mustSigner(t, k, c.Claims["iss"])
		var got string
		var err error
		if _, isPlan := c.Claims["plan_id"]; isPlan {
			got, err = s.SignPlanRun(c.Claims["plan_id"], c.Claims["run_hash"])
		} else {
			got, err = s.SignResult(&evidence.Envelope{
				Tool: c.Claims["tool"], ContractID: c.Claims["contract_id"], ContractVersion: c.Claims["contract_version"],
				ContractHash: c.Claims["contract_hash"], ResultHash: c.Claims["result_hash"],
			})
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := c.Answer["attestation"]; got != want {
			t.Errorf("%s: Go signs\n%s\nPython signed\n%s", c.Name, got, want)
		}
		signed++
	}
	if signed < 4 {
		t.Fatalf("only %d cases re-signed", signed)
	}
}

// TestPythonResultHashAgrees checks that the result_hash Python computed for
// its example answers is what evidence computes (the claims sign it).
func TestPythonResultHashAgrees(t *testing.T) {
	v := loadPythonVectors(t)
	sr := v.Cases[0].Answer["structured_result"].(map[string]any)
	generic, err := evidence.ParseJSON(mustJSON(t, sr))
	if err != nil {
		t.Fatal(err)
	}
	g := generic.(map[string]any)
	got, err := evidence.ResultHash(g["contract_hash"].(string), g["input_normalized"].(map[string]any), g["facts"].(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	if got != sr["result_hash"] {
		t.Fatalf("result_hash %s, Python has %s", got, sr["result_hash"])
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
