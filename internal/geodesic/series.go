package geodesic

import "math"

// Fourier machinery. Along a geodesic with k² = e'² cos² alpha0 every
// integrand of Karney (2013) is a smooth function of sin² sigma, i.e. an even
// function of 2 sigma with period 2 pi, so it is a cosine series in 2 sigma
// whose coefficients fall off like (k²/4)^m. For WGS84 k² <= e'² < 0.0068, so
// harmonics beyond the seventh are below 1e-19 and a discrete cosine transform
// (DCT-I) over nSample+1 points gives the coefficients to rounding.
const (
	nHarm   = 7  // harmonics kept
	nSample = 16 // DCT-I intervals over 0 <= 2 sigma <= pi
)

// dctCos[m][j] is cos(m j pi / nSample).
var dctCos = func() (t [nHarm + 1][nSample + 1]float64) {
	for m := range t {
		for j := range t[m] {
			t[m][j] = math.Cos(float64(m*j) * math.Pi / nSample)
		}
	}
	return
}()

// sinSq[j] is sin² sigma at the sample 2 sigma = j pi / nSample.
var sinSq = func() (t [nSample + 1]float64) {
	for j := range t {
		t[j] = (1 - math.Cos(float64(j)*math.Pi/nSample)) / 2
	}
	return
}()

// cosSeries returns the coefficients c[m] of g = sum c[m] cos(2 m sigma),
// given the samples v[j] = g at 2 sigma = j pi / nSample.
func cosSeries(v *[nSample + 1]float64) (c [nHarm + 1]float64) {
	for m := range c {
		s := (v[0]*dctCos[m][0] + v[nSample]*dctCos[m][nSample]) / 2
		for j := 1; j < nSample; j++ {
			s += v[j] * dctCos[m][j]
		}
		c[m] = 2 * s / nSample
	}
	c[0] /= 2
	return
}

// integral is the antiderivative of a cosine series in 2 sigma:
// I(sigma) = mean*sigma + sum sin[m] sin(2 m sigma), with I(0) = 0.
type integral struct {
	mean float64
	sin  [nHarm + 1]float64 // sin[0] unused
}

func integrate(c [nHarm + 1]float64) (in integral) {
	in.mean = c[0]
	for m := 1; m <= nHarm; m++ {
		in.sin[m] = c[m] / float64(2*m)
	}
	return
}

// periodic is the sine-series part at sigma given by its sine and cosine
// (Clenshaw summation).
func (in *integral) periodic(ssig, csig float64) float64 {
	x := 2 * (csig - ssig) * (csig + ssig)
	var b1, b2 float64
	for m := nHarm; m >= 1; m-- {
		b1, b2 = in.sin[m]+x*b1-b2, b1
	}
	return b1 * 2 * ssig * csig
}

// lineIntegrals holds the integrals along one geodesic, fixed by k².
type lineIntegrals struct {
	k2 float64
	i1 integral // s/b = I1(sigma), integrand sqrt(1 + k² sin²)
	j  integral // J = I1 - I2, integrand k² sin² / sqrt(1 + k² sin²)
	i3 integral // longitude, integrand (2-f) / (1 + (1-f) sqrt(1 + k² sin²))
}

func newLineIntegrals(k2 float64) *lineIntegrals {
	var v1, vj, v3 [nSample + 1]float64
	for j, s2 := range sinSq {
		x := k2 * s2
		r := math.Sqrt(1 + x)
		v1[j] = r
		vj[j] = x / r
		v3[j] = (2 - F) / (1 + f1*r)
	}
	return &lineIntegrals{k2: k2, i1: integrate(cosSeries(&v1)), j: integrate(cosSeries(&vj)), i3: integrate(cosSeries(&v3))}
}

// a3 is the mean of the longitude integrand for k², the factor of the
// longitude scale of the antipodal starting guess.
func a3(k2 float64) float64 {
	var v3 [nSample + 1]float64
	for j, s2 := range sinSq {
		v3[j] = (2 - F) / (1 + f1*math.Sqrt(1+k2*s2))
	}
	return cosSeries(&v3)[0]
}

// sigmaOf inverts s/b = I1(sigma): the sigma whose I1 is tau, by Newton's
// method (I1' = sqrt(1 + k² sin² sigma) >= 1, so it converges from tau/mean
// quadratically; 8 steps are far more than needed).
func (li *lineIntegrals) sigmaOf(tau float64) float64 {
	sig := tau / li.i1.mean
	for range 8 {
		s, c := math.Sincos(sig)
		d := (li.i1.mean*sig + li.i1.periodic(s, c) - tau) / math.Sqrt(1+li.k2*s*s)
		sig -= d
		if math.Abs(d) <= 1e-17*math.Max(1, math.Abs(sig)) {
			break
		}
	}
	return sig
}

// Area (Karney 2013 eqs. 58-60): S(sigma) = c² alpha + e² a² cos(alpha0)
// sin(alpha0) I4(sigma) with
//
//	I4(sigma) = -1/2 ∫_{pi/2}^{sigma} (t(e'²) - t(k² sin² s)) / (e'² - k² sin² s) sin s ds,
//	t(x) = x + sqrt(1/x + 1) asinh(sqrt x).
//
// t is analytic at 0, t(x) = x + sqrt(1+x) asinh(sqrt x)/sqrt x, so the
// divided difference is evaluated from t's power series without cancellation,
// also where k² sin² s approaches e'² (nearly meridional lines).
const nT = 16

// tSeries[j] is the coefficient of x^j in t(x).
var tSeries = func() (t [nT]float64) {
	var a, b [nT]float64 // asinh(sqrt x)/sqrt x and sqrt(1+x)
	a[0], b[0] = 1, 1
	for n := 1; n < nT; n++ {
		fn := float64(n)
		a[n] = -a[n-1] * (2*fn - 1) * (2*fn - 1) / (2 * fn * (2*fn + 1))
		b[n] = b[n-1] * (0.5 - (fn - 1)) / fn
	}
	for j := range t {
		for i := 0; i <= j; i++ {
			t[j] += a[i] * b[j-i]
		}
	}
	t[1]++
	return
}()

// tDivided is (t(y) - t(x)) / (y - x) for 0 <= x, y < 1.
func tDivided(y, x float64) float64 {
	// p_j = sum_{i<j} y^i x^(j-1-i); p_1 = 1, p_{j+1} = x p_j + y^j
	p, yj, sum := 1.0, y, 0.0
	for j := 1; j < nT; j++ {
		sum += tSeries[j] * p
		p = x*p + yj
		yj *= y
	}
	return sum
}

// areaIntegral is I4 as sum d[l] cos((2l+1) sigma).
type areaIntegral [nHarm + 1]float64

func newAreaIntegral(k2 float64) (d areaIntegral) {
	var v [nSample + 1]float64
	for j, s2 := range sinSq {
		v[j] = tDivided(ep2, k2*s2)
	}
	u := cosSeries(&v)
	// -1/2 ∫_{pi/2}^{sigma} u_m cos(2m s) sin s ds, term by term
	d[0] += u[0] / 2
	for m := 1; m <= nHarm; m++ {
		fm := float64(m)
		d[m-1] -= u[m] / (4 * (2*fm - 1))
		if m < nHarm {
			d[m] += u[m] / (4 * (2*fm + 1))
		}
	}
	return
}

func (d *areaIntegral) at(ssig, csig float64) float64 {
	x := 2 * (csig - ssig) * (csig + ssig)
	var b0, b1 float64
	for l := nHarm; l >= 0; l-- {
		b0, b1 = d[l]+x*b0-b1, b0
	}
	return csig * (b0 - b1)
}
