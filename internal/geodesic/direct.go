package geodesic

import "math"

// Direct is the solution of the direct problem.
type Direct struct {
	Lat2, Lon2 float64 // degrees; Lon2 in (-180, 180]
	Azi2       float64 // forward azimuth at point 2, degrees
	A12        float64 // arc length on the auxiliary sphere, degrees
}

// SolveDirect goes s12 metres from (lat1, lon1) at azimuth azi1 (degrees).
// Finite inputs and |lat1| <= 90 are the caller's to check.
func SolveDirect(lat1, lon1, azi1, s12 float64) Direct {
	salp1, calp1 := sincosd(azi1)
	sbet1, cbet1 := reduced(lat1)
	salp0 := salp1 * cbet1
	calp0 := math.Hypot(calp1, salp1*sbet1)
	// sigma1 and omega1 from the equatorial crossing, both 0 when it
	// starts there going north
	ssig1, somg1 := sbet1, salp0*sbet1
	csig1 := 1.0
	if sbet1 != 0 || calp1 != 0 {
		csig1 = cbet1 * calp1
	}
	comg1 := csig1
	ssig1, csig1 = norm2(ssig1, csig1)

	li := newLineIntegrals(calp0 * calp0 * ep2)
	sig1 := math.Atan2(ssig1, csig1)
	tau1 := li.i1.mean*sig1 + li.i1.periodic(ssig1, csig1)
	sig2 := li.sigmaOf(tau1 + s12/B)
	sig12 := sig2 - sig1
	ssig12, csig12 := math.Sincos(sig12)
	ssig2 := ssig1*csig12 + csig1*ssig12
	csig2 := csig1*csig12 - ssig1*ssig12

	sbet2 := calp0 * ssig2
	cbet2 := math.Hypot(salp0, calp0*csig2)
	if cbet2 == 0 {
		cbet2, csig2 = tiny, tiny // at a pole
	}
	salp2, calp2 := salp0, calp0*csig2
	somg2, comg2 := salp0*ssig2, csig2
	omg12 := math.Atan2(somg2*comg1-comg2*somg1, comg2*comg1+somg2*somg1)
	b312 := li.i3.periodic(ssig2, csig2) - li.i3.periodic(ssig1, csig1)
	lam12 := omg12 - F*salp0*(li.i3.mean*sig12+b312)
	lon12 := lam12 * 180 / math.Pi
	return Direct{
		Lat2: atan2d(sbet2, f1*cbet2),
		Lon2: NormalizeLon(NormalizeLon(lon1) + NormalizeLon(lon12)),
		Azi2: atan2d(salp2, calp2),
		A12:  sig12 * 180 / math.Pi,
	}
}
