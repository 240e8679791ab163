package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/precisiond/precisiond/internal/primes"
)

type primeInput struct {
	N any `json:"n"` // json.Number or a decimal string
}

type primeFactor struct {
	Prime    *big.Int `json:"prime"`
	Exponent int      `json:"exponent"`
}

type primeFacts struct {
	N             *big.Int      `json:"n"`
	Factors       []primeFactor `json:"factors"`
	IsPrime       bool          `json:"is_prime"`
	Factorization string        `json:"factorization"`
	DivisorCount  *big.Int      `json:"divisor_count"`
}

// primeFactorize factors 2 <= n < 2^256; the algorithms (trial
// division, Pollard–Brent, ECM, BPSW) live in internal/primes.
func primeFactorize() Tool {
	return Define(Def[primeInput, primeFacts]{
		Name: "prime_factorize",
		Run: func(ctx context.Context, in primeInput) (primeFacts, []Warning, error) {
			var s string
			switch v := in.N.(type) {
			case json.Number:
				s = v.String()
			case string:
				s = strings.TrimSpace(v)
			default:
				return primeFacts{}, nil, Fail("invalid_integer", "n must be an integer or a decimal string")
			}
			n, ok := new(big.Int).SetString(s, 10)
			if !ok && len(s) <= 400 {
				// JSON Schema counts 12.0 and 1e3 as integers; accept them exactly.
				if r, rok := new(big.Rat).SetString(s); rok && r.IsInt() {
					n, ok = r.Num(), true
				}
			}
			if !ok || strings.ContainsAny(s, "+_") {
				return primeFacts{}, nil, Fail("invalid_integer", "n must be a decimal integer, got %q", primeTrunc(s, 80))
			}
			if n.Cmp(big.NewInt(2)) < 0 {
				return primeFacts{}, nil, Fail("out_of_range", "n must be >= 2")
			}
			if n.BitLen() > primes.MaxBits {
				return primeFacts{}, nil, TooCostly("number_too_large", "n must be < 2^%d", primes.MaxBits)
			}
			lim := primes.DefaultLimits
			if HasProgress(ctx) {
				// The budget spent is the measure: it grows while a hard
				// cofactor resists, when no factor has been found yet.
				lim.Progress = func(spent, budget int64) {
					ReportProgress(ctx, float64(spent), float64(budget), "factoring: work budget spent")
				}
			}
			r, err := primes.Factorize(ctx, n, lim)
			if err != nil {
				if errors.Is(err, primes.ErrCostLimit) {
					// err names the budget that ran out and its size, nothing of the input.
					return primeFacts{}, nil, TooCostly("work_limit", "could not split a composite cofactor within the declared work limits (its prime factors are all large): %v", err)
				}
				return primeFacts{}, nil, err
			}
			f := primeFacts{N: n, IsPrime: r.IsPrime, Factorization: r.Factorization(), DivisorCount: r.DivisorCount()}
			for _, x := range r.Factors {
				f.Factors = append(f.Factors, primeFactor{Prime: x.Prime, Exponent: x.Exponent})
			}
			return f, nil, nil
		},
		Legacy: func(in primeInput, out primeFacts) string {
			if out.IsPrime {
				return fmt.Sprintf("%s is prime", out.N)
			}
			return fmt.Sprintf("%s = %s", out.N, out.Factorization)
		},
	})
}

func primeTrunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
