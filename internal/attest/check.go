package attest

import (
	"fmt"
	"time"
)

// Checker verifies the attestations of answers read back as generic JSON
// (`precisiond verify --jwks`): against Keys at Now, requiring the iss
// Issuer ("" accepts any).
type Checker struct {
	Keys   *KeySet
	Issuer string
	Now    time.Time
}

// signedBy is the suffix of an OK line: which key signed, for which issuer.
func signedBy(v Verified) string {
	return fmt.Sprintf(" signed by kid %s (iss %q)", v.KID, v.Issuer)
}

// Result checks the attestation jws of an answer whose envelope sr already
// verified, and returns the OK line's suffix.
func (c *Checker) Result(jws any, sr map[string]any) (string, error) {
	s, ok := jws.(string)
	if !ok {
		return "", fmt.Errorf("attestation: the answer carries no attestation (%s)", Reason(ErrMalformed))
	}
	claims, err := ResultClaimsFromGeneric(sr, c.Issuer)
	if err != nil {
		return "", err
	}
	v, err := c.Keys.VerifyResult(s, claims, c.Now)
	if err != nil {
		return "", fmt.Errorf("attestation %s: %w", Reason(err), err)
	}
	return signedBy(v), nil
}

// PlanRun checks the attestation jws of a completed plan run, and returns
// the OK line's suffix.
func (c *Checker) PlanRun(jws any, planID string, runHash any) (string, error) {
	s, ok := jws.(string)
	rh, _ := runHash.(string)
	if !ok {
		return "", fmt.Errorf("attestation: the run carries no attestation (%s)", Reason(ErrMalformed))
	}
	v, err := c.Keys.VerifyPlanRun(s, PlanRunClaims{PlanID: planID, RunHash: rh, Issuer: c.Issuer}, c.Now)
	if err != nil {
		return "", fmt.Errorf("attestation %s: %w", Reason(err), err)
	}
	return signedBy(v), nil
}
