"""Oracle vectors of business_calendar for the calendars checked against
current python-holidays (the Debian package that gen_business.py uses, 0.10.1,
predates most of their rules).

python-holidays is not on PyPI's reach here: take its source at the commit
recorded in HOLIDAYS_COMMIT (github.com/vacanza/holidays, MIT) and point
HOLIDAYS_SRC at it. Its version module reads the installed distribution's
metadata, so a source tree needs a small dist-info beside it, and its English
names need the translations compiled (gettext's msgfmt):

    git -C holidays archive c382fdec456ce76e03b841ab809d47e46be610a2 | tar -x -C /tmp/holidays-src
    mkdir -p /tmp/holidays-src/holidays-0.101.dev6.dist-info
    printf 'Metadata-Version: 2.1\\nName: holidays\\nVersion: 0.101.dev6+gc382fdec4\\n' \\
        > /tmp/holidays-src/holidays-0.101.dev6.dist-info/METADATA
    find /tmp/holidays-src/holidays/locale -name '*.po' -exec sh -c 'msgfmt -o "${1%.po}.mo" "$1"' _ {} \;
    HOLIDAYS_SRC=/tmp/holidays-src /usr/bin/python3 tools/testdata/oracle/gen_business_current.py GROUP

(Debian's Python for numpy; python3-dateutil is python-holidays' only
dependency.) GROUP is a key of GROUPS; each group writes its own files, so
that calendars can be added group by group:

- internal/holidays/testdata/oracle_holidays_GROUP.json: per calendar and year
  (from its first year to its last, 2100 unless a date table ends earlier) the holiday dates and which of them are only
  substitute days, as python-holidays computes them (default categories,
  English names), with CORRECTIONS applied (each names its cause);
- internal/holidays/testdata/oracle_isbusday_GROUP.json: is_business_day as
  numpy.is_busday with those holidays;
- tools/testdata/business_calendar/oracle_busday_GROUP.json: add_business_days
  and business_days_between as numpy.busday_offset(roll="forward") and
  numpy.busday_count compute them with those holidays.
"""
import datetime as dt
import os
import random
import sys
import zlib

sys.path.insert(0, os.environ.get("HOLIDAYS_SRC", ""))
import holidays  # noqa: E402
import numpy  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from versions import write_json  # noqa: E402

HOLIDAYS_COMMIT = "c382fdec456ce76e03b841ab809d47e46be610a2"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SEED = int(os.environ.get("BUSINESS_ORACLE_SEED", "20261203"))
N_RANDOM = int(os.environ.get("BUSINESS_ORACLE_RANDOM", "400"))
LAST = 2100

# GROUPS: name -> [(country, subdivision or None, first year[, last year])].
# A calendar's first year is when its current rule set starts (the tool
# refuses earlier years with year_out_of_range); its last year is LAST
# unless a date table of the law or of python-holidays ends earlier (NZ's
# Matariki, California's Diwali) or the calendar is published year by year
# (Spain's regions: the last year python-holidays has, refused after it).
US_FIRST = {s: 1986 for s in (
    "AK AL AR AS AZ CA CO CT DC DE FL GA GU HI IA ID IL IN KS KY LA MA MD ME MI MN MO MP MS MT NC ND NE NH "
    "NJ NM NV NY OH OK OR PA PR RI SC SD TN TX UM UT VA VI VT WA WI WV WY").split()}
US_FIRST.update({"AK": 1990, "CA": 2014, "CO": 2020, "DC": 2005, "DE": 2010, "FL": 2011, "GA": 2020,
                 "HI": 2011, "IL": 2008, "IN": 2015, "KS": 2013, "KY": 2013, "LA": 2008, "MD": 2008,
                 "MI": 2017, "MP": 2008, "MT": 2008, "NC": 2013, "NE": 1989, "NH": 2008, "NJ": 2008,
                 "NV": 2000, "NY": 2015, "PR": 2015, "TX": 2000, "VA": 2021, "WA": 2014, "WI": 2012,
                 "WV": 2008})
CA_FIRST = {"AB": 1990, "BC": 2023, "MB": 2024, "NB": 2018, "NL": 1983, "NS": 2015, "NT": 2022,
            "NU": 2022, "ON": 2008, "PE": 2022, "QC": 2003, "SK": 2007, "YT": 2023}
AU_FIRST = {"ACT": 2018, "NSW": 2011, "NT": 2024, "QLD": 2017, "SA": 2024, "TAS": 2011, "VIC": 2019, "WA": 2022}
# New Zealand from 2022 (Matariki, Te Kāhui o Matariki Public Holiday Act 2022) to 2052, the last
# year of the Act's table of Matariki dates. The regions with an anniversary day of their own in
# python-holidays; BOP, GIS, MWT, TAS and WKO have none there (their districts keep neighbouring
# provinces' days, which do not follow region borders) and are not covered; "South Canterbury"
# is no ISO 3166-2 code.
NZ_SUBS = "AUK CAN CIT HKB MBH NSN NTL OTA STL TKI WGN WTC".split()
US_LAST = {"CA": 2035}  # python-holidays' Diwali table (California's Diwali, AB 268) ends in 2035

GROUPS = {
    "us": [("US", s, y, US_LAST.get(s, LAST)) for s, y in sorted(US_FIRST.items())],
    "ca_au_nz": [("CA", None, 1983)] + [("CA", s, y) for s, y in sorted(CA_FIRST.items())]
    + [("AU", None, 1936)] + [("AU", s, y) for s, y in sorted(AU_FIRST.items())]
    + [("NZ", s, 2022, 2052) for s in [None] + NZ_SUBS],
    # Japan from 2007: the 2005 amendment of the National Holiday Act took
    # effect (Showa Day on 29 April, Greenery Day on 4 May, a substitute
    # holiday on the next non-holiday after a Sunday holiday, any day
    # between two holidays a holiday); later changes are rules with years.
    "jp": [("JP", None, 2007)],
    # Spain's 19 autonomous communities and cities: python-holidays has each
    # year's regional calendar (the BOE's yearly resolution and the
    # communities' decrees) from 2008, "checked with official sources for
    # 2008-2026"; 2027 is not published yet.
    "es": [("ES", s, 2008, 2026) for s in ("AN", "AR", "AS", "CB", "CE", "CL", "CM", "CN", "CT", "EX", "GA",
                                         "IB", "MC", "MD", "ML", "NC", "PV", "RI", "VC")],
    # The 11 cantons that gen_business.py's oracles (python-holidays 0.10.1,
    # workalendar) disagree on, from 1994 like the other 15 (1 August a
    # federal holiday); their rules carry no later change.
    "ch": [("CH", c, 1994) for c in ("AG", "AR", "FR", "GE", "GL", "GR", "LU", "NE", "SO", "TI", "VS")],
}

# CORRECTIONS: group -> [(country, predicate(sub, year), "add" | "remove" |
# "add_observed", date function of year, cause)] where python-holidays at
# HOLIDAYS_COMMIT differs from the law as the dataset follows it.
def nth_weekday(month, weekday, n, offset=0):
    """The n-th weekday (0 = Monday) of month, moved by offset days, as a function of the year."""
    def f(year):
        first = dt.date(year, month, 1)
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1) + offset)
    return f


CORRECTIONS = {
    "us": [
        ("US", lambda s, y: s == "VA" and y >= 2021, "add", nth_weekday(11, 0, 1, 1),
         "Election Day is a Virginia legal holiday from 2020 (Va. Code 2.2-3300 as amended by 2020 HB 108 / SB 601, "
         "which dropped Lee-Jackson Day); python-holidays drops Lee-Jackson Day but lacks Election Day"),
        ("US", lambda s, y: s == "VA", "add", nth_weekday(11, 3, 4, 1),
         "Va. Code 2.2-3300 makes the Friday after Thanksgiving a legal holiday; python-holidays lacks it for VA"),
    ],
}


def jp_equinox(year, c1980, c2100):
    """The equinox day (JST) by the approximation formula in common use in
    Japan (constants for 1980-2099 and 2100-2150)."""
    base = c1980 if year < 2100 else c2100
    return int(base + 0.242194 * (year - 1980) - int((year - 1980) / 4))


def patch_japan():
    """python-holidays' Japan ends in 2099 (end_year) and its equinox table
    assumes a leap year every fourth year, which 2100 is not. Its table
    equals the approximation formula for every year 2007-2099 (checked
    here); 2100 takes the formula's 2100-2150 constants (20 March,
    23 September), everything else is python-holidays' rules."""
    from holidays.countries.japan import Japan
    vern, aut = Japan._vernal_equinox_date, Japan._autumnal_equinox_date
    for y in range(2007, 2100):
        h = Japan(years=y, language="en_US")
        days = {n: d for d, n in h.items()}
        assert days["Vernal Equinox Day"].day == jp_equinox(y, 20.8431, 21.8510), y
        assert days["Autumnal Equinox Day"].day == jp_equinox(y, 23.2488, 24.2488), y
    Japan.end_year = 2100
    Japan._vernal_equinox_date = property(
        lambda self: (3, jp_equinox(2100, 20.8431, 21.8510)) if self._year == 2100 else vern.fget(self))
    Japan._autumnal_equinox_date = property(
        lambda self: (9, jp_equinox(2100, 23.2488, 24.2488)) if self._year == 2100 else aut.fget(self))


PATCHES = {"jp": patch_japan}


def ph_raw(country, sub, year):
    """{date: [observed?]} from python-holidays: every holiday of the default
    categories dated in year; a name that python-holidays marks as observed
    (a substitute day) counts as observed."""
    kw = {"years": year, "language": "en_US"}
    try:
        h = holidays.country_holidays(country, subdiv=sub, **kw)
    except NotImplementedError:  # a country without English names
        kw.pop("language")
        h = holidays.country_holidays(country, subdiv=sub, **kw)
    out = {}
    for day in h:
        if day.year != year:
            continue
        for name in h.get_list(day):
            out.setdefault(day, []).append(is_observed(name))
    return out


def is_observed(name):
    n = name.lower()
    return "(observed)" in n or n.startswith("observed ") or "substitute" in n


def reference(group, country, sub, year):
    raw = ph_raw(country, sub, year)
    applied = []
    for c, pred, act, f, cause in CORRECTIONS.get(group, []):
        if c != country or not pred(sub, year):
            continue
        x = f(year)
        if x is None or x.year != year:
            continue
        if act in ("add", "add_observed") and x not in raw:
            raw[x] = [act == "add_observed"]
            applied.append({"date": x.isoformat(), "action": act, "cause": cause})
        if act == "remove" and x in raw:
            del raw[x]
            applied.append({"date": x.isoformat(), "action": "remove", "cause": cause})
    return raw, applied


def weekmask(weekend):
    return [0 if i in weekend else 1 for i in range(1, 8)]


WEEKENDS = [[6, 7], [6, 7], [6, 7], [5, 6], [7], [6], [5, 7]]


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in GROUPS:
        sys.exit(f"usage: gen_business_current.py GROUP (one of {', '.join(sorted(GROUPS))})")
    group = sys.argv[1]
    cal = [c if len(c) == 4 else (*c, LAST) for c in GROUPS[group]]
    if group in PATCHES:
        PATCHES[group]()
    # A group's draws depend on its name only, so adding a group does not
    # change the vectors of the others.
    rnd = random.Random(SEED + zlib.crc32(group.encode()))
    gen = {"script": "tools/testdata/oracle/gen_business_current.py", "python": sys.version.split()[0],
           "holidays": holidays.__version__, "holidays_commit": HOLIDAYS_COMMIT, "numpy": numpy.__version__}
    refs, hol = {}, []
    for country, sub, first, last in cal:
        for year in range(first, last + 1):
            raw, applied = reference(group, country, sub, year)
            refs[(country, sub, year)] = set(raw)
            case = {"country": country, "subdivision": sub or "", "year": year,
                    "dates": sorted(x.isoformat() for x in raw),
                    "substitute_only": sorted(x.isoformat() for x, obs in raw.items() if all(obs))}
            if applied:
                case["corrections"] = applied
            hol.append(case)

    def hol_array(country, sub, first, last, y0, y1):
        out = []
        for y in range(max(first, y0), min(last, y1) + 1):
            out.extend(refs[(country, sub, y)])
        return numpy.array(sorted(out), dtype="datetime64[D]")

    isbus, busday = [], []
    for _ in range(N_RANDOM):
        country, sub, first, last = rnd.choice(cal)
        weekend = rnd.choice(WEEKENDS)
        year = rnd.randint(first, last)
        hs = sorted(refs[(country, sub, year)])
        day = rnd.choice(hs) if hs and rnd.random() < 0.5 else dt.date(year, 1, 1) + dt.timedelta(days=rnd.randrange(365))
        if day.year != year:
            continue
        busy = bool(numpy.is_busday(numpy.datetime64(day), weekmask=weekmask(weekend),
                                    holidays=numpy.array(hs, dtype="datetime64[D]")))
        reason = "holiday" if day in refs[(country, sub, year)] else (None if busy else "weekend")
        isbus.append({"country": country, "subdivision": sub or "", "weekend": weekend, "date": day.isoformat(),
                      "business_day": busy, "reason": reason})

        # one offset and one count per draw
        wkd = rnd.choice(WEEKENDS + [None])
        mask = weekmask(sorted(set(wkd)) if wkd else [6, 7])
        days = rnd.choice([rnd.randint(-15, 15), rnd.randint(-300, 300)])
        args = {"operation": "add_business_days", "country": country, "date": day.isoformat(), "days": days}
        if sub:
            args["subdivision"] = sub
        if wkd:
            args["weekend"] = wkd
        r = numpy.busday_offset(numpy.datetime64(day), days, roll="forward", weekmask=mask,
                                holidays=hol_array(country, sub, first, last, year - 3, year + 3)).astype(dt.date)
        if first < r.year < last and abs(r.year - year) < 3:
            busday.append({"args": args, "facts": {"country": country, "subdivision": sub, "weekend": sorted(set(wkd or [6, 7])),
                                                   "date": day.isoformat(), "days": days, "result": r.isoformat()}})
        end = day + dt.timedelta(days=rnd.randint(-400, 400))
        if first <= end.year <= last:
            args = {"operation": "business_days_between", "country": country, "start": day.isoformat(), "end": end.isoformat()}
            if sub:
                args["subdivision"] = sub
            n = numpy.busday_count(numpy.datetime64(day), numpy.datetime64(end), weekmask=weekmask([6, 7]),
                                   holidays=hol_array(country, sub, first, last, min(day, end).year, max(day, end).year))
            busday.append({"args": args, "facts": {"country": country, "subdivision": sub, "weekend": [6, 7],
                                                   "start": day.isoformat(), "end": end.isoformat(), "business_days": int(n)}})
    for country, sub, first, last in cal:  # the year before the first, and after the last when not 2100
        for year in [first - 1] + ([last + 1] if last < LAST else []):
            args = {"operation": "holidays", "country": country, "year": year}
            if sub:
                args["subdivision"] = sub
            busday.append({"args": args, "error_code": "tool_execution_error", "reason": "year_out_of_range"})

    write_json(os.path.join(ROOT, "internal", "holidays", "testdata", f"oracle_holidays_{group}.json"),
               {"generator": gen, "cases": hol})
    write_json(os.path.join(ROOT, "internal", "holidays", "testdata", f"oracle_isbusday_{group}.json"),
               {"generator": gen, "seed": SEED, "cases": isbus})
    write_json(os.path.join(ROOT, "tools", "testdata", "business_calendar", f"oracle_busday_{group}.json"),
               {"generator": gen, "seed": SEED, "cases": busday})


main()
