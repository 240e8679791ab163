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
// The arithmetic on limbs (mont_unrolled.go, mul/add/sub here, the curve
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

// mul returns a·b·R^-1 mod n (CIOS, unrolled per size in mont_unrolled.go).
//
//go:norace
func (m *mont) mul(a, b limbs) limbs {
	switch m.k {
	case 2:
		return m.mul2(a, b)
	case 3:
		return m.mul3(a, b)
	}
	return m.mul4(a, b)
}

// add returns a + b mod n for a, b < n.
//
//go:norace
func (m *mont) add(a, b limbs) limbs {
	switch m.k {
	case 2:
		return m.add2(a, b)
	case 3:
		return m.add3(a, b)
	}
	return m.add4(a, b)
}

// sub returns a - b mod n for a, b < n.
//
//go:norace
func (m *mont) sub(a, b limbs) limbs {
	switch m.k {
	case 2:
		return m.sub2(a, b)
	case 3:
		return m.sub3(a, b)
	}
	return m.sub4(a, b)
}

// brentMont is brentBig in the Montgomery domain (n odd, 64 < bits <= 256).
func (f *factorer) brentMont(n *big.Int, c uint64) (*big.Int, error) {
	m := newMont(n)
	cm := m.to(new(big.Int).SetUint64(c))
	step := func(x limbs) limbs {
		sq := m.mul(x, x)
		return m.add(sq, cm)
	}
	y := m.to(big.NewInt(2))
	q := m.to(big1)
	var x, ys limbs
	g := big.NewInt(1)
	r := int64(1)
	for g.Cmp(big1) == 0 {
		x = y
		for i := int64(0); i < r; i++ {
			y = step(y)
		}
		if err := f.spend(r); err != nil {
			return nil, err
		}
		for k := int64(0); k < r && g.Cmp(big1) == 0; k += batch {
			ys = y
			lim := min(batch, r-k)
			for i := int64(0); i < lim; i++ {
				y = step(y)
				d := m.sub(x, y)
				q = m.mul(q, d)
			}
			if err := f.spend(lim); err != nil {
				return nil, err
			}
			g.GCD(nil, nil, m.toBig(q), n)
		}
		r *= 2
	}
	if g.Cmp(n) == 0 {
		for {
			ys = step(ys)
			d := m.sub(x, ys)
			g.GCD(nil, nil, m.toBig(d), n)
			if err := f.spend(1); err != nil {
				return nil, err
			}
			if g.Cmp(big1) > 0 {
				break
			}
		}
	}
	if g.Cmp(n) == 0 {
		return nil, nil
	}
	return g, nil
}

// fromMont returns a·R^-1 mod n, the plain value of a Montgomery residue.
func (m *mont) fromMont(a limbs) limbs {
	return m.mul(a, limbs{w0: 1})
}
