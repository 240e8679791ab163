package attest

import (
	"crypto/ed25519"
	"fmt"
	"time"
)

// Verified reports who signed a verified attestation.
type Verified struct {
	// KID is the kid of the key that signed.
	KID string
	// Issuer is the signed iss claim.
	Issuer string
	// NotAfter is the key's not_after in the key set; zero for a key published
	// without one (the current key).
	NotAfter time.Time
}

// resultKeys and planRunKeys are the exact payload keys of each kind.
var (
	resultKeys  = []string{"contract_hash", "contract_id", "contract_version", "iss", "result_hash", "tool"}
	planRunKeys = []string{"iss", "plan_id", "run_hash"}
	entryKeys   = []string{"entry_sha256", "iss"}
)

// VerifyResult checks a result attestation against the answer it travels with:
// jws must be a strictly formed EdDSA JWS of typ precisiond-result+jws, signed
// by a key of the set that is not expired at now, whose canonical payload
// carries exactly want's tool, contract_id, contract_version, contract_hash and
// result_hash. want.Issuer "" accepts any issuer (reported in Verified);
// otherwise iss must equal it.
//
// Checks run in this order, and the error wraps the first that fails:
// ErrMalformed, ErrAlgorithm, ErrCritical, ErrType (the header), ErrMalformed
// (payload and signature encoding), ErrUnknownKey (kid not in the set),
// ErrBadSignature, ErrKeyExpired (the key's not_after is before now; checked
// after the signature so that it only ever describes a genuine signature),
// ErrMalformed (payload not canonical), ErrPayloadMismatch.
func (s *KeySet) VerifyResult(jws string, want ResultClaims, now time.Time) (Verified, error) {
	got, v, err := s.verify(jws, TypeResult, resultKeys, now)
	if err != nil {
		return Verified{}, err
	}
	for _, f := range []struct{ key, want string }{
		{"tool", want.Tool}, {"contract_id", want.ContractID}, {"contract_version", want.ContractVersion},
		{"contract_hash", want.ContractHash}, {"result_hash", want.ResultHash},
	} {
		if got[f.key] != f.want {
			return Verified{}, mismatch(f.key, got[f.key], f.want)
		}
	}
	return v, checkIssuer(v.Issuer, want.Issuer)
}

// VerifyPlanRun checks a plan-run attestation (typ precisiond-plan-run+jws)
// against a plan run's plan_id and run_hash, exactly as VerifyResult does for
// an answer.
func (s *KeySet) VerifyPlanRun(jws string, want PlanRunClaims, now time.Time) (Verified, error) {
	got, v, err := s.verify(jws, TypePlanRun, planRunKeys, now)
	if err != nil {
		return Verified{}, err
	}
	for _, f := range []struct{ key, want string }{{"plan_id", want.PlanID}, {"run_hash", want.RunHash}} {
		if got[f.key] != f.want {
			return Verified{}, mismatch(f.key, got[f.key], f.want)
		}
	}
	return v, checkIssuer(v.Issuer, want.Issuer)
}

// VerifyCacheEntry checks a seal made by SignCacheEntry against the hex
// SHA-256 of an entry, with the checks of VerifyResult; any issuer is
// accepted.
func (s *KeySet) VerifyCacheEntry(jws, entrySHA256 string, now time.Time) (Verified, error) {
	got, v, err := s.verify(jws, TypeCacheEntry, entryKeys, now)
	if err != nil {
		return Verified{}, err
	}
	if got["entry_sha256"] != entrySHA256 {
		return Verified{}, mismatch("entry_sha256", got["entry_sha256"], entrySHA256)
	}
	return v, nil
}

// verify runs the checks common to both kinds and returns the signed claims.
func (s *KeySet) verify(jws, typ string, keys []string, now time.Time) (map[string]string, Verified, error) {
	c, err := parseCompact(jws, typ)
	if err != nil {
		return nil, Verified{}, err
	}
	k, ok := s.lookup(c.kid)
	if !ok {
		return nil, Verified{}, fmt.Errorf("%w: kid %.40q is not in the key set", ErrUnknownKey, c.kid)
	}
	if !ed25519.Verify(k.Key, []byte(c.signingInput), c.sig) {
		return nil, Verified{}, fmt.Errorf("%w (kid %s)", ErrBadSignature, k.KID)
	}
	if k.ExpiredAt(now) {
		return nil, Verified{}, fmt.Errorf("%w: kid %s was published until %s", ErrKeyExpired, k.KID, k.NotAfter.Format(timeLayout))
	}
	got, err := parsePayload(c.payload, keys)
	if err != nil {
		return nil, Verified{}, err
	}
	return got, Verified{KID: k.KID, Issuer: got["iss"], NotAfter: k.NotAfter}, nil
}

func mismatch(key, got, want string) error {
	return fmt.Errorf("%w: signed %s is %.80q, the answer's is %.80q", ErrPayloadMismatch, key, got, want)
}

func checkIssuer(got, want string) error {
	if want != "" && got != want {
		return mismatch("iss", got, want)
	}
	return nil
}
