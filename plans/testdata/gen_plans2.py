#!/usr/bin/env python3
"""Writes plans2.json, the oracle of the Plans II tests (run from this
directory; docs/plans.md, "Loops, glue and output"):

note      a meeting note of 2000 words, 20 of them ISO dates (YYYY-MM-DD) in
          it, and each date in text order with its English weekday name
          (datetime.date.weekday), and its ISO week (isocalendar);
cities    "18:00 in Berlin on 24 December 2026" in 20 zones: the local
          date-time (zoneinfo), its date's ISO week and weekday;
note2, dates2, when2, cities2: the second inputs of the token benchmark
          (bench/tokens/plans2.mjs), computed the same way;
plan_ids  plans with foreach, $jmes, $item and output and their plan_id:
          SHA-256 of the canonical JSON of the normalized plan (absent params
          and args {}, a foreach step's "as" written out, "item" by default,
          "on_error" kept only when "collect");
run_hashes  run_hash = SHA-256 of canonical {"plan_id", "params", "steps"},
          a foreach step's entry being the list of its items' result hashes
          (null for a collected error).
"""
import datetime
import hashlib
import json
import platform
import random
import zoneinfo

NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WORDS = ("the team agreed to review budget plan release notes and move the launch after "
         "feedback from sales while support asked for more time before the audit so we "
         "will meet again to decide who owns each task and report progress").split()

def make_note(seed):
    rng = random.Random(seed)
    words = [rng.choice(WORDS) for _ in range(2000)]
    dates = []
    for i in sorted(rng.sample(range(2000), 20)):
        d = datetime.date(2026, 1, 1) + datetime.timedelta(days=rng.randrange(0, 730))
        dates.append(d)
        words[i] = d.isoformat() + rng.choice([",", ".", "", ":"])
    return " ".join(words), words, dates


note, words, dates = make_note(35)
note2, _, dates2 = make_note(36)  # the second input of the token benchmark

WHEN = "2026-12-24T18:00:00"
FROM = "Europe/Berlin"
CITIES = [
    "Asia/Tokyo", "Europe/London", "Europe/Berlin", "Europe/Moscow", "Asia/Kolkata",
    "Asia/Shanghai", "Asia/Singapore", "Asia/Dubai", "Australia/Sydney", "Pacific/Auckland",
    "America/Los_Angeles", "America/Chicago", "America/Sao_Paulo", "America/Mexico_City",
    "Africa/Cairo", "Africa/Lagos", "Africa/Johannesburg", "Asia/Kathmandu",
    "Pacific/Honolulu", "Pacific/Kiritimati",
]
WHEN2 = "2027-01-03T23:30:00"  # the second input of the token benchmark


def in_cities(when):
    local = datetime.datetime.fromisoformat(when).replace(tzinfo=zoneinfo.ZoneInfo(FROM))
    out = []
    for zone in CITIES:
        t = local.astimezone(zoneinfo.ZoneInfo(zone))
        iso = t.date().isocalendar()
        out.append({"zone": zone, "target_datetime": t.isoformat(), "date": t.date().isoformat(),
                    "iso_week": iso[1], "iso_week_year": iso[0], "weekday_name": NAMES[t.weekday()]})
    return out


cities = in_cities(WHEN)
cities2 = in_cities(WHEN2)

def canonical(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def normalize(plan):
    out = {"params": plan.get("params", {}), "steps": []}
    for k in ("description", "output"):
        if k in plan:
            out[k] = plan[k]
    for s in plan["steps"]:
        n = {"id": s["id"], "tool": s["tool"], "args": s.get("args", {})}
        if "contract_hash" in s:
            n["contract_hash"] = s["contract_hash"]
        if "foreach" in s:
            n["foreach"] = s["foreach"]
            n["as"] = s.get("as", "item")
            if s.get("on_error", "stop") == "collect":
                n["on_error"] = "collect"
        out["steps"].append(n)
    return out


PLANS = [
    {"steps": [{"id": "d", "tool": "calendar_facts", "foreach": {"$jmes": "`[]`"}, "args": {"date_str": {"$item": ""}}}]},
    {"steps": [{"id": "d", "tool": "calendar_facts", "foreach": {"$jmes": "`[]`"}, "as": "item", "on_error": "stop", "args": {"date_str": {"$item": ""}}}]},
    {"params": {"t": {"type": "string"}}, "output": {"$jmes": "steps.d.facts.items[*].weekday_name"},
     "steps": [{"id": "m", "tool": "regex_extract", "args": {"pattern": "\\d{4}-\\d{2}-\\d{2}", "text": {"$param": "t"}}},
               {"id": "d", "tool": "calendar_facts", "foreach": {"$ref": "m/facts/matches"}, "as": "x", "on_error": "collect",
                "args": {"date_str": {"$jmes": "x.match"}, "locale": "en"}}]},
]
plan_ids = [{"plan": p, "plan_id": hashlib.sha256(canonical(normalize(p))).hexdigest()} for p in PLANS]
H = lambda c: hashlib.sha256(c.encode()).hexdigest()
run_hashes = []
for params, steps in [
    ({"t": "2026-03-27"}, [H("a"), [H("b")]]),
    ({}, [[]]),
    ({"t": "x", "n": 1}, [H("a"), [H("b"), None, H("c")], H("d")]),
]:
    pid = plan_ids[2]["plan_id"]
    run_hashes.append({"plan_id": pid, "params": params, "steps": steps,
                       "run_hash": hashlib.sha256(canonical({"plan_id": pid, "params": params, "steps": steps})).hexdigest()})

doc = {
    "about": {"generator": "plans/testdata/gen_plans2.py", "python": platform.python_version(),
              "tzdata": open("/usr/share/zoneinfo/tzdata.zi").readline().strip().lstrip("# ")},
    "note": note,
    "note_words": len(words),
    "dates": [{"date": d.isoformat(), "weekday_name": NAMES[d.weekday()], "iso_week": d.isocalendar()[1]} for d in dates],
    "when": WHEN, "from_timezone": FROM, "cities": cities,
    "note2": note2,
    "dates2": [{"date": d.isoformat(), "weekday_name": NAMES[d.weekday()], "iso_week": d.isocalendar()[1]} for d in dates2],
    "when2": WHEN2, "cities2": cities2,
    "plan_ids": plan_ids, "run_hashes": run_hashes,
}
with open("plans2.json", "w") as f:
    json.dump(doc, f, indent=1, ensure_ascii=False)
    f.write("\n")
