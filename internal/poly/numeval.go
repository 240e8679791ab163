package poly

import (
	"errors"
	"math"
	"math/big"
	"math/cmplx"
)

// High-precision complex evaluation of printed roots (principal branches, as
// SymPy defines sqrt and rational powers), for the root self-check.

type cnum struct{ re, im *big.Float }

type numEval struct {
	prec uint
	vars map[string]*big.Rat // parameter values
}

var errNumEval = errors.New("poly: printed root cannot be evaluated")

func (ev *numEval) f() *big.Float { return new(big.Float).SetPrec(ev.prec) }

func (ev *numEval) rat(r *big.Rat) cnum { return cnum{ev.f().SetRat(r), ev.f()} }

func (ev *numEval) add(a, b cnum) cnum {
	return cnum{ev.f().Add(a.re, b.re), ev.f().Add(a.im, b.im)}
}

func (ev *numEval) sub(a, b cnum) cnum {
	return cnum{ev.f().Sub(a.re, b.re), ev.f().Sub(a.im, b.im)}
}

func (ev *numEval) mul(a, b cnum) cnum {
	re := ev.f().Mul(a.re, b.re)
	re.Sub(re, ev.f().Mul(a.im, b.im))
	im := ev.f().Mul(a.re, b.im)
	im.Add(im, ev.f().Mul(a.im, b.re))
	return cnum{re, im}
}

func (ev *numEval) norm2(a cnum) *big.Float {
	n := ev.f().Mul(a.re, a.re)
	return n.Add(n, ev.f().Mul(a.im, a.im))
}

func (ev *numEval) abs(a cnum) *big.Float { return ev.f().Sqrt(ev.norm2(a)) }

func isZero(a cnum) bool { return a.re.Sign() == 0 && a.im.Sign() == 0 }

func (ev *numEval) quo(a, b cnum) (cnum, error) {
	if isZero(b) {
		return cnum{}, errNumEval
	}
	d := ev.norm2(b)
	n := ev.mul(a, cnum{b.re, ev.f().Neg(b.im)})
	return cnum{n.re.Quo(n.re, d), n.im.Quo(n.im, d)}, nil
}

// sqrt is the principal square root (the cut along the negative real axis
// belongs to the upper half: sqrt(-4) = 2*I).
func (ev *numEval) sqrt(a cnum) cnum {
	if isZero(a) {
		return cnum{ev.f(), ev.f()}
	}
	r := ev.abs(a)
	half := big.NewFloat(0.5)
	if a.re.Sign() >= 0 {
		u := ev.f().Add(r, a.re)
		u.Mul(u, half).Sqrt(u)
		v := ev.f().Quo(a.im, u)
		return cnum{u, v.Mul(v, half)}
	}
	v := ev.f().Sub(r, a.re)
	v.Mul(v, half).Sqrt(v)
	u := ev.f().Abs(a.im)
	u.Quo(u, v).Mul(u, half)
	if a.im.Sign() < 0 {
		v.Neg(v)
	}
	return cnum{u, v}
}

func (ev *numEval) powInt(a cnum, n int64) (cnum, error) {
	neg := n < 0
	if neg {
		n = -n
	}
	res := ev.rat(big.NewRat(1, 1))
	for b := a; n > 0; n >>= 1 {
		if n&1 == 1 {
			res = ev.mul(res, b)
		}
		if n > 1 {
			b = ev.mul(b, b)
		}
	}
	if neg {
		return ev.quo(ev.rat(big.NewRat(1, 1)), res)
	}
	return res, nil
}

// rootK is the principal k-th root exp(log(a)/k): a float64 estimate of a
// scaled copy (complex128 Pow uses the principal logarithm), then Newton's
// iteration in full precision.
func (ev *numEval) rootK(a cnum, k int64) (cnum, error) {
	if isZero(a) {
		return cnum{ev.f(), ev.f()}, nil
	}
	if k == 2 {
		return ev.sqrt(a), nil
	}
	// a = a' * 2^(s*k) with |a'| near 1
	e := ev.abs(a).MantExp(nil)
	s := e / int(k)
	sc := cnum{ev.f().SetMantExp(a.re, -s*int(k)), ev.f().SetMantExp(a.im, -s*int(k))}
	re, _ := sc.re.Float64()
	im, _ := sc.im.Float64()
	if a.im.Sign() == 0 {
		im = 0 // exactly real: the principal value takes the upper side of the cut
	}
	w0 := cmplx.Pow(complex(re, im), complex(1/float64(k), 0))
	if cmplx.IsNaN(w0) || cmplx.IsInf(w0) {
		return cnum{}, errNumEval
	}
	w := cnum{ev.f().SetMantExp(ev.f().SetFloat64(real(w0)), s), ev.f().SetMantExp(ev.f().SetFloat64(imag(w0)), s)}
	kf := ev.rat(big.NewRat(k, 1))
	k1 := ev.rat(big.NewRat(k-1, 1))
	steps := 4 + int(math.Ceil(math.Log2(float64(ev.prec)/40)))
	for range steps {
		// w = ((k-1) w + a / w^(k-1)) / k
		p, err := ev.powInt(w, k-1)
		if err != nil {
			return cnum{}, err
		}
		t, err := ev.quo(a, p)
		if err != nil {
			return cnum{}, err
		}
		w, _ = ev.quo(ev.add(ev.mul(k1, w), t), kf)
	}
	return w, nil
}

// eval evaluates a printed expression.
func (ev *numEval) eval(n *snode) (cnum, error) {
	switch n.op {
	case 'n':
		return ev.rat(n.num), nil
	case 's':
		v, ok := ev.vars[n.name]
		if !ok {
			return cnum{}, errNumEval
		}
		return ev.rat(v), nil
	case 'i':
		return cnum{ev.f(), ev.f().SetInt64(1)}, nil
	case '-':
		a, err := ev.eval(n.kids[0])
		if err != nil {
			return cnum{}, err
		}
		return cnum{ev.f().Neg(a.re), ev.f().Neg(a.im)}, nil
	case '+':
		acc := cnum{ev.f(), ev.f()}
		for _, k := range n.kids {
			a, err := ev.eval(k)
			if err != nil {
				return cnum{}, err
			}
			acc = ev.add(acc, a)
		}
		return acc, nil
	case '*', '/':
		a, err := ev.eval(n.kids[0])
		if err != nil {
			return cnum{}, err
		}
		b, err := ev.eval(n.kids[1])
		if err != nil {
			return cnum{}, err
		}
		if n.op == '*' {
			return ev.mul(a, b), nil
		}
		return ev.quo(a, b)
	case '^':
		a, err := ev.eval(n.kids[0])
		if err != nil {
			return cnum{}, err
		}
		q := n.num
		if !q.Num().IsInt64() || !q.Denom().IsInt64() || q.Denom().Int64() > 64 || abs64(q.Num().Int64()) > 1024 {
			return cnum{}, errNumEval
		}
		if q.Denom().Int64() != 1 {
			if a, err = ev.rootK(a, q.Denom().Int64()); err != nil {
				return cnum{}, err
			}
		}
		return ev.powInt(a, q.Num().Int64())
	}
	return cnum{}, errNumEval
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// horner evaluates the polynomial with rational coefficients cs (cs[i] of
// x^i) at z, and returns the value and Σ|c_i|·|z|^i (the scale against which
// a residual is small or not).
func (ev *numEval) horner(cs []*big.Rat, z cnum) (cnum, *big.Float) {
	v := cnum{ev.f(), ev.f()}
	az := ev.abs(z)
	mag := ev.f()
	for i := len(cs) - 1; i >= 0; i-- {
		v = ev.add(ev.mul(v, z), ev.rat(cs[i]))
		mag.Mul(mag, az)
		mag.Add(mag, ev.f().Abs(ev.f().SetRat(cs[i])))
	}
	return v, mag
}

// hornerInt evaluates the integer polynomial p and its derivative at z by
// Horner's scheme with preallocated temporaries (the hot loop of non-real
// root refinement and of CRootOf confirmation), and returns Σ|p_i|·|z|^i.
func (ev *numEval) hornerInt(p IPoly, z cnum) (v, d cnum, mag *big.Float) {
	v, d = cnum{ev.f(), ev.f()}, cnum{ev.f(), ev.f()}
	az := ev.abs(z)
	mag = ev.f()
	t1, t2, t3, ai := ev.f(), ev.f(), ev.f(), ev.f()
	mulZ := func(w cnum) {
		t1.Mul(w.re, z.re)
		t2.Mul(w.im, z.im)
		t3.Mul(w.re, z.im)
		w.im.Mul(w.im, z.re)
		w.im.Add(w.im, t3)
		w.re.Sub(t1, t2)
	}
	for i := len(p) - 1; i >= 0; i-- {
		mulZ(d)
		d.re.Add(d.re, v.re)
		d.im.Add(d.im, v.im)
		mulZ(v)
		ai.SetInt(p[i])
		v.re.Add(v.re, ai)
		mag.Mul(mag, az)
		mag.Add(mag, ai.Abs(ai))
	}
	return v, d, mag
}
