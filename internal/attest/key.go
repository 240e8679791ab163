package attest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
)

// pemType is the PEM block type of a PKCS#8 private key (RFC 7468 §10).
const pemType = "PRIVATE KEY"

// maxPEMBytes bounds a key file: an Ed25519 PKCS#8 PEM is 119 bytes, so anything
// far larger is not a key and is refused before it is parsed.
const maxPEMBytes = 64 << 10

// Key is an Ed25519 signing key with its key id. It is immutable and safe for
// concurrent use.
type Key struct {
	priv ed25519.PrivateKey
	kid  string
}

// KeyID returns the kid of a public key: the first 16 lowercase hex digits of the
// SHA-256 of its raw 32 bytes.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// NewKey wraps an Ed25519 private key (64 bytes: seed then public key). It
// refuses a key whose public half does not belong to its seed.
func NewKey(priv ed25519.PrivateKey) (*Key, error) {
	if len(priv) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("attest: an Ed25519 private key has %d bytes, not %d", ed25519.PrivateKeySize, len(priv))
	}
	derived := ed25519.NewKeyFromSeed(priv.Seed())
	if !bytes.Equal(derived[32:], priv[32:]) {
		return nil, errors.New("attest: the private key's public half does not match its seed")
	}
	return &Key{priv: derived, kid: KeyID(derived.Public().(ed25519.PublicKey))}, nil
}

// NewKeyFromSeed returns the key of a 32-byte RFC 8032 seed.
func NewKeyFromSeed(seed []byte) (*Key, error) {
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("attest: an Ed25519 seed has %d bytes, not %d", ed25519.SeedSize, len(seed))
	}
	return NewKey(ed25519.NewKeyFromSeed(seed))
}

// GenerateKey returns a new random key read from rand (crypto/rand.Reader when
// rand is nil).
func GenerateKey(rand io.Reader) (*Key, error) {
	_, priv, err := ed25519.GenerateKey(rand)
	if err != nil {
		return nil, fmt.Errorf("attest: generating a key: %w", err)
	}
	return NewKey(priv)
}

// ParsePrivateKeyPEM reads a PKCS#8 PEM Ed25519 private key (a "PRIVATE KEY"
// block, as written by `openssl genpkey -algorithm ed25519` and by MarshalPEM).
// Encrypted keys, other key types, other block types and a second PEM block are
// refused.
func ParsePrivateKeyPEM(data []byte) (*Key, error) {
	if len(data) > maxPEMBytes {
		return nil, fmt.Errorf("attest: a key file of %d bytes is not an Ed25519 PEM key", len(data))
	}
	block, rest := pem.Decode(data)
	if block == nil {
		return nil, errors.New("attest: no PEM block found (want a PKCS#8 \"PRIVATE KEY\")")
	}
	switch {
	case block.Type == "ENCRYPTED PRIVATE KEY":
		return nil, errors.New("attest: encrypted private keys are not supported; decrypt it first (openssl pkey -in KEY -out PLAIN)")
	case block.Type != pemType:
		return nil, fmt.Errorf("attest: PEM block %q is not a PKCS#8 \"PRIVATE KEY\"", block.Type)
	case len(block.Headers) != 0:
		return nil, errors.New("attest: PEM headers are not allowed on a PKCS#8 key")
	}
	if next, _ := pem.Decode(rest); next != nil {
		return nil, errors.New("attest: more than one PEM block; the key file must hold exactly one key")
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("attest: parsing the PKCS#8 key: %w", err)
	}
	priv, ok := parsed.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("attest: the key is a %T, not an Ed25519 key", parsed)
	}
	return NewKey(priv)
}

// LoadPrivateKeyFile reads a PKCS#8 PEM Ed25519 private key from a file (the
// --signing-key flag).
func LoadPrivateKeyFile(path string) (*Key, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("attest: signing key: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPEMBytes+1))
	if err != nil {
		return nil, fmt.Errorf("attest: signing key %s: %w", path, err)
	}
	k, err := ParsePrivateKeyPEM(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return k, nil
}

// KID returns the key id (see KeyID).
func (k *Key) KID() string { return k.kid }

// PublicKey returns the raw 32-byte public key.
func (k *Key) PublicKey() ed25519.PublicKey {
	return k.priv.Public().(ed25519.PublicKey)
}

// MarshalPEM encodes the private key as a PKCS#8 PEM block ("PRIVATE KEY",
// RFC 8410 §7), the form ParsePrivateKeyPEM and OpenSSL read.
func (k *Key) MarshalPEM() []byte {
	der, err := x509.MarshalPKCS8PrivateKey(k.priv)
	if err != nil {
		// MarshalPKCS8PrivateKey fails only for key types it does not know.
		panic("attest: marshalling an Ed25519 key: " + err.Error())
	}
	return pem.EncodeToMemory(&pem.Block{Type: pemType, Bytes: der})
}
