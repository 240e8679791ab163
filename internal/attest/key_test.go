package attest

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RFC 8037 Appendix A.1 (the Ed25519 private key d and public key x) and A.4
// (the JWS of "Example of Ed25519 signing" under {"alg":"EdDSA"}).
const (
	rfc8037D   = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"
	rfc8037X   = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
	rfc8037JWS = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
)

func rfc8037Key(t *testing.T) *Key {
	t.Helper()
	seed, err := b64.DecodeString(rfc8037D)
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewKeyFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestRFC8037A1Key(t *testing.T) {
	k := rfc8037Key(t)
	if got := b64.EncodeToString(k.PublicKey()); got != rfc8037X {
		t.Fatalf("x = %s, want %s", got, rfc8037X)
	}
	// The kid as Python's hashlib computes it (pyjose.py sign).
	if want := loadPythonVectors(t).RFC8037.KID; k.KID() != want {
		t.Fatalf("kid = %s, Python's hashlib gives %s", k.KID(), want)
	}
}

func TestRFC8037A4Signature(t *testing.T) {
	k := rfc8037Key(t)
	got := signRaw(k, `{"alg":"EdDSA"}`, "Example of Ed25519 signing")
	if got != rfc8037JWS {
		t.Fatalf("got  %s\nwant %s", got, rfc8037JWS)
	}
	if py := loadPythonVectors(t).RFC8037.JWSA4; py != rfc8037JWS {
		t.Fatalf("Python's A.4 %s differs from the RFC", py)
	}
}

// TestPEMMatchesPython parses the PKCS#8 PEM keys that Python's cryptography
// wrote, and checks that MarshalPEM writes exactly the same bytes.
func TestPEMMatchesPython(t *testing.T) {
	v := loadPythonVectors(t)
	all := map[string]struct{ KID, X, PEM string }{"rfc8037": {v.RFC8037.KID, v.RFC8037.X, v.RFC8037.PEM}}
	for n, k := range v.Keys {
		all[n] = k
	}
	for name, want := range all {
		k, err := ParsePrivateKeyPEM([]byte(want.PEM))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if k.KID() != want.KID || b64.EncodeToString(k.PublicKey()) != want.X {
			t.Errorf("%s: kid %s x %s, Python has %s %s", name, k.KID(), b64.EncodeToString(k.PublicKey()), want.KID, want.X)
		}
		if got := string(k.MarshalPEM()); got != want.PEM {
			t.Errorf("%s: MarshalPEM\n%s\nPython wrote\n%s", name, got, want.PEM)
		}
	}
}

func TestGeneratedKeyRoundTrip(t *testing.T) {
	k, err := GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePrivateKeyPEM(k.MarshalPEM())
	if err != nil {
		t.Fatal(err)
	}
	if back.KID() != k.KID() || len(k.KID()) != 16 {
		t.Fatalf("kid %s came back as %s", k.KID(), back.KID())
	}
	other, _ := GenerateKey(rand.Reader)
	if other.KID() == k.KID() {
		t.Fatal("two generated keys share a kid")
	}
	msg := []byte("m")
	if !ed25519.Verify(back.PublicKey(), msg, ed25519.Sign(k.priv, msg)) {
		t.Fatal("the parsed key does not verify the original's signature")
	}
}

func TestLoadPrivateKeyFile(t *testing.T) {
	k := seededKey(t, "file")
	dir := t.TempDir()
	path := filepath.Join(dir, "signing.pem")
	if err := os.WriteFile(path, k.MarshalPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := LoadPrivateKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.KID() != k.KID() {
		t.Fatalf("kid %s, want %s", got.KID(), k.KID())
	}
	if _, err := LoadPrivateKeyFile(filepath.Join(dir, "missing.pem")); err == nil {
		t.Fatal("a missing file was accepted")
	}
	big := filepath.Join(dir, "big.pem")
	if err := os.WriteFile(big, append(k.MarshalPEM(), make([]byte, maxPEMBytes)...), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPrivateKeyFile(big); err == nil || !strings.Contains(err.Error(), "not an Ed25519 PEM key") {
		t.Fatalf("an oversized file: %v", err)
	}
}

func TestParsePrivateKeyPEMRefusals(t *testing.T) {
	good := seededKey(t, "pem").MarshalPEM()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, err := x509.MarshalPKCS8PrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(good)
	withHeaders := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: block.Bytes})
	for _, tc := range []struct {
		name, data, want string
	}{
		{"empty", "", "no PEM block"},
		{"not PEM", "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A", "no PEM block"},
		{"an ECDSA key", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER})), "not an Ed25519 key"},
		{"encrypted", string(pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: block.Bytes})), "encrypted"},
		{"a public key", string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: block.Bytes})), "is not a PKCS#8"},
		{"PEM headers", string(withHeaders), "headers"},
		{"two keys", string(good) + string(good), "more than one PEM block"},
		{"garbage DER", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{0x30, 0x03, 1, 2, 3}})), "parsing the PKCS#8 key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePrivateKeyPEM([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// Text around the block (comments) is allowed, as OpenSSL allows it.
	if _, err := ParsePrivateKeyPEM(append([]byte("# signing key\n"), good...)); err != nil {
		t.Fatal(err)
	}
}

func TestNewKeyRefusesMismatchedHalves(t *testing.T) {
	a, b := seededKey(t, "a"), seededKey(t, "b")
	mixed := append(append(ed25519.PrivateKey{}, a.priv.Seed()...), b.PublicKey()...)
	if _, err := NewKey(mixed); err == nil {
		t.Fatal("a private key with a foreign public half was accepted")
	}
	if _, err := NewKey(a.priv[:40]); err == nil {
		t.Fatal("a short private key was accepted")
	}
	if _, err := NewKeyFromSeed(make([]byte, 31)); err == nil {
		t.Fatal("a short seed was accepted")
	}
}
