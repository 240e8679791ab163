#!/usr/bin/python3
"""Side-by-side vectors for calendar_facts: the reference sidecar's own answers,
through refrunner.py, to tools/testdata/reference/calendar_facts/vectors.json
(README.md here says how to run it).

calendar_facts reads no zone data and no pint; the inputs cover both locales
the reference knows (de, en) and the six it does not, the year bounds
(0001, 9999, 0000), leap-year rules (every 4th year, centuries, every 400th),
invalid dates, every 28 December to 4 January window of 28 consecutive years
(all 14 kinds of year, so every ISO week-53 and week-1 edge), every weekday
and month, random dates over the whole range, and strings the schema pattern
refuses or, under Python's re, does not (Unicode digits: \d is any decimal
digit; a newline before the end: $ matches there).
"""
import calendar
import datetime
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refrunner  # noqa: E402

refrunner.load()
vectors = refrunner.Vectors("calendar_facts", "tools/testdata/reference/gen_calendar.py")
rnd = random.Random(20261202)
group = "bounds"


def add(date_str, locale=None):
    a = {"date_str": date_str}
    if locale is not None:
        a["locale"] = locale
    vectors.add(a, group=group)


def both(date_str):
    add(date_str)  # the default locale, de
    add(date_str, "en")


# Year bounds and year 0.
for d in ["0001-01-01", "0001-01-07", "0001-12-31", "9999-01-01", "9999-12-31", "9999-12-27",
          "0000-01-01", "0000-12-31", "0000-02-29"]:
    both(d)

group = "leap"
# Leap-year rules: 28 and 29 February, 1 March, 31 December.
for y in [4, 100, 200, 400, 1582, 1600, 1700, 1800, 1900, 1996, 2000, 2001, 2023, 2024, 2100, 2400, 9996, 9999]:
    for md in ["02-28", "02-29", "03-01", "12-31"]:
        add(f"{y:04d}-{md}", rnd.choice(["de", "en", None]))

group = "isoweek"
# ISO week edges: 28 December to 4 January of 28 consecutive years.
for y in range(2015, 2043):
    for day in range(28, 32):
        add(f"{y:04d}-12-{day:02d}", "en" if day % 2 else None)
    for day in range(1, 5):
        add(f"{y + 1:04d}-01-{day:02d}", "en" if day % 2 else None)

group = "names"
# Every weekday name and month name in both locales; first and last of every month.
for m in range(1, 13):
    for y in (2023, 2024):
        last = calendar.monthrange(y, m)[1]
        add(f"{y}-{m:02d}-01", "en" if y == 2024 else None)
        add(f"{y}-{m:02d}-{last:02d}", "de" if y == 2024 else "en")
for d in range(1, 8):
    both(f"2026-06-{d:02d}")

group = "random"
# Random dates over the whole range.
lo, hi = datetime.date(1, 1, 1).toordinal(), datetime.date(9999, 12, 31).toordinal()
for _ in range(200):
    add(datetime.date.fromordinal(rnd.randint(lo, hi)).isoformat(), rnd.choice(["de", "en", None]))

group = "impossible"
# Impossible dates the pattern lets through.
for d in ["2023-02-29", "1900-02-29", "2100-02-29", "2024-02-30", "2026-04-31", "2026-06-31", "2026-09-31",
          "2026-11-31", "2026-01-32", "2026-13-01", "2026-00-10", "2026-01-00", "2026-99-99", "0000-00-00"]:
    both(d)

group = "pattern"
# Strings the pattern refuses, or (Python's re: Unicode \d, $ before a final
# newline) accepts.
for s in ["2026-1-01", "2026-01-1", "26-01-01", "2026/01/01", "20260101", "2026-01-01T00:00:00", "10000-01-01",
          "-001-01-01", "+2026-01-01", "today", "heute", "", " 2026-01-01", "2026-01-01 ", "2026-01-01\n",
          "2026-02-29\n", "2026-01-01\n\n", "\n2026-01-01", "2026-01-01\r", "29.02.2024",
          "\uff12\uff10\uff12\uff16-\uff10\uff11-\uff10\uff11",  # fullwidth digits
          "\u0662\u0660\u0662\u0664-\u0660\u0662-\u0662\u0669",  # Arabic-Indic digits, 2024-02-29
          "\u0968\u0966\u0968\u0969-\u0966\u0968-\u0968\u096f",  # Devanagari digits, 2023-02-29
          "1\u0669\u0669\u0669-12-31", "2026-01-1\u0665", "2024-02-2\u0669", "2026-0\u0661-01"]:
    add(s)

group = "locale"
# Locales the reference does not know (precisiond names six of them), and
# spellings its enum refuses before the function's casefold could read them.
for loc in ["fr", "es", "it", "nl", "pt", "pl"]:
    for d in ["2026-07-29", "2024-02-29", "2021-01-01", "2026-12-27"]:
        add(d, loc)
for loc in ["DE", "En", " en", "en ", "de-DE", "en_US", "", "xx", "ru"]:
    add("2026-07-29", loc)

group = "types"
# Wrong types, missing and extra arguments.
for a in [{"date_str": 20260729}, {"date_str": None}, {"date_str": ["2026-07-29"]}, {},
          {"date_str": "2026-07-29", "locale": None}, {"date_str": "2026-07-29", "locale": 1},
          {"date_str": "2026-07-29", "extra": 1}, {"locale": "en"}]:
    vectors.add(a, group=group)
vectors.write()
