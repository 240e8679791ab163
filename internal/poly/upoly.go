package poly

import (
	"math/big"
)

// IPoly is a univariate polynomial with integer coefficients; p[i] is the
// coefficient of x^i. Normalized values have no trailing zero coefficients.
type IPoly []*big.Int

func (p IPoly) deg() int { return len(p) - 1 }

func (p IPoly) trim() IPoly {
	n := len(p)
	for n > 0 && p[n-1].Sign() == 0 {
		n--
	}
	return p[:n]
}

func (p IPoly) clone() IPoly {
	q := make(IPoly, len(p))
	for i, c := range p {
		q[i] = new(big.Int).Set(c)
	}
	return q
}

func (p IPoly) lc() *big.Int { return p[len(p)-1] }

// content is the gcd of the coefficients (positive), 0 for the zero polynomial.
func (p IPoly) content() *big.Int {
	g := new(big.Int)
	for _, c := range p {
		g.GCD(nil, nil, g, new(big.Int).Abs(c))
		if g.Cmp(big.NewInt(1)) == 0 {
			break
		}
	}
	return g
}

// primitive divides by the content and makes the leading coefficient positive.
func (p IPoly) primitive() IPoly {
	p = p.trim()
	if len(p) == 0 {
		return p
	}
	g := p.content()
	if p.lc().Sign() < 0 {
		g.Neg(g)
	}
	q := make(IPoly, len(p))
	for i, c := range p {
		q[i] = new(big.Int).Quo(c, g)
	}
	return q
}

// fromRats clears denominators of rational coefficients and returns the
// primitive integer polynomial with a positive leading coefficient.
func fromRats(cs []*big.Rat) IPoly {
	l := big.NewInt(1)
	for _, c := range cs {
		d := c.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	p := make(IPoly, len(cs))
	for i, c := range cs {
		v := new(big.Int).Mul(c.Num(), l)
		p[i] = v.Quo(v, c.Denom())
	}
	return p.primitive()
}

func (p IPoly) deriv() IPoly {
	if len(p) <= 1 {
		return IPoly{}
	}
	q := make(IPoly, len(p)-1)
	for i := 1; i < len(p); i++ {
		q[i-1] = new(big.Int).Mul(p[i], big.NewInt(int64(i)))
	}
	return q.trim()
}

// pseudoRem returns the pseudo-remainder of a by b (b non-zero):
// lc(b)^(deg a - deg b + 1) * a mod b, computed over the integers.
func pseudoRem(a, b IPoly) IPoly {
	r := a.clone()
	db := b.deg()
	lb := b.lc()
	for len(r) > 0 && r.deg() >= db {
		lr := new(big.Int).Set(r.lc())
		shift := r.deg() - db
		for i := range r {
			r[i].Mul(r[i], lb)
		}
		for i, c := range b {
			r[i+shift].Sub(r[i+shift], new(big.Int).Mul(lr, c))
		}
		r = r.trim()
	}
	return r
}

// gcdPrim is the primitive gcd of two integer polynomials (primitive PRS).
func gcdPrim(a, b IPoly) IPoly {
	a, b = a.primitive(), b.primitive()
	if len(a) < len(b) {
		a, b = b, a
	}
	for len(b) > 0 {
		r := pseudoRem(a, b).primitive()
		a, b = b, r
	}
	return a.primitive()
}

// divExact returns a/b when b divides a over the rationals, made primitive,
// and whether the division was exact.
func divExact(a, b IPoly) (IPoly, bool) {
	if len(b) == 0 || len(a) < len(b) {
		return nil, false
	}
	// Work over Q with a common scaling: q = a / b.
	r := make([]*big.Rat, len(a))
	for i, c := range a {
		r[i] = new(big.Rat).SetInt(c)
	}
	db := b.deg()
	lb := new(big.Rat).SetInt(b.lc())
	q := make([]*big.Rat, len(a)-len(b)+1)
	for k := len(q) - 1; k >= 0; k-- {
		c := new(big.Rat).Quo(r[k+db], lb)
		q[k] = c
		if c.Sign() == 0 {
			continue
		}
		for i, bc := range b {
			r[k+i].Sub(r[k+i], new(big.Rat).Mul(c, new(big.Rat).SetInt(bc)))
		}
	}
	for i := 0; i < db; i++ {
		if r[i].Sign() != 0 {
			return nil, false
		}
	}
	return fromRats(q), true
}

// squarefree returns the primitive square-free part p / gcd(p, p').
func squarefree(p IPoly) IPoly {
	d := p.deriv()
	if len(d) == 0 {
		return p.primitive()
	}
	g := gcdPrim(p, d)
	if g.deg() == 0 {
		return p.primitive()
	}
	q, _ := divExact(p, g)
	return q
}

// signAt returns the sign of p(num/den), den > 0, evaluated exactly.
func (p IPoly) signAt(num, den *big.Int) int {
	return p.evalHom(num, den).Sign()
}

// evalHom returns den^n * p(num/den) as an integer.
func (p IPoly) evalHom(num, den *big.Int) *big.Int {
	n := len(p) - 1
	if n < 0 {
		return new(big.Int)
	}
	acc := new(big.Int).Set(p[n])
	dpow := new(big.Int).Set(den)
	t := new(big.Int)
	for i := n - 1; i >= 0; i-- {
		acc.Mul(acc, num)
		t.Mul(p[i], dpow)
		acc.Add(acc, t)
		if i > 0 {
			dpow.Mul(dpow, den)
		}
	}
	return acc
}

// taylorShift1 returns p(x+1).
func (p IPoly) taylorShift1() IPoly {
	q := p.clone()
	n := len(q)
	for i := 0; i < n-1; i++ {
		for j := n - 2; j >= i; j-- {
			q[j].Add(q[j], q[j+1])
		}
	}
	return q
}

// reverse returns x^n p(1/x).
func (p IPoly) reverse() IPoly {
	q := make(IPoly, len(p))
	for i, c := range p {
		q[len(p)-1-i] = c
	}
	return q
}

func signVariations(p IPoly) int {
	v, last := 0, 0
	for _, c := range p {
		s := c.Sign()
		if s == 0 {
			continue
		}
		if last != 0 && s != last {
			v++
		}
		last = s
	}
	return v
}

// negX returns p(-x).
func (p IPoly) negX() IPoly {
	q := p.clone()
	for i := 1; i < len(q); i += 2 {
		q[i].Neg(q[i])
	}
	return q
}

// rootBoundBits returns b such that every root has |x| < 2^b, from
// Fujiwara's bound |x| <= 2·max_i |a_(n-i)/a_n|^(1/i), computed on bit
// lengths (|a| < 2^bitlen(a), |a_n| >= 2^(bitlen(a_n)-1)).
func (p IPoly) rootBoundBits() int {
	n := p.deg()
	ln := p.lc().BitLen()
	b := 0
	for i := 1; i <= n; i++ {
		c := p[n-i]
		if c.Sign() == 0 {
			continue
		}
		// |a_(n-i)/a_n| < 2^(bitlen - ln + 1); its i-th root < 2^ceil(that/i)
		e := c.BitLen() - ln + 1
		var r int
		if e <= 0 {
			r = 0
		} else {
			r = (e + i - 1) / i
		}
		b = max(b, r)
	}
	return b + 2
}
