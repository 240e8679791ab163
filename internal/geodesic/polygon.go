package geodesic

import (
	"context"
	"math"
)

// Polygon is the area and perimeter of a geodesic polygon.
type Polygon struct {
	Area      float64 // m², counter-clockwise positive, in (-EllipsoidArea/2, EllipsoidArea/2]
	Perimeter float64 // m
}

// accumulator sums doubles with the rounding error of each addition kept.
type accumulator struct{ s, t float64 }

func (a *accumulator) add(y float64) {
	var u float64
	y, u = twoSum(y, a.t)
	a.s, a.t = twoSum(y, a.s)
	a.t += u
}

func (a *accumulator) sum() float64 { return a.s + a.t }

// crossesPrimeMeridian is +1 or -1 when the edge from lon1 to lon2 (the
// shorter way round) crosses longitude 0 eastwards or westwards, else 0;
// an edge ending on 0 counts as crossing, one starting on 0 not, so a ring
// through 0 counts each crossing once.
func crossesPrimeMeridian(lon1, lon2 float64) int {
	lon1, lon2 = NormalizeLon(lon1), NormalizeLon(lon2)
	d, _ := angDiff(lon1, lon2)
	switch {
	case lon1 <= 0 && lon2 > 0 && d > 0:
		return 1
	case lon2 <= 0 && lon1 > 0 && d < 0:
		return -1
	}
	return 0
}

// PolygonArea is the area and perimeter of the ring pts ([lat, lon]
// degrees, closed automatically), as GeographicLib's PolygonArea computes
// them with reverse=false and sign=true. Latitudes must be within [-90, 90].
// It returns ErrNoConvergence from an edge, or the context's error.
func PolygonArea(ctx context.Context, pts [][2]float64) (Polygon, error) {
	var area, perim accumulator
	crossings := 0
	for i := range pts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return Polygon{}, err
			}
		}
		if len(pts) < 2 {
			break
		}
		p, q := pts[i], pts[(i+1)%len(pts)]
		r, err := SolveInverse(p[0], p[1], q[0], q[1])
		if err != nil {
			return Polygon{}, err
		}
		perim.add(r.S12)
		area.add(r.S12Area)
		crossings += crossesPrimeMeridian(p[1], q[1])
	}
	// The edge areas sum to the enclosed area clockwise positive, modulo
	// the whole ellipsoid, and off by half of it when the ring goes round a
	// pole (an odd number of crossings of any meridian).
	a := math.Remainder(area.sum(), EllipsoidArea)
	if crossings%2 != 0 {
		if a < 0 {
			a += EllipsoidArea / 2
		} else {
			a -= EllipsoidArea / 2
		}
	}
	a = -a // counter-clockwise positive
	if a > EllipsoidArea/2 {
		a -= EllipsoidArea
	} else if a <= -EllipsoidArea/2 {
		a += EllipsoidArea
	}
	return Polygon{Area: a + 0, Perimeter: perim.sum()}, nil
}
