package primes

import (
	"math/big"
	"math/bits"
)

//go:generate go run ./gen

// mont is Montgomery arithmetic modulo an odd n of 65 to 256 bits, on k fixed
// 64-bit limbs (little-endian), R = 2^(64k). Pollard–Brent runs in
// the Montgomery domain: x̃ = xR maps x² + c to mul(x̃, x̃) + c̃, so the sequence
// (and therefore the factor found and the iteration count) is exactly the one of
// the plain big.Int formulation, only about twenty times faster.
type mont struct {
	n    limbs
	k    int
	ninv uint64 // -n^-1 mod 2^64
	nb   *big.Int
}

// limbs is a residue as four little-endian 64-bit words (words at and above k
// are zero). A struct of four words, unlike an array, is passed and returned in
// registers.
//
// The arithmetic on limbs (mul/add/sub in mont_unrolled.go, the curve
// operations in ecm.go) is marked //go:norace: those functions read only their
// arguments and the modulus, which newMont finishes before any use, so they
// cannot race; uninstrumented, a -race build spends the work budget in about
// twice the time of a normal build instead of ten times, and the budget, not
// the deadline, decides the outcome in tests as in production.
type limbs struct{ w0, w1, w2, w3 uint64 }

// newMont prepares arithmetic modulo the odd n, 2^64 < n < 2^256.
func newMont(n *big.Int) *mont {
	if n.Bit(0) == 0 || n.BitLen() <= 64 || n.BitLen() > 256 {
		panic("primes: Montgomery modulus out of range")
	}
	m := &mont{nb: new(big.Int).Set(n)}
	m.k = (n.BitLen() + 63) / 64
	m.n = toLimbs(n)
	inv := uint64(1)
	for i := 0; i < 6; i++ {
		inv *= 2 - m.n.w0*inv
	}
	m.ninv = -inv
	return m
}

// toLimbs returns 0 <= x < 2^256 as limbs, whatever the size of big.Word.
func toLimbs(x *big.Int) limbs {
	var a [4]uint64
	const perLimb = 64 / bits.UintSize // big.Words per 64-bit limb: 1 or 2
	for i, w := range x.Bits() {
		a[i/perLimb] |= uint64(w) << (uint(i%perLimb) * bits.UintSize % 64)
	}
	return limbs{a[0], a[1], a[2], a[3]}
}

// toBig returns the value of the low m.k limbs of a.
func (m *mont) toBig(a limbs) *big.Int {
	ws := [4]uint64{a.w0, a.w1, a.w2, a.w3}
	return new(big.Int).SetBits(wordsOf(ws[:m.k]))
}

// wordsOf splits little-endian 64-bit limbs into big.Words.
func wordsOf(ls []uint64) []big.Word {
	const perLimb = 64 / bits.UintSize
	out := make([]big.Word, 0, len(ls)*perLimb)
	for _, l := range ls {
		for j := range perLimb {
			out = append(out, big.Word(l>>(uint(j)*bits.UintSize%64)))
		}
	}
	return out
}

// to returns x·R mod n for 0 <= x.
func (m *mont) to(x *big.Int) limbs {
	t := new(big.Int).Lsh(x, uint(64*m.k))
	return toLimbs(t.Mod(t, m.nb))
}

// fromMont returns a·R^-1 mod n, the plain value of a Montgomery residue.
func (m *mont) fromMont(a limbs) limbs {
	return m.mul(a, limbs{w0: 1})
}
