package main

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/attest"
)

// attestCheck verifies attestations for `precisiond verify --jwks`.
type attestCheck struct {
	keys   *attest.KeySet
	issuer string // required iss; "" accepts any
	now    time.Time
}

// loadJWKS reads a key set from a file or a URL; a URL without a path is a
// server's base URL, whose key set is at /.well-known/jwks.json.
func loadJWKS(arg string) (*attest.KeySet, error) {
	var data []byte
	var err error
	if isURL(arg) {
		u, perr := url.Parse(arg)
		if perr != nil {
			return nil, fmt.Errorf("--jwks %q: %v", arg, perr)
		}
		if strings.Trim(u.Path, "/") == "" {
			u.Path = api.JWKSPath
		}
		data, err = httpGet(u.String(), "", false) // the key set is public
	} else {
		data, err = os.ReadFile(arg)
	}
	if err != nil {
		return nil, fmt.Errorf("--jwks: %w", err)
	}
	keys, err := attest.ParseJWKS(data)
	if err != nil {
		return nil, fmt.Errorf("--jwks %s: %w", arg, err)
	}
	return keys, nil
}

// signedBy is the suffix of an OK line: which key signed, for which issuer.
func signedBy(v attest.Verified) string {
	return fmt.Sprintf(" signed by kid %s (iss %q)", v.KID, v.Issuer)
}

// result checks the attestation of an answer whose envelope sr already
// verified, and returns the OK line's suffix.
func (c *attestCheck) result(jws any, sr map[string]any) (string, error) {
	s, ok := jws.(string)
	if !ok {
		return "", fmt.Errorf("attestation: the answer carries no attestation (%s)", attest.Reason(attest.ErrMalformed))
	}
	claims, err := attest.ResultClaimsFromGeneric(sr, c.issuer)
	if err != nil {
		return "", err
	}
	v, err := c.keys.VerifyResult(s, claims, c.now)
	if err != nil {
		return "", fmt.Errorf("attestation %s: %w", attest.Reason(err), err)
	}
	return signedBy(v), nil
}

// planRun checks the attestation of a completed plan run.
func (c *attestCheck) planRun(jws any, planID string, runHash any) (string, error) {
	s, ok := jws.(string)
	rh, _ := runHash.(string)
	if !ok {
		return "", fmt.Errorf("attestation: the run carries no attestation (%s)", attest.Reason(attest.ErrMalformed))
	}
	v, err := c.keys.VerifyPlanRun(s, attest.PlanRunClaims{PlanID: planID, RunHash: rh, Issuer: c.issuer}, c.now)
	if err != nil {
		return "", fmt.Errorf("attestation %s: %w", attest.Reason(err), err)
	}
	return signedBy(v), nil
}
