package geodesic

import (
	"errors"
	"math"
)

// ErrNoConvergence is returned when the inverse solver has used its
// iteration budget (Newton steps, then bisection) without meeting its
// tolerance. It has not been seen for WGS84; it stands for "no answer"
// instead of a wrong one.
var ErrNoConvergence = errors.New("geodesic: the inverse problem did not converge within its iteration budget")

// Inverse is the solution of the inverse problem.
type Inverse struct {
	S12  float64 // distance, metres
	Azi1 float64 // azimuth at point 1, degrees clockwise from north, (-180, 180]
	Azi2 float64 // forward azimuth at point 2
	A12  float64 // arc length on the auxiliary sphere, degrees
	// S12Area is the area between the geodesic from point 1 to point 2 and
	// the equator, m² (Karney 2013 eq. 58), clockwise positive.
	S12Area float64
	// Iterations is the number of Lambda12 evaluations used (0: solved
	// without iterating).
	Iterations int
}

// reduced is the reduced latitude beta of phi degrees as (sin, cos), cos
// kept positive at a pole.
func reduced(lat float64) (sb, cb float64) {
	sb, cb = sincosd(lat)
	sb, cb = norm2(f1*sb, cb)
	return sb, math.Max(tiny, cb)
}

// SolveInverse solves the inverse problem between (lat1, lon1) and (lat2,
// lon2) in degrees; |lat| <= 90 and finite values are the caller's to check.
// It returns ErrNoConvergence when the iteration budget is used up.
func SolveInverse(lat1, lon1, lat2, lon2 float64) (Inverse, error) {
	return solveInverse(lat1, lon1, lat2, lon2, budget{maxNewton, maxIter})
}

func solveInverse(lat1, lon1, lat2, lon2 float64, b budget) (Inverse, error) {
	lon12, lon12e := angDiff(lon1, lon2)
	// Reduce to lon12 >= 0, |lat1| >= |lat2|, lat1 <= 0; undo at the end.
	lonsign := 1.0
	if math.Signbit(lon12) {
		lonsign = -1
	}
	lon12 *= lonsign
	lon12e *= lonsign
	// 180 - lon12 with the correction, for accurate sin near 180
	lon12s := (180 - lon12) - lon12e
	lat1, lat2 = clampLat(lat1), clampLat(lat2)
	swapp := 1.0
	if math.Abs(lat1) < math.Abs(lat2) {
		swapp = -1
		lonsign = -lonsign
		lat1, lat2 = lat2, lat1
	}
	latsign := -1.0
	if lat1 < 0 {
		latsign = 1
	}
	lat1 *= latsign
	lat2 *= latsign

	sbet1, cbet1 := reduced(lat1)
	sbet2, cbet2 := reduced(lat2)
	// Keep |beta2| <= |beta1| true after rounding, and equal when equal.
	if cbet1 < -sbet1 {
		if cbet2 == cbet1 {
			sbet2 = math.Copysign(sbet1, sbet2)
		}
	} else if math.Abs(sbet2) == -sbet1 {
		cbet2 = cbet1
	}
	dn1 := math.Sqrt(1 + ep2*sbet1*sbet1)
	dn2 := math.Sqrt(1 + ep2*sbet2*sbet2)

	lam12 := lon12 * math.Pi / 180
	var slam12, clam12 float64
	if lon12 > 90 {
		slam12, clam12 = sincosd(lon12s)
		clam12 = -clam12
	} else {
		slam12, clam12 = sincosd(lon12)
	}

	st := &state{sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2}
	var (
		sig12, s12                 float64
		salp1, calp1               float64
		salp2, calp2               float64
		somg12, comg12             = 2.0, 0.0 // 2: not computed
		omg12                      float64
		iterations                 int
		meridian                   = lat1 == -90 || slam12 == 0
		li                         *lineIntegrals
		ssig1, csig1, ssig2, csig2 float64
	)

	if meridian {
		// alpha1 = lam12 (0 or 180), alpha2 = 0: along the meridian, maybe
		// over the pole
		salp1, calp1 = slam12, clam12
		salp2, calp2 = 0, 1
		ssig1, csig1 = sbet1, calp1*cbet1
		ssig2, csig2 = sbet2, calp2*cbet2
		sig12 = math.Atan2(math.Max(0, csig1*ssig2-ssig1*csig2), csig1*csig2+ssig1*ssig2)
		li = newLineIntegrals(ep2)
		s12b, m12b := li.lengths(ssig1, csig1, dn1, ssig2, csig2, dn2, sig12)
		if sig12 < 1 || m12b >= 0 {
			if sig12 < 3*tiny || (sig12 < tol0 && (s12b < 0 || m12b < 0)) {
				sig12, s12b, m12b = 0, 0, 0 // coincident points
			}
			s12 = B * s12b
		} else {
			meridian = false // the meridian is not the shortest line
		}
	}

	switch {
	case meridian:
	case sbet1 == 0 && lon12s >= F*180:
		// both on the equator, and the equator is the shortest line
		salp1, calp1, salp2, calp2 = 1, 0, 1, 0
		s12 = A * lam12
		sig12 = lam12 / f1
		omg12 = sig12
	default:
		var dnm float64
		sig12, salp1, calp1, salp2, calp2, dnm = st.start(lam12, slam12, clam12)
		if sig12 >= 0 {
			// short line: the spherical solution scaled by dnm is accurate
			s12 = sig12 * B * dnm
			omg12 = lam12 / (f1 * dnm)
		} else {
			var err error
			var r lambdaResult
			r, iterations, err = st.solve(salp1, calp1, slam12, clam12, b)
			if err != nil {
				return Inverse{}, err
			}
			salp1, calp1, salp2, calp2 = r.salp1, r.calp1, r.salp2, r.calp2
			sig12 = r.sig12
			ssig1, csig1, ssig2, csig2 = r.ssig1, r.csig1, r.ssig2, r.csig2
			li = r.li
			s12b, _ := li.lengths(ssig1, csig1, r.dn1, ssig2, csig2, r.dn2, sig12)
			s12 = B * s12b
			somg12, comg12 = math.Sincos(lam12 - r.domg12)
		}
	}

	// Area between the geodesic and the equator (Karney 2013 sec. 6).
	salp0 := salp1 * cbet1
	calp0 := math.Hypot(calp1, salp1*sbet1)
	var area float64
	if calp0 != 0 && salp0 != 0 {
		ssig1, csig1 = norm2(sbet1, calp1*cbet1)
		ssig2, csig2 = norm2(sbet2, calp2*cbet2)
		k2 := calp0 * calp0 * ep2
		i4 := newAreaIntegral(k2)
		area = A * A * calp0 * salp0 * e2 * (i4.at(ssig2, csig2) - i4.at(ssig1, csig1))
	}
	var alp12 float64
	if !meridian && somg12 > 1 {
		somg12, comg12 = math.Sincos(omg12)
	}
	if !meridian && comg12 > -0.7071 && sbet2-sbet1 < 1.75 {
		// alpha2 - alpha1 for short lines without cancellation (Karney
		// 2013 eq. 65 in its tan((alpha2 - alpha1)/2) form)
		domg12 := 1 + comg12
		dbet1, dbet2 := 1+cbet1, 1+cbet2
		alp12 = 2 * math.Atan2(somg12*(sbet1*dbet2+sbet2*dbet1), domg12*(sbet1*sbet2+dbet1*dbet2))
	} else {
		salp12 := salp2*calp1 - calp2*salp1
		calp12 := calp2*calp1 + salp2*salp1
		if salp12 == 0 && calp12 < 0 {
			salp12 = tiny * calp1
			calp12 = -1
		}
		alp12 = math.Atan2(salp12, calp12)
	}
	area += c2 * alp12
	area *= swapp * lonsign * latsign
	area += 0

	if swapp < 0 {
		salp1, salp2 = salp2, salp1
		calp1, calp2 = calp2, calp1
	}
	salp1 *= swapp * lonsign
	calp1 *= swapp * latsign
	salp2 *= swapp * lonsign
	calp2 *= swapp * latsign
	return Inverse{
		S12: s12, Azi1: atan2d(salp1, calp1), Azi2: atan2d(salp2, calp2),
		A12: sig12 * 180 / math.Pi, S12Area: area, Iterations: iterations,
	}, nil
}

// clampLat turns a latitude outside [-90, 90] into NaN, so that a caller's
// missing range check shows as NaN, never as a plausible answer.
func clampLat(lat float64) float64 {
	if math.Abs(lat) > 90 {
		return math.NaN()
	}
	return lat
}

// state is the reduced latitudes of a canonical inverse problem.
type state struct {
	sbet1, cbet1, dn1 float64
	sbet2, cbet2, dn2 float64
}

// lengths returns s12/b and m12/b between sigma1 and sigma2 (Karney 2013
// eqs. 7 and 38).
func (li *lineIntegrals) lengths(ssig1, csig1, dn1, ssig2, csig2, dn2, sig12 float64) (s12b, m12b float64) {
	s12b = li.i1.mean*sig12 + li.i1.periodic(ssig2, csig2) - li.i1.periodic(ssig1, csig1)
	j12 := li.j.mean*sig12 + li.j.periodic(ssig2, csig2) - li.j.periodic(ssig1, csig1)
	m12b = dn2*(csig1*ssig2) - dn1*(ssig1*csig2) - csig1*csig2*j12
	return
}

// start is the starting guess of the inverse problem (Karney 2013 sec. 4 and
// 5): the solution on a sphere for short and ordinary lines, the astroid for
// nearly antipodal points. sig12 >= 0 means the short-line solution is
// accurate as it is, and salp2, calp2 and dnm are set.
func (st *state) start(lam12, slam12, clam12 float64) (sig12, salp1, calp1, salp2, calp2, dnm float64) {
	sbet1, cbet1, sbet2, cbet2 := st.sbet1, st.cbet1, st.sbet2, st.cbet2
	sig12 = -1
	sbet12 := sbet2*cbet1 - cbet2*sbet1  // sin(beta2 - beta1)
	cbet12 := cbet2*cbet1 + sbet2*sbet1  // cos(beta2 - beta1)
	sbet12a := sbet2*cbet1 + cbet2*sbet1 // sin(beta2 + beta1)
	short := cbet12 >= 0 && sbet12 < 0.5 && cbet2*lam12 < 0.5
	somg12, comg12 := slam12, clam12
	if short {
		sbetm2 := (sbet1 + sbet2) * (sbet1 + sbet2)
		sbetm2 /= sbetm2 + (cbet1+cbet2)*(cbet1+cbet2)
		dnm = math.Sqrt(1 + ep2*sbetm2)
		somg12, comg12 = math.Sincos(lam12 / (f1 * dnm))
	}
	salp1 = cbet2 * somg12
	if comg12 >= 0 {
		calp1 = sbet12 + cbet2*sbet1*somg12*somg12/(1+comg12)
	} else {
		calp1 = sbet12a - cbet2*sbet1*somg12*somg12/(1-comg12)
	}
	ssig12 := math.Hypot(salp1, calp1)
	csig12 := sbet1*sbet2 + cbet1*cbet2*comg12
	switch {
	case short && ssig12 < etol2:
		salp2 = cbet1 * somg12
		if comg12 >= 0 {
			calp2 = sbet12 - cbet1*sbet2*somg12*somg12/(1+comg12)
		} else {
			calp2 = sbet12 - cbet1*sbet2*(1-comg12)
		}
		salp2, calp2 = norm2(salp2, calp2)
		sig12 = math.Atan2(ssig12, csig12)
	case csig12 >= 0 || ssig12 >= 6*math.Abs(F/(2-F))*math.Pi*cbet1*cbet1:
		// not nearly antipodal: the spherical guess stands
	default:
		// nearly antipodal: scale to the astroid problem (sec. 5)
		lam12x := math.Atan2(-slam12, -clam12) // lam12 - pi
		lamscale := F * cbet1 * a3(ep2*sbet1*sbet1) * math.Pi
		betscale := lamscale * cbet1
		x := lam12x / lamscale
		y := sbet12a / betscale
		if y > -tol1 && x > -1-xthresh {
			salp1 = math.Min(1, -x)
			calp1 = -math.Sqrt(1 - salp1*salp1)
		} else {
			k := astroid(x, y)
			omg12a := lamscale * (-x * k / (1 + k))
			somg, comg := math.Sincos(omg12a)
			comg = -comg
			salp1 = cbet2 * somg
			calp1 = sbet12a - cbet2*sbet1*somg*somg/(1-comg)
		}
	}
	if salp1 > 0 {
		salp1, calp1 = norm2(salp1, calp1)
	} else {
		salp1, calp1 = 1, 0
	}
	return
}

// astroid returns the positive root k of k⁴ + 2k³ - (x²+y²-1)k² - 2y²k - y²
// (Karney 2013 eq. 55). The polynomial is -y² < 0 at 0 and has exactly one
// positive root (one sign change), found by Newton's method kept inside a
// bracket.
func astroid(x, y float64) float64 {
	p, q := x*x, y*y
	r := p + q - 1
	poly := func(k float64) (v, d float64) {
		v = (((k+2)*k-r)*k-2*q)*k - q
		d = ((4*k+6)*k-2*r)*k - 2*q
		return
	}
	lo, hi := 0.0, 1.0
	for v, _ := poly(hi); v <= 0 && hi < 1e300; v, _ = poly(hi) {
		lo, hi = hi, 2*hi
	}
	k := hi
	for range 200 {
		v, d := poly(k)
		if v == 0 {
			return k
		}
		if v < 0 {
			lo = k
		} else {
			hi = k
		}
		next := k - v/d
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if next == k || hi-lo <= 4*dblEps*hi {
			return next
		}
		k = next
	}
	return k
}

// lambdaResult is Lambda12's evaluation at one alpha1.
type lambdaResult struct {
	v, dv                      float64 // lambda(alpha1) - lam12, and its derivative
	salp1, calp1, salp2, calp2 float64
	sig12                      float64
	ssig1, csig1, ssig2, csig2 float64
	dn1, dn2                   float64
	domg12                     float64 // omega12 - lambda12
	li                         *lineIntegrals
}

// lambda12 follows the geodesic leaving point 1 at alpha1 to the latitude of
// point 2 and returns how far its longitude misses (Karney 2013 eq. 41 ff.).
func (st *state) lambda12(salp1, calp1, slam120, clam120 float64, diff bool) lambdaResult {
	sbet1, cbet1, sbet2, cbet2 := st.sbet1, st.cbet1, st.sbet2, st.cbet2
	if sbet1 == 0 && calp1 == 0 {
		calp1 = -tiny // break the degeneracy of the equatorial line
	}
	salp0 := salp1 * cbet1
	calp0 := math.Hypot(calp1, salp1*sbet1)
	ssig1, csig1 := norm2(sbet1, calp1*cbet1)
	somg1, comg1 := salp0*sbet1, calp1*cbet1
	var salp2, calp2 float64
	if cbet2 != cbet1 {
		salp2 = salp0 / cbet2
	} else {
		salp2 = salp1
	}
	if cbet2 != cbet1 || math.Abs(sbet2) != -sbet1 {
		var d float64
		if cbet1 < -sbet1 {
			d = (cbet2 - cbet1) * (cbet1 + cbet2)
		} else {
			d = (sbet1 - sbet2) * (sbet1 + sbet2)
		}
		calp2 = math.Sqrt((calp1*cbet1)*(calp1*cbet1)+d) / cbet2
	} else {
		calp2 = math.Abs(calp1)
	}
	ssig2, csig2 := norm2(sbet2, calp2*cbet2)
	somg2, comg2 := salp0*sbet2, calp2*cbet2
	sig12 := math.Atan2(math.Max(0, csig1*ssig2-ssig1*csig2), csig1*csig2+ssig1*ssig2)
	somg12 := math.Max(0, comg1*somg2-somg1*comg2)
	comg12 := comg1*comg2 + somg1*somg2
	// omega12 - lam12 as one angle, accurate when both are near pi
	eta := math.Atan2(somg12*clam120-comg12*slam120, comg12*clam120+somg12*slam120)
	li := newLineIntegrals(calp0 * calp0 * ep2)
	b312 := li.i3.periodic(ssig2, csig2) - li.i3.periodic(ssig1, csig1)
	domg12 := -F * salp0 * (li.i3.mean*sig12 + b312)
	r := lambdaResult{
		v: eta + domg12, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2,
		sig12: sig12, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2,
		dn1: math.Sqrt(1 + li.k2*ssig1*ssig1), dn2: math.Sqrt(1 + li.k2*ssig2*ssig2),
		domg12: domg12, li: li,
	}
	if diff {
		if calp2 == 0 {
			r.dv = -2 * f1 * st.dn1 / sbet1
		} else {
			_, m12b := li.lengths(ssig1, csig1, r.dn1, ssig2, csig2, r.dn2, sig12)
			r.dv = m12b * f1 / (calp2 * cbet2)
		}
	}
	return r
}

// budget bounds the inverse solver: Newton steps allowed, then evaluations
// in all.
type budget struct{ newton, total int }

// solve finds alpha1 with lambda12(alpha1) = lam12: Newton steps while they
// stay inside the bracket [alpha1a, alpha1b] that the signs of the misses
// keep, bisection otherwise. Bounded by b.total evaluations.
func (st *state) solve(salp1, calp1, slam12, clam12 float64, b budget) (lambdaResult, int, error) {
	salp1a, calp1a := tiny, 1.0
	salp1b, calp1b := tiny, -1.0
	tripn, tripb := false, false
	for n := 0; n < b.total; n++ {
		r := st.lambda12(salp1, calp1, slam12, clam12, n < b.newton)
		tol := tol0
		if tripn {
			tol = 8 * tol0
		}
		if tripb || !(math.Abs(r.v) >= tol) {
			return r, n + 1, nil
		}
		salp1, calp1 = r.salp1, r.calp1
		if r.v > 0 && (n > b.newton || calp1/salp1 > calp1b/salp1b) {
			salp1b, calp1b = salp1, calp1
		} else if r.v < 0 && (n > b.newton || calp1/salp1 < calp1a/salp1a) {
			salp1a, calp1a = salp1, calp1
		}
		if n < b.newton && r.dv > 0 {
			dalp1 := -r.v / r.dv
			if math.Abs(dalp1) < math.Pi {
				sd, cd := math.Sincos(dalp1)
				nsalp1 := salp1*cd + calp1*sd
				if nsalp1 > 0 {
					calp1 = calp1*cd - salp1*sd
					salp1, calp1 = norm2(nsalp1, calp1)
					tripn = math.Abs(r.v) <= 16*tol0
					continue
				}
			}
		}
		salp1, calp1 = norm2((salp1a+salp1b)/2, (calp1a+calp1b)/2)
		tripn = false
		tripb = math.Abs(salp1a-salp1)+(calp1a-calp1) < tolb || math.Abs(salp1-salp1b)+(calp1-calp1b) < tolb
	}
	return lambdaResult{}, b.total, ErrNoConvergence
}
