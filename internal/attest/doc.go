// Package attest signs precisiond's answers and plan runs and verifies the
// signatures (issue 21): Ed25519 keys with a kid, a keyring that rotates keys
// and keeps retired public keys published for a retention period, JWS compact
// attestations (RFC 7515, alg EdDSA of RFC 8037) over canonical JSON claims, the
// JWK Set that publishes the keys, and strict verification with typed errors.
//
// The format is specified for users in docs/attestation.md. In short, an
// attestation is
//
//	base64url(header) "." base64url(payload) "." base64url(Ed25519 signature)
//
// where header is the canonical JSON (evidence.Canonical) {"alg":"EdDSA","kid":KID,"typ":TYP}
// with TYP "precisiond-result+jws" for a tool answer and
// "precisiond-plan-run+jws" for a plan run, and payload is the canonical JSON of
// ResultClaims or PlanRunClaims. KID is the first 16 hex digits of the SHA-256
// of the raw public key.
//
// The package reads no clock (every time-dependent call takes now) and imports
// neither net/http nor the api package; the service wires it in.
package attest
