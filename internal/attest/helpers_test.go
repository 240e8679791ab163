package attest

import (
	"crypto/sha256"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/vectors"
)

// crossDir holds the cross-implementation vectors and scripts.
var crossDir = filepath.Join("testdata", "crosscheck")

// testIssuer is the iss of the Go-made attestations.
const testIssuer = "https://precisiond.example"

// gcdEnvelope builds a real envelope of gcd_lcm (its contract, contract_hash
// and result_hash) for the given facts.
func gcdEnvelope(t testing.TB, gcd, lcm string) *evidence.Envelope {
	t.Helper()
	c, err := contracts.Load("gcd_lcm")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := evidence.ContractHash(c)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"a": json.Number("391"), "b": json.Number("299"), "operation": "both"}
	facts := map[string]any{"a": json.Number("391"), "b": json.Number("299"), "operation": "both",
		"gcd": json.Number(gcd), "lcm": json.Number(lcm)}
	env, err := evidence.Build(c, ch, in, facts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// vectorEnvelope is a gcd_lcm envelope from fixed data (its result_hash
// computed by evidence): the checked-in vectors must not change when a
// contract or the Go toolchain (source.version) does.
func vectorEnvelope(t testing.TB, gcd, lcm string) *evidence.Envelope {
	t.Helper()
	const contractHash = "4a87bcd7931aeae18c639d0cd68e4ea83f54c049e317d941395fbc450e646014"
	in := map[string]any{"a": json.Number("391"), "b": json.Number("299"), "operation": "both"}
	facts := map[string]any{"a": json.Number("391"), "b": json.Number("299"), "operation": "both",
		"gcd": json.Number(gcd), "lcm": json.Number(lcm)}
	rh, err := evidence.ResultHash(contractHash, in, facts)
	if err != nil {
		t.Fatal(err)
	}
	env := &evidence.Envelope{
		Status: "completed", Tool: "gcd_lcm", ContractID: "precisiond.gcd_lcm", ContractVersion: "1.0.0",
		ContractHash: contractHash, InputNormalized: in, Determinism: "input_only",
		Source:   evidence.Source{Kind: "go_stdlib", Name: "math/big", Version: "go1.26.8"},
		Warnings: []evidence.Warning{}, ResultHash: rh,
	}
	env.SetFacts(facts)
	return env
}

// seededKey derives a fixed test key from a name.
func seededKey(t testing.TB, name string) *Key {
	t.Helper()
	seed := sha256.Sum256([]byte("precisiond attest go vector key " + name))
	k, err := NewKeyFromSeed(seed[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustSigner(t testing.TB, k *Key, issuer string) *Signer {
	t.Helper()
	s, err := NewSigner(k, issuer)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustParseJWKS(t testing.TB, data []byte) *KeySet {
	t.Helper()
	ks, err := ParseJWKS(data)
	if err != nil {
		t.Fatalf("ParseJWKS: %v\n%s", err, data)
	}
	return ks
}

// signRaw signs arbitrary header and payload bytes with k: how an attacker
// holding a key, or a buggy signer, would build a token.
func signRaw(k *Key, header, payload string) string {
	return string(appendCompact(nil, k.priv, b64.EncodeToString([]byte(header))+".", []byte(payload)))
}

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(timeLayout, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func readJSON(t testing.TB, path string, v any) []byte {
	t.Helper()
	return vectors.Decode(t, path, v)
}

// verifyAnswer verifies an answer as precisiond verify and the scripts of
// docs/attestation.md do: a tool answer {"structured_result","attestation"} or
// a plan run {"plan_id","run_hash","attestation"}, any issuer.
func verifyAnswer(ks *KeySet, answer map[string]any, now time.Time) (Verified, error) {
	jws, _ := answer["attestation"].(string)
	if sr, ok := answer["structured_result"].(map[string]any); ok {
		want, err := ResultClaimsFromGeneric(sr, "")
		if err != nil {
			return Verified{}, err
		}
		return ks.VerifyResult(jws, want, now)
	}
	planID, _ := answer["plan_id"].(string)
	runHash, _ := answer["run_hash"].(string)
	return ks.VerifyPlanRun(jws, PlanRunClaims{PlanID: planID, RunHash: runHash}, now)
}
