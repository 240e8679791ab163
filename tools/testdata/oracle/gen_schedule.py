#!/usr/bin/python3
"""Oracle for schedule_expand: Debian's python3-croniter (cron) and
python3-dateutil (rrule) compute the naive wall times; zoneinfo, pointed at
precisiond's own pinned tz data (internal/tzdb/zoneinfo.zip, extracted to a
temporary directory), places them.

Writes tools/testdata/schedule_expand/oracle_cron.json, oracle_rrule.json and
oracle_refusals.json. Run from the repository root with Debian's interpreter:
    /usr/bin/python3 tools/testdata/oracle/gen_schedule.py
Each file records croniter's and dateutil's versions and the tzdata release.

Placement is written here from the contract, independently of the Go code:
a naive wall time w is tried with fold 0 and fold 1; if converting w with
fold 0 to UTC and back does not give w, w is in a gap (shift_forward keeps the
fold-0 instant, skip drops it); else if fold 0 and fold 1 give different
instants, w is in a fold (earlier: fold 0, later: fold 1, both: both). The
instants are sorted and deduplicated and the first count listed; wall times
are taken until one lies more than 16 hours (more than any UTC offset) past
the count-th instant, so that no later wall time can place before it.

croniter is given naive datetimes, so it computes the naive sequence only (its
DST handling applies to aware datetimes). Where croniter's day-of-month /
day-of-week rule differs from the contract's Vixie rule — croniter counts a
field as unrestricted when it expands to every value (1-31, 0-6), not when it
starts with '*', so '*/2' in a day field is restricted for croniter and not
for Vixie — the expected values come from croniter with the rule applied
through its own day_or switch: day_or=False (both fields must match) when a
day field starts with '*'; otherwise day_or=True, and both day fields read as
'*' when croniter would see either as '*' (then every day matches). Every cron case's
wall times are also computed by the rule written out directly (vixie_brute:
croniter.expand's field values, then day by day by the Vixie day rule); where
croniter alone agrees with it, croniter is the oracle (and croniter with the
day_or switch must agree too); where croniter alone differs, the expected
values come from vixie_brute and the case carries "oracle": "vixie_day_rule",
croniter_alone_differs, and croniter_day_or_agrees (whether croniter with
day_or=False, or both day fields read as '*', gives the same wall times; it
does not always: croniter 1.3.5 skips some days when both day fields must
match).
"""
import bisect
import json
import datetime as dt
import importlib.metadata
import os
import random
import signal
import sys
import tempfile
import zipfile
import zoneinfo

import dateutil
from croniter import croniter, CroniterBadDateError
from dateutil import rrule as _rrule_mod
from dateutil.rrule import rrulestr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import write_json  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
ZIP = os.path.join(ROOT, "internal", "tzdb", "zoneinfo.zip")
TMP = tempfile.mkdtemp(prefix="tzdb-")
with zipfile.ZipFile(ZIP) as z:
    z.extractall(TMP)
    TZVERSION = z.read("+VERSION").decode()
zoneinfo.reset_tzpath(to=[TMP])
UTC = dt.timezone.utc
HORIZON = 400
# no UTC offset of the tz database reaches 16 hours (the largest, local mean
# times of the 1800s, are about 15 h): a wall time w places at or after
# w - 16 h, so once w - 16 h is past the count-th instant no later wall time
# can place before it
MAXOFF = dt.timedelta(hours=16)
MAXSTEP_CASE_SECONDS = 30

GEN = {
    "script": "tools/testdata/oracle/gen_schedule.py",
    "python": sys.version.split()[0],
    "croniter": importlib.metadata.version("croniter"),
    "dateutil": dateutil.__version__,
    "tzdata": TZVERSION + " (internal/tzdb/zoneinfo.zip)",
}


def offset_text(td):
    total = int(td.total_seconds())
    sign = "+" if total >= 0 else "-"
    h, rem = divmod(abs(total), 3600)
    return f"{sign}{h:02d}:{rem // 60:02d}"


def place(w, tz, nonexistent, ambiguous):
    d0 = w.replace(tzinfo=tz, fold=0)
    d1 = w.replace(tzinfo=tz, fold=1)
    u0 = d0.astimezone(UTC)
    u1 = d1.astimezone(UTC)
    if u0.astimezone(tz).replace(tzinfo=None) != w:  # a gap
        return [] if nonexistent == "skip" else [u0]
    if u0 != u1:
        return {"earlier": [u0], "later": [u1], "both": [u0, u1]}[ambiguous]
    return [u0]


def occurrence(u, tz):
    loc = u.astimezone(tz)
    return {"local": loc.isoformat(), "utc": f"{u.year:04d}-" + u.strftime("%m-%dT%H:%M:%SZ"),
            "utc_offset": offset_text(loc.utcoffset())}


def horizon_of(start):
    return start.replace(year=start.year + HORIZON)


def facts(walls, start, tz, count, until, nonexistent, ambiguous):
    """walls: an iterator of naive wall times (increasing)."""
    hz = horizon_of(start)
    insts = []
    ended = False
    for w in walls:
        if w >= hz:
            ended = True
            break
        if until is not None and w > until:
            break
        if len(insts) >= count:
            kth = insts[count - 1]
            if w.replace(tzinfo=UTC) - MAXOFF > kth:
                break
        for u in place(w, tz, nonexistent, ambiguous):
            i = bisect.bisect_left(insts, u)
            if i == len(insts) or insts[i] != u:
                insts.insert(i, u)
    else:
        ended = True
    got = insts[:count]
    return {"occurrences": [occurrence(u, tz) for u in got], "count": len(got),
            "exhausted": ended and len(got) < count, "tzdata_version": TZVERSION}


class Slow(Exception):
    pass


def on_alarm(signum, frame):
    raise Slow()


signal.signal(signal.SIGALRM, on_alarm)

# ---------------------------------------------------------------- cron

MACROS = {"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
          "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *",
          "@hourly": "0 * * * *"}


def cron_walls(expr, start, day_or):
    it = croniter(expr, start, ret_type=dt.datetime, day_or=day_or, max_years_between_matches=HORIZON)
    while True:
        try:
            yield it.get_next(dt.datetime)
        except CroniterBadDateError:
            return


def vixie_form(expr):
    """(expression, day_or) for croniter that applies the Vixie day rule."""
    fields = MACROS.get(expr.lower(), expr).split()
    if fields[2].startswith("*") or fields[4].startswith("*"):
        return " ".join(fields), False
    expanded, _ = croniter.expand(" ".join(fields))
    if expanded[2] == ["*"] or expanded[4] == ["*"]:
        return " ".join(fields[:2] + ["*", fields[3], "*"]), False
    return " ".join(fields), True


def vixie_brute(expr, start):
    """The Vixie day rule written out directly, to check the day_or transform
    where croniter alone differs: croniter.expand gives each field's values
    (not in dispute); a day matches by month and then, if a day field's text
    starts with '*', by both day fields, else by either."""
    fields = MACROS.get(expr.lower(), expr).split()
    expanded, _ = croniter.expand(" ".join(fields))
    def values(i, lo, hi):
        return set(range(lo, hi + 1)) if expanded[i] == ["*"] else {int(v) for v in expanded[i]}
    minutes, hours, doms, months = values(0, 0, 59), values(1, 0, 23), values(2, 1, 31), values(3, 1, 12)
    dows = {v % 7 for v in values(4, 0, 6)}
    star = fields[2].startswith("*") or fields[4].startswith("*")
    day = start.date()
    end = horizon_of(start).date()
    while day <= end:
        if day.month in months:
            dom_ok, dow_ok = day.day in doms, (day.weekday() + 1) % 7 in dows
            if (dom_ok and dow_ok) if star else (dom_ok or dow_ok):
                for h in sorted(hours):
                    for m in sorted(minutes):
                        w = dt.datetime(day.year, day.month, day.day, h, m)
                        if w > start:
                            yield w
        day += dt.timedelta(days=1)


def take(gen, start, until, n):
    """The first wall times facts() could look at, for comparing oracles."""
    out = []
    hz = horizon_of(start)
    for w in gen:
        if w >= hz or (until is not None and w > until) or len(out) >= n:
            break
        out.append(w)
    return out


import time as _time
SLOW = []


def timed(f):
    def g(name, *a, **k):
        t = _time.time()
        try:
            return f(name, *a, **k)
        finally:
            d = _time.time() - t
            if d > 0.3:
                SLOW.append((round(d, 2), name, a[0]))
    return g


def cron_case(name, expr, start, zone, count=10, until=None, nonexistent="shift_forward", ambiguous="earlier", extra=None):
    s = dt.datetime.fromisoformat(start)
    u = dt.datetime.fromisoformat(until) if until else None
    tz = zoneinfo.ZoneInfo(zone)
    vexpr, day_or = vixie_form(expr)
    signal.alarm(MAXSTEP_CASE_SECONDS if name.startswith("random") else 120)
    try:
        n = 3 * count + 200
        vix = take(cron_walls(vexpr, s, day_or), s, u, n)
        brute = take(vixie_brute(expr, s), s, u, n)
        alone = take(cron_walls(expr, s, True), s, u, n) != brute
        if not alone:
            assert vix == brute, ("croniter and the Vixie rule disagree", name, expr)
            f = facts(cron_walls(vexpr, s, day_or), s, tz, count, u, nonexistent, ambiguous)
        else:
            f = facts(vixie_brute(expr, s), s, tz, count, u, nonexistent, ambiguous)
    finally:
        signal.alarm(0)
    args = {"syntax": "cron", "expression": expr, "start": start, "timezone": zone, "count": count,
            "nonexistent": nonexistent, "ambiguous": ambiguous}
    if until:
        args["until"] = until
    c = {"name": name, "args": args, "facts": f, "oracle": "vixie_day_rule" if alone else "croniter"}
    if alone:
        c["croniter_alone_differs"] = True
        # croniter with day_or switched to the Vixie reading: True when it
        # gives the same wall times (it can skip days when both day fields
        # are restricted and must both match, e.g. 2063-03-01 for
        # '56 23 */10 * */4')
        c["croniter_day_or_agrees"] = vix == brute
    if extra:
        c.update(extra)
    return c


cron_case = timed(cron_case)

# ---------------------------------------------------------------- rrule

class Horizon(Exception):
    """dateutil's iteration reached a year past the 400-year horizon."""


HZ_YEAR = [9999]
_rebuild = _rrule_mod._iterinfo.rebuild


def _bounded_rebuild(self, year, month):
    # dateutil searches a rule with no more occurrences up to year 9999; it
    # rebuilds its masks for every year (and month) it enters, so stopping
    # there once past the horizon ends the search deterministically
    if year > HZ_YEAR[0]:
        raise Horizon()
    return _rebuild(self, year, month)


_rrule_mod._iterinfo.rebuild = _bounded_rebuild


def bounded(it):
    try:
        yield from it
    except Horizon:
        return


def rrule_case(name, expr, start, zone, count=10, until=None, nonexistent="shift_forward", ambiguous="earlier"):
    s = dt.datetime.fromisoformat(start)
    u = dt.datetime.fromisoformat(until) if until else None
    tz = zoneinfo.ZoneInfo(zone)
    rule = rrulestr(expr, dtstart=s)
    HZ_YEAR[0] = s.year + HORIZON
    signal.alarm(MAXSTEP_CASE_SECONDS if name.startswith("random") else 120)
    try:
        f = facts(bounded(iter(rule)), s, tz, count, u, nonexistent, ambiguous)
    finally:
        signal.alarm(0)
    args = {"syntax": "rrule", "expression": expr, "start": start, "timezone": zone, "count": count,
            "nonexistent": nonexistent, "ambiguous": ambiguous}
    if until:
        args["until"] = until
    return {"name": name, "args": args, "facts": f, "oracle": "dateutil.rrule"}


ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "UTC", "Asia/Kolkata",
         "Europe/London", "Pacific/Chatham", "America/Santiago", "Asia/Tokyo"]
rrule_case = timed(rrule_case)
NONEX = ["shift_forward", "skip"]
AMBIG = ["earlier", "later", "both"]

# the 2026 transitions (local wall times) the hand-picked cases straddle
DST_2026 = {
    "Europe/Berlin": ["2026-03-29T00:00:00", "2026-10-25T00:00:00"],
    "America/New_York": ["2026-03-08T00:00:00", "2026-11-01T00:00:00"],
    "Australia/Lord_Howe": ["2026-04-05T00:00:00", "2026-10-04T00:00:00"],
}


def random_start(rnd):
    if rnd.random() < 0.5:
        zone = rnd.choice(list(DST_2026))
        base = dt.datetime.fromisoformat(rnd.choice(DST_2026[zone]))
        s = base + dt.timedelta(minutes=rnd.randrange(-3 * 1440, 1440))
        return zone, s.replace(second=rnd.choice([0, 0, 0, 30])).isoformat()
    zone = rnd.choice(ZONES)
    s = dt.datetime(rnd.randrange(1970, 2100), rnd.randrange(1, 13), rnd.randrange(1, 29),
                    rnd.randrange(24), rnd.randrange(60), rnd.choice([0, 0, 15]))
    return zone, s.isoformat()


MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]


def rand_case_name(rnd, names):
    n = rnd.choice(names)
    return rnd.choice([n, n.lower(), n.capitalize()])


def rand_elem(rnd, lo, hi, names=None, dow=False):
    k = rnd.random()
    def val():
        if names and rnd.random() < 0.3:
            i = rnd.randrange(len(names))
            return rand_case_name(rnd, [names[i]]), i + (0 if dow else 1)
        v = rnd.randrange(lo, hi + 1)
        return str(v), v
    if k < 0.15:
        return "*"
    if k < 0.3:
        return "*/%d" % rnd.randrange(1, min(hi - lo + 1, 20) + 1)
    if k < 0.6:
        return val()[0]
    a, av = val()
    b, bv = val()
    if av > bv:
        a, b = b, a
    if dow and b.lower() == "sun":  # SUN as a range end is 0 in Vixie, 7 for croniter
        b = "7"
    r = a + "-" + b
    if rnd.random() < 0.4:
        r += "/%d" % rnd.randrange(1, 8)
    return r


def rand_field(rnd, lo, hi, names=None, dow=False):
    n = 1 if rnd.random() < 0.7 else rnd.randrange(2, 4)
    elems = [rand_elem(rnd, lo, hi, names, dow) for _ in range(n)]
    if n > 1:
        elems = [e for e in elems if not e.startswith("*")] or ["1"]
    return ",".join(elems)


def rand_cron(rnd):
    if rnd.random() < 0.08:
        return rnd.choice(list(MACROS))
    minute = rand_field(rnd, 0, 59)
    if rnd.random() < 0.3:
        minute = str(rnd.randrange(60))
    hour = rand_field(rnd, 0, 23)
    dom = rand_field(rnd, 1, 31) if rnd.random() < 0.5 else "*"
    month = rand_field(rnd, 1, 12, MONTHS) if rnd.random() < 0.4 else "*"
    dow = rand_field(rnd, 0, 7, DAYS, dow=True) if rnd.random() < 0.5 else "*"
    return " ".join([minute, hour, dom, month, dow])


WD = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def rand_list(rnd, lo, hi, k, signed=False):
    vals = set()
    for _ in range(rnd.randrange(1, k + 1)):
        v = rnd.randrange(lo, hi + 1)
        if signed and rnd.random() < 0.3:
            v = -v
        vals.add(v)
    return ",".join(str(v) for v in sorted(vals))


def rand_rrule(rnd, start):
    freq = rnd.choices(["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"],
                       [4, 5, 4, 4, 2, 1, 1])[0]
    parts = ["FREQ=" + freq]
    if rnd.random() < 0.4:
        parts.append("INTERVAL=%d" % rnd.randrange(1, 5))
    if rnd.random() < 0.3:
        parts.append("BYMONTH=" + rand_list(rnd, 1, 12, 4))
    if freq in ("YEARLY", "MONTHLY") and rnd.random() < 0.3:
        parts.append("BYMONTHDAY=" + rand_list(rnd, 1, 31, 3, signed=True))
    if freq == "YEARLY" and rnd.random() < 0.2:
        parts.append("BYYEARDAY=" + rand_list(rnd, 1, 366, 3, signed=True))
    if freq == "YEARLY" and rnd.random() < 0.25:
        parts.append("BYWEEKNO=" + rand_list(rnd, 1, 53, 3, signed=True))
    # RFC 5545 allows these only with coarser frequencies; dateutil takes them
    # with any, and so does the tool
    if freq in ("MONTHLY", "WEEKLY", "DAILY") and rnd.random() < 0.1:
        parts.append("BYWEEKNO=" + rand_list(rnd, 1, 53, 8, signed=True))
    if freq in ("MONTHLY", "WEEKLY", "DAILY") and rnd.random() < 0.1:
        parts.append("BYYEARDAY=" + rand_list(rnd, 1, 366, 60, signed=True))
    if freq in ("WEEKLY", "DAILY") and rnd.random() < 0.1:
        parts.append("BYMONTHDAY=" + rand_list(rnd, 1, 31, 8, signed=True))
    if rnd.random() < 0.4:
        days = set()
        for _ in range(rnd.randrange(1, 4)):
            d = rnd.choice(WD)
            if freq in ("MONTHLY", "YEARLY") and rnd.random() < 0.4:
                lim = 5 if (freq == "MONTHLY" or any(p.startswith("BYMONTH=") for p in parts)) else 53
                n = rnd.randrange(1, lim + 1)
                d = ("-" if rnd.random() < 0.3 else rnd.choice(["", "+"])) + str(n) + d
            days.add(d)
        parts.append("BYDAY=" + ",".join(sorted(days)))
    if freq in ("YEARLY", "MONTHLY", "WEEKLY", "DAILY") and rnd.random() < 0.3:
        parts.append("BYHOUR=" + rand_list(rnd, 0, 23, 3))
    elif freq in ("HOURLY", "MINUTELY", "SECONDLY") and rnd.random() < 0.4:
        parts.append("BYHOUR=" + rand_list(rnd, 0, 23, 6))
    if freq in ("MINUTELY", "SECONDLY") and rnd.random() < 0.3:
        parts.append("BYSECOND=" + rand_list(rnd, 0, 59, 6))
    if rnd.random() < 0.2:
        parts.append("BYMINUTE=" + rand_list(rnd, 0, 59, 3))
    if freq in ("YEARLY", "MONTHLY", "WEEKLY", "DAILY") and rnd.random() < 0.1:
        parts.append("BYSECOND=" + rand_list(rnd, 0, 59, 2))
    if freq in ("YEARLY", "MONTHLY", "WEEKLY", "DAILY") and rnd.random() < 0.35:
        parts.append("BYSETPOS=" + rand_list(rnd, 1, 4, 2, signed=True))
    if rnd.random() < 0.25:
        parts.append("WKST=" + rnd.choice(WD))
    r = rnd.random()
    if r < 0.25:
        parts.append("COUNT=%d" % rnd.randrange(1, 15))
    elif r < 0.45:
        s = dt.datetime.fromisoformat(start)
        u = s + dt.timedelta(days=rnd.randrange(1, 900), seconds=rnd.randrange(86400))
        parts.append("UNTIL=" + (u.strftime("%Y%m%dT%H%M%S") if rnd.random() < 0.8 else u.strftime("%Y%m%d")))
    rnd.shuffle(parts)
    if rnd.random() < 0.1:
        parts = [p.lower() for p in parts]
    return ";".join(parts)


def random_args(rnd):
    zone, start = random_start(rnd)
    count = rnd.choice([1, 3, 5, 10, 10, 20, 40])
    until = None
    if rnd.random() < 0.2:
        s = dt.datetime.fromisoformat(start)
        until = (s + dt.timedelta(minutes=rnd.randrange(1, 60 * 24 * 400))).isoformat()
    return zone, start, count, until, rnd.choice(NONEX), rnd.choice(AMBIG)


EXAMPLES = [
    ("Daily 02:30 over the Berlin spring-forward night (gap shifted forward)", cron_case, "30 2 * * *", "2026-03-27T12:00:00", "Europe/Berlin", 3, None, "shift_forward", "earlier"),
    ("Hourly over the New York fall-back night, both instants of the repeated hour", cron_case, "0 * * * *", "2026-11-01T00:00:00", "America/New_York", 4, None, "shift_forward", "both"),
    ("Last weekday of each month (RRULE BYSETPOS=-1)", rrule_case, "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-01-01T09:00:00", "Europe/Berlin", 3, None, "shift_forward", "earlier"),
    ("Lord Howe's half-hour gap skipped", cron_case, "*/20 2 * * *", "2026-10-04T00:00:00", "Australia/Lord_Howe", 4, None, "skip", "earlier"),
    ("30 February never comes: exhausted", cron_case, "0 0 30 2 *", "2026-01-01T00:00:00", "UTC", 5, None, "shift_forward", "earlier"),
]


def write_examples():
    """Replaces the examples of contracts/defs/schedule_expand.json (the last
    key of the file) by oracle answers."""
    path = os.path.join(ROOT, "contracts/defs/schedule_expand.json")
    text = open(path, encoding="utf-8").read()
    head = text[:text.index('  "examples": [')]
    lines = []
    for title, fn, expr, start, zone, count, until, nx, am in EXAMPLES:
        c = fn("example", expr, start, zone, count, until, nx, am)
        lines.append("    " + json.dumps({"title": title, "args": c["args"], "facts": c["facts"]}, ensure_ascii=False))
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + '  "examples": [\n' + ",\n".join(lines) + "\n  ]\n}\n")


def main():
    rnd = random.Random(31)
    cron, rrule, refusals = [], [], []
    skipped = {"cron_slow": 0, "rrule_error": 0, "rrule_slow": 0}

    # ---- hand-picked cron edges
    for zone, days in DST_2026.items():
        for day in days:
            for expr in ["30 2 * * *", "0,15,30,45 * * * *", "*/30 1-3 * * *", "15 2 * * *", "45 1 * * *"]:
                for nx in NONEX:
                    for am in AMBIG:
                        cron.append(cron_case(f"DST {zone} {day[:10]} {expr} {nx}/{am}", expr, day, zone, 12, None, nx, am))
    hand = [
        ("macro @yearly", "@yearly", "2026-06-01T00:00:00", "Europe/Berlin"),
        ("macro @annually upper case", "@ANNUALLY", "2026-06-01T00:00:00", "Europe/Berlin"),
        ("macro @monthly", "@monthly", "2026-01-31T00:00:00", "America/New_York"),
        ("macro @weekly", "@weekly", "2026-03-01T00:00:00", "America/New_York"),
        ("macro @daily", "@daily", "2026-03-27T12:00:00", "Europe/Berlin"),
        ("macro @midnight", "@midnight", "2026-10-03T00:00:00", "Australia/Lord_Howe"),
        ("macro @hourly across the Berlin gap", "@hourly", "2026-03-29T00:30:00", "Europe/Berlin"),
        ("month and weekday names", "0 9 * jan,Mar-MAY mon-FRI", "2026-01-01T00:00:00", "Europe/Berlin"),
        ("Sunday as 0", "0 12 * * 0", "2026-05-01T00:00:00", "UTC"),
        ("Sunday as 7", "0 12 * * 7", "2026-05-01T00:00:00", "UTC"),
        ("Sunday as SUN", "0 12 * * sun", "2026-05-01T00:00:00", "UTC"),
        ("range ending in 7", "0 12 * * 5-7", "2026-05-01T00:00:00", "UTC"),
        ("both day fields restricted: either matches", "0 0 13 * FRI", "2026-01-01T00:00:00", "UTC"),
        ("both day fields restricted, lists", "0 6 1,15 * 1,3", "2026-02-01T00:00:00", "Asia/Tokyo"),
        ("*/n day-of-month is unrestricted: both must match", "0 0 */2 * 1", "2026-01-01T00:00:00", "UTC"),
        ("*/n day-of-week is unrestricted: both must match", "0 0 1-10 * */2", "2026-01-01T00:00:00", "UTC"),
        ("* day-of-week: day-of-month alone", "0 0 13 * *", "2026-01-01T00:00:00", "UTC"),
        ("1-31 is restricted for Vixie: every day matches", "0 0 1-31 * 1", "2026-01-01T00:00:00", "UTC"),
        ("0-6 is restricted for Vixie: every day matches", "0 0 13 * 0-6", "2026-01-01T00:00:00", "UTC"),
        ("strictly after start", "0 12 * * *", "2026-05-01T12:00:00", "UTC"),
        ("start with seconds", "0 12 * * *", "2026-05-01T11:59:59", "UTC"),
        ("29 February", "0 0 29 2 *", "2026-01-01T00:00:00", "Europe/Berlin"),
        ("steps with ranges", "10-50/20 8-18/5 * * *", "2026-07-01T00:00:00", "Asia/Kolkata"),
        ("Lord Howe half-hour gap", "*/10 2 * * *", "2026-10-03T12:00:00", "Australia/Lord_Howe"),
        ("Chatham 2:45 gap", "*/15 2-3 * * *", "2026-09-26T12:00:00", "Pacific/Chatham"),
        ("Santiago midnight gap", "0 0 * * *", "2026-09-04T12:00:00", "America/Santiago"),
        ("far future, POSIX rule", "30 2 * 3 0", "2390-03-20T00:00:00", "Europe/Berlin"),
        ("1900s", "0 3 * * *", "1918-04-13T00:00:00", "America/New_York"),
        ("year 0002, local mean time with seconds", "0 0 1 * *", "0002-01-01T00:00:00", "Europe/Berlin"),
        ("the last start year, up to the horizon", "0 0 31 12 *", "9598-12-31T23:59:59", "America/New_York"),
    ]
    for name, expr, start, zone in hand:
        cron.append(cron_case(name, expr, start, zone, 10))
    for am in AMBIG:
        cron.append(cron_case(f"every minute through the Berlin fold {am}", "* 2 * * *", "2026-10-25T01:58:00", "Europe/Berlin", 125, None, "shift_forward", am))
    cron.append(cron_case("until inclusive on wall time", "0 * * * *", "2026-10-25T00:00:00", "Europe/Berlin", 50, "2026-10-25T05:00:00", "shift_forward", "both"))
    cron.append(cron_case("until before the first", "0 * * * *", "2026-10-25T00:00:00", "Europe/Berlin", 50, "2026-10-25T00:59:59"))
    cron.append(cron_case("until exactly the fold hour", "0 2 * * *", "2026-10-24T00:00:00", "Europe/Berlin", 5, "2026-10-25T02:00:00", "shift_forward", "both"))
    cron.append(cron_case("30 February: no occurrence in 400 years", "0 0 30 2 *", "2026-01-01T00:00:00", "UTC", 10))
    cron.append(cron_case("31 April: none", "0 0 31 4 *", "2026-01-01T00:00:00", "Europe/Berlin", 3))
    cron.append(cron_case("29 February reaches the horizon", "0 0 29 2 *", "2026-01-01T00:00:00", "UTC", 200))
    cron.append(cron_case("count 1000 every minute", "* * * * *", "2026-03-29T00:00:00", "Europe/Berlin", 1000, None, "skip", "both"))
    # ---- random cron
    for i in range(400):
        zone, start, count, until, nx, am = random_args(rnd)
        expr = rand_cron(rnd)
        try:
            cron.append(cron_case(f"random cron #{i}", expr, start, zone, count, until, nx, am))
        except Slow:
            skipped["cron_slow"] += 1

    # ---- hand-picked rrule
    hand_r = [
        ("last weekday of the month (BYSETPOS=-1)", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-01-01T09:00:00", "Europe/Berlin", 12),
        ("second and second-last weekday (BYSETPOS)", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=2,-2", "2026-01-01T09:00:00", "America/New_York", 12),
        ("BYSETPOS over times", "FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30;BYSETPOS=1,-1", "2026-03-06T00:00:00", "America/New_York", 10),
        ("BYWEEKNO 1 with WKST", "FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO", "2020-01-01T08:00:00", "UTC", 10),
        ("BYWEEKNO 53", "FREQ=YEARLY;BYWEEKNO=53;BYDAY=TH", "2020-01-01T08:00:00", "UTC", 5),
        ("BYWEEKNO -1 WKST=SU", "FREQ=YEARLY;BYWEEKNO=-1;WKST=SU", "2020-06-01T08:00:00", "UTC", 14),
        ("BYWEEKNO 20 WKST=SU vs MO", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=SU;WKST=SU", "2026-01-01T10:00:00", "Europe/Berlin", 5),
        ("BYYEARDAY", "FREQ=YEARLY;BYYEARDAY=1,100,-1", "2026-01-01T12:00:00", "Europe/Berlin", 9),
        ("BYYEARDAY 366", "FREQ=YEARLY;BYYEARDAY=366", "2026-01-01T12:00:00", "UTC", 4),
        ("UNTIL inclusive", "FREQ=DAILY;UNTIL=20260310T090000", "2026-03-05T09:00:00", "America/New_York", 20),
        ("UNTIL as a date", "FREQ=DAILY;UNTIL=20260310", "2026-03-05T09:00:00", "America/New_York", 20),
        ("COUNT", "FREQ=WEEKLY;COUNT=4;BYDAY=SU", "2026-03-20T02:30:00", "Europe/Berlin", 10),
        ("INTERVAL", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=31", "2026-01-31T00:00:00", "UTC", 8),
        ("WKST changes biweekly", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", "1997-08-05T09:00:00", "America/New_York", 10),
        ("WKST changes biweekly (SU)", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", "1997-08-05T09:00:00", "America/New_York", 10),
        ("DTSTART not matching is not an occurrence", "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", "2026-01-01T00:00:00", "UTC", 5),
        ("nth weekday yearly with BYMONTH", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "2026-01-01T02:30:00", "Europe/Berlin", 5),
        ("nth weekday of the year", "FREQ=YEARLY;BYDAY=20MO", "2026-01-01T00:00:00", "UTC", 5),
        ("hourly through the New York gap", "FREQ=HOURLY", "2026-03-08T00:00:00", "America/New_York", 6),
        ("hourly through the New York fold, both", "FREQ=HOURLY", "2026-11-01T00:00:00", "America/New_York", 6),
        ("minutely with BYHOUR", "FREQ=MINUTELY;INTERVAL=20;BYHOUR=2", "2026-03-29T00:00:00", "Europe/Berlin", 9),
        ("secondly", "FREQ=SECONDLY;INTERVAL=17;BYMINUTE=30", "2026-10-04T01:59:00", "Australia/Lord_Howe", 10),
        ("lower case", "freq=daily;byhour=2;byminute=30", "2026-04-03T00:00:00", "Australia/Lord_Howe", 4),
        ("RRULE: prefix", "RRULE:FREQ=DAILY;COUNT=3", "2026-01-01T00:00:00", "UTC", 10),
        ("COUNT=0", "FREQ=DAILY;COUNT=0", "2026-01-01T00:00:00", "UTC", 10),
        ("BYSETPOS never in a period", "FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2", "2026-01-01T00:00:00", "UTC", 10),
        ("30 February yearly", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "2026-01-01T00:00:00", "UTC", 10),
        ("leap day yearly reaches the horizon", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "2026-01-01T00:00:00", "UTC", 200),
        ("yearly interval 400 passes the horizon", "FREQ=YEARLY;INTERVAL=400", "2026-01-01T00:00:00", "UTC", 3),
        ("last wall time before the horizon in year 9998", "FREQ=DAILY;INTERVAL=146096;BYHOUR=23;BYMINUTE=59;BYSECOND=59", "9598-12-31T23:59:59", "America/New_York", 3),
    ]
    for name, expr, start, zone, count in hand_r:
        rrule.append(rrule_case(name, expr, start, zone, count))
    for zone, days in DST_2026.items():
        for day in days:
            for nx in NONEX:
                for am in AMBIG:
                    rrule.append(rrule_case(f"DST {zone} {day[:10]} FREQ=MINUTELY;INTERVAL=15 {nx}/{am}",
                                            "FREQ=MINUTELY;INTERVAL=15", day[:11] + "01:00:00", zone, 16, None, nx, am))
    # ---- random rrule
    i = 0
    while i < 300:
        zone, start, count, until, nx, am = random_args(rnd)
        expr = rand_rrule(rnd, start)
        try:
            rrule.append(rrule_case(f"random rrule #{i}", expr, start, zone, count, until, nx, am))
        except Slow:
            skipped["rrule_slow"] += 1
            continue
        except ValueError as e:
            if "empty" not in str(e):
                skipped["rrule_error"] += 1
                continue
            # dateutil refuses a BYHOUR/BYMINUTE/BYSECOND its steps never reach
            # ("Invalid rrule byxxx generates an empty set", "... resulting in
            # empty rule"): the tool refuses it too
            args = {"syntax": "rrule", "expression": expr, "start": start, "timezone": zone, "count": count,
                    "nonexistent": nx, "ambiguous": am}
            if until:
                args["until"] = until
            rrule.append({"name": f"random rrule #{i}", "args": args, "error_code": "tool_execution_error",
                          "reason": "invalid_rrule", "oracle": "dateutil.rrule raised: " + str(e)})
        except (TypeError, IndexError):
            skipped["rrule_error"] += 1
            continue
        i += 1

    # ---- refusals: expected codes from the contract (hand-derived, not an oracle)
    def refuse(name, syntax, expr, reason, code="tool_execution_error", start="2026-01-01T00:00:00", zone="UTC", **kw):
        args = {"syntax": syntax, "expression": expr, "start": start, "timezone": zone}
        args.update(kw)
        c = {"name": name, "args": args, "error_code": code, "oracle": "contract (hand)"}
        if reason:
            c["reason"] = reason
        refusals.append(c)
    for e in ["0 0 L * *", "0 0 15W * *", "0 0 ? * MON", "0 0 * * MON#2", "0 0 * * 5L", "H H * * *", "0 0 0 1 1 * 2026", "0 0 0 * * *", "0 0 LW * *"]:
        refuse(f"Quartz/Jenkins {e}", "cron", e, "unsupported_cron_feature")
    for e in ["5/15 * * * *", "* * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "* * 32 * *", "* * * 13 *", "* * * * 8",
              "*/0 * * * *", "*/61 * * * *", "10-5 * * * *", "* * * foo *", "1,,2 * * * *", "@reboot", "* * * * * \x00",
              "-1 * * * *", "1- * * * *", "* * * * FRI-SUN"]:
        refuse(f"invalid cron {e!r}", "cron", e, "unsupported_cron_feature" if e == "@reboot" else "invalid_cron")
    refuse("huge cron expression", "cron", "1," * 511 + "1", "invalid_cron")
    refuse("cron over the schema's length", "cron", "1," * 600 + "1", None, code="input_schema_invalid")
    for e, reason in [("FREQ=YEARLY;BYEASTER=0", "unsupported_rrule_feature"), ("BYDAY=MO", "invalid_rrule"),
                      ("FREQ=DAILY;COUNT=3;UNTIL=20260301T000000", "invalid_rrule"), ("FREQ=DAILY;UNTIL=20260301T000000Z", "invalid_rrule"),
                      ("FREQ=FORTNIGHTLY", "invalid_rrule"), ("FREQ=DAILY;INTERVAL=0", "invalid_rrule"), ("FREQ=DAILY;BYHOUR=24", "invalid_rrule"),
                      ("FREQ=MONTHLY;BYMONTHDAY=0", "invalid_rrule"), ("FREQ=MONTHLY;BYMONTHDAY=32", "invalid_rrule"), ("FREQ=YEARLY;BYWEEKNO=54", "invalid_rrule"),
                      ("FREQ=YEARLY;BYYEARDAY=367", "invalid_rrule"), ("FREQ=MONTHLY;BYSETPOS=0", "invalid_rrule"), ("FREQ=MONTHLY;BYDAY=6MO", "invalid_rrule"),
                      ("FREQ=YEARLY;BYDAY=54MO", "invalid_rrule"), ("FREQ=DAILY;FREQ=DAILY", "invalid_rrule"), ("FREQ=DAILY;X-NAME=1", "invalid_rrule"),
                      ("FREQ=DAILY;BYDAY=MO(+1)", "invalid_rrule"), ("FREQ=HOURLY;INTERVAL=4;BYHOUR=2,3", "invalid_rrule"),
                      ("FREQ=DAILY;BYSECOND=60", "invalid_rrule"), ("FREQ=DAILY;;COUNT=2", "invalid_rrule"), ("FREQ=DAILY;COUNT=2\n", "invalid_rrule")]:
        refuse(f"rrule {e!r}", "rrule", e, reason)
    # dateutil would search to year 9999 for these; the contract's answer is no occurrence
    for e in ["FREQ=SECONDLY;BYSETPOS=2", "FREQ=DAILY;BYHOUR=1,2;BYSETPOS=3,-3", "FREQ=WEEKLY;BYSETPOS=8"]:
        refusals.append({"name": f"BYSETPOS beyond every period: {e}", "oracle": "contract (hand)",
                         "args": {"syntax": "rrule", "expression": e, "start": "2026-01-01T00:00:00", "timezone": "UTC"},
                         "facts": {"occurrences": [], "count": 0, "exhausted": True, "tzdata_version": TZVERSION}})
    # one occurrence a day, found second by second: 86 400 search steps each
    refuse("budget: 1000 days of SECONDLY stepping to 23:59:59", "rrule", "FREQ=SECONDLY;BYHOUR=23;BYMINUTE=59;BYSECOND=59", "schedule_budget_exceeded", code="cost_limit_exceeded", count=1000)
    refusals.append(rrule_case("within the budget: 10 days of SECONDLY stepping to 23:59:59", "FREQ=SECONDLY;BYHOUR=23;BYMINUTE=59;BYSECOND=59", "2026-03-25T00:00:00", "Europe/Berlin", 10))
    refuse("unknown zone", "cron", "* * * * *", "unknown_timezone", zone="Mars/Olympus_Mons")
    refuse("start without seconds", "cron", "* * * * *", None, code="input_schema_invalid", start="2026-01-01T00:00")
    refuse("start 31 April", "cron", "* * * * *", "invalid_datetime", start="2026-04-31T00:00:00")
    refuse("start year beyond 9598", "cron", "* * * * *", "invalid_datetime", start="9599-01-01T00:00:00")
    refuse("start year 0001 (an instant could fall in year 0)", "cron", "* * * * *", "invalid_datetime", start="0001-01-01T00:00:00", zone="Europe/Berlin")
    refuse("until year beyond 9598", "cron", "* * * * *", "invalid_datetime", until="9599-01-01T00:00:00")
    refuse("count 0", "cron", "* * * * *", None, code="input_schema_invalid", count=0)
    refuse("count 1001", "cron", "* * * * *", None, code="input_schema_invalid", count=1001)
    refuse("unknown syntax", "systemd", "daily", None, code="input_schema_invalid")

    write_examples()
    gen = dict(GEN, skipped=skipped)
    write_json(os.path.join(ROOT, "tools/testdata/schedule_expand/oracle_cron.json"), {"generator": gen, "cases": cron})
    write_json(os.path.join(ROOT, "tools/testdata/schedule_expand/oracle_rrule.json"), {"generator": gen, "cases": rrule})
    write_json(os.path.join(ROOT, "tools/testdata/schedule_expand/oracle_refusals.json"), {"generator": gen, "cases": refusals})
    print("skipped", skipped, file=sys.stderr)
    for x in sorted(SLOW)[-30:]:
        print(x, file=sys.stderr)


if __name__ == "__main__":
    main()
