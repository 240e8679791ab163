"""Oracle vectors of advanced_statistics:
tools/testdata/advanced_statistics/oracle_{quantiles,regression,correlation,interval,refusals}.json.

Run with Debian's Python and its python3-numpy, python3-scipy and python3-mpmath:

    /usr/bin/python3 tools/testdata/oracle/gen_advstats.py

Expected values are computed from the published definitions in exact
arithmetic (fractions.Fraction) and, for irrational results, with mpmath at
50 significant digits; the libraries the issue names then confirm them:
- quantiles: numpy 2.x's nine methods as Hyndman and Fan (1996) write them,
  1-based: Q(p) = x_j + g·(x_{j+1} - x_j) with j = floor(n·p + m) and
  m = alpha + p·(1 - alpha - beta) for the continuous methods; the three
  discontinuous ones as numpy's documentation defines them, closest_observation
  with numpy >= 2.0.1's tie rule (g = 0 and j even: x_j). Each case is also
  run through the installed numpy.quantile (Debian's numpy 1.24 computes the
  index in float64 and has the pre-2.0.1 closest_observation tie rule): the
  cases where it differs are listed in "numpy_differences" with the cause.
- linear_regression, correlation: the sums of squares and products in
  Fraction; r, stderr and tau-b as sqrt of an exact rational in mpmath;
  scipy.stats.linregress, pearsonr, spearmanr and kendalltau confirm each
  within 1e-9 (relative) on float64 data where the float data are exact.
- confidence_interval: t = the (1+confidence)/2 quantile of Student's t with
  n-1 degrees of freedom, solved with mpmath.findroot on
  1 - betainc(df/2, 1/2, 0, df/(df+t^2), regularized)/2, scipy.stats.t.ppf as
  the start; low/high = mean -/+ t*sqrt(s^2/n).
Decimal strings: exact when the value terminates within 200 significant
digits, else rounded half-even to 30 significant digits (trailing zeros kept);
irrational values from 50 mpmath digits (a case whose digits 31-50 sit within
10^-15 of a rounding boundary is dropped; none is expected). The float is the
float64 nearest the value (float(Fraction), float(mpf)).
"""
import decimal
import math
import os
import random
import sys
from fractions import Fraction

import mpmath
import numpy
import scipy
import scipy.stats

sys.path.insert(0, os.path.dirname(__file__))
from versions import record, write_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("ADVSTATS_ORACLE_OUT", os.path.join(HERE, "..", "advanced_statistics"))
SEED = int(os.environ.get("ADVSTATS_ORACLE_SEED", "20261202"))
N_RANDOM = int(os.environ.get("ADVSTATS_ORACLE_RANDOM", "150"))  # per operation
rnd = random.Random(SEED)
mpmath.mp.dps = 50
DIGITS = 30
GEN = "tools/testdata/oracle/gen_advstats.py"

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear",
           "median_unbiased", "normal_unbiased"]
ALPHA_BETA = {"interpolated_inverted_cdf": (0, 1), "hazen": (Fraction(1, 2),) * 2,
              "weibull": (0, 0), "linear": (1, 1), "median_unbiased": (Fraction(1, 3),) * 2,
              "normal_unbiased": (Fraction(3, 8),) * 2}


# ---------------------------------------------------------------- numbers

def value_of(v):
    """The exact value of a data item as the tool reads it: as written."""
    if isinstance(v, str):
        return Fraction(decimal.Decimal(v))
    if isinstance(v, int):
        return Fraction(v)
    return Fraction(decimal.Decimal(repr(v)))


def plain(d):
    """A Decimal in plain notation, every digit of its coefficient kept."""
    return format(d, "f")


def terminating(q):
    d = q.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    return d == 1


def rat_decimal(q):
    if q == 0:
        return "0", True
    if terminating(q):
        k = 0
        while (q * 10 ** k).denominator != 1:
            k += 1
        coef = int(q * 10 ** k)
        while k > 0 and coef % 10 == 0:
            coef, k = coef // 10, k - 1
        if len(str(abs(coef)).rstrip("0")) <= 200:
            return plain(decimal.Context(prec=1000).scaleb(decimal.Decimal(coef), -k)), True
    ctx = decimal.Context(prec=DIGITS, rounding=decimal.ROUND_HALF_EVEN)
    return plain(ctx.divide(decimal.Decimal(q.numerator), decimal.Decimal(q.denominator))), False


def float_or_none(v):
    """The float64 nearest v, None beyond float64's range."""
    try:
        f = float(v)
    except OverflowError:
        return None
    return None if math.isinf(f) else f


def rat_number(q):
    s, exact = rat_decimal(q)
    frac = str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
    return {"fraction": frac, "decimal": s, "exact": exact, "float": float_or_none(q)}


class NearTie(Exception):
    pass


def irr_number(v):
    """An irrational mpf (50 digits) rounded half-even to 30 digits."""
    s = mpmath.nstr(v, 50, min_fixed=-math.inf, max_fixed=math.inf)
    d = decimal.Decimal(mpmath.nstr(v, 50, strip_zeros=False))
    tail = d.as_tuple().digits[DIGITS:]
    t = "".join(map(str, tail))
    if t[:15] in ("5" + "0" * 14, "4" + "9" * 14, "0" * 15, "9" * 15):
        raise NearTie(s)
    ctx = decimal.Context(prec=DIGITS, rounding=decimal.ROUND_HALF_EVEN)
    return {"decimal": plain(ctx.plus(d)), "exact": False, "float": float_or_none(v)}


def sqrt_number(sign, q):
    """sign * sqrt(q) for a rational q >= 0: a fraction when q is a ratio of squares."""
    if q == 0:
        return rat_number(Fraction(0))
    a, b = math.isqrt(q.numerator), math.isqrt(q.denominator)
    if a * a == q.numerator and b * b == q.denominator:
        return rat_number(sign * Fraction(a, b))
    v = mpmath.sqrt(mpmath.mpf(q.numerator) / q.denominator)
    return irr_number(sign * v)


# ---------------------------------------------------------------- data

def rand_value(style):
    if style == "int":
        return rnd.randint(-50, 50)
    if style == "small":
        return f"{rnd.randint(-99999, 99999) / 1000:.3f}"
    if style == "float":
        return round(rnd.uniform(-100, 100), rnd.randint(0, 4))
    if style == "wide":
        digits = "".join(rnd.choice("0123456789") for _ in range(rnd.randint(1, 40)))
        return f"{rnd.choice(['', '-'])}{digits}e{rnd.randint(-60, 60)}"
    raise ValueError(style)


def rand_data(n, style=None):
    style = style or rnd.choice(["int", "int", "small", "float", "wide"])
    if style == "int" and rnd.random() < 0.5:  # many ties
        return [rnd.randint(0, 5) for _ in range(n)]
    return [rand_value(style) for _ in range(n)]


def rand_prob():
    k = rnd.choice([1, 2, 2, 3, 4])
    return rnd.choice([f"{rnd.randint(0, 10 ** k) / 10 ** k:.{k}f}", rnd.randint(0, 10 ** k) / 10 ** k])


# ---------------------------------------------------------------- quantiles

def hf_quantile(xs, p, method):
    """numpy 2.x's method on sorted Fractions xs, 1-based as Hyndman and Fan."""
    n = len(xs)

    def x(j):  # x_j, 1-based, clamped to x_1 .. x_n
        return xs[min(max(j, 1), n) - 1]
    np_ = n * p
    if method == "inverted_cdf":
        return x(math.ceil(np_))
    if method == "averaged_inverted_cdf":
        if np_.denominator == 1:
            j = int(np_)
            if j <= 0:
                return x(1)
            if j >= n:
                return x(n)
            return (x(j) + x(j + 1)) / 2
        return x(math.ceil(np_))
    if method == "closest_observation":
        j = math.floor(np_ - Fraction(1, 2))
        g = np_ - Fraction(1, 2) - j
        return x(j) if g == 0 and j % 2 == 0 else x(j + 1)
    a, b = ALPHA_BETA[method]
    h = np_ + a + p * (1 - a - b)  # 1-based position
    if h < 1:
        return x(1)
    if h >= n:
        return x(n)
    j = math.floor(h)
    g = h - j
    return x(j) + g * (x(j + 1) - x(j))


def quantile_case(data, probs, method, name=None):
    vals = sorted(value_of(v) for v in data)
    ps = [value_of(p) for p in probs]
    facts = {"operation": "quantiles", "digits": DIGITS, "method": method, "n": len(data),
             "quantiles": [{"probability": rat_decimal(p)[0], "value": rat_number(hf_quantile(vals, p, method))}
                           for p in ps]}
    args = {"operation": "quantiles", "data": data, "probabilities": probs}
    if method != "linear" or rnd.random() < 0.5:
        args["method"] = method
    c = {"args": args, "facts": facts}
    if name:
        c["name"] = name
    # numpy (installed) on the float data
    fl = numpy.array([float(v) for v in vals])
    got = numpy.quantile(fl, [float(p) for p in ps], method=method)
    diffs = []
    for p, q, g in zip(ps, facts["quantiles"], got):
        want = q["value"]["float"]
        tol = 1e-12 * max(abs(want), abs(float(vals[0])), abs(float(vals[-1])), 1e-300)
        if abs(g - want) > tol:
            diffs.append((p, g, want))
    return c, diffs


def quantile_cases():
    cases, differences = [], []

    def add(data, probs, method, name=None):
        c, diffs = quantile_case(data, probs, method, name)
        cases.append(c)
        for p, g, want in diffs:
            cause = numpy_cause(len(data), p, method)
            differences.append({"case": len(cases) - 1, "probability": str(p), "method": method,
                                "numpy": g, "definition": want, "cause": cause})
    # edges: n = 1, every method, the ends and the middle
    for m in METHODS:
        add(["7.25"], ["0", "0.3", "0.5", "1"], m, f"n=1 {m}")
    # a grid on 1..10 and on ties, every method, p in steps of 0.05
    grid = [f"{k / 20:.2f}" for k in range(21)]
    for m in METHODS:
        add(list(range(1, 11)), grid, m, f"1..10 grid {m}")
        add([3, 1, 2, 2, 2, 5, 5, 1], grid, m, f"ties grid {m}")
        add(["1e100", "-1e-100", "12345678901234567890123456789012345678901234567890e-60", "0", "1e-100"],
            ["0", "0.1", "0.5", "0.9", "1"], m, f"huge and tiny {m}")
    # closest_observation ties (n·p - 1/2 an integer): numpy >= 2.0.1 picks the even order statistic
    for n in range(1, 9):
        add(list(range(10, 10 + n)), [str(Fraction(2 * k + 1, 2 * n).limit_denominator()) if False else
                                      plain(decimal.Decimal(2 * k + 1) / decimal.Decimal(2 * n))
                                      for k in range(n) if terminating(Fraction(2 * k + 1, 2 * n))],
            "closest_observation", f"closest_observation ties n={n}")
    for _ in range(N_RANDOM * 2):
        n = rnd.choice([1, 2, 3, 5, 10, 17, 50, 200])
        data = rand_data(n)
        probs = [rand_prob() for _ in range(rnd.randint(1, 5))]
        add(data, probs, rnd.choice(METHODS))
    return cases, differences


def numpy_cause(n, p, method):
    if method == "closest_observation":
        h = n * p - Fraction(1, 2)
        if h.denominator == 1:
            return "numpy < 2.0.1 tie rule: at g = 0 it takes the odd order statistic"
    f = float(n) * float(p)
    if Fraction(f) != n * p:
        return "numpy computes n·p in float64: %r, not exactly %s" % (f, n * p)
    return "unexplained"


# ---------------------------------------------------------------- regression, correlation

def sums(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return mx, my, sxx, syy, sxy


def floats_exact(vals):
    return all(Fraction(float(v)) == v for v in vals)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def regression_case(x, y, name=None, checks=None):
    xs, ys = [value_of(v) for v in x], [value_of(v) for v in y]
    mx, my, sxx, syy, sxy = sums(xs, ys)
    slope = sxy / sxx
    facts = {"operation": "linear_regression", "digits": DIGITS, "n": len(x),
             "slope": rat_number(slope), "intercept": rat_number(my - slope * mx),
             "r_squared": None, "stderr": None}
    warnings = []
    if syy != 0:
        facts["r_squared"] = rat_number(sxy * sxy / (sxx * syy))
    else:
        warnings.append("r_squared_undefined")
    if len(x) > 2:
        facts["stderr"] = sqrt_number(1, (sxx * syy - sxy * sxy) / (sxx * sxx * (len(x) - 2)))
    c = {"args": {"operation": "linear_regression", "x": x, "y": y}, "facts": facts, "warnings": warnings}
    if name:
        c["name"] = name
    if checks is not None and floats_exact(xs + ys) and len(x) > 2:
        r = scipy.stats.linregress([float(v) for v in xs], [float(v) for v in ys])
        ok = close(r.slope, float(slope), 1e-7) or abs(r.slope - float(slope)) < 1e-9
        if facts["r_squared"] is not None and 0.001 < facts["r_squared"]["float"] < 0.999:
            ok = ok and close(r.rvalue ** 2, facts["r_squared"]["float"], 1e-7)
            ok = ok and close(r.stderr, facts["stderr"]["float"], 1e-6)
        checks.append(ok)
    return c


def ranks(vals):
    order = sorted(range(len(vals)), key=lambda i: vals[i])
    out = [None] * len(vals)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and vals[order[j + 1]] == vals[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = Fraction(i + j + 2, 2)
        i = j + 1
    return out


def correlation_value(xs, ys, method):
    """(sign, rational under the root) or None for an undefined coefficient."""
    if method == "kendall":
        n = len(xs)
        con = dis = tx = ty = 0
        for i in range(n):
            for j in range(i + 1, n):
                a = (xs[i] > xs[j]) - (xs[i] < xs[j])
                b = (ys[i] > ys[j]) - (ys[i] < ys[j])
                if a == 0:
                    tx += 1
                if b == 0:
                    ty += 1
                if a * b > 0:
                    con += 1
                elif a * b < 0:
                    dis += 1
        tot = n * (n - 1) // 2
        if tx == tot or ty == tot:
            return None
        num = con - dis
        return (1 if num > 0 else -1), Fraction(num * num, (tot - tx) * (tot - ty))
    if method == "spearman":
        xs, ys = ranks(xs), ranks(ys)
    _, _, sxx, syy, sxy = sums(xs, ys)
    if sxx == 0 or syy == 0:
        return None
    return (1 if sxy > 0 else -1), sxy * sxy / (sxx * syy)


def correlation_case(x, y, method, name=None, checks=None):
    xs, ys = [value_of(v) for v in x], [value_of(v) for v in y]
    args = {"operation": "correlation", "x": x, "y": y}
    if method != "pearson" or rnd.random() < 0.5:
        args["method"] = method
    v = correlation_value(xs, ys, method)
    if v is None:
        c = {"args": args, "error_code": "tool_execution_error", "reason": "zero_variance"}
    else:
        c = {"args": args, "facts": {"operation": "correlation", "digits": DIGITS, "method": method,
                                     "n": len(x), "coefficient": sqrt_number(*v)}}
        if checks is not None and floats_exact(xs + ys):
            fx, fy = [float(a) for a in xs], [float(b) for b in ys]
            ref = {"pearson": scipy.stats.pearsonr, "spearman": scipy.stats.spearmanr,
                   "kendall": lambda a, b: scipy.stats.kendalltau(a, b, variant="b")}[method](fx, fy)
            checks.append(close(float(ref[0]), c["facts"]["coefficient"]["float"], 1e-9))
    if name:
        c["name"] = name
    return c


# ---------------------------------------------------------------- confidence interval

def t_quantile(p, df):
    start = scipy.stats.t.ppf(float(p), df)
    f = lambda t: 1 - mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, df / (df + t * t), regularized=True) / 2 - p
    pm = mpmath.mpf(p.numerator) / p.denominator
    f = lambda t: 1 - mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, df / (df + t * t), regularized=True) / 2 - pm
    return mpmath.findroot(f, mpmath.mpf(start))


def interval_case(data, conf=None, name=None, checks=None):
    vals = [value_of(v) for v in data]
    n = len(vals)
    c = Fraction(decimal.Decimal(str(conf))) if conf is not None else Fraction(95, 100)
    mean = sum(vals) / n
    s2 = sum((v - mean) ** 2 for v in vals) / (n - 1)
    t = t_quantile((1 + c) / 2, n - 1)
    h = t * mpmath.sqrt(mpmath.mpf((s2 / n).numerator) / (s2 / n).denominator)
    m = mpmath.mpf(mean.numerator) / mean.denominator
    facts = {"operation": "confidence_interval", "digits": DIGITS, "n": n, "confidence": rat_decimal(c)[0],
             "df": n - 1, "mean": rat_number(mean), "t": irr_number(t)}
    if s2 == 0:
        facts["low"] = facts["high"] = rat_number(mean)
    else:
        facts["low"], facts["high"] = irr_number(m - h), irr_number(m + h)
    args = {"operation": "confidence_interval", "data": data}
    if conf is not None:
        args["confidence"] = conf
    case = {"args": args, "facts": facts}
    if name:
        case["name"] = name
    if checks is not None and floats_exact(vals) and s2 != 0:
        lo, hi = scipy.stats.t.interval(float(c), n - 1, loc=float(mean), scale=math.sqrt(float(s2 / n)))
        checks.append(close(lo, facts["low"]["float"], 1e-8) or abs(lo - facts["low"]["float"]) < 1e-9 * abs(float(h)))
    return case


# ---------------------------------------------------------------- main

def refused(args, reason, code="tool_execution_error", name=None):
    c = {"args": args, "error_code": code, "reason": reason}
    if name:
        c["name"] = name
    return c


def main():
    versions = record(GEN, numpy, scipy, mpmath)
    q, diffs = quantile_cases()
    write_json(os.path.join(OUT, "oracle_quantiles.json"),
               {"generator": versions, "numpy_differences": diffs, "cases": q})

    checks = []
    reg = [regression_case([1, 2, 3, 4, 5], ["3", "5", "7", "9", "11"], "exactly collinear", checks),
           regression_case(["0.1", "0.2", "0.3"], ["0.3", "0.5", "0.7"], "collinear decimals", checks),
           regression_case([1, 2, 3, 4], [5, 5, 5, 5], "constant y: r_squared null", checks),
           regression_case([1, 2], [3, 7], "n = 2: stderr null", checks),
           regression_case(["1e90", "2e90", "3.5e90"], ["1e-90", "3e-90", "2e-90"], "huge x, tiny y", checks),
           regression_case([1, 2, 3, 4], ["2", "4.1", "5.9", "8.2"], "scipy example", checks),
           regression_case(["0", "0." + "0" * 149 + "1e-100", "0." + "0" * 149 + "3e-100"], ["-9e100", "9e100", "1e100"],
                           "slope beyond float64: float null", checks)]
    while len(reg) < N_RANDOM + 7:
        n = rnd.choice([2, 3, 4, 5, 8, 20, 100])
        style = rnd.choice(["int", "small", "float", "wide"])
        x, y = rand_data(n, style), rand_data(n, rnd.choice(["int", "small", "float", "wide"]))
        if len(set(value_of(v) for v in x)) < 2:
            continue
        reg.append(regression_case(x, y, checks=checks))
    write_json(os.path.join(OUT, "oracle_regression.json"),
               {"generator": versions, "scipy_agreed": f"{sum(checks)}/{len(checks)}", "cases": reg})
    assert all(checks), "scipy.stats.linregress disagrees"

    checks = []
    cor = []
    for m in ["pearson", "spearman", "kendall"]:
        cor += [correlation_case([1, 2, 3, 4], [2, 4, 6, 8], m, f"{m} perfect", checks),
                correlation_case([1, 2, 3, 4], [8, 6, 4, 2], m, f"{m} perfect negative", checks),
                correlation_case([1, 2], [5, 3], m, f"{m} n = 2", checks),
                correlation_case([1, 2, 2, 3, 3, 3], [1, 1, 2, 2, 3, 3], m, f"{m} ties both", checks),
                correlation_case([1, 2, 3], [4, 4, 4], m, f"{m} constant y", checks),
                correlation_case(["1e-90", "2e-90", "3e-90", "5e-90"], ["1e90", "-2e90", "7e90", "1e90"], m, f"{m} huge and tiny", checks)]
    while len(cor) < N_RANDOM + 18:
        n = rnd.choice([2, 3, 5, 10, 30, 120])
        cor.append(correlation_case(rand_data(n), rand_data(n), rnd.choice(["pearson", "spearman", "kendall"]), checks=checks))
    for m in ["pearson", "spearman", "kendall"]:  # the O(n log n) tie counts at scale, against O(n²) pairs
        x, y = [rnd.randint(0, 30) for _ in range(1000)], [rnd.randint(0, 30) for _ in range(1000)]
        cor.append(correlation_case(x, y, m, f"{m} n = 1000 with ties", checks))
    write_json(os.path.join(OUT, "oracle_correlation.json"),
               {"generator": versions, "scipy_agreed": f"{sum(checks)}/{len(checks)}", "cases": cor})
    assert all(checks), "scipy.stats disagrees"

    checks = []
    ci = [interval_case([1, 2, 3, 4, 5], name="1..5 at 0.95", checks=checks),
          interval_case([1, 2], "0.99", "n = 2 at 0.99", checks),
          interval_case(["2.5", "2.5", "2.5"], "0.9", "constant data", checks),
          interval_case([1, 2, 4, 8], "0.5", "confidence 0.5", checks),
          interval_case([10, 12, 9, 11], "0.999999", "confidence 0.999999", checks),
          interval_case(["1e90", "3e90", "2.5e90"], "0.95", "huge values", checks),
          interval_case(list(range(1000)), "0.95", "n = 1000", checks)]
    while len(ci) < N_RANDOM + 7:
        n = rnd.choice([2, 3, 4, 7, 10, 31, 100])
        conf = rnd.choice([None, "0.9", "0.95", 0.99, "0.8", "0.999", f"0.{rnd.randint(1, 99):02d}"])
        ci.append(interval_case(rand_data(n), conf, checks=checks))
    write_json(os.path.join(OUT, "oracle_interval.json"),
               {"generator": versions, "scipy_agreed": f"{sum(checks)}/{len(checks)}", "cases": ci})
    assert all(checks), "scipy.stats.t.interval disagrees"

    ref = [
        refused({"operation": "quantiles", "data": [1, 2], "probabilities": [1.5]}, "probability_out_of_range"),
        refused({"operation": "quantiles", "data": [1, 2], "probabilities": ["-0.1"]}, "probability_out_of_range"),
        refused({"operation": "quantiles", "data": [1, 2], "probabilities": ["half"]}, "invalid_probability"),
        refused({"operation": "quantiles", "data": [1, 2]}, "missing_argument"),
        refused({"operation": "quantiles", "data": [], "probabilities": [0.5]}, "schema_validation_failed", "input_schema_invalid"),
        refused({"operation": "quantiles", "data": [1, "x"], "probabilities": [0.5]}, "invalid_number"),
        refused({"operation": "quantiles", "data": [1, "nan"], "probabilities": [0.5]}, "non_finite_value"),
        refused({"operation": "quantiles", "data": [1, "1e101"], "probabilities": [0.5]}, "value_out_of_range"),
        refused({"operation": "quantiles", "data": [1, 2], "probabilities": [0.5], "method": "pearson"}, "unknown_method"),
        refused({"operation": "linear_regression", "x": [1, 2, 3], "y": [1, 2]}, "length_mismatch"),
        refused({"operation": "linear_regression", "x": [1], "y": [1]}, "too_few_points"),
        refused({"operation": "linear_regression", "x": [2, 2, 2], "y": [1, 2, 3]}, "zero_variance_x"),
        refused({"operation": "linear_regression", "x": [1, 2]}, "missing_argument"),
        refused({"operation": "linear_regression", "x": [1, 2], "y": [1, 2], "method": "linear"}, "unexpected_argument"),
        refused({"operation": "correlation", "x": [1, 2, 3], "y": [1, 2]}, "length_mismatch"),
        refused({"operation": "correlation", "x": [1], "y": [2]}, "too_few_points"),
        refused({"operation": "correlation", "x": [1, 1, 1], "y": [1, 2, 3], "method": "spearman"}, "zero_variance"),
        refused({"operation": "correlation", "x": [1, 2], "y": [1, 2], "method": "linear"}, "unknown_method"),
        refused({"operation": "confidence_interval", "data": [5]}, "too_few_points"),
        refused({"operation": "confidence_interval", "data": [1, 2], "confidence": 1}, "confidence_out_of_range"),
        refused({"operation": "confidence_interval", "data": [1, 2], "confidence": 0}, "confidence_out_of_range"),
        refused({"operation": "confidence_interval", "data": [1, 2], "confidence": "1.5"}, "confidence_out_of_range"),
        refused({"operation": "confidence_interval", "data": [1, 2], "confidence": "high"}, "invalid_confidence"),
        refused({"operation": "confidence_interval"}, "missing_argument"),
        refused({"operation": "confidence_interval", "data": [1, 2], "method": "linear"}, "unexpected_argument"),
        refused({"operation": "quantiles", "data": [1, 2], "probabilities": [0.5], "confidence": 0.9}, "unexpected_argument"),
        refused({"operation": "correlation", "x": [1, 2], "y": [1, 2], "data": [1, 2]}, "unexpected_argument"),
        refused({"operation": "confidence_interval", "data": [1, 2], "probabilities": [0.5]}, "unexpected_argument"),
        refused({"operation": "linear_regression", "x": [1, 2], "y": [1, 2], "confidence": "0.9"}, "unexpected_argument"),
    ]
    write_json(os.path.join(OUT, "oracle_refusals.json"), {"generator": versions, "cases": ref})


if __name__ == "__main__":
    main()
