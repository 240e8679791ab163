package attest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/precisiond/precisiond/evidence"
)

// JWKS returns the JWK Set (RFC 7517 §5) of the keys published at now, as
// canonical JSON: {"keys":[…]} with the current key first, then the retained
// keys, most recently retired first. Each key is
//
//	{"alg":"EdDSA","crv":"Ed25519","kid":…,"kty":"OKP","use":"sig","x":…}
//
// (RFC 8037 §2) and a retained key also has "not_after" (2006-01-02T15:04:05Z,
// UTC), the last instant it is published and accepted. The same keyring and the
// same published set always give the same bytes (see ETag).
func (r *Keyring) JWKS(now time.Time) []byte {
	return encodeJWKS(r.Published(now))
}

func encodeJWKS(keys []PublicKey) []byte {
	list := make([]any, len(keys))
	for i, k := range keys {
		jwk := map[string]any{
			"kty": "OKP",
			"crv": "Ed25519",
			"x":   b64.EncodeToString(k.Key),
			"kid": k.KID,
			"use": "sig",
			"alg": Algorithm,
		}
		if !k.NotAfter.IsZero() {
			jwk["not_after"] = k.NotAfter.UTC().Format(timeLayout)
		}
		list[i] = jwk
	}
	b, err := evidence.Canonical(map[string]any{"keys": list})
	if err != nil { // only strings: cannot fail
		panic("attest: encoding the key set: " + err.Error())
	}
	return b
}

// ETag returns a strong entity tag for a JWKS body: the first 32 hex digits of
// its SHA-256, quoted.
func ETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// KeySet is a set of verification keys, read from a JWKS (ParseJWKS) or taken
// from a keyring (Keyring.KeySet). It is immutable and safe for concurrent use.
type KeySet struct {
	keys []PublicKey
}

func newKeySet(keys []PublicKey) *KeySet { return &KeySet{keys: keys} }

// Keys returns the keys of the set in their published order.
func (s *KeySet) Keys() []PublicKey {
	out := make([]PublicKey, len(s.keys))
	copy(out, s.keys)
	return out
}

// lookup returns the key with the given kid.
func (s *KeySet) lookup(kid string) (PublicKey, bool) {
	for _, k := range s.keys {
		if k.KID == kid {
			return k, true
		}
	}
	return PublicKey{}, false
}

// ParseJWKS reads a JWK Set as JWKS writes it. Every key must be an Ed25519 OKP
// key (kty "OKP", crv "Ed25519", a 32-byte x) whose kid is KeyID(x); use, if
// present, must be "sig", alg, if present, "EdDSA", and not_after, if present,
// of the form 2006-01-02T15:04:05Z. A key with a private part ("d") and a
// repeated kid are refused; other members are ignored (RFC 7517 §4).
func ParseJWKS(data []byte) (*KeySet, error) {
	if len(data) > maxStateBytes {
		return nil, fmt.Errorf("attest: JWKS of %d bytes exceeds %d", len(data), maxStateBytes)
	}
	v, err := evidence.ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("attest: JWKS: %w", err)
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("attest: JWKS is not a JSON object")
	}
	list, ok := top["keys"].([]any)
	if !ok {
		return nil, errors.New(`attest: JWKS has no "keys" list`)
	}
	if len(list) > 1+MaxRetainedKeys {
		return nil, fmt.Errorf("attest: JWKS has %d keys, more than %d", len(list), 1+MaxRetainedKeys)
	}
	keys := make([]PublicKey, 0, len(list))
	for i, e := range list {
		k, err := parseJWK(e)
		if err != nil {
			return nil, fmt.Errorf("attest: JWKS key %d: %w", i, err)
		}
		for _, prev := range keys {
			if prev.KID == k.KID {
				return nil, fmt.Errorf("attest: JWKS: kid %s appears twice", k.KID)
			}
		}
		keys = append(keys, k)
	}
	return newKeySet(keys), nil
}

func parseJWK(v any) (PublicKey, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return PublicKey{}, errors.New("not a JSON object")
	}
	if m["kty"] != "OKP" || m["crv"] != "Ed25519" {
		return PublicKey{}, fmt.Errorf("kty %s crv %s is not an Ed25519 key (OKP, Ed25519)", quoteAny(m["kty"]), quoteAny(m["crv"]))
	}
	if _, ok := m["d"]; ok {
		return PublicKey{}, errors.New("holds a private key (d); a key set must publish public keys only")
	}
	if use, ok := m["use"]; ok && use != "sig" {
		return PublicKey{}, fmt.Errorf("use %s is not sig", quoteAny(use))
	}
	if alg, ok := m["alg"]; ok && alg != Algorithm {
		return PublicKey{}, fmt.Errorf("alg %s is not %s", quoteAny(alg), Algorithm)
	}
	kid, ok := m["kid"].(string)
	if !ok {
		return PublicKey{}, errors.New("no string kid")
	}
	pub, err := publicKey(m["x"], kid)
	if err != nil {
		return PublicKey{}, err
	}
	k := PublicKey{KID: kid, Key: pub}
	if na, ok := m["not_after"]; ok {
		if k.NotAfter, err = parseTime(na); err != nil {
			return PublicKey{}, fmt.Errorf("not_after: %w", err)
		}
	}
	return k, nil
}
