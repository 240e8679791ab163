// Package geodesic solves geodesic problems on the WGS84 ellipsoid and
// converts between WGS84 geographic coordinates, UTM (EPSG:326zz/327zz) and
// Web Mercator (EPSG:3857).
//
// The geodesic solutions follow C. F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87 (2013) 43-55: the problem is mapped to an auxiliary sphere,
// the distance, longitude, reduced-length and area integrals (the paper's
// I1, I3, J and I4) are Fourier series in the arc length sigma, and the
// inverse problem is Newton's method on the azimuth at the first point,
// started from a spherical guess or, for nearly antipodal points, from the
// astroid solution of section 5 and guarded by bisection. Instead of the
// paper's truncated Taylor series in the third flattening for the Fourier
// coefficients, this package computes the coefficients numerically for each
// geodesic from the integrands (a discrete cosine transform of a smooth
// periodic function, exact to rounding), which needs no coefficient tables.
//
// The transverse Mercator projection follows C. F. F. Karney, "Transverse
// Mercator with an accuracy of a few nanometers", J. Geodesy 85 (2011)
// 475-485: the exact conformal latitude, the Gauss-Schreiber projection of
// the conformal sphere and Krüger's series, whose coefficients (the Fourier
// coefficients of rectifying minus conformal latitude and back) are again
// computed numerically, to all orders that matter in double precision.
package geodesic

import "math"

// WGS84 defining constants.
const (
	A   = 6378137.0                // semi-major axis, metres
	F   = 1 / 298.257223563        // flattening
	B   = A * (1 - F)              // semi-minor axis
	e2  = F * (2 - F)              // eccentricity squared
	ep2 = e2 / ((1 - F) * (1 - F)) // second eccentricity squared
	f1  = 1 - F
)

var (
	ecc = math.Sqrt(e2)
	// c2 is the authalic radius squared (Karney 2013 eq. 60): the area of the
	// ellipsoid is 4 pi c2.
	c2 = A*A/2 + B*B/2*math.Atanh(ecc)/ecc
	// EllipsoidArea is the total surface area of the WGS84 ellipsoid, m².
	EllipsoidArea = 4 * math.Pi * c2
)

const (
	dblEps = 0x1p-52
	tiny   = 0x1p-511 // sqrt of the smallest normal, keeps cos(beta) > 0 at a pole
	tol0   = dblEps
	tol1   = 200 * tol0
)

var (
	tol2    = math.Sqrt(tol0)
	tolb    = tol0 * tol2
	xthresh = 1000 * tol2
	etol2   = 0.1 * tol2 / math.Sqrt(math.Max(0.001, F)*math.Min(1, 1-F/2)/2)
)

// Iteration bounds of the inverse solver: Newton steps first, then
// bisection, at most maxIter evaluations in all.
const (
	maxNewton = 20
	maxIter   = maxNewton + 53 + 10
)

// norm2 scales (y, x) to a unit vector.
func norm2(y, x float64) (float64, float64) {
	r := math.Hypot(y, x)
	return y / r, x / r
}

// twoSum returns s = a+b rounded and the rounding error t, a+b = s+t exactly.
func twoSum(a, b float64) (s, t float64) {
	s = a + b
	bb := s - a
	t = (a - (s - bb)) + (b - bb)
	return
}

// NormalizeLon reduces a longitude in degrees to [-180, 180), then turns
// -180 into 180, so the result is in (-180, 180]; -0 stays -0 only as an
// input of -0. Exact for every finite input.
func NormalizeLon(x float64) float64 {
	y := math.Remainder(x, 360)
	if y == -180 {
		return 180
	}
	return y
}

// angDiff returns lon2 - lon1 reduced to (-180, 180] as d plus a correction
// e (the true difference is d+e), exact for all finite inputs.
func angDiff(lon1, lon2 float64) (d, e float64) {
	d, e = twoSum(math.Remainder(-lon1, 360), math.Remainder(lon2, 360))
	d = math.Remainder(d, 360)
	if math.Abs(d) == 180 {
		if e > 0 {
			d = -180
		} else {
			d = 180
		}
	}
	return twoSum(d, e)
}

// sincosd is sin and cos of x degrees, exact at multiples of 90 and with the
// argument reduced exactly first.
func sincosd(x float64) (s, c float64) {
	r := math.Mod(x, 360)
	q := math.Round(r / 90)
	r -= 90 * q
	r *= math.Pi / 180
	s, c = math.Sincos(r)
	switch uint(int(q)) & 3 {
	case 1:
		s, c = c, -s
	case 2:
		s, c = -s, -c
	case 3:
		s, c = -c, s
	}
	if c == 0 {
		c = 0 // no -0
	}
	if s == 0 {
		s = math.Copysign(0, x)
	}
	return
}

// atan2d is atan2(y, x) in degrees in (-180, 180], exact on the axes.
func atan2d(y, x float64) float64 {
	switch {
	case y == 0 && !math.Signbit(x):
		return y
	case y == 0:
		return 180
	case x == 0:
		return math.Copysign(90, y)
	}
	ang := math.Atan2(y, x) * (180 / math.Pi)
	if ang == -180 {
		ang = 180
	}
	return ang
}
