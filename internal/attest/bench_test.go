package attest

import (
	"crypto/ed25519"
	"testing"
	"time"
)

// BenchmarkSignResult measures attesting one answer: building the canonical
// claims, one Ed25519 signature and the compact serialization.
func BenchmarkSignResult(b *testing.B) {
	env := gcdEnvelope(b, "23", "5083")
	s := mustSigner(b, seededKey(b, "bench"), testIssuer)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SignResult(env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSignPlanRun measures attesting one plan run.
func BenchmarkSignPlanRun(b *testing.B) {
	s := mustSigner(b, seededKey(b, "bench"), testIssuer)
	id, run := "5f0c2d6a7c3b1e9f8a4d2c1b0e9f8a7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19", "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SignPlanRun(id, run); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyResult measures verifying one attestation against a key set
// of two keys (what the answer cache pays per hit).
func BenchmarkVerifyResult(b *testing.B) {
	v := buildGoVectors(b, goVectorsNow)
	ks := mustParseJWKS(b, v.JWKS["live"])
	want, err := ResultClaimsFromGeneric(v.Cases[0].Answer["structured_result"].(map[string]any), "")
	if err != nil {
		b.Fatal(err)
	}
	jws := v.Cases[0].Answer["attestation"].(string)
	now := mustTime(b, v.Now)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ks.VerifyResult(jws, want, now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJWKS measures encoding the published key set (served per request
// unless the caller caches the bytes and their ETag).
func BenchmarkJWKS(b *testing.B) {
	t0 := goVectorsNow
	ring, err := NewKeyring(seededKey(b, "a"), InStore, t0).Rotate(seededKey(b, "b"), InStore, t0.Add(time.Hour), DefaultRetention)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ETag(ring.JWKS(t0))
	}
}

// TestSignAllocations pins the allocation count of signing: the returned
// string is the only heap allocation (the claims and the compact form are
// built on the stack).
func TestSignAllocations(t *testing.T) {
	env := gcdEnvelope(t, "23", "5083")
	s := mustSigner(t, seededKey(t, "bench"), testIssuer)
	if n := testing.AllocsPerRun(100, func() {
		if _, err := s.SignResult(env); err != nil {
			t.Fatal(err)
		}
	}); n > 1 {
		t.Fatalf("SignResult: %v allocations, want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := s.SignPlanRun("p", "r"); err != nil {
			t.Fatal(err)
		}
	}); n > 1 {
		t.Fatalf("SignPlanRun: %v allocations, want 1", n)
	}
}

// BenchmarkEd25519Sign is the floor of BenchmarkSignResult: one bare
// ed25519.Sign over a message of the size of a result attestation's signing
// input (about 300 bytes).
func BenchmarkEd25519Sign(b *testing.B) {
	k := seededKey(b, "bench")
	msg := make([]byte, 300)
	b.ReportAllocs()
	for b.Loop() {
		ed25519.Sign(k.priv, msg)
	}
}
