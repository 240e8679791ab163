#!/usr/bin/env python3
"""Oracle for statistics_calc: Python's statistics module run on exact
fractions.Fraction data (so mean, median, mode, multimode, variance, pvariance,
quantiles and harmonic_mean come back as exact Fractions), mpmath at 100 digits
for the square roots and the geometric mean, and decimal for the rendering
(exact plain notation, or half-even rounding to 34 significant digits).

Writes tools/testdata/statistics_calc/oracle_cases.json.
Run from the repository root:  python3 tools/testdata/oracle/gen_statistics.py
"""
import json
import math
import os
import random
import statistics
import sys
from decimal import Context, Decimal, ROUND_HALF_EVEN
from fractions import Fraction

import mpmath

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import record  # noqa: E402
from exact import terminates  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
mpmath.mp.dps = 100
PREC = 34
DEFAULT_OPS = "mean,median,stdev,min,max,sum,count"
ALL_OPS = ["count", "sum", "mean", "median", "mode", "multimode", "min", "max", "range", "variance",
           "stdev", "pvariance", "pstdev", "geometric_mean", "harmonic_mean", "quantiles"]
BIG = Context(prec=100000, Emax=10**6, Emin=-10**6)


class Refused(Exception):
    def __init__(self, code, reason):
        self.code, self.reason = code, reason


def plain(d):
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def sig_digits(f):
    """Significant digits of a terminating fraction (no trailing zeros)."""
    d = BIG.divide(Decimal(f.numerator), Decimal(f.denominator)).normalize(BIG)
    return len(d.as_tuple().digits)


def frac_str(f):
    """(string, exact) for an exact rational."""
    if f == 0:
        return "0", True
    if terminates(f) and sig_digits(f) <= 200:
        return plain(BIG.divide(Decimal(f.numerator), Decimal(f.denominator))), True
    q = Context(prec=PREC, rounding=ROUND_HALF_EVEN, Emax=10**6, Emin=-10**6).divide(
        Decimal(f.numerator), Decimal(f.denominator))
    return format(q, "f"), False


def round_mp(x):
    """Round an mpmath value (100 digits) half-even to 34 significant digits."""
    d = Decimal(mpmath.nstr(x, 90))
    q = Context(prec=PREC, rounding=ROUND_HALF_EVEN, Emax=10**6, Emin=-10**6).plus(d)
    return format(q, "f")


def is_square(n):
    r = math.isqrt(n)
    return r * r == n


def sqrt_str(v):
    if v == 0:
        return "0", True
    if is_square(v.numerator) and is_square(v.denominator):
        return frac_str(Fraction(math.isqrt(v.numerator), math.isqrt(v.denominator)))
    return round_mp(mpmath.sqrt(mpmath.mpf(v.numerator) / v.denominator)), False


def geometric(data):
    if any(x < 0 for x in data):
        raise Refused("tool_execution_error", "negative_value")
    if any(x == 0 for x in data):
        return "0", True
    n = len(data)
    logs = mpmath.fsum(mpmath.log(mpmath.mpf(x.numerator)) - mpmath.log(x.denominator) for x in data)
    g = mpmath.exp(logs / n)
    prod = Fraction(1)
    for x in data:
        prod *= x
    # Exact when some decimal of at most 70 significant digits, to the n-th power,
    # is the product (checked for the candidates that agree with g to 1e-80).
    for p in range(1, 71):
        cand = Decimal(mpmath.nstr(g, p))
        if abs(mpmath.mpf(str(cand)) - g) <= abs(g) * mpmath.mpf(10) ** -80:
            if Fraction(cand) ** n == prod:
                return plain(cand), True
            break
    return round_mp(g), False


def harmonic(data):
    for x in data:  # Python scans in order
        if x < 0:
            raise Refused("tool_execution_error", "negative_value")
        if x == 0:
            return "0", True
    return frac_str(Fraction(statistics.harmonic_mean(data)))


# The single-valued operations whose result is an exact Fraction of the data.
EXACT_OPS = {
    "sum": lambda data: sum(data, Fraction(0)),
    "mean": statistics.mean,
    "median": statistics.median,
    "mode": statistics.mode,
    "min": min,
    "max": max,
    "range": lambda data: max(data) - min(data),
    "variance": statistics.variance,
    "pvariance": statistics.pvariance,
}
# The operations that are the square root of such a Fraction.
ROOT_OPS = {"stdev": statistics.variance, "pstdev": statistics.pvariance}


def compute(data, ops, qn, qm):
    out = {}
    for op in ops:
        if op == "count":
            out[op] = {"value": str(len(data)), "exact": True}
            continue
        if op in ("multimode", "quantiles"):
            if op == "multimode":
                vals = statistics.multimode(data)
            else:
                if len(data) < 2:
                    raise Refused("tool_execution_error", "needs_at_least_two_values")
                vals = statistics.quantiles(data, n=qn, method=qm)
            strs = [frac_str(Fraction(v)) for v in vals]
            out[op] = {"values": [s for s, _ in strs], "exact": all(e for _, e in strs)}
            continue
        if op in ("variance", "stdev") and len(data) < 2:
            raise Refused("tool_execution_error", "needs_at_least_two_values")
        if op in EXACT_OPS:
            s, e = frac_str(Fraction(EXACT_OPS[op](data)))
        elif op in ROOT_OPS:
            s, e = sqrt_str(Fraction(ROOT_OPS[op](data)))
        elif op == "geometric_mean":
            s, e = geometric(data)
        elif op == "harmonic_mean":
            s, e = harmonic(data)
        out[op] = {"value": s, "exact": e}
    return out


def parse_value(text, index):
    t = text
    if len(t) > 200:
        raise Refused("tool_execution_error", "value_out_of_range")
    low = t.lstrip("+-").lower()
    if low in ("inf", "infinity", "nan"):
        raise Refused("tool_execution_error", "non_finite_value")
    import re
    m = re.fullmatch(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?", t)
    if not m or (m.group(2) == "" and (m.group(3) or "") == ""):
        raise Refused("tool_execution_error", "invalid_number")
    if m.group(4) is not None and abs(int(m.group(4))) > 100:
        raise Refused("tool_execution_error", "value_out_of_range")
    if len((m.group(2) + (m.group(3) or "")).strip("0")) > 50:
        raise Refused("tool_execution_error", "value_out_of_range")
    return Fraction(Decimal(t))


cases = []


def add(name, data, ops=None, qn=None, qm=None):
    args = {"data": data}
    if ops is not None:
        args["operations"] = ops
    if qn is not None:
        args["quantiles_n"] = qn
    if qm is not None:
        args["quantiles_method"] = qm
    qn = 4 if qn is None else qn
    qm = "exclusive" if qm is None else qm
    case = {"name": name, "args": args}
    try:
        op_list = ops if ops is not None else DEFAULT_OPS
        names = op_list.split(",") if isinstance(op_list, str) else op_list
        seen = []
        for o in names:
            o = o.strip()
            if not o:
                continue
            if o not in ALL_OPS:
                raise Refused("tool_execution_error", "unknown_operation")
            if o not in seen:
                seen.append(o)
        if not seen:
            raise Refused("tool_execution_error", "no_operations")
        if isinstance(data, str):
            if data.count(",") + 1 > 100000:
                raise Refused("cost_limit_exceeded", "too_many_values")
            if data.strip() == "":
                raise Refused("tool_execution_error", "empty_data")
            items = [it.strip(" \t\r\n") for it in data.split(",")]
            values = []
            for i, it in enumerate(items):
                if it == "":
                    raise Refused("tool_execution_error", "invalid_number")
                values.append(parse_value(it, i))
        else:
            values = [parse_value(v if isinstance(v, str) else json.dumps(v), i) for i, v in enumerate(data)]
        results = compute(values, seen, qn, qm)
        case["facts"] = {"count": len(values), "operations": seen, "results": results,
                         "precision": PREC, "quantiles_n": qn, "quantiles_method": qm}
        case["warnings"] = ["rounded"] if any(not r["exact"] for r in results.values()) else []
    except Refused as e:
        case["error_code"], case["reason"] = e.code, e.reason
    cases.append(case)


rng = random.Random(424242)


def rand_value():
    kind = rng.random()
    if kind < 0.35:
        return str(rng.randint(-50, 100))
    if kind < 0.7:
        return f"{rng.randint(-999, 9999) / 100:.2f}"
    if kind < 0.8:
        return f"{rng.randint(1, 99)}e{rng.randint(-5, 5)}"
    if kind < 0.9:
        return "0." + "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 12)))
    return str(rng.randint(1, 10**rng.randint(1, 30)))


# Readme-style basics.
add("basic_default_ops", "1,2,3,4,5")
add("basic_all_ops", "1,2,3,4,5", ",".join(ALL_OPS))
add("spaces_and_newlines", " 1 ,\t2,\n3 ")
add("float_literals_exact", [0.1, 0.2, 0.3], ["sum", "mean", "variance"])
add("decimal_strings", ["0.1", "0.2", "0.30"], ALL_OPS)
add("mixed_array", [1, "2.5", 3e2, "-4E-1"], ALL_OPS)
add("single_value", "7", ["count", "sum", "mean", "median", "mode", "min", "max", "range", "pvariance",
                           "pstdev", "geometric_mean", "harmonic_mean"])
add("single_value_stdev", "7", ["stdev"])
add("single_value_variance", "7", "variance")
add("single_value_quantiles", "7", "quantiles")
add("two_values_quantiles", "1,2", "quantiles")
add("repeating_mean", "1,1,2", "mean,variance,stdev")
add("perfect_square_stdev", "2,4,4,4,5,5,7,9", "pstdev,stdev,pvariance,variance")
add("geometric_exact", "2,8", "geometric_mean")
add("geometric_exact_3", "1,3,9", "geometric_mean")
add("geometric_exact_decimal", "0.5,2", "geometric_mean")
add("geometric_inexact", "1,2", "geometric_mean")
add("geometric_exact_35_digits", "1.0000000000000000000000000000000005,1.0000000000000000000000000000000005", "geometric_mean")
add("geometric_exact_49_digits", ["1." + "0" * 47 + "1"] * 3, "geometric_mean")
add("geometric_exact_square", "1.21,1", "geometric_mean")
add("geometric_large_n_exact", ",".join(["4", "16"] * 500), "geometric_mean")
add("geometric_zero", "0,5,7", "geometric_mean")
add("geometric_negative", "0,-5,7", "geometric_mean")
add("harmonic_basic", "40,60", "harmonic_mean")
add("harmonic_zero_first", "0,-1", "harmonic_mean")
add("harmonic_negative_first", "-1,0", "harmonic_mean")
add("harmonic_repeating", "1,2,4", "harmonic_mean")
add("mode_ties_first_seen", "3,1,1,3,2", "mode,multimode")
add("mode_equal_values_different_text", ["1.0", "1", "2"], "mode,multimode")
add("negative_values", "-1,-2,-3.5", ALL_OPS[:13])
add("huge_and_tiny", ["1e100", "1e-100", "12345678901234567890123456789012345678901234567890"], "sum,mean,min,max,range,median")
add("zeros", "0,0,0", "mean,stdev,pstdev,variance,mode,median,sum,range")
add("exponent_forms", "1E3,2e+2,.5,5.,+7", "sum,mean,min,max")
for qn in (2, 3, 4, 10, 100):
    for qm in ("exclusive", "inclusive"):
        add(f"quantiles_{qn}_{qm}", "1,2,3,4,5,6,7,8,9,10,11", "quantiles", qn, qm)
        add(f"quantiles_{qn}_{qm}_small", "1.5,-2,7", "quantiles", qn, qm)

# Errors.
add("empty_string", "   ")
add("empty_item", "1,,2")
add("trailing_comma", "1,2,")
add("not_a_number", "1,abc,2")
add("inf_value", "1,inf")
add("nan_value", ["nan"])
add("neg_infinity", "-Infinity,1")
add("exponent_too_big", "1e101")
add("too_many_digits", "1" * 51)
add("trailing_zeros_not_significant", "1" + "0" * 80 + ",1" + "0" * 49 + ".5", "sum,max")
add("too_long_value", "0." + "0" * 199 + "1")
add("underscore", "1_000")
add("hex", "0x10")
add("unknown_operation", "1,2", "mean,average")
add("no_operations", "1,2", " , ")
add("operations_array_dupes", "1,2,3", ["mean", "mean", "median"])

# Random data sets, all operations.
for i in range(260):
    size = rng.choice([2, 3, 4, 5, 7, 10, 20, 50, rng.randint(2, 200)])
    vals = [rand_value() for _ in range(size)]
    if rng.random() < 0.3:
        vals = [v.lstrip("-") or "0" for v in vals]
    ops = rng.sample(ALL_OPS, rng.randint(1, len(ALL_OPS)))
    if any(v.startswith("-") for v in vals) and rng.random() < 0.9:
        ops = [o for o in ops if o not in ("geometric_mean", "harmonic_mean")] or ["mean"]
    qn = rng.choice([None, 2, 4, 5, 10])
    qm = rng.choice([None, "exclusive", "inclusive"])
    data = ", ".join(vals) if rng.random() < 0.5 else vals
    add(f"random_{i}", data, ops if rng.random() < 0.5 else ",".join(ops), qn, qm)

# A larger sample (positive values so that every operation is defined).
vals = [f"{rng.randint(1, 10**6) / 1000:.3f}" for _ in range(3000)]
add("large_3000", ",".join(vals), ALL_OPS)

os.makedirs(os.path.join(ROOT, "tools/testdata/statistics_calc"), exist_ok=True)
with open(os.path.join(ROOT, "tools/testdata/statistics_calc/oracle_cases.json"), "w") as f:
    json.dump({"generator": record("tools/testdata/oracle/gen_statistics.py", mpmath), "cases": cases}, f, indent=1)
    f.write("\n")
print(len(cases), "statistics_calc cases")
