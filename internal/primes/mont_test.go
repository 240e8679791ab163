package primes

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestMontMatchesBig checks Montgomery multiplication, addition and subtraction
// against math/big for random odd moduli of 65..256 bits and for the extreme
// moduli of each limb count, on random operands and on 0, 1, n-2 and n-1.
func TestMontMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var moduli []*big.Int
	for _, e := range []uint{65, 128, 129, 192, 193, 256} {
		lo := new(big.Int).Lsh(big1, e-1)
		moduli = append(moduli, lo.Add(lo, big1), new(big.Int).Sub(new(big.Int).Lsh(big1, e), big1))
	}
	for range 200 {
		bits := 65 + rng.IntN(192)
		n := randBits(rng, bits)
		n.SetBit(n, 0, 1)
		n.SetBit(n, bits-1, 1)
		moduli = append(moduli, n)
	}
	for _, n := range moduli {
		m := newMont(n)
		vals := []*big.Int{big.NewInt(0), big.NewInt(1), new(big.Int).Sub(n, big.NewInt(2)), new(big.Int).Sub(n, big1)}
		for range 4 {
			vals = append(vals, new(big.Int).Mod(randBits(rng, n.BitLen()), n))
		}
		for _, a := range vals {
			for _, b := range vals {
				am, bm := m.to(a), m.to(b)
				check := func(op string, got limbs, want *big.Int) {
					t.Helper()
					if g := m.toBig(m.fromMont(got)); g.Cmp(want.Mod(want, n)) != 0 {
						t.Fatalf("%s: n=%s a=%s b=%s got %s want %s", op, n, a, b, g, want)
					}
				}
				check("mul", m.mul(am, bm), new(big.Int).Mul(a, b))
				check("add", m.add(am, bm), new(big.Int).Add(a, b))
				check("sub", m.sub(am, bm), new(big.Int).Sub(a, b))
			}
		}
	}
}

// TestMontBrentSameAsBig checks that the Montgomery rho finds the same factor
// after the same number of iterations as the plain big.Int rho.
func TestMontBrentSameAsBig(t *testing.T) {
	p, _ := new(big.Int).SetString("16777259", 10)                    // 2^24 + 43, prime
	q, _ := new(big.Int).SetString("309485009821345068724781371", 10) // prime near 2^88
	n := new(big.Int).Mul(p, q)
	f1 := &factorer{ctx: context.Background(), budget: 1 << 22, cap: 1 << 22}
	f2 := &factorer{ctx: context.Background(), budget: 1 << 22, cap: 1 << 22}
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
