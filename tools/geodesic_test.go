package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/precisiond/precisiond/evidence"
)

// The geodesic vectors (tools/testdata/geodesic/oracle_*.json, written by
// tools/testdata/oracle/gen_geodesic.py from GeographicLib and PROJ) hold
// floats that agree with the oracle within the tolerances each file states,
// not bit for bit, so TestGolden leaves them (they have "tolerances") and
// TestGeodesicOracle replays them through the full execution path.

// num reads a JSON number of a parsed vector file.
func num(t *testing.T, v any) float64 {
	t.Helper()
	var s string
	switch x := v.(type) {
	case evidence.Float:
		return float64(x)
	case float64:
		return x
	case fmt.Stringer:
		s = x.String()
	default:
		s = fmt.Sprint(x)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %v (%T)", v, v)
	}
	return f
}

// angleDiff is |a - b| reduced modulo 360.
func angleDiff(a, b float64) float64 {
	return math.Abs(math.Remainder(a-b, 360))
}

// groundError is the distance in metres between two nearby [lat, lon]
// points (a local flat approximation, fine at the nanometre scale).
func groundError(lat1, lon1, lat2, lon2 float64) float64 {
	const a = 6378137.0
	dlat := (lat1 - lat2) * math.Pi / 180 * a
	dlon := angleDiff(lon1, lon2) * math.Pi / 180 * a * math.Cos(lat1*math.Pi/180)
	return math.Hypot(dlat, dlon)
}

type geodesicVectors struct {
	tol   map[string]float64
	cases []goldenCase
}

func loadGeodesic(t *testing.T, family string) geodesicVectors {
	t.Helper()
	path := filepath.Join("testdata", "geodesic", "oracle_"+family+".json")
	obj := readExact(t, path)
	tol := map[string]float64{}
	for k, v := range obj["tolerances"].(map[string]any) {
		tol[k] = num(t, v)
	}
	delete(obj, "tolerances")
	return geodesicVectors{tol: tol, cases: loadGolden(t, path)}
}

func TestGeodesicOracle(t *testing.T) {
	reg := testRegistry(t)
	for _, family := range []string{"inverse", "direct", "area", "transform"} {
		t.Run(family, func(t *testing.T) {
			v := loadGeodesic(t, family)
			if len(v.cases) < 500 {
				t.Errorf("%d cases, want at least 500", len(v.cases))
			}
			worst := map[string]float64{}
			for _, c := range v.cases {
				resp, err := reg.Invoke(context.Background(), Request{Tool: "geodesic", Args: c.Args})
				if err != nil {
					t.Errorf("%s: %v", c.Name, err)
					continue
				}
				got, err := evidence.ParseJSON(resp.EnvelopeJSON)
				if err != nil {
					t.Fatal(err)
				}
				checkGeodesic(t, family, v.tol, c, got.(map[string]any)["facts"].(map[string]any), worst)
			}
			t.Logf("largest differences from the oracle: %v", worst)
		})
	}
}

func checkGeodesic(t *testing.T, family string, tol map[string]float64, c goldenCase, got map[string]any, worst map[string]float64) {
	t.Helper()
	want := c.Facts
	note := func(key string, diff, limit float64, what string) {
		if diff > worst[key] || math.IsNaN(diff) {
			worst[key] = diff
		}
		if !(diff <= limit) {
			t.Errorf("%s: %s differs from the oracle by %g, more than %g\n got %v\nwant %v", c.Name, what, diff, limit, got, want)
		}
	}
	switch family {
	case "inverse":
		s12 := num(t, want["distance_m"])
		note("distance_m", math.Abs(num(t, got["distance_m"])-s12), tol["distance_m"], "distance_m")
		// 1e-9 degrees, or what moves the far end by azimuth_m
		azTol := math.Max(tol["azimuth_deg"], tol["azimuth_m"]/s12*180/math.Pi)
		for _, k := range []string{"azimuth1_deg", "azimuth2_deg"} {
			note(k, angleDiff(num(t, got[k]), num(t, want[k])), azTol, k)
		}
	case "direct":
		lat, lon := num(t, got["lat2"]), num(t, got["lon2"])
		wlat, wlon := num(t, want["lat2"]), num(t, want["lon2"])
		s12 := math.Abs(num(t, c.Args["distance_m"]))
		note("position_m", groundError(wlat, wlon, lat, lon), tol["position_m"]*math.Max(1, s12/tol["position_scale_m"]), "the position (m)")
		note("azimuth2_deg", angleDiff(num(t, got["azimuth2_deg"]), num(t, want["azimuth2_deg"])), tol["azimuth_deg"], "azimuth2_deg")
		if !(lon > -180 && lon <= 180) {
			t.Errorf("%s: lon2 %v outside (-180, 180]", c.Name, lon)
		}
	case "area":
		wa := num(t, want["area_m2"])
		note("area_m2", math.Abs(num(t, got["area_m2"])-wa), tol["area_m2_abs"]+tol["area_m2_rel"]*math.Abs(wa), "area_m2")
		note("perimeter_m", math.Abs(num(t, got["perimeter_m"])-num(t, want["perimeter_m"])), tol["perimeter_m"]*float64(len(c.Args["points"].([]any))), "perimeter_m")
	case "transform":
		gp, wp := got["points"].([]any), want["points"].([]any)
		if len(gp) != len(wp) {
			t.Errorf("%s: %d points, want %d", c.Name, len(gp), len(wp))
			return
		}
		geographic := c.Args["to_crs"] == "EPSG:4326"
		for i := range gp {
			g, w := gp[i].([]any), wp[i].([]any)
			if geographic {
				note("position_m", groundError(num(t, w[0]), num(t, w[1]), num(t, g[0]), num(t, g[1])), tol["metres"], fmt.Sprintf("point %d (m on the ground)", i))
			} else {
				note("metres", math.Hypot(num(t, g[0])-num(t, w[0]), num(t, g[1])-num(t, w[1])), tol["metres"], fmt.Sprintf("point %d", i))
			}
		}
	}
}

// TestGeodesicRefusals: bad coordinates and CRS domains get their reasons.
func TestGeodesicRefusals(t *testing.T) {
	reg := testRegistry(t)
	for _, c := range []struct {
		name   string
		args   map[string]any
		reason string
	}{
		{"lat1 > 90", map[string]any{"operation": "inverse", "lat1": 90.5, "lon1": 0, "lat2": 0, "lon2": 0}, "latitude_out_of_range"},
		{"lat2 < -90", map[string]any{"operation": "inverse", "lat1": 0, "lon1": 0, "lat2": -91, "lon2": 0}, "latitude_out_of_range"},
		{"direct lat", map[string]any{"operation": "direct", "lat1": 100, "lon1": 0, "azimuth1_deg": 0, "distance_m": 1}, "latitude_out_of_range"},
		{"direct distance", map[string]any{"operation": "direct", "lat1": 0, "lon1": 0, "azimuth1_deg": 0, "distance_m": 1.00000001e8}, "distance_out_of_range"},
		{"area lat", map[string]any{"operation": "area", "points": []any{[]any{0, 0}, []any{90.000001, 0}, []any{0, 1}}}, "latitude_out_of_range"},
		{"transform lat", map[string]any{"operation": "transform", "from_crs": "EPSG:4326", "to_crs": "EPSG:32632", "points": []any{[]any{-90.1, 9}}}, "latitude_out_of_range"},
		{"3857 beyond the square", map[string]any{"operation": "transform", "from_crs": "EPSG:4326", "to_crs": "EPSG:3857", "points": []any{[]any{85.06, 0}}}, "outside_crs_domain"},
		{"3857 pole", map[string]any{"operation": "transform", "from_crs": "EPSG:4326", "to_crs": "EPSG:3857", "points": []any{[]any{-90, 0}}}, "outside_crs_domain"},
		{"3857 y beyond the square", map[string]any{"operation": "transform", "from_crs": "EPSG:3857", "to_crs": "EPSG:4326", "points": []any{[]any{0, 20037508.4}}}, "outside_crs_domain"},
		{"UTM 45.1 degrees out", map[string]any{"operation": "transform", "from_crs": "EPSG:4326", "to_crs": "EPSG:32632", "points": []any{[]any{10, 54.1}}}, "outside_crs_domain"},
		{"UTM beyond the pole", map[string]any{"operation": "transform", "from_crs": "EPSG:32632", "to_crs": "EPSG:4326", "points": []any{[]any{500000, 10100000}}}, "outside_crs_domain"},
		{"UTM far east", map[string]any{"operation": "transform", "from_crs": "EPSG:32632", "to_crs": "EPSG:4326", "points": []any{[]any{9e7, 0}}}, "outside_crs_domain"},
		{"UTM maps beyond 45 degrees", map[string]any{"operation": "transform", "from_crs": "EPSG:32632", "to_crs": "EPSG:4326", "points": []any{[]any{500000 + 6e6, 8e6}}}, "outside_crs_domain"},
	} {
		_, err := reg.Invoke(context.Background(), Request{Tool: "geodesic", Args: c.args})
		var te *Error
		if !errors.As(err, &te) || te.Reason != c.reason {
			t.Errorf("%s: got %v, want reason %s", c.name, err, c.reason)
		}
	}
	// arguments of another operation, missing arguments, unknown CRS: the schema
	for name, args := range map[string]map[string]any{
		"inverse with points": {"operation": "inverse", "lat1": 0, "lon1": 0, "lat2": 0, "lon2": 0, "points": []any{[]any{0, 0}}},
		"direct without s12":  {"operation": "direct", "lat1": 0, "lon1": 0, "azimuth1_deg": 0},
		"area without points": {"operation": "area"},
		"unknown crs":         {"operation": "transform", "from_crs": "EPSG:32661", "to_crs": "EPSG:4326", "points": []any{[]any{0, 0}}},
		"three coordinates":   {"operation": "area", "points": []any{[]any{0, 0, 0}}},
		"10001 points":        {"operation": "area", "points": manyPoints(10001)},
		"lon beyond a double": {"operation": "inverse", "lat1": 0, "lon1": json.Number("1e400"), "lat2": 0, "lon2": 0},
	} {
		_, err := reg.Invoke(context.Background(), Request{Tool: "geodesic", Args: args})
		var te *Error
		if !errors.As(err, &te) || te.Code != CodeInputSchemaInvalid {
			t.Errorf("%s: got %v, want %s", name, err, CodeInputSchemaInvalid)
		}
	}
}

func manyPoints(n int) []any {
	pts := make([]any, n)
	for i := range pts {
		pts[i] = []any{float64(i%170) - 85, float64(i%359) - 179}
	}
	return pts
}

// TestGeodesicUTMWarning: a point outside its zone is answered with a warning.
func TestGeodesicUTMWarning(t *testing.T) {
	reg := testRegistry(t)
	resp, err := reg.Invoke(context.Background(), Request{Tool: "geodesic", Args: map[string]any{
		"operation": "transform", "from_crs": "EPSG:4326", "to_crs": "EPSG:32632", "points": []any{[]any{45, 9}, []any{45, 13}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Envelope.Warnings) != 1 || resp.Envelope.Warnings[0].Code != "outside_utm_zone" {
		t.Errorf("warnings %v, want outside_utm_zone", resp.Envelope.Warnings)
	}
}

func BenchmarkGeodesicInverse(b *testing.B) {
	benchTool(b, "geodesic", map[string]any{"operation": "inverse", "lat1": 52.52, "lon1": 13.405, "lat2": 48.8566, "lon2": 2.3522})
}

func BenchmarkGeodesicInverseAntipodal(b *testing.B) {
	benchTool(b, "geodesic", map[string]any{"operation": "inverse", "lat1": -30, "lon1": 0, "lat2": 29.9, "lon2": 179.8})
}

func BenchmarkGeodesicDirect(b *testing.B) {
	benchTool(b, "geodesic", map[string]any{"operation": "direct", "lat1": 52.52, "lon1": 13.405, "azimuth1_deg": 260, "distance_m": 878000})
}

// TestGeodesicExamples: every contract example has an oracle case with its
// arguments (gen_geodesic.py copies them), and the example's documented facts
// agree with it within the family's tolerances.
func TestGeodesicExamples(t *testing.T) {
	reg := testRegistry(t)
	tool, _, _ := reg.Lookup("geodesic")
	vectors := map[string]geodesicVectors{}
	for _, family := range []string{"inverse", "direct", "area", "transform"} {
		vectors[family] = loadGeodesic(t, family)
	}
	if len(tool.Contract.Examples) < 4 {
		t.Errorf("%d examples, want at least 4", len(tool.Contract.Examples))
	}
	for _, ex := range tool.Contract.Examples {
		family := ex.Args["operation"].(string)
		found := false
		for _, c := range vectors[family].cases {
			if c.Name == "example:"+ex.Title {
				found = true
				checkGeodesic(t, family, vectors[family].tol, c, ex.Facts, map[string]float64{})
			}
		}
		if !found {
			t.Errorf("example %q has no oracle case; run gen_geodesic.py", ex.Title)
		}
	}
}

// FuzzGeodesicArgs: whatever numbers come in, the call answers finite facts
// or a typed refusal; nothing panics and no NaN reaches the envelope.
func FuzzGeodesicArgs(f *testing.F) {
	f.Add(uint8(0), 52.52, 13.405, 48.8566, 2.3522)
	f.Add(uint8(1), 90.0, 0.0, 180.0, 1e8)
	f.Add(uint8(2), -80.0, 0.0, 70.0, 180.0)
	f.Add(uint8(3), 85.06, 540.0, 500000.0, 1e7)
	f.Add(uint8(4), 10.0, 20.0, 1e300, -1e300)
	f.Add(uint8(5), -90.0, 1.0, 20037508.4, 0.0)
	reg := testRegistry(f)
	f.Fuzz(func(t *testing.T, op uint8, a, b, c, d float64) {
		if !finite(a, b, c, d) {
			return // JSON carries no NaN or infinity
		}
		var args map[string]any
		switch op % 6 {
		case 0:
			args = map[string]any{"operation": "inverse", "lat1": a, "lon1": b, "lat2": c, "lon2": d}
		case 1:
			args = map[string]any{"operation": "direct", "lat1": a, "lon1": b, "azimuth1_deg": c, "distance_m": d}
		case 2:
			args = map[string]any{"operation": "area", "points": []any{[]any{a, b}, []any{c, d}, []any{a, d}}}
		case 3:
			args = map[string]any{"operation": "transform", "from_crs": "EPSG:4326", "to_crs": "EPSG:32632", "points": []any{[]any{a, b}}}
		case 4:
			args = map[string]any{"operation": "transform", "from_crs": "EPSG:32733", "to_crs": "EPSG:3857", "points": []any{[]any{c, d}}}
		default:
			args = map[string]any{"operation": "transform", "from_crs": "EPSG:3857", "to_crs": "EPSG:4326", "points": []any{[]any{c, d}}}
		}
		resp, err := reg.Invoke(context.Background(), Request{Tool: "geodesic", Args: args})
		if err != nil {
			var te *Error
			if !errors.As(err, &te) || te.Code != CodeExecution {
				t.Fatalf("%v: %v", args, err)
			}
			return
		}
		if _, err := evidence.ParseJSON(resp.EnvelopeJSON); err != nil {
			t.Fatalf("%v: envelope %v", args, err)
		}
	})
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
