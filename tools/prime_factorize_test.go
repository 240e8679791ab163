package tools

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/precisiond/precisiond/internal/primes"
)

// TestPrimeFactorizeLimitsDeclared: the budgets the contract declares are the
// ones the engine enforces.
func TestPrimeFactorizeLimitsDeclared(t *testing.T) {
	if got, want := int64(contractLimit("prime_factorize", "max_ecm_work_units")), primes.DefaultLimits.ECMWork; got != want {
		t.Errorf("max_ecm_work_units = %d, engine %d", got, want)
	}
	if got, want := int64(contractLimit("prime_factorize", "max_pollard_brent_iterations")), primes.DefaultLimits.RhoIterations; got != want {
		t.Errorf("max_pollard_brent_iterations = %d, engine %d", got, want)
	}
	if got, want := contractLimit("prime_factorize", "short_rho_iterations"), primes.ShortRho; got != want {
		t.Errorf("short_rho_iterations = %d, engine %d", got, want)
	}
}

// FuzzPrimeFactorizeArgs sends arbitrary strings as n through the full
// execution path. Property: never a panic or an untyped error; a success
// reports n equal to the decimal value of the input and factors whose powers
// multiply to it.
func FuzzPrimeFactorizeArgs(f *testing.F) {
	for _, s := range []string{"360", "0007", "1", "", "+5", "1e3", " 12", "90000000573000000019",
		"600000000000184300000000001869", "115792089237316195423570985008687907853269984665640564039457584007913129639935"} {
		f.Add(s)
	}
	reg := NewRegistry([]Tool{primeFactorize()}, Options{DefaultTimeout: goldenDeadline})
	f.Fuzz(func(t *testing.T, s string) {
		resp, err := reg.Invoke(context.Background(), Request{Tool: "prime_factorize", Args: map[string]any{"n": s}})
		if err != nil {
			if te, ok := err.(*Error); !ok || (te.Code != CodeExecution && te.Code != CodeInputSchemaInvalid && te.Code != CodeCostLimit) {
				t.Fatalf("%q: untyped error %v", s, err)
			}
			return
		}
		want, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatalf("%q accepted but is not a decimal integer", s)
		}
		facts := resp.Envelope.Facts()
		if got := fmt.Sprint(facts["n"]); got != want.String() {
			t.Fatalf("%q: n = %s", s, got)
		}
		prod := big.NewInt(1)
		for _, raw := range facts["factors"].([]any) {
			fc := raw.(map[string]any)
			p, _ := new(big.Int).SetString(fmt.Sprint(fc["prime"]), 10)
			e, _ := new(big.Int).SetString(fmt.Sprint(fc["exponent"]), 10)
			prod.Mul(prod, new(big.Int).Exp(p, e, nil))
		}
		if prod.Cmp(want) != 0 {
			t.Fatalf("%q: factors multiply to %s", s, prod)
		}
	})
}
