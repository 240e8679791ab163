"""Issue 32's oracle clause for the calendars checked against current
python-holidays (gen_business_current.py's groups us, ca_au_nz, jp, ch, es):
Debian's python3-holidays (0.10.1) and python3-workalendar (17.0.0) predate
their current rules, so compare with them where they have the calendar and
list every disagreement with its cause.

Run with Debian's Python (python3-holidays, python3-workalendar):

    /usr/bin/python3 tools/testdata/oracle/gen_business_debian_diff.py

For every calendar and year of the committed reference vectors
(internal/holidays/testdata/oracle_holidays_GROUP.json) it computes the
holiday dates of python-holidays 0.10.1 and of workalendar 17.0.0 (where the
library has that calendar and year) and compares the two date sets with the
reference. Every date on which a library and the reference differ is written
to internal/holidays/testdata/debian_disagreements.json with the side that
has it ("reference" or "library") and its cause, taken from CAUSES below; a
disagreement that no cause explains is listed under "unexplained" and makes
the script exit non-zero. The summary counts per calendar how many dates the
libraries agree on, how many years each library could not answer, and the
disagreements.

The reference is the law as the dataset follows it (current python-holidays
with the corrections gen_business_current.py names); the causes say what the
old library lacks, or lists that is no public holiday of the reference.
"""
import datetime as dt
import json
import os
import sys

import holidays
import workalendar
from dateutil.easter import easter
from workalendar.registry import registry

sys.path.insert(0, os.path.dirname(__file__))
from versions import write_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
GROUPS = ["us", "ca_au_nz", "jp", "ch", "es"]
PH = "holidays 0.10.1"
WK = "workalendar 17.0.0"

# ---------------------------------------------------------------------------
# The libraries' calendars.

# python-holidays 0.10.1's codes where they differ from ISO 3166-2.
PH_ES = {"AN": "AND", "AR": "ARG", "AS": "AST", "CB": "CAN", "CM": "CAM", "CL": "CAL", "CT": "CAT", "VC": "CVA",
         "EX": "EXT", "GA": "GAL", "IB": "IBA", "CN": "ICA", "MD": "MAD", "MC": "MUR", "NC": "NAV", "PV": "PVA",
         "RI": "RIO"}
PH_NZ = {"WTC": "WTL"}
# workalendar 17.0.0's codes where they differ.
WK_ES = {"NC": "NA"}


def ph_calendar(country, sub, year):
    """python-holidays 0.10.1's holidays of the calendar, or None when it has
    no such calendar."""
    if country == "US":
        if sub not in holidays.US.STATES:
            return None
        return holidays.US(state=sub, years=year)
    if country == "CA":
        if sub and sub not in holidays.Canada.PROVINCES:
            return None
        return holidays.Canada(prov=sub, years=year)  # prov=None: the national days (its default is ON)
    if country == "AU":
        if sub and sub not in holidays.Australia.PROVINCES:
            return None
        return holidays.Australia(prov=sub, years=year)
    if country == "NZ":
        p = PH_NZ.get(sub, sub)
        if p and p not in holidays.NewZealand.PROVINCES:
            return None
        return holidays.NewZealand(prov=p, years=year)
    if country == "JP":
        return holidays.Japan(years=year)
    if country == "CH":
        return holidays.Switzerland(prov=sub, years=year)
    if country == "ES":
        if sub not in PH_ES:
            return None
        return holidays.Spain(prov=PH_ES[sub], years=year)
    raise ValueError(country)


def ph_dates(country, sub, year):
    """{date: names} of python-holidays 0.10.1 in year; None: no such
    calendar; "range": the library refuses the year."""
    try:
        h = ph_calendar(country, sub, year)
        if h is None:
            return None
        items = list(h.items())
    except (NotImplementedError, KeyError) as e:
        return "range: " + str(e)[:80]
    return {d: names for d, names in items if d.year == year}


def wk_dates(country, sub, year):
    """{date: names} of workalendar 17.0.0 in year, as ph_dates."""
    if country == "ES":
        sub = WK_ES.get(sub, sub)
    code = country + ("-" + sub if sub else "")
    cls = registry.get(code)
    if cls is None:
        return None
    try:
        out = {}
        for d, name in cls().holidays(year):
            if d.year == year:  # it lists a 31 December observed in the next year too
                out[d] = out.get(d, "") + (", " if d in out else "") + name
        return out
    except NotImplementedError as e:  # JP's equinoxes are precomputed to 2051 only
        return "range: " + str(e)[:80]


# ---------------------------------------------------------------------------
# Causes. A rule is (country, subdivisions ("*" or a set), library (PH, WK or
# "*"), side ("reference": the date is only in the reference; "library": only
# in the library), matcher, first year, last year, cause); the first rule
# that matches a disagreement explains it. A matcher is called with the
# date, the library's names for it (library side; None on the reference
# side) and whether the reference has it only as a substitute day.

def md(m, d):
    return lambda day, names, subst: (day.month, day.day) == (m, d)


def mds(*pairs):
    return lambda day, names, subst: (day.month, day.day) in pairs


def east(*offsets):
    return lambda day, names, subst: (day - easter(day.year)).days in offsets


def nth(month, weekday, n, offset=0):
    """The n-th ISO weekday of month (n = -1 the last), moved by offset days."""
    def f(day, names, subst):
        return day == nth_date(day.year, month, weekday, n) + dt.timedelta(days=offset)
    return f


def nth_date(year, month, weekday, n):
    if n > 0:
        first = dt.date(year, month, 1)
        return first + dt.timedelta(days=(weekday - first.isoweekday()) % 7 + 7 * (n - 1))
    last = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1))
    return last - dt.timedelta(days=(last.isoweekday() - weekday) % 7)


def near(m, d, k=3):
    """Within k days of m-d (a substitute day of a holiday on m-d)."""
    def f(day, names, subst):
        try:
            base = dt.date(day.year, m, d)
        except ValueError:
            return False
        return 0 < abs((day - base).days) <= k
    return f


def named(*parts):
    """The library's names for the date contain one of parts (library side)."""
    return lambda day, names, subst: any(p.lower() in (names or "").lower() for p in parts)


def on(*isos):
    return lambda day, names, subst: day.isoformat() in isos


def substitute(day, names, subst):
    """A substitute (observed) day in the reference."""
    return subst


def weekend_day(day, names, subst):
    return day.isoweekday() >= 6


def any_day(day, names, subst):
    return True


def either(*fs):
    return lambda day, names, subst: any(f(day, names, subst) for f in fs)


def both(*fs):
    return lambda day, names, subst: all(f(day, names, subst) for f in fs)


ALL = "*"
REF, LIB = "reference", "library"
def matariki(day, names, subst):
    """Matariki: a Friday in June or July from the Act's table."""
    return day.month in (6, 7) and day.isoweekday() == 5


OBS = named("observed", "shift", "substitute")

US_STATE_LIST = ("the reference is the state's legal holidays as current python-holidays lists them in its public "
                 "category (with gen_business_current.py's VA corrections)")


def state_list(what, matcher):
    """Two rules for a US day that only some states keep: the library lists
    it where the reference does not, or lacks it where the reference has it."""
    return [("US", ALL, ALL, LIB, matcher, 1971, 2100,
             f"{what}: the library lists it for this state, but it is not among the state's legal holidays in the "
             f"reference ({US_STATE_LIST})"),
            ("US", ALL, ALL, REF, matcher, 1971, 2100,
             f"{what}: a legal holiday of this state in the reference ({US_STATE_LIST}); the library lacks it for this state")]

CAUSES = [
    # --- Japan
    ("JP", ALL, PH, REF, substitute, 2051, 2100,
     "python-holidays 0.10.1 takes substitute holidays (振替休日) from a table of years that ends in 2050; the National Holiday Act art. 3(2) gives one every year a holiday falls on a Sunday"),
    ("JP", ALL, PH, REF, on("2021-07-22", "2021-07-23", "2021-08-08", "2021-08-09"), 2021, 2021,
     "the 2021 Olympic moves (Act on Special Measures for the Tokyo Olympic and Paralympic Games, amended 2020): Marine Day 22 July, Sports Day 23 July, Mountain Day 8 August with its substitute 9 August; python-holidays 0.10.1 (2019) predates them"),
    ("JP", ALL, PH, LIB, on("2021-07-19", "2021-08-11", "2021-10-11"), 2021, 2021,
     "the usual 2021 dates of Marine Day, Mountain Day and Sports Day, moved for the Olympics by the 2020 amendment; python-holidays 0.10.1 predates the move"),
    ("JP", ALL, WK, REF, substitute, 2007, 2100,
     "workalendar 17.0.0's Japan has substitute holidays (振替休日, National Holiday Act art. 3(2)) only for 2019 and 2020"),
    ("JP", ALL, WK, REF, mds((9, 21), (9, 22)), 2007, 2100,
     "a citizens' holiday (国民の休日, National Holiday Act art. 3(3)) between Respect for the Aged Day and the Autumnal Equinox Day; workalendar 17.0.0 lacks this rule"),
    # --- New Zealand
    ("NZ", ALL, ALL, REF, matariki, 2022, 2052,
     "Matariki is a public holiday from 2022 (Te Kāhui o Matariki Public Holiday Act 2022); the library predates it"),
    ("NZ", ALL, ALL, REF, on("2022-09-26"), 2022, 2022,
     "Queen Elizabeth II Memorial Day, 26 September 2022 (a one-off Act of 2022); the library predates it"),
    # --- Australia
    ("AU", ALL, ALL, REF, on("2022-09-22"), 2022, 2022,
     "the National Day of Mourning for Queen Elizabeth II, 22 September 2022 (proclaimed); the library predates it"),
    ("AU", ALL, ALL, LIB, both(named("Australia Day"), weekend_day), 1936, 2100,
     "Australia Day on a Saturday or Sunday moves to the Monday (the 26th itself is then no public holiday in the states); the library lists the 26th"),
    ("AU", {""}, ALL, LIB, OBS, 1936, 2100,
     "the national calendar is the days every state keeps, without substitute days (the states' substitute rules differ); the library adds substitutes"),
    ("AU", ALL, ALL, ALL, mds((4, 25), (4, 26), (4, 27)), 1936, 2100,
     "ANZAC Day on a weekend follows each state's rule as current python-holidays has it (moved to the Monday in ACT, NT and QLD; a Monday substitute in WA, NSW 2026-2027, ACT 2026; none elsewhere); the library applies another"),
    ("AU", {"NSW"}, PH, LIB, named("Bank Holiday"), 2011, 2100,
     "NSW's Bank Holiday (first Monday of August) is a bank holiday, not a public holiday for everyone; the reference lists public holidays only"),
    ("AU", {"TAS"}, ALL, LIB, either(named("New Year", "Boxing Day")), 2011, 2100,
     "Tasmania moves New Year's Day and Boxing Day themselves off a weekend (Statutory Holidays Act 2000); the library keeps the date"),
    ("AU", {"NT", "SA", "WA", "QLD", "ACT", "VIC"}, ALL, REF, east(0), 2017, 2100,
     "Easter Sunday is a public holiday in ACT, QLD and VIC over their years here, in WA from 2022, in NT and SA from 2024 (as current python-holidays has it); the library lacks it"),
    ("AU", {"VIC"}, ALL, ALL, lambda day, names, subst: day.month in (9, 10) and day.isoweekday() == 5, 2015, 2100,
     "AFL Grand Final Friday (VIC, from 2015): the reference has the Friday before the last Saturday of September (23 October 2020 as proclaimed); the library lacks it or has another Friday"),
    ("AU", {"WA", "QLD"}, ALL, ALL, either(named("Birthday"), lambda day, names, subst: day.month in (6, 9, 10) and day.isoweekday() == 1), 2017, 2100,
     "the King's (Queen's) Birthday is the first Monday of October in QLD (from 2016) and the last Monday of September in WA (23 September in 2024 by proclamation); the library has other dates"),
    ("AU", {"QLD"}, ALL, ALL, either(lambda day, names, subst: day.month == 8 and day.isoweekday() == 3,
                                     on("2020-08-14", "2021-10-29")), 2017, 2100,
     "the Royal Queensland Show (Ekka) Wednesday, 14 August 2020 and 29 October 2021 as moved; the library lacks it or keeps the usual date"),
    ("AU", {"ACT"}, ALL, REF, on("2020-04-27", "2021-04-25"), 2020, 2021,
     "ACT's declared public holiday of 27 April 2020 and additional holiday of 2021; the library predates them"),
    ("AU", {"TAS"}, WK, LIB, named("Recreation Day"), 2011, 2100,
     "Recreation Day is kept only in the parts of Tasmania without the Royal Hobart Regatta; current python-holidays does not list it statewide"),
    # --- Canada
    ("CA", ALL, ALL, REF, md(9, 30), 2021, 2100,
     "the National Day for Truth and Reconciliation (30 September) is a statutory holiday in NT, NU, PE from 2022, BC, YT from 2023, MB from 2024; the library predates it"),
    ("CA", ALL, ALL, REF, on("2022-09-19"), 2022, 2022,
     "the funeral of Queen Elizabeth II, 19 September 2022, a one-off holiday in NB, NL, NS and PE; the library predates it"),
    ("CA", ALL, ALL, LIB, named("Boxing Day"), 1983, 2100,
     "Boxing Day is a statutory holiday only in Ontario (and for federally regulated employers); the library lists it elsewhere or observes it on another day"),
    ("CA", {"ON"}, ALL, REF, mds((12, 26), (12, 27), (12, 28)), 1983, 2100,
     "Ontario's Boxing Day on a weekend: the reference lists 26 December and a substitute (Saturday to Monday, Sunday to Tuesday); the library moves the day itself"),
    ("CA", ALL, ALL, LIB, OBS, 1983, 2100,
     "a substitute day the province's statute does not give: the reference follows each province's statute as current python-holidays has it (the Monday after a weekend holiday where the statute provides one, none elsewhere, never the Friday before); the library applies one rule everywhere"),
    ("CA", ALL, ALL, REF, substitute, 1983, 2100,
     "a substitute day the province's statute gives (the Monday after a holiday on a weekend, as current python-holidays has it); the library lacks it or observes the holiday on another day"),
    ("CA", {""}, ALL, LIB, named("Remembrance", "Victoria", "Thanksgiving", "Civic"), 1983, 2100,
     "the national calendar is the statutory days common to every province (New Year's Day, Good Friday, Canada Day, Labour Day, Christmas Day); this day is not statutory in all of them"),
    ("CA", {"MB"}, ALL, LIB, named("Remembrance", "Civic"), 1983, 2100,
     "not a general holiday in Manitoba (Employment Standards Code: Remembrance Day is a holiday with its own rules, the August civic holiday is not statutory); the reference lists general holidays"),
    ("CA", {"ON"}, ALL, LIB, named("Civic"), 1983, 2100,
     "Ontario's Civic Holiday (first Monday of August) is not a public holiday under the Employment Standards Act; the reference lists statutory days"),
    ("CA", {"NL"}, ALL, LIB, named("Patrick", "George", "Discovery", "Orangemen"), 1983, 2100,
     "Newfoundland and Labrador's St Patrick's, St George's, Discovery and Orangemen's Days are provincial government holidays, not statutory holidays (Labour Standards Act); the reference lists statutory days"),
    ("CA", {"AB"}, ALL, LIB, named("Heritage"), 1983, 2100,
     "Alberta's Heritage Day (first Monday of August) is an optional general holiday; the reference lists the statutory days"),
    ("CA", {"QC", ""}, ALL, ALL, either(east(-2), east(1)), 1983, 2100,
     "Good Friday is a statutory holiday nationally; in Quebec the Act respecting labour standards makes Good Friday or Easter Monday the holiday, and current python-holidays lists Good Friday; the library lists Easter Monday or lacks Good Friday"),
    ("CA", {"NT", "NU"}, ALL, REF, nth(8, 1, 1), 2022, 2100,
     "the first Monday of August (Civic Holiday) is a statutory holiday in the Northwest Territories and Nunavut; the library lacks it"),
    ("CA", {"YT"}, ALL, REF, md(6, 21), 2017, 2100,
     "National Indigenous Peoples Day (21 June) is a statutory holiday in Yukon from 2017; the library lacks it"),
    ("CA", {"NL"}, WK, REF, md(11, 11), 1983, 2100,
     "Remembrance Day is a statutory holiday in Newfoundland and Labrador; workalendar 17.0.0 lacks it"),
    ("CA", {"NB"}, WK, REF, nth(2, 1, 3), 2018, 2100,
     "New Brunswick's Family Day (third Monday of February) is a holiday from 2018; workalendar 17.0.0 lacks it"),
    # --- Switzerland
    ("CH", ALL, ALL, LIB, east(0, 49), 1994, 2100,
     "Easter Sunday and Whit Sunday: the library lists them; current python-holidays lists no such Sunday among these cantons' public holidays"),
    ("CH", {"FR", "GL", "SO", "VS", "NW", "OW", "SG", "SH"}, ALL, LIB, md(1, 2), 1994, 2100,
     "Berchtold's Day (2 January): current python-holidays files it as an optional holiday in this canton, not a public one"),
    ("CH", {"NE"}, ALL, LIB, mds((1, 2), (12, 26)), 1994, 2100,
     "Neuchâtel: 2 January and 26 December are holidays only when they fall on a Monday (after a Sunday holiday); the library lists them every year"),
    ("CH", {"GE", "GR", "TI", "AR"}, ALL, LIB, md(1, 2), 1994, 2100,
     "Berchtold's Day (2 January) is no public holiday of this canton in current python-holidays"),
    ("CH", {"FR", "VS", "NW", "OW"}, ALL, LIB, east(1, 50), 1994, 2100,
     "Easter Monday and Whit Monday: current python-holidays files them as optional holidays in this canton, not public ones"),
    ("CH", {"NE", "SO"}, ALL, LIB, east(1, 50), 1994, 2100,
     "Easter Monday and Whit Monday are no public holidays of this canton in current python-holidays"),
    ("CH", {"FR", "VS"}, ALL, LIB, md(12, 26), 1994, 2100,
     "St Stephen's Day (26 December): current python-holidays files it as an optional holiday in this canton"),
    ("CH", {"AR"}, ALL, LIB, md(12, 26), 1994, 2100,
     "Appenzell Ausserrhoden: 26 December is no holiday when it falls on a Tuesday or Saturday (current python-holidays); the library lists it every year"),
    ("CH", {"SO"}, ALL, LIB, md(12, 26), 1994, 2100,
     "St Stephen's Day is no public holiday of Solothurn in current python-holidays"),
    ("CH", {"GR", "TI", "VS"}, ALL, LIB, east(-2), 1994, 2100,
     "Good Friday is no public holiday in Graubünden (optional there), Ticino or Valais in current python-holidays"),
    ("CH", {"GE"}, ALL, LIB, md(12, 12), 1994, 2100,
     "the Escalade (12 December) is a Genevan festival, not a public holiday"),
    ("CH", {"SO"}, ALL, LIB, md(5, 1), 1994, 2100,
     "Labour Day is a half-day holiday in Solothurn (current python-holidays' half-day category), not a public holiday"),
    ("CH", {"AR", "FR"}, ALL, LIB, md(5, 1), 1994, 2100,
     "Labour Day is no public holiday of this canton in current python-holidays"),
    ("CH", {"AG"}, ALL, REF, mds((5, 1), (8, 15), (11, 1), (12, 8)), 1994, 2100,
     "Aargau's Labour Day, Assumption, All Saints' Day and Immaculate Conception are public holidays of the canton in current python-holidays; the library lacks them"),
    ("CH", {"AG", "NE"}, ALL, REF, east(60), 1994, 2100,
     "Corpus Christi is a public holiday in Aargau and Neuchâtel in current python-holidays; the library lacks it"),
    ("CH", {"GE"}, ALL, REF, nth(9, 7, 1, 4), 1994, 2100,
     "the Genevan Fast (Jeûne genevois, the Thursday after the first Sunday of September); the library lacks it"),
    ("CH", {"GL"}, ALL, ALL, lambda day, names, subst: day.month == 4 and day.isoweekday() == 4 or "Näfel" in (names or ""), 1994, 2100,
     "Näfelser Fahrt is the first Thursday of April, a week later when that is Maundy Thursday (current python-holidays); the library has another day"),
    ("CH", {"FR", "SO"}, WK, LIB, mds((8, 15), (11, 1)), 1994, 2100,
     "Assumption and All Saints' Day hold only in the Catholic parts of Fribourg and Solothurn; current python-holidays does not list them cantonwide"),
    ("CH", {"FR", "GR", "SO"}, WK, LIB, either(east(60), md(12, 8)), 1994, 2100,
     "Corpus Christi and Immaculate Conception hold only in the Catholic parts of this canton; current python-holidays does not list them cantonwide"),
    ("CH", {"GR", "LU", "SO"}, WK, LIB, either(md(3, 19), md(1, 6)), 1994, 2100,
     "St Joseph's Day and Epiphany are no cantonwide public holidays here in current python-holidays"),
    ("CH", {"NE"}, WK, LIB, nth(9, 7, 3, 1), 1994, 2100,
     "the Federal Fast Monday is no public holiday in Neuchâtel in current python-holidays"),
    # --- United States
    ("US", ALL, ALL, REF, either(md(6, 19), near(6, 19, 1)), 2021, 2100,
     "Juneteenth National Independence Day is a federal holiday from 2021 (Public Law 117-17), kept by the states with the federal days; the library predates it"),
    ("US", {"VA"}, ALL, REF, either(nth(11, 1, 1, 1), nth(11, 4, 4, 1)), 2021, 2100,
     "Va. Code 2.2-3300 lists Election Day (from 2020, HB 108 / SB 601) and the Friday after Thanksgiving (gen_business_current.py's VA corrections); the library lacks them"),
    ("US", {"VA"}, ALL, LIB, named("Lee Jackson", "Lee-Jackson"), 2021, 2100,
     "Lee-Jackson Day was abolished in Virginia in 2020 (HB 108 / SB 601, which made Election Day a holiday instead); the library predates it"),
    ("US", {"VA"}, WK, LIB, named("Day before Thanksgiving"), 2021, 2100,
     "the Wednesday before Thanksgiving (an early close) is no legal holiday in Virginia"),
    ("US", {"GA"}, ALL, ALL, either(named("State Holiday"), east(-2), lambda day, names, subst: day.month == 4 and day.isoweekday() == 1), 2016, 2100,
     "Georgia's spring state holiday: the Monday of Confederate Memorial Day (late April) until 2019, Good Friday as \"State Holiday\" from 2020 (current python-holidays); the library keeps the April Monday or lacks it"),
    ("US", {"GA", "IN"}, ALL, ALL, either(named("Washington"), lambda day, names, subst: (day.month == 12 and 23 <= day.day <= 27) or (day.month == 2 and 15 <= day.day <= 21)), 1986, 2100,
     "Georgia's and Indiana's \"Washington's Birthday\" is a state holiday next to Christmas (24, 26 or 23 December by Christmas's weekday), not the third Monday of February; the library has other dates"),
    ("US", {"AK"}, ALL, REF, nth(10, 1, 2), 1990, 2100,
     "Alaska keeps the second Monday of October (Columbus Day, Indigenous Peoples' Day from 2015); the library lacks it"),
    ("US", {"WA"}, ALL, REF, nth(11, 4, 4, 1), 2014, 2100,
     "Washington's Native American Heritage Day, the day after Thanksgiving, from 2014 (RCW 1.16.050); the library lacks it"),
    ("US", {"CO"}, ALL, REF, either(md(3, 31), nth(10, 1, 1)), 2020, 2100,
     "Colorado's Cesar Chavez Day (31 March) and Frances Xavier Cabrini Day (first Monday of October, from 2020, replacing Columbus Day); the library lacks them"),
    ("US", {"CA", "FL", "NY", "WI"}, WK, REF, md(2, 15), 2011, 2100,
     "Susan B. Anthony Day (15 February) is a state holiday here in current python-holidays; workalendar 17.0.0 lacks it"),
    ("US", {"CA"}, ALL, REF, on("2026-11-08", "2027-10-29", "2028-10-17", "2029-11-05", "2030-10-26", "2031-11-14",
                                "2032-11-02", "2033-10-22", "2034-11-10", "2035-10-30"), 2026, 2035,
     "Diwali is a California state holiday from 2026 (AB 268); the library predates it"),
    ("US", {"MA"}, ALL, LIB, named("Evacuation"), 1986, 2100,
     "Evacuation Day (17 March) is a holiday in Suffolk County only, not statewide; the reference lists statewide days"),
    ("US", {"AS"}, ALL, REF, either(md(4, 17), md(7, 16), nth(10, 7, 2)), 1986, 2100,
     "American Samoa's own days (Flag Day 17 April, Manu'a Islands Cession Day 16 July, White Sunday the second Sunday of October); the library lacks them"),
    ("US", {"AS"}, ALL, LIB, either(md(12, 24), md(12, 26), named("Christmas Eve", "Family Day")), 1986, 2100,
     "the library lists Christmas Eve or a Family Day (26 December) for American Samoa; current python-holidays lists neither among its public holidays"),
    ("US", {"MP"}, ALL, REF, either(md(3, 24), md(12, 8), md(11, 4), east(-2), nth(11, 1, 1, 1)), 2008, 2100,
     "the Northern Mariana Islands' own days (Commonwealth Covenant Day 24 March, Good Friday, Citizenship Day 4 November, Election Day, Constitution Day 8 December); the library lacks them"),
    ("US", {"MA"}, ALL, LIB, both(OBS, lambda day, names, subst: day.isoweekday() == 5), 1971, 2100,
     "Massachusetts observes a holiday that falls on a Sunday on the Monday, one on a Saturday not at all (as current python-holidays has it); the library observes it on the Friday before"),
    ("US", {"TX"}, ALL, LIB, both(OBS, named("Confederate Heroes", "Texas Independence", "San Jacinto", "Jonhson", "Johnson", "Emancipation")), 1971, 2100,
     "Texas's own days (Confederate Heroes Day, Texas Independence Day, San Jacinto Day, Emancipation Day, Lyndon Baines Johnson Day) have no substitute day in the reference (current python-holidays); the library observes them on a weekday"),
    ("US", ALL, ALL, LIB, OBS, 1971, 2100,
     "a substitute day the reference does not give: the reference follows each state's observance rule as current python-holidays has it (most Saturday to Friday and Sunday to Monday, Sunday to Monday only in MA, for PR's own days and some state days, none for some state days); the library observes this holiday on this day"),
    ("US", ALL, ALL, REF, substitute, 1971, 2100,
     "a substitute day of the state's observance rule as current python-holidays has it (Saturday to Friday, Sunday to Monday, or a state's own rule); the library lacks it"),
    *state_list("Columbus Day (second Monday of October)", either(named("Columbus"), nth(10, 1, 2))),
    *state_list("the day after Thanksgiving", either(named("Thanksgiving Friday", "Day After Thanksgiving", "Friday After Thanksgiving"), nth(11, 4, 4, 1))),
    *state_list("Christmas Eve, the day after Christmas and New Year's Eve", either(named("Christmas Eve"), md(12, 24), named("Day After Christmas"), md(12, 26), named("New Year"), md(12, 31))),
    *state_list("Good Friday", either(named("Good Friday"), east(-2))),
    *state_list("Election Day (and Indiana's Primary Election Day)", either(named("Election"), nth(11, 1, 1, 1), nth(5, 1, 1, 1))),
    *state_list("Lincoln's Birthday", either(named("Lincoln"), md(2, 12))),
    ("US", {"AL", "GA", "MS", "SC"}, ALL, ALL, either(named("Confederate"), md(5, 10),
                                                      lambda day, names, subst: day.month in (4, 5) and day.isoweekday() == 1), 1971, 2100,
     "Confederate Memorial Day falls on a state's own day (the last Monday of April in AL and MS, 10 May in SC, ...) as current python-holidays lists it; the library has another date or lacks it"),
    *state_list("Inauguration Day (20 January every fourth year from 1965)", either(named("Inauguration"), md(1, 20))),
    *state_list("Susan B. Anthony Day (15 February)", either(named("Susan B"), md(2, 15))),
    *state_list("Cesar Chavez Day (31 March)", either(named("Cesar Chavez"), md(3, 31))),
    *state_list("Casimir Pulaski Day (first Monday of March)", either(named("Pulaski"), nth(3, 1, 1))),
    ("US", {"IA", "KS", "KY", "NC", "RI", "WI"}, WK, REF, nth(2, 1, 3), 1986, 2100,
     "Washington's Birthday (third Monday of February) is a state holiday here in current python-holidays; workalendar 17.0.0 lacks it for this state"),
    ("US", {"GU"}, WK, ALL, lambda day, names, subst: day.month == 3 and day.day <= 7, 1986, 2100,
     "Guam's March holiday (Guam Discovery Day, later Guam History and Chamorro Heritage Day) is the first Monday of March in current python-holidays; workalendar 17.0.0 has 7 March"),
    ("JP", ALL, PH, REF, md(2, 24), 2021, 2050,
     "the Emperor's Birthday is 23 February from 2020; python-holidays 0.10.1's substitute table has its 24 February substitute for 2020 only"),
    ("CA", {"YT"}, ALL, LIB, named("Heritage"), 1976, 2100,
     "Yukon's Heritage Day (the Friday before the last Sunday of February) is an optional holiday (current python-holidays' optional category); the reference lists the statutory days"),
    # --- Spain's regions
    ("ES", ALL, ALL, LIB, lambda day, names, subst: day.isoweekday() == 7, 2008, 2026,
     "a holiday that falls on a Sunday is no holiday in a region that year (Estatuto de los Trabajadores art. 37.2: the region moves it to the Monday or sets another day by decree); the library lists the Sunday"),
    ("ES", ALL, ALL, REF, lambda day, names, subst: day.isoweekday() == 1 and (day - dt.timedelta(days=1)).strftime("%m-%d") in ES_FIXED, 2008, 2026,
     "the region moved a holiday that fell on a Sunday to the Monday (that year's decree, listed as \"Monday following ...\"); the library lacks the Monday"),
    ("ES", ALL, ALL, LIB, any_day, 2008, 2026,
     "a region's holidays are decreed year by year (the BOE's yearly resolution and the community's decree choose some of Maundy Thursday, Easter Monday, St Joseph, St James, Corpus Christi, the region's own day, ...): the library keeps one fixed list per region and lists a day that region did not choose that year (the reference has each year's decreed list, as python-holidays has it checked with official sources for 2008-2026)"),
    ("ES", ALL, ALL, REF, any_day, 2008, 2026,
     "a region's holidays are decreed year by year (the BOE's yearly resolution and the community's decree choose some of Maundy Thursday, Easter Monday, St Joseph, St James, Corpus Christi, the region's own day, ...): the region chose this day that year and the library's fixed list per region lacks it (the reference has each year's decreed list, as python-holidays has it checked with official sources for 2008-2026)"),
]

# The fixed-date holidays a Spanish region may move from a Sunday to the Monday.
ES_FIXED = {"01-01", "01-06", "02-28", "03-01", "03-19", "04-23", "05-01", "05-02", "05-30", "06-09", "06-24",
            "07-25", "08-15", "09-08", "09-11", "09-15", "10-09", "10-12", "11-01", "12-03", "12-06", "12-08",
            "12-25", "12-26"}


def cause_of(country, sub, lib, side, day, names, subst):
    for c, subs, l, s, match, y0, y1, cause in CAUSES:
        if c != country or (subs != ALL and (sub or "") not in subs) or (l != ALL and l != lib) or (s != ALL and s != side):
            continue
        if not (y0 <= day.year <= y1):
            continue
        if match(day, names, subst):
            return cause
    return None


# ---------------------------------------------------------------------------

def main():
    refs = []
    for g in GROUPS:
        with open(os.path.join(ROOT, "internal", "holidays", "testdata", f"oracle_holidays_{g}.json"), encoding="utf-8") as fh:
            refs.extend(json.load(fh)["cases"])
    groups, summary = {}, {}
    for case in refs:
        country, sub, year = case["country"], case["subdivision"] or None, case["year"]
        ref = {dt.date.fromisoformat(x) for x in case["dates"]}
        subst_only = {dt.date.fromisoformat(x) for x in case["substitute_only"]}
        key = country + ("-" + sub if sub else "")
        s = summary.setdefault(key, {"years": 0, "reference_dates": 0,
                                     PH: {"years_compared": 0, "years_not_answered": 0, "agree": 0, "disagree": 0},
                                     WK: {"years_compared": 0, "years_not_answered": 0, "agree": 0, "disagree": 0},
                                     "both_libraries_agree_with_reference": 0,
                                     "both_libraries_agree_against_reference": 0})
        s["years"] += 1
        s["reference_dates"] += len(ref)
        got = {}
        for lib, fn in ((PH, ph_dates), (WK, wk_dates)):
            dates = fn(country, sub, year)
            if dates is None:
                s[lib] = None
                continue
            if isinstance(dates, str):
                s[lib]["years_not_answered"] += 1
                continue
            got[lib] = set(dates)
            s[lib]["years_compared"] += 1
            s[lib]["agree"] += len(ref & set(dates))
            for day in sorted(ref ^ set(dates)):
                side = REF if day in ref else LIB
                names = dates.get(day)
                cause = cause_of(country, sub, lib, side, day, names, day in subst_only)
                g = groups.setdefault((country, sub or "", lib, side, cause or ""),
                                      {"country": country, "subdivision": sub or "", "library": lib, "in": side,
                                       "cause": cause, "dates": []})
                g["dates"].append(day.isoformat())
                if side == LIB:
                    g.setdefault("library_names", set()).add(names)
                s[lib]["disagree"] += 1
        if len(got) == 2:
            s["both_libraries_agree_with_reference"] += len(ref & got[PH] & got[WK])
            # both list it and the reference not, or the reference lists it and neither
            s["both_libraries_agree_against_reference"] += len((got[PH] & got[WK]) - ref) + len(ref - got[PH] - got[WK])
    for k in list(summary):
        for lib in (PH, WK):
            if summary[k][lib] is None:
                summary[k][lib] = "no such calendar"
    cases, unexplained, per_cal = [], [], {}
    for g in groups.values():
        if "library_names" in g:
            g["library_names"] = sorted(g["library_names"])
        if g["cause"] is None:
            del g["cause"]
            unexplained.append(g)
            k = g["country"] + ("-" + g["subdivision"] if g["subdivision"] else "")
            per_cal[k] = per_cal.get(k, 0) + len(g["dates"])
        else:
            cases.append(g)
    gen = {"script": "tools/testdata/oracle/gen_business_debian_diff.py", "python": sys.version.split()[0],
           "holidays": holidays.__version__, "workalendar": workalendar.__version__,
           "reference": [f"internal/holidays/testdata/oracle_holidays_{g}.json" for g in GROUPS]}
    write_json(os.path.join(ROOT, "internal", "holidays", "testdata", "debian_disagreements.json"),
               {"generator": gen, "summary": summary, "unexplained_per_calendar": per_cal,
                "unexplained": unexplained, "cases": cases})
    print(f"{sum(len(g['dates']) for g in cases)} disagreements explained by {len({g['cause'] for g in cases})} causes")
    if unexplained:
        print(f"{sum(per_cal.values())} unexplained disagreements: {per_cal}", file=sys.stderr)
        sys.exit(1)


main()
