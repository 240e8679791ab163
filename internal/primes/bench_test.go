package primes

import (
	"context"
	"math/big"
	"testing"
)

func benchFactor(b *testing.B, s string) {
	n, _ := new(big.Int).SetString(s, 10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Factorize(context.Background(), n, DefaultMaxIterations); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFactorSmall(b *testing.B) { benchFactor(b, "360") }

// 2^128 - 1: nine primes up to 67280421310721 (a 46-bit factor).
func BenchmarkFactorMersenne128(b *testing.B) {
	benchFactor(b, "340282366920938463463374607431768211455")
}

// Largest prime below 2^255: trial division plus one BPSW test.
func BenchmarkFactorPrime255(b *testing.B) {
	benchFactor(b, "57896044618658097711785492504343953926634992332820282019728792003956564819949")
}

// A semiprime near 2^128 with a 32-bit factor (4294967311 · prime near 2^96).
func BenchmarkFactorSemiprime128(b *testing.B) {
	p := big.NewInt(4294967311)
	q, _ := new(big.Int).SetString("79228162514264337593543950397", 10) // 2^96 + 61, prime (sympy.isprime)
	benchFactor(b, new(big.Int).Mul(p, q).String())
}

// TestIsPrimeMatchesStdlib cross-checks IsPrime against math/big's
// ProbablyPrime (Miller–Rabin + Baillie–PSW) below 2^18 and on a window above
// 2^200, where both must agree on every number.
func TestIsPrimeMatchesStdlib(t *testing.T) {
	for i := int64(0); i < 1<<18; i++ {
		b := big.NewInt(i)
		if IsPrime(b) != b.ProbablyPrime(20) {
			t.Fatalf("IsPrime(%d) disagrees", i)
		}
	}
	x := new(big.Int).Lsh(big1, 200)
	for i := 0; i < 4000; i++ {
		x.Add(x, big1)
		if IsPrime(x) != x.ProbablyPrime(20) {
			t.Fatalf("IsPrime(%s) disagrees", x)
		}
	}
}
