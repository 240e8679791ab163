#!/usr/bin/python3
"""Side-by-side vectors for unit_convert, time_facts and timezone_convert: the
reference sidecar's own answers, through refrunner.py, to
tools/testdata/reference/{unit_convert,time_facts,timezone_convert}/vectors.json
(README.md here says how to run it: it needs the tzdata tree of the IANA
release precisiond embeds, given as --zoneinfo).

Two substitutions, both recorded in the versions: pint's definitions are
0.25.3's (see refrunner.load), and without the PyPI tzdata package the
reference reads zones with ZoneInfo(name) from the search path, which is set to
the given tree. Its tzdata_version then says "system-unpinned" (in production:
the PyPI package version, "2026.3").
"""
import argparse
import json
import os
import random
import re
import sys
import zoneinfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refrunner  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--zoneinfo", required=True, help="extracted tzdata tree (…/usr/share/zoneinfo) of the release precisiond embeds")
refrunner.load(ap.parse_args().zoneinfo, units=True)
GENERATOR = "tools/testdata/reference/gen_time_units.py"
ZONES = zoneinfo.available_timezones()
FOLDED = {z.casefold() for z in ZONES}


def extension_zone(z):
    """A zone spelling only precisiond resolves (another case, a fixed UTC
    offset: issue 19); the golden files test those against their own oracle."""
    return isinstance(z, str) and z not in ZONES and (z.casefold() in FOLDED or re.fullmatch(r"(?i)utc[+-]\d+", z))


def golden_args(path, every=1, locales=("de", "en")):
    """Inputs of an oracle file, every every-th case. The reference knows only
    the given locales (precisiond adds more, a documented extension tested
    elsewhere), so others become en here; cases naming a zone only precisiond
    resolves are left out."""
    with open(os.path.join(refrunner.ROOT, path), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    out = []
    for c in cases[::every]:
        a = dict(c["args"])
        if a.get("locale", "de") not in locales:
            a["locale"] = "en"
        if not any(extension_zone(a.get(k)) for k in ("timezone_name", "from_timezone", "to_timezone")):
            out.append(a)
    return out


def write(tool, groups):
    vectors = refrunner.Vectors(tool, GENERATOR)
    for group, args in groups:
        for a in args:
            vectors.add(a, group=group)
    vectors.write()


rnd = random.Random(20261201)

# --- unit_convert -------------------------------------------------------------
golden = golden_args("tools/testdata/unit_convert/oracle_table.json")
golden += golden_args("tools/testdata/unit_convert/oracle_errors.json")
values = []
for v in [100, 100.0, 1e2, 1e16, 1e-05, 2.5e-05, 12345678901234567, 12345678901234567.0, 10**25, -0, -0.0,
          0.1, 1.5, 123456789012345.6, 9007199254740993, 1e300, 5e-324]:
    values.append({"value": v, "from_unit": "km", "to_unit": "m"})
expressions = [
    {"value": 1, "from_unit": "m", "to_unit": "m"},
    {"value": 10**25, "from_unit": "m", "to_unit": "m"},
    {"value": 5, "from_unit": "1000 m", "to_unit": "km"},
    {"value": 5, "from_unit": "2*m", "to_unit": "m"},
    {"value": 5, "from_unit": "m", "to_unit": "1000 m"},
    {"value": 1, "from_unit": "3", "to_unit": "m"},
    {"value": 1, "from_unit": "%", "to_unit": "dimensionless"},
    {"value": 1, "from_unit": "percent", "to_unit": "ppm"},
    {"value": 1, "from_unit": "Nm", "to_unit": "km/kg"},
    {"value": 1, "from_unit": "N m", "to_unit": "J"},
    {"value": 60, "from_unit": "bpm", "to_unit": "Hz"},
    {"value": 100, "from_unit": "degC", "to_unit": "degF"},
    {"value": 1, "from_unit": "delta_degC", "to_unit": "delta_degF"},
    {"value": 1, "from_unit": "m", "to_unit": "s"},
    {"value": 1, "from_unit": "meter", "to_unit": "Meter"},
    {"value": 1, "from_unit": "µm", "to_unit": "nm"},
    {"value": 1, "from_unit": "μm", "to_unit": "nm"},
    {"value": 1, "from_unit": "m**0.5", "to_unit": "cm**0.5"},
    {"value": 1, "from_unit": "(m", "to_unit": "m"},
    {"value": 1, "from_unit": "", "to_unit": "m"},
    {"value": "1", "from_unit": "m", "to_unit": "km"},
    {"value": True, "from_unit": "m", "to_unit": "km"},
    {"value": 1, "from_unit": "m"},
    {"value": 1, "from_unit": "m", "to_unit": "km", "extra": 1},
]
write("unit_convert", [("golden", golden), ("value", values), ("expression", expressions)])

# --- time_facts -----------------------------------------------------------------
golden = golden_args("tools/testdata/time_facts/oracle_instants.json", 5)
golden += golden_args("tools/testdata/time_facts/oracle_allzones.json", 3)
golden += golden_args("tools/testdata/time_facts/oracle_future.json", 4)
tf = []
for inst in ["2026-07-29T12:00:00Z", "2026-07-29T12:00:00-00:00", "2026-07-29T12:00:00+05:99",
             "2026-07-29T12:00:00+23:60", "2026-07-29T12:00:00+24:00", "1900-01-01T00:00:00+01:00",
             "2100-12-31T23:00:00-02:00", "1899-12-31T23:00:00-02:00", "2101-01-01T00:30:00+01:00",
             "2026-02-29T00:00:00Z", "2026-07-29T24:00:00Z", "2026-07-29T12:00:00", "now", " 2026-07-29T12:00:00Z"]:
    tf.append({"instant": inst, "timezone_name": "Europe/Berlin"})
for zone in ["Africa/Monrovia", "Europe/Dublin", "Europe/Amsterdam", "Asia/Kolkata", "America/Caracas", "Pacific/Kiritimati"]:
    for inst in ["1900-01-01T00:00:00Z", "1915-06-01T12:00:00Z", "1930-06-01T12:00:00Z", "1960-01-01T00:00:00Z"]:
        tf.append({"instant": inst, "timezone_name": zone})
# Names that exist only in the Debian tree the runner reads (posix/..., localtime)
# or that the production reference resolves as a path inside its tzdata package
# (Europe/../UTC) would not show the production behaviour: see docs/compatibility.md.
for zone in ["Mars/Olympus_Mons", "europe/berlin", "Europe", "../etc/passwd", "Etc/GMT+5"]:
    tf.append({"instant": "2026-07-29T12:00:00Z", "timezone_name": zone})
tf += [{"instant": "2026-07-29T12:00:00Z"}, {"instant": "2026-07-29T12:00:00Z", "locale": "fr"},
       {"instant": "2026-07-29T12:00:00Z", "locale": "EN"}]
# Zone spellings precisiond resolves and the reference does not (issue 19):
# another case, fixed offsets the contract's pattern admits, each beside the id
# that answers the same (the canonical id, Etc/GMT-N, Asia/Kolkata at +05:30),
# and misspellings and forms that stay unknown.
for inst in ["2026-07-29T12:00:00Z", "2026-01-15T06:30:00+01:00"]:
    for zone in ["Europe/Berlin", "EUROPE/BERLIN", "europe/berlin", "America/New_York", "america/new_york",
                 "US/Eastern", "us/eastern", "UTC", "utc", "Etc/GMT-5", "UTC+5", "UTC+05", "UTC+0500", "Etc/GMT+3",
                 "UTC-3", "utc-0300", "Asia/Kolkata", "UTC+0530", "UTC+0000", "UTC-0", "Europe/Berln", "Berlin",
                 "GMT+5", "PST", "UTC+24", "UTC+0560"]:
        tf.append({"instant": inst, "timezone_name": zone})
write("time_facts", [("golden", golden), ("case", tf)])

# --- timezone_convert -------------------------------------------------------------
golden = golden_args("tools/testdata/timezone_convert/oracle_local.json", 4)
golden += golden_args("tools/testdata/timezone_convert/oracle_allzones.json")
golden += golden_args("tools/testdata/timezone_convert/oracle_future.json", 3)
tc = []
zones = sorted(z for z in zoneinfo.available_timezones() if z != "localtime")
for y in (2024, 2040, 2041, 2044, 2096, 2100):
    for zone in ["Europe/Berlin", "Europe/London", "America/New_York", "Australia/Sydney", "Pacific/Auckland",
                 "America/Santiago", "Australia/Lord_Howe", rnd.choice(zones)]:
        for local in [f"{y}-12-31T12:00:00", f"{y + 1}-01-01T12:00:00" if y < 2100 else f"{y}-01-01T12:00:00"]:
            tc.append({"local_datetime": local, "from_timezone": zone, "to_timezone": "UTC"})
for a in [
    {"local_datetime": "2026-10-25T02:30:00", "from_timezone": "Europe/Berlin", "to_timezone": "UTC", "fold": 1.0},
    {"local_datetime": "2026-07-29T12:00:00", "from_timezone": "Europe/Berlin", "to_timezone": "UTC", "fold": 1},
    {"local_datetime": "2026-07-29T12:00:00", "from_timezone": "Europe/Berlin", "to_timezone": "UTC", "fold": 2},
    {"local_datetime": "2026-07-29T12:00:00", "from_timezone": "Europe/Berlin", "to_timezone": "UTC", "fold": True},
    {"local_datetime": "1900-01-01T00:00:00", "from_timezone": "Europe/Berlin", "to_timezone": "Pacific/Kiritimati"},
    {"local_datetime": "2100-12-31T23:00:00", "from_timezone": "Pacific/Kiritimati", "to_timezone": "America/Adak"},
    {"local_datetime": "1910-06-01T12:00:00", "from_timezone": "Africa/Monrovia", "to_timezone": "Europe/Dublin"},
    {"local_datetime": "2026-07-29T12:00:00", "from_timezone": "Europe", "to_timezone": "UTC"},
    {"local_datetime": "2026-07-29T12:00:00Z", "from_timezone": "UTC", "to_timezone": "UTC"},
    {"local_datetime": "2026-07-29T12:00:00", "from_timezone": "UTC", "to_timezone": "UTC", "locale": "pl"},
]:
    tc.append(a)
for frm, to in [("Europe/Berlin", "America/New_York"), ("europe/berlin", "AMERICA/NEW_YORK"), ("Etc/GMT-5", "UTC"),
                ("UTC+5", "utc"), ("Asia/Kolkata", "Etc/GMT+3"), ("UTC+0530", "UTC-3"), ("Europe/Berln", "UTC"),
                ("UTC", "GMT+5")]:
    for local in ["2026-07-29T12:00:00", "2026-03-29T02:30:00", "2026-10-25T02:30:00"]:
        tc.append({"local_datetime": local, "from_timezone": frm, "to_timezone": to})
    tc.append({"local_datetime": "2026-10-25T02:30:00", "from_timezone": frm, "to_timezone": to, "fold": 1})
write("timezone_convert", [("golden", golden), ("case", tc)])
