package geodesic

import (
	"math"
)

// Transverse Mercator (Karney 2011). tau = tan(phi), tau' = tan(chi) with
// chi the conformal latitude (eqs. 7-9); the sphere of chi is mapped by
// Gauss-Schreiber (eq. 10) to zeta' = xi' + i eta', then Krüger's series
// zeta = zeta' + sum alpha_j sin(2 j zeta') gives the ellipsoidal projection
// up to the scale k0 * R (R the rectifying radius), and
// zeta' = zeta - sum beta_j sin(2 j zeta) inverts it. On the central meridian
// the series is rectifying minus conformal latitude (and back), so alpha_j and
// beta_j are computed here as those Fourier coefficients (a discrete sine
// transform), which is the n-series of the paper summed to all orders.

const nKruger = 8

// UTM constants (EPSG:326zz north, 327zz south).
const (
	utmK0 = 0.9996
	utmFE = 500000.0
	utmFN = 10000000.0 // southern hemisphere false northing
)

var (
	// rectRadius is the rectifying radius: the meridian quadrant is
	// rectRadius * pi / 2.
	rectRadius       = B * newLineIntegrals(ep2).i1.mean
	krugerA, krugerB = krugerCoefficients()
)

// tauPrime is tan(chi) for tau = tan(phi) (Karney 2011 eqs. 7-9).
func tauPrime(tau float64) float64 {
	tau1 := math.Hypot(1, tau)
	sig := math.Sinh(ecc * math.Atanh(ecc*tau/tau1))
	return math.Hypot(1, sig)*tau - sig*tau1
}

// tauOf inverts tauPrime by Newton's method (Karney 2011 eqs. 19-21).
func tauOf(taup float64) float64 {
	tau := taup / (1 - e2) // a start within e² of the answer
	for range 10 {
		tp := tauPrime(tau)
		d := (taup - tp) * (1 + (1-e2)*tau*tau) / ((1 - e2) * math.Hypot(1, tp) * math.Hypot(1, tau))
		tau += d
		if !(math.Abs(d) >= 1e-16*math.Max(1, math.Abs(tau))) {
			break
		}
	}
	return tau
}

// rectifying returns the rectifying latitude mu of phi (radians): the
// meridian distance as an angle, from the meridional geodesic's I1 over the
// parametric latitude.
func rectifying(li *lineIntegrals, phi float64) float64 {
	sb, cb := norm2(f1*math.Sin(phi), math.Cos(phi))
	beta := math.Atan2(sb, cb)
	return beta + li.i1.periodic(sb, cb)/li.i1.mean
}

func krugerCoefficients() (alpha, beta [nKruger + 1]float64) {
	const n = 64 // DST-I intervals over 0 <= 2 chi <= pi
	li := newLineIntegrals(ep2)
	var ga, gb [n]float64
	for k := 1; k < n; k++ {
		x := float64(k) * math.Pi / (2 * n) // a latitude in (0, pi/2)
		// alpha: mu(chi) - chi at chi = x
		phi := math.Atan(tauOf(math.Tan(x)))
		ga[k] = rectifying(li, phi) - x
		// beta: mu - chi(mu) at mu = x; mu -> beta by inverting I1
		bet := li.sigmaOf(x * li.i1.mean)
		phi = math.Atan2(math.Sin(bet), f1*math.Cos(bet))
		gb[k] = x - math.Atan(tauPrime(math.Tan(phi)))
	}
	for j := 1; j <= nKruger; j++ {
		var sa, sb float64
		for k := 1; k < n; k++ {
			s := math.Sin(float64(j*k) * math.Pi / n)
			sa += ga[k] * s
			sb += gb[k] * s
		}
		alpha[j], beta[j] = 2*sa/n, 2*sb/n
	}
	return
}

// krugerSum returns zeta + sign * sum c_j sin(2 j zeta), zeta = xi + i eta.
func krugerSum(c *[nKruger + 1]float64, sign, xi, eta float64) (float64, float64) {
	x, y := xi, eta
	for j := 1; j <= nKruger; j++ {
		fj := 2 * float64(j)
		s, co := math.Sincos(fj * xi)
		x += sign * c[j] * s * math.Cosh(fj*eta)
		y += sign * c[j] * co * math.Sinh(fj*eta)
	}
	return x, y
}

// UTMZone describes EPSG:326zz (north) or 327zz (south).
type UTMZone struct {
	Zone  int // 1-60
	South bool
}

// CentralMeridian is the zone's central meridian in degrees.
func (z UTMZone) CentralMeridian() float64 { return float64(6*z.Zone - 183) }

// ToUTM projects (lat, lon) degrees to (easting, northing) metres in zone
// z, for any longitude within 90 degrees of the central meridian (the caller
// bounds it). It returns the longitude offset from the central meridian too.
func (z UTMZone) ToUTM(lat, lon float64) (x, y, dlon float64) {
	dlon, _ = angDiff(z.CentralMeridian(), lon)
	tau := math.Tan(lat * math.Pi / 180)
	sl, cl := sincosd(dlon)
	var xip, etap float64
	if math.Abs(lat) == 90 {
		xip, etap = math.Copysign(math.Pi/2, lat), 0
	} else {
		taup := tauPrime(tau)
		xip = math.Atan2(taup, cl)
		etap = math.Asinh(sl / math.Hypot(taup, cl))
	}
	xi, eta := krugerSum(&krugerA, 1, xip, etap)
	x = utmFE + utmK0*rectRadius*eta
	y = utmK0 * rectRadius * xi
	if z.South {
		y += utmFN
	}
	return x, y, dlon
}

// FromUTM is the inverse of ToUTM: (lat, lon) degrees of (easting,
// northing) metres in zone z.
func (z UTMZone) FromUTM(x, y float64) (lat, lon float64) {
	if z.South {
		y -= utmFN
	}
	xi := y / (utmK0 * rectRadius)
	eta := (x - utmFE) / (utmK0 * rectRadius)
	xip, etap := krugerSum(&krugerB, -1, xi, eta)
	s, c := math.Sincos(xip)
	r := math.Hypot(math.Sinh(etap), c)
	var tau float64
	if r != 0 {
		tau = tauOf(s / r)
		lat = math.Atan(tau) * 180 / math.Pi
		lon = math.Atan2(math.Sinh(etap), c) * 180 / math.Pi
	} else {
		lat = math.Copysign(90, s)
	}
	return lat, projLon(lon + z.CentralMeridian())
}

// MercatorMaxLat is the latitude bound of EPSG:3857, 85.0511287798066
// degrees: atan(sinh(pi)) (where y reaches pi a, the square world) as
// EPSG publishes it, rounded to 15 significant digits.
const MercatorMaxLat = 85.0511287798066

// MercatorMax is y at MercatorMaxLat, the bound of |y| in EPSG:3857.
var _, MercatorMax = ToWebMercator(MercatorMaxLat, 0)

// ToWebMercator is EPSG:3857: spherical Mercator on the WGS84 semi-major
// axis, x = a lon, y = a asinh(tan lat), the longitude reduced to
// [-180, 180] first as PROJ reduces it.
func ToWebMercator(lat, lon float64) (x, y float64) {
	return A * projLon(lon) * math.Pi / 180, A * math.Asinh(math.Tan(lat*math.Pi/180))
}

// FromWebMercator inverts ToWebMercator; the longitude is reduced to
// [-180, 180] as PROJ reduces it.
func FromWebMercator(x, y float64) (lat, lon float64) {
	return math.Atan(math.Sinh(y/A)) * 180 / math.Pi, projLon(x / A * 180 / math.Pi)
}
