#!/usr/bin/env python3
"""Writes the oracle vectors of the plans tests (run from this directory):

cities.json   for a New York wall time, the UTC instant and, in each of 20
              cities, the local date, ISO weekday and English weekday name
              (Python zoneinfo; the zones and the date are chosen where the
              host's tzdata and the service's embedded 2026f agree).
plan_ids.json plans as a client might send them (keys in any order, params or
              args absent) and their plan_id: SHA-256 of the canonical JSON
              (json.dumps(sort_keys=True, ensure_ascii=False,
              separators=(",", ":"))) of the normalized plan, in which absent
              params and args are {}.
"""
import datetime
import hashlib
import json
import platform
import sys
import zoneinfo

WHEN = "2026-03-27T21:30:00"
FROM = "America/New_York"
CITIES = [
    "Europe/London", "Europe/Berlin", "Europe/Moscow", "Asia/Tokyo", "Asia/Kolkata",
    "Asia/Shanghai", "Asia/Singapore", "Asia/Dubai", "Australia/Sydney", "Pacific/Auckland",
    "America/Los_Angeles", "America/Chicago", "America/Sao_Paulo", "America/Mexico_City",
    "Africa/Cairo", "Africa/Lagos", "Africa/Johannesburg", "Asia/Kathmandu",
    "Pacific/Honolulu", "Pacific/Kiritimati",
]
NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

about = {
    "generator": "plans/testdata/gen_vectors.py",
    "python": platform.python_version(),
    "tzdata": open("/usr/share/zoneinfo/tzdata.zi").readline().strip().lstrip("# "),
}

local = datetime.datetime.fromisoformat(WHEN).replace(tzinfo=zoneinfo.ZoneInfo(FROM))
utc = local.astimezone(datetime.timezone.utc)
cities = []
for zone in CITIES:
    t = utc.astimezone(zoneinfo.ZoneInfo(zone))
    cities.append({
        "zone": zone,
        "date": t.date().isoformat(),
        "weekday_iso": t.isoweekday(),
        "weekday_name": NAMES[t.weekday()],
    })
with open("cities.json", "w") as f:
    json.dump({"about": about, "when": WHEN, "from_timezone": FROM,
               "utc_instant": utc.isoformat(), "cities": cities}, f, indent=1, ensure_ascii=False)
    f.write("\n")


def canonical(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def normalize(plan):
    out = {"params": plan.get("params", {}), "steps": []}
    if "description" in plan:
        out["description"] = plan["description"]
    for s in plan["steps"]:
        n = {"id": s["id"], "tool": s["tool"], "args": s.get("args", {})}
        if "contract_hash" in s:
            n["contract_hash"] = s["contract_hash"]
        out["steps"].append(n)
    return out


PLANS = [
    {"steps": [{"id": "g", "tool": "gcd_lcm", "args": {"a": 12, "b": 18}}]},
    {"steps": [{"tool": "gcd_lcm", "id": "g", "args": {"b": 18, "a": 12}}], "params": {}},
    {"description": "Wochentag in Zürich — ünïcödé", "params": {"d": {"type": "string", "default": "2026-01-01"}},
     "steps": [{"id": "w", "tool": "day_of_week", "args": {"date_str": {"$param": "d"}}}]},
    {"params": {"x": {"description": "big", "type": "integer", "default": 123456789012345678901234567890}},
     "steps": [{"id": "f", "tool": "prime_factorize", "args": {"n": {"$param": "x"}}},
               {"id": "s", "tool": "statistics_calc", "args": {"data": [1.5, 2.0, 1e-7], "operations": "mean"}}]},
    {"steps": [{"id": "n", "tool": "roman_numeral"}]},
]
vectors = [{"plan": p, "plan_id": hashlib.sha256(canonical(normalize(p))).hexdigest()} for p in PLANS]
with open("plan_ids.json", "w") as f:
    json.dump({"about": about, "vectors": vectors}, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("wrote cities.json and plan_ids.json with Python", platform.python_version(), file=sys.stderr)
