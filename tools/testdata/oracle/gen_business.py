"""Oracle vectors of business_calendar.

Run with Debian's Python (python3-numpy, python3-holidays, python3-workalendar,
python3-dateutil):

    /usr/bin/python3 tools/testdata/oracle/gen_business.py

Writes
- internal/holidays/testdata/oracle_holidays.json: per covered country,
  subdivision and year (every year of each rule set up to 2100), the
  holiday dates and which of them are only substitute days, as
  python-holidays computes them with CORRECTIONS applied (the Debian
  package, 0.10.1, predates rules introduced since; each correction names
  its cause), and every date on which workalendar disagrees, with the cause
  from WORKALENDAR_DIFFS (an unexplained disagreement stops the generator);
- internal/holidays/testdata/oracle_easter.json: Western Easter Sunday
  1583..4099 from dateutil.easter;
- tools/testdata/business_calendar/oracle_busday.json: add_business_days and
  business_days_between as numpy.busday_offset(roll="forward") and
  numpy.busday_count compute them with the reference holidays above and the
  weekend as a weekmask (seeded random cases and edges), and refusals.
"""
import datetime as dt
import json
import os
import random
import sys

import dateutil
import holidays
import numpy
import workalendar
from dateutil.easter import EASTER_WESTERN, easter
from workalendar.registry import registry

sys.path.insert(0, os.path.dirname(__file__))
from versions import record, write_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SEED = int(os.environ.get("BUSINESS_ORACLE_SEED", "20261202"))
N_RANDOM = int(os.environ.get("BUSINESS_ORACLE_RANDOM", "700"))
rnd = random.Random(SEED)

DE_SUBS = ["BB", "BE", "BW", "BY", "HB", "HE", "HH", "MV", "NI", "NW", "RP", "SH", "SL", "SN", "ST", "TH"]
GB_SUBS = ["ENG", "NIR", "SCT", "WLS"]
CH_SUBS = ["AI", "BE", "BL", "BS", "JU", "NW", "OW", "SG", "SH", "SZ", "TG", "UR", "VD", "ZG", "ZH"]
# (country, subdivision, first year of the rule set); the last year is 2100.
CALENDARS = [("DE", None, 1991)] + [("DE", s, 1991) for s in DE_SUBS] + \
    [("GB", s, 1978) for s in GB_SUBS] + [("US", None, 1971), ("AT", None, 1967),
                                          ("BE", None, 1974), ("FR", None, 2008), ("IT", None, 2001), ("NL", None, 2014),
                                          ("ES", None, 1983), ("IE", None, 1994), ("PL", None, 1990),
                                          ("CZ", None, 2016), ("PT", None, 2016), ("LU", None, 2019),
                                          ("DK", None, 1990), ("FI", None, 1991), ("NO", None, 1990), ("SE", None, 2005)] + \
    [("CH", s, 1994) for s in CH_SUBS]
LAST = 2100
GB_TAGS = {"ENG": "England", "WLS": "Wales", "SCT": "Scotland", "NIR": "Northern Ireland"}


def d(s):
    return dt.date.fromisoformat(s)


def in_sub(sub, subs):
    return sub in subs


# Corrections of python-holidays 0.10.1 to the current rules: (country,
# predicate(sub, year), add or remove, date function of year, cause). Each is
# applied where it changes the reference and recorded where it did.
def fixed(m, day):
    return lambda y: dt.date(y, m, day)


def on(s):
    return lambda y: d(s) if d(s).year == y else None


def observed_us(f):
    def g(y):
        x = f(y)
        if x is None:
            return None
        if x.weekday() == 5:
            return x - dt.timedelta(days=1)
        if x.weekday() == 6:
            return x + dt.timedelta(days=1)
        return None
    return g


def brigid(y):
    feb1 = dt.date(y, 2, 1)
    return feb1 if feb1.weekday() == 4 else feb1 + dt.timedelta(days=(7 - feb1.weekday()) % 7)


CORRECTIONS = [
    ("DK", lambda s, y: y >= 2024, "remove", lambda y: easter(y) + dt.timedelta(days=26), "Great Prayer Day abolished from 2024 (Lov nr. 214 of 28 February 2023)"),
    ("PL", lambda s, y: y >= 2025, "add", fixed(12, 24), "Christmas Eve, a public holiday from 2025 (Act of 2024 amending the Act on public holidays)"),
    ("IE", lambda s, y: y >= 2023, "add", brigid, "St Brigid's Day from 2023: the first Monday of February, or 1 February when it is a Friday (Organisation of Working Time Act 1997, Sch. 2, amended 2022)"),
    ("IE", lambda s, y: True, "add", on("2022-03-18"), "Day of Remembrance and Recognition, 18 March 2022 (one-off public holiday, S.I. 2022)"),
    ("NL", lambda s, y: True, "add", fixed(5, 5), "Liberation Day, 5 May, is a general holiday every year (Algemene termijnenwet art. 3); python-holidays 0.10.1 lacks it, current python-holidays lists it yearly from 1990"),
    ("IT", lambda s, y: y >= 2026, "add", fixed(10, 4), "Saint Francis of Assisi Day, 4 October, a national holiday again from 2026 (Legge 1 ottobre 2025, n. 151)"),
    ("DE", lambda s, y: s == "BY", "remove", fixed(8, 15), "Bavaria: Assumption Day is a holiday only in its municipalities with a Catholic majority (Bayerisches Feiertagsgesetz Art. 1), not statewide; current python-holidays lists it under the category 'catholic', not the default public holidays"),
    ("DE", lambda s, y: s == "BE" and y >= 2019, "add", fixed(3, 8), "International Women's Day in Berlin from 2019 (Berliner Feiertagsgesetz, amended 2019)"),
    ("DE", lambda s, y: s == "MV" and y >= 2023, "add", fixed(3, 8), "International Women's Day in Mecklenburg-Vorpommern from 2023 (Feiertagsgesetz M-V, amended 2023)"),
    ("DE", lambda s, y: s == "TH" and y >= 2019, "add", fixed(9, 20), "World Children's Day in Thuringia from 2019 (Thüringer Feiertagsgesetz, amended 2019)"),
    ("DE", lambda s, y: s == "BE", "add", on("2020-05-08"), "Berlin: 8 May 2020, 75th anniversary of the liberation (one-off, law of 2019)"),
    ("DE", lambda s, y: s == "BE", "add", on("2025-05-08"), "Berlin: 8 May 2025, 80th anniversary of the liberation (one-off, law of 2024)"),
    ("DE", lambda s, y: s == "BB", "add", lambda y: easter(y), "Brandenburg: Easter Sunday is a public holiday (Feiertagsgesetz Brandenburg §2)"),
    ("DE", lambda s, y: s == "BB", "add", lambda y: easter(y) + dt.timedelta(days=49), "Brandenburg: Whit Sunday is a public holiday (Feiertagsgesetz Brandenburg §2)"),
    ("US", lambda s, y: y >= 2021, "add", fixed(6, 19), "Juneteenth National Independence Day from 2021 (Public Law 117-17)"),
    ("US", lambda s, y: y >= 2021, "add", observed_us(fixed(6, 19)), "Juneteenth observed on the Friday before / Monday after (5 U.S.C. 6103(b))"),
    ("GB", lambda s, y: True, "add", on("2022-09-19"), "State Funeral of Queen Elizabeth II, 19 September 2022 (proclamation)"),
    ("GB", lambda s, y: True, "add", on("2023-05-08"), "Coronation of Charles III, 8 May 2023 (proclamation)"),
    ("GB", lambda s, y: True, "add", on("2022-06-03"), "Platinum Jubilee, 3 June 2022 (proclamation)"),
    ("GB", lambda s, y: True, "add", on("2022-06-02"), "Spring Bank Holiday moved to 2 June 2022 (proclamation)"),
    ("GB", lambda s, y: True, "remove", on("2022-05-30"), "Spring Bank Holiday moved from 30 May 2022 (proclamation)"),
    ("GB", lambda s, y: True, "remove", on("2002-05-27"), "Spring Bank Holiday 2002 moved to 4 June (Golden Jubilee, proclamation); python-holidays 0.10.1 lists both"),
    ("GB", lambda s, y: True, "add", on("2002-06-04"), "Spring Bank Holiday 2002 moved to 4 June (Golden Jubilee, proclamation); python-holidays 0.10.1 lacks it"),
    ("GB", lambda s, y: s == "SCT" and y < 2007, "remove", fixed(11, 30), "St Andrew's Day is a Scottish bank holiday from 2007 (St Andrew's Day Bank Holiday (Scotland) Act 2007); python-holidays 0.10.1 lists it in every year"),
    ("GB", lambda s, y: s == "NIR", "add", lambda y: {5: dt.date(y, 7, 14), 6: dt.date(y, 7, 13)}.get(dt.date(y, 7, 12).weekday()), "observed: Battle of the Boyne on a weekend is substituted by the Monday after (Banking and Financial Dealings Act 1971, Sch. 1 as for Northern Ireland; gov.uk lists the substitute days); python-holidays 0.10.1 has no substitute"),
    ("GB", lambda s, y: s == "SCT" and y >= 2007, "add", lambda y: {5: dt.date(y, 12, 2), 6: dt.date(y, 12, 1)}.get(dt.date(y, 11, 30).weekday()), "observed: St Andrew's Day on a weekend is substituted by the Monday after (St Andrew's Day Bank Holiday (Scotland) Act 2007 s.1); python-holidays 0.10.1 has no substitute"),
    ("GB", lambda s, y: True, "add", on("2020-05-08"), "Early May bank holiday moved to 8 May 2020 (VE Day 75, proclamation)"),
    ("GB", lambda s, y: True, "remove", on("2020-05-04"), "Early May bank holiday moved from 4 May 2020 (proclamation)"),
]


def ph_raw(country, sub, year):
    """{date: [(name, observed)]} from python-holidays 0.10.1."""
    out = {}
    if country == "DE":
        h = holidays.DE(prov=sub, years=year) if sub else holidays.DE(years=year)
    elif country == "US":
        h = holidays.US(years=year)
    elif country == "AT":
        h = holidays.AT(years=year)
    elif country == "GB":
        h = holidays.UK(years=year)
    elif country == "CH":
        h = holidays.Switzerland(prov=sub, years=year)
    else:
        h = {"FR": holidays.France, "NL": holidays.Netherlands, "BE": holidays.Belgium, "IT": holidays.Italy,
             "ES": holidays.Spain, "IE": holidays.Ireland, "PL": holidays.Poland, "CZ": holidays.Czechia,
             "PT": holidays.Portugal, "LU": holidays.Luxembourg, "DK": holidays.Denmark, "FI": holidays.Finland,
             "NO": holidays.Norway, "SE": holidays.Sweden}[country](years=year)
        if country in ("NO", "SE"):  # python-holidays lists every Sunday unless told not to
            h = {"NO": holidays.Norway, "SE": holidays.Sweden}[country](years=year, include_sundays=False)
    for day, names in h.items():
        if day.year != year:
            continue
        for name in split_names(names):
            if country == "GB" and "[" in name:
                tags = name[name.index("[") + 1:name.index("]")]
                if GB_TAGS[sub] not in tags.split(", "):
                    continue
            out.setdefault(day, []).append("(Observed)" in name)
    return out


def split_names(names):
    # 0.10.1 joins the names of one date with ", "; a name may hold ", " itself
    # ("Martin Luther King, Jr. Day", "[England, Wales, Northern Ireland]").
    parts, cur = [], None
    for p in names.split(", "):
        if cur is not None and (p.startswith("Jr.") or cur.count("[") > cur.count("]")):
            cur += ", " + p
            continue
        if cur is not None:
            parts.append(cur)
        cur = p
    parts.append(cur)
    return parts


def wk_dates(country, sub, year):
    if country == "GB":
        if sub == "NIR":
            cls = registry.get("GB-NIR")
        elif sub in ("ENG", "WLS"):
            cls = registry.get("GB")
        else:
            return None  # workalendar's Scotland answers local holidays; not compared
    elif country in ("DE", "CH") and sub:
        cls = registry.get(country + "-" + sub)
    else:
        cls = registry.get(country)
    return {x for x, _ in cls().holidays(year) if x.year == year}  # it lists a 31 December observed in the next year too


# Dates on which workalendar 17.0.0 differs from the reference, with the cause.
def wk_cause(country, sub, year, day, ref, wk):
    easter_d = easter(year)
    md = (day.month, day.day)
    if day in wk and day not in ref:
        if country == "US" and year <= 1977 and md[0] == 11 and md[1] in (10, 11, 12):
            return "Veterans Day was the fourth Monday of October 1971-1977 (Uniform Monday Holiday Act); workalendar 17.0.0 uses 11 November"
        if country == "US" and year < 1986 and md[0] == 1:
            return "Martin Luther King Jr. Day is a federal holiday from 1986 (Public Law 98-144); workalendar 17.0.0 lists it earlier"
        if day == easter_d and not (country == "DE" and sub == "BB"):
            return "workalendar lists Easter Sunday, a Sunday that no law makes a business-day holiday here"
        if day == easter_d + dt.timedelta(days=49):
            return "workalendar lists Whit Sunday (a Sunday), not a statutory holiday here"
        if country == "DE" and sub == "BY" and (day.month, day.day) == (8, 15):
            return "Assumption Day in Bavaria is a holiday only in municipalities with a Catholic majority (Bayerisches Feiertagsgesetz Art. 1(1) Nr. 2); not statewide"
        if country == "NL" and day == easter_d - dt.timedelta(days=2):
            return "Good Friday is not a general holiday in the Netherlands (Algemene termijnenwet art. 3); workalendar 17.0.0 lists it"
        if country == "DK" and md == (12, 24):
            return "Christmas Eve is no public holiday in Denmark (Helligdagsloven); workalendar 17.0.0 lists it"
        if country == "DK" and year >= 2024 and day == easter_d + dt.timedelta(days=26):
            return "workalendar 17.0.0 predates the abolition of Great Prayer Day (2024)"
        if country == "PL" and md == (1, 6) and year < 2011:
            return "Epiphany is a Polish public holiday from 2011; workalendar 17.0.0 lists it earlier"
        if country == "IE" and day.isoformat() == "1995-05-01":
            return "workalendar 17.0.0 keeps 1 May 1995; Ireland's May Day was moved to 8 May that year (VE Day 50)"
        if country == "GB" and day.isoformat() == "1995-05-01":
            return "workalendar 17.0.0 keeps 1 May 1995; the early May bank holiday was moved to 8 May that year (VE Day 50)"
    if day in ref and day not in wk:
        if country == "DE" and sub == "TH" and md == (9, 20):
            return "workalendar 17.0.0 lacks Thuringia's World Children's Day (from 2019)"
        if country == "DE" and sub == "MV" and md == (3, 8):
            return "workalendar 17.0.0 predates Mecklenburg-Vorpommern's International Women's Day (from 2023)"
        if country == "DE" and sub == "BB" and day in (easter_d, easter_d + dt.timedelta(days=49)):
            return "workalendar 17.0.0 omits Brandenburg's Easter Sunday and Whit Sunday (Feiertagsgesetz Brandenburg §2)"
        if country == "DE" and year <= 1994 and md[0] == 11:
            return "Repentance and Prayer Day was a holiday in every Land until 1994; workalendar 17.0.0 lists it only for Saxony"
        if country == "DE" and sub == "BE" and day.isoformat() in ("2020-05-08", "2025-05-08"):
            return "workalendar 17.0.0 lacks Berlin's one-off 8 May holidays of 2020 and 2025"
        if country == "GB" and day.isoformat() == "1995-05-08":
            return "workalendar 17.0.0 lacks the 1995 move of the early May bank holiday to 8 May (VE Day 50)"
        if country == "GB" and day.isoformat() == "2023-05-08":
            return "workalendar 17.0.0 predates the Coronation bank holiday of 8 May 2023"
        if country == "US" and year <= 1977 and md[0] == 10:
            return "Veterans Day was the fourth Monday of October 1971-1977 (Uniform Monday Holiday Act); workalendar 17.0.0 uses 11 November"
        if country in ("BE", "IT", "NL") and day in (easter_d, easter_d + dt.timedelta(days=49)):
            return "Easter Sunday / Whit Sunday: listed by python-holidays (statutory holidays that fall on a Sunday); workalendar 17.0.0 omits them"
        if country == "IE" and (md[0] == 2 and year >= 2023 or day.isoformat() in ("2022-03-18", "1995-05-08")):
            return "workalendar 17.0.0 lacks St Brigid's Day (from 2023), the one-off 18 March 2022 and the 1995 move of May Day to 8 May"
        if country == "DK" and day == easter_d - dt.timedelta(days=7):
            return "Palm Sunday: listed by python-holidays as a Danish holiday (Helligdagsloven §1); workalendar 17.0.0 omits it"
        if country == "PL" and md == (12, 24) and year >= 2025:
            return "workalendar 17.0.0 predates Poland's Christmas Eve holiday (from 2025)"
        if country == "IT" and md == (10, 4):
            return "workalendar 17.0.0 predates Saint Francis of Assisi Day (from 2026)"
        if country == "US" and day.month == 6 and day.day in (18, 19, 20) and year >= 2021:
            return "workalendar 17.0.0 predates Juneteenth National Independence Day (from 2021, Public Law 117-17) and its observed days"
    return None


def reference(country, sub, year):
    raw = ph_raw(country, sub, year)
    applied = []
    for c, pred, act, f, cause in CORRECTIONS:
        if c != country or not pred(sub, year):
            continue
        x = f(year)
        if x is None or x.year != year:
            continue
        if act == "add" and x not in raw:
            raw[x] = [False] if "observed" not in cause else [True]
            applied.append({"date": x.isoformat(), "action": "add", "cause": cause})
        if act == "remove" and x in raw:
            del raw[x]
            applied.append({"date": x.isoformat(), "action": "remove", "cause": cause})
    return raw, applied


def holiday_vectors():
    cases, disagreements = [], []
    refs = {}
    for country, sub, first in CALENDARS:
        for year in range(first, LAST + 1):
            raw, applied = reference(country, sub, year)
            refs[(country, sub, year)] = set(raw)
            case = {"country": country, "subdivision": sub or "", "year": year,
                    "dates": sorted(x.isoformat() for x in raw),
                    "substitute_only": sorted(x.isoformat() for x, obs in raw.items() if all(obs))}
            if applied:
                case["corrections"] = applied
            cases.append(case)
            wk = wk_dates(country, sub, year)
            if wk is None:
                continue
            for day in sorted(set(raw) ^ wk):
                cause = wk_cause(country, sub, year, day, set(raw), wk)
                if cause is None:
                    print("unexplained workalendar disagreement", country, sub, year, day,
                          "reference" if day in raw else "workalendar", file=sys.stderr)
                    cause = "UNEXPLAINED"
                disagreements.append({"country": country, "subdivision": sub or "", "date": day.isoformat(),
                                      "in": "reference" if day in raw else "workalendar", "cause": cause})
    return cases, disagreements, refs


WEEKENDS = [[6, 7], [6, 7], [6, 7], [5, 6], [7], [6], [5, 7], [1, 2, 3], []]


def weekmask(weekend):
    return [0 if i in weekend else 1 for i in range(1, 8)]


def holiday_array(refs, country, sub, y0, y1):
    out = []
    for y in range(y0, y1 + 1):
        out.extend(refs.get((country, sub, y), ()))
    return numpy.array(sorted(out), dtype="datetime64[D]")


def busday_cases(refs):
    cases = []
    cal = [c for c in CALENDARS]

    def add(country, sub, date, days, weekend):
        first = next(f for c, s, f in CALENDARS if c == country and s == sub)
        args = {"operation": "add_business_days", "country": country, "date": date.isoformat(), "days": days}
        if sub:
            args["subdivision"] = sub
        if weekend is not None:
            args["weekend"] = weekend
        wkd = sorted(set(weekend)) if weekend is not None else [6, 7]
        y0, y1 = max(first, date.year - 6), min(LAST, date.year + 6)
        r = numpy.busday_offset(numpy.datetime64(date), days, roll="forward", weekmask=weekmask(wkd),
                                holidays=holiday_array(refs, country, sub, y0, y1))
        r = r.astype(dt.date)
        facts = {"country": country, "subdivision": sub, "weekend": wkd, "date": date.isoformat(), "days": days}
        if r.year < first or r.year > LAST:  # the walk leaves the covered years (the tool's decision)
            cases.append({"args": args, "error_code": "tool_execution_error", "reason": "year_out_of_range"})
            return
        assert y0 < r.year < y1 or r.year in (first, LAST), (args, r)
        facts["result"] = r.isoformat()
        cases.append({"args": args, "facts": facts})

    def count(country, sub, start, end, weekend):
        first = next(f for c, s, f in CALENDARS if c == country and s == sub)
        args = {"operation": "business_days_between", "country": country, "start": start.isoformat(), "end": end.isoformat()}
        if sub:
            args["subdivision"] = sub
        if weekend is not None:
            args["weekend"] = weekend
        wkd = sorted(set(weekend)) if weekend is not None else [6, 7]
        lo, hi = min(start, end), max(start, end)
        n = numpy.busday_count(numpy.datetime64(start), numpy.datetime64(end), weekmask=weekmask(wkd),
                               holidays=holiday_array(refs, country, sub, lo.year, hi.year))
        cases.append({"args": args, "facts": {"country": country, "subdivision": sub, "weekend": wkd,
                                              "start": start.isoformat(), "end": end.isoformat(), "business_days": int(n)}})

    def rand_date(first):
        return dt.date(first, 1, 1) + dt.timedelta(days=rnd.randrange((dt.date(LAST, 12, 31) - dt.date(first, 1, 1)).days + 1))

    for _ in range(N_RANDOM):
        country, sub, first = rnd.choice(cal)
        weekend = rnd.choice(WEEKENDS + [None, None])
        date = rand_date(first)
        if rnd.random() < 0.5:
            days = rnd.choice([rnd.randint(-15, 15), rnd.randint(-300, 300)])
            add(country, sub, date, days, weekend)
        else:
            end = date + dt.timedelta(days=rnd.choice([rnd.randint(-40, 40), rnd.randint(-800, 800)]))
            if end.year < first or end.year > LAST:
                continue
            count(country, sub, date, end, weekend)
    # Edges: around Christmas/New Year and Easter, substitute days, Buß- und Bettag, range ends.
    for country, sub, first in cal:
        full = sub is None or country == "GB" or (country, sub) in (("DE", "SN"), ("DE", "BY"), ("CH", "VD"))
        for y in (first, 1995, 2010, 2021, 2022, 2023, 2099, LAST) if full else (first, 2022, LAST):
            if y < first:
                continue
            e = easter(y)
            for base in (dt.date(y, 12, 19), dt.date(y, 12, 24), dt.date(y, 1, 1), e - dt.timedelta(days=3), dt.date(y, 11, 15)):
                for days in (-10, -1, 0, 1, 10):
                    add(country, sub, base, days, None)
            count(country, sub, dt.date(y, 1, 1), dt.date(y, 12, 31), None)
            count(country, sub, dt.date(y, 12, 31), dt.date(y, 1, 1), None)
            count(country, sub, dt.date(y, 11, 1), dt.date(y, 11, 30), [5, 6])
            count(country, sub, dt.date(y, 12, 20), dt.date(y, 12, 31), [7])
    # The contract's examples.
    add("DE", "BY", d("2025-12-19"), 10, None)
    add("GB", "ENG", d("2022-12-23"), 1, None)
    count("US", None, d("2026-06-01"), d("2026-07-01"), None)
    add("DE", None, d("2026-03-26"), 3, [5, 6])
    # Saturday and Sunday roll forward first, even for negative days (numpy).
    for days in (-2, -1, 0, 1):
        add("DE", "BY", d("2025-12-20"), days, None)
        add("GB", "SCT", d("2022-01-01"), days, None)
    # Refusals.
    ref = lambda args, reason: cases.append({"args": args, "error_code": "tool_execution_error", "reason": reason})
    ref({"operation": "add_business_days", "country": "DE", "date": "1990-12-31", "days": 1}, "year_out_of_range")
    ref({"operation": "add_business_days", "country": "DE", "date": "2100-12-30", "days": 5}, "year_out_of_range")
    ref({"operation": "add_business_days", "country": "US", "date": "1971-01-05", "days": -5}, "year_out_of_range")
    ref({"operation": "business_days_between", "country": "AT", "start": "1966-12-31", "end": "1967-02-01"}, "year_out_of_range")
    ref({"operation": "add_business_days", "country": "DE", "date": "2024-02-30", "days": 1}, "invalid_date")
    ref({"operation": "add_business_days", "country": "DE", "date": "24-02-03", "days": 1}, "invalid_date")
    ref({"operation": "add_business_days", "country": "XX", "date": "2024-02-03", "days": 1}, "unknown_country")
    ref({"operation": "add_business_days", "country": "de", "date": "2024-02-03", "days": 1}, "unknown_country")
    ref({"operation": "add_business_days", "country": "DE", "subdivision": "BYP", "date": "2024-02-03", "days": 1}, "unknown_subdivision")
    ref({"operation": "add_business_days", "country": "US", "subdivision": "FM", "date": "2024-02-03", "days": 1}, "unknown_subdivision")
    ref({"operation": "business_days_between", "country": "GB", "start": "2024-02-03", "end": "2024-03-01"}, "subdivision_required")
    ref({"operation": "add_business_days", "country": "DE", "date": "2024-02-03", "days": 1, "weekend": [1, 2, 3, 4, 5, 6, 7]}, "no_business_days")
    ref({"operation": "holidays", "country": "DE", "year": 1990}, "year_out_of_range")
    ref({"operation": "holidays", "country": "GB", "subdivision": "ENG", "year": 2101}, "year_out_of_range")
    return cases


def is_busday_cases(refs):
    """is_business_day as numpy.is_busday with the reference holidays; reason
    holiday when the date is a reference holiday (also on a weekend)."""
    out = []
    cal = list(CALENDARS)
    rnd = random.Random(SEED + 1)  # its own stream: the busday vectors stay as they were
    for i in range(N_RANDOM):
        country, sub, first = rnd.choice(cal)
        weekend = rnd.choice(WEEKENDS)
        year = rnd.randint(first, LAST)
        hs = sorted(refs[(country, sub, year)])
        if hs and i % 2 == 0:
            day = rnd.choice(hs)  # every other case a holiday, often on a weekend
        else:
            day = dt.date(year, 1, 1) + dt.timedelta(days=rnd.randrange(365))
            if day.year != year:
                continue
        busy = bool(numpy.is_busday(numpy.datetime64(day), weekmask=weekmask(weekend),
                                    holidays=numpy.array(hs, dtype="datetime64[D]")))
        reason = "holiday" if day in refs[(country, sub, year)] else (None if busy else "weekend")
        out.append({"country": country, "subdivision": sub or "", "weekend": weekend, "date": day.isoformat(),
                    "business_day": busy, "reason": reason})
    return out


def main():
    hol, disagreements, refs = holiday_vectors()
    write_json(os.path.join(ROOT, "internal", "holidays", "testdata", "oracle_isbusday.json"),
               {"generator": record("tools/testdata/oracle/gen_business.py", numpy, holidays, workalendar, dateutil),
                "seed": SEED, "cases": is_busday_cases(refs)})
    unexplained = [x for x in disagreements if x["cause"] == "UNEXPLAINED"]
    gen = record("tools/testdata/oracle/gen_business.py", numpy, holidays, workalendar, dateutil)
    write_json(os.path.join(ROOT, "internal", "holidays", "testdata", "oracle_holidays.json"),
               {"generator": gen, "workalendar_disagreements": disagreements, "cases": hol})
    write_json(os.path.join(ROOT, "internal", "holidays", "testdata", "oracle_easter.json"),
               {"generator": gen, "cases": [{"year": y, "easter": easter(y, EASTER_WESTERN).isoformat()} for y in range(1583, 4100)]})
    write_json(os.path.join(ROOT, "tools", "testdata", "business_calendar", "oracle_busday.json"),
               {"generator": gen, "seed": SEED, "cases": busday_cases(refs)})
    if unexplained:
        sys.exit(f"{len(unexplained)} unexplained workalendar disagreements")


main()
