package attest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/precisiond/precisiond/evidence"
)

// TestJWKSMatchesPython rebuilds, from Python's keys and times, the keyring
// whose key sets Python wrote (json.dumps, sorted keys, compact), and compares
// the bytes.
func TestJWKSMatchesPython(t *testing.T) {
	v := loadPythonVectors(t)
	retention := time.Duration(v.Keyring.RetentionHours) * time.Hour
	ring := NewKeyring(pythonKey(t, v, "expired"), InStore, mustTime(t, v.Keyring.ExpiredSince))
	ring, err := ring.Rotate(pythonKey(t, v, "retained"), InStore, mustTime(t, v.Keyring.RetainedSince), retention)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(ring.JWKS(mustTime(t, v.Keyring.StaleFetched))); got != v.JWKSBytes["stale"] {
		t.Errorf("stale key set\n got %s\nwant %s", got, v.JWKSBytes["stale"])
	}
	if ring, err = ring.Rotate(pythonKey(t, v, "current"), InStore, mustTime(t, v.Keyring.CurrentSince), retention); err != nil {
		t.Fatal(err)
	}
	if got := string(ring.JWKS(mustTime(t, v.Now))); got != v.JWKSBytes["live"] {
		t.Errorf("live key set\n got %s\nwant %s", got, v.JWKSBytes["live"])
	}
}

// TestRotationAndRetention walks a keyring through a rotation with an injected
// clock: the old key keeps verifying its answers until its not_after
// (inclusive), then a fresh key set no longer lists it (unknown kid) and a
// copy fetched earlier refuses it as expired.
func TestRotationAndRetention(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	now := func() time.Time { return clock }
	k1, k2 := seededKey(t, "k1"), seededKey(t, "k2")
	env := gcdEnvelope(t, "23", "5083")
	want := ResultClaimsOf(env, "")

	ring := NewKeyring(k1, InStore, now())
	s1, err := ring.Signer(testIssuer)
	if err != nil {
		t.Fatal(err)
	}
	a1, err := s1.SignResult(env)
	if err != nil {
		t.Fatal(err)
	}

	clock = t0.Add(10 * 24 * time.Hour)
	ring, err = ring.Rotate(k2, InStore, now(), DefaultRetention)
	if err != nil {
		t.Fatal(err)
	}
	notAfter := clock.Add(DefaultRetention)
	if r := ring.Retained(); len(r) != 1 || r[0].KID != k1.KID() || !r[0].NotAfter.Equal(notAfter) || !r[0].RetiredAt.Equal(clock) || !r[0].Since.Equal(t0) {
		t.Fatalf("retained %+v", ring.Retained())
	}
	s2, err := ring.Signer(testIssuer)
	if err != nil {
		t.Fatal(err)
	}
	if s2.KID() != k2.KID() || ring.Current().KID != k2.KID() {
		t.Fatalf("after rotation the signer is %s", s2.KID())
	}
	a2, err := s2.SignResult(env)
	if err != nil {
		t.Fatal(err)
	}
	fetched := ring.JWKS(now()) // a verifier's copy, fetched at the rotation
	stale := mustParseJWKS(t, fetched)
	if keys := stale.Keys(); len(keys) != 2 || keys[0].KID != k2.KID() || keys[1].KID != k1.KID() {
		t.Fatalf("published %+v", keys)
	}

	check := func(ks *KeySet, jws string, wantErr error, wantKID string) {
		t.Helper()
		got, err := ks.VerifyResult(jws, want, now())
		if !errors.Is(err, wantErr) || (err == nil) != (wantErr == nil) {
			t.Fatalf("at %s: %v, want %v", clock.Format(timeLayout), err, wantErr)
		}
		if err == nil && got.KID != wantKID {
			t.Fatalf("signed by %s, want %s", got.KID, wantKID)
		}
	}
	// Within retention, both answers verify against a fresh key set.
	clock = notAfter
	live := mustParseJWKS(t, ring.JWKS(now()))
	check(live, a1, nil, k1.KID())
	check(live, a2, nil, k2.KID())
	check(ring.KeySet(now()), a1, nil, k1.KID())
	if _, pruned := ring.Prune(now()); pruned {
		t.Fatal("pruned a key at its not_after")
	}

	// One second later the old key is gone from a fresh key set, and a stale
	// copy names it expired.
	clock = notAfter.Add(time.Second)
	live = mustParseJWKS(t, ring.JWKS(now()))
	if len(live.Keys()) != 1 {
		t.Fatalf("published %+v", live.Keys())
	}
	check(live, a1, ErrUnknownKey, "")
	check(ring.KeySet(now()), a1, ErrUnknownKey, "")
	check(stale, a1, ErrKeyExpired, "")
	check(live, a2, nil, k2.KID())
	check(stale, a2, nil, k2.KID())
	pruned, ok := ring.Prune(now())
	if !ok || len(pruned.Retained()) != 0 || len(ring.Retained()) != 1 {
		t.Fatal("Prune must drop the expired key from a new keyring only")
	}

	// An expired key's forged signature is a bad signature, not an expired key.
	h, p, s := splitJWS(t, a1)
	check(stale, h+"."+p+"."+flipChar(s, 5), ErrBadSignature, "")
}

func TestRotateEdgeCases(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 500, time.UTC)
	a, b, c := seededKey(t, "a"), seededKey(t, "b"), seededKey(t, "c")
	ring := NewKeyring(a, InStore, t0)
	if _, err := ring.Rotate(a, InStore, t0, time.Hour); err == nil {
		t.Fatal("rotation to the current key accepted")
	}
	if _, err := ring.Rotate(b, InStore, t0, -time.Second); err == nil {
		t.Fatal("negative retention accepted")
	}
	// Retention 0: published up to the instant of the rotation, which is
	// stored in whole seconds (t0 is 500 ns past one), and not after it.
	r0, err := ring.Rotate(b, InStore, t0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r0.Published(t0.Truncate(time.Second))); n != 2 {
		t.Fatalf("%d keys published at the rotation", n)
	}
	if n := len(r0.Published(t0)); n != 1 {
		t.Fatalf("%d keys published after it", n)
	}
	// Rotating back to a retained key takes it out of the retained list.
	r1, _ := ring.Rotate(b, InStore, t0, time.Hour)
	r2, _ := r1.Rotate(c, InStore, t0.Add(time.Minute), time.Hour)
	r3, err := r2.Rotate(a, InStore, t0.Add(2*time.Minute), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, k := range r3.Published(t0.Add(2 * time.Minute)) {
		kids = append(kids, k.KID)
	}
	if got, want := strings.Join(kids, ","), a.KID()+","+c.KID()+","+b.KID(); got != want {
		t.Fatalf("published %s, want %s", got, want)
	}
	// A rotation drops retained keys already expired.
	r4, err := r3.Rotate(b, InStore, t0.Add(3*time.Hour), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if r := r4.Retained(); len(r) != 1 || r[0].KID != a.KID() {
		t.Fatalf("retained %+v", r)
	}
	// More than MaxRetainedKeys live retained keys are refused.
	ring = NewKeyring(a, InStore, t0)
	for i := 0; ; i++ {
		next, err := ring.Rotate(seededKey(t, "many"+string(rune('A'+i%26))+string(rune('a'+i/26))), InStore, t0.Add(time.Duration(i)*time.Second), DefaultRetention)
		if err != nil {
			if i != MaxRetainedKeys {
				t.Fatalf("refused at rotation %d: %v", i, err)
			}
			break
		}
		ring = next
	}
	// Times are kept in UTC whole seconds.
	if got := NewKeyring(a, InStore, t0.In(time.FixedZone("x", 3600))).Current().Since; !got.Equal(t0.Truncate(time.Second)) || got.Location() != time.UTC {
		t.Fatalf("since %v", got)
	}
}

func TestKeyringStateRoundTrip(t *testing.T) {
	t0 := time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)
	a, b := seededKey(t, "a"), seededKey(t, "b")
	ring, err := NewKeyring(a, InStore, t0).Rotate(b, InStore, t0.Add(time.Hour), DefaultRetention)
	if err != nil {
		t.Fatal(err)
	}
	state := ring.Marshal()
	canon, err := evidence.ParseJSON(state)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := evidence.Canonical(canon); !bytes.Equal(c, state) {
		t.Fatalf("state is not canonical JSON: %s", state)
	}
	if !bytes.Contains(state, []byte(`"private_key_pem":"-----BEGIN PRIVATE KEY-----\n`)) || bytes.Count(state, []byte("PRIVATE KEY-----")) != 2 {
		t.Fatalf("an InStore state holds the current private key, and only it: %s", state)
	}
	back, err := ParseKeyring(state)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Marshal(), state) || back.SigningKey().KID() != b.KID() || back.Custody() != InStore {
		t.Fatalf("round trip:\n%s\n%s", state, back.Marshal())
	}
	if !bytes.Equal(back.JWKS(t0), ring.JWKS(t0)) {
		t.Fatal("the parsed keyring publishes other keys")
	}

	// An External key's private half never reaches the state.
	ext, err := ring.Rotate(a, External, t0.Add(2*time.Hour), DefaultRetention)
	if err != nil {
		t.Fatal(err)
	}
	state = ext.Marshal()
	if bytes.Contains(state, []byte("PRIVATE KEY")) {
		t.Fatalf("External state holds a private key: %s", state)
	}
	back, err = ParseKeyring(state)
	if err != nil {
		t.Fatal(err)
	}
	if back.SigningKey() != nil || back.Custody() != External {
		t.Fatal("a key appeared from nowhere")
	}
	if _, err := back.Signer(testIssuer); !errors.Is(err, ErrNoPrivateKey) {
		t.Fatalf("Signer without the key: %v", err)
	}
	if _, err := back.WithSigningKey(b); err == nil {
		t.Fatal("WithSigningKey accepted another key")
	}
	withKey, err := back.WithSigningKey(a)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := withKey.Signer(testIssuer); err != nil || s.KID() != a.KID() {
		t.Fatalf("signer %v %v", s, err)
	}
	if !bytes.Equal(withKey.Marshal(), state) {
		t.Fatal("attaching the External key changed the state")
	}
}

// mutateState parses a keyring state, applies f to it and re-encodes it.
func mutateState(t *testing.T, state []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(state, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rotatedOnce is a keyring whose key a started signing at t0 and was
// replaced by b an hour later, retained for DefaultRetention.
func rotatedOnce(t *testing.T, t0 time.Time, a, b *Key) *Keyring {
	t.Helper()
	ring, err := NewKeyring(a, InStore, t0).Rotate(b, InStore, t0.Add(time.Hour), DefaultRetention)
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

func TestParseKeyringRefusals(t *testing.T) {
	t0 := time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)
	a, b, c := seededKey(t, "a"), seededKey(t, "b"), seededKey(t, "c")
	state := rotatedOnce(t, t0, a, b).Marshal()
	cur := func(m map[string]any) map[string]any { return m["current"].(map[string]any) }
	ret := func(m map[string]any) map[string]any { return m["retained"].([]any)[0].(map[string]any) }
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not JSON", []byte("{"), "keyring state"},
		{"oversized", make([]byte, maxStateBytes+1), "exceeds"},
		{"format", mutateState(t, state, func(m map[string]any) { m["format"] = "precisiond-keyring/2" }), "format"},
		{"unknown member", mutateState(t, state, func(m map[string]any) { m["extra"] = 1 }), "unknown member"},
		{"current missing", mutateState(t, state, func(m map[string]any) { delete(m, "current") }), `no "current"`},
		{"kid of another key", mutateState(t, state, func(m map[string]any) { cur(m)["kid"] = c.KID() }), "is not the key id"},
		{"x of another key", mutateState(t, state, func(m map[string]any) { cur(m)["x"] = b64.EncodeToString(c.PublicKey()) }), "is not the key id"},
		{"short x", mutateState(t, state, func(m map[string]any) { cur(m)["x"] = "AAAA" }), "32 base64url bytes"},
		{"private key of another key", mutateState(t, state, func(m map[string]any) { cur(m)["private_key_pem"] = string(c.MarshalPEM()) }), "the private key is"},
		{"private key unreadable", mutateState(t, state, func(m map[string]any) { cur(m)["private_key_pem"] = "x" }), "no PEM block"},
		{"time with an offset", mutateState(t, state, func(m map[string]any) { cur(m)["since"] = "2026-02-01T09:00:00+01:00" }), "is not of the form"},
		{"time with fractions", mutateState(t, state, func(m map[string]any) { ret(m)["not_after"] = "2026-03-01T00:00:00.5Z" }), "is not of the form"},
		{"not_after before retired_at", mutateState(t, state, func(m map[string]any) { ret(m)["not_after"] = "2026-01-01T00:00:00Z" }), "since <= retired_at <= not_after"},
		{"retained not a list", mutateState(t, state, func(m map[string]any) { m["retained"] = map[string]any{} }), "not a list"},
		{"duplicate kid", mutateState(t, state, func(m map[string]any) { m["retained"] = []any{ret(m), ret(m)} }), "appears twice"},
		{"retained repeats current", mutateState(t, state, func(m map[string]any) {
			r := ret(m)
			r["kid"], r["x"] = b.KID(), b64.EncodeToString(b.PublicKey())
		}), "appears twice"},
		{"too many retained", mutateState(t, state, func(m map[string]any) { m["retained"] = make([]any, MaxRetainedKeys+1) }), "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseKeyring(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestReconcile plays the start of replicas on one store, with and without
// --signing-key.
func TestReconcile(t *testing.T) {
	t0 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	seed := bytes.Repeat([]byte{7}, 32)
	generated, _ := NewKeyFromSeed(seed)

	// First replica, empty store, no key file: a key is generated and stored.
	ringA, stateA, err := Reconcile(nil, nil, t0, DefaultRetention, bytes.NewReader(seed))
	if err != nil {
		t.Fatal(err)
	}
	if ringA.Current().KID != generated.KID() || stateA == nil || ringA.Custody() != InStore {
		t.Fatalf("first start: kid %s state %s", ringA.Current().KID, stateA)
	}
	// Second replica on the same store: the same key, nothing to write.
	ringB, stateB, err := Reconcile(stateA, nil, t0.Add(time.Minute), DefaultRetention, iotest.ErrReader(errors.New("must not generate")))
	if err != nil || stateB != nil {
		t.Fatalf("second replica: %v, state %s", err, stateB)
	}
	sA, _ := ringA.Signer(testIssuer)
	sB, _ := ringB.Signer(testIssuer)
	env := gcdEnvelope(t, "23", "5083")
	jA, _ := sA.SignResult(env)
	jB, _ := sB.SignResult(env)
	if sA.KID() != sB.KID() || jA != jB {
		t.Fatal("two replicas on one store sign differently")
	}

	// A replica started with --signing-key rotates the fleet to that key.
	file := seededKey(t, "file")
	t1 := t0.Add(24 * time.Hour)
	ringC, stateC, err := Reconcile(stateA, file, t1, DefaultRetention, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ringC.Current().KID != file.KID() || ringC.SigningKey() != file || stateC == nil || bytes.Contains(stateC, []byte("PRIVATE KEY")) {
		t.Fatalf("rotation to the key file: %s", stateC)
	}
	if r := ringC.Retained(); len(r) != 1 || r[0].KID != generated.KID() || !r[0].NotAfter.Equal(t1.Add(DefaultRetention)) {
		t.Fatalf("retained %+v", r)
	}
	// Another replica with the same file: nothing to write.
	if ring, st, err := Reconcile(stateC, file, t1.Add(time.Hour), DefaultRetention, nil); err != nil || st != nil || ring.SigningKey() != file {
		t.Fatalf("same key file: %v %s", err, st)
	}
	// A replica without the file cannot sign for the fleet.
	if _, _, err := Reconcile(stateC, nil, t1, DefaultRetention, nil); !errors.Is(err, ErrNoPrivateKey) {
		t.Fatalf("no key file: %v", err)
	}
	// After the retention the old key is pruned from the stored state.
	ringD, stateD, err := Reconcile(stateC, file, t1.Add(DefaultRetention+time.Second), DefaultRetention, nil)
	if err != nil || stateD == nil || len(ringD.Retained()) != 0 {
		t.Fatalf("prune: %v %s", err, stateD)
	}
	// Empty store with a key file: only the public half is stored.
	ringE, stateE, err := Reconcile(nil, file, t0, DefaultRetention, nil)
	if err != nil || ringE.Custody() != External || bytes.Contains(stateE, []byte("PRIVATE KEY")) || ringE.SigningKey() != file {
		t.Fatalf("key file on an empty store: %v %s", err, stateE)
	}
	// A broken state or a broken random source is an error, not a new key.
	if _, _, err := Reconcile([]byte("{}"), nil, t0, DefaultRetention, nil); err == nil {
		t.Fatal("a broken state was accepted")
	}
	if _, _, err := Reconcile(nil, nil, t0, DefaultRetention, iotest.ErrReader(errors.New("no entropy"))); err == nil {
		t.Fatal("a failed key generation was accepted")
	}
}

func TestJWKSBytesAndETag(t *testing.T) {
	t0 := time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)
	a, b := seededKey(t, "a"), seededKey(t, "b")
	ring := NewKeyring(a, InStore, t0)
	j1 := ring.JWKS(t0)
	want := `{"keys":[{"alg":"EdDSA","crv":"Ed25519","kid":"` + a.KID() + `","kty":"OKP","use":"sig","x":"` + b64.EncodeToString(a.PublicKey()) + `"}]}`
	if string(j1) != want {
		t.Fatalf("JWKS\n got %s\nwant %s", j1, want)
	}
	if again := NewKeyring(a, InStore, t0.Add(time.Hour)).JWKS(t0.Add(time.Hour)); !bytes.Equal(again, j1) || ETag(again) != ETag(j1) {
		t.Fatal("the same published keys gave other bytes")
	}
	if e := ETag(j1); len(e) != 34 || e[0] != '"' || e[33] != '"' {
		t.Fatalf("ETag %s", e)
	}
	rotated, _ := ring.Rotate(b, InStore, t0, time.Hour)
	j2 := rotated.JWKS(t0)
	if ETag(j2) == ETag(j1) {
		t.Fatal("rotation kept the ETag")
	}
	if !bytes.Contains(j2, []byte(`"not_after":"2026-02-01T09:00:00Z"`)) {
		t.Fatalf("retained key without not_after: %s", j2)
	}
	// After retention the set is back to one key, and its old ETag.
	if j3 := rotated.JWKS(t0.Add(2 * time.Hour)); bytes.Contains(j3, []byte(a.KID())) {
		t.Fatalf("expired key still published: %s", j3)
	}
}

func TestParseJWKSRefusals(t *testing.T) {
	a, b := seededKey(t, "a"), seededKey(t, "b")
	ring, _ := NewKeyring(a, InStore, time.Unix(0, 0)).Rotate(b, InStore, time.Unix(3600, 0), time.Hour)
	set := ring.JWKS(time.Unix(3600, 0))
	key := func(m map[string]any) map[string]any { return m["keys"].([]any)[0].(map[string]any) }
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not JSON", []byte("["), "JWKS"},
		{"not an object", []byte("[]"), "not a JSON object"},
		{"no keys", []byte(`{"keys":{}}`), `no "keys"`},
		{"RSA", mutateState(t, set, func(m map[string]any) { key(m)["kty"] = "RSA" }), "not an Ed25519 key"},
		{"X25519", mutateState(t, set, func(m map[string]any) { key(m)["crv"] = "X25519" }), "not an Ed25519 key"},
		{"private part", mutateState(t, set, func(m map[string]any) { key(m)["d"] = b64.EncodeToString(b.priv.Seed()) }), "private key"},
		{"use enc", mutateState(t, set, func(m map[string]any) { key(m)["use"] = "enc" }), "use"},
		{"alg ES256", mutateState(t, set, func(m map[string]any) { key(m)["alg"] = "ES256" }), "alg"},
		{"kid of another key", mutateState(t, set, func(m map[string]any) { key(m)["kid"] = a.KID() }), "is not the key id"},
		{"kid missing", mutateState(t, set, func(m map[string]any) { delete(key(m), "kid") }), "no string kid"},
		{"x padded", mutateState(t, set, func(m map[string]any) { key(m)["x"] = key(m)["x"].(string) + "=" }), "not base64url"},
		{"not_after as a number", mutateState(t, set, func(m map[string]any) { key(m)["not_after"] = 1 }), "not_after"},
		{"duplicate kid", mutateState(t, set, func(m map[string]any) { m["keys"] = []any{key(m), key(m)} }), "appears twice"},
		{"too many keys", mutateState(t, set, func(m map[string]any) { m["keys"] = make([]any, MaxRetainedKeys+2) }), "more than"},
		{"oversized", make([]byte, maxStateBytes+1), "exceeds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJWKS(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// Members a JWK may carry and this format does not use are ignored.
	extra := mutateState(t, set, func(m map[string]any) { key(m)["key_ops"] = []any{"verify"}; delete(key(m), "use") })
	ks, err := ParseJWKS(extra)
	if err != nil || len(ks.Keys()) != 2 || ks.Keys()[1].NotAfter.IsZero() {
		t.Fatalf("extra members: %v", err)
	}
}
