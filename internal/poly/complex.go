package poly

import (
	"context"
	"math/big"
	"slices"
)

// Non-real roots of the factors that have no rational or quadratic factor
// are computed numerically with a proof of location: Aberth's iteration (in
// float64) gives starting points in the upper half plane, Newton's method in
// big.Float refines them, and each result z is accepted only with a rigorous
// inclusion: a polynomial of degree n has a root in the disk
// |w - z| <= n·|f(z)|/|f'(z)| (with |f(z)| enlarged by a bound on the
// evaluation error). The disks must be tiny (2^-200 relative), pairwise
// disjoint and clear of the real axis; then they hold distinct non-real
// roots, and with their conjugates they account for every non-real root.
// If any check fails the non-real roots are reported as omitted instead.

const complexPrec = 384

type cfloat struct{ re, im *big.Float }

func newCF() cfloat {
	return cfloat{new(big.Float).SetPrec(complexPrec), new(big.Float).SetPrec(complexPrec)}
}

func (z cfloat) mul(w cfloat) cfloat {
	out := newCF()
	t := new(big.Float).SetPrec(complexPrec)
	out.re.Mul(z.re, w.re)
	out.re.Sub(out.re, t.Mul(z.im, w.im))
	out.im.Mul(z.re, w.im)
	out.im.Add(out.im, t.Mul(z.im, w.re))
	return out
}

func (z cfloat) quo(w cfloat) cfloat {
	den := new(big.Float).SetPrec(complexPrec).Mul(w.re, w.re)
	den.Add(den, new(big.Float).SetPrec(complexPrec).Mul(w.im, w.im))
	conj := cfloat{w.re, new(big.Float).SetPrec(complexPrec).Neg(w.im)}
	n := z.mul(conj)
	n.re.Quo(n.re, den)
	n.im.Quo(n.im, den)
	return n
}

func (z cfloat) abs() *big.Float {
	s := new(big.Float).SetPrec(complexPrec).Mul(z.re, z.re)
	s.Add(s, new(big.Float).SetPrec(complexPrec).Mul(z.im, z.im))
	return s.Sqrt(s)
}

// evalC returns f(z), f'(z) and the sum of |a_i||z|^i (for the error bound)
// at complexPrec (numeval.go: hornerInt).
func evalC(p IPoly, z cfloat) (cfloat, cfloat, *big.Float) {
	v, d, mag := (&numEval{prec: complexPrec}).hornerInt(p, cnum(z))
	return cfloat(v), cfloat(d), mag
}

// nonRealRoots returns the roots of p with positive imaginary part, sorted by
// real part, or ok=false when they cannot be located rigorously.
func nonRealRoots(ctx context.Context, p IPoly, count int) ([]cfloat, bool, error) {
	if count == 0 {
		return nil, true, nil
	}
	zs, ok := aberth(p)
	if !ok {
		return nil, false, nil
	}
	var upper []complex128
	for _, z := range zs {
		if imag(z) > 0 {
			upper = append(upper, z)
		}
	}
	slices.SortFunc(upper, func(a, b complex128) int {
		switch {
		case imag(a) > imag(b):
			return -1
		case imag(a) < imag(b):
			return 1
		}
		return 0
	})
	if len(upper) < count {
		return nil, false, nil
	}
	upper = upper[:count]
	n := p.deg()
	out := make([]cfloat, 0, count)
	radii := make([]*big.Float, 0, count)
	for _, z0 := range upper {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		z := newCF()
		z.re.SetFloat64(real(z0))
		z.im.SetFloat64(imag(z0))
		var rad *big.Float
		for it := 0; it < 200; it++ {
			v, d, mag := evalC(p, z)
			if d.re.Sign() == 0 && d.im.Sign() == 0 {
				return nil, false, nil
			}
			step := v.quo(d)
			z.re.Sub(z.re, step.re)
			z.im.Sub(z.im, step.im)
			// inclusion radius at the point where f was evaluated
			errB := new(big.Float).SetPrec(complexPrec).SetMantExp(mag, -(complexPrec - 16))
			fv := v.abs()
			fv.Add(fv, errB)
			r := fv.Quo(fv, d.abs())
			r.Mul(r, new(big.Float).SetInt64(int64(n)))
			r.Add(r, step.abs()) // z moved by one step since the evaluation
			rad = r
			if r.Sign() == 0 || r.MantExp(nil) < z.abs().MantExp(nil)-230 {
				break
			}
		}
		if rad.Sign() != 0 && rad.MantExp(nil) > z.abs().MantExp(nil)-200 {
			return nil, false, nil
		}
		if z.im.Cmp(rad) <= 0 {
			return nil, false, nil
		}
		out = append(out, z)
		radii = append(radii, rad)
	}
	// pairwise disjoint disks
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			dz := newCF()
			dz.re.Sub(out[i].re, out[j].re)
			dz.im.Sub(out[i].im, out[j].im)
			sum := new(big.Float).SetPrec(complexPrec).Add(radii[i], radii[j])
			if dz.abs().Cmp(sum) <= 0 {
				return nil, false, nil
			}
		}
	}
	// Roots on the imaginary axis: their real part is exactly 0. A disk that
	// touches the axis may hold one; the pure imaginary roots ±i·t are the
	// roots of gcd(p(x), p(-x)) = G(x²) with G(-t²) = 0. When exactly as many
	// disks touch the axis as G has negative roots, those disks hold them.
	touching := 0
	for i, z := range out {
		if new(big.Float).Abs(z.re).Cmp(radii[i]) <= 0 {
			touching++
		}
	}
	if touching > 0 {
		k, err := pureImaginaryCount(ctx, p)
		if err != nil {
			return nil, false, err
		}
		if k != touching {
			return nil, false, nil
		}
		for i, z := range out {
			if new(big.Float).Abs(z.re).Cmp(radii[i]) <= 0 {
				z.re.SetInt64(0)
			}
		}
	}
	slices.SortFunc(out, func(a, b cfloat) int {
		if c := a.re.Cmp(b.re); c != 0 {
			return c
		}
		return a.im.Cmp(b.im)
	})
	return out, true, nil
}

// pureImaginaryCount is the number of roots i·t, t > 0, of p.
func pureImaginaryCount(ctx context.Context, p IPoly) (int, error) {
	e := gcdPrim(p, p.negX())
	if e.deg() < 2 {
		return 0, nil
	}
	G := make(IPoly, e.deg()/2+1)
	for i := range G {
		G[i] = new(big.Int).Set(e[2*i])
	}
	G = squarefree(G.trim())
	iso, err := isolateReal(ctx, G)
	if err != nil {
		return 0, err
	}
	k := 0
	for _, r := range iso.exact {
		if r.Sign() < 0 {
			k++
		}
	}
	for _, iv := range iso.intervals {
		if iv.mh.Sign() <= 0 {
			k++
		}
	}
	return k, nil
}
