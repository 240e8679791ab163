package main

import (
	"fmt"
	"io"

	"github.com/precisiond/precisiond/plans"
)

// verifyPlanRun prints what plans.VerifyRun found in a plan run answer:
// one line per problem and a summary; exit 0 when everything checks, 1
// otherwise. With sig (--jwks), every step's and every completed run's
// attestation must verify too.
func verifyPlanRun(doc map[string]any, catalog []any, sig plans.RunAttestations, stdout io.Writer) int {
	rc := plans.VerifyRun(doc, catalog, sig)
	for _, p := range rc.Problems {
		fmt.Fprintln(stdout, "FAIL:", p)
	}
	if len(rc.Problems) > 0 {
		return 1
	}
	fmt.Fprintf(stdout, "OK: plan %s: %d runs (%d completed, %d failed), %d step envelopes and %d run hashes verified%s\n",
		rc.PlanID, rc.Runs, rc.Completed, rc.Runs-rc.Completed, rc.Envelopes, rc.Completed, rc.SignedBy)
	return 0
}
