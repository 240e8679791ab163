package primes

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/vectors"
)

// primeCase is one vector of gen_primes.py: n (a JSON string or number as
// written), the facts for a factorable n, the refusal's reason otherwise.
type primeCase struct {
	Name string `json:"name"`
	Args struct {
		N json.RawMessage `json:"n"`
	} `json:"args"`
	Facts *struct {
		Factorization string      `json:"factorization"`
		IsPrime       bool        `json:"is_prime"`
		DivisorCount  json.Number `json:"divisor_count"`
	} `json:"facts"`
	Reason string `json:"reason"`
}

// n returns the argument as written: a string's text or a number's literal.
func (c primeCase) n() string {
	var s string
	if json.Unmarshal(c.Args.N, &s) == nil {
		return s
	}
	return string(c.Args.N)
}

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
		for i, c := range vectors.Cases[primeCase](t, file, 1) {
			if testing.Short() && i%10 != 0 {
				continue // -short replays every 10th case of each file; the full run replays all
			}
			s := strings.TrimSpace(c.n())
			x, ok := new(big.Int).SetString(s, 10)
			if !ok || x.Cmp(big.NewInt(2)) < 0 || x.BitLen() > MaxBits || strings.ContainsAny(s, ".eE+") {
				continue // refused before Factorize; see the golden test
			}
			n++
			budget := DefaultLimits
			if c.Facts == nil {
				// Numbers with only huge prime factors exhaust any budget; a small
				// one keeps this test fast (TestCostLimitReal and the golden test
				// use the real one).
				budget = Limits{RhoIterations: 1 << 16, ECMWork: 1 << 22}
			}
			got, err := Factorize(context.Background(), x, budget)
			if c.Facts == nil {
				if c.Reason == "work_limit" && !errors.Is(err, ErrCostLimit) {
					t.Errorf("%s: got %v, %v; want the iteration limit", c.Name, got, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
				continue
			}
			if got.Factorization() != c.Facts.Factorization {
				t.Errorf("%s: got %s, want %s", c.Name, got.Factorization(), c.Facts.Factorization)
			}
			if got.IsPrime != c.Facts.IsPrime {
				t.Errorf("%s: is_prime %v, want %v", c.Name, got.IsPrime, c.Facts.IsPrime)
			}
			if got.DivisorCount().String() != c.Facts.DivisorCount.String() {
				t.Errorf("%s: divisor_count %s, want %v", c.Name, got.DivisorCount(), c.Facts.DivisorCount)
			}
			if IsPrime(x) != c.Facts.IsPrime {
				t.Errorf("%s: IsPrime disagrees", c.Name)
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
