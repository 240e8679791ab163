package primes

import (
	"context"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// TestOracleVectors replays tools/testdata/prime_factorize/oracle_*.json
// (sympy.factorint / sympy.isprime, written by gen_primes.py) against Factorize.
// Schema-level refusals are left to the tools golden test.
func TestOracleVectors(t *testing.T) {
	files, _ := filepath.Glob("../../tools/testdata/prime_factorize/oracle_*.json")
	if len(files) == 0 {
		t.Fatal("no oracle vectors")
	}
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := evidence.ParseJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		for i, raw := range doc.(map[string]any)["cases"].([]any) {
			if testing.Short() && i%10 != 0 {
				continue // -short replays every 10th case of each file; the full run replays all
			}
			c := raw.(map[string]any)
			name := c["name"].(string)
			arg := c["args"].(map[string]any)["n"]
			s := strings.TrimSpace(toString(arg))
			x, ok := new(big.Int).SetString(s, 10)
			if !ok || x.Cmp(big.NewInt(2)) < 0 || x.BitLen() > MaxBits || strings.ContainsAny(s, ".eE+") {
				continue // refused before Factorize; see the golden test
			}
			n++
			facts, hasFacts := c["facts"].(map[string]any)
			budget := DefaultLimits
			if !hasFacts {
				// Numbers with only huge prime factors exhaust any budget; a small
				// one keeps this test fast (TestCostLimitReal and the golden test
				// use the real one).
				budget = Limits{RhoIterations: 1 << 16, ECMWork: 1 << 22}
			}
			got, err := Factorize(context.Background(), x, budget)
			if !hasFacts {
				if c["reason"] == "work_limit" && !errors.Is(err, ErrCostLimit) {
					t.Errorf("%s: got %v, %v; want the iteration limit", name, got, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if got.Factorization() != facts["factorization"] {
				t.Errorf("%s: got %s, want %s", name, got.Factorization(), facts["factorization"])
			}
			if got.IsPrime != facts["is_prime"] {
				t.Errorf("%s: is_prime %v, want %v", name, got.IsPrime, facts["is_prime"])
			}
			if got.DivisorCount().String() != toString(facts["divisor_count"]) {
				t.Errorf("%s: divisor_count %s, want %v", name, got.DivisorCount(), facts["divisor_count"])
			}
			if IsPrime(x) != facts["is_prime"] {
				t.Errorf("%s: IsPrime disagrees", name)
			}
		}
	}
	least := 300
	if testing.Short() {
		least = 30
	}
	if n < least {
		t.Errorf("only %d cases", n)
	}
}

func toString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case interface{ String() string }:
		return v.String()
	}
	return ""
}
