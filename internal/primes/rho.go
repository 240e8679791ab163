package primes

import (
	"math/big"
	"math/bits"
)

// rhoWalk is the arithmetic of one Pollard–Brent walk y ↦ y² + c modulo n,
// x0 = 2, in one representation of the residues (uint64 below 2^64,
// Montgomery limbs up to 2^256, big.Int above). The control flow (Brent's
// doubling cycle search, gcds of products of batch differences, the step-by-step
// retreat when a batch overshoots) is rho's, shared by all of them, so the three
// walks take the same steps and spend the same budget.
//
// A walk holds x (the anchor), y (the runner), ys (the runner at the start of
// the current batch), q (the product of the differences |x - y|) and g (the
// last gcd with n). Its methods loop over whole rounds or batches, so rho pays
// one dynamic call per batch, not per step.
type rhoWalk interface {
	// anchor sets x = y.
	anchor()
	// advance steps y r times.
	advance(r int64)
	// accumulate sets ys = y, then steps y lim times, multiplying |x - y| into q.
	accumulate(lim int64)
	// gcdQ sets g = gcd(q, n) and reports whether g != 1.
	gcdQ() bool
	// retreat steps ys once, sets g = gcd(|x - ys|, n) and reports whether g != 1.
	retreat() bool
	// whole reports whether g == n (the walk closed its cycle without a split).
	whole() bool
}

// rho runs Brent's cycle search on w and reports whether it ended with a
// proper factor of n in w's g; false with a nil error means this c failed.
func (f *factorer) rho(w rhoWalk) (bool, error) {
	for r, split := int64(1), false; !split; r *= 2 {
		w.anchor()
		w.advance(r)
		if err := f.spend(r); err != nil {
			return false, err
		}
		for k := int64(0); k < r && !split; k += batch {
			lim := min(batch, r-k)
			w.accumulate(lim)
			if err := f.spend(lim); err != nil {
				return false, err
			}
			split = w.gcdQ()
		}
	}
	if w.whole() {
		for {
			split := w.retreat()
			if err := f.spend(1); err != nil {
				return false, err
			}
			if split {
				break
			}
		}
	}
	return !w.whole(), nil
}

// brent64 returns a factor of n, 0 when this c failed, or an error.
func (f *factorer) brent64(n, c uint64) (uint64, error) {
	w := &walk64{n: n, c: c % n, y: 2, q: 1, g: 1}
	if ok, err := f.rho(w); !ok || err != nil {
		return 0, err
	}
	return w.g, nil
}

// brentMont is brentBig in the Montgomery domain (n odd, 64 < bits <= 256).
func (f *factorer) brentMont(n *big.Int, c uint64) (*big.Int, error) {
	m := newMont(n)
	w := &walkMont{m: m, n: n, cm: m.to(new(big.Int).SetUint64(c)), y: m.to(big.NewInt(2)), q: m.to(big1), g: big.NewInt(1)}
	return f.rhoBig(w, w.g)
}

// brentBig runs the walk on big.Int residues, for n above 2^256.
func (f *factorer) brentBig(n *big.Int, c uint64) (*big.Int, error) {
	w := &walkBig{n: n, c: new(big.Int).SetUint64(c), y: big.NewInt(2), x: new(big.Int), ys: new(big.Int),
		q: big.NewInt(1), g: big.NewInt(1), d: new(big.Int), tmp: new(big.Int)}
	return f.rhoBig(w, w.g)
}

// rhoBig runs w, whose gcd lives in g: the factor, nil when this c failed, or
// an error.
func (f *factorer) rhoBig(w rhoWalk, g *big.Int) (*big.Int, error) {
	if ok, err := f.rho(w); !ok || err != nil {
		return nil, err
	}
	return g, nil
}

// walk64 is the walk on uint64 residues; c is already reduced modulo n.
type walk64 struct{ n, c, x, y, ys, q, g uint64 }

func (w *walk64) step(v uint64) uint64 {
	v = mulmod(v, v, w.n)
	v, carry := bits.Add64(v, w.c, 0)
	if carry != 0 || v >= w.n {
		v -= w.n
	}
	return v
}

func (w *walk64) anchor() { w.x = w.y }

func (w *walk64) advance(r int64) {
	for range r {
		w.y = w.step(w.y)
	}
}

func (w *walk64) accumulate(lim int64) {
	w.ys = w.y
	for range lim {
		w.y = w.step(w.y)
		w.q = mulmod(w.q, absDiff(w.x, w.y), w.n)
	}
}

func (w *walk64) gcdQ() bool { w.g = gcd64(w.q, w.n); return w.g != 1 }

func (w *walk64) retreat() bool {
	w.ys = w.step(w.ys)
	w.g = gcd64(absDiff(w.x, w.ys), w.n)
	return w.g != 1
}

func (w *walk64) whole() bool { return w.g == w.n }

func absDiff(a, b uint64) uint64 {
	if b > a {
		return b - a
	}
	return a - b
}

// walkMont is the walk on Montgomery residues: x̃ = xR maps x² + c to
// mul(x̃, x̃) + c̃, and (x - y)R has the same gcd with n as |x - y|.
type walkMont struct {
	m            *mont
	n            *big.Int
	cm, x, y, ys limbs
	q            limbs
	g            *big.Int
}

func (w *walkMont) step(v limbs) limbs { return w.m.add(w.m.mul(v, v), w.cm) }

func (w *walkMont) anchor() { w.x = w.y }

func (w *walkMont) advance(r int64) {
	for range r {
		w.y = w.step(w.y)
	}
}

func (w *walkMont) accumulate(lim int64) {
	w.ys = w.y
	for range lim {
		w.y = w.step(w.y)
		w.q = w.m.mul(w.q, w.m.sub(w.x, w.y))
	}
}

func (w *walkMont) gcdQ() bool {
	w.g.GCD(nil, nil, w.m.toBig(w.q), w.n)
	return w.g.Cmp(big1) != 0
}

func (w *walkMont) retreat() bool {
	w.ys = w.step(w.ys)
	w.g.GCD(nil, nil, w.m.toBig(w.m.sub(w.x, w.ys)), w.n)
	return w.g.Cmp(big1) != 0
}

func (w *walkMont) whole() bool { return w.g.Cmp(w.n) == 0 }

// walkBig is the walk on big.Int residues, updated in place.
type walkBig struct{ n, c, x, y, ys, q, g, d, tmp *big.Int }

func (w *walkBig) step(v *big.Int) {
	w.tmp.Mul(v, v)
	w.tmp.Add(w.tmp, w.c)
	v.Mod(w.tmp, w.n)
}

func (w *walkBig) anchor() { w.x.Set(w.y) }

func (w *walkBig) advance(r int64) {
	for range r {
		w.step(w.y)
	}
}

func (w *walkBig) accumulate(lim int64) {
	w.ys.Set(w.y)
	for range lim {
		w.step(w.y)
		w.d.Sub(w.x, w.y)
		w.q.Mul(w.q, w.d.Abs(w.d))
		w.q.Mod(w.q, w.n)
	}
}

func (w *walkBig) gcdQ() bool {
	w.g.GCD(nil, nil, w.q, w.n)
	return w.g.Cmp(big1) != 0
}

func (w *walkBig) retreat() bool {
	w.step(w.ys)
	w.d.Sub(w.x, w.ys)
	w.g.GCD(nil, nil, w.d.Abs(w.d), w.n)
	return w.g.Cmp(big1) != 0
}

func (w *walkBig) whole() bool { return w.g.Cmp(w.n) == 0 }
