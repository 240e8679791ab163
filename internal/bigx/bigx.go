// Package bigx holds the few math/big helpers that several exact engines
// share: powers of ten, integer k-th roots and the test for a terminating
// decimal expansion. Each has one implementation
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

var pow5_13 = big.NewInt(1220703125) // 5^13

// Strip5 divides x by its largest power of 5 in place and returns the exponent
// (0 for x = 0).
// Divisors grow by squaring while they divide and shrink back when they do not,
// so a valuation v costs O(log v) divisions instead of v.
func Strip5(x *big.Int) int {
	b := 0
	pows := []*big.Int{pow5_13}
	ks := []int{13}
	var q, r big.Int
	for len(pows) > 0 {
		top := len(pows) - 1
		if x.CmpAbs(pows[top]) >= 0 {
			q.QuoRem(x, pows[top], &r)
			if r.Sign() == 0 {
				x.Set(&q)
				b += ks[top]
				pows = append(pows, new(big.Int).Mul(pows[top], pows[top]))
				ks = append(ks, 2*ks[top])
				continue
			}
		}
		pows, ks = pows[:top], ks[:top]
	}
	five := big.NewInt(5)
	for x.CmpAbs(five) >= 0 {
		q.QuoRem(x, five, &r)
		if r.Sign() != 0 {
			break
		}
		x.Set(&q)
		b++
	}
	return b
}

// TerminatingScale reports whether den (> 0) divides a power of ten, and the
// least such exponent k = max(a, b) for den = 2^a·5^b: a fraction with
// denominator den has a terminating decimal expansion of k fraction digits.
func TerminatingScale(den *big.Int) (int, bool) {
	d := new(big.Int).Set(den)
	a := d.TrailingZeroBits()
	d.Rsh(d, a)
	b := Strip5(d)
	if d.Cmp(one) != 0 {
		return 0, false
	}
	return max(int(a), b), true
}
