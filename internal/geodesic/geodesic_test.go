package geodesic

import (
	"context"
	"math"
	"testing"
)

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// FuzzRoundTrip: for valid input the solvers never panic or answer NaN, and
// going s12 from a point and solving the inverse problem back gives s12
// again while the geodesic is a shortest path (|s12| <= 1.9e7 m, short of
// the cut locus, which is at least pi b = 1.997e7 m away), within 15 nm
// plus a rounding allowance proportional to s12.
func FuzzRoundTrip(f *testing.F) {
	f.Add(52.52, 13.405, 260.0, 878000.0)
	f.Add(-30.0, 0.0, 161.89, 19989832.8)
	f.Add(90.0, 0.0, 180.0, 1e6)
	f.Add(0.0, 0.0, 90.0, 1.9e7)
	f.Add(0.0, 720.0, 0.0, -1e-9)
	f.Add(-89.99999999, -179.99999, 45.0, 1e-3)
	f.Add(1e-300, 1e300, -1e300, 5e-324)
	f.Fuzz(func(t *testing.T, lat1, lon1, azi1, s12 float64) {
		if !finite(lat1, lon1, azi1, s12) || math.Abs(lat1) > 90 || math.Abs(s12) > 1e8 {
			return // refused by the tool before it gets here
		}
		d := SolveDirect(lat1, lon1, azi1, s12)
		if !finite(d.Lat2, d.Lon2, d.Azi2, d.A12) || math.Abs(d.Lat2) > 90 || d.Lon2 <= -180 || d.Lon2 > 180 {
			t.Fatalf("direct(%v, %v, %v, %v) = %+v", lat1, lon1, azi1, s12, d)
		}
		inv, err := SolveInverse(lat1, lon1, d.Lat2, d.Lon2)
		if err != nil {
			t.Fatalf("inverse(%v, %v, %v, %v): %v", lat1, lon1, d.Lat2, d.Lon2, err)
		}
		if !finite(inv.S12, inv.Azi1, inv.Azi2, inv.A12, inv.S12Area) || inv.S12 < 0 {
			t.Fatalf("inverse(%v, %v, %v, %v) = %+v", lat1, lon1, d.Lat2, d.Lon2, inv)
		}
		tol := 1.5e-8 + 1e-15*math.Abs(s12)
		if inv.S12 > math.Abs(s12)+tol {
			t.Fatalf("inverse distance %v is longer than the geodesic of %v that joins the points", inv.S12, s12)
		}
		if math.Abs(s12) <= 1.9e7 && math.Abs(inv.S12-math.Abs(s12)) > tol {
			t.Fatalf("direct(%v, %v, %v, %v) then inverse: distance %v, off by %g", lat1, lon1, azi1, s12, inv.S12, inv.S12-math.Abs(s12))
		}
	})
}

// FuzzInverse: any two valid points get a finite answer, the same distance
// both ways, and at most half the equator (pi a, longer than half a
// meridian: no shortest path is longer).
func FuzzInverse(f *testing.F) {
	f.Add(-30.0, 0.0, 29.9, 179.8)
	f.Add(0.0, 0.0, 0.5, 179.5)
	f.Add(-90.0, 0.0, 90.0, 0.0)
	f.Add(0.0, 0.0, 0.0, 180.0)
	f.Add(45.0, 10.0, 45.0, 10.0)
	f.Add(12.5, 1000.0, -12.5, -820.0)
	f.Fuzz(func(t *testing.T, lat1, lon1, lat2, lon2 float64) {
		if !finite(lat1, lon1, lat2, lon2) || math.Abs(lat1) > 90 || math.Abs(lat2) > 90 {
			return
		}
		r, err := SolveInverse(lat1, lon1, lat2, lon2)
		if err != nil {
			t.Fatalf("inverse(%v, %v, %v, %v): %v", lat1, lon1, lat2, lon2, err)
		}
		if !finite(r.S12, r.Azi1, r.Azi2, r.S12Area) || r.S12 < 0 || r.S12 > math.Pi*A+1e-6 {
			t.Fatalf("inverse(%v, %v, %v, %v) = %+v", lat1, lon1, lat2, lon2, r)
		}
		back, err := SolveInverse(lat2, lon2, lat1, lon1)
		if err != nil || math.Abs(back.S12-r.S12) > 1.5e-8 {
			t.Fatalf("inverse is not symmetric: %v then %v (%v)", r.S12, back.S12, err)
		}
	})
}

// FuzzTransform: every CRS pair either refuses a point with a DomainError or
// answers finite numbers, and 4326 -> CRS -> 4326 comes back within 1e-9
// degrees (0.1 mm).
func FuzzTransform(f *testing.F) {
	f.Add(48.137, 11.575, 32632)
	f.Add(-33.9, 18.4, 32733)
	f.Add(85.0511287798066, 180.0, 3857)
	f.Add(90.0, 100.0, 32601)
	f.Add(0.0, 53.9, 32632)
	f.Fuzz(func(t *testing.T, lat, lon float64, code int) {
		if !finite(lat, lon) || math.Abs(lat) > 90 {
			return
		}
		crs, err := ParseCRS("EPSG:" + itoa(code))
		if err != nil {
			return
		}
		geo, _ := ParseCRS("EPSG:4326")
		q, _, err := Transform(geo, crs, [2]float64{lat, lon})
		if err != nil {
			if _, ok := err.(*DomainError); !ok {
				t.Fatalf("%v: %v", crs, err)
			}
			return
		}
		if !finite(q[0], q[1]) {
			t.Fatalf("%v %v -> %v = %v", lat, lon, code, q)
		}
		back, _, err := Transform(crs, geo, q)
		if err != nil {
			t.Fatalf("%v %v -> %v = %v, back: %v", lat, lon, code, q, err)
		}
		dlon, _ := angDiff(lon, back[1])
		if math.Abs(back[0]-lat) > 1e-9 || (math.Abs(lat) < 89.9 && math.Abs(dlon) > 1e-9) {
			t.Fatalf("%v %v -> %v = %v -> %v", lat, lon, code, q, back)
		}
	})
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestPolygonContext: a cancelled context stops a long ring.
func TestPolygonContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pts := make([][2]float64, 1000)
	if _, err := PolygonArea(ctx, pts); err == nil {
		t.Error("a cancelled context did not stop PolygonArea")
	}
}

// TestAstroid: the root solves the quartic and is positive.
func TestAstroid(t *testing.T) {
	for _, xy := range [][2]float64{{-0.5, -0.3}, {-3, -1e-6}, {-1e-3, -5}, {0.7, -0.2}, {-1.2, -1e-12}} {
		k := astroid(xy[0], xy[1])
		p, q := xy[0]*xy[0], xy[1]*xy[1]
		v := (((k+2)*k-(p+q-1))*k-2*q)*k - q
		if !(k > 0) || math.Abs(v) > 1e-12*math.Max(1, k*k*k*k) {
			t.Errorf("astroid(%v, %v) = %v, polynomial %v", xy[0], xy[1], k, v)
		}
	}
}

func BenchmarkInverse(b *testing.B) {
	for b.Loop() {
		SolveInverse(52.52, 13.405, 48.8566, 2.3522)
	}
}

func BenchmarkInverseNearlyAntipodal(b *testing.B) {
	for b.Loop() {
		SolveInverse(-30, 0, 29.9, 179.8)
	}
}

func BenchmarkDirect(b *testing.B) {
	for b.Loop() {
		SolveDirect(52.52, 13.405, 260, 878000)
	}
}

func BenchmarkToUTM(b *testing.B) {
	z := UTMZone{Zone: 32}
	for b.Loop() {
		z.ToUTM(48.137, 11.575)
	}
}

// TestBisectionFallback: with no Newton steps allowed the solver reaches
// the same answer by bisection alone (GeographicLib's fallback), within
// 15 nm; with too small a budget it says so instead of answering.
func TestBisectionFallback(t *testing.T) {
	for _, p := range [][4]float64{{-30, 0, 29.9, 179.8}, {52.52, 13.405, 48.8566, 2.3522}, {0, 0, 0.5, 179.5}, {-41.32, 174.81, 40.96, -5.5}} {
		want, err := SolveInverse(p[0], p[1], p[2], p[3])
		if err != nil {
			t.Fatal(err)
		}
		got, err := solveInverse(p[0], p[1], p[2], p[3], budget{0, maxIter})
		if err != nil {
			t.Fatalf("%v by bisection: %v", p, err)
		}
		if math.Abs(got.S12-want.S12) > 1.5e-8 || math.Abs(got.Azi1-want.Azi1) > 1e-9 || got.Iterations <= want.Iterations {
			t.Errorf("%v: bisection %+v, Newton %+v", p, got, want)
		}
		if _, err := solveInverse(p[0], p[1], p[2], p[3], budget{0, 3}); err != ErrNoConvergence {
			t.Errorf("%v with 3 evaluations: %v, want ErrNoConvergence", p, err)
		}
	}
}
