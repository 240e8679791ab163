package primes

import (
	"context"
	"errors"
	"math/big"
	"testing"
)

// FuzzFactorize feeds arbitrary numbers below 2^256 (big-endian bytes) to
// Factorize with small budgets, so that every input ends quickly. Property: it
// never panics; it either fails with ErrCostLimit or returns ascending
// primes (by IsPrime) whose prime powers multiply to n, with IsPrime(n) equal
// to the is_prime flag.
func FuzzFactorize(f *testing.F) {
	for _, s := range []string{"2", "4", "360", "561", "65537", "4295098369", "18446744073709551557",
		"340282366920938463463374607431768211455", "90000000573000000019", "600000000000184300000000001869",
		"115792089237316195423570985008687907853269984665640564039457584007913129639935"} {
		n, _ := new(big.Int).SetString(s, 10)
		f.Add(n.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 32 {
			data = data[:32]
		}
		n := new(big.Int).SetBytes(data)
		if n.Cmp(big.NewInt(2)) < 0 {
			return
		}
		r, err := Factorize(context.Background(), n, Limits{RhoIterations: 1 << 18, ECMWork: 1 << 24})
		if err != nil {
			if !errors.Is(err, ErrCostLimit) {
				t.Fatalf("%s: unexpected error %v", n, err)
			}
			return
		}
		prod := big.NewInt(1)
		for i, fc := range r.Factors {
			if !IsPrime(fc.Prime) || fc.Exponent < 1 {
				t.Fatalf("%s: bad factor %s^%d", n, fc.Prime, fc.Exponent)
			}
			if i > 0 && r.Factors[i-1].Prime.Cmp(fc.Prime) >= 0 {
				t.Fatalf("%s: factors not ascending: %s", n, r.Factorization())
			}
			prod.Mul(prod, new(big.Int).Exp(fc.Prime, big.NewInt(int64(fc.Exponent)), nil))
		}
		if prod.Cmp(n) != 0 {
			t.Fatalf("%s: product of %s is %s", n, r.Factorization(), prod)
		}
		if r.IsPrime != IsPrime(n) {
			t.Fatalf("%s: is_prime %v", n, r.IsPrime)
		}
	})
}
