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
		if _, err := Factorize(context.Background(), n, DefaultLimits); err != nil {
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

// Balanced semiprimes (factors from sympy): the 20- and 30-digit ones are the
// inputs of bench/compare_inputs.json.
func BenchmarkFactorSemiprime20(b *testing.B) {
	benchFactor(b, "90000000573000000019") // 3000000019 × 30000000001
}

func BenchmarkFactorSemiprime30(b *testing.B) {
	benchFactor(b, "600000000000184300000000001869") // 300000000000089 × 2000000000000021
}

func BenchmarkFactorSemiprime30b(b *testing.B) {
	benchFactor(b, "731840473056163628638432360987") // 834124757876269 × 877375316037223
}

func BenchmarkFactorSemiprime40(b *testing.B) {
	benchFactor(b, "6861579397148363986191108531034690578709") // 79465373629733784899 × 86346783306143637191
}

func BenchmarkFactorSemiprime40b(b *testing.B) {
	benchFactor(b, "1012291829447968035886925685877806464719") // 14599339987076239211 × 69338191339065891629
}

// TestIsPrimeMatchesStdlib cross-checks IsPrime against math/big's
// ProbablyPrime on every number below 2^16 and in windows around 2^32 and 2^64
// (ProbablyPrime(0) is Baillie–PSW, documented exact below 2^64), and above
// 2^200 (with extra Miller–Rabin rounds), where both must agree on every number.
func TestIsPrimeMatchesStdlib(t *testing.T) {
	check := func(x *big.Int, rounds int) {
		t.Helper()
		if IsPrime(x) != x.ProbablyPrime(rounds) {
			t.Fatalf("IsPrime(%s) disagrees", x)
		}
	}
	for i := int64(0); i < 1<<16; i++ {
		check(big.NewInt(i), 0)
	}
	for _, e := range []uint{32, 64} {
		x := new(big.Int).Lsh(big1, e)
		x.Sub(x, big.NewInt(3000))
		for range 6000 {
			check(x, 0)
			x.Add(x, big1)
		}
	}
	x := new(big.Int).Lsh(big1, 200)
	for range 3000 {
		x.Add(x, big1)
		check(x, 4)
	}
}
