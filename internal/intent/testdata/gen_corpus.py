#!/usr/bin/python3
"""Writes the intent test corpus (testdata/corpus/*.json) for internal/intent.

This is the oracle of TestCorpus and of api's TestAnswerRoundTrip: every
sentence is built here from known values, and the arguments it must produce
are computed here from those values (datetime for dates, Decimal for
numbers), never by the Go recogniser. A phrasing the recogniser does not
accept lowers the published recall; an intent it produces that is not the
one stated here fails the precision test.

Run: /usr/bin/python3 internal/intent/testdata/gen_corpus.py
"""
import datetime
import itertools
import json
import os
import platform
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")
GENERATOR = {"script": "internal/intent/testdata/gen_corpus.py", "python": platform.python_version()}

positives = {}   # tool -> list of cases
negatives = []


def pos(tool, text, args, covered=True):
    positives.setdefault(tool, []).append(
        {"text": text, "intents": [{"tool": tool, "args": args, "item": None}], "covered": covered})


def neg(text, kind, reason=None):
    c = {"text": text, "kind": kind}
    if reason:
        c["reason"] = reason
    negatives.append(c)


def de_date(d, pad=True):
    return f"{d.day:02d}.{d.month:02d}.{d.year}" if pad else f"{d.day}.{d.month}.{d.year}"


def en_num(x):
    return str(x)


def de_num(x):
    return str(x).replace(".", ",")


def num(x):
    """The JSON value of a number argument: an int when integral."""
    d = Decimal(str(x))
    return int(d) if d == d.to_integral_value() and "." not in str(x) else float(str(x))


# ---------------------------------------------------------------- gcd_lcm
pairs = [(391, 299), (12, 18), (48, 36), (100, 75), (1071, 462), (270, 192)]
gcd_t = [
    ("de", "Berechne den GGT von {a} und {b}.", "gcd"),
    ("de", "Bestimme den größten gemeinsamen Teiler von {a} und {b}.", "gcd"),
    ("de", "Was ist der ggT von {a} und {b}?", "gcd"),
    ("de", "Bitte berechne das KGV von {a} und {b}.", "lcm"),
    ("de", "Wie lautet das kleinste gemeinsame Vielfache von {a} und {b}?", "lcm"),
    ("de", "Berechne GGT und KGV von {a} und {b}.", "both"),
    ("en", "Calculate the GCD of {a} and {b}.", "gcd"),
    ("en", "What is the greatest common divisor of {a} and {b}?", "gcd"),
    ("en", "Find the lcm of {a} and {b}.", "lcm"),
    ("en", "Compute the gcd and lcm of {a} and {b}.", "both"),
    ("en", "gcd({a}, {b})", "gcd"),
    ("en", "What's the least common multiple of {a} and {b}?", "lcm"),
    ("en", "Could you tell me the highest common factor of {a} and {b}?", "gcd"),
]
for i, (lang, t, op) in enumerate(gcd_t):
    for a, b in pairs[i % 3: i % 3 + 3]:
        pos("gcd_lcm", t.format(a=a, b=b), {"a": a, "b": b, "operation": op})

# ---------------------------------------------------------------- unit_convert
conv = [(72, "km/h", "km/h", "m/s", "m/s"), (100, "°F", "degF", "°C", "degC"), (5, "km", "km", "m", "m"),
        (Decimal("1.5"), "kg", "kg", "g", "g"), (10, "miles", "mile", "km", "km"), (3, "ft", "ft", "cm", "cm"),
        (Decimal("2.5"), "Liter", "L", "ml", "mL"), (1, "kWh", "kWh", "J", "J")]
unit_t = [
    ("de", "Rechne {v} {f} exakt in {t} um."),
    ("de", "Wandle {v} {f} in {t} um."),
    ("de", "Wie viele {t} sind {v} {f}?"),
    ("en", "Convert {v} {f} to {t}."),
    ("en", "What is {v} {f} in {t}?"),
    ("en", "How many {t} are in {v} {f}?"),
]
for i, (lang, t) in enumerate(unit_t):
    for v, fw, fu, tw, tu in conv[i % 4: i % 4 + 5]:
        vt = de_num(v) if lang == "de" else en_num(v)
        pos("unit_convert", t.format(v=vt, f=fw, t=tw), {"value": num(v), "from_unit": fu, "to_unit": tu})

# ---------------------------------------------------------------- calendar_facts / day_of_week
dates = [datetime.date(2026, 7, 29), datetime.date(2021, 1, 1), datetime.date(2000, 2, 29), datetime.date(1999, 12, 31),
         datetime.date(2024, 3, 15), datetime.date(2030, 10, 3)]
cal_t = [
    ("de", "Bestimme den Wochentag für den {dd}."),
    ("de", "Welcher Wochentag ist der {dd}?"),
    ("de", "Welcher Wochentag war der {iso}?"),
    ("de", "Auf welchen Wochentag fällt der {dd}?"),
    ("de", "Sag mir den Wochentag für den {d1}."),
    ("en", "Which weekday was {iso}?"),
    ("en", "What day of the week is {iso}?"),
    ("en", "What weekday falls on {dd}?"),
    ("en", "Tell me the day of the week for {iso}."),
]
for i, (lang, t) in enumerate(cal_t):
    for d in dates[i % 3: i % 3 + 4]:
        pos("calendar_facts", t.format(dd=de_date(d), d1=de_date(d, False), iso=d.isoformat()),
            {"date_str": d.isoformat(), "locale": lang})
dow_t = [("en", "Use day_of_week for {iso}."), ("en", "day_of_week {iso}"), ("de", "Rufe day_of_week für den {dd} auf."),
         ("en", "Call day_of_week on {iso}."), ("de", "Verwende day_of_week für den {iso}.")]
for lang, t in dow_t:
    for d in dates:
        pos("day_of_week", t.format(dd=de_date(d), iso=d.isoformat()), {"date_str": d.isoformat()})
# a weekday question with calendar_facts left out of the allowlist is day_of_week
for d in dates[:4]:
    positives["day_of_week"].append({"text": f"Which weekday was {d.isoformat()}?", "tools": ["day_of_week", "gcd_lcm"],
                                     "intents": [{"tool": "day_of_week", "args": {"date_str": d.isoformat()}, "item": None}], "covered": True})

# ---------------------------------------------------------------- time_facts / timezone_convert
instants = [("2026-07-29T12:00:00Z", "Europe/Berlin", "Europe/Berlin"), ("2026-01-15T08:30:00Z", "America/New_York", "America/New_York"),
            ("2026-03-29T01:30:00Z", "Europe/London", "london"), ("2025-12-31T23:59:59+01:00", "Asia/Tokyo", "Tokyo"),
            ("2026-10-25T00:30:00Z", "Europe/Berlin", "Berlin"), ("2026-06-01T00:00:00Z", "Australia/Sydney", "Australia/Sydney")]
tf_t = [
    ("de", "Bestimme die Zeitfakten für {i} in {z}."),
    ("de", "Ermittle die Ortszeit für {i} in {z}."),
    ("de", "Wie spät ist es in {z} um {i}?"),
    ("en", "Give me the time facts for {i} in {z}."),
    ("en", "What is the local time for {i} in {z}?"),
    ("en", "What time is it in {z} at {i}?"),
]
for i, (lang, t) in enumerate(tf_t):
    for inst, zone, written in instants[i % 2: i % 2 + 5]:
        pos("time_facts", t.format(i=inst, z=written), {"instant": inst, "timezone_name": zone, "locale": lang})
convs = [("2026-10-25T03:30:00", "Europe/Berlin", "UTC", None), ("2026-07-29T14:00:00", "Europe/Berlin", "America/New_York", None),
         ("2026-03-08 09:15", "America/New_York", "Europe/London", None), ("2026-10-25T02:30:00", "Europe/Berlin", "UTC", 1),
         ("2026-01-01T00:00:00", "Asia/Tokyo", "UTC", None), ("2026-12-24 18:00", "Europe/Vienna", "Asia/Singapore", None)]
tz_t = [
    ("de", "Konvertiere {dt} von {f} nach {t}{fold}."),
    ("de", "Rechne {dt} von {f} nach {t} um{fold}."),
    ("de", "Wandle die Uhrzeit {dt} aus {f} in {t} um{fold}."),
    ("en", "Convert {dt} from {f} to {t}{fold}."),
    ("en", "Convert the local time {dt} in {f} to {t}{fold}."),
    ("en", "What time is {dt} {f} in {t}?"),
]
for lang, t in tz_t:
    for dt, f, to, fold in convs:
        if fold is not None and "What time" in t:
            continue
        fold_text = "" if fold is None else (f" mit fold {fold}" if lang == "de" else f" with fold {fold}")
        if "um{fold}" in t and fold is not None:
            continue
        iso = dt.replace(" ", "T") + (":00" if len(dt) == 16 else "")
        args = {"local_datetime": iso, "from_timezone": f, "to_timezone": to, "locale": lang}
        if fold is not None:
            args["fold"] = fold
        pos("timezone_convert", t.format(dt=dt, f=f, t=to, fold=fold_text), args)

# ---------------------------------------------------------------- decimal_finance
fin = [(Decimal("19"), Decimal("119.99"), "EUR", 2, "half_up"), (Decimal("7"), Decimal("49.90"), "EUR", 2, "half_even"),
       (Decimal("2.5"), Decimal("1000"), "USD", 2, "floor"), (Decimal("15"), Decimal("80.00"), "CHF", 3, "ceiling"),
       (Decimal("33.3"), Decimal("12.34"), "GBP", 4, "half_down")]
for rate, base, cur, sc, rnd in fin:
    for t, lang in [("Berechne {r} Prozent von {b} {c} mit Scale {s} und Rundung {m}.", "de"),
                    ("Berechne {r} % von {b} {c} mit Scale {s} und Rundung {m}.", "de"),
                    ("Calculate {r} percent of {b} {c} with scale {s} and rounding {m}.", "en"),
                    ("What is {r}% of {b} {c} with scale {s} and rounding {m}?", "en")]:
        pos("decimal_finance", t.format(r=rate, b=base, c=cur, s=sc, m=rnd),
            {"operation": "percentage", "operands": [str(base), str(rate)], "currency": cur, "scale": sc, "rounding": rnd})
ops = [("+", "add"), ("-", "subtract"), ("*", "multiply"), ("/", "divide")]
for (sym, op), (x, y) in zip(ops * 3, [("100.50", "20.25"), ("10", "3"), ("1234.56", "7.89"), ("0.10", "0.20"), ("99.99", "1.01"), ("500", "12")] * 2):
    for t, lang in [("Berechne {x} {o} {y} EUR mit Scale 2 und Rundung half_even.", "de"),
                    ("Compute {x} {o} {y} USD with scale 2 and rounding half_up.", "en")]:
        cur = "EUR" if lang == "de" else "USD"
        rnd = "half_even" if lang == "de" else "half_up"
        pos("decimal_finance", t.format(x=x, o=sym, y=y),
            {"operation": op, "operands": [x, y], "currency": cur, "scale": 2, "rounding": rnd})
for p, r, yrs in [("1000", "5", "2"), ("2500.00", "3.5", "4")]:
    pos("decimal_finance", f"Berechne die einfachen Zinsen auf {p} EUR zu {r} % für {yrs} Jahre mit Scale 2 und Rundung half_even.",
        {"operation": "simple_interest", "operands": [p, r, yrs], "currency": "EUR", "scale": 2, "rounding": "half_even"})
    pos("decimal_finance", f"Calculate the simple interest on {p} USD at {r} percent for {yrs} years with scale 2 and rounding half_up.",
        {"operation": "simple_interest", "operands": [p, r, yrs], "currency": "USD", "scale": 2, "rounding": "half_up"})

# ---------------------------------------------------------------- exact_probability
for n, k in [(10, 3), (49, 6), (5, 2), (20, 10), (7, 7)]:
    pos("exact_probability", f"Berechne die Kombination C({n}, {k}) exakt.", {"operation": "combination", "n": n, "k": k})
    pos("exact_probability", f"Calculate the combination C({n},{k}).", {"operation": "combination", "n": n, "k": k})
    pos("exact_probability", f"Berechne die Permutation P({n}, {k}).", {"operation": "permutation", "n": n, "k": k})
    pos("exact_probability", f"Compute the permutation P({n}, {k}) exactly.", {"operation": "permutation", "n": n, "k": k})
    pos("exact_probability", f"{n} choose {k}", {"operation": "combination", "n": n, "k": k})
    pos("exact_probability", f"Wie viele Möglichkeiten gibt es, {k} aus {n} auszuwählen?", {"operation": "combination", "n": n, "k": k})
for n, k, a, b, s, r in [(10, 3, 1, 2, 6, "half_even"), (5, 2, 1, 6, 4, "half_up"), (8, 4, 1, 2, 3, "down")]:
    pos("exact_probability", f"Berechne die Binomialwahrscheinlichkeit für n={n}, k={k}, p={a}/{b} als Dezimalzahl mit Scale {s} und Rundung {r}.",
        {"operation": "binomial_probability", "n": n, "k": k, "numerator": a, "denominator": b, "decimal_scale": s, "rounding": r})
    pos("exact_probability", f"Compute the binomial probability for n={n}, k={k}, p={a}/{b}.",
        {"operation": "binomial_probability", "n": n, "k": k, "numerator": a, "denominator": b})

# ---------------------------------------------------------------- structured_validate
docs = [("json", '{"age": 42}'), ("json", '[1, 2, 3]'), ("json", '{"a": [1, 2}'), ("yaml", "a: 1\nb: [2, 3]"),
        ("xml", "<a><b>1</b></a>"), ("xml", "<a><b></a>")]
for fmt, doc in docs:
    for t in ["Validiere dieses {F}: {d}", "Prüfe dieses {F}:\n{d}", "Validate this {F}: {d}", "Check the following {F}: {d}",
              "Bitte validiere das {F}: {d}"]:
        pos("structured_validate", t.format(F=fmt.upper(), d=doc), {"format_name": fmt, "payload": doc})
for dia, word_de, word_en in [("semicolon", "semicolon", "semicolon"), ("comma", "Komma", "comma")]:
    doc = "a;b\n1;2" if dia == "semicolon" else "a,b\n1,2"
    pos("structured_validate", f"Validiere dieses CSV mit Trennzeichen {word_de}: {doc}", {"format_name": "csv", "csv_dialect": dia, "payload": doc})
    pos("structured_validate", f"Validate this CSV with delimiter {word_en}: {doc}", {"format_name": "csv", "csv_dialect": dia, "payload": doc})

# ---------------------------------------------------------------- prime_factorize / roman_numeral
for n in [360, 97, 1001, 65536, 999983, 123456789]:
    for t in ["Zerlege {n} in Primfaktoren.", "Berechne die Primfaktorzerlegung von {n}.", "Ist {n} eine Primzahl?",
              "Factorize {n}.", "What is the prime factorization of {n}?", "Is {n} a prime number?"]:
        pos("prime_factorize", t.format(n=n), {"n": n})
for n, r in [(1994, "MCMXCIV"), (2026, "MMXXVI"), (4, "IV"), (3999, "MMMCMXCIX"), (49, "XLIX"), (1066, "MLXVI")]:
    pos("roman_numeral", f"Wandle {n} in römische Zahlen um.", {"value": n})
    pos("roman_numeral", f"Was ist {n} als römische Zahl?", {"value": n})
    pos("roman_numeral", f"Convert {n} to Roman numerals.", {"value": n})
    pos("roman_numeral", f"How do you write {n} in Roman numerals?", {"value": n})
    pos("roman_numeral", f"Convert {r} to an Arabic number.", {"value": r})
    pos("roman_numeral", f"Welchen Wert hat die römische Zahl {r.lower() if n == 49 else r}?", {"value": r})

# ---------------------------------------------------------------- calculate / solve_equation
for e in ["2**32 - 1", "(3 + 4) * 5 / 7", "17 * 23", "1.5 + 2.25", "2**10", "(1 + 2) * (3 + 4) - 5", "100 / 8"]:
    for t in ["Berechne {e}.", "Was ist {e}?", "Rechne {e} aus.", "Calculate {e}.", "What is {e}?"]:
        if "/" in e and "*" not in e and "+" not in e and "^" not in e:
            continue  # a lone division names no operator trigger
        pos("calculate", t.format(e=e), {"expression": e})
for e, v in [("x**2 - 4 = 0", None), ("2*x + 3 = 11", None), ("x^2 + 2*x + 1 = 0", None), ("3*y - 9 = 0", "y"), ("t**2 = 16", "t"), ("x**3 - x = 0", None), ("5*x - 10 = 0", None)]:
    if v is None:
        for t in ["Löse die Gleichung {e}.", "Löse {e} nach x auf.", "Solve {e}.", "Solve the equation {e} for x.", "Solve {e} for x."]:
            pos("solve_equation", t.format(e=e), {"equation": e})
    else:
        for t in ["Löse {e} nach {v} auf.", "Solve {e} for {v}.", "Löse die Gleichung {e} nach {v} auf.", "Solve the equation {e} for {v}."]:
            pos("solve_equation", t.format(e=e, v=v), {"equation": e, "variable": v})

# ---------------------------------------------------------------- statistics_calc / advanced_statistics
samples = [[1, 2, 3, 4, 5], [2, 4, 4, 4, 5, 5, 7, 9], [Decimal("1.5"), Decimal("2.5"), Decimal("4")], [10, 20, 30]]
stat = [("de", "Berechne den Mittelwert von {l}.", "mean"), ("de", "Bestimme den Median der Zahlen {l}.", "median"),
        ("de", "Berechne die Standardabweichung von {l}.", "stdev"), ("de", "Was ist die Summe von {l}?", "sum"),
        ("en", "Calculate the mean of {l}.", "mean"), ("en", "What is the median of {l}?", "median"),
        ("en", "Compute the variance of {l}.", "variance"), ("en", "Find the maximum of {l}.", "max")]
for lang, t, op in stat:
    for s in samples:
        if lang == "de":
            text = "; ".join(de_num(x) for x in s) if any(isinstance(x, Decimal) for x in s) else ", ".join(map(str, s[:-1])) + " und " + str(s[-1])
        else:
            text = ", ".join(en_num(x) for x in s)
        pos("statistics_calc", t.format(l=text), {"data": [num(x) for x in s], "operations": op})
xy = [([1, 2, 3, 4], [2, 4, 6, 9]), ([1, 2, 3], [3, 2, 1]), ([Decimal("0.5"), Decimal("1.5"), Decimal("2.5"), 4], [1, 2, 2, 3]), ([10, 20, 30, 40, 50], [12, 25, 29, 41, 55])]
for x, y in xy:
    xs, ys = ", ".join(en_num(v) for v in x), ", ".join(en_num(v) for v in y)
    xd, yd = "; ".join(de_num(v) for v in x), "; ".join(de_num(v) for v in y)
    X, Y = [num(v) for v in x], [num(v) for v in y]
    for t, op in [("Berechne die Korrelation zwischen x = {xd} und y = {yd}.", "correlation"), ("Bestimme die lineare Regression für x = {xd} und y = {yd}.", "linear_regression"),
                  ("Calculate the correlation between x = {xs} and y = {ys}.", "correlation"), ("Compute the linear regression of x = {xs} and y = {ys}.", "linear_regression"),
                  ("What is the Pearson correlation of x = {xs} and y = {ys}?", "correlation"), ("Ermittle den Korrelationskoeffizienten von x = {xd} und y = {yd}.", "correlation"),
                  ("Find the linear regression for x = {xs} and y = {ys}.", "linear_regression"), ("Berechne die Regressionsgerade für x = {xd} und y = {yd}.", "linear_regression")]:
        pos("advanced_statistics", t.format(xs=xs, ys=ys, xd=xd, yd=yd), {"operation": op, "x": X, "y": Y})

# ---------------------------------------------------------------- date_add / date_diff / business_calendar
for d, n, unit_de, unit_en, arg in [(datetime.date(2026, 7, 29), 30, "Tage", "days", "days"), (datetime.date(2024, 1, 31), 1, "Monat", "month", "months"),
                                    (datetime.date(2026, 1, 1), 3, "Wochen", "weeks", "weeks"), (datetime.date(2020, 2, 29), 1, "Jahr", "year", "years"),
                                    (datetime.date(2026, 12, 20), 100, "Tage", "days", "days"), (datetime.date(2025, 5, 31), 6, "Monate", "months", "months")]:
    for t in ["Welches Datum ist {n} {ud} nach dem {dd}?", "Addiere {n} {ud} zum {iso}.", "Welches Datum liegt {n} {ud} nach dem {iso}?",
              "What date is {n} {ue} after {iso}?", "Add {n} {ue} to {iso}.", "What date is {n} {ue} after {dd}?"]:
        pos("date_add", t.format(n=n, ud=unit_de, ue=unit_en, dd=de_date(d), iso=d.isoformat()), {"base_date": d.isoformat(), arg: n})
for a, b in [(datetime.date(2026, 1, 1), datetime.date(2026, 7, 29)), (datetime.date(2024, 1, 31), datetime.date(2024, 3, 1)),
             (datetime.date(2000, 1, 1), datetime.date(2026, 1, 1)), (datetime.date(2026, 12, 24), datetime.date(2026, 12, 31)),
             (datetime.date(2026, 7, 29), datetime.date(2026, 1, 1)), (datetime.date(1999, 12, 31), datetime.date(2000, 3, 1))]:
    for t in ["Wie viele Tage liegen zwischen dem {ad} und dem {bd}?", "Berechne die Anzahl der Tage zwischen {ai} und {bi}.",
              "How many days are between {ai} and {bi}?", "Calculate the number of days between {ai} and {bi}.",
              "Wie viele Tage sind zwischen {ai} und {bi}?", "Compute the difference between {ad} and {bd}."]:
        pos("date_diff", t.format(ad=de_date(a), bd=de_date(b), ai=a.isoformat(), bi=b.isoformat()), {"date1": a.isoformat(), "date2": b.isoformat()})
for d, cde, cen, code in [(datetime.date(2026, 12, 25), "Deutschland", "Germany", "DE"), (datetime.date(2026, 7, 29), "Österreich", "Austria", "AT"),
                          (datetime.date(2026, 7, 4), "den USA", "the United States", "US"), (datetime.date(2026, 5, 1), "Frankreich", "France", "FR"),
                          (datetime.date(2026, 8, 15), "Italien", "Italy", "IT")]:
    pos("business_calendar", f"Ist der {de_date(d)} in {cde} ein Arbeitstag?", {"operation": "is_business_day", "country": code, "date": d.isoformat()})
    pos("business_calendar", f"Is {d.isoformat()} a business day in {cen}?", {"operation": "is_business_day", "country": code, "date": d.isoformat()})
    pos("business_calendar", f"Is {d.isoformat()} a working day in {cen}?", {"operation": "is_business_day", "country": code, "date": d.isoformat()})
    e = d + datetime.timedelta(days=30)
    pos("business_calendar", f"Wie viele Arbeitstage liegen zwischen dem {de_date(d)} und dem {de_date(e)} in {cde}?",
        {"operation": "business_days_between", "country": code, "start": d.isoformat(), "end": e.isoformat()})
    pos("business_calendar", f"How many business days are between {d.isoformat()} and {e.isoformat()} in {cen}?",
        {"operation": "business_days_between", "country": code, "start": d.isoformat(), "end": e.isoformat()})
    pos("business_calendar", f"Add 10 business days to {d.isoformat()} in {cen}.", {"operation": "add_business_days", "country": code, "date": d.isoformat(), "days": 10})
    pos("business_calendar", f"Welches Datum ist 5 Arbeitstage nach dem {de_date(d)} in {cde}?", {"operation": "add_business_days", "country": code, "date": d.isoformat(), "days": 5})

# ---------------------------------------------------------------- schedule_expand
for expr, start, zone, n in [("0 9 * * 1", "2026-07-29T00:00:00", "Europe/Berlin", 3), ("30 2 * * *", "2026-03-27T12:00:00", "Europe/Berlin", 3),
                             ("*/15 * * * *", "2026-01-01T00:00:00", "UTC", 4), ("0 0 1 * *", "2026-01-15 08:00", "America/New_York", 2),
                             ("0 12 * * 1-5", "2026-07-29T10:00:00", "Asia/Tokyo", 5), ("15 8 1,15 * *", "2026-02-01T00:00:00", "Europe/London", 3)]:
    iso = start.replace(" ", "T") + (":00" if len(start) == 16 else "")
    args = {"syntax": "cron", "expression": expr, "start": iso, "timezone": zone, "count": n}
    for t in ['Zeige die ersten {n} Termine des Cron-Ausdrucks "{e}" ab {s} in {z}.', 'Liste {n} Ausführungen von Cron "{e}" ab {s} in {z}.',
              'List the first {n} occurrences of the cron expression "{e}" from {s} in {z}.', 'Show {n} runs of cron "{e}" starting {s} in {z}.',
              'Expand the first {n} occurrences of cron "{e}" from {s} in {z}.']:
        pos("schedule_expand", t.format(n=n, e=expr, s=start, z=zone), args)

# ---------------------------------------------------------------- subnet_calc / identifier_validate / version_compare
for c in ["192.168.1.0/24", "10.0.0.0/8", "172.16.0.0/12", "192.168.100.64/26", "203.0.113.0/28", "100.64.0.0/10"]:
    for t in ["Berechne das Subnetz {c}.", "Welche Broadcast-Adresse hat {c}?", "Bestimme die Netzmaske von {c}.",
              "Calculate the subnet {c}.", "What is the broadcast address of {c}?", "Give me the netmask for {c}."]:
        pos("subnet_calc", t.format(c=c), {"cidr": c})
for kind, word, value in [("iban", "IBAN", "DE89 3704 0044 0532 0130 00"), ("iban", "IBAN", "GB82 WEST 1234 5698 7654 32"), ("isbn", "ISBN", "978-3-16-148410-0"),
                          ("ean", "EAN", "4006381333931"), ("luhn", "Kreditkartennummer", "4111 1111 1111 1111"), ("uuid", "UUID", "123e4567-e89b-12d3-a456-426614174000")]:
    en_word = "credit card number" if kind == "luhn" else word
    for t, w in [("Prüfe die {w} {v}.", word), ("Ist die {w} {v} gültig?", word), ("Validiere die {w} {v}.", word),
                 ("Validate the {w} {v}.", en_word), ("Is the {w} {v} valid?", en_word), ("Check this {w} {v}.", en_word)]:
        pos("identifier_validate", t.format(w=w, v=value), {"kind": kind, "value": value})
for scheme, sw, a, b in [("semver", "SemVer", "1.2.3", "1.10.0"), ("semver", "SemVer", "2.0.0-rc.1", "2.0.0"), ("pep440", "PEP 440", "1.0a1", "1.0"),
                         ("debian", "Debian", "1:2.3-1", "2.4-1"), ("pep440", "PEP 440", "2.0.post1", "2.0"), ("semver", "SemVer", "v1.0.0", "1.0.0")]:
    for t in ["Vergleiche die {s}-Versionen {a} und {b}.", "Vergleiche die Versionen {a} und {b} nach {s}.", "Compare the {s} versions {a} and {b}.",
              "Compare versions {a} and {b} using {s}.", "Compare the versions {a} with {b} under {s}."]:
        pos("version_compare", t.format(s=sw, a=a, b=b), {"scheme": scheme, "operation": "compare", "a": a, "b": b})

# ---------------------------------------------------------------- physical_constant / geodesic
for de, en, name in [("die Lichtgeschwindigkeit", "the speed of light", "speed of light in vacuum"), ("die Elementarladung", "the elementary charge", "elementary charge"),
                     ("die Elektronenmasse", "the electron mass", "electron mass"), ("die Avogadro-Konstante", "the Avogadro constant", "Avogadro constant"),
                     ("die Boltzmann-Konstante", "the Boltzmann constant", "Boltzmann constant"), ("die Gravitationskonstante", "the gravitational constant", "Newtonian constant of gravitation"),
                     ("die Planck-Konstante", "the Planck constant", "Planck constant")]:
    for t in ["Wie groß ist {d}?", "Nenne mir {d}.", "Welchen Wert hat {d}?", "What is {e}?", "Give me the value of {e}."]:
        pos("physical_constant", t.format(d=de, e=en), {"name": name})
for (a, b), (c, d) in [(("52.52", "13.405"), ("48.8566", "2.3522")), (("40.7128", "-74.006"), ("51.5074", "-0.1278")), (("0", "0"), ("0", "1")),
                       (("-33.8688", "151.2093"), ("35.6762", "139.6503")), (("48.137", "11.575"), ("53.551", "9.993")), (("90", "0"), ("-90", "0"))]:
    args = {"operation": "inverse", "lat1": num(a), "lon1": num(b), "lat2": num(c), "lon2": num(d)}
    for t in ["Berechne die Entfernung zwischen {a}, {b} und {c}, {d}.", "Wie groß ist die Distanz zwischen ({a}, {b}) und ({c}, {d})?",
              "Calculate the distance between {a}, {b} and {c}, {d}.", "What is the geodesic distance between ({a}, {b}) and ({c}, {d})?",
              "Bestimme die Luftlinie zwischen {a}, {b} und {c}, {d}."]:
        pos("geodesic", t.format(a=a, b=b, c=c, d=d), args)

# ---------------------------------------------------------------- text payload tools
texts = ["abc", "hello world", "Grüße aus Köln", "", "a \"quoted\" word".replace('"', "'"), "Zeile eins\nZeile zwei"]
for algo_w, algo in [("SHA-256", "sha256"), ("MD5", "md5"), ("SHA-512", "sha512"), ("SHA3-256", "sha3_256"), ("BLAKE2b", "blake2b")]:
    for tx in texts[:4] + [texts[5]]:
        for t in ['Berechne den {a}-Hash von "{x}".', 'What is the {a} hash of "{x}"?']:
            pos("hash_text", t.format(a=algo_w, x=tx), {"algorithm": algo, "text": tx})
for tx in ["hello", "Grüße", "a+b=c", "precisiond", "x", "zwei Wörter"]:
    import base64
    b64 = base64.b64encode(tx.encode()).decode()
    pos("base64_codec", f'Kodiere "{tx}" in Base64.', {"text": tx})
    pos("base64_codec", f'Encode "{tx}" to Base64.', {"text": tx})
    pos("base64_codec", f'Base64-encode "{tx}"', {"text": tx})
    pos("base64_codec", f'Dekodiere den Base64-String "{b64}".', {"text": b64, "mode": "decode"})
    pos("base64_codec", f'Decode the Base64 string "{b64}".', {"text": b64, "mode": "decode"})
    pos("base64_codec", f'Decode base64 "{b64}"', {"text": b64, "mode": "decode"})
for tx in ["Der Hund bellt. Die Katze schläft.", "The quick brown fox jumps over the lazy dog.", "Eins zwei drei", "Hello! How are you? Fine.", "Ein Satz.", "Short text here"]:
    for t in ['Analysiere den Text: "{x}"', 'Wie viele Wörter hat der Text "{x}"?', 'Analyze this text: "{x}"', 'How many words are in "{x}"?',
              'Zähle die Wörter in "{x}".', 'Count the words in "{x}".']:
        pos("text_analyze", t.format(x=tx), {"text": tx})
for tx in ["Hallo Welt", "hello world", "Does this prompt fit?", "précision", "1 2 3 4 5", "tokens"]:
    pos("token_count", f'Wie viele Tokens hat "{tx}"?', {"text": tx})
    pos("token_count", f'How many tokens are in "{tx}"?', {"text": tx})
    pos("token_count", f'Count the tokens in "{tx}" with cl100k_base.', {"text": tx, "encoding": "cl100k_base"})
    pos("token_count", f'Zähle die Tokens in "{tx}" mit o200k_base.', {"text": tx, "encoding": "o200k_base"})
    pos("token_count", f'How many tokens does "{tx}" have?', {"text": tx})
for path, doc in [("a.b", '{"a": {"b": 2}}'), ("a.b[0].c", '{"a": {"b": [{"c": 1}, {"c": 2}]}}'), ("items[*].name", '{"items": [{"name": "x"}, {"name": "y"}]}'),
                  ("length(@)", '[1, 2, 3]'), ("users[0]", '{"users": ["ann", "bob"]}'), ("x", '{"x": null}')]:
    for t in ["Extract {p} from this JSON: {d}", "Evaluate the path {p} on this JSON: {d}", "Lies {p} aus diesem JSON: {d}",
              "Werte den Pfad {p} auf diesem JSON aus: {d}", "Query path {p} in the following JSON: {d}"]:
        pos("json_query", t.format(p=path, d=doc), {"path": path, "json_str": doc})
for pat, tx in [(r"\d+", "a1b22"), (r"[A-Z]\w+", "Hello World from Berlin"), (r"(\w+)@(\w+)\.com", "ann@example.com, bob@test.com"),
                (r"\bcat\b", "cat concatenate cat"), (r"[aeiou]", "precision"), (r"\d{4}-\d{2}-\d{2}", "on 2026-07-29 and 2026-08-01")]:
    for t in ["Finde alle Treffer von /{p}/ in: {x}", "Extrahiere alle Treffer des Musters /{p}/ aus: {x}", "Extract all matches of /{p}/ in: {x}",
              "Find all matches of the regex /{p}/ in this text: {x}", "List matches of /{p}/ in: {x}"]:
        pos("regex_extract", t.format(p=pat, x=tx), {"pattern": pat, "text": tx})
for fw, fmt, content in [("Markdown-Datei", "md", "# Bericht\n\nAlles gut."), ("Textdatei", "txt", "Hallo"), ("HTML-Datei", "html", "<p>Hi</p>"),
                         ("PDF-Datei", "pdf", "Hallo PDF"), ("Markdown", "md", "* eins\n* zwei"), ("Text", "txt", "Zeile")]:
    pos("generate_file", f"Erstelle eine {fw} mit dem Inhalt: {content}", {"format": fmt, "content": content})
    pos("generate_file", f"Erzeuge eine {fw} namens bericht mit dem Inhalt: {content}", {"format": fmt, "filename": "bericht", "content": content})
    en = {"md": "Markdown", "txt": "text", "html": "HTML", "pdf": "PDF"}[fmt]
    pos("generate_file", f"Create a {en} file with the content: {content}", {"format": fmt, "content": content})
    pos("generate_file", f"Generate a {en} file named report with content: {content}", {"format": fmt, "filename": "report", "content": content})
    pos("generate_file", f"Make a {en} document with the following content: {content}", {"format": fmt, "content": content})

# ---------------------------------------------------------------- numbered lists
lists = []
order = sorted(positives)
for i in range(40):
    a = positives[order[i % len(order)]][i % 5]
    b = positives[order[(i * 7 + 3) % len(order)]][(i + 2) % 5]
    c = positives[order[(i * 11 + 5) % len(order)]][(i + 4) % 5]
    items = [a, b] if i % 2 else [a, b, c]
    if any("\n" in x["text"] or x.get("tools") for x in items):
        continue
    sep = ")" if i % 3 == 0 else "."
    text = "\n".join(f"{k + 1}{sep} {x['text']}" for k, x in enumerate(items))
    intents = [{"tool": x["intents"][0]["tool"], "args": x["intents"][0]["args"], "item": k} for k, x in enumerate(items)]
    covered = True
    if i % 4 == 1:
        text = "Bitte erledige Folgendes:\n" + text
        covered = False
    if i % 5 == 2:
        text += f"\n{len(items) + 1}{sep} Erkläre kurz, wie du vorgegangen bist."
        covered = False
    lists.append({"text": text, "intents": intents, "covered": covered})

# ---------------------------------------------------------------- negatives
subjects_de = ["den GGT von 12 und 18", "den Wochentag für den 29.07.2026", "72 km/h in m/s", "den SHA-256-Hash von abc",
               "die Primfaktorzerlegung von 360", "die Korrelation zweier Listen", "das Subnetz 10.0.0.0/8", "die Lichtgeschwindigkeit",
               "die Tage zwischen zwei Daten", "die Standardabweichung einer Liste", "eine römische Zahl", "die Base64-Kodierung eines Textes"]
subjects_en = ["the GCD of 12 and 18", "the weekday of 2026-07-29", "72 km/h in m/s", "the SHA-256 hash of abc",
               "the prime factorization of 360", "the correlation of two lists", "the subnet 10.0.0.0/8", "the speed of light",
               "the days between two dates", "the standard deviation of a list", "a Roman numeral", "the Base64 encoding of a text"]
for s in subjects_de:
    neg(f"Implementiere Python-Code, der {s} berechnet.", "code", "code_request")
    neg(f"Schreibe eine Funktion in JavaScript, die {s} ermittelt.", "code", "code_request")
    neg(f"Die Dokumentation erwähnt {s} nur als Beispiel.", "mention", "mention_not_request")
    neg(f"Erkläre mir, wie man {s} bestimmt.", "about", "mention_not_request")
    neg(f"Erzähl mir einen Witz über {s}.", "joke")
    neg(f"Warum ist {s} wichtig?", "about")
for s in subjects_en:
    neg(f"Write a Python function that computes {s}.", "code", "code_request")
    neg(f"Implement a Rust program to find {s}.", "code", "code_request")
    neg(f"The tutorial mentions {s} as an example.", "mention", "mention_not_request")
    neg(f"Explain how to compute {s}.", "about", "mention_not_request")
    neg(f"Tell me a joke about {s}.", "joke")
    neg(f"Why does anyone care about {s}?", "about")
    neg(f"How do I calculate {s}?", "about", "mention_not_request")
for t in ["Welcher Wochentag ist morgen?", "Welcher Wochentag war gestern?", "What weekday is tomorrow?", "What day is next Friday?",
          "Wie spät ist es jetzt in Berlin?", "What time is it now in Tokyo?", "What time is it in Berlin?", "Wie spät ist es in New York?",
          "What date is 30 days from today?", "Welches Datum ist in 30 Tagen?", "Wie viele Tage sind es bis nächsten Freitag?",
          "Ist morgen in Deutschland ein Arbeitstag?", "Is today a business day in Germany?", "Welcher Wochentag ist heute?",
          "Convert the current time in Berlin to UTC.", "Wie viele Tage sind es noch bis Weihnachten?", "What day of the week is it today?",
          "Add 3 days to today.", "Welches Datum war vor 100 Tagen?", "How many days until next Monday?"]:
    neg(t, "relative")
for t, r in [("Berechne den GGT von 12.", "missing_argument"), ("Berechne 19 Prozent von 119.99 EUR.", "missing_argument"),
             ("Calculate 19 percent of 119.99 EUR.", "missing_argument"), ("Convert km/h to m/s.", "missing_argument"),
             ("Convert 2026-07-29T14:00:00 to UTC.", "missing_argument"), ("Vergleiche die Versionen 1.2.3 und 1.10.0.", "missing_argument"),
             ("Bestimme den Wochentag.", "missing_argument"), ("Wie wahrscheinlich ist ein Erfolg?", "missing_argument"),
             ("Berechne 100.50 + 20.25 EUR.", None), ("Compute 10 / 3 USD with scale 2.", "missing_argument"),
             ("Zerlege in Primfaktoren.", "missing_argument"), ("Validiere dieses CSV: a;b", "missing_argument"),
             ("Rechne 1.500 m in km um.", "ambiguous"), ("Convert 2,500 km to miles.", "ambiguous"), ("Wandle 1.250 kg in g um.", "ambiguous"),
             ("Bestimme den Wochentag für den 31.02.2026.", "invalid_value"), ("Which weekday was 2026-13-01?", "invalid_value"),
             ("Welcher Wochentag ist der 30.02.2024?", "invalid_value"), ("Ist der 31.04.2026 in Deutschland ein Arbeitstag?", "invalid_value"),
             ("Konvertiere 2026-07-29T14:00:00 von MEZ nach UTC.", "ambiguous"), ("Bestimme die Zeitfakten für 2026-07-29T12:00:00Z in CET.", "ambiguous"),
             ("Convert 2026-07-29T25:00:00 from Europe/Berlin to UTC.", "invalid_value"), ("Rechne 5 Parsec in km um.", None),
             ("Konvertiere 2026-07-29T14:00:00 von Mars/Olympus nach UTC.", "invalid_value")]:
    neg(t, "near_miss", r)
for t in ["Berechne den GGT von 10 und 15 sowie den Wochentag für 2026-07-29.", "Convert 5 km to m and tell me the weekday of 2026-07-29.",
          "Rechne 72 km/h in m/s um und berechne den SHA-256-Hash von abc.", "What is the gcd of 12 and 18 and the prime factorization of 360?",
          "Bestimme den Median von 1, 2, 3 und wandle 1994 in römische Zahlen um.", "Calculate the subnet 10.0.0.0/8 and the speed of light.",
          "Berechne die Primfaktorzerlegung von 360 und den Wochentag für den 29.07.2026.", "Zerlege 360 in Primfaktoren und kodiere das Ergebnis in Base64."]:
    neg(t, "multiple", "multiple_intents_in_prose")
for t in ["Calcule le PGCD de 12 et 18.", "Quel jour de la semaine était le 29/07/2026 ?", "Converti 72 km/h in m/s.", "Calcola il MCD di 12 e 18.",
          "¿Qué día de la semana es el 29 de julio de 2026?", "Bereken de GGD van 12 en 18.", "Convierte 72 km/h a m/s.", "Quelle est la vitesse de la lumière ?",
          "Oblicz NWD liczb 12 i 18.", "Vad är SHA-256 av abc?", "Hur många dagar är det mellan 2026-01-01 och 2026-07-29?", "Qual è la radice di 16?"]:
    neg(t, "other_language")
chat = ["Hallo, wie geht's?", "Fasse diesen Artikel zusammen.", "Schreibe eine freundliche E-Mail an den Kunden.", "What is the capital of France?",
        "Summarise the meeting notes.", "Translate 'good morning' into German.", "Was ist der Sinn des Lebens?", "Plan a trip to Rome.",
        "Gib mir drei Ideen für ein Abendessen.", "Who won the World Cup in 2014?", "Erkläre die Relativitätstheorie.", "Write a haiku about autumn.",
        "Wie wird das Wetter?", "Recommend a good book.", "Danke!", "Thanks, that's all.", "Kannst du mir helfen?", "What can you do?",
        "Berechne das exakt", "Berechne etwas", "Compute exactly", "Rechne mal nach.", "Bitte prüfe das.", "Validate my idea.",
        "Convert this to PDF.", "Was ist 1 plus 1 in Binärdarstellung für Menschen erklärt?", "Hash it out with your team.", "I need some space.",
        "Der Zug fährt um 14:00 Uhr ab.", "Meine IBAN habe ich vergessen.", "The version is old.", "Die Lichtgeschwindigkeit fasziniert mich.",
        "Ich habe am 29.07.2026 Geburtstag.", "My favourite number is 42.", "1994 war ein gutes Jahr.", "The subnet is down again.",
        "Repariere dieses ungültige JSON: {a:1}", "Konvertiere dieses YAML in JSON: a: 1", "Format this JSON: {\"a\":1}",
        "Beautify the XML <a><b/></a>", "Mein Lieblingsdatum ist 2026-07-29.", "Er war 72 km/h schnell.", "Die Zahl 360 hat viele Teiler.",
        "Gestern habe ich 5 km gejoggt.", "The GCD song is catchy.", "Primzahlen sind spannend.", "Base64 ist eine Kodierung.",
        "Mehrwertsteuer ist kompliziert.", "Zinsen sind gerade hoch.", "Was kostet ein Kaffee in Euro?", "Die Wahrscheinlichkeit ist gering."]
for t in chat:
    neg(t, "chat")
for i in range(1, 4):
    neg(f"1. Berechne den GGT von 10 und 15.\n{i + 2}. Bestimme den Wochentag für 2026-07-29.", "numbering", "numbering_not_contiguous")
    neg(f"2. Berechne den GGT von 1{i} und 15.\n3. Rechne 72 km/h in m/s um.", "numbering", "numbering_not_contiguous")
neg("1. Berechne den GGT von 10 und 15.\n1. Berechne den GGT von 21 und 14.", "numbering", "numbering_not_contiguous")
for s in subjects_de:
    neg(f"Programmiere in Java eine Klasse für {s}.", "code", "code_request")
    neg(f"Schreibe ein Bash-Skript für {s}.", "code", "code_request")
    neg(f"Beispielsweise könnte man {s} nehmen.", "mention", "mention_not_request")
    neg(f"Warum braucht man {s} überhaupt?", "about")
for s in subjects_en:
    neg(f"Write a SQL query for {s}.", "code", "code_request")
    neg(f"Give me a TypeScript snippet for {s}.", "code", "code_request")
    neg(f"For instance, {s} appears in the exam.", "mention", "mention_not_request")
for s in subjects_de[:10]:
    neg(f"In der Aufgabe steht zum Beispiel {s}.", "mention", "mention_not_request")
    neg(f"Wie funktioniert {s}?", "about", "mention_not_request")
for s in subjects_en[:10]:
    neg(f"For example, the book mentions {s}.", "mention", "mention_not_request")
    neg(f"Why is {s} useful?", "about")

os.makedirs(OUT, exist_ok=True)
for tool, cases in sorted(positives.items()):
    with open(os.path.join(OUT, tool + ".json"), "w", encoding="utf-8") as f:
        json.dump({"generator": GENERATOR, "positive": cases, "negative": []}, f, ensure_ascii=False, indent=1)
        f.write("\n")
with open(os.path.join(OUT, "_lists.json"), "w", encoding="utf-8") as f:
    json.dump({"generator": GENERATOR, "positive": lists, "negative": []}, f, ensure_ascii=False, indent=1)
    f.write("\n")
with open(os.path.join(OUT, "_negatives.json"), "w", encoding="utf-8") as f:
    json.dump({"generator": GENERATOR, "positive": [], "negative": negatives}, f, ensure_ascii=False, indent=1)
    f.write("\n")
print({t: len(c) for t, c in sorted(positives.items())}, "lists", len(lists), "negatives", len(negatives))
