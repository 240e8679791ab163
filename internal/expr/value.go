package expr

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/precisiond/precisiond/internal/bigx"
)

// Limits enforced before the expensive work starts.
const (
	// MaxBits bounds the numerator and the denominator of every exact value, and
	// the magnitude (|x| < 2^MaxBits) of every irrational value.
	MaxBits = 100000
	// MaxFactorial is the largest n accepted by factorial(n).
	MaxFactorial = 10000
	// maxExpArg bounds |x| in exp(x) (e^69314 < 2^100000).
	maxExpArg = 69314
	// maxTrigBits bounds the argument of sin, cos and tan: |x| < 2^maxTrigBits.
	maxTrigBits = 1024
	// maxFloorBits bounds |x| for the integer part of a non-rational value,
	// which needs all of its integer bits.
	maxFloorBits = 16384
)

type vkind int

const (
	kRat  vkind = iota // q
	kSurd              // q·sqrt(r), r > 1 not a perfect square
	kPi                // q·pi, q != 0
	kExp               // e^q, q != 0
	kLog               // ln(q), q > 0, q != 1
	kReal              // constructive real x
)

// value is an immutable evaluation result.
type value struct {
	k vkind
	q *big.Rat
	r *big.Int
	x *real // the real node (always set for kReal, built lazily for others)
}

type evaluator struct {
	ctx   context.Context
	ticks int
	pi    *real
	ln2   *real
	// ids numbers the nodes of the tree by subexpression (number), keys
	// holds the numbers given, memo[id] the value of each one evaluated.
	ids  map[Node]int
	keys map[cseKey]int
	memo []*value
}

// abort carries a context error out of deep recursion.
type abort struct{ err error }

// tick checks the context. Callers call it once per node evaluation and once
// every few dozen iterations of a series, so each call stands for real work.
func (ev *evaluator) tick() {
	ev.ticks++
	if err := ev.ctx.Err(); err != nil {
		panic(abort{err})
	}
}

func fail(reason, format string, args ...any) {
	panic(&Error{Reason: reason, Msg: fmt.Sprintf(format, args...)})
}

func costly(reason, format string, args ...any) {
	panic(&Error{Reason: reason, Cost: true, Msg: fmt.Sprintf(format, args...)})
}

func ratV(q *big.Rat) *value { return &value{k: kRat, q: q} }
func intV(i int64) *value    { return ratV(new(big.Rat).SetInt64(i)) }
func bigV(i *big.Int) *value { return ratV(new(big.Rat).SetInt(i)) }

func piV(q *big.Rat) *value {
	if q.Sign() == 0 {
		return intV(0)
	}
	return &value{k: kPi, q: q}
}

func expV(q *big.Rat) *value {
	if q.Sign() == 0 {
		return intV(1)
	}
	if ratCmpAbs(q, big.NewRat(maxExpArg, 1)) > 0 {
		costly(ReasonExponent, "exp(x) needs |x| <= %d (the result would exceed 2^%d or need that many bits of precision)", maxExpArg, MaxBits)
	}
	return &value{k: kExp, q: q}
}

func checkRat(q *big.Rat) *big.Rat {
	if q.Num().BitLen() > MaxBits || q.Denom().BitLen() > MaxBits {
		costly(ReasonResultTooLarge, "an exact intermediate value exceeds %d bits", MaxBits)
	}
	return q
}

func logV(q *big.Rat) *value {
	if q.Cmp(big.NewRat(1, 1)) == 0 {
		return intV(0)
	}
	return &value{k: kLog, q: checkRat(q)}
}

func (v *value) isInt() bool { return v.k == kRat && v.q.IsInt() }
func (v *value) isZero() bool {
	return v.k == kRat && v.q.Sign() == 0
}

// smallSquares are the primes whose squares are pulled out of a radicand so that
// sqrt(8) and 2*sqrt(2) share the radicand 2 and add exactly.
var smallPrimes = func() []int64 {
	var ps []int64
	for n := int64(2); n < 2000; n++ {
		prime := true
		for _, p := range ps {
			if p*p > n {
				break
			}
			if n%p == 0 {
				prime = false
				break
			}
		}
		if prime {
			ps = append(ps, n)
		}
	}
	return ps
}()

// surdV returns c·sqrt(r) for r > 0, normalized.
func surdV(c *big.Rat, r *big.Int) *value {
	if c.Sign() == 0 {
		return intV(0)
	}
	r = new(big.Int).Set(r)
	c = new(big.Rat).Set(c)
	s := new(big.Int).Sqrt(r)
	if new(big.Int).Mul(s, s).Cmp(r) == 0 {
		return ratV(checkRat(c.Mul(c, new(big.Rat).SetInt(s))))
	}
	if r.BitLen() <= 4096 {
		q, m := new(big.Int), new(big.Int)
		for _, p := range smallPrimes {
			pp := big.NewInt(p * p)
			if pp.Cmp(r) > 0 {
				break
			}
			for {
				q.QuoRem(r, pp, m)
				if m.Sign() != 0 {
					break
				}
				r.Set(q)
				c.Mul(c, new(big.Rat).SetInt64(p))
			}
		}
	}
	checkRat(c)
	if r.BitLen() > MaxBits {
		costly(ReasonResultTooLarge, "a radicand exceeds %d bits", MaxBits)
	}
	return &value{k: kSurd, q: c, r: r}
}

func (ev *evaluator) real(v *value) *real {
	if v.x != nil {
		return v.x
	}
	switch v.k {
	case kRat:
		v.x = ev.ratReal(v.q)
	case kSurd:
		v.x = ev.mulReal(ev.ratReal(v.q), ev.sqrtReal(ev.ratReal(new(big.Rat).SetInt(v.r))))
	case kPi:
		v.x = ev.mulReal(ev.ratReal(v.q), ev.piReal())
	case kExp:
		v.x = ev.expReal(ev.ratReal(v.q))
	case kLog:
		v.x = ev.logReal(ev.ratReal(v.q))
	}
	return v.x
}

func (ev *evaluator) realV(x *real) *value {
	// The bound known from x's construction settles most values without
	// probing x, one coarse probe most others (a full magnitude probe of a
	// sum that cancels costs as much as a digit).
	if !x.within(MaxBits + 2) {
		costly(ReasonResultTooLarge, "an intermediate value exceeds 2^%d in magnitude", MaxBits)
	}
	return &value{k: kReal, x: x}
}

// sign returns -1, 0 or 1; for general reals it may fail with precision_exhausted.
func (ev *evaluator) sign(v *value) int {
	switch v.k {
	case kRat, kSurd, kPi:
		return v.q.Sign()
	case kExp:
		return 1
	case kLog:
		return v.q.Cmp(big.NewRat(1, 1))
	}
	s, _ := v.x.decide()
	return s
}

// withCoef returns the rational multiple a (a rational, q·√r or q·π) with
// its coefficient replaced by the non-zero q.
func (a *value) withCoef(q *big.Rat) *value { return &value{k: a.k, q: q, r: a.r} }

func (ev *evaluator) neg(a *value) *value {
	switch a.k {
	case kRat, kSurd, kPi:
		return a.withCoef(new(big.Rat).Neg(a.q))
	case kLog:
		return logV(new(big.Rat).Inv(a.q))
	}
	return ev.realV(ev.negReal(ev.real(a)))
}

func (ev *evaluator) add(a, b *value) *value {
	switch {
	case a.k == kRat && b.k == kRat:
		return ratV(checkRat(new(big.Rat).Add(a.q, b.q)))
	case a.isZero():
		return b
	case b.isZero():
		return a
	case a.k == kSurd && b.k == kSurd && a.r.Cmp(b.r) == 0:
		return surdV(new(big.Rat).Add(a.q, b.q), a.r)
	case a.k == kPi && b.k == kPi:
		return piV(checkRat(new(big.Rat).Add(a.q, b.q)))
	case a.k == kLog && b.k == kLog:
		return logV(new(big.Rat).Mul(a.q, b.q))
	}
	return ev.realV(ev.addReal(ev.real(a), ev.real(b)))
}

func (ev *evaluator) sub(a, b *value) *value { return ev.add(a, ev.neg(b)) }

func (ev *evaluator) mul(a, b *value) *value {
	if b.k == kRat && a.k != kRat {
		a, b = b, a
	}
	switch {
	case a.k == kRat && b.k == kRat:
		return ratV(checkRat(new(big.Rat).Mul(a.q, b.q)))
	case a.isZero():
		return a
	case a.k == kRat && a.q.Cmp(big.NewRat(1, 1)) == 0:
		return b
	case a.k == kRat && b.k == kSurd:
		return surdV(new(big.Rat).Mul(a.q, b.q), b.r)
	case a.k == kRat && b.k == kPi:
		return piV(checkRat(new(big.Rat).Mul(a.q, b.q)))
	case a.k == kSurd && b.k == kSurd:
		g := new(big.Int).GCD(nil, nil, a.r, b.r)
		r := new(big.Int).Mul(new(big.Int).Quo(a.r, g), new(big.Int).Quo(b.r, g))
		c := new(big.Rat).Mul(a.q, b.q)
		return surdV(c.Mul(c, new(big.Rat).SetInt(g)), r)
	case a.k == kExp && b.k == kExp:
		return expV(new(big.Rat).Add(a.q, b.q))
	}
	ra, rb := ev.real(a), ev.real(b)
	if ra.bound()+rb.bound() > MaxBits+4 && ra.mag()+rb.mag() > MaxBits+4 {
		costly(ReasonResultTooLarge, "a product exceeds 2^%d in magnitude", MaxBits)
	}
	return ev.realV(ev.mulReal(ra, rb))
}

func (ev *evaluator) inv(a *value) *value {
	switch a.k {
	case kRat:
		if a.q.Sign() == 0 {
			fail(ReasonDivisionByZero, "division by zero")
		}
		return ratV(new(big.Rat).Inv(a.q))
	case kSurd:
		// 1/(c·sqrt r) = sqrt(r)/(c·r)
		c := new(big.Rat).Mul(a.q, new(big.Rat).SetInt(a.r))
		return surdV(c.Inv(c), a.r)
	case kExp:
		return expV(new(big.Rat).Neg(a.q))
	}
	x := ev.real(a)
	if a.k == kReal {
		if s, k := x.decide(); s != 0 && k > MaxBits {
			costly(ReasonResultTooLarge, "a quotient exceeds 2^%d in magnitude", MaxBits)
		}
	}
	return ev.realV(ev.invReal(x))
}

func (ev *evaluator) div(a, b *value) *value {
	if b.isZero() {
		fail(ReasonDivisionByZero, "division by zero")
	}
	if a.k == kPi && b.k == kPi {
		return ratV(new(big.Rat).Quo(a.q, b.q))
	}
	if a.k == kLog && b.k == kLog {
		if r, ok := ev.ratLog(a.q, b.q); ok {
			return ratV(r)
		}
	}
	if a.k == kRat && b.k == kRat {
		return ratV(checkRat(new(big.Rat).Quo(a.q, b.q)))
	}
	if b.k == kRat {
		return ev.mul(a, ratV(new(big.Rat).Inv(b.q)))
	}
	if b.k == kReal {
		if s, _ := b.x.decide(); s == 0 {
			fail(ReasonDivisionByZero, "division by zero")
		}
	}
	return ev.mul(a, ev.inv(b))
}

// floorInt returns floor(v) as an exact integer.
func (ev *evaluator) floorInt(v *value) *big.Int {
	switch v.k {
	case kRat:
		return floorRat(v.q)
	case kSurd:
		// floor(c·sqrt r) = ±isqrt(floor(c²r)) adjusted; c·sqrt(r) is never an integer.
		c2r := new(big.Rat).Mul(v.q, v.q)
		c2r.Mul(c2r, new(big.Rat).SetInt(v.r))
		s := new(big.Int).Sqrt(floorRat(c2r))
		if v.q.Sign() > 0 {
			return s
		}
		return s.Neg(s.Add(s, big1))
	}
	x := ev.real(v)
	if x.mag() > maxFloorBits {
		costly(ReasonArgumentTooLarge, "floor, ceil, round, // and %% of a non-rational value need |x| < 2^%d", maxFloorBits)
	}
	for p := 32; ; p *= 4 {
		if p > decisionCap {
			p = decisionCap
		}
		m := x.approx(p)
		lo := new(big.Int).Rsh(new(big.Int).Sub(m, big1), uint(p))
		hi := new(big.Int).Rsh(new(big.Int).Add(m, big1), uint(p))
		if lo.Cmp(hi) == 0 {
			return lo
		}
		if p == decisionCap {
			// Within 2^-16384 of 0: a value known not to be zero (a product
			// of non-zero factors, however small) has its floor all the same.
			if hi.Sign() == 0 {
				if s, _, ok := x.lowerBoundAny(decisionCap); ok {
					return big.NewInt(int64(min(s, 0)))
				}
			}
			fail(ReasonPrecisionExhausted, "cannot decide the integer part of an intermediate value: it is within 2^-16384 of an integer and may be exactly one")
		}
	}
}

func floorRat(q *big.Rat) *big.Int {
	z := new(big.Int)
	z.Div(q.Num(), q.Denom()) // Euclidean division; denominator > 0, so floor.
	return z
}

func (ev *evaluator) floorDiv(a, b *value) *value {
	if b.isZero() {
		fail(ReasonDivisionByZero, "integer division or modulo by zero")
	}
	return bigV(ev.floorInt(ev.div(a, b)))
}

func (ev *evaluator) mod(a, b *value) *value {
	if b.isZero() {
		fail(ReasonDivisionByZero, "integer division or modulo by zero")
	}
	q := ev.floorDiv(a, b)
	return ev.sub(a, ev.mul(b, q))
}

func (ev *evaluator) cmp(a, b *value) int {
	if a.k == kRat && b.k == kRat {
		return a.q.Cmp(b.q)
	}
	return ev.sign(ev.sub(a, b))
}

// ---- powers ----

func (ev *evaluator) pow(a, b *value) *value {
	if b.isInt() {
		return ev.powInt(a, b.q.Num())
	}
	if b.k == kRat {
		return ev.powRat(a, b.q)
	}
	// Irrational exponent.
	if a.k == kExp {
		return ev.expOf(ev.mul(ratV(a.q), b))
	}
	sa := ev.sign(a)
	switch {
	case sa == 0:
		if ev.sign(b) < 0 {
			fail(ReasonDivisionByZero, "0 cannot be raised to a negative power")
		}
		return intV(0)
	case sa < 0:
		fail(ReasonDomain, "a negative number raised to a non-integer power is complex")
	}
	if a.k == kRat && a.q.Cmp(big.NewRat(1, 1)) == 0 {
		return intV(1)
	}
	return ev.expOf(ev.mul(b, ev.logOf(a)))
}

func (ev *evaluator) powInt(a *value, n *big.Int) *value {
	if n.Sign() == 0 {
		return intV(1) // Python: x**0 == 1 for every x, 0**0 included.
	}
	if a.k == kRat {
		q := a.q
		if q.Sign() == 0 {
			if n.Sign() < 0 {
				fail(ReasonDivisionByZero, "0 cannot be raised to a negative power")
			}
			return intV(0)
		}
		if q.Num().CmpAbs(q.Denom()) == 0 { // ±1
			if q.Sign() < 0 && n.Bit(0) == 1 {
				return intV(-1)
			}
			return intV(1)
		}
		// bitlen(x^k) = floor(k·log2 x) + 1, so refuse when k·log2 x >= MaxBits
		// (a float estimate; checkRat below catches the last-ulp cases).
		if n.BitLen() > 31 || float64(abs64(n.Int64()))*math.Max(log2Big(q.Num()), log2Big(q.Denom())) >= MaxBits-0.5 {
			costly(ReasonExponent, "the power would exceed %d bits", MaxBits)
		}
		e := new(big.Int).Abs(n)
		num := new(big.Int).Exp(q.Num(), e, nil)
		den := new(big.Int).Exp(q.Denom(), e, nil)
		r := new(big.Rat).SetFrac(num, den)
		if n.Sign() < 0 {
			r.Inv(r)
		}
		return ratV(checkRat(r))
	}
	if n.BitLen() > 31 {
		costly(ReasonExponent, "the exponent %s is too large", n.String())
	}
	k := n.Int64()
	switch a.k {
	case kExp:
		return expV(new(big.Rat).Mul(a.q, new(big.Rat).SetInt64(k)))
	case kSurd:
		// (c·sqrt r)^k = c^k · r^(k div 2) · sqrt(r)^(k mod 2)
		ak := abs64(k)
		est := (int64(max(a.q.Num().BitLen(), a.q.Denom().BitLen())) + int64(a.r.BitLen()/2+1)) * ak
		if est > 2*MaxBits {
			costly(ReasonExponent, "the power would exceed %d bits", MaxBits)
		}
		c := ev.powInt(ratV(a.q), big.NewInt(ak)).q
		rp := new(big.Int).Exp(a.r, big.NewInt(ak/2), nil)
		c = new(big.Rat).Mul(c, new(big.Rat).SetInt(rp))
		var v *value
		if ak%2 == 1 {
			v = surdV(checkRat(c), a.r)
		} else {
			v = ratV(checkRat(c))
		}
		if k < 0 {
			return ev.inv(v)
		}
		return v
	}
	x := ev.real(a)
	if int64(x.mag())*abs64(k) > MaxBits+64 {
		costly(ReasonExponent, "the power would exceed 2^%d in magnitude", MaxBits)
	}
	base := a
	if k < 0 {
		base = ev.inv(a)
		k = -k
	}
	var result *value
	sq := base
	for k > 0 {
		if k&1 == 1 {
			if result == nil {
				result = sq
			} else {
				result = ev.mul(result, sq)
			}
		}
		k >>= 1
		if k > 0 {
			sq = ev.mul(sq, sq)
		}
	}
	return result
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// powRat is a**(p/q) with q > 1.
func (ev *evaluator) powRat(a *value, e *big.Rat) *value {
	if a.k == kExp {
		return expV(new(big.Rat).Mul(a.q, e))
	}
	sa := ev.sign(a)
	switch {
	case sa == 0:
		if e.Sign() < 0 {
			fail(ReasonDivisionByZero, "0 cannot be raised to a negative power")
		}
		return intV(0)
	case sa < 0:
		fail(ReasonDomain, "a negative number raised to a non-integer power is complex")
	}
	if a.k != kRat && e.Denom().Cmp(big2) == 0 {
		return ev.powInt(ev.sqrtOf(a), e.Num())
	}
	if a.k == kRat {
		q := e.Denom()
		if rn, ok := intRoot(a.q.Num(), q); ok {
			if rd, ok := intRoot(a.q.Denom(), q); ok {
				return ev.powInt(ratV(new(big.Rat).SetFrac(rn, rd)), e.Num())
			}
		}
		if q.Cmp(big2) == 0 {
			return ev.powInt(ev.sqrtOf(a), e.Num())
		}
		if a.q.Cmp(big.NewRat(1, 1)) == 0 {
			return intV(1)
		}
	}
	return ev.expOf(ev.mul(ratV(e), ev.logOf(a)))
}

// intRoot returns the exact q-th root of n >= 0 when there is one.
func intRoot(n, q *big.Int) (*big.Int, bool) {
	if n.Sign() == 0 || n.Cmp(big1) == 0 {
		return new(big.Int).Set(n), true
	}
	if q.BitLen() > 31 || q.Int64() >= int64(n.BitLen()) {
		return nil, false
	}
	if x, ok := bigx.Root(n, int(q.Int64())); ok {
		return x, true
	}
	return nil, false
}

// ---- elementary functions on values ----

func (ev *evaluator) sqrtOf(a *value) *value {
	switch a.k {
	case kRat:
		if a.q.Sign() < 0 {
			fail(ReasonDomain, "sqrt of a negative number")
		}
		// sqrt(n/d) = sqrt(n·d)/d
		nd := new(big.Int).Mul(a.q.Num(), a.q.Denom())
		return surdV(new(big.Rat).SetFrac(big1, a.q.Denom()), nd)
	case kExp:
		return expV(new(big.Rat).Quo(a.q, big.NewRat(2, 1)))
	}
	if ev.sign(a) < 0 {
		fail(ReasonDomain, "sqrt of a negative number")
	}
	return ev.realV(ev.sqrtReal(ev.real(a)))
}

func (ev *evaluator) expOf(a *value) *value {
	switch a.k {
	case kRat:
		return expV(a.q)
	case kLog:
		return ratV(a.q)
	}
	x := ev.real(a)
	if x.mag() > 17 { // |x| may exceed 65536
		m := shiftRound(x.approx(0), 0)
		if m.CmpAbs(big.NewInt(maxExpArg)) > 0 {
			costly(ReasonExponent, "exp(x) needs |x| <= %d", maxExpArg)
		}
	}
	return ev.realV(ev.expReal(x))
}

func (ev *evaluator) logOf(a *value) *value {
	switch a.k {
	case kRat:
		if a.q.Sign() <= 0 {
			fail(ReasonDomain, "log of a number <= 0")
		}
		return logV(a.q)
	case kExp:
		return ratV(a.q)
	}
	if ev.sign(a) <= 0 {
		fail(ReasonDomain, "log of a number <= 0")
	}
	return ev.realV(ev.logReal(ev.real(a)))
}

// logBase is log(x)/log(base), exact when both are rational and the result is.
func (ev *evaluator) logBase(x, base *value) *value {
	if base.k == kRat {
		if base.q.Sign() <= 0 {
			fail(ReasonDomain, "log base must be > 0")
		}
		if base.q.Cmp(big.NewRat(1, 1)) == 0 {
			fail(ReasonDivisionByZero, "log base 1 divides by log(1) = 0")
		}
	}
	if x.k == kRat && base.k == kRat {
		if x.q.Sign() <= 0 {
			fail(ReasonDomain, "log of a number <= 0")
		}
		if r, ok := ev.ratLog(x.q, base.q); ok {
			return ratV(r)
		}
	}
	lb := ev.logOf(base)
	if lb.isZero() {
		fail(ReasonDivisionByZero, "log base 1 divides by log(1) = 0")
	}
	return ev.div(ev.logOf(x), lb)
}

// ratLog returns log_b(a) when it is rational (a, b > 0, b != 1). Since
// a^n = b^m holds only for powers of a common rational c, the continued-fraction
// descent below, whose heights strictly decrease, finds it or proves it irrational.
func (ev *evaluator) ratLog(a, b *big.Rat) (*big.Rat, bool) {
	one := big.NewRat(1, 1)
	if a.Cmp(one) == 0 {
		return new(big.Rat), true
	}
	sign := 1
	x, y := new(big.Rat).Set(a), new(big.Rat).Set(b)
	if x.Cmp(one) < 0 {
		x.Inv(x)
		sign = -sign
	}
	if y.Cmp(one) < 0 {
		y.Inv(y)
		sign = -sign
	}
	// Now x, y > 1; compute log_y(x) as a continued fraction [k0; k1, k2, ...].
	var terms []*big.Int
	for {
		k := new(big.Int)
		for x.Cmp(y) >= 0 {
			ev.tick()
			nx := new(big.Rat).Quo(x, y)
			if height(nx).Cmp(height(x)) >= 0 {
				return nil, false
			}
			x = nx
			k.Add(k, big1)
		}
		terms = append(terms, k)
		if x.Cmp(one) == 0 {
			break
		}
		if height(x).Cmp(height(y)) >= 0 || len(terms) > 4096 {
			return nil, false
		}
		x, y = y, x
	}
	// Evaluate the continued fraction.
	r := new(big.Rat).SetInt(terms[len(terms)-1])
	for i := len(terms) - 2; i >= 0; i-- {
		r.Inv(r)
		r.Add(r, new(big.Rat).SetInt(terms[i]))
	}
	if sign < 0 {
		r.Neg(r)
	}
	return r, true
}

func height(q *big.Rat) *big.Int {
	if q.Num().CmpAbs(q.Denom()) > 0 {
		return new(big.Int).Abs(q.Num())
	}
	return q.Denom()
}

// sinTable gives sin(j·pi/12) for j in 0..23 where it is 0, ±1/2, ±1 or a
// monomial surd (j multiple of 2 or 3); nil where not.
func sinOfPiFraction(q *big.Rat) *value {
	// reduce q mod 2
	t := new(big.Rat).Mul(q, big.NewRat(12, 1))
	if !t.IsInt() {
		return nil
	}
	j := new(big.Int).Mod(t.Num(), big.NewInt(24)).Int64()
	neg := j >= 12
	j %= 12
	var v *value
	switch j {
	case 0:
		v = intV(0)
	case 2, 10:
		v = ratV(big.NewRat(1, 2))
	case 3, 9:
		v = surdV(big.NewRat(1, 2), big.NewInt(2))
	case 4, 8:
		v = surdV(big.NewRat(1, 2), big.NewInt(3))
	case 6:
		v = intV(1)
	default:
		return nil
	}
	if neg {
		return &value{k: v.k, q: new(big.Rat).Neg(v.q), r: v.r}
	}
	return v
}

func (ev *evaluator) trig(fn string, a *value) *value {
	if a.k == kPi {
		s := sinOfPiFraction(a.q)
		c := sinOfPiFraction(new(big.Rat).Add(a.q, big.NewRat(1, 2)))
		if s != nil && c != nil {
			switch fn {
			case "sin":
				return s
			case "cos":
				return c
			case "tan":
				if c.isZero() {
					fail(ReasonDomain, "tan is undefined at pi/2 + k*pi")
				}
				return ev.div(s, c)
			}
		}
	}
	if a.isZero() {
		if fn == "cos" {
			return intV(1)
		}
		return intV(0)
	}
	x := ev.real(a)
	if x.mag() > maxTrigBits {
		costly(ReasonArgumentTooLarge, "%s(x) needs |x| < 2^%d", fn, maxTrigBits)
	}
	switch fn {
	case "sin":
		return ev.realV(ev.sinCosReal(x, false))
	case "cos":
		return ev.realV(ev.sinCosReal(x, true))
	}
	c := ev.realV(ev.sinCosReal(x, true))
	return ev.div(ev.realV(ev.sinCosReal(x, false)), c)
}

// exactArc is a value q·√r (r = 1: rational, q > 0) whose arc sine or arc
// tangent is the rational multiple t of π; both functions are odd, so -q·√r
// gives -t.
type exactArc struct {
	q *big.Rat
	r int64
	t *big.Rat
}

var (
	// asinExacts: asin(1/2) = π/6, asin(1) = π/2, asin(√2/2) = π/4, asin(√3/2) = π/3.
	asinExacts = []exactArc{{big.NewRat(1, 2), 1, big.NewRat(1, 6)}, {big.NewRat(1, 1), 1, big.NewRat(1, 2)},
		{big.NewRat(1, 2), 2, big.NewRat(1, 4)}, {big.NewRat(1, 2), 3, big.NewRat(1, 3)}}
	// atanExacts: atan(1) = π/4, atan(√3) = π/3, atan(√3/3) = π/6.
	atanExacts = []exactArc{{big.NewRat(1, 1), 1, big.NewRat(1, 4)}, {big.NewRat(1, 1), 3, big.NewRat(1, 3)},
		{big.NewRat(1, 3), 3, big.NewRat(1, 6)}}
)

// asinExact returns asin(a)/pi when a is one of the values with a rational
// multiple of pi as arc sine.
func asinExact(a *value) (*big.Rat, bool) { return exactArcOf(a, asinExacts) }

// atanExact is asinExact for the arc tangent.
func atanExact(a *value) (*big.Rat, bool) { return exactArcOf(a, atanExacts) }

// exactArcOf returns arc(a)/π for a = 0 or a value (of either sign) listed
// in arcs.
func exactArcOf(a *value, arcs []exactArc) (*big.Rat, bool) {
	r := int64(1)
	switch {
	case a.k == kRat && a.q.Sign() == 0:
		return new(big.Rat), true
	case a.k == kSurd && a.r.IsInt64():
		r = a.r.Int64()
	case a.k != kRat:
		return nil, false
	}
	for _, e := range arcs {
		if e.r == r && ratCmpAbs(a.q, e.q) == 0 {
			return new(big.Rat).Mul(big.NewRat(int64(a.q.Sign()), 1), e.t), true
		}
	}
	return nil, false
}

func (ev *evaluator) arcsin(a *value, acos bool) *value {
	if q, ok := asinExact(a); ok {
		if acos {
			return piV(new(big.Rat).Sub(big.NewRat(1, 2), q))
		}
		return piV(q)
	}
	// Domain |a| <= 1.
	var out bool
	switch a.k {
	case kRat:
		out = ratCmpAbs(a.q, big.NewRat(1, 1)) > 0
	case kSurd:
		c2r := new(big.Rat).Mul(a.q, a.q)
		c2r.Mul(c2r, new(big.Rat).SetInt(a.r))
		out = c2r.Cmp(big.NewRat(1, 1)) > 0
	default:
		out = ev.sign(ev.sub(intV(1), ev.absOf(a))) < 0
	}
	if out {
		fail(ReasonDomain, "asin/acos need -1 <= x <= 1")
	}
	s := ev.realV(ev.asinReal(ev.real(a)))
	if acos {
		return ev.sub(piV(big.NewRat(1, 2)), s)
	}
	return s
}

func (ev *evaluator) arctan(a *value) *value {
	if q, ok := atanExact(a); ok {
		return piV(q)
	}
	return ev.realV(ev.atanReal(ev.real(a)))
}

func (ev *evaluator) atan2(y, x *value) *value {
	sx, sy := ev.sign(x), ev.sign(y)
	switch {
	case sx == 0 && sy == 0:
		return intV(0)
	case sx == 0:
		return piV(big.NewRat(int64(sy), 2))
	}
	t := ev.arctan(ev.div(y, x))
	if sx > 0 {
		return t
	}
	if sy >= 0 {
		return ev.add(t, piV(big.NewRat(1, 1)))
	}
	return ev.sub(t, piV(big.NewRat(1, 1)))
}

func (ev *evaluator) absOf(a *value) *value {
	switch a.k {
	case kRat, kSurd, kPi:
		return a.withCoef(new(big.Rat).Abs(a.q))
	case kExp:
		return a
	case kLog:
		if a.q.Cmp(big.NewRat(1, 1)) < 0 {
			return logV(new(big.Rat).Inv(a.q))
		}
		return a
	}
	return ev.realV(ev.absReal(ev.real(a)))
}

// roundHalfEven returns round(v·10^n) with ties to even, as Python's round.
func (ev *evaluator) roundHalfEven(v *value, n int64) *big.Int {
	scaled := v
	if n != 0 {
		scaled = ev.mul(v, ev.powInt(intV(10), big.NewInt(n)))
	}
	if scaled.k == kRat {
		q := scaled.q
		twice := new(big.Rat).Mul(q, big.NewRat(2, 1))
		fl := floorRat(q)
		frac := new(big.Rat).Sub(q, new(big.Rat).SetInt(fl))
		switch frac.Cmp(big.NewRat(1, 2)) {
		case -1:
			return fl
		case 1:
			return fl.Add(fl, big1)
		}
		_ = twice
		if fl.Bit(0) == 1 {
			return fl.Add(fl, big1)
		}
		return fl
	}
	// Irrational values never sit on a tie; floor(x + 1/2) decides.
	return ev.floorInt(ev.add(scaled, ratV(big.NewRat(1, 2))))
}

// lgammaBits estimates log2(n!) for n >= 0 (float, only for cost checks).
func log2Factorial(n float64) float64 {
	if n < 2 {
		return 0
	}
	lg, _ := math.Lgamma(n + 1)
	return lg / math.Ln2
}

func ratCmpAbs(a, b *big.Rat) int {
	return new(big.Rat).Abs(a).Cmp(new(big.Rat).Abs(b))
}

// log2Big returns log2(|x|) as a float (x != 0).
func log2Big(x *big.Int) float64 {
	b := x.BitLen()
	if b <= 53 {
		f, _ := new(big.Float).SetInt(x).Float64()
		return math.Log2(math.Abs(f))
	}
	top := new(big.Int).Rsh(new(big.Int).Abs(x), uint(b-53))
	f, _ := new(big.Float).SetInt(top).Float64()
	return math.Log2(f) + float64(b-53)
}
