package attest

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/precisiond/precisiond/evidence"
)

// MaxIssuerBytes bounds the iss claim (--issuer), so that every attestation
// stays far below MaxAttestationBytes.
const MaxIssuerBytes = 1024

// Signer signs answers and plan runs with one key on behalf of one issuer. It
// is immutable and safe for concurrent use; replace it (atomically) to rotate.
type Signer struct {
	key          *Key
	issuer       string
	resultPrefix string // base64url(result header) + "."
	planPrefix   string // base64url(plan-run header) + "."
	entryPrefix  string // base64url(cache-entry header) + "."
}

// NewSigner returns a signer for key that writes iss = issuer. The issuer must
// be non-empty valid UTF-8 of at most MaxIssuerBytes bytes.
func NewSigner(key *Key, issuer string) (*Signer, error) {
	switch {
	case key == nil:
		return nil, errors.New("attest: no signing key")
	case issuer == "":
		return nil, errors.New("attest: the issuer is empty")
	case len(issuer) > MaxIssuerBytes:
		return nil, fmt.Errorf("attest: the issuer has %d bytes, more than %d", len(issuer), MaxIssuerBytes)
	case !utf8.ValidString(issuer):
		return nil, errors.New("attest: the issuer is not valid UTF-8")
	}
	return &Signer{
		key:          key,
		issuer:       issuer,
		resultPrefix: headerPrefix(key.kid, TypeResult),
		planPrefix:   headerPrefix(key.kid, TypePlanRun),
		entryPrefix:  headerPrefix(key.kid, TypeCacheEntry),
	}, nil
}

// KID returns the kid of the signing key.
func (s *Signer) KID() string { return s.key.kid }

// Issuer returns the iss claim the signer writes.
func (s *Signer) Issuer() string { return s.issuer }

// SignResult returns the attestation of a successful answer: a JWS compact
// serialization over ResultClaimsOf(env, s.Issuer()). The envelope is not
// changed; the attestation travels beside it. It fails only for claims that
// are not valid UTF-8.
func (s *Signer) SignResult(env *evidence.Envelope) (string, error) {
	c := ResultClaimsOf(env, s.issuer)
	if err := c.valid(); err != nil {
		return "", err
	}
	var pbuf [512]byte
	return s.sign(s.resultPrefix, c.appendPayload(pbuf[:0])), nil
}

// SignPlanRun returns the attestation of a plan run: a JWS compact
// serialization over PlanRunClaims{planID, runHash, s.Issuer()}.
func (s *Signer) SignPlanRun(planID, runHash string) (string, error) {
	c := PlanRunClaims{PlanID: planID, RunHash: runHash, Issuer: s.issuer}
	if err := c.valid(); err != nil {
		return "", err
	}
	var pbuf [512]byte
	return s.sign(s.planPrefix, c.appendPayload(pbuf[:0])), nil
}

// SignCacheEntry returns a seal over a stored answer-cache entry: a JWS of
// typ TypeCacheEntry over the canonical JSON of {"entry_sha256", "iss"},
// where entrySHA256 is the hex SHA-256 of the entry's bytes without the seal.
// It covers what an answer's attestation does not (the warnings), so that
// an entry altered in the store is refused.
func (s *Signer) SignCacheEntry(entrySHA256 string) (string, error) {
	if err := validStrings(entrySHA256); err != nil {
		return "", err
	}
	var pbuf [512]byte
	b := append(pbuf[:0], `{"entry_sha256":`...)
	b = evidence.AppendString(b, entrySHA256)
	b = append(b, `,"iss":`...)
	b = evidence.AppendString(b, s.issuer)
	return s.sign(s.entryPrefix, append(b, '}')), nil
}

func (s *Signer) sign(prefix string, payload []byte) string {
	// The compact form is built on the stack; the returned string is the only
	// allocation for a payload of ordinary size.
	var jbuf [1024]byte
	return string(appendCompact(jbuf[:0], s.key.priv, prefix, payload))
}
