package primes

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestMontMatchesBig checks Montgomery multiplication, addition and subtraction
// against math/big for random odd moduli of 65..256 bits.
func TestMontMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		bits := 65 + rng.IntN(192)
		n := randBits(rng, bits)
		n.SetBit(n, 0, 1)
		n.SetBit(n, bits-1, 1)
		m := newMont(n)
		a := new(big.Int).Mod(randBits(rng, bits), n)
		b := new(big.Int).Mod(randBits(rng, bits), n)
		am, bm := m.to(a), m.to(b)
		prod := m.mul(&am, &bm)
		one := m.to(big.NewInt(1))
		_ = one
		// back = prod·R^-1 = mul(prod, 1)
		var unit limbs
		unit[0] = 1
		back := m.toBig(m.mul(&prod, &unit))
		want := new(big.Int).Mul(a, b)
		want.Mod(want, n)
		if back.Cmp(want) != 0 {
			t.Fatalf("mul: n=%s a=%s b=%s got %s want %s", n, a, b, back, want)
		}
		sum := m.add(&am, &bm)
		gotSum := m.toBig(m.mul(&sum, &unit))
		wantSum := new(big.Int).Add(a, b)
		if gotSum.Cmp(wantSum.Mod(wantSum, n)) != 0 {
			t.Fatalf("add mismatch")
		}
		diff := m.sub(&am, &bm)
		gotDiff := m.toBig(m.mul(&diff, &unit))
		wantDiff := new(big.Int).Sub(a, b)
		if gotDiff.Cmp(wantDiff.Mod(wantDiff, n)) != 0 {
			t.Fatalf("sub mismatch")
		}
	}
}

// TestMontBrentSameAsBig checks that the Montgomery rho finds the same factor
// after the same number of iterations as the plain big.Int rho.
func TestMontBrentSameAsBig(t *testing.T) {
	p, _ := new(big.Int).SetString("1099511627791", 10)               // 2^40 + 15, prime
	q, _ := new(big.Int).SetString("309485009821345068724781371", 10) // prime near 2^88
	n := new(big.Int).Mul(p, q)
	f1 := &factorer{ctx: context.Background(), budget: DefaultMaxIterations}
	f2 := &factorer{ctx: context.Background(), budget: DefaultMaxIterations}
	d1, err1 := f1.brentMont(n, 1)
	d2, err2 := f2.brentBig(n, 1)
	if err1 != nil || err2 != nil {
		t.Fatalf("errors: %v %v", err1, err2)
	}
	if d1 == nil || d2 == nil || d1.Cmp(d2) != 0 || f1.used != f2.used {
		t.Fatalf("mont %v after %d, big %v after %d", d1, f1.used, d2, f2.used)
	}
}

func randBits(rng *rand.Rand, bits int) *big.Int {
	x := new(big.Int)
	for i := 0; i < bits; i += 32 {
		x.Lsh(x, 32)
		x.Or(x, big.NewInt(int64(rng.Uint32())))
	}
	return x.Rsh(x, uint((bits+31)/32*32-bits))
}
