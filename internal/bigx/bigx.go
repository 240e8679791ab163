// Package bigx holds the few math/big helpers that several exact engines
// share: powers of ten and integer k-th roots. Each has one implementation
// here so that expr, poly, primes, exactdec, exactstats and units cannot drift.
package bigx

import (
	"math/big"
	"sync"
)

// pow10Cached is the largest exponent whose power of ten is kept in a shared,
// never mutated table; larger powers are computed on each call.
const pow10Cached = 2048

var (
	pow10Once  sync.Once
	pow10Table []*big.Int
	one        = big.NewInt(1)
	ten        = big.NewInt(10)
)

// Pow10 returns 10^n for n >= 0 and panics for n < 0. Results up to 10^2048
// are shared between callers: the caller must not modify the returned value.
func Pow10(n int) *big.Int {
	if n < 0 {
		panic("bigx: negative power of ten")
	}
	pow10Once.Do(func() {
		pow10Table = make([]*big.Int, pow10Cached+1)
		p := big.NewInt(1)
		for i := range pow10Table {
			pow10Table[i] = new(big.Int).Set(p)
			p.Mul(p, ten)
		}
	})
	if n <= pow10Cached {
		return pow10Table[n]
	}
	return new(big.Int).Exp(ten, big.NewInt(int64(n)), nil)
}

// Pow10Rat returns a new rational 10^e for any sign of e.
func Pow10Rat(e int) *big.Rat {
	if e >= 0 {
		return new(big.Rat).SetInt(Pow10(e))
	}
	return new(big.Rat).SetFrac(one, Pow10(-e))
}

// Root returns r = floor(n^(1/k)) for n >= 0 and k >= 1, and whether r^k == n.
// It panics for a negative n or k < 1. It is Newton's iteration on integers,
// started from a power of two above the root, so each step decreases r until
// the floor is reached.
func Root(n *big.Int, k int) (*big.Int, bool) {
	switch {
	case n.Sign() < 0 || k < 1:
		panic("bigx: Root of a negative number or with k < 1")
	case k == 1 || n.Cmp(one) <= 0:
		return new(big.Int).Set(n), true
	}
	var x *big.Int
	if k == 2 {
		x = new(big.Int).Sqrt(n)
	} else {
		x = new(big.Int).Lsh(one, uint((n.BitLen()+k-1)/k))
		km1 := big.NewInt(int64(k - 1))
		bk := big.NewInt(int64(k))
		t, y := new(big.Int), new(big.Int)
		for {
			// y = ((k-1)·x + n / x^(k-1)) / k
			t.Exp(x, km1, nil)
			t.Quo(n, t)
			y.Mul(km1, x)
			y.Add(y, t)
			y.Quo(y, bk)
			if y.Cmp(x) >= 0 {
				break
			}
			x, y = y, x
		}
	}
	return x, new(big.Int).Exp(x, big.NewInt(int64(k)), nil).Cmp(n) == 0
}
