package primes

import (
	"math/big"
)

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

func toLimbs(x *big.Int) limbs {
	var a [4]uint64
	for i, w := range x.Bits() {
		a[i] = uint64(w)
	}
	return limbs{a[0], a[1], a[2], a[3]}
}

func (m *mont) toBig(a limbs) *big.Int {
	ws := []big.Word{big.Word(a.w0), big.Word(a.w1), big.Word(a.w2), big.Word(a.w3)}
	return new(big.Int).SetBits(ws[:m.k])
}

// to returns x·R mod n for 0 <= x.
func (m *mont) to(x *big.Int) limbs {
	t := new(big.Int).Lsh(x, uint(64*m.k))
	return toLimbs(t.Mod(t, m.nb))
}

// mul returns a·b·R^-1 mod n (CIOS, unrolled per size in mont_unrolled.go).
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
