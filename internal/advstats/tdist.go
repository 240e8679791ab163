package advstats

import (
	"context"
	"math"
	"math/big"
)

// The Student-t quantile for an integer number of degrees of freedom ν uses
// the finite closed forms of the t CDF (Abramowitz and Stegun 26.7.3/26.7.4):
// with θ = atan(t/√ν), u = cos²θ = ν/(ν+t²) and s = sin θ,
//
//	ν even: F(t) - 1/2 = (s/2)·Σ_{k<ν/2} a_k u^k,          a_0 = 1, a_k = a_{k-1}(2k-1)/(2k)
//	ν odd:  F(t) - 1/2 = (θ + s·cosθ·Σ_{k<(ν-1)/2} b_k u^k)/π, b_0 = 1, b_k = b_{k-1}(2k)/(2k+1)
//
// evaluated in big.Float. Newton's method with the float64 density finds t;
// the rounding-error bound of the sums (below) and the residual bound the
// distance to the true quantile, and the decimal digits are given only when
// both ends of that interval round to the same Digits-digit string.

// maxPrec bounds the working precision (bits) of the t quantile and the
// interval ends; past it the value is refused (precision_exhausted), which
// only a value within about 10^-2400 of a rounding boundary (or exactly 0)
// can need.
const maxPrec = 8192

// tcdfHalf returns F(t) - 1/2 for t >= 0 at precision prec.
func tcdfHalf(t *big.Float, nu int64, prec uint) *big.Float {
	nf := new(big.Float).SetPrec(prec).SetInt64(nu)
	t2 := new(big.Float).SetPrec(prec).Mul(t, t)
	d := new(big.Float).SetPrec(prec).Add(nf, t2) // ν + t²
	u := new(big.Float).SetPrec(prec).Quo(nf, d)
	sq := new(big.Float).SetPrec(prec).Sqrt(d)
	s := new(big.Float).SetPrec(prec).Quo(t, sq)
	var terms int64
	if nu%2 == 0 {
		terms = nu / 2
	} else {
		terms = (nu - 1) / 2
	}
	sum := new(big.Float).SetPrec(prec).SetInt64(0)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	tmp := new(big.Float).SetPrec(prec)
	for k := int64(0); k < terms; k++ {
		if k > 0 {
			term.Mul(term, u)
			if nu%2 == 0 {
				term.Mul(term, tmp.SetInt64(2*k-1))
				term.Quo(term, tmp.SetInt64(2*k))
			} else {
				term.Mul(term, tmp.SetInt64(2*k))
				term.Quo(term, tmp.SetInt64(2*k+1))
			}
			// The terms decrease; once the rest cannot reach the last bit
			// the sum is complete to its precision.
			if term.Sign() == 0 || term.MantExp(nil)+bitLen(terms-k) < sum.MantExp(nil)-int(prec)-8 {
				break
			}
		}
		sum.Add(sum, term)
	}
	if nu%2 == 0 {
		sum.Mul(sum, s)
		return sum.Quo(sum, tmp.SetInt64(2))
	}
	c := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Sqrt(nf), sq)
	sum.Mul(sum, s)
	sum.Mul(sum, c)
	theta := atanBig(new(big.Float).SetPrec(prec).Quo(t, new(big.Float).SetPrec(prec).Sqrt(nf)), prec)
	sum.Add(sum, theta)
	return sum.Quo(sum, piBig(prec))
}

func bitLen(n int64) int { return big.NewInt(n).BitLen() }

// tcdfErr bounds the rounding error of tcdfHalf at precision prec: at most
// five roundings per term, each of relative size 2^-prec, on at most ν/2
// terms whose sum is below ν, and atan and π to a few ulps.
func tcdfErr(nu int64, prec uint) *big.Float {
	e := new(big.Float).SetPrec(64).SetInt64((nu+2)*(nu+2) + 64)
	return e.SetMantExp(e, -int(prec)+8)
}

// atanBig is arctan(x) at precision prec: eight half-angle reductions
// atan(x) = 2·atan(x/(1+√(1+x²))) bring |x| below 2^-8·max(1,|x|), then the
// Taylor series.
func atanBig(x *big.Float, prec uint) *big.Float {
	wp := prec + 32
	y := new(big.Float).SetPrec(wp).Set(x)
	one := new(big.Float).SetPrec(wp).SetInt64(1)
	doublings := 0
	for y.MantExp(nil) > -12 {
		r := new(big.Float).SetPrec(wp).Mul(y, y)
		r.Add(r, one)
		r.Sqrt(r)
		r.Add(r, one)
		y.Quo(y, r)
		doublings++
	}
	// atan(y) = y - y³/3 + y⁵/5 - ...
	y2 := new(big.Float).SetPrec(wp).Mul(y, y)
	pow := new(big.Float).SetPrec(wp).Set(y)
	sum := new(big.Float).SetPrec(wp).Set(y)
	tmp := new(big.Float).SetPrec(wp)
	for k := int64(1); ; k++ {
		pow.Mul(pow, y2)
		pow.Neg(pow)
		tmp.Quo(pow, new(big.Float).SetPrec(wp).SetInt64(2*k+1))
		if tmp.Sign() == 0 || tmp.MantExp(nil) < sum.MantExp(nil)-int(wp)-2 {
			break
		}
		sum.Add(sum, tmp)
	}
	return sum.SetMantExp(sum, doublings).SetPrec(prec)
}

// piBig is π at precision prec (4·atan(1)).
func piBig(prec uint) *big.Float {
	p := atanBig(new(big.Float).SetPrec(prec+16).SetInt64(1), prec+16)
	return p.SetMantExp(p, 2).SetPrec(prec)
}

// g64 is F(t) - 1/2 in float64 as a function of θ = atan(t/√ν), for the
// starting point of Newton's method.
func g64(theta float64, nu int64) float64 {
	s, c := math.Sincos(theta)
	u := c * c
	sum, term := 0.0, 1.0
	if nu%2 == 0 {
		for k := int64(0); k < nu/2; k++ {
			if k > 0 {
				term *= u * float64(2*k-1) / float64(2*k)
			}
			sum += term
			if term < sum*1e-18 {
				break
			}
		}
		return s / 2 * sum
	}
	for k := int64(0); k < (nu-1)/2; k++ {
		if k > 0 {
			term *= u * float64(2*k) / float64(2*k+1)
		}
		sum += term
		if term < sum*1e-18 {
			break
		}
	}
	return (theta + s*c*sum) / math.Pi
}

// logDensity is log f(t) of the t distribution with ν degrees of freedom.
func logDensity(t float64, nu int64) float64 {
	v := float64(nu)
	a, _ := math.Lgamma((v + 1) / 2)
	b, _ := math.Lgamma(v / 2)
	return a - b - 0.5*math.Log(v*math.Pi) - (v+1)/2*math.Log1p(t*t/v)
}

// tQuantile returns t > 0 with F(t) - 1/2 = q (0 < q < 1/2) at precision
// prec, and a bound on |t - t*|.
func tQuantile(ctx context.Context, q *big.Rat, nu int64, prec uint) (t, bound *big.Float, err error) {
	qf, _ := q.Float64()
	lo, hi := 0.0, math.Pi/2
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if g64(mid, nu) < qf {
			lo = mid
		} else {
			hi = mid
		}
	}
	t0 := math.Sqrt(float64(nu)) * math.Tan((lo+hi)/2)
	if !floatOK(t0) || t0 <= 0 {
		return nil, nil, fail("confidence_out_of_range", "the t quantile is beyond float64")
	}
	qb := new(big.Float).SetPrec(prec).SetRat(q)
	t = new(big.Float).SetPrec(prec).SetFloat64(t0)
	for it := 0; ; it++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if it == 200 {
			return nil, nil, fail("precision_exhausted", "the t quantile did not converge")
		}
		tf, _ := t.Float64()
		ld := logDensity(tf, nu)
		if !floatOK(ld) || ld < -700 {
			return nil, nil, fail("confidence_out_of_range", "the t density at the quantile is below float64's range")
		}
		r := tcdfHalf(t, nu, prec)
		r.Sub(r, qb)
		dens := new(big.Float).SetFloat64(math.Exp(ld))
		step := new(big.Float).SetPrec(prec).Quo(r, dens)
		noise := new(big.Float).SetPrec(64).Quo(tcdfErr(nu, prec), dens)
		t.Sub(t, step)
		if t.Sign() <= 0 {
			t.SetFloat64(tf / 2)
			continue
		}
		small := step.Sign() == 0 || step.MantExp(nil) < t.MantExp(nil)-int(prec)+16 ||
			new(big.Float).Abs(step).Cmp(noise.SetMantExp(noise, 2)) <= 0
		if small {
			// Bound: |t - t*| <= 2·(|residual| + rounding error) / f(t); the
			// float64 density is within a factor 2 of f on this tiny interval.
			res := tcdfHalf(t, nu, prec)
			res.Sub(res, qb).Abs(res)
			res.Add(res, tcdfErr(nu, prec))
			tf, _ = t.Float64()
			res.Quo(res, new(big.Float).SetFloat64(math.Exp(logDensity(tf, nu))))
			return t, res.SetMantExp(res, 1), nil
		}
	}
}
