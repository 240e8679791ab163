package attest

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/precisiond/precisiond/evidence"
)

// ResultClaims is what a result attestation signs: the identity of the contract
// that produced an answer, the answer's result_hash and the issuer. Its payload
// is canonical JSON (evidence.Canonical) with exactly these keys:
//
//	{"contract_hash","contract_id","contract_version","iss","result_hash","tool"}
type ResultClaims struct {
	Tool            string `json:"tool"`
	ContractID      string `json:"contract_id"`
	ContractVersion string `json:"contract_version"`
	ContractHash    string `json:"contract_hash"`
	ResultHash      string `json:"result_hash"`
	Issuer          string `json:"iss"`
}

// PlanRunClaims is what a plan-run attestation signs. Its payload is canonical
// JSON with exactly the keys {"iss","plan_id","run_hash"}; plan_id is carried
// because run_hash is computed over it (docs/plans.md), so a reader can tell which
// plan ran without trusting anything unsigned.
type PlanRunClaims struct {
	PlanID  string `json:"plan_id"`
	RunHash string `json:"run_hash"`
	Issuer  string `json:"iss"`
}

// ResultClaimsOf returns the claims of an envelope signed by issuer.
func ResultClaimsOf(env *evidence.Envelope, issuer string) ResultClaims {
	return ResultClaims{
		Tool:            env.Tool,
		ContractID:      env.ContractID,
		ContractVersion: env.ContractVersion,
		ContractHash:    env.ContractHash,
		ResultHash:      env.ResultHash,
		Issuer:          issuer,
	}
}

// ResultClaimsFromGeneric returns the claims of a structured_result decoded as
// generic JSON (what `precisiond verify` reads). Each of tool, contract_id,
// contract_version, contract_hash and result_hash must be a string.
func ResultClaimsFromGeneric(sr map[string]any, issuer string) (ResultClaims, error) {
	var c ResultClaims
	for _, f := range []struct {
		key string
		dst *string
	}{
		{"tool", &c.Tool}, {"contract_id", &c.ContractID}, {"contract_version", &c.ContractVersion},
		{"contract_hash", &c.ContractHash}, {"result_hash", &c.ResultHash},
	} {
		s, ok := sr[f.key].(string)
		if !ok {
			return ResultClaims{}, fmt.Errorf("attest: structured_result has no string %s", f.key)
		}
		*f.dst = s
	}
	c.Issuer = issuer
	return c, nil
}

// appendPayload appends the canonical JSON of the claims (keys in code-point
// order).
func (c *ResultClaims) appendPayload(b []byte) []byte {
	b = append(b, `{"contract_hash":`...)
	b = evidence.AppendString(b, c.ContractHash)
	b = append(b, `,"contract_id":`...)
	b = evidence.AppendString(b, c.ContractID)
	b = append(b, `,"contract_version":`...)
	b = evidence.AppendString(b, c.ContractVersion)
	b = append(b, `,"iss":`...)
	b = evidence.AppendString(b, c.Issuer)
	b = append(b, `,"result_hash":`...)
	b = evidence.AppendString(b, c.ResultHash)
	b = append(b, `,"tool":`...)
	b = evidence.AppendString(b, c.Tool)
	return append(b, '}')
}

func (c *ResultClaims) valid() error {
	return validStrings(c.Tool, c.ContractID, c.ContractVersion, c.ContractHash, c.ResultHash, c.Issuer)
}

// appendPayload appends the canonical JSON of the claims.
func (c *PlanRunClaims) appendPayload(b []byte) []byte {
	b = append(b, `{"iss":`...)
	b = evidence.AppendString(b, c.Issuer)
	b = append(b, `,"plan_id":`...)
	b = evidence.AppendString(b, c.PlanID)
	b = append(b, `,"run_hash":`...)
	b = evidence.AppendString(b, c.RunHash)
	return append(b, '}')
}

func (c *PlanRunClaims) valid() error {
	return validStrings(c.PlanID, c.RunHash, c.Issuer)
}

// validStrings refuses invalid UTF-8, which canonical JSON cannot carry
// faithfully (it would be signed as U+FFFD and never match again).
func validStrings(ss ...string) error {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return fmt.Errorf("attest: claim %.40q is not valid UTF-8", s)
		}
	}
	return nil
}

// parsePayload decodes a signed payload into the string fields named by keys
// (exactly those keys, each a string) and checks that it is written in
// canonical form, as the signer writes it.
func parsePayload(payload []byte, keys []string) (map[string]string, error) {
	v, err := evidence.ParseJSON(payload)
	if err != nil {
		return nil, fmt.Errorf("%w: payload is not JSON: %v", ErrMalformed, err)
	}
	obj, ok := v.(map[string]any)
	if !ok || len(obj) != len(keys) {
		return nil, fmt.Errorf("%w: payload is not an object with exactly the keys %v", ErrMalformed, keys)
	}
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		s, ok := obj[k].(string)
		if !ok {
			return nil, fmt.Errorf("%w: payload has no string %q", ErrMalformed, k)
		}
		out[k] = s
	}
	canon, err := evidence.Canonical(obj)
	if err != nil || !bytes.Equal(canon, payload) {
		return nil, fmt.Errorf("%w: payload is not in canonical JSON form", ErrMalformed)
	}
	return out, nil
}
