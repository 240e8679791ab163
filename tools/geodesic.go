package tools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/precisiond/precisiond/evidence"
	"github.com/precisiond/precisiond/internal/geodesic"
)

type geodesicInput struct {
	Operation   string       `json:"operation"`
	Lat1        float64      `json:"lat1"`
	Lon1        float64      `json:"lon1"`
	Lat2        float64      `json:"lat2"`
	Lon2        float64      `json:"lon2"`
	Azimuth1Deg float64      `json:"azimuth1_deg"`
	DistanceM   float64      `json:"distance_m"`
	Points      [][2]float64 `json:"points"`
	FromCRS     string       `json:"from_crs"`
	ToCRS       string       `json:"to_crs"`
}

// geodesicFacts holds the facts of every operation; each operation sets
// its own fields (the output schema's oneOf).
type geodesicFacts struct {
	DistanceM   *evidence.Float     `json:"distance_m,omitempty"`
	Azimuth1Deg *evidence.Float     `json:"azimuth1_deg,omitempty"`
	Lat2        *evidence.Float     `json:"lat2,omitempty"`
	Lon2        *evidence.Float     `json:"lon2,omitempty"`
	Azimuth2Deg *evidence.Float     `json:"azimuth2_deg,omitempty"`
	AreaM2      *evidence.Float     `json:"area_m2,omitempty"`
	PerimeterM  *evidence.Float     `json:"perimeter_m,omitempty"`
	Points      [][2]evidence.Float `json:"points,omitempty"`
}

func fl(v float64) *evidence.Float { f := evidence.Float(v); return &f }

// geodesic is the geodesic tool (issue 32): Karney's inverse and direct
// problems, geodesic polygon areas and EPSG:4326/3857/UTM transforms on
// WGS84; see internal/geodesic.
func geodesicTool() Tool {
	maxDist := float64(contractLimit("geodesic", "max_abs_distance_m"))
	return Define(Def[geodesicInput, geodesicFacts]{
		Name: "geodesic",
		Run: func(ctx context.Context, in geodesicInput) (geodesicFacts, []Warning, error) {
			switch in.Operation {
			case "inverse":
				if err := checkLats(in.Lat1, in.Lat2); err != nil {
					return geodesicFacts{}, nil, err
				}
				r, err := geodesic.SolveInverse(in.Lat1, in.Lon1, in.Lat2, in.Lon2)
				if err != nil {
					return geodesicFacts{}, nil, Fail("inverse_not_converged", "%v", err)
				}
				return geodesicFacts{DistanceM: fl(r.S12), Azimuth1Deg: fl(r.Azi1), Azimuth2Deg: fl(r.Azi2)}, nil, nil
			case "direct":
				if err := checkLats(in.Lat1); err != nil {
					return geodesicFacts{}, nil, err
				}
				if !(math.Abs(in.DistanceM) <= maxDist) {
					return geodesicFacts{}, nil, Fail("distance_out_of_range", "distance_m %v is beyond ±%g m", in.DistanceM, maxDist)
				}
				r := geodesic.SolveDirect(in.Lat1, in.Lon1, in.Azimuth1Deg, in.DistanceM)
				return geodesicFacts{Lat2: fl(r.Lat2), Lon2: fl(r.Lon2), Azimuth2Deg: fl(r.Azi2)}, nil, nil
			case "area":
				for i, p := range in.Points {
					if err := checkLats(p[0]); err != nil {
						return geodesicFacts{}, nil, Fail("latitude_out_of_range", "points[%d]: %s", i, err.(*Error).Message)
					}
				}
				pg, err := geodesic.PolygonArea(ctx, in.Points)
				if errors.Is(err, geodesic.ErrNoConvergence) {
					return geodesicFacts{}, nil, Fail("inverse_not_converged", "%v", err)
				} else if err != nil {
					return geodesicFacts{}, nil, err
				}
				return geodesicFacts{AreaM2: fl(pg.Area), PerimeterM: fl(pg.Perimeter)}, nil, nil
			case "transform":
				return runTransform(ctx, in)
			}
			return geodesicFacts{}, nil, Fail("unknown_operation", "operation %q", in.Operation) // the schema's enum lets none through
		},
		Legacy: geodesicLegacy,
	})
}

func checkLats(lats ...float64) error {
	for _, lat := range lats {
		if !(math.Abs(lat) <= 90) {
			return Fail("latitude_out_of_range", "latitude %v is outside [-90, 90]", lat)
		}
	}
	return nil
}

func runTransform(ctx context.Context, in geodesicInput) (geodesicFacts, []Warning, error) {
	from, err := geodesic.ParseCRS(in.FromCRS)
	if err != nil {
		return geodesicFacts{}, nil, Fail("unknown_crs", "from_crs: %v", err)
	}
	to, err := geodesic.ParseCRS(in.ToCRS)
	if err != nil {
		return geodesicFacts{}, nil, Fail("unknown_crs", "to_crs: %v", err)
	}
	out := make([][2]evidence.Float, len(in.Points))
	outside, maxOff := 0, 0.0
	for i, p := range in.Points {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return geodesicFacts{}, nil, err
			}
		}
		q, off, err := geodesic.Transform(from, to, p)
		if err != nil {
			var de *geodesic.DomainError
			if errors.As(err, &de) {
				reason := "outside_crs_domain"
				if de.Latitude {
					reason = "latitude_out_of_range"
				}
				return geodesicFacts{}, nil, Fail(reason, "points[%d]: %s", i, de.Msg)
			}
			return geodesicFacts{}, nil, err
		}
		if off > 3 {
			outside++
			maxOff = math.Max(maxOff, off)
		}
		out[i] = [2]evidence.Float{evidence.Float(q[0]), evidence.Float(q[1])}
	}
	var warns []Warning
	if outside > 0 {
		warns = append(warns, Warning{Code: "outside_utm_zone", Message: fmt.Sprintf(
			"%d point(s) lie more than 3 degrees of longitude from the UTM zone's central meridian (up to %.6g); the transverse Mercator values are exact for that zone but the point belongs to another zone", outside, maxOff)})
	}
	return geodesicFacts{Points: out}, warns, nil
}

// geodesicLegacy is one line per operation.
func geodesicLegacy(in geodesicInput, out geodesicFacts) string {
	g := func(f *evidence.Float) string {
		if f == nil {
			return "null"
		}
		return strconv.FormatFloat(float64(*f), 'g', -1, 64)
	}
	switch in.Operation {
	case "inverse":
		return "distance " + g(out.DistanceM) + " m, azimuth1 " + g(out.Azimuth1Deg) + "°, azimuth2 " + g(out.Azimuth2Deg) + "°"
	case "direct":
		return "lat2 " + g(out.Lat2) + ", lon2 " + g(out.Lon2) + ", azimuth2 " + g(out.Azimuth2Deg) + "°"
	case "area":
		return "area " + g(out.AreaM2) + " m², perimeter " + g(out.PerimeterM) + " m"
	}
	var b strings.Builder
	b.WriteString(in.FromCRS + " -> " + in.ToCRS + ":")
	for i, p := range out.Points {
		if i == 20 {
			fmt.Fprintf(&b, " … (%d points)", len(out.Points))
			break
		}
		b.WriteString(" [" + g(&p[0]) + ", " + g(&p[1]) + "]")
	}
	return b.String()
}
