#!/usr/bin/env python3
"""Writes plans2.json, the oracle of the Plans II tests (run from this
directory; docs/plans.md, "Loops, glue and output"):

note      a meeting note of 2000 words, 20 of them ISO dates (YYYY-MM-DD) in
          it, and each date in text order with its English weekday name
          (datetime.date.weekday), and its ISO week (isocalendar);
cities    "18:00 in Berlin on 24 December 2026" in 20 zones: the local
          date-time (zoneinfo), its date's ISO week and weekday;
note2, dates2, when2, cities2: the second inputs of the token benchmark
          (bench/tokens/plans2.mjs), computed the same way.
"""
import datetime
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
}
with open("plans2.json", "w") as f:
    json.dump(doc, f, indent=1, ensure_ascii=False)
    f.write("\n")
