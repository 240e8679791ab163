package main

import (
	"net/http"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/attest"
	"github.com/precisiond/precisiond/internal/testhttp"
)

// fetchKeySet reads a running server's GET /.well-known/jwks.json.
func fetchKeySet(t *testing.T, base string) *attest.KeySet {
	t.Helper()
	body := testhttp.Do(t, http.MethodGet, base+"/.well-known/jwks.json", nil, nil).OK(t)
	keys, err := attest.ParseJWKS(body)
	if err != nil {
		t.Fatalf("jwks: %v\n%s", err, body)
	}
	return keys
}

// checkAttestation verifies the attestation of an /invoke answer (generic
// JSON) against keys and returns who signed.
func checkAttestation(t *testing.T, keys *attest.KeySet, resp map[string]any) attest.Verified {
	t.Helper()
	jws, ok := resp["attestation"].(string)
	if !ok {
		t.Fatalf("answer has no attestation: %v", resp)
	}
	sr, _ := resp["structured_result"].(map[string]any)
	claims, err := attest.ResultClaimsFromGeneric(sr, "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := keys.VerifyResult(jws, claims, time.Now())
	if err != nil {
		t.Fatalf("attestation does not verify: %v", err)
	}
	return v
}
