#!/usr/bin/python3
"""Oracle for geodesic: Debian's python3-geographiclib (Karney's geodesic
algorithms, Geodesic.WGS84 Inverse, Direct and Polygon) and python3-pyproj
(PROJ's EPSG:4326, 3857 and UTM 326zz/327zz transformations).

Writes tools/testdata/geodesic/oracle_{inverse,direct,area,transform}.json.
Run from the repository root with Debian's interpreter:
    apt-get install python3-geographiclib python3-pyproj
    /usr/bin/python3 tools/testdata/oracle/gen_geodesic.py
Each file records the library versions (geographiclib, pyproj, PROJ and its
EPSG database) and the tolerances the Go tests apply (tools/geodesic_test.go):
the facts are floats and agree with the oracle within them, not bit for bit.
Seeded: the same libraries write the same files.
"""
import math
import os
import random
import sys

import geographiclib
import pyproj
from geographiclib.geodesic import Geodesic
from pyproj import Transformer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import record, write_json  # noqa: E402

G = Geodesic.WGS84
rng = random.Random(20261202)

# inverse: 15 nm in distance; an azimuth within 1e-9 degrees or, for short
# lines where the azimuth is ill-conditioned, within the angle that moves the
# far end by 15 nm (azimuth_m / distance). direct: the point reached within
# 15 nm on the ground for |s12| up to 2.0004e7 m (half a meridian), and in
# proportion beyond (the arc length's own rounding grows with it); the
# azimuth within 1e-9 degrees. area: 0.1 m² plus 1e-12 of |area|, perimeter
# 15 nm per edge. transform: 1 mm (on the ground for geographic output).
TOL_INVERSE = {"distance_m": 1.5e-8, "azimuth_deg": 1e-9, "azimuth_m": 1.5e-8}
TOL_DIRECT = {"position_m": 1.5e-8, "position_scale_m": 2.0004e7, "azimuth_deg": 1e-9}
TOL_AREA = {"area_m2_abs": 0.1, "area_m2_rel": 1e-12, "perimeter_m": 1.5e-8}
TOL_TRANSFORM = {"metres": 1e-3, "degrees": 1e-8}


def doc(cases, tol):
    gen = record("tools/testdata/oracle/gen_geodesic.py", geographiclib, pyproj)
    gen["proj"] = pyproj.proj_version_str
    gen["proj_database_epsg"] = pyproj.database.get_database_metadata("EPSG.VERSION")
    gen["proj_database_layout"] = pyproj.database.get_database_metadata("DATABASE.LAYOUT.VERSION.MAJOR")
    return {"generator": gen, "tolerances": tol, "cases": cases}


def rlat():
    # uniform on the sphere, with some exact values mixed in
    return math.degrees(math.asin(rng.uniform(-1, 1)))


def rlon():
    return rng.uniform(-180, 180)


def inverse_case(name, lat1, lon1, lat2, lon2):
    r = G.Inverse(lat1, lon1, lat2, lon2)
    return {"name": name, "args": {"operation": "inverse", "lat1": lat1, "lon1": lon1, "lat2": lat2, "lon2": lon2},
            "facts": {"distance_m": r["s12"], "azimuth1_deg": r["azi1"], "azimuth2_deg": r["azi2"]}}


def gen_inverse():
    cases = []
    for i in range(600):
        cases.append(inverse_case("random#%d" % i, rlat(), rlon(), rlat(), rlon()))
    for i in range(100):  # short lines
        lat, lon = rlat(), rlon()
        d = 10 ** rng.uniform(-9, -1)
        cases.append(inverse_case("short#%d" % i, lat, lon, max(-90, min(90, lat + rng.uniform(-d, d))), lon + rng.uniform(-d, d)))
    for i in range(150):  # antipodal and nearly antipodal
        lat = rlat() if i % 3 else rng.uniform(-1, 1)
        lon = rlon()
        d = 0.0 if i < 20 else 10 ** rng.uniform(-8, 0)
        cases.append(inverse_case("antipodal#%d" % i, lat, lon, -lat + rng.uniform(-d, d), lon + 180 + rng.uniform(-d, d)))
    edges = [
        (0, 0, 0, 0), (0, 0, 0, 90), (0, 0, 0, 179), (0, 0, 0, 179.5), (0, 0, 0, 180), (0, 0, 0, -180),
        (0, 0, 0, 179.4), (0, 0, 0, 179.7), (0, 10, 0, -170), (0, -170, 0, 170),
        (-90, 0, 90, 0), (90, 0, -90, 0), (90, 0, 90, 0), (90, 0, 90, 123), (-90, 10, -90, -10),
        (90, 0, 0, 0), (-90, 45, 30, -120), (89.9999999, 0, 89.9999999, 180), (90, 0, 45, 45),
        (0, 0, 90, 0), (10, 20, 30, 20), (10, 20, -30, 20), (-10, 20, 10, 200), (45, 0, -45, 180),
        (30, 0, -30, 180), (40, 0, -40, 179.99), (-41.32, 174.81, 40.96, -5.50), (52.52, 13.405, 48.8566, 2.3522),
        (0, 0, 1e-9, 180), (0, 0, 0.5, 179.5), (-30, 0, 29.9, 179.8), (12.5, 1000, -12.5, -1000 + 180),
        (1e-300, 0, -1e-300, 180), (0, 0, 0, 1e-12), (60, 720, 60, 721), (-60, -540.5, 61, 0.5),
    ]
    for i, e in enumerate(edges):
        cases.append(inverse_case("edge#%d" % i, *e))
    cases += examples("inverse")
    for i in range(40):  # meridional and equatorial lines
        lon = rlon()
        if i % 2:
            cases.append(inverse_case("meridional#%d" % i, rlat(), lon, rlat(), lon + rng.choice((0, 180))))
        else:
            cases.append(inverse_case("equatorial#%d" % i, 0.0, lon, 0.0, lon + rng.uniform(-180, 180)))
    return cases


def direct_case(name, lat1, lon1, azi1, s12):
    r = G.Direct(lat1, lon1, azi1, s12)
    return {"name": name, "args": {"operation": "direct", "lat1": lat1, "lon1": lon1, "azimuth1_deg": azi1, "distance_m": s12},
            "facts": {"lat2": r["lat2"], "lon2": r["lon2"], "azimuth2_deg": r["azi2"]}}


def gen_direct():
    cases = []
    for i in range(600):
        cases.append(direct_case("random#%d" % i, rlat(), rlon(), rng.uniform(-180, 180), rng.uniform(0, 2.01e7) * rng.choice((1, 1, 1, -1))))
    for i in range(60):
        cases.append(direct_case("long#%d" % i, rlat(), rlon(), rng.uniform(-180, 180), rng.uniform(2e7, 1e8)))
    for i in range(60):
        cases.append(direct_case("short#%d" % i, rlat(), rlon(), rng.uniform(-180, 180), 10 ** rng.uniform(-6, 4)))
    edges = [
        (0, 0, 90, 1e7), (0, 0, 90, 4e7), (0, 0, 0, 1e7), (0, 0, 180, 2e7), (90, 0, 180, 1e6), (-90, 0, 0, 1e6),
        (-90, 0, 10, 1e6), (90, 30, 45, 2.5e6), (40, -170, 90, 2e7), (10, 20, 30, 1e7), (10, 20, 30, 0),
        (0, 0, 45, 2.00039e7), (45, 10, -90, 20003931.458625447), (-45, 10, 90, -1e7), (0, 720, 90, 1), (0, -540, 270, 1),
        (89.99999, 0, 0, 10), (0, 0, 90, 1e8), (30, 60, -135, 1e8), (52.52, 13.405, 260, 878000),
    ]
    for i, e in enumerate(edges):
        cases.append(direct_case("edge#%d" % i, *e))
    return cases + examples("direct")


def area_case(name, pts):
    p = G.Polygon()
    for lat, lon in pts:
        p.AddPoint(lat, lon)
    n, perimeter, area = p.Compute(False, True)
    return {"name": name, "args": {"operation": "area", "points": [[lat, lon] for lat, lon in pts]},
            "facts": {"area_m2": area, "perimeter_m": perimeter}}


def gen_area():
    cases = []
    for i in range(500):
        n = rng.randint(3, 12)
        lat0, lon0 = rlat() * 0.9, rlon()
        size = 10 ** rng.uniform(-5, 1.5)
        pts = []
        for k in range(n):  # a star-shaped ring around the centre, random orientation
            ang = 2 * math.pi * k / n
            r = size * rng.uniform(0.3, 1)
            pts.append((max(-90, min(90, lat0 + r * math.sin(ang))), lon0 + r * math.cos(ang)))
        if rng.random() < 0.5:
            pts.reverse()
        cases.append(area_case("random#%d" % i, pts))
    ring = [(-80, lon) for lon in range(-180, 180, 30)]
    cases.append(area_case("south_pole_ccw", ring))
    cases.append(area_case("south_pole_cw", list(reversed(ring))))
    ring = [(70, lon) for lon in (0, 90, 180, 270)]
    cases.append(area_case("north_pole_ccw", ring))
    cases.append(area_case("north_pole_cw", list(reversed(ring))))
    cases.append(area_case("north_pole_closed", ring + [ring[0]]))
    cases.append(area_case("through_pole", [(0, 0), (90, 0), (0, 90)]))
    cases.append(area_case("octant", [(0, 0), (0, 90), (90, 0)]))
    cases.append(area_case("hemisphere_equator", [(0, 0), (0, 90), (0, 180), (0, -90)]))
    cases.append(area_case("hemisphere_equator_cw", [(0, 0), (0, -90), (0, 180), (0, 90)]))
    cases.append(area_case("huge_triangle", [(-60, 0), (60, 120), (10, -120)]))
    cases.append(area_case("huge_triangle_cw", [(-60, 0), (10, -120), (60, 120)]))
    cases.append(area_case("tiny_metre", [(48.0, 11.0), (48.0, 11.0000134), (48.000009, 11.0000134), (48.000009, 11.0)]))
    cases.append(area_case("tiny_mm", [(-33.0, 151.0), (-33.0, 151.00000001), (-32.99999999, 151.0)]))
    cases.append(area_case("one_point", [(10, 20)]))
    cases.append(area_case("two_points", [(10, 20), (30, 40)]))
    cases.append(area_case("antimeridian", [(10, 179), (10, -179), (-10, -179), (-10, 179)]))
    cases.append(area_case("unwrapped_lons", [(10, 539), (10, 541), (-10, 541), (-10, 539)]))
    cases.append(area_case("meridian_strip", [(-89, 0), (89, 0), (89, 1), (-89, 1)]))
    cases.append(area_case("repeated_points", [(0, 0), (0, 0), (1, 0), (1, 1), (1, 1)]))
    return cases + examples("area")


def transformer(src, dst):
    return Transformer.from_crs(src, dst)  # EPSG axis order: lat, lon for 4326


def transform_case(name, src, dst, pts):
    t = transformer(src, dst)
    out = []
    for a, b in pts:
        x, y = t.transform(a, b, errcheck=True)
        out.append([x, y])
    return {"name": name, "args": {"operation": "transform", "from_crs": src, "to_crs": dst, "points": [list(p) for p in pts]},
            "facts": {"points": out}}


def utm(zone, south):
    return "EPSG:%d" % ((32700 if south else 32600) + zone)


def utm_point(zone, spread):
    cm = 6 * zone - 183
    lat = rng.uniform(-80, 84) if rng.random() < 0.8 else rng.uniform(-5, 5)
    return lat, cm + rng.uniform(-spread, spread)


def gen_transform():
    cases = []
    for i in range(300):  # geographic -> UTM, inside the zone and up to 60 degrees out
        zone = rng.randint(1, 60)
        south = rng.random() < 0.5
        spread = 3.0 if i % 3 else rng.choice((6, 15, 30, 45))
        pts = [utm_point(zone, spread) for _ in range(rng.randint(1, 4))]
        cases.append(transform_case("to_utm#%d" % i, "EPSG:4326", utm(zone, south), pts))
    for i in range(150):  # UTM -> geographic
        zone = rng.randint(1, 60)
        south = rng.random() < 0.5
        t = transformer("EPSG:4326", utm(zone, south))
        pts = [t.transform(*utm_point(zone, 3.5 if i % 4 else 40)) for _ in range(rng.randint(1, 4))]
        cases.append(transform_case("from_utm#%d" % i, utm(zone, south), "EPSG:4326", pts))
    for i in range(100):  # Web Mercator both ways
        lim = 85.0511287798
        pts = [(rng.uniform(-lim, lim), rlon()) for _ in range(rng.randint(1, 4))]
        if i % 2:
            cases.append(transform_case("to_3857#%d" % i, "EPSG:4326", "EPSG:3857", pts))
        else:
            t = transformer("EPSG:4326", "EPSG:3857")
            cases.append(transform_case("from_3857#%d" % i, "EPSG:3857", "EPSG:4326", [t.transform(*p) for p in pts]))
    for i in range(50):  # UTM <-> Web Mercator, and between zones
        zone = rng.randint(1, 60)
        p = utm_point(zone, 3)
        t = transformer("EPSG:4326", utm(zone, p[0] < 0))
        if i % 2:
            cases.append(transform_case("utm_to_3857#%d" % i, utm(zone, p[0] < 0), "EPSG:3857", [t.transform(*p)]))
        else:
            z2 = zone % 60 + 1
            cases.append(transform_case("utm_to_utm#%d" % i, utm(zone, p[0] < 0), utm(z2, p[0] < 0), [t.transform(*p)]))
    edges = [
        ("zone_edges_32", "EPSG:4326", "EPSG:32632", [(60, 6), (60, 12), (0, 6), (0, 12), (-0.0, 9), (84, 9), (-80, 9)]),
        ("zone_edges_31", "EPSG:4326", "EPSG:32631", [(60, 0), (60, 6), (78, 3), (58, 2.9)]),
        ("svalbard_zone_33", "EPSG:4326", "EPSG:32633", [(78.2, 15.6), (78.2, 9.0), (78.2, 21.0)]),
        ("south_false_northing", "EPSG:4326", "EPSG:32733", [(-33.9, 18.4), (-0.000001, 15), (0, 15), (-80, 12)]),
        ("north_zone_south_point", "EPSG:4326", "EPSG:32633", [(-10, 15)]),
        ("south_zone_north_point", "EPSG:4326", "EPSG:32733", [(10, 15)]),
        ("zone1_antimeridian", "EPSG:4326", "EPSG:32601", [(50, -180), (50, 180), (50, -177), (50, 179.5)]),
        ("zone60", "EPSG:4326", "EPSG:32760", [(-45, 177), (-45, 180), (-45, -179)]),
        ("far_from_zone_equator", "EPSG:4326", "EPSG:32632", [(0, 9 + 44.9), (0.5, 9 - 44.9), (-3, 9 + 45), (30, 9 + 45)]),
        ("far_from_zone_back", "EPSG:32632", "EPSG:4326", [transformer("EPSG:4326", "EPSG:32632").transform(0.5, 9 + 44.9)]),
        ("poles_utm", "EPSG:4326", "EPSG:32632", [(90, 9), (-90, 9), (90, 100)]),
        ("wrapped_lon_utm", "EPSG:4326", "EPSG:32632", [(45, 369), (45, -351)]),
        ("mercator_limits", "EPSG:4326", "EPSG:3857", [(85.0511287798066, 180), (-85.0511287798066, -180), (85.05, 0), (0, 0), (0, 180)]),
        ("mercator_wrapped_lon", "EPSG:4326", "EPSG:3857", [(10, 190), (10, -190), (10, 540), (10, -540), (10, 180), (10, -180), (10, 500.5), (10, -500.5)]),
        ("mercator_wrapped_x", "EPSG:3857", "EPSG:4326", [(20037508.342789244, 0), (-20037508.342789244, 0), (3e7, 1e6), (-3e7, -1e6)]),
        ("mercator_corners_back", "EPSG:3857", "EPSG:4326", [(20037508.342789244, 20037508.342789244), (-20037508.342789244, -20037508.342789244), (0, 0)]),
        ("identity_4326", "EPSG:4326", "EPSG:4326", [(12.5, 100.25), (-90, 0)]),
        ("identity_utm", "EPSG:32632", "EPSG:32632", [(500000, 5000000)]),
    ]
    for name, src, dst, pts in edges:
        cases.append(transform_case(name, src, dst, pts))
    return cases + examples("transform")


def examples(op):
    """The contract's examples of op, as oracle cases named example:<title>;
    TestGeodesicExamples checks the contract's facts against them."""
    import json
    with open("contracts/defs/geodesic.json", encoding="utf-8") as fh:
        contract = json.load(fh)
    out = []
    for ex in contract["examples"]:
        a = ex["args"]
        if a["operation"] != op:
            continue
        name = "example:" + ex["title"]
        if op == "inverse":
            out.append(inverse_case(name, a["lat1"], a["lon1"], a["lat2"], a["lon2"]))
        elif op == "direct":
            out.append(direct_case(name, a["lat1"], a["lon1"], a["azimuth1_deg"], a["distance_m"]))
        elif op == "area":
            out.append(area_case(name, [tuple(p) for p in a["points"]]))
        else:
            out.append(transform_case(name, a["from_crs"], a["to_crs"], [tuple(p) for p in a["points"]]))
    return out


def main():
    out = "tools/testdata/geodesic"
    write_json(out + "/oracle_inverse.json", doc(gen_inverse(), TOL_INVERSE))
    write_json(out + "/oracle_direct.json", doc(gen_direct(), TOL_DIRECT))
    write_json(out + "/oracle_area.json", doc(gen_area(), TOL_AREA))
    write_json(out + "/oracle_transform.json", doc(gen_transform(), TOL_TRANSFORM))


if __name__ == "__main__":
    main()
