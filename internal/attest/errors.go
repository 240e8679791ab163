package attest

import "errors"

// Verification errors. Every error a Verify method returns wraps exactly one of
// these (test with errors.Is); Reason gives its stable machine name, which the
// Python and JavaScript verifiers of docs/attestation.md report too.
var (
	// ErrMalformed: not a JWS compact serialization of this format (segment
	// count, characters, base64url, JSON, a header or payload that is not the
	// canonical form the signer writes, a signature that is not 64 bytes).
	ErrMalformed = errors.New("attest: malformed attestation")
	// ErrAlgorithm: the header's alg is not EdDSA (this includes "none").
	ErrAlgorithm = errors.New("attest: unsupported algorithm")
	// ErrCritical: the header has a crit parameter; no extension is understood,
	// so RFC 7515 §4.1.11 requires refusing it.
	ErrCritical = errors.New("attest: unsupported critical header parameter")
	// ErrType: the header's typ is not the one expected (a plan-run attestation
	// presented for a tool answer, or the reverse).
	ErrType = errors.New("attest: wrong attestation type")
	// ErrUnknownKey: no key with the header's kid is published (a signature by
	// an unpublished key, or by a key whose retention ended and that was removed
	// from the key set).
	ErrUnknownKey = errors.New("attest: unknown signing key")
	// ErrKeyExpired: the signature is valid but the key set publishes the key
	// with a not_after before the verification time (a stale copy of the key
	// set).
	ErrKeyExpired = errors.New("attest: signing key expired")
	// ErrBadSignature: the Ed25519 signature does not verify under the key the
	// kid names.
	ErrBadSignature = errors.New("attest: bad signature")
	// ErrPayloadMismatch: the signature is valid but the signed claims are not
	// those of the answer being checked (a different tool, contract or hash, or
	// another issuer than the one required).
	ErrPayloadMismatch = errors.New("attest: attestation does not match the answer")
)

var reasons = []struct {
	err    error
	reason string
}{
	{ErrMalformed, "malformed"},
	{ErrAlgorithm, "unsupported_alg"},
	{ErrCritical, "unsupported_crit"},
	{ErrType, "wrong_typ"},
	{ErrUnknownKey, "unknown_kid"},
	{ErrKeyExpired, "key_expired"},
	{ErrBadSignature, "bad_signature"},
	{ErrPayloadMismatch, "payload_mismatch"},
}

// Reason returns the machine name of a verification error ("malformed",
// "unsupported_alg", "unsupported_crit", "wrong_typ", "unknown_kid",
// "key_expired", "bad_signature", "payload_mismatch"), "" for nil and
// "error" for an error of another kind.
func Reason(err error) string {
	if err == nil {
		return ""
	}
	for _, r := range reasons {
		if errors.Is(err, r.err) {
			return r.reason
		}
	}
	return "error"
}
