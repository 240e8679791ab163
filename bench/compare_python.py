#!/usr/bin/env python3
"""Side-by-side timing: Python's stdlib/SymPy (what the replaced sidecar ran) versus
precisiond's in-process execution path, on the same inputs (compare_inputs.json).

Python is timed on the bare computation only (no JSON, no HTTP, no validation);
Go is timed through tools.Registry.Invoke: schema validation in and out, the
computation, canonical JSON and both hashes. Ratios > 1 mean precisiond is faster.

Run from the repo root:  python3 bench/compare_python.py [--benchtime 1s]
"""
import argparse, base64, importlib.metadata, calendar, hashlib, ipaddress, json, math, re, statistics, subprocess, sys, time
from datetime import date, datetime, timezone
from decimal import Decimal, Context, ROUND_HALF_EVEN, localcontext
from fractions import Fraction
from math import comb
from zoneinfo import ZoneInfo

import jmespath
import jsonschema
import sympy
from dateutil.relativedelta import relativedelta

def py_decimal_finance(a):
    p, rate, years, n = (Decimal(x) for x in a["operands"])
    with localcontext(Context(prec=128, rounding=ROUND_HALF_EVEN, Emin=-999, Emax=999)):
        v = p * (1 + rate / (100 * n)) ** int(years * n)
        return v.quantize(Decimal(1).scaleb(-a["scale"]), rounding=ROUND_HALF_EVEN)

def py_exact_probability(a):
    p = Fraction(a["numerator"], a["denominator"])
    r = comb(a["n"], a["k"]) * p ** a["k"] * (1 - p) ** (a["n"] - a["k"])
    with localcontext(Context(prec=200)):
        return (Decimal(r.numerator) / Decimal(r.denominator)).quantize(Decimal(1).scaleb(-a["decimal_scale"]))

def py_statistics(a):
    xs = [Decimal(x) for x in a["data"].split(",")]
    return statistics.mean(xs), statistics.median(xs), statistics.stdev(xs), statistics.variance(xs)

def py_factorint(a):
    return sympy.factorint(int(a["n"]))

def py_solve(a):
    x = sympy.Symbol("x")
    lhs, rhs = a["equation"].split("=")
    sols = sympy.solve(sympy.sympify(lhs) - sympy.sympify(rhs), x)
    return [sympy.N(s, 34) for s in sols]

def py_timezone(a):
    naive = datetime.fromisoformat(a["local_datetime"]).replace(fold=a["fold"])
    local = naive.replace(tzinfo=ZoneInfo(a["from_timezone"]))
    return local.astimezone(ZoneInfo(a["to_timezone"])).isoformat()

def py_calculate(a):
    with localcontext(Context(prec=a["precision"])):
        return Decimal(2).sqrt()

def py_gcd_lcm(a):
    return math.gcd(a["a"], a["b"]), math.lcm(a["a"], a["b"])

def py_calendar_facts(a):
    d = date.fromisoformat(a["date_str"])
    iso = d.isocalendar()
    return (iso.week, iso.year, d.timetuple().tm_yday, calendar.monthrange(d.year, d.month)[1],
            calendar.isleap(d.year), d.strftime("%A"), d.strftime("%B"), (d.month - 1) // 3 + 1)

def py_day_of_week(a):
    d = date.fromisoformat(a["date_str"])
    return d.isoweekday(), d.strftime("%A"), d.isocalendar().week, d.timetuple().tm_yday

def py_date_diff(a):
    d1, d2 = sorted((date.fromisoformat(a["date1"]), date.fromisoformat(a["date2"])))
    rd = relativedelta(d2, d1)
    days = (d2 - d1).days
    full, rest = divmod(days, 7)
    wd = d1.weekday()
    business = full * 5 + sum(1 for i in range(rest) if (wd + i) % 7 < 5)
    return rd.years, rd.months, rd.days, days, business

def py_date_add(a):
    d = date.fromisoformat(a["base_date"]) + relativedelta(years=a.get("years", 0), months=a.get("months", 0), days=a.get("days", 0))
    return d.isoformat(), d.strftime("%A")

def py_time_facts(a):
    inst = datetime.fromisoformat(a["instant"].replace("Z", "+00:00"))
    loc = inst.astimezone(ZoneInfo(a["timezone_name"]))
    return loc.isoformat(), loc.utcoffset(), loc.dst(), loc.tzname(), loc.isocalendar()

def py_hash_text(a):
    return hashlib.new(a["algorithm"], a["text"].encode()).hexdigest()

def py_base64(a):
    return base64.b64encode(a["text"].encode()).decode()

_RE_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}
def py_regex(a):
    flags = 0
    for f in a.get("flags", ""):
        flags |= _RE_FLAGS[f]
    out = []
    for m in re.finditer(a["pattern"], a["text"], flags):
        out.append((m.group(0), m.start(), m.end(), m.groups(), m.groupdict()))
        if len(out) >= a.get("limit", 20):
            break
    return out

def py_subnet(a):
    n = ipaddress.ip_network(a["cidr"], strict=False)
    hosts = (n.network_address + 1, n.broadcast_address - 1) if n.num_addresses > 2 else (n.network_address, n.broadcast_address)
    return (str(n.network_address), n.prefixlen, str(n.netmask), str(n.hostmask), str(n.broadcast_address), [str(h) for h in hosts],
            n.num_addresses, n.is_private, n.is_global, n.is_multicast, n.is_loopback, n.is_link_local)

_WORD = re.compile(r"[A-Za-z']+")
_VOWELS = re.compile(r"[aeiouy]+")
def py_text_analyze(a):
    t = a["text"]
    words = _WORD.findall(t)
    syll = sum(max(1, len(_VOWELS.findall(w.lower())) - (1 if w.lower().endswith("e") else 0)) for w in words)
    sentences = max(1, len(re.findall(r"[.!?]+", t)))
    return (len(words), len({w.lower() for w in words}), len(t), len("".join(t.split())), sentences,
            len([p for p in t.split("\n\n") if p.strip()]), syll,
            206.835 - 1.015 * len(words) / sentences - 84.6 * syll / len(words))

def py_json_query(a):
    return jmespath.search(a["path"], json.loads(a["json_str"]))

_ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
def py_roman(a):
    s, i, n = str(a["value"]).upper(), 0, 0
    for v, r in _ROMAN:
        while s.startswith(r, i):
            n += v; i += len(r)
    out, m = "", n
    for v, r in _ROMAN:
        while m >= v:
            out += r; m -= v
    if out != s:
        raise ValueError("not canonical")
    return n

_VALIDATORS = {}
def py_structured_validate(a):
    doc = json.loads(a["payload"])
    v = _VALIDATORS.get(a["schema_json"])  # compiled once, as a long-running service would
    if v is None:
        v = _VALIDATORS[a["schema_json"]] = jsonschema.Draft202012Validator(json.loads(a["schema_json"]))
    return [e.message for e in v.iter_errors(doc)][:50], hashlib.sha256(a["payload"].encode()).hexdigest()

PY = {"gcd_lcm": py_gcd_lcm, "calendar_facts": py_calendar_facts, "day_of_week": py_day_of_week,
      "date_diff": py_date_diff, "date_add": py_date_add, "time_facts": py_time_facts,
      "hash_text": py_hash_text, "base64_codec": py_base64, "regex_extract": py_regex,
      "subnet_calc": py_subnet, "text_analyze": py_text_analyze, "json_query": py_json_query,
      "roman_numeral": py_roman, "structured_validate": py_structured_validate,
      "decimal_finance": py_decimal_finance, "exact_probability": py_exact_probability,
      "statistics_calc": py_statistics, "prime_factorize": py_factorint, "solve_equation": py_solve,
      "timezone_convert": py_timezone, "calculate": py_calculate}

def clear_factor_cache():
    # sympy >= 1.13 memoizes factorint results: a repeated call on the same n is
    # a dictionary look-up, not a factorization. Every timed call starts cold.
    try:
        from sympy.ntheory.factor_ import factor_cache
        factor_cache.clear()
    except ImportError:
        pass

PREPARE = {"prime_factorize": clear_factor_cache}

def time_py(fn, args, budget=1.0, prepare=None):
    if prepare: prepare()
    fn(args)  # warm module-level caches (zoneinfo, regex, imports), as a long-running sidecar would be
    # Mean time per call over the budget, as `go test -bench` reports ns/op, so
    # both sides are averaged over the same kind of (shared, loaded) machine time.
    n, spent, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < budget or n < 3:
        if prepare: prepare()
        t0 = time.perf_counter(); fn(args); spent += time.perf_counter() - t0; n += 1
    return spent / n * 1e9  # ns per call

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--benchtime", default="1s")
    ap.add_argument("--count", type=int, default=3, help="Go benchmark repetitions (median taken)")
    ap.add_argument("--only", default="", help="only the inputs whose name contains this text")
    ap.add_argument("--rounds", type=int, default=1, help="alternate Go and Python this many times (median ratios)")
    opts = ap.parse_args()
    cases = [c for c in json.load(open("bench/compare_inputs.json"))["cases"] if opts.only in c["name"]]
    bench = "^BenchmarkCompare(Execute)?$"
    if opts.only:
        bench += "/" + re.escape(opts.only.replace(" ", "_"))
    budget = float(opts.benchtime.rstrip("s"))
    # Each round runs the Go benchmarks once, then Python on every input, so
    # that the two sides of a ratio are measured minutes apart at most on this
    # shared machine; the ratios are medians of the per-round ratios.
    go_runs, py_runs, ratios = {}, {}, {}
    for _ in range(opts.rounds):
        out = subprocess.run(["go", "test", "-run", "^$", "-bench", bench, "-benchtime", opts.benchtime,
                              "-count", str(opts.count), "./bench/"], capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stdout, out.stderr, file=sys.stderr); sys.exit(1)
        runs = {}
        for line in out.stdout.splitlines():
            m = re.match(r"BenchmarkCompare(Execute)?/(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
            if m:
                runs.setdefault((m.group(1) or "Invoke", m.group(2)), []).append(float(m.group(3)))
        for k, v in runs.items():
            go_runs.setdefault(k, []).append(statistics.median(v))
        for c in cases:
            key = c["name"].replace(" ", "_")
            py = time_py(PY[c["tool"]], c["args"], budget=budget, prepare=PREPARE.get(c["tool"]))
            py_runs.setdefault(key, []).append(py)
            for kind in ("Execute", "Invoke"):
                if runs.get((kind, key)):
                    ratios.setdefault((kind, key), []).append(py / statistics.median(runs[(kind, key)]))
    go = {k: statistics.median(v) for k, v in go_runs.items()}
    print(f"Python {sys.version.split()[0]}, sympy {sympy.__version__}, jsonschema {importlib.metadata.version('jsonschema')}, "
          f"jmespath {jmespath.__version__}; Go: median of {opts.count} runs of `go test -bench BenchmarkCompare -benchtime {opts.benchtime} ./bench/`"
          f"{f', {opts.rounds} rounds alternating Go and Python, times and ratios are medians over the rounds' if opts.rounds > 1 else ''}; "
          f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, load average {' '.join(open('/proc/loadavg').read().split()[:3])}\n")
    print("| input | tool | Python (bare computation, mean per call) | Go tool execution | ratio Python ÷ Go execution | Go full Invoke path | ratio Python ÷ Go Invoke |")
    print("|---|---|---:|---:|---:|---:|---:|")
    slower_exec = slower_inv = 0
    fmt = lambda ns: f"{ns/1e6:.3f} ms" if ns >= 1e5 else f"{ns/1e3:.1f} µs"
    for c in cases:
        key = c["name"].replace(" ", "_")
        py = statistics.median(py_runs[key])
        ge, gi = go.get(("Execute", key)), go.get(("Invoke", key))
        if not ge or not gi:
            print(f"| {c['name']} | {c['tool']} | {fmt(py)} | n/a | n/a | n/a | n/a |")
            continue
        re_, ri = statistics.median(ratios[("Execute", key)]), statistics.median(ratios[("Invoke", key)])
        slower_exec += re_ < 1
        slower_inv += ri < 1
        mark = lambda r: f"{r:.2f}×" if r >= 1 else f"**{r:.2f}×**"
        print(f"| {c['name']} | {c['tool']} | {fmt(py)} | {fmt(ge)} | {mark(re_)} | {fmt(gi)} | {mark(ri)} |")
    print(f"\nTool execution at least as fast as Python: {len(cases) - slower_exec} of {len(cases)} inputs; "
          f"full Invoke path (validation in and out, envelope, two SHA-256 hashes) at least as fast as Python's bare computation: "
          f"{len(cases) - slower_inv} of {len(cases)}. Bold ratios: Python faster.")

if __name__ == "__main__":
    main()
