package primes

import (
	"math/big"
	"math/bits"
)

// mont is Montgomery arithmetic modulo an odd n of at most 256 bits, on fixed
// arrays of k 64-bit limbs (little-endian), R = 2^(64k). Pollard–Brent runs in
// the Montgomery domain: x̃ = xR maps x² + c to mul(x̃, x̃) + c̃, so the sequence
// (and therefore the factor found and the iteration count) is exactly the one of
// the plain big.Int formulation, only about twenty times faster.
type mont struct {
	n    [4]uint64
	k    int
	ninv uint64 // -n^-1 mod 2^64
	nb   *big.Int
}

type limbs = [4]uint64

func newMont(n *big.Int) *mont {
	m := &mont{nb: new(big.Int).Set(n)}
	m.k = (n.BitLen() + 63) / 64
	m.n = toLimbs(n)
	inv := uint64(1)
	for i := 0; i < 6; i++ {
		inv *= 2 - m.n[0]*inv
	}
	m.ninv = -inv
	return m
}

func toLimbs(x *big.Int) limbs {
	var l limbs
	for i, w := range x.Bits() {
		l[i] = uint64(w)
	}
	return l
}

func (m *mont) toBig(a limbs) *big.Int {
	ws := make([]big.Word, m.k)
	for i := 0; i < m.k; i++ {
		ws[i] = big.Word(a[i])
	}
	return new(big.Int).SetBits(ws)
}

// to returns x·R mod n for 0 <= x.
func (m *mont) to(x *big.Int) limbs {
	t := new(big.Int).Lsh(x, uint(64*m.k))
	return toLimbs(t.Mod(t, m.nb))
}

// mul returns a·b·R^-1 mod n (CIOS).
func (m *mont) mul(a, b *limbs) limbs {
	var t [6]uint64
	k := m.k
	for i := 0; i < k; i++ {
		var c uint64
		bi := b[i]
		for j := 0; j < k; j++ {
			hi, lo := bits.Mul64(a[j], bi)
			var cc uint64
			lo, cc = bits.Add64(lo, t[j], 0)
			hi += cc
			lo, cc = bits.Add64(lo, c, 0)
			hi += cc
			t[j], c = lo, hi
		}
		var cc uint64
		t[k], cc = bits.Add64(t[k], c, 0)
		t[k+1] += cc
		mm := t[0] * m.ninv
		hi, lo := bits.Mul64(mm, m.n[0])
		_, cc = bits.Add64(lo, t[0], 0)
		c = hi + cc
		for j := 1; j < k; j++ {
			hi, lo := bits.Mul64(mm, m.n[j])
			lo, cc = bits.Add64(lo, t[j], 0)
			hi += cc
			lo, cc = bits.Add64(lo, c, 0)
			hi += cc
			t[j-1], c = lo, hi
		}
		t[k-1], cc = bits.Add64(t[k], c, 0)
		t[k] = t[k+1] + cc
		t[k+1] = 0
	}
	var r limbs
	copy(r[:k], t[:k])
	if t[k] != 0 || !m.less(&r) {
		m.subN(&r)
	}
	return r
}

// less reports a < n.
func (m *mont) less(a *limbs) bool {
	for i := m.k - 1; i >= 0; i-- {
		if a[i] != m.n[i] {
			return a[i] < m.n[i]
		}
	}
	return false
}

func (m *mont) subN(a *limbs) {
	var b uint64
	for i := 0; i < m.k; i++ {
		a[i], b = bits.Sub64(a[i], m.n[i], b)
	}
}

// add returns a + b mod n for a, b < n.
func (m *mont) add(a, b *limbs) limbs {
	var r limbs
	var c uint64
	for i := 0; i < m.k; i++ {
		r[i], c = bits.Add64(a[i], b[i], c)
	}
	if c != 0 || !m.less(&r) {
		m.subN(&r)
	}
	return r
}

// sub returns a - b mod n for a, b < n.
func (m *mont) sub(a, b *limbs) limbs {
	var r limbs
	var bw uint64
	for i := 0; i < m.k; i++ {
		r[i], bw = bits.Sub64(a[i], b[i], bw)
	}
	if bw != 0 {
		var c uint64
		for i := 0; i < m.k; i++ {
			r[i], c = bits.Add64(r[i], m.n[i], c)
		}
	}
	return r
}

// brentMont is brentBig in the Montgomery domain (n odd, 64 < bits <= 256).
func (f *factorer) brentMont(n *big.Int, c uint64) (*big.Int, error) {
	m := newMont(n)
	cm := m.to(new(big.Int).SetUint64(c))
	step := func(x limbs) limbs {
		sq := m.mul(&x, &x)
		return m.add(&sq, &cm)
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
				d := m.sub(&x, &y)
				q = m.mul(&q, &d)
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
			d := m.sub(&x, &ys)
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
