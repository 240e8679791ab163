package expr

import (
	"fmt"
	"math"
	"math/big"
	"sync"
)

// This file holds a small constructive-real engine: every non-rational value is a
// node that can produce, for any binary precision p, an integer m with
// |x - m·2^-p| <= 2^-p. Nodes compose (sum, product, inverse, square root, exp, log,
// sin/cos, atan), each asking its operands for just enough precision so that the
// bound holds for the result. Final decimal rounding (Ziv's strategy) asks for more
// precision until the rounding of the whole error interval is decided, so results
// are correctly rounded. Decisions that cannot be made (the value may be exactly a
// rounding boundary or exactly zero) fail with precision_exhausted after a cap.

// decisionCap is the finest binary precision used to decide a sign, a floor or a
// comparison before giving up with precision_exhausted.
const decisionCap = 16384

// real is a node of the constructive-real graph.
type real struct {
	ev     *evaluator
	f      func(p int) *big.Int
	has    bool
	cacheP int
	cacheV *big.Int
	// lowK, when lowOK, is k with |x| >= 2^-k, and lowSign the sign of x.
	lowOK   bool
	lowK    int
	lowSign int
	// lowFn, when set, derives a lower bound from the operands' (a product
	// of non-zero factors is non-zero, however small): tried before
	// approximating x itself.
	lowFn func(limit int) (sign, k int, ok bool)
	// tinyK, when tinyOK, is what lowFn gave beyond maxLowK: |x| >= 2^-tinyK
	// and the sign of x is tinySign.
	tinyOK   bool
	tinyK    int
	tinySign int
	// ub, when ubOK, is e with |x| <= 2^e, known when the node was built (a
	// rational, a product, a sum, exp); it may be far below 0. magE, when
	// magOK, is what mag returned.
	ubOK  bool
	ub    int
	magOK bool
	magE  int
}

func (ev *evaluator) newReal(f func(p int) *big.Int) *real {
	return &real{ev: ev, f: f}
}

// approx returns m with |x - m·2^-p| <= 2^-p. The result must not be mutated.
func (x *real) approx(p int) *big.Int {
	if x.has && x.cacheP >= p {
		if x.cacheP == p {
			return x.cacheV
		}
		// The cached value has error <= 2^-(p+1); rounding adds <= 2^-(p+1).
		return shiftRound(x.cacheV, p-x.cacheP)
	}
	x.ev.tick()
	v := x.f(p)
	x.has, x.cacheP, x.cacheV = true, p, v
	return v
}

// magProbes are the precisions of coarse magnitude probes, coarsest first,
// before the last at 2^0: approximating a huge value (e^69000 ≈ 2^99547) to
// within 2^65536 is cheaper than to within 1, which needs all of its integer
// bits. A probe that returns |m| >= 2 bounds |x| to within a factor of about 3.
var magProbes = []int{-65536, -16384, -4096, -1024, -256, -64}

// boundLead is how many leading bits the first magnitude probe of a node
// with a bound asks for: |x| <= 2^ub, so 2^-(boundLead-ub) resolves those
// bits of a value near its bound, and nothing more.
const boundLead = 32

// mag returns e >= 1 with |x| <= 2^e.
func (x *real) mag() int {
	if !x.magOK {
		x.magE, x.magOK = x.probeMag(), true
	}
	return x.magE
}

func (x *real) probeMag() int {
	if x.ubOK {
		if x.ub <= 1 {
			return 1
		}
		// Probes coarser than 2^(ub-boundLead) could not tell more than that
		// the value is below its bound. From there, finer steps, growing
		// as the value turns out to be further below it (a cancellation,
		// a tiny factor).
		for p, step := boundLead-x.ub, 64; p < 0; p, step = p+step, step*4 {
			if e, ok := x.magAt(p); ok {
				return e
			}
		}
	} else {
		for _, p := range magProbes {
			if e, ok := x.magAt(p); ok {
				return e
			}
		}
	}
	m := x.approx(0)
	t := new(big.Int).Abs(m)
	t.Add(t, big1)
	return max(t.BitLen(), 1)
}

// magAt is mag from one probe at 2^-p: |x| <= (|m|+1)·2^-p; ok is false when
// |m| < 2, which bounds |x| only loosely.
func (x *real) magAt(p int) (int, bool) {
	m := x.approx(p)
	if m.CmpAbs(big2) < 0 {
		return 0, false
	}
	t := new(big.Int).Abs(m)
	t.Add(t, big1)
	return max(t.BitLen()-p, 1), true
}

// maxLowK bounds the smallness a structural lower bound may claim: a value
// below 2^-maxLowK is "too close to zero" like one that cannot be decided.
const maxLowK = 4 * MaxBits

// withLow records |x| >= 2^-k and sign(x) and returns x.
func (x *real) withLow(sign, k int) *real {
	x.lowOK, x.lowSign, x.lowK = true, sign, k
	return x
}

// withBound records |x| <= 2^e and returns x.
func (x *real) withBound(e int) *real {
	x.ubOK, x.ub = true, e
	return x
}

// within reports whether |x| <= 2^e, from x's bound or one probe to 2^(e-2)
// (a few bits of a value near 2^e, nothing of a sum that cancels), and from
// mag only when that probe cannot tell.
func (x *real) within(e int) bool {
	if x.bound() <= e {
		return true
	}
	m := new(big.Int).Abs(x.approx(2 - e))
	if m.Cmp(big.NewInt(3)) <= 0 { // |x| <= (|m|+1)·2^(e-2) <= 2^e
		return true
	}
	return x.mag() <= e
}

// bound returns e with |x| <= 2^e: the bound known from the node's
// construction, which may be far below 1, or else mag.
func (x *real) bound() int {
	if x.ubOK {
		return x.ub
	}
	return x.mag()
}

// decide finds the sign of x and a lower bound 2^-k on |x|; it fails with
// precision_exhausted when |x| < 2^-decisionCap (x may be exactly zero).
func (x *real) decide() (sign, k int) {
	s, k, ok := x.lowerBoundAny(decisionCap)
	switch {
	case ok && k <= maxLowK:
		return s, k
	case ok:
		panic(&Error{Reason: ReasonPrecisionExhausted, Msg: fmt.Sprintf("an intermediate value is not zero but below 2^-%d: too close to zero to round", maxLowK)})
	}
	panic(&Error{Reason: ReasonPrecisionExhausted, Msg: "cannot decide the sign of an intermediate value: it is within 2^-16384 of zero and may be exactly zero"})
}

// lowerBound finds the sign of x and k with |x| >= 2^-k using approximations no
// finer than 2^-limit, starting from the coarse precision the magnitude allows
// (cheap for huge values). ok is false when |x| is too small to tell. A bound
// known from the node's structure (a non-zero rational, exp, a product or
// quotient of non-zero values) may be below 2^-limit, down to 2^-maxLowK.
func (x *real) lowerBound(limit int) (sign, k int, ok bool) {
	if s, k, ok := x.lowerBoundAny(limit); ok && k <= maxLowK {
		return s, k, true
	}
	return 0, 0, false
}

// lowerBoundAny is lowerBound that also answers with a structural bound
// beyond 2^-maxLowK when nothing better is found: x is then known not to be
// zero, only too small to reach. Structural bounds combine through it (a
// product of two tiny factors is tiny, not "may be zero").
func (x *real) lowerBoundAny(limit int) (sign, k int, ok bool) {
	if x.lowOK {
		return x.lowSign, x.lowK, true
	}
	if !x.tinyOK && x.lowFn != nil {
		if s, k, ok := x.lowFn(limit); ok {
			if k <= maxLowK {
				x.withLow(s, k)
				return s, k, true
			}
			// Kept, so that a node shared by several others (the tree is
			// hash-consed) asks its operands once.
			x.tinyOK, x.tinySign, x.tinyK = true, s, k
		}
	}
	if s, k, ok := x.probeLow(limit); ok {
		return s, k, true
	}
	if x.tinyOK {
		return x.tinySign, x.tinyK, true
	}
	return 0, 0, false
}

// probeLow finds the sign of x and k with |x| >= 2^-k from approximations of
// x itself, no finer than 2^-limit.
func (x *real) probeLow(limit int) (sign, k int, ok bool) {
	ub := x.bound()
	p := min(32-ub, limit)
	for step := 64; ; step *= 4 {
		m := x.approx(p)
		a := new(big.Int).Abs(m)
		if a.Cmp(big2) >= 0 {
			a.Sub(a, big1)
			x.lowOK, x.lowSign, x.lowK = true, m.Sign(), p-a.BitLen()+1
			return x.lowSign, x.lowK, true
		}
		if p >= limit {
			return 0, 0, false
		}
		p = min(p+step, limit)
		// A step that would leave the limit less than twice the bits it
		// asks for (p + ub: about the operands' precision) goes to the
		// limit at once: the step before it would cost most of the limit's
		// work again (for x - x' near 2^100000, 87 000 bits before 116 000).
		if 2*(p+ub) > limit+ub {
			p = limit
		}
	}
}

var (
	big1      = big.NewInt(1)
	big2      = big.NewInt(2)
	bigInt256 = big.NewInt(256)
)

// shiftRound returns m·2^n rounded to the nearest integer (ties away from zero).
func shiftRound(m *big.Int, n int) *big.Int {
	if n >= 0 {
		return new(big.Int).Lsh(m, uint(n))
	}
	s := uint(-n)
	if s > uint(m.BitLen()) {
		return new(big.Int) // |m·2^n| < 1/2
	}
	neg := m.Sign() < 0
	a := new(big.Int).Abs(m)
	half := a.Bit(int(s-1)) == 1
	a.Rsh(a, s)
	if half {
		a.Add(a, big1)
	}
	if neg {
		a.Neg(a)
	}
	return a
}

// roundDiv returns n/d rounded to the nearest integer (ties away from +inf
// direction irrelevant here: callers only rely on an error of at most 1/2); d != 0.
func roundDiv(n, d *big.Int) *big.Int {
	nn, dd := n, d
	if d.Sign() < 0 {
		nn = new(big.Int).Neg(n)
		dd = new(big.Int).Neg(d)
	}
	// floor((2n + d) / 2d) with d > 0.
	num := new(big.Int).Lsh(nn, 1)
	num.Add(num, dd)
	den := new(big.Int).Lsh(dd, 1)
	return num.Div(num, den)
}

// ratReal is an exact rational as a node.
func (ev *evaluator) ratReal(q *big.Rat) *real {
	num := new(big.Int).Set(q.Num())
	den := new(big.Int).Set(q.Denom())
	x := ev.newReal(func(p int) *big.Int {
		if p >= 0 {
			return roundDiv(new(big.Int).Lsh(num, uint(p)), den)
		}
		if num.BitLen()-den.BitLen()+1+p < -1 {
			return new(big.Int) // |x·2^p| < 1/4: skip the huge shift of a coarse probe
		}
		return roundDiv(num, new(big.Int).Lsh(den, uint(-p)))
	})
	if num.Sign() != 0 {
		// 2^(bitlen-1) <= |num| < 2^bitlen, the same for den.
		x.withBound(num.BitLen() - den.BitLen() + 1)
		x.withLow(num.Sign(), den.BitLen()-num.BitLen()+1)
	}
	return x
}

func (ev *evaluator) negReal(a *real) *real {
	x := ev.newReal(func(p int) *big.Int { return new(big.Int).Neg(a.approx(p)) }).withBound(a.bound())
	x.lowFn = func(limit int) (int, int, bool) {
		s, k, ok := a.lowerBoundAny(limit)
		return -s, k, ok
	}
	return x
}

func (ev *evaluator) absReal(a *real) *real {
	x := ev.newReal(func(p int) *big.Int { return new(big.Int).Abs(a.approx(p)) }).withBound(a.bound())
	x.lowFn = func(limit int) (int, int, bool) {
		_, k, ok := a.lowerBoundAny(limit)
		return 1, k, ok
	}
	return x
}

func (ev *evaluator) addReal(a, b *real) *real {
	return ev.newReal(func(p int) *big.Int {
		s := new(big.Int).Add(a.approx(p+2), b.approx(p+2))
		return shiftRound(s, -2)
	}).withBound(max(a.bound(), b.bound()) + 1)
}

// mulReal is a·b. With ea, eb the operands' bounds (|a| <= 2^ea, far below 0
// for a tiny factor) and A, B their approximations to 2^-pa and 2^-pb,
// ab - AB = a(b - B) + B(a - A). When p + ea + eb <= 0, |ab| <= 2^-p and 0 is
// close enough. Otherwise pb = p + ea + 2 bounds the first term by
// 2^-(p+2), |B| <= 2^eb + 2^-pb <= 2^(eb+1), and pa = p + eb + 3 bounds the
// second by 2^-(p+2); with the final rounding the error stays within 2^-p.
// Neither precision is clamped at 0: a coarse approximation of a huge
// product (a magnitude probe, or a result of 1000 digits around 2^99000)
// asks its operands for their leading bits only, not for every integer bit.
func (ev *evaluator) mulReal(a, b *real) *real {
	ea, eb := a.bound(), b.bound()
	x := ev.newReal(func(p int) *big.Int {
		if p+ea+eb <= 0 {
			return new(big.Int)
		}
		pa, pb := p+eb+3, p+ea+2
		m := new(big.Int).Mul(a.approx(pa), b.approx(pb))
		return shiftRound(m, p-pa-pb)
	}).withBound(ea + eb)
	// |ab| >= 2^-(ka+kb) when both factors are decidably non-zero.
	x.lowFn = func(limit int) (int, int, bool) {
		sa, ka, ok := a.lowerBoundAny(limit)
		if !ok {
			return 0, 0, false
		}
		sb, kb, ok := b.lowerBoundAny(limit)
		return sa * sb, ka + kb, ok
	}
	return x
}

// scale2Real is a·2^k, exact in precision: no operand error is added.
func (ev *evaluator) scale2Real(a *real, k int) *real {
	return ev.newReal(func(p int) *big.Int { return a.approx(p + k) })
}

// invReal is 1/a; a must be decidably non-zero (decide is called first).
func (ev *evaluator) invReal(a *real) *real {
	s, k := a.decide()
	// 2^-k <= |a| <= 2^ea, so 2^-ea <= |1/a| <= 2^k.
	return ev.newReal(func(p int) *big.Int {
		pa := max(p+2*k+2, k+2)
		m := a.approx(pa)
		e := p + pa
		if e >= 0 {
			return roundDiv(new(big.Int).Lsh(big1, uint(e)), m)
		}
		if m.BitLen()-e > 3 {
			return new(big.Int) // |1/(m·2^-e)| < 1/4
		}
		return roundDiv(big1, new(big.Int).Lsh(m, uint(-e)))
	}).withBound(k).withLow(s, a.bound())
}

// sqrtReal is sqrt(a) for a >= 0 (checked by the caller).
func (ev *evaluator) sqrtReal(a *real) *real {
	x := ev.newReal(func(p int) *big.Int {
		// Generic bound: |sqrt(u) - sqrt(v)| <= sqrt(|u - v|), so a to 2(p+2)
		// bits always suffices. When a >= L > 0 the derivative bound
		// 1/(2·sqrt(L)) needs far fewer, which keeps nested roots linear.
		q := 2 * (p + 2)
		if s, kL, ok := a.lowerBound(p + 4); ok && s > 0 { // a >= 2^-kL
			if q2 := p + 3 + (kL+1)/2; q2 < q {
				m := a.approx(q2)
				if m.Sign() <= 0 {
					return new(big.Int)
				}
				s := new(big.Int).Lsh(m, uint(q-q2))
				s.Sqrt(s)
				return shiftRound(s, -2)
			}
		}
		m := a.approx(q)
		if m.Sign() <= 0 {
			return new(big.Int)
		}
		s := new(big.Int).Sqrt(m)
		return shiftRound(s, -2)
	})
	// a >= 2^-k > 0: sqrt(a) >= 2^-(k/2) >= 2^-ceil(k/2).
	x.lowFn = func(limit int) (int, int, bool) {
		s, k, ok := a.lowerBoundAny(limit)
		return 1, (k + 1) / 2, ok && s > 0
	}
	return x
}

// guardBits is the number of extra bits a series at working precision around p
// needs so that its accumulated truncation errors stay below 2^-(p+1).
func guardBits(p, extra int) int {
	if p < 0 {
		p = -p
	}
	return big.NewInt(int64(p+256)).BitLen() + extra + 4
}

// ---- constants, cached process-wide at the highest precision computed ----

type constCache struct {
	mu   sync.Mutex
	p    int
	v    *big.Int
	calc func(w int, tick func()) *big.Int
}

func (c *constCache) get(p int, tick func()) *big.Int {
	c.mu.Lock()
	if c.v != nil && c.p >= p {
		v, cp := c.v, c.p
		c.mu.Unlock()
		if cp == p {
			return new(big.Int).Set(v)
		}
		return shiftRound(v, p-cp)
	}
	c.mu.Unlock()
	q := max(p, 64)
	g := guardBits(q, 4)
	v := shiftRound(c.calc(q+g, tick), -g) // error <= 2^-(q+1)
	// Store at precision q+1 semantics: v has error <= 2^-q, good for any p <= q.
	c.mu.Lock()
	if c.v == nil || c.p < q {
		c.v, c.p = v, q
	}
	c.mu.Unlock()
	if q == p {
		return new(big.Int).Set(v)
	}
	return shiftRound(v, p-q)
}

// atanInvFixed returns atan(1/n)·2^w with error <= 2 units.
func atanInvFixed(n int64, w int, tick func()) *big.Int { return arctanSeries(n, w, true, tick) }

// atanhInvFixed returns atanh(1/n)·2^w with error <= 2 units.
func atanhInvFixed(n int64, w int, tick func()) *big.Int { return arctanSeries(n, w, false, tick) }

// arctanSeries sums 1/n - 1/(3n³) + 1/(5n⁵) - … (alternating: atan) or with all
// terms added (atanh) to 2^-w, by binary splitting: the terms up to the first
// below 2^-(w+2) are summed exactly as one fraction T/(B·Q), which is divided
// once, so the error is at most 2 units (the tail and the division), and the
// cost is a few multiplications of numbers of w bits rather than a division
// of them per term.
func arctanSeries(n int64, w int, alternating bool, tick func()) *big.Int {
	// Term k is 1/((2k+1)·n^(2k+1)); after N terms the tail is below the
	// first omitted one, under 2^-(w+2) once (2N+1)·log2(n) > w+2.
	terms := int(float64(w+2)/(2*math.Log2(float64(n)))) + 2
	n2 := big.NewInt(n * n)
	sign := int64(1)
	if alternating {
		sign = -1
	}
	// split sums terms [i, j): the ratio P/Q of term j-1's power to term
	// i-1's (with its sign), B the product of the odd denominators, and T
	// with sum = T/(B·Q) relative to term i-1's power.
	var split func(i, j int) (p, q, b, t *big.Int)
	split = func(i, j int) (p, q, b, t *big.Int) {
		if j-i == 1 {
			if i == 0 {
				p, q = big.NewInt(1), big.NewInt(n)
			} else {
				p, q = big.NewInt(sign), new(big.Int).Set(n2)
			}
			return p, q, big.NewInt(int64(2*i + 1)), new(big.Int).Set(p)
		}
		if j-i >= 64 {
			tick()
		}
		m := (i + j) / 2
		p1, q1, b1, t1 := split(i, m)
		p2, q2, b2, t2 := split(m, j)
		// T = B2·Q2·T1 + B1·P1·T2
		t = t1.Mul(t1, b2)
		t.Mul(t, q2)
		t2.Mul(t2, b1)
		t2.Mul(t2, p1)
		t.Add(t, t2)
		return p1.Mul(p1, p2), q1.Mul(q1, q2), b1.Mul(b1, b2), t
	}
	_, q, b, t := split(0, terms)
	t.Lsh(t, uint(w))
	return roundDiv(t, q.Mul(q, b))
}

// oddPowerSeries sums p_0 ± p_1/3 ± p_2/5 ± … in fixed point, where p_0 = first
// and next turns p_k into p_(k+1) in place (a multiplication by x² for the
// series of x, x³, x⁵, …); alternating subtracts the odd-numbered terms. It
// stops at the first term that rounds to zero.
func oddPowerSeries(first *big.Int, next func(p *big.Int), alternating bool, tick func()) *big.Int {
	sum := new(big.Int).Set(first)
	p := new(big.Int).Set(first)
	t := new(big.Int)
	for k := int64(1); ; k++ {
		if k%32 == 0 {
			tick()
		}
		next(p)
		t.Quo(p, big.NewInt(2*k+1))
		if t.Sign() == 0 {
			break
		}
		if alternating && k%2 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
	}
	return sum
}

var piCache = &constCache{calc: func(w int, tick func()) *big.Int {
	// Machin: pi = 16 atan(1/5) - 4 atan(1/239).
	a := atanInvFixed(5, w, tick)
	b := atanInvFixed(239, w, tick)
	a.Lsh(a, 4)
	b.Lsh(b, 2)
	return a.Sub(a, b)
}}

var ln2Cache = &constCache{calc: func(w int, tick func()) *big.Int {
	// ln 2 = 2 atanh(1/3).
	a := atanhInvFixed(3, w, tick)
	return a.Lsh(a, 1)
}}

func (ev *evaluator) piReal() *real {
	if ev.pi == nil {
		ev.pi = ev.newReal(func(p int) *big.Int { return piCache.get(p, ev.tick) })
	}
	return ev.pi
}

func (ev *evaluator) ln2Real() *real {
	if ev.ln2 == nil {
		ev.ln2 = ev.newReal(func(p int) *big.Int { return ln2Cache.get(p, ev.tick) })
	}
	return ev.ln2
}

// ---- elementary functions ----

// expReal is exp(a); the caller has checked |a| <= maxExpArg.
func (ev *evaluator) expReal(a *real) *real {
	// n = round(a / ln 2), r = a - n·ln2 with |r| <= ~0.35; exp(a) = 2^n·exp(r).
	t := ev.mulReal(a, ev.invReal(ev.ln2Real()))
	n := shiftRound(t.approx(2), -2).Int64()
	r := ev.addReal(a, ev.mulReal(ev.ratReal(new(big.Rat).SetInt64(-n)), ev.ln2Real()))
	ni := int(n)
	return ev.newReal(func(p int) *big.Int {
		g := guardBits(p+ni, 2)
		w := max(p+ni+g, g)
		rm := r.approx(w)
		e := expFixed(rm, w, ev.tick)
		return shiftRound(e, p+ni-w)
	}).withBound(ni+1).withLow(1, 1-ni) // |r| <= 3/4·ln 2 (n is within 3/4 of a/ln 2), so 1/2 < exp(r) < 2
}

// expHalvings is the number of times exp halves its argument before the series
// at working precision w (then squares back): about sqrt(w)/2, so that long
// series at high precision shrink.
func expHalvings(w int) int {
	s := 0
	for s*s*4 < w {
		s++
	}
	return s
}

// expFixed returns exp(r)·2^w for |r·2^-w| < 1 with error <= terms+1 units,
// halving the argument s times (computed at w+s+... bits) when that pays off.
func expFixed(r *big.Int, w int, tick func()) *big.Int {
	s := expHalvings(w)
	if s < 8 {
		return expSeries(r, w, tick)
	}
	// Work at w2 = w + 2s + 8 bits: each squaring at most doubles the relative
	// error, so s squarings cost s bits, plus slack for the truncations.
	w2 := w + 2*s + 8
	rr := new(big.Int).Lsh(r, uint(w2-w))
	rr.Rsh(rr, uint(s))
	v := expSeries(rr, w2, tick)
	for i := 0; i < s; i++ {
		if i%16 == 0 {
			tick()
		}
		v.Mul(v, v)
		v.Rsh(v, uint(w2))
	}
	return shiftRound(v, w-w2)
}

func expSeries(r *big.Int, w int, tick func()) *big.Int {
	one := new(big.Int).Lsh(big1, uint(w))
	sum := new(big.Int).Set(one)
	term := new(big.Int).Set(one)
	for k := int64(1); ; k++ {
		if k%32 == 0 {
			tick()
		}
		term.Mul(term, r)
		term.Rsh(term, uint(w))
		term.Quo(term, big.NewInt(k))
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
	}
	return sum
}

// logReal is ln(a) for a > 0 (decided by the caller).
func (ev *evaluator) logReal(a *real) *real {
	// a = y·2^kk with y in (1/4, 1]: ln a = ln y + kk·ln 2.
	_, k := a.decide()
	pd := k + 24
	m := a.approx(pd)
	kk := m.BitLen() - pd
	y := ev.scale2Real(a, -kk)
	const s = 8
	ly := ev.newReal(func(p int) *big.Int {
		g := guardBits(p, s+4)
		w := max(p+g, g+8)
		ym := y.approx(w)
		return shiftRound(logFixed(ym, w, s, ev.tick), p-w)
	})
	return ev.addReal(ly, ev.mulReal(ev.ratReal(new(big.Rat).SetInt64(int64(kk))), ev.ln2Real()))
}

// logFixed returns ln(y)·2^w for y·2^-w in (1/8, 2), using s square roots and
// the atanh series.
func logFixed(y *big.Int, w, s int, tick func()) *big.Int {
	one := new(big.Int).Lsh(big1, uint(w))
	v := new(big.Int).Set(y)
	for i := 0; i < s; i++ {
		v.Lsh(v, uint(w))
		v.Sqrt(v)
	}
	num := new(big.Int).Sub(v, one)
	den := new(big.Int).Add(v, one)
	num.Lsh(num, uint(w))
	z := num.Quo(num, den)
	z2 := new(big.Int).Mul(z, z)
	z2.Rsh(z2, uint(w))
	sum := oddPowerSeries(z, func(p *big.Int) {
		p.Mul(p, z2)
		p.Rsh(p, uint(w))
	}, false, tick)
	return sum.Lsh(sum, uint(s+1))
}

// sinCosReal returns sin(a) (cos=false) or cos(a) (cos=true); the caller has
// checked |a| < 2^maxTrigBits.
func (ev *evaluator) sinCosReal(a *real, cos bool) *real {
	halfPi := ev.mulReal(ev.ratReal(big.NewRat(1, 2)), ev.piReal())
	t := ev.mulReal(a, ev.invReal(halfPi))
	n := shiftRound(t.approx(2), -2)
	r := ev.addReal(a, ev.mulReal(ev.ratReal(new(big.Rat).SetInt(new(big.Int).Neg(n))), halfPi))
	q := int(new(big.Int).And(n, big.NewInt(3)).Int64())
	if cos {
		q = (q + 1) % 4
	}
	// sin(r + q·pi/2) = [sin r, cos r, -sin r, -cos r][q].
	useCos := q%2 == 1
	neg := q >= 2
	x := ev.newReal(func(p int) *big.Int {
		g := guardBits(p, 2)
		w := max(p+g, g)
		rm := r.approx(w)
		v := sinCosFixed(rm, w, useCos, ev.tick)
		if neg {
			v.Neg(v)
		}
		return shiftRound(v, p-w)
	}).withBound(0) // |sin|, |cos| <= 1
	if !cos && a.bound() <= 0 {
		// |a| <= 1: |sin a| >= sin(1)·|a| > |a|/2, with a's sign.
		x.lowFn = halfOf(a)
	}
	return x
}

// halfOf is a lower bound function for a value v with |v| >= |a|/2 and the
// sign of a (sin and atan of |a| <= 1, ...).
func halfOf(a *real) func(limit int) (int, int, bool) {
	return func(limit int) (int, int, bool) {
		s, k, ok := a.lowerBoundAny(limit)
		return s, k + 1, ok
	}
}

// sinCosFixed returns sin(r)·2^w or cos(r)·2^w for |r·2^-w| < 1, with an
// error of at most 2 units. At high precision it works like expFixed: the
// series at x = r/2^s has about sqrt(w) times fewer terms, and s doublings
// (sin 2x = 2 sin x cos x, cos 2x = cos²x - sin²x) bring it back.
func sinCosFixed(r *big.Int, w int, cos bool, tick func()) *big.Int {
	s := expHalvings(w)
	if s < 8 {
		return sinCosSeries(r, w, cos, tick)
	}
	// With |sin|, |cos| <= 1, a doubling turns errors eS, eC into at most
	// 2(eS + eC) + 1 each, so their sum at most quadruples (+2): s doublings
	// cost 2s bits. x = r·2^(w2-w)/2^s is exact; the two series start with
	// at most one unit of error per term, fewer than w terms each, so
	// bitLen(w) + 2 bits; 8 more keep the total below a unit at w.
	w2 := w + 2*s + big.NewInt(int64(w)).BitLen() + 10
	x := new(big.Int).Lsh(r, uint(w2-w-s))
	sn := sinCosSeries(x, w2, false, tick)
	cs := sinCosSeries(x, w2, true, tick)
	t, u := new(big.Int), new(big.Int)
	for i := 0; i < s; i++ {
		if i%16 == 0 {
			tick()
		}
		t.Mul(sn, cs)
		t.Rsh(t, uint(w2-1))
		u.Mul(sn, sn)
		cs.Mul(cs, cs)
		cs.Sub(cs, u)
		cs.Rsh(cs, uint(w2))
		sn, t = t, sn
	}
	if cos {
		return shiftRound(cs, w-w2)
	}
	return shiftRound(sn, w-w2)
}

// sinCosSeries sums the Taylor series of sin(r)·2^w or cos(r)·2^w for
// |r·2^-w| < 1, with an error of at most one unit per term.
func sinCosSeries(r *big.Int, w int, cos bool, tick func()) *big.Int {
	r2 := new(big.Int).Mul(r, r)
	r2.Rsh(r2, uint(w))
	var term *big.Int
	k := int64(1)
	if cos {
		term = new(big.Int).Lsh(big1, uint(w))
	} else {
		term = new(big.Int).Set(r)
		k = 2
	}
	sum := new(big.Int).Set(term)
	for i := 1; ; i++ {
		if i%32 == 0 {
			tick()
		}
		term.Mul(term, r2)
		term.Rsh(term, uint(w))
		term.Quo(term, big.NewInt(k*(k+1)))
		k += 2
		if term.Sign() == 0 {
			break
		}
		if i%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
	return sum
}

// atanReal is atan(a) for any real a.
func (ev *evaluator) atanReal(a *real) *real {
	sign := 0
	if a.mag() > 3 {
		// Decide |a| >= 2 from a lower bound, which is cheap for huge values,
		// where approximating a to 8 fractional bits would need all its bits.
		if s, k := a.decide(); k <= -1 {
			sign = s
		}
	}
	if sign == 0 {
		if m := a.approx(8); m.CmpAbs(bigInt256) > 0 {
			sign = m.Sign()
		}
	}
	if sign != 0 {
		// |a| > 1: atan(a) = sign(a)·pi/2 - atan(1/a).
		half := big.NewRat(int64(sign), 2)
		return ev.addReal(ev.mulReal(ev.ratReal(half), ev.piReal()), ev.negReal(ev.atanSmall(ev.invReal(a))))
	}
	return ev.atanSmall(a)
}

// atanSmall is atan(a) for |a| <= ~1.01.
func (ev *evaluator) atanSmall(a *real) *real {
	const s = 8
	x := ev.newReal(func(p int) *big.Int {
		g := guardBits(p, s+4)
		w := max(p+g, g)
		t := new(big.Int).Set(a.approx(w))
		one := new(big.Int).Lsh(big1, uint(w))
		oneSq := new(big.Int).Lsh(big1, uint(2*w))
		tmp := new(big.Int)
		for i := 0; i < s; i++ {
			// atan(t) = 2·atan(t / (1 + sqrt(1 + t²))).
			tmp.Mul(t, t)
			tmp.Add(tmp, oneSq)
			tmp.Sqrt(tmp)
			tmp.Add(tmp, one)
			t.Lsh(t, uint(w))
			t.Quo(t, tmp)
		}
		t2 := new(big.Int).Mul(t, t)
		t2.Rsh(t2, uint(w))
		sum := oddPowerSeries(t, func(p *big.Int) {
			p.Mul(p, t2)
			p.Rsh(p, uint(w))
		}, true, ev.tick)
		sum.Lsh(sum, s)
		return shiftRound(sum, p-w)
	}).withBound(0) // |atan a| < pi/4·1.01 < 1
	// atan(t)/t falls from 1 to atan(1.01)/1.01 > 0.78 on |t| <= 1.01.
	x.lowFn = halfOf(a)
	return x
}

// asinReal is asin(a) for |a| <= 1 (checked by the caller):
// asin(a) = 2·atan(a / (1 + sqrt(1 - a²))), whose denominator is >= 1.
func (ev *evaluator) asinReal(a *real) *real {
	one := ev.ratReal(big.NewRat(1, 1))
	root := ev.sqrtReal(ev.addReal(one, ev.negReal(ev.mulReal(a, a))))
	arg := ev.mulReal(a, ev.invReal(ev.addReal(one, root)))
	return ev.mulReal(ev.ratReal(big.NewRat(2, 1)), ev.atanSmall(arg))
}
