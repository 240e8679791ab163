#!/usr/bin/env python3
"""Writes contracts/defs/{calendar_facts,day_of_week,time_facts,timezone_convert,
date_diff,date_add}.json: schemas, descriptions and examples whose facts come from
the oracle functions of gen_time.py (which it runs, regenerating the vectors).

    python3 tools/testdata/oracle/gen_time_contracts.py --zoneinfo /tmp/tz/usr/share/zoneinfo --cldr /tmp/cldr/package
"""
import json, runpy, sys, os
from datetime import date
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.argv = [os.path.join(HERE, "gen_time.py")] + sys.argv[1:]
G = runpy.run_path(os.path.join(HERE, "gen_time.py"))
TZV = G["TZVERSION"]
cal, tf, cv, diff = G["calendar_facts"], G["time_facts"], G["convert_facts"], G["diff_facts"]
from dateutil.relativedelta import relativedelta
EN = G["NAMES"]["en"]["weekdays"]

def add_facts(base, years=0, months=0, weeks=0, days=0):
    b = date.fromisoformat(base)
    r = b + relativedelta(years=years, months=months, weeks=weeks, days=days)
    return {"base_date": base, "years": years, "months": months, "weeks": weeks, "days": days,
            "result_date": r.isoformat(), "weekday_iso": r.isoweekday(), "weekday_name": EN[r.isoweekday()-1],
            "total_days": (r - b).days}

LOC = ["de", "en", "fr", "es", "it", "nl", "pt", "pl"]
DATE_PAT = r"^\d{4}-\d{2}-\d{2}$"
INSTANT_PAT = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$"
LOCAL_PAT = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"
ZONE_PAT = r"^[A-Za-z][A-Za-z0-9._+-]*(?:/[A-Za-z0-9._+-]+)*$"
OFF_PAT = r"^[+-]\d{2}:\d{2}(?::\d{2})?$"
DT_OFF_PAT = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}(?::\d{2})?$"
CAL_SRC = {"kind": "go_stdlib", "name": "precisiond internal/calendar"}
TZ_SRC = {"kind": "iana_tzdata", "name": "tzdata", "version": TZV}

def S(t, d, **kw):
    x = {"type": t, "description": d}; x.update(kw); return x

locale_in = S("string", "Language of weekday and month names: de (default, as the reference), en, fr, es, it, nl, pt, pl. Names are CLDR 45 stand-alone wide forms, written as CLDR writes them (lower case in fr, es, it, nl, pt, pl).", enum=LOC, default="de")
locale_out = S("string", "The locale used for names.", enum=LOC)
date_in = lambda d: S("string", d, pattern=DATE_PAT)
zone_in = lambda d, **kw: S("string", d, pattern=ZONE_PAT, maxLength=128, **kw)

def contract(tool, title, desc, det, src, limits, inp, req, out, examples):
    return {"tool": tool, "contract_version": "1.0.0", "title": title, "description": desc,
            "determinism": det, "source_policy": src, "access_kind": "read", "evidence_policy": {},
            "limits": limits,
            "inputSchema": {"type": "object", "additionalProperties": False, "required": req, "properties": inp},
            "outputSchema": {"type": "object", "additionalProperties": False, "required": list(out), "properties": out},
            "examples": examples}

cal_out = {
    "calendar_system": S("string", "Always proleptic_gregorian: the Gregorian rules extended to every year 1..9999.", enum=["proleptic_gregorian"]),
    "date": S("string", "The date, YYYY-MM-DD.", pattern=DATE_PAT),
    "day": S("integer", "Day of the month, 1..31.", minimum=1, maximum=31),
    "day_of_year": S("integer", "Ordinal day of the year, 1..366.", minimum=1, maximum=366),
    "days_in_month": S("integer", "Number of days of the date's month, 28..31.", minimum=28, maximum=31),
    "days_in_year": S("integer", "365, or 366 in a leap year.", enum=[365, 366]),
    "is_leap_year": S("boolean", "Gregorian leap year: divisible by 4, except centuries not divisible by 400."),
    "is_weekend": S("boolean", "Saturday or Sunday."),
    "iso_week": S("integer", "ISO 8601 week number, 1..53 (weeks start on Monday; week 1 contains the year's first Thursday).", minimum=1, maximum=53),
    "iso_week_year": S("integer", "ISO 8601 week-numbering year; differs from year near 1 January (2021-01-01 is in week 53 of 2020)."),
    "locale": locale_out,
    "month": S("integer", "Month, 1..12.", minimum=1, maximum=12),
    "month_name": S("string", "Month name in the locale (CLDR stand-alone wide)."),
    "quarter": S("integer", "Calendar quarter, 1..4.", minimum=1, maximum=4),
    "weekday_iso": S("integer", "ISO weekday, 1 = Monday … 7 = Sunday.", minimum=1, maximum=7),
    "weekday_name": S("string", "Weekday name in the locale (CLDR stand-alone wide)."),
    "year": S("integer", "Year, 1..9999.", minimum=1, maximum=9999),
}
C = {}
C["calendar_facts"] = contract("calendar_facts", "Calendar facts of a date",
    "Facts about one proleptic-Gregorian date (years 0001..9999): weekday, ISO 8601 week and week-year, day of year, quarter, month length, leap year, weekend, and localized weekday and month names. Only the exact form YYYY-MM-DD is accepted; relative words ('today') and other formats ('29.02.2024') are refused by the schema, impossible dates (2023-02-29, 0000-01-01) with reason invalid_date. No clock is read.",
    "input_only", CAL_SRC, {"max_result_chars": 65536, "year_min": 1, "year_max": 9999},
    {"date_str": date_in("The date, exactly YYYY-MM-DD (proleptic Gregorian, year 0001..9999)."), "locale": locale_in},
    ["date_str"], cal_out,
    [{"title": "A Wednesday in summer (German names)", "args": {"date_str": "2026-07-29"}, "facts": cal(date(2026, 7, 29), "de")},
     {"title": "New Year 2021 is in ISO week 53 of 2020", "args": {"date_str": "2021-01-01", "locale": "en"}, "facts": cal(date(2021, 1, 1), "en")},
     {"title": "A leap day, French names", "args": {"date_str": "2024-02-29", "locale": "fr"}, "facts": cal(date(2024, 2, 29), "fr")}])

dow_keys = ["date", "weekday_iso", "weekday_name", "iso_week", "day_of_year", "year"]
def dowf(d):
    f = cal(d, "en"); return {k: f[k] for k in dow_keys}
dow_out = {k: dict(cal_out[k]) for k in dow_keys}
dow_out["weekday_name"] = S("string", "English weekday name (Monday … Sunday).", enum=EN)
C["day_of_week"] = contract("day_of_week", "Weekday of a date",
    "The weekday of a proleptic-Gregorian date (YYYY-MM-DD, years 0001..9999) with its ISO week number and day of the year; English names. The same values as calendar_facts with locale en. Impossible dates are refused with reason invalid_date.",
    "input_only", CAL_SRC, {"max_result_chars": 65536, "year_min": 1, "year_max": 9999},
    {"date_str": date_in("The date, exactly YYYY-MM-DD.")}, ["date_str"], dow_out,
    [{"title": "New Year 2021", "args": {"date_str": "2021-01-01"}, "facts": dowf(date(2021, 1, 1))},
     {"title": "A Wednesday", "args": {"date_str": "2026-07-29"}, "facts": dowf(date(2026, 7, 29))}])

tf_out = {
    "input_instant": S("string", "The instant as given."),
    "utc_instant": S("string", "The instant in UTC, YYYY-MM-DDTHH:MM:SS+00:00.", pattern=DT_OFF_PAT),
    "as_of": S("string", "Equal to utc_instant: the instant these facts describe.", pattern=DT_OFF_PAT),
    "timezone": S("string", "The IANA zone id."),
    "local_datetime": S("string", "Local wall time with its offset, YYYY-MM-DDTHH:MM:SS±HH:MM (±HH:MM:SS for historical offsets with seconds, as Python's isoformat).", pattern=DT_OFF_PAT),
    "utc_offset": S("string", "Offset from UTC, ±HH:MM (UTC is +00:00; ±HH:MM:SS when the offset has seconds).", pattern=OFF_PAT),
    "utc_offset_seconds": S("integer", "Offset from UTC in seconds, east positive."),
    "timezone_abbreviation": S("string", "The zone's abbreviation at that instant (Python tzname()), e.g. CEST, EST, +0530 style numeric names like -03."),
    "is_dst": S("boolean", "Daylight saving time in effect (Python bool(dst()))."),
    "fold": S("integer", "PEP 495 fold of the local wall time: 1 on the second pass through a repeated hour, else 0.", enum=[0, 1]),
    "tzdata_version": S("string", "IANA tzdata release of the embedded data, e.g. " + TZV + "."),
    "date": S("string", "Local date, YYYY-MM-DD.", pattern=DATE_PAT),
    "time": S("string", "Local time, HH:MM:SS.", pattern=r"^\d{2}:\d{2}:\d{2}$"),
    "weekday_iso": S("integer", "Local ISO weekday, 1 = Monday … 7 = Sunday.", minimum=1, maximum=7),
    "weekday_name": S("string", "Local weekday name in the locale."),
    "iso_week": S("integer", "ISO week of the local date.", minimum=1, maximum=53),
    "iso_week_year": S("integer", "ISO week-numbering year of the local date."),
    "locale": locale_out,
}
TZ_LIM = {"max_result_chars": 8192, "year_min": 1900, "year_max": 2100, "max_timezone_name_length": 128}
C["time_facts"] = contract("time_facts", "An instant in a time zone",
    "Describes an absolute instant (YYYY-MM-DDTHH:MM:SS with Z or ±HH:MM; no fractions, no relative words such as 'now', no naive times) in an IANA time zone: the UTC instant, local wall time, offset, abbreviation, DST flag, PEP 495 fold, local date, weekday and ISO week. Both the year as written and the UTC year must lie in 1900..2100 (reason year_out_of_range). Time-zone data is the IANA release " + TZV + " embedded in the service (never the host's); unknown or path-like zone names are refused (reason unknown_timezone). Impossible fields (2026-02-29, 24:00:00, offset +24:00) are refused with reason invalid_datetime.",
    "source_versioned", TZ_SRC, TZ_LIM,
    {"instant": S("string", "An absolute instant: YYYY-MM-DDTHH:MM:SS followed by Z or ±HH:MM; years 1900..2100.", pattern=INSTANT_PAT),
     "timezone_name": zone_in("IANA time-zone id, e.g. Europe/Berlin, America/New_York, UTC (case-sensitive).", default="UTC"),
     "locale": locale_in}, ["instant"], tf_out,
    [{"title": "Summer afternoon in Berlin", "args": {"instant": "2026-07-29T12:00:00Z", "timezone_name": "Europe/Berlin"}, "facts": tf("2026-07-29T12:00:00Z", "Europe/Berlin", "de")},
     {"title": "The repeated hour after the autumn change (fold 1)", "args": {"instant": "2026-10-25T01:30:00Z", "timezone_name": "Europe/Berlin", "locale": "en"}, "facts": tf("2026-10-25T01:30:00Z", "Europe/Berlin", "en")},
     {"title": "Lord Howe Island's half-hour daylight saving", "args": {"instant": "2026-01-15T00:00:00+00:00", "timezone_name": "Australia/Lord_Howe", "locale": "en"}, "facts": tf("2026-01-15T00:00:00+00:00", "Australia/Lord_Howe", "en")}])

cv_out = {
    "input_local_datetime": S("string", "The local wall time as given."),
    "from_timezone": S("string", "Source IANA zone."),
    "to_timezone": S("string", "Target IANA zone."),
    "fold": S("integer", "The fold used: the given fold for an ambiguous time, 0 otherwise (fold is ignored for unambiguous times).", enum=[0, 1]),
    "ambiguous": S("boolean", "The local time occurs twice in the source zone (clocks were set back)."),
    "source_datetime": S("string", "The local time with the source offset.", pattern=DT_OFF_PAT),
    "source_utc_offset": S("string", "Source offset, ±HH:MM.", pattern=OFF_PAT),
    "source_is_dst": S("boolean", "DST in effect in the source zone."),
    "utc_instant": S("string", "The instant in UTC, YYYY-MM-DDTHH:MM:SS+00:00.", pattern=DT_OFF_PAT),
    "as_of": S("string", "Equal to utc_instant.", pattern=DT_OFF_PAT),
    "target_datetime": S("string", "The instant as wall time in the target zone, with offset.", pattern=DT_OFF_PAT),
    "target_utc_offset": S("string", "Target offset, ±HH:MM.", pattern=OFF_PAT),
    "target_is_dst": S("boolean", "DST in effect in the target zone."),
    "target_fold": S("integer", "PEP 495 fold of the target wall time (1 on the second pass through a repeated hour).", enum=[0, 1]),
    "locale": locale_out,
    "tzdata_version": S("string", "IANA tzdata release of the embedded data."),
}
C["timezone_convert"] = contract("timezone_convert", "Convert a local time between time zones",
    "Interprets a naive local wall time (YYYY-MM-DDTHH:MM:SS, no offset; years 1900..2100) in from_timezone and expresses that instant in to_timezone, with PEP 495 semantics. A time that does not exist because clocks were set forward is refused with reason nonexistent_local_time_gap; a time that occurs twice (clocks set back) needs fold 0 (the earlier instant) or 1 (the later), otherwise reason ambiguous_local_time_fold_required; for every other time fold is ignored. Time-zone data is the IANA release " + TZV + " embedded in the service (never the host's); unknown or path-like zone names are refused (reason unknown_timezone).",
    "source_versioned", TZ_SRC, TZ_LIM,
    {"local_datetime": S("string", "Naive local wall time, exactly YYYY-MM-DDTHH:MM:SS; years 1900..2100.", pattern=LOCAL_PAT),
     "from_timezone": zone_in("IANA zone the wall time is read in, e.g. Europe/Berlin."),
     "to_timezone": zone_in("IANA zone to express the instant in, e.g. UTC."),
     "fold": {"type": ["integer", "null"], "enum": [0, 1, None], "default": None, "description": "For a wall time that occurs twice: 0 = first (earlier) occurrence, 1 = second. Required there, ignored elsewhere."},
     "locale": locale_in}, ["local_datetime", "from_timezone", "to_timezone"], cv_out,
    [{"title": "Repeated hour in Berlin, first occurrence", "args": {"local_datetime": "2026-10-25T02:30:00", "from_timezone": "Europe/Berlin", "to_timezone": "UTC", "fold": 0}, "facts": cv("2026-10-25T02:30:00", "Europe/Berlin", "UTC", 0, "de")},
     {"title": "Repeated hour in Berlin, second occurrence", "args": {"local_datetime": "2026-10-25T02:30:00", "from_timezone": "Europe/Berlin", "to_timezone": "UTC", "fold": 1}, "facts": cv("2026-10-25T02:30:00", "Europe/Berlin", "UTC", 1, "de")},
     {"title": "Berlin to New York", "args": {"local_datetime": "2026-07-29T14:00:00", "from_timezone": "Europe/Berlin", "to_timezone": "America/New_York", "locale": "en"}, "facts": cv("2026-07-29T14:00:00", "Europe/Berlin", "America/New_York", None, "en")}])

DATE_LIM = {"max_result_chars": 65536, "year_min": 1, "year_max": 9999}
C["date_diff"] = contract("date_diff", "Difference between two dates",
    "The difference between two proleptic-Gregorian dates (YYYY-MM-DD, years 0001..9999), independent of their order: start is the earlier, end the later date. years/months/days is the calendar delta with python-dateutil relativedelta semantics (whole months are counted while start + months, clamped to the month's end, does not pass end; 2024-01-31 → 2024-03-01 is 0 years 1 month 1 day), total_days the exact day count, total_weeks and remainder_days its split into whole weeks, business_days the Monday–Friday days from start (inclusive) to end (exclusive); no holidays.",
    "input_only", CAL_SRC, DATE_LIM,
    {"date1": date_in("First date, YYYY-MM-DD."), "date2": date_in("Second date, YYYY-MM-DD (may be earlier than date1).")},
    ["date1", "date2"],
    {"start": S("string", "The earlier date.", pattern=DATE_PAT), "end": S("string", "The later date.", pattern=DATE_PAT),
     "total_days": S("integer", "end − start in days, ≥ 0.", minimum=0),
     "years": S("integer", "Whole years of the calendar delta.", minimum=0),
     "months": S("integer", "Whole months beyond the years, 0..11.", minimum=0, maximum=11),
     "days": S("integer", "Days beyond the years and months, 0..30.", minimum=0, maximum=30),
     "total_weeks": S("integer", "Whole weeks in total_days (total_days // 7).", minimum=0),
     "remainder_days": S("integer", "total_days % 7.", minimum=0, maximum=6),
     "business_days": S("integer", "Monday–Friday dates d with start ≤ d < end.", minimum=0)},
    [{"title": "Month-end to next month", "args": {"date1": "2024-01-31", "date2": "2024-03-01"}, "facts": diff(date(2024, 1, 31), date(2024, 3, 1))},
     {"title": "Order does not matter", "args": {"date1": "2026-11-30", "date2": "2024-02-29"}, "facts": diff(date(2026, 11, 30), date(2024, 2, 29))}])

AMT = lambda d, lim: {"type": "integer", "minimum": -lim, "maximum": lim, "default": 0, "description": d}
C["date_add"] = contract("date_add", "Add years, months, weeks and days to a date",
    "Adds a relative amount to a proleptic-Gregorian date (YYYY-MM-DD, years 0001..9999) with python-dateutil relativedelta semantics: years and months first, clamping the day to the last day of the resulting month (2024-01-31 + 1 month = 2024-02-29; 2024-02-29 + 1 year = 2025-02-28), then weeks × 7 + days. Amounts may be negative. A result outside years 0001..9999 is refused with reason date_out_of_range.",
    "input_only", CAL_SRC, dict(DATE_LIM, max_abs_years=9999, max_abs_months=119988, max_abs_weeks=521775, max_abs_days=3652424),
    {"base_date": date_in("Start date, YYYY-MM-DD."),
     "days": AMT("Days to add (negative subtracts).", 3652424),
     "months": AMT("Months to add (negative subtracts); the day is clamped to the month's end.", 119988),
     "years": AMT("Years to add (negative subtracts); 29 February becomes 28 February in common years.", 9999),
     "weeks": AMT("Weeks to add (7 days each; negative subtracts).", 521775)},
    ["base_date"],
    {"base_date": S("string", "The start date.", pattern=DATE_PAT),
     "years": S("integer", "Years added."), "months": S("integer", "Months added."),
     "weeks": S("integer", "Weeks added."), "days": S("integer", "Days added."),
     "result_date": S("string", "The resulting date, YYYY-MM-DD.", pattern=DATE_PAT),
     "weekday_iso": S("integer", "ISO weekday of result_date, 1 = Monday.", minimum=1, maximum=7),
     "weekday_name": S("string", "English weekday name of result_date.", enum=EN),
     "total_days": S("integer", "result_date − base_date in days.")},
    [{"title": "One month after 31 January in a leap year", "args": {"base_date": "2024-01-31", "months": 1}, "facts": add_facts("2024-01-31", months=1)},
     {"title": "One year after a leap day", "args": {"base_date": "2024-02-29", "years": 1}, "facts": add_facts("2024-02-29", years=1)},
     {"title": "Backwards by weeks and days", "args": {"base_date": "2026-11-30", "weeks": -3, "days": 2}, "facts": add_facts("2026-11-30", weeks=-3, days=2)}])

for name, c in C.items():
    with open(os.path.join(REPO, "contracts", "defs", name + ".json"), "w", encoding="utf-8") as f:
        json.dump(c, f, ensure_ascii=False, indent=2)
        f.write("\n")
    print(name)
