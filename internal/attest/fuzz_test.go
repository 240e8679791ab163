package attest

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// FuzzVerifyResult feeds arbitrary strings to the JWS parser and verifier. It
// must never panic, every refusal must carry one of the documented reasons,
// and the only string it may accept is the attestation the signer itself
// writes for the claims (a forger cannot do better than the fuzzer).
func FuzzVerifyResult(f *testing.F) {
	v := buildGoVectors(f, goVectorsNow)
	for _, c := range v.Cases {
		f.Add(c.Answer["attestation"].(string))
	}
	f.Add(rfc8037JWS)
	f.Add("")
	f.Add("..")
	f.Add("e30.e30.")
	ks := mustParseJWKS(f, v.JWKS["live"])
	want, err := ResultClaimsFromGeneric(v.Cases[0].Answer["structured_result"].(map[string]any), "")
	if err != nil {
		f.Fatal(err)
	}
	// The genuine attestations of these claims: the "ok" tool answers of the
	// vectors (signed by the current or the retained key, under two issuers).
	genuine := map[string]string{}
	for _, c := range v.Cases {
		if _, ok := c.Answer["structured_result"]; ok && c.Expect == "ok" {
			genuine[c.Answer["attestation"].(string)] = c.KID
		}
	}
	now := mustTime(f, v.Now)
	f.Fuzz(func(t *testing.T, jws string) {
		got, err := ks.VerifyResult(jws, want, now)
		if err == nil {
			if kid, ok := genuine[jws]; !ok || got.KID != kid {
				t.Fatalf("accepted %q (kid %s)", jws, got.KID)
			}
			return
		}
		if r := Reason(err); r == "error" || r == "" {
			t.Fatalf("untyped refusal %v", err)
		}
		// Plan-run verification over the same string must be as safe.
		if _, err := ks.VerifyPlanRun(jws, PlanRunClaims{}, now); Reason(err) == "error" {
			t.Fatalf("untyped refusal %v", err)
		}
	})
}

// FuzzParseJWKS: never panics; an accepted key set re-encodes to one that
// parses to the same keys.
func FuzzParseJWKS(f *testing.F) {
	v := buildGoVectors(f, goVectorsNow)
	f.Add([]byte(v.JWKS["live"]))
	f.Add([]byte(v.JWKS["stale"]))
	var py pythonVectors
	readJSON(f, filepath.Join(crossDir, "python_signed.json"), &py)
	f.Add([]byte(py.JWKSBytes["live"]))
	f.Add([]byte(`{"keys":[]}`))
	f.Add([]byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"21fe31dfa154a261"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ks, err := ParseJWKS(data)
		if err != nil {
			return
		}
		again, err := ParseJWKS(encodeJWKS(ks.Keys()))
		if err != nil {
			t.Fatalf("re-encoded key set refused: %v", err)
		}
		if !slices.EqualFunc(ks.Keys(), again.Keys(), func(a, b PublicKey) bool {
			return a.KID == b.KID && bytes.Equal(a.Key, b.Key) && a.NotAfter.Equal(b.NotAfter)
		}) {
			t.Fatalf("keys changed: %+v vs %+v", ks.Keys(), again.Keys())
		}
	})
}

// FuzzParseKeyring: never panics; an accepted state round-trips through
// Marshal to identical bytes on the second pass.
func FuzzParseKeyring(f *testing.F) {
	t0 := goVectorsNow
	ring, err := NewKeyring(seededKey(f, "a"), InStore, t0).Rotate(seededKey(f, "b"), InStore, t0.Add(time.Hour), DefaultRetention)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(ring.Marshal())
	ext, err := ring.Rotate(seededKey(f, "c"), External, t0.Add(2*time.Hour), time.Hour)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(ext.Marshal())
	f.Add([]byte(`{"format":"precisiond-keyring/1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseKeyring(data)
		if err != nil {
			return
		}
		m := r.Marshal()
		back, err := ParseKeyring(m)
		if err != nil {
			t.Fatalf("re-marshalled state refused: %v\n%s", err, m)
		}
		if !bytes.Equal(back.Marshal(), m) {
			t.Fatalf("state changed:\n%s\n%s", m, back.Marshal())
		}
		if !json.Valid(r.JWKS(t0)) {
			t.Fatal("invalid JWKS")
		}
	})
}

// FuzzParsePrivateKeyPEM: never panics; an accepted key re-encodes to a PEM
// of the same key.
func FuzzParsePrivateKeyPEM(f *testing.F) {
	f.Add(seededKey(f, "pem").MarshalPEM())
	var py pythonVectors
	readJSON(f, filepath.Join(crossDir, "python_signed.json"), &py)
	f.Add([]byte(py.RFC8037.PEM))
	f.Add([]byte("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParsePrivateKeyPEM(data)
		if err != nil {
			return
		}
		back, err := ParsePrivateKeyPEM(k.MarshalPEM())
		if err != nil || back.KID() != k.KID() {
			t.Fatalf("re-encoded key: %v", err)
		}
	})
}

// FuzzRetain: merging a key (named by the seed of seededKey) retired at an
// offset from t0, published for a retention, into any accepted keyring
// state at now never panics and never unpublishes a key: it fails only with
// ErrTooManyRetained, and otherwise the result publishes every key the
// keyring published at now, and k until at least its not_after, retains at
// most MaxRetainedKeys keys, round-trips through Marshal, and a second
// merge of k changes nothing.
func FuzzRetain(f *testing.F) {
	t0 := goVectorsNow
	ring, err := NewKeyring(seededKey(f, "a"), InStore, t0).Rotate(seededKey(f, "b"), InStore, t0.Add(time.Hour), DefaultRetention)
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range []string{"a", "b", "z"} {
		f.Add(ring.Marshal(), name, int64(7200), int64(3600), int64(7200))
		f.Add(ring.Marshal(), name, int64(-7200), int64(60), int64(DefaultRetention/time.Second))
	}
	f.Fuzz(func(t *testing.T, state []byte, name string, retiredOff, retention, nowOff int64) {
		r, err := ParseKeyring(state)
		if err != nil {
			return
		}
		const bound = int64(1) << 34 // about 540 years either way
		retiredAt := t0.Add(time.Duration(retiredOff%bound) * time.Second)
		now := t0.Add(time.Duration(nowOff%bound) * time.Second)
		k := seededKey(t, name)
		pk := PublicKey{KID: k.KID(), Key: k.PublicKey(), Since: t0, RetiredAt: retiredAt,
			NotAfter: retiredAt.Add(time.Duration(max(retention, 0)%bound) * time.Second)}
		merged, err := r.Retain(pk, now)
		if err != nil {
			if !errors.Is(err, ErrTooManyRetained) {
				t.Fatalf("refused with %v", err)
			}
			return
		}
		after := map[string]PublicKey{}
		for _, p := range merged.Published(now) {
			after[p.KID] = p
		}
		for _, p := range r.Published(now) {
			if _, ok := after[p.KID]; !ok {
				t.Fatalf("key %s unpublished", p.KID)
			}
		}
		if p, ok := after[pk.KID]; pk.KID != r.Current().KID && !pk.ExpiredAt(now) && (!ok || p.NotAfter.Before(stamp(pk.NotAfter))) {
			t.Fatalf("key %s published as %+v, want until %v", pk.KID, p, pk.NotAfter)
		}
		if len(merged.Retained()) > MaxRetainedKeys {
			t.Fatalf("%d retained", len(merged.Retained()))
		}
		back, err := ParseKeyring(merged.Marshal())
		if err != nil || !bytes.Equal(back.Marshal(), merged.Marshal()) {
			t.Fatalf("merged state does not round-trip: %v\n%s", err, merged.Marshal())
		}
		if again, err := merged.Retain(pk, now); err != nil || again != merged {
			t.Fatalf("a second merge changed the keyring (%v)", err)
		}
	})
}
