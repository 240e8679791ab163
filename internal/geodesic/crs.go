package geodesic

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// CRS is one of the supported coordinate reference systems.
type CRS struct {
	EPSG int
	utm  UTMZone // when EPSG is 326zz or 327zz
}

// ParseCRS reads "EPSG:4326", "EPSG:3857", "EPSG:32601"-"EPSG:32660" or
// "EPSG:32701"-"EPSG:32760".
func ParseCRS(s string) (CRS, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "EPSG:"))
	if !strings.HasPrefix(s, "EPSG:") || err != nil {
		return CRS{}, fmt.Errorf("%q is not EPSG:<code>", s)
	}
	switch {
	case n == 4326 || n == 3857:
		return CRS{EPSG: n}, nil
	case n >= 32601 && n <= 32660:
		return CRS{EPSG: n, utm: UTMZone{Zone: n - 32600}}, nil
	case n >= 32701 && n <= 32760:
		return CRS{EPSG: n, utm: UTMZone{Zone: n - 32700, South: true}}, nil
	}
	return CRS{}, fmt.Errorf("%s is not supported (EPSG:4326, EPSG:3857, EPSG:32601-32660, EPSG:32701-32760)", s)
}

// MaxUTMOffset is how far from its central meridian, in degrees of
// longitude, a point may be projected in a UTM zone. Krüger's series summed
// here is exact to rounding much further out, but PROJ's (sixth order in n)
// departs from it by millimetres beyond about 50 degrees, and the 1 mm
// agreement is what the contract states.
const MaxUTMOffset = 45.0

// projLon reduces a longitude as PROJ does: kept when within [-180, 180],
// else reduced to [-180, 180) (540 and -540 are -180).
func projLon(lon float64) float64 {
	if math.Abs(lon) <= 180 {
		return lon
	}
	return lon - 360*math.Floor((lon+180)/360)
}

// DomainError is a point outside what a CRS or a conversion admits.
type DomainError struct {
	Latitude bool // the latitude is outside [-90, 90]
	Msg      string
}

func (e *DomainError) Error() string { return e.Msg }

// Transform converts p, in from's axis order, to to's. offset is the
// longitude's distance from the UTM central meridian in degrees when either
// CRS is UTM (the larger of the two), else 0. Errors are *DomainError.
func Transform(from, to CRS, p [2]float64) (q [2]float64, offset float64, err error) {
	if from.EPSG == to.EPSG {
		if from.EPSG == 4326 && !(math.Abs(p[0]) <= 90) {
			return q, 0, &DomainError{Latitude: true, Msg: fmt.Sprintf("latitude %v is outside [-90, 90]", p[0])}
		}
		return p, 0, nil
	}
	var lat, lon float64
	switch from.EPSG {
	case 4326:
		lat, lon = p[0], p[1]
		if !(math.Abs(lat) <= 90) {
			return q, 0, &DomainError{Latitude: true, Msg: fmt.Sprintf("latitude %v is outside [-90, 90]", lat)}
		}
	case 3857:
		if !(math.Abs(p[1]) <= MercatorMax) {
			return q, 0, &DomainError{Msg: fmt.Sprintf("EPSG:3857 y %v is beyond ±%v m (latitude ±%v)", p[1], MercatorMax, MercatorMaxLat)}
		}
		lat, lon = FromWebMercator(p[0], p[1])
	default:
		z := from.utm
		xi := p[1]
		if z.South {
			xi -= utmFN
		}
		xi /= utmK0 * rectRadius
		eta := (p[0] - utmFE) / (utmK0 * rectRadius)
		// xi is pi/2 at a pole, up to rounding
		if !(math.Abs(xi) <= math.Pi/2+1e-12 && math.Abs(eta) <= 3) {
			return q, 0, &DomainError{Msg: fmt.Sprintf("EPSG:%d point [%v, %v] is beyond a pole or too far from the zone", from.EPSG, p[0], p[1])}
		}
		lat, lon = z.FromUTM(p[0], p[1])
		d, _ := angDiff(z.CentralMeridian(), lon)
		offset = math.Abs(d)
		if 90-math.Abs(lat) < 1e-9 {
			offset = 0 // a pole is on every meridian (and xi rounds past it)
		}
		if offset > MaxUTMOffset+1e-9 { // the slack lets the forward image of the bound back in
			return q, 0, &DomainError{Msg: fmt.Sprintf("EPSG:%d point [%v, %v] lies %.6g degrees from the central meridian, more than %v", from.EPSG, p[0], p[1], offset, MaxUTMOffset)}
		}
	}
	switch to.EPSG {
	case 4326:
		q = [2]float64{lat, projLon(lon)}
	case 3857:
		if !(math.Abs(lat) <= MercatorMaxLat) {
			return q, 0, &DomainError{Msg: fmt.Sprintf("latitude %v is beyond EPSG:3857's ±%v", lat, MercatorMaxLat)}
		}
		q[0], q[1] = ToWebMercator(lat, lon)
	default:
		z := to.utm
		x, y, d := z.ToUTM(lat, lon)
		if math.Abs(lat) == 90 {
			d = 0 // a pole is on every meridian
		}
		if math.Abs(d) > MaxUTMOffset {
			return q, 0, &DomainError{Msg: fmt.Sprintf("longitude %v lies %.6g degrees from EPSG:%d's central meridian %v, more than %v", lon, math.Abs(d), to.EPSG, z.CentralMeridian(), MaxUTMOffset)}
		}
		offset = math.Max(offset, math.Abs(d))
		q = [2]float64{x, y}
	}
	return q, offset, nil
}
