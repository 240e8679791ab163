package attest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/precisiond/precisiond/evidence"
)

// fixture is one keyring with a current and a retained key, a live key set and
// a signed gcd_lcm answer.
type fixture struct {
	now               time.Time
	current, retained *Key
	ks                *KeySet
	env               *evidence.Envelope
	jws               string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{now: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)}
	f.retained, f.current = seededKey(t, "retained"), seededKey(t, "current")
	ring, err := NewKeyring(f.retained, InStore, f.now.Add(-48*time.Hour)).Rotate(f.current, InStore, f.now.Add(-time.Hour), DefaultRetention)
	if err != nil {
		t.Fatal(err)
	}
	f.ks = mustParseJWKS(t, ring.JWKS(f.now))
	f.env = gcdEnvelope(t, "23", "5083")
	if f.jws, err = mustSigner(t, f.current, testIssuer).SignResult(f.env); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) want() ResultClaims { return ResultClaimsOf(f.env, "") }

func TestSignAndVerifyResult(t *testing.T) {
	f := newFixture(t)
	got, err := f.ks.VerifyResult(f.jws, f.want(), f.now)
	if err != nil {
		t.Fatal(err)
	}
	if got.KID != f.current.KID() || got.Issuer != testIssuer || !got.NotAfter.IsZero() {
		t.Fatalf("got %+v", got)
	}
	// The signed header and payload are the documented canonical JSON.
	h, p, _ := splitJWS(t, f.jws)
	header, _ := b64.DecodeString(h)
	if want := `{"alg":"EdDSA","kid":"` + f.current.KID() + `","typ":"precisiond-result+jws"}`; string(header) != want {
		t.Fatalf("header %s, want %s", header, want)
	}
	payload, _ := b64.DecodeString(p)
	want, err := evidence.Canonical(map[string]any{
		"tool": f.env.Tool, "contract_id": f.env.ContractID, "contract_version": f.env.ContractVersion,
		"contract_hash": f.env.ContractHash, "result_hash": f.env.ResultHash, "iss": testIssuer,
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(payload) != string(want) {
		t.Fatalf("payload %s, want %s", payload, want)
	}
	// Requiring the issuer.
	if _, err := f.ks.VerifyResult(f.jws, ResultClaimsOf(f.env, testIssuer), f.now); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ks.VerifyResult(f.jws, ResultClaimsOf(f.env, "https://elsewhere.example"), f.now); !errors.Is(err, ErrPayloadMismatch) {
		t.Fatalf("another issuer: %v", err)
	}
	// Signing leaves the envelope alone.
	if f.env.ResultHash != gcdEnvelope(t, "23", "5083").ResultHash {
		t.Fatal("the envelope changed")
	}
}

func TestSignAndVerifyPlanRun(t *testing.T) {
	f := newFixture(t)
	planID, runHash := strings.Repeat("1f", 32), strings.Repeat("2e", 32)
	jws, err := mustSigner(t, f.retained, "precisiond").SignPlanRun(planID, runHash)
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.ks.VerifyPlanRun(jws, PlanRunClaims{PlanID: planID, RunHash: runHash, Issuer: "precisiond"}, f.now)
	if err != nil {
		t.Fatal(err)
	}
	if got.KID != f.retained.KID() || got.NotAfter.IsZero() {
		t.Fatalf("got %+v", got)
	}
	_, p, _ := splitJWS(t, jws)
	payload, _ := b64.DecodeString(p)
	if want := `{"iss":"precisiond","plan_id":"` + planID + `","run_hash":"` + runHash + `"}`; string(payload) != want {
		t.Fatalf("payload %s, want %s", payload, want)
	}
	for _, tc := range []struct {
		name string
		want PlanRunClaims
		err  error
	}{
		{"other run_hash", PlanRunClaims{PlanID: planID, RunHash: strings.Repeat("00", 32)}, ErrPayloadMismatch},
		{"other plan_id", PlanRunClaims{PlanID: strings.Repeat("00", 32), RunHash: runHash}, ErrPayloadMismatch},
	} {
		if _, err := f.ks.VerifyPlanRun(jws, tc.want, f.now); !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		}
	}
	// A tool answer's attestation is not a plan run's.
	if _, err := f.ks.VerifyPlanRun(f.jws, PlanRunClaims{PlanID: planID, RunHash: runHash}, f.now); !errors.Is(err, ErrType) {
		t.Fatalf("result attestation as plan run: %v", err)
	}
}

// TestTamperedFact shows the two checks working together: a fact changed
// without recomputing result_hash is caught by the hash, and one changed with
// result_hash recomputed (a consistent forgery) is caught by the attestation.
func TestTamperedFact(t *testing.T) {
	f := newFixture(t)
	sr := f.env.Generic()
	sr["facts"].(map[string]any)["gcd"] = 1
	rh, err := evidence.ResultHash(f.env.ContractHash, f.env.InputNormalized, sr["facts"].(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	if rh == f.env.ResultHash {
		t.Fatal("the tampered fact did not change result_hash")
	}
	// Without recomputation the attestation still matches (it signs
	// result_hash), so the hash check is what refuses it.
	want, err := ResultClaimsFromGeneric(sr, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.ks.VerifyResult(f.jws, want, f.now); err != nil {
		t.Fatalf("attestation over an unchanged result_hash: %v", err)
	}
	// With result_hash recomputed, the attestation refuses it.
	sr["result_hash"] = rh
	if want, err = ResultClaimsFromGeneric(sr, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ks.VerifyResult(f.jws, want, f.now); !errors.Is(err, ErrPayloadMismatch) || !strings.Contains(err.Error(), "result_hash") {
		t.Fatalf("consistent forgery: %v", err)
	}
}

func TestTamperedClaims(t *testing.T) {
	f := newFixture(t)
	for _, field := range []string{"tool", "contract_id", "contract_version", "contract_hash", "result_hash"} {
		sr := f.env.Generic()
		sr[field] = sr[field].(string) + "x"
		want, err := ResultClaimsFromGeneric(sr, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.ks.VerifyResult(f.jws, want, f.now); !errors.Is(err, ErrPayloadMismatch) || !strings.Contains(err.Error(), field) {
			t.Errorf("%s changed: %v", field, err)
		}
	}
	sr := f.env.Generic()
	sr["result_hash"] = 7
	if _, err := ResultClaimsFromGeneric(sr, ""); err == nil {
		t.Fatal("a numeric result_hash was accepted")
	}
}

// TestTamperedToken alters the token itself; each alteration has its typed
// error.
func TestTamperedToken(t *testing.T) {
	f := newFixture(t)
	h, p, s := splitJWS(t, f.jws)
	payload, _ := b64.DecodeString(p)
	kid := f.current.KID()
	hdr := func(body string) string { return b64.EncodeToString([]byte(body)) }
	other, err := mustSigner(t, f.current, "https://other.example").SignResult(f.env)
	if err != nil {
		t.Fatal(err)
	}
	_, otherP, otherS := splitJWS(t, other)
	unpublished := seededKey(t, "unpublished")
	for _, tc := range []struct {
		name, jws string
		err       error
	}{
		{"payload swapped", h + "." + otherP + "." + s, ErrBadSignature},
		{"signature of another payload", h + "." + p + "." + otherS, ErrBadSignature},
		{"signature altered", h + "." + p + "." + flipChar(s, 40), ErrBadSignature},
		{"payload bit flipped", h + "." + flipChar(p, 30) + "." + s, ErrBadSignature},
		{"kid swapped to the retained key", hdr(`{"alg":"EdDSA","kid":"`+f.retained.KID()+`","typ":"precisiond-result+jws"}`) + "." + p + "." + s, ErrBadSignature},
		{"kid swapped to an unknown key", hdr(`{"alg":"EdDSA","kid":"0000000000000000","typ":"precisiond-result+jws"}`) + "." + p + "." + s, ErrUnknownKey},
		{"signed by an unpublished key", signRaw(unpublished, `{"alg":"EdDSA","kid":"`+unpublished.KID()+`","typ":"precisiond-result+jws"}`, string(payload)), ErrUnknownKey},
		{"unpublished key claiming a published kid", signRaw(unpublished, `{"alg":"EdDSA","kid":"`+kid+`","typ":"precisiond-result+jws"}`, string(payload)), ErrBadSignature},
		{"alg none", hdr(`{"alg":"none","kid":"`+kid+`","typ":"precisiond-result+jws"}`) + "." + p + ".", ErrAlgorithm},
		{"alg HS256", hdr(`{"alg":"HS256","kid":"`+kid+`","typ":"precisiond-result+jws"}`) + "." + p + "." + s, ErrAlgorithm},
		{"alg Ed25519 (RFC 9864 name)", signRaw(f.current, `{"alg":"Ed25519","kid":"`+kid+`","typ":"precisiond-result+jws"}`, string(payload)), ErrAlgorithm},
		{"alg missing", signRaw(f.current, `{"kid":"`+kid+`","typ":"precisiond-result+jws"}`, string(payload)), ErrAlgorithm},
		{"alg not a string", hdr(`{"alg":1,"kid":"`+kid+`","typ":"precisiond-result+jws"}`) + "." + p + "." + s, ErrAlgorithm},
		{"crit", signRaw(f.current, `{"alg":"EdDSA","crit":["b64"],"b64":false,"kid":"`+kid+`","typ":"precisiond-result+jws"}`, string(payload)), ErrCritical},
		{"empty crit", signRaw(f.current, `{"alg":"EdDSA","crit":[],"kid":"`+kid+`","typ":"precisiond-result+jws"}`, string(payload)), ErrCritical},
		{"typ missing", signRaw(f.current, `{"alg":"EdDSA","kid":"`+kid+`"}`, string(payload)), ErrType},
		{"typ JWT", signRaw(f.current, `{"alg":"EdDSA","kid":"`+kid+`","typ":"JWT"}`, string(payload)), ErrType},
		{"extra header parameter", signRaw(f.current, `{"alg":"EdDSA","jwk":{},"kid":"`+kid+`","typ":"precisiond-result+jws"}`, string(payload)), ErrMalformed},
		{"header with spaces", signRaw(f.current, `{"alg": "EdDSA","kid":"`+kid+`","typ":"precisiond-result+jws"}`, string(payload)), ErrMalformed},
		{"header keys out of order", signRaw(f.current, `{"kid":"`+kid+`","alg":"EdDSA","typ":"precisiond-result+jws"}`, string(payload)), ErrMalformed},
		{"duplicate alg", signRaw(f.current, `{"alg":"none","alg":"EdDSA","kid":"`+kid+`","typ":"precisiond-result+jws"}`, string(payload)), ErrMalformed},
		{"kid not a string", signRaw(f.current, `{"alg":"EdDSA","kid":7,"typ":"precisiond-result+jws"}`, string(payload)), ErrMalformed},
		{"header not an object", hdr(`["EdDSA"]`) + "." + p + "." + s, ErrMalformed},
		{"header not JSON", hdr(`{"alg":`) + "." + p + "." + s, ErrMalformed},
		{"payload not canonical", signRaw(f.current, `{"alg":"EdDSA","kid":"`+kid+`","typ":"precisiond-result+jws"}`, " "+string(payload)), ErrMalformed},
		{"payload with an extra claim", signRaw(f.current, `{"alg":"EdDSA","kid":"`+kid+`","typ":"precisiond-result+jws"}`, `{"a":"b",`+string(payload[1:])), ErrMalformed},
		{"payload not JSON", signRaw(f.current, `{"alg":"EdDSA","kid":"`+kid+`","typ":"precisiond-result+jws"}`, "not json"), ErrMalformed},
		{"payload of plan-run claims", signRaw(f.current, `{"alg":"EdDSA","kid":"`+kid+`","typ":"precisiond-result+jws"}`, `{"iss":"x","plan_id":"p","run_hash":"r"}`), ErrMalformed},
		{"empty", "", ErrMalformed},
		{"two segments", h + "." + p, ErrMalformed},
		{"four segments", f.jws + ".AA", ErrMalformed},
		{"JWE-like five segments", f.jws + ".AA.AA", ErrMalformed},
		{"padding", f.jws + "==", ErrMalformed},
		{"standard base64 alphabet", h + "." + p + ".+" + s[1:], ErrMalformed},
		{"line break", h + ".\n" + p + "." + s, ErrMalformed},
		{"space", " " + f.jws, ErrMalformed},
		{"non-zero trailing bits", h + "." + p + "." + s[:len(s)-1] + "h", ErrMalformed},
		{"short signature", h + "." + p + "." + s[:40], ErrMalformed},
		{"empty signature", h + "." + p + ".", ErrMalformed},
		{"oversized", h + "." + strings.Repeat("A", MaxAttestationBytes) + "." + s, ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.ks.VerifyResult(tc.jws, f.want(), f.now)
			if !errors.Is(err, tc.err) {
				t.Fatalf("got %v, want %v", err, tc.err)
			}
			// Each error wraps exactly one sentinel.
			n := 0
			for _, r := range reasons {
				if errors.Is(err, r.err) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("%v wraps %d sentinels", err, n)
			}
		})
	}
}

func TestReason(t *testing.T) {
	if Reason(nil) != "" || Reason(errors.New("x")) != "error" {
		t.Fatal("nil or foreign error")
	}
	seen := map[string]bool{}
	for _, r := range reasons {
		got := Reason(errors.Join(errors.New("context"), r.err))
		if got != r.reason || seen[got] {
			t.Fatalf("%v: %q", r.err, got)
		}
		seen[got] = true
	}
}

func TestSignerRefusals(t *testing.T) {
	k := seededKey(t, "signer")
	for _, iss := range []string{"", strings.Repeat("i", MaxIssuerBytes+1), "bad \xff utf-8"} {
		if _, err := NewSigner(k, iss); err == nil {
			t.Errorf("issuer %.20q accepted", iss)
		}
	}
	if _, err := NewSigner(nil, "x"); err == nil {
		t.Error("nil key accepted")
	}
	s := mustSigner(t, k, strings.Repeat("i", MaxIssuerBytes))
	env := &evidence.Envelope{Tool: "t\xff"}
	if _, err := s.SignResult(env); err == nil {
		t.Error("invalid UTF-8 claim signed")
	}
	if _, err := s.SignPlanRun("p", "\xfe"); err == nil {
		t.Error("invalid UTF-8 run_hash signed")
	}
	// The longest issuer still gives an attestation well within the limit.
	long := &evidence.Envelope{Tool: "t", ContractID: "c", ContractVersion: "1", ContractHash: strings.Repeat("a", 64), ResultHash: strings.Repeat("b", 64)}
	jws, err := s.SignResult(long)
	if err != nil {
		t.Fatal(err)
	}
	if len(jws) > MaxAttestationBytes/2 {
		t.Fatalf("attestation of %d bytes", len(jws))
	}
	ks := newKeySet([]PublicKey{{KID: k.KID(), Key: k.PublicKey()}})
	if _, err := ks.VerifyResult(jws, ResultClaimsOf(long, s.Issuer()), time.Now()); err != nil {
		t.Fatal(err)
	}
	if s.KID() != k.KID() {
		t.Fatal("KID")
	}
}

// TestConcurrentSigning signs from many goroutines at once (run with -race).
func TestConcurrentSigning(t *testing.T) {
	f := newFixture(t)
	s := mustSigner(t, f.current, testIssuer)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 50 {
				jws, err := s.SignResult(f.env)
				if err == nil && jws != f.jws {
					err = errors.New("a different attestation")
				}
				if err == nil {
					_, err = f.ks.VerifyResult(jws, f.want(), f.now)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestCacheEntrySeal: a cache-entry seal verifies for the digest it sealed
// only, under a published key only, and is not taken for a result
// attestation, nor the reverse.
func TestCacheEntrySeal(t *testing.T) {
	now := time.Now()
	k := seededKey(t, "seal")
	s := mustSigner(t, k, testIssuer)
	ks := NewKeyring(k, External, now).KeySet(now)
	digest := strings.Repeat("ab", 32)
	seal, err := s.SignCacheEntry(digest)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := ks.VerifyCacheEntry(seal, digest, now); err != nil || v.KID != k.KID() {
		t.Fatalf("genuine seal: %+v, %v", v, err)
	}
	if _, err := ks.VerifyCacheEntry(seal, strings.Repeat("cd", 32), now); !errors.Is(err, ErrPayloadMismatch) {
		t.Errorf("seal of another digest: %v, want payload_mismatch", err)
	}
	other := NewKeyring(seededKey(t, "other"), External, now).KeySet(now)
	if _, err := other.VerifyCacheEntry(seal, digest, now); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("seal under an unpublished key: %v, want unknown_kid", err)
	}
	env := gcdEnvelope(t, "23", "5083")
	att, err := s.SignResult(env)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ks.VerifyCacheEntry(att, digest, now); !errors.Is(err, ErrType) {
		t.Errorf("a result attestation as a seal: %v, want wrong_typ", err)
	}
	if _, err := ks.VerifyResult(seal, ResultClaimsOf(env, ""), now); !errors.Is(err, ErrType) {
		t.Errorf("a seal as a result attestation: %v, want wrong_typ", err)
	}
}
