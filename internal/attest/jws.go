package attest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/precisiond/precisiond/evidence"
)

// Algorithm is the JWS alg of every attestation (RFC 8037 §3.1).
const Algorithm = "EdDSA"

// JWKSPath is where the service publishes the keys that sign its answers
// (docs/attestation.md).
const JWKSPath = "/.well-known/jwks.json"

// MCPMetaKey is the _meta key of an MCP tool result that carries the
// answer's attestation (docs/attestation.md): the envelope in
// structuredContent stays exactly the envelope.
const MCPMetaKey = "precisiond/attestation"

// The typ header values (RFC 7515 §4.1.9) of the two kinds of attestation.
const (
	TypeResult  = "precisiond-result+jws"
	TypePlanRun = "precisiond-plan-run+jws"
	// TypeCacheEntry seals an entry of the answer cache kept in the shared
	// store (internal/answercache); it is never part of an answer.
	TypeCacheEntry = "precisiond-cache-entry+jws"
)

// MaxAttestationBytes bounds an attestation string. A real one is about 450
// bytes (the issuer is at most MaxIssuerBytes); anything longer is refused as
// malformed before it is decoded.
const MaxAttestationBytes = 8 << 10

// b64 is base64url without padding (RFC 7515 §2) in strict mode, so every byte
// string has exactly one accepted encoding. Go's decoder still skips CR and LF,
// which checkAlphabet refuses first.
var b64 = base64.RawURLEncoding.Strict()

// headerPrefix returns base64url(canonical header) + ".". The header is
// {"alg":"EdDSA","kid":KID,"typ":TYP}; its keys are already in code-point
// order and a kid (16 hex digits) and both typ values need no escaping, so the
// concatenation below is its canonical JSON.
func headerPrefix(kid, typ string) string {
	h := `{"alg":"` + Algorithm + `","kid":"` + kid + `","typ":"` + typ + `"}`
	return b64.EncodeToString([]byte(h)) + "."
}

// appendCompact appends the JWS compact serialization of payload to dst:
// prefix (base64url(header) + ".") + base64url(payload) + "." +
// base64url(Ed25519 signature over everything before the second dot).
func appendCompact(dst []byte, priv ed25519.PrivateKey, prefix string, payload []byte) []byte {
	start := len(dst)
	dst = append(dst, prefix...)
	dst = b64.AppendEncode(dst, payload)
	sig := ed25519.Sign(priv, dst[start:])
	dst = append(dst, '.')
	return b64.AppendEncode(dst, sig)
}

// compact is a JWS compact serialization split and decoded, with a header that
// passed the algorithm, crit, typ and canonical-form checks.
type compact struct {
	kid          string
	signingInput string // base64url(header) "." base64url(payload)
	payload      []byte
	sig          []byte
}

// checkAlphabet refuses any byte outside the base64url alphabet and '.'.
func checkAlphabet(s string) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("%w: byte %#02x at offset %d is not base64url", ErrMalformed, c, i)
		}
	}
	return nil
}

// parseCompact splits and decodes s strictly and checks its protected header:
// exactly three segments, strict base64url, a header that is a JSON object
// with alg "EdDSA", no crit, typ equal to wantTyp and a string kid, written
// exactly in canonical form (so no other header parameter is present). The
// signature and the payload's content are not checked here.
func parseCompact(s, wantTyp string) (*compact, error) {
	if len(s) > MaxAttestationBytes {
		return nil, fmt.Errorf("%w: %d bytes exceed the limit of %d", ErrMalformed, len(s), MaxAttestationBytes)
	}
	if err := checkAlphabet(s); err != nil {
		return nil, err
	}
	h, rest, ok1 := strings.Cut(s, ".")
	p, sg, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || strings.Contains(sg, ".") {
		return nil, fmt.Errorf("%w: want 3 dot-separated segments, have %d", ErrMalformed, strings.Count(s, ".")+1)
	}
	hdrBytes, err := b64.DecodeString(h)
	if err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrMalformed, err)
	}
	hv, err := evidence.ParseJSON(hdrBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: header is not JSON: %v", ErrMalformed, err)
	}
	hdr, ok := hv.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: header is not a JSON object", ErrMalformed)
	}
	if alg, _ := hdr["alg"].(string); alg != Algorithm {
		return nil, fmt.Errorf("%w: alg %s (only %s is accepted)", ErrAlgorithm, quoteAny(hdr["alg"]), Algorithm)
	}
	if c, ok := hdr["crit"]; ok {
		return nil, fmt.Errorf("%w: crit %s", ErrCritical, quoteAny(c))
	}
	if typ, _ := hdr["typ"].(string); typ != wantTyp {
		return nil, fmt.Errorf("%w: typ %s, want %q", ErrType, quoteAny(hdr["typ"]), wantTyp)
	}
	kid, ok := hdr["kid"].(string)
	if !ok {
		return nil, fmt.Errorf("%w: header has no string kid", ErrMalformed)
	}
	canon, err := evidence.Canonical(map[string]any{"alg": Algorithm, "kid": kid, "typ": wantTyp})
	if err != nil || !bytes.Equal(canon, hdrBytes) {
		return nil, fmt.Errorf("%w: header is not exactly %s", ErrMalformed, canon)
	}
	payload, err := b64.DecodeString(p)
	if err != nil {
		return nil, fmt.Errorf("%w: payload: %v", ErrMalformed, err)
	}
	sig, err := b64.DecodeString(sg)
	if err != nil {
		return nil, fmt.Errorf("%w: signature: %v", ErrMalformed, err)
	}
	if len(sig) != ed25519.SignatureSize {
		return nil, fmt.Errorf("%w: signature has %d bytes, not %d", ErrMalformed, len(sig), ed25519.SignatureSize)
	}
	return &compact{kid: kid, signingInput: s[:len(h)+1+len(p)], payload: payload, sig: sig}, nil
}

// quoteAny shows an untrusted header value in an error message, bounded.
func quoteAny(v any) string {
	if v == nil {
		return "(absent)"
	}
	b, err := evidence.Canonical(v)
	if err != nil {
		return "(unprintable)"
	}
	if len(b) > 64 {
		return string(b[:64]) + "…"
	}
	return string(b)
}
