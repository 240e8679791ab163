package primes

import (
	"fmt"
	"math/big"
	"math/bits"
	"sync"
)

// Lenstra's elliptic-curve method (ECM) with Montgomery curves
// B·y² = x³ + A·x² + x in x-only projective coordinates (X : Z), Suyama's
// parametrization (group order divisible by 12) and a fixed sigma sequence
// 6, 7, 8, ... so that the factor found and the work done are reproducible.
//
// Stage 1 multiplies the starting point by the product of all prime powers
// p^e <= B1 with the Montgomery ladder (10 multiplications per bit). Stage 2
// is the standard continuation in baby-step giant-step form: every prime q in
// (B1, B2] is written q = m·D ± j with gcd(j, D) = 1 and j < D/2, and the
// product of x(mDQ) - x(jQ) over those (m, j) pairs is accumulated, with
// the baby and giant points normalized (Z = 1) by one batched inversion. All curve
// arithmetic runs on the fixed-limb Montgomery representation in mont.go, which
// covers every modulus this package factors (n < 2^256).

// ecmLevel is one step of the escalating schedule.
type ecmLevel struct {
	B1, B2 uint64
	Curves int // curves at this level before moving on (the last level is unbounded)
	D      uint64

	once   sync.Once
	k      *big.Int // product of p^e <= B1
	babies []uint64 // odd j < D/2, gcd(j, D) = 1
	mlo    uint64   // first giant step m
	pairs  [][]uint16
	npairs int
	cost   int64 // modular multiplications per curve (both stages)
}

// ecmLevels is the schedule: each row roughly targets factors of 12, 15, 20
// and 25 digits (the B1 values follow the usual ECM tables; B2 = 100·B1, and
// 200·B1 from B1 = 11000 on, where this stage 2, at one multiplication per
// prime, costs about as much as stage 1 and measurably pays off). The last row
// repeats until the work budget is spent. Measured: 16 random 40-digit
// semiprimes with two 20-digit factors took 79 curves and 77 million work units
// on average, against a budget of 200 million.
var ecmLevels = []*ecmLevel{
	{B1: 500, B2: 50_000, Curves: 20, D: 210},
	{B1: 2_000, B2: 200_000, Curves: 40, D: 2310},
	{B1: 11_000, B2: 2_200_000, Curves: 150, D: 2310},
	{B1: 50_000, B2: 10_000_000, Curves: 1 << 30, D: 2310},
}

// ecmWeight is the work charged per modular multiplication for a modulus of k
// 64-bit limbs, in proportion to its measured cost (13, 24 and 40 ns for
// k = 2, 3, 4 on the development machine).
var ecmWeight = [5]int64{2: 4, 3: 7, 4: 12}

// ecmFirstSigma is the first Suyama parameter; curve i uses sigma = 6 + i.
const ecmFirstSigma = 6

func (L *ecmLevel) prepare() {
	L.once.Do(func() {
		sieve := make([]bool, L.B2+L.D) // sieve[i]: i composite
		for i := uint64(2); i*i < uint64(len(sieve)); i++ {
			if !sieve[i] {
				for j := i * i; j < uint64(len(sieve)); j += i {
					sieve[j] = true
				}
			}
		}
		L.k = big.NewInt(1)
		bp := new(big.Int)
		for p := uint64(2); p <= L.B1; p++ {
			if sieve[p] {
				continue
			}
			q := p
			for q <= L.B1/p {
				q *= p
			}
			L.k.Mul(L.k, bp.SetUint64(q))
		}
		for j := uint64(1); j < L.D/2; j += 2 {
			if gcd64(j, L.D) == 1 {
				L.babies = append(L.babies, j)
			}
		}
		// Every prime q in (B1, B2] is m·D ± j for exactly one (m, j); a pair
		// whose two numbers are both prime is counted once.
		L.mlo = (L.B1 + L.D/2) / L.D
		mhi := (L.B2 + L.D/2) / L.D
		L.pairs = make([][]uint16, mhi-L.mlo+1)
		isStage2Prime := func(q uint64) bool { return q > L.B1 && q <= L.B2 && !sieve[q] }
		for m := L.mlo; m <= mhi; m++ {
			for i, j := range L.babies {
				if isStage2Prime(m*L.D-j) || isStage2Prime(m*L.D+j) {
					L.pairs[m-L.mlo] = append(L.pairs[m-L.mlo], uint16(i))
					L.npairs++
				}
			}
		}
		nb := int64(len(L.babies))
		giants := int64(mhi - L.mlo + 1)
		L.cost = int64(L.k.BitLen())*10 + // stage-1 ladder
			int64(L.D/4)*6 + // baby steps
			11*int64(2*bits.Len64(mhi)+bits.Len64(L.D)) + giants*6 + // giant steps
			(nb+giants)*4 + // normalization
			int64(L.npairs) // the accumulated product
	})
}

// point is a projective x-only point (X : Z) in Montgomery representation.
type point struct{ x, z limbs }

// curve holds one Montgomery curve modulo m.n: a24 = (A + 2)/4.
type curve struct {
	m   *mont
	a24 limbs
}

// dbl returns 2P (5 multiplications).
//
//go:norace
func (c *curve) dbl(p *point) point {
	m := c.m
	s := m.add(p.x, p.z)
	d := m.sub(p.x, p.z)
	s2 := m.mul(s, s)
	d2 := m.mul(d, d)
	t := m.sub(s2, d2) // 4XZ
	var r point
	r.x = m.mul(s2, d2)
	u := m.mul(c.a24, t)
	u = m.add(u, d2)
	r.z = m.mul(t, u)
	return r
}

// add returns P + Q given P - Q (6 multiplications).
//
//go:norace
func (c *curve) add(p, q, diff *point) point {
	m := c.m
	a := m.sub(p.x, p.z)
	b := m.add(q.x, q.z)
	u := m.mul(a, b)
	a = m.add(p.x, p.z)
	b = m.sub(q.x, q.z)
	v := m.mul(a, b)
	s := m.add(u, v)
	d := m.sub(u, v)
	s = m.mul(s, s)
	d = m.mul(d, d)
	return point{x: m.mul(diff.z, s), z: m.mul(diff.x, d)}
}

// addZ1 is add for a difference with Z = 1 (5 multiplications): stage 1 keeps
// its base point normalized.
//
//go:norace
func (c *curve) addZ1(p, q *point, diffX limbs) point {
	m := c.m
	u := m.mul(m.sub(p.x, p.z), m.add(q.x, q.z))
	v := m.mul(m.add(p.x, p.z), m.sub(q.x, q.z))
	s := m.add(u, v)
	d := m.sub(u, v)
	return point{x: m.mul(s, s), z: m.mul(diffX, m.mul(d, d))}
}

// ladder returns k·P for k >= 1 (k a small integer).
func (c *curve) ladder(p *point, k uint64) point {
	if k == 1 {
		return *p
	}
	r0, r1 := *p, c.dbl(p)
	for i := bits.Len64(k) - 2; i >= 0; i-- {
		if k>>uint(i)&1 == 1 {
			r0 = c.add(&r1, &r0, p)
			r1 = c.dbl(&r1)
		} else {
			r1 = c.add(&r1, &r0, p)
			r0 = c.dbl(&r0)
		}
	}
	return r0
}

// ecm looks for a non-trivial factor of the odd composite n (no prime factor
// below 2^16, not a perfect power) with curves of the escalating schedule,
// charging each curve's cost to the work budget before it runs. It returns an
// error wrapping ErrCostLimit when the budget cannot pay for the next curve, and
// the context's error when it ends.
func (f *factorer) ecm(n *big.Int) (*big.Int, error) {
	m := newMont(n)
	w := ecmWeight[m.k]
	sigma := uint64(ecmFirstSigma)
	for _, L := range ecmLevels {
		L.prepare()
		for c := 0; c < L.Curves; c++ {
			if f.work+L.cost*w > f.maxWork {
				return nil, fmt.Errorf("%w: the ECM work budget of %d is spent", ErrCostLimit, f.maxWork)
			}
			f.work += L.cost * w
			f.curves++
			f.tick()
			d, err := f.ecmCurve(m, L, sigma)
			sigma++
			if err != nil || d != nil {
				return d, err
			}
		}
	}
	return nil, fmt.Errorf("%w: the ECM schedule is exhausted", ErrCostLimit)
}

// nontrivial returns gcd(x, n) when it is a proper factor of n, else nil.
func nontrivial(x, n *big.Int) *big.Int {
	g := new(big.Int).GCD(nil, nil, x, n)
	if g.Cmp(big1) == 0 || g.Cmp(n) == 0 {
		return nil
	}
	return g
}

// ecmCurve runs both stages on the Suyama curve with parameter sigma. It
// returns a proper factor, or nil when this curve found none (including the
// rare case where every prime of n was found at once).
func (f *factorer) ecmCurve(m *mont, L *ecmLevel, sigma uint64) (*big.Int, error) {
	n := m.nb
	// u = sigma² - 5, v = 4·sigma, x0 = u³/v³, a24 = (v-u)³(3u+v)/(16u³v).
	s := new(big.Int).SetUint64(sigma)
	u := new(big.Int).Mul(s, s)
	u.Sub(u, big.NewInt(5))
	v := new(big.Int).Lsh(s, 2)
	u3 := new(big.Int).Exp(u, big.NewInt(3), n)
	v3 := new(big.Int).Exp(v, big.NewInt(3), n)
	den := new(big.Int).Mul(u3, v)
	den.Lsh(den, 4).Mod(den, n) // 16u³v
	both := new(big.Int).Mul(den, v3)
	both.Mod(both, n)
	inv := new(big.Int).ModInverse(both, n)
	if inv == nil {
		return nontrivial(both, n), nil
	}
	x0 := new(big.Int).Mul(u3, inv)
	x0.Mul(x0, den).Mod(x0, n) // u³ / v³
	a := new(big.Int).Sub(v, u)
	a.Exp(a, big.NewInt(3), n)
	t := new(big.Int).Mul(u, big.NewInt(3))
	t.Add(t, v)
	a.Mul(a, t)
	a.Mul(a, inv)
	a.Mul(a, v3).Mod(a, n) // (v-u)³(3u+v) / (16u³v)
	c := &curve{m: m, a24: m.to(a)}
	p := point{x: m.to(x0), z: m.to(big1)}

	// Stage 1: Montgomery ladder over the bits of k, 10 multiplications per
	// bit (the base point has Z = 1).
	k := L.k
	r0, r1 := p, c.dbl(&p)
	for i := k.BitLen() - 2; i >= 0; i-- {
		if i&1023 == 0 {
			if err := f.ctx.Err(); err != nil {
				return nil, err
			}
		}
		if k.Bit(i) == 1 {
			r0 = c.addZ1(&r1, &r0, p.x)
			r1 = c.dbl(&r1)
		} else {
			r1 = c.addZ1(&r1, &r0, p.x)
			r0 = c.dbl(&r0)
		}
	}
	q := r0
	if d := nontrivial(m.toBig(q.z), n); d != nil {
		return d, nil
	}
	if q.z == (limbs{}) {
		return nil, nil // the point is the identity mod every prime of n
	}
	return f.ecmStage2(c, L, &q)
}

// ecmStage2 runs the standard continuation from the stage-1 point q.
func (f *factorer) ecmStage2(c *curve, L *ecmLevel, q *point) (*big.Int, error) {
	m := c.m
	nb, ng := len(L.babies), len(L.pairs)
	// xs[:nb] are the baby points jQ (odd j < D/2, gcd(j, D) = 1), xs[nb:] the
	// giant points m·D·Q for m = mlo, mlo+1, ...
	xs := make([]limbs, nb+ng)
	zs := make([]limbs, nb+ng)
	q2 := c.dbl(q)
	var prev point
	cur := *q
	bi := 0
	for j := uint64(1); bi < nb; j += 2 {
		switch {
		case j == 3:
			prev, cur = cur, c.add(&q2, &cur, q)
		case j > 3:
			prev, cur = cur, c.add(&cur, &q2, &prev)
		}
		if L.babies[bi] == j {
			xs[bi], zs[bi] = cur.x, cur.z
			bi++
		}
	}
	dq := c.ladder(q, L.D)
	g0 := c.ladder(&dq, L.mlo)
	g1 := c.ladder(&dq, L.mlo+1)
	for i := range ng {
		if i&63 == 0 {
			if err := f.ctx.Err(); err != nil {
				return nil, err
			}
		}
		xs[nb+i], zs[nb+i] = g0.x, g0.z
		g2 := c.add(&g1, &dq, &g0)
		g0, g1 = g1, g2
	}
	// With every point at Z = 1, each (m, j) pair costs one multiplication.
	if d, ok := normalize(m, xs, zs); !ok {
		return d, nil
	}
	bx, gx := xs[:nb], xs[nb:]
	prod := m.to(big1)
	for gi, list := range L.pairs {
		if gi&63 == 0 {
			if err := f.ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, j := range list {
			t := m.sub(gx[gi], bx[j])
			prod = m.mul(prod, t)
		}
	}
	return nontrivial(m.toBig(prod), m.nb), nil
}

// normalize replaces xs[i] by xs[i]/zs[i] using one modular inversion
// (Montgomery's trick, 3 multiplications per point). When the product of the
// zs is not invertible it returns ok = false and the proper factor of n that
// this reveals, if any.
func normalize(m *mont, xs, zs []limbs) (*big.Int, bool) {
	pre := make([]limbs, len(zs))
	acc := m.to(big1)
	for i := range zs {
		pre[i] = acc
		acc = m.mul(acc, zs[i])
	}
	plain := m.toBig(m.fromMont(acc))
	inv := new(big.Int).ModInverse(plain, m.nb)
	if inv == nil {
		return nontrivial(plain, m.nb), false
	}
	invm := m.to(inv)
	for i := len(zs) - 1; i >= 0; i-- {
		zi := m.mul(invm, pre[i]) // 1/zs[i]
		invm = m.mul(invm, zs[i])
		xs[i] = m.mul(xs[i], zi)
	}
	return nil, true
}
