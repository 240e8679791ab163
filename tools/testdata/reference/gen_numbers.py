#!/usr/bin/python3
"""Side-by-side vectors for decimal_finance, exact_probability and gcd_lcm: the
reference sidecar's own answers, through refrunner.py, to
tools/testdata/reference/<tool>/vectors.json (README.md here says how to run it).

Inputs are fixed or drawn from seeded generators, so the output is
reproducible. Besides the reference's answer, an exact_probability case with a
decimal projection carries an "oracle" value computed here independently (the
correctly rounded decimal of the exact fraction), used only where
docs/compatibility.md lists a deliberate difference.
"""
import os
import random
import sys
from decimal import (Context, Decimal, ROUND_CEILING, ROUND_DOWN, ROUND_FLOOR, ROUND_HALF_DOWN,
                     ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_UP)
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
import numgen  # noqa: E402  (shared random inputs)
import refrunner  # noqa: E402

refrunner.load()
GENERATOR = "tools/testdata/reference/gen_numbers.py"
invoke = refrunner.invoke


MODES = ["half_even", "half_up", "half_down", "down", "up", "floor", "ceiling"]

# ---------------------------------------------------------------------------
# decimal_finance

df_vectors = refrunner.Vectors("decimal_finance", GENERATOR)


def df(name, op, operands, scale=2, rounding="half_even", currency="EUR", **extra):
    args = {"operation": op, "operands": operands, "currency": currency, "scale": scale, "rounding": rounding}
    args.update(extra)
    df_vectors.add(args, name)


def df_raw(name, args):
    df_vectors.add(args, name)


rng = random.Random(20261130)


def rand_dec(*args, **kwargs):
    return numgen.rand_dec(rng, *args, **kwargs)


# The specification's examples.
df("spec_simple_1000_5_2", "simple_interest", ["1000", "5", "2"])
df("spec_compound_1000_5_2_12", "compound_interest", ["1000", "5", "2", "12"])
df("spec_add_0.1_0.2", "add", ["0.1", "0.2"], currency="USD")
df("spec_2.675_half_even", "add", ["2.675", "0"], currency="USD")

# Ties in all seven modes, both signs, several scales.
for mode in MODES:
    for val, scale in [("2.675", 2), ("-2.675", 2), ("2.665", 2), ("0.125", 2), ("-0.125", 2),
                       ("2.5", 0), ("-2.5", 0), ("3.5", 0), ("-3.5", 0), ("0.5", 0), ("-0.5", 0),
                       ("1.0000000000005", 12), ("-0.0000000000005", 12), ("0.004", 2),
                       ("-0.004", 2), ("123.456", 1)]:
        df(f"tie_{mode}_{val}_s{scale}", "add", [val, "0"], scale, mode)

# Signed zeros: every binary operation on zeros of both signs and several exponents.
ZEROS = ["0", "-0", "0.00", "-0.000"]
for op in ["add", "subtract", "multiply", "divide", "percentage"]:
    for a in ZEROS:
        for b in ZEROS + ["5", "-5", "-0.5"]:
            df(f"zero_{op}_{a}_{b}", op, [a, b], 2, "floor" if a.startswith("-") else "ceiling")
# A negative value that rounds to zero keeps its sign, as Python's decimal keeps it.
df("issue14_negzero_multiply", "multiply", ["-0.001", "1"], 2, "half_even")
for mode in MODES:
    df(f"negzero_round_{mode}", "add", ["-0.004", "0"], 2, mode)
    df(f"negzero_tie_{mode}", "add", ["-0.005", "0"], 2, mode)
    df(f"negzero_scale0_{mode}", "subtract", ["0.3", "0.7"], 0, mode)
df("negzero_simple_principal", "simple_interest", ["-0", "5", "2"])
df("negzero_simple_factor", "simple_interest", ["-2", "-50", "2"])
df("negzero_compound_principal", "compound_interest", ["-0", "5", "2", "12"])
df("negzero_percentage", "percentage", ["-0.01", "1"], 3)

# Division.
df("divide_by_zero", "divide", ["1", "0"])
df("divide_by_negzero", "divide", ["1", "-0.000"])
df("divide_zero_by_zero", "divide", ["0", "0"])
for a, b in [("1", "3"), ("2", "3"), ("1", "7"), ("22", "7"), ("-1", "6"), ("10", "81"),
             ("1", "9999999"), ("100", "0.3"), ("1", "0.000000000000000000000007"),
             ("0", "0.000000000000000000000001"), ("0.000000000000000000000000", "1" + "0" * 47)]:
    df(f"divide_{a}_{b}", "divide", [a, b], 12)

# Operand extremes.
big = "9" * 48 + "." + "9" * 24
df("maxlen_add", "add", [big, big], 12)
df("maxlen_multiply", "multiply", [big, big], 12)
df("maxlen_multiply_neg", "multiply", ["-" + big, big], 0, "floor")
df("maxlen_divide_tiny", "divide", [big, "0.000000000000000000000001"], 0)
df("maxlen_percentage", "percentage", [big, big], 3, "up")
df("tiny_multiply", "multiply", ["0.000000000000000000000001", "0.000000000000000000000001"], 12)
df("tiny_divide_big", "divide", ["0.000000000000000000000001", "1" + "0" * 47], 12)

# Random arithmetic.
for i in range(70):
    op = rng.choice(["add", "subtract", "multiply", "divide", "percentage"])
    df(f"random_{op}_{i}", op, [rand_dec(), rand_dec()], rng.randint(0, 12), rng.choice(MODES))

# Simple interest: years must not be negative; there is no upper bound.
for i in range(20):
    p = rand_dec(rng.randint(1, 12), rng.randint(0, 4), False)
    rate = rand_dec(1, rng.randint(0, 3), rng.random() < 0.1)
    years = rand_dec(rng.randint(1, 3), rng.randint(0, 2), False)
    df(f"simple_random_{i}", "simple_interest", [p, rate, years], 2, rng.choice(MODES))
df("simple_years_negative", "simple_interest", ["1000", "5", "-1"])
df("simple_years_negative_small", "simple_interest", ["1000", "5", "-0.000000000000000000000001"])
df("simple_years_negzero", "simple_interest", ["1000", "5", "-0"])
df("simple_years_1000", "simple_interest", ["1000", "5", "1000"])
df("simple_years_1001", "simple_interest", ["1000", "5", "1001"])
df("simple_years_huge", "simple_interest", ["1000", "5", "9" * 48])
df("simple_fractional_years", "simple_interest", ["1000", "3.5", "0.5"])
df("simple_factor_zero", "simple_interest", ["1000", "-50", "2"])
df("simple_factor_zero_exponent", "simple_interest",
   ["0.000000000000000000000000", "-50.000000000000000000000000", "2.000000000000000000000000"])
df("simple_factor_negative", "simple_interest", ["1000", "-150", "1"])
# The value fits (|adjusted exponent| <= 256) but rounding it to `scale` places
# needs more than 128 digits: the reference refuses the quantization.
df("simple_quantize_too_long", "simple_interest", ["9" * 48, "9" * 48, "9" * 48], 0)
df("simple_quantize_fits", "simple_interest", ["9" * 40, "9" * 40, "9" * 40], 0)

# Compound interest.
for i in range(110):
    n = rng.choice([1, 2, 4, 12, 52, 360, 365, rng.randint(1, 365)])
    years = rng.randint(0, min(1000, 10000 // n))
    p = rand_dec(rng.randint(1, 10), rng.randint(0, 4), rng.random() < 0.1)
    rate = rand_dec(rng.randint(1, 2), rng.randint(0, 6), rng.random() < 0.15)
    df(f"compound_random_{i}", "compound_interest", [p, rate, str(years), str(n)], rng.randint(0, 12), rng.choice(MODES))
for name, ops in [
        ("years_float_integral", ["1000", "5", "2.0", "12.00"]),
        ("years_not_integer", ["1000", "5", "2.5", "12"]),
        ("n_not_integer", ["1000", "5", "2", "12.5"]),
        ("years_1001", ["1000", "5", "1001", "1"]),
        ("years_1000_5", ["1000", "5", "1000.5", "1"]),
        ("years_negative", ["1000", "5", "-1", "1"]),
        ("years_negzero", ["1000", "5", "-0", "1"]),
        ("n_zero", ["1000", "5", "1", "0"]),
        ("n_negative", ["1000", "5", "1", "-1"]),
        ("n_366", ["1000", "5", "1", "366"]),
        ("periods_10001", ["1000", "5", "1000", "11"]),
        ("periods_10000", ["1000", "5", "1000", "10"]),
        ("zero_years", ["1000", "5", "0", "12"]),
        ("zero_power_zero", ["1000", "-1200", "0", "12"]),
        ("zero_base", ["1000", "-1200", "1", "12"]),
        ("zero_base_exponent", ["1000", "-100.000", "1000", "1"]),
        ("zero_base_exponent_short", ["1000", "-100.0", "3", "1"]),
        ("negative_base_odd", ["1000", "-300", "3", "1"]),
        ("negative_base_even", ["1000", "-300", "4", "1"]),
        ("negative_base_zero_years", ["1000", "-300", "0", "1"]),
        ("negative_base_tiny", ["1000", "-100.000000000000000000000001", "1", "1"]),
        ("exact_doubling", ["1", "100", "200", "1"]),
        ("adjusted_over_256", ["1", "1000", "300", "1"]),
        ("overflow", ["1", "1000", "1000", "1"]),
        ("overflow_zero_principal", ["0", "1000", "1000", "1"]),
        ("overflow_product", ["1" + "0" * 47, "900", "950", "1"]),
        ("adjusted_under_256", ["1", "-90", "300", "1"]),
        ("underflow", ["1", "-90", "1000", "1"]),
        ("underflow_zero_principal", ["0", "-90", "1000", "1"]),
        ("tiny_zero_principal_ok", ["0", "-99.99", "50", "1"]),
        ("tiny_zero_principal_refused", ["0", "-99.99", "70", "1"]),
        ("tiny_zero_principal_exponent", ["0.000000000000000000000000", "-99.99", "58", "1"]),
        ("huge_rate", ["1", "9" * 48, "10", "1"]),
        ("max_periods_small_rate", ["1000000", "0.000001", "1000", "10"]),
        ("max_periods_daily", ["100", "7.25", "27", "365"]),
        ("negative_principal", ["-2500.50", "3.75", "10", "4"]),
        ("quantize_fits", ["1" + "0" * 47, "100", "250", "1"]),
        ("n_with_zeros", ["1000", "-1200", "1", "12.000000000000000000000000"]),
]:
    df(f"compound_{name}", "compound_interest", ops, 12 if "max_periods" in name else 2,
       "floor" if "negative_principal" in name else "half_even")
df("compound_quantize_scale5", "compound_interest", ["1" + "0" * 47, "100", "250", "1"], 5)
df("compound_quantize_scale6", "compound_interest", ["1" + "0" * 47, "100", "250", "1"], 6)
# libmpdec's integer power rounds every product to prec + digits(n) + 2 digits and
# the result once more: these growth factors are not correctly rounded
# (found by tools/testdata/oracle/find_double_rounding.py).
for rate, n, years in [("908.70", 365, 1), ("14.9510", 12, 75), ("712.75", 52, 13), ("94.53", 360, 2)]:
    df(f"compound_double_rounding_{rate}_{n}_{years}", "compound_interest", ["1", rate, str(years), str(n)], 12)

for scale in [0, 1, 6, 12]:
    df(f"scale_{scale}_third", "divide", ["1", "3"], scale, "up")

# Input schema: operand counts per operation (allOf/if/then), patterns, ranges.
COUNT = {"add": 2, "subtract": 2, "multiply": 2, "divide": 2, "percentage": 2,
         "simple_interest": 3, "compound_interest": 4}
for op, count in COUNT.items():
    for k in sorted({count - 1, count + 1, 0, 5}):
        df(f"count_{op}_{k}", op, ["1"] * k)
base = {"operation": "add", "operands": ["1", "2"], "currency": "EUR", "scale": 2, "rounding": "half_even"}
for name, patch in [("leading_zero", {"operands": ["01", "2"]}), ("plus_sign", {"operands": ["+1", "2"]}),
                    ("exponent", {"operands": ["1e5", "2"]}), ("too_many_frac", {"operands": ["1." + "1" * 25, "2"]}),
                    ("too_many_int", {"operands": ["1" * 49, "2"]}), ("number_operand", {"operands": [1, 2]}),
                    ("space", {"operands": [" 1", "2"]}), ("trailing_point", {"operands": ["1.", "2"]}),
                    ("leading_point", {"operands": [".5", "2"]}), ("negzero_int_digits", {"operands": ["-00", "2"]}),
                    ("operands_string", {"operands": "1,2"}), ("operands_null", {"operands": None}),
                    ("scale_13", {"scale": 13}), ("scale_negative", {"scale": -1}), ("scale_string", {"scale": "2"}),
                    ("scale_bool", {"scale": True}), ("scale_fraction", {"scale": 2.5}),
                    ("currency_lower", {"currency": "eur"}), ("currency_long", {"currency": "EURO"}),
                    ("rounding_05up", {"rounding": "05up"}), ("rounding_upper", {"rounding": "HALF_EVEN"}),
                    ("operation_power", {"operation": "power"}), ("unknown_field", {"note": "x"})]:
    args = dict(base)
    args.update(patch)
    df_raw(f"schema_{name}", args)
for missing in ["operation", "operands", "currency", "scale", "rounding"]:
    df_raw(f"schema_missing_{missing}", {k: v for k, v in base.items() if k != missing})
# JSON Schema counts 2.0 as an integer; the reference's function then refuses it.
df("float_scale", "add", ["1.005", "2"], 2.0)
df("float_scale_twin", "add", ["1.005", "2"], 2)
df_vectors.write()

# ---------------------------------------------------------------------------
# exact_probability

PY_MODES = {"half_even": ROUND_HALF_EVEN, "half_up": ROUND_HALF_UP, "half_down": ROUND_HALF_DOWN,
            "down": ROUND_DOWN, "up": ROUND_UP, "floor": ROUND_FLOOR, "ceiling": ROUND_CEILING}


def correctly_rounded(value, scale, mode):
    """The exact fraction rounded once to `scale` places, written with exactly
    `scale` decimals; a negative value that rounds to zero keeps its minus sign,
    as Python's Decimal.quantize keeps it. Integer arithmetic only."""
    neg = value < 0
    scaled = abs(value) * 10 ** scale
    q, r = divmod(scaled.numerator, scaled.denominator)
    twice, den = 2 * r, scaled.denominator
    if r == 0:
        away = False
    elif mode in ("down",) or (mode == "floor" and not neg) or (mode == "ceiling" and neg):
        away = False
    elif mode in ("up",) or (mode == "floor" and neg) or (mode == "ceiling" and not neg):
        away = True
    elif twice != den:
        away = twice > den
    else:
        away = {"half_up": True, "half_down": False, "half_even": q % 2 == 1}[mode]
    q += away
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # only here: the reference runs under the default limit
    try:
        digits = str(q).rjust(scale + 1, "0")
    finally:
        sys.set_int_max_str_digits(limit)
    text = digits if scale == 0 else digits[:-scale] + "." + digits[-scale:]
    return ("-" if neg else "") + text


# Cross-check the helper against Python's decimal where decimal is exact enough.
_check = Context(prec=5000, Emin=-99999, Emax=99999)
for _ in range(3000):
    f = Fraction(rng.randint(-10 ** 12, 10 ** 12), rng.randint(1, 10 ** 6))
    s, m = rng.randint(0, 8), rng.choice(MODES)
    want = format(_check.divide(Decimal(f.numerator), Decimal(f.denominator)).quantize(
        Decimal(1).scaleb(-s), rounding=PY_MODES[m], context=_check), "f")
    assert correctly_rounded(f, s, m) == want, (f, s, m)

ep_vectors = refrunner.Vectors("exact_probability", GENERATOR)


def ep(name, op, n=None, k=None, num=None, den=None, scale=None, rounding=None, **extra):
    args = {"operation": op}
    for key, v in (("n", n), ("k", k), ("numerator", num), ("denominator", den),
                   ("decimal_scale", scale), ("rounding", rounding)):
        if v is not None:
            args[key] = v
    args.update(extra)
    oracle = None
    if scale is not None and rounding is not None:
        # The exact result, asked without the decimal projection, rounded here.
        bare = {key: v for key, v in args.items() if key not in ("decimal_scale", "rounding")}
        exact = invoke("exact_probability", bare)
        if "facts" in exact:
            facts = dict(exact["facts"])
            value = Fraction(facts["result_numerator"], facts["result_denominator"])
            facts.update({"decimal_scale": scale, "rounding": rounding,
                          "decimal": correctly_rounded(value, int(scale), rounding)})
            oracle = {"correctly_rounded_facts": facts}
    ep_vectors.add(args, name, oracle=oracle)


def ep_raw(name, args):
    ep_vectors.add(args, name)


rng = random.Random(31337)
ep("spec_binomial_10_3_half", "binomial_probability", 10, 3, 1, 2)
ep("spec_binomial_10_3_half_scale6", "binomial_probability", 10, 3, 1, 2, 6, "half_even")
ep("spec_comb_52_5", "combination", 52, 5)
ep("issue14_fraction_6_8", "fraction", num=6, den=8)
ep("issue14_binomial_6_8", "binomial_probability", 4, 2, 6, 8)

# Fractions: the probability_* facts echo the inputs; the result is reduced.
for num, den in [(6, 8), (-6, 8), (6, -8), (-6, -8), (0, 5), (0, -5), (1, 3), (2, 3), (1, 7),
                 (22, 7), (355, 113), (10, 1), (7, 7), (1, 10 ** 30), (10 ** 40 + 1, 3)]:
    ep(f"fraction_{num}_{den}", "fraction", num=num, den=den)
    ep(f"fraction_{num}_{den}_s6", "fraction", num=num, den=den, scale=6, rounding=rng.choice(MODES))
for mode in MODES:
    for num, den, scale in [(2675, 1000, 2), (-2675, 1000, 2), (5, 2, 0), (-5, 2, 0), (7, 2, 0),
                            (1, 8, 2), (-1, 8, 2), (1, 3, 0), (2, 3, 0), (-1, 1000, 2),
                            (1, 2 * 10 ** 18, 18), (123456789, 10 ** 9, 4), (-1, 3, 0)]:
        ep(f"tie_{mode}_{num}_{den}_s{scale}", "fraction", num=num, den=den, scale=scale, rounding=mode)
ep("fraction_den_zero", "fraction", num=1, den=0)
ep("fraction_zero_over_zero", "fraction", num=0, den=0)
ep("fraction_missing_den", "fraction", num=1)
ep("fraction_missing_num", "fraction", den=1)
ep("fraction_scale_without_rounding", "fraction", num=1, den=3, scale=2)
ep("fraction_rounding_without_scale", "fraction", num=1, den=3, rounding="half_up")
ep("fraction_den_zero_and_scale_only", "fraction", num=1, den=0, scale=2)
ep("fraction_ignores_n_k", "fraction", 5, 10, 1, 2)
ep("fraction_negative_big", "fraction", num=-(3 ** 1000), den=2 ** 1500, scale=18, rounding="floor")
ep("fraction_4300_digits", "fraction", num=10 ** 4299 + 7, den=3, scale=2, rounding="half_up")
ep("fraction_4299_digit_result", "fraction", num=10 ** 4299 + 7, den=10 ** 4299 + 7)
# Values whose 128-digit quotient rounds differently from the exact value, values
# beyond 128 digits or the exponent range, and values below it.
ep("projection_double_rounding_tie", "fraction", num=5 * 10 ** 199 + 1, den=10 ** 200, scale=0, rounding="half_even")
ep("projection_double_rounding_down", "fraction", num=10 ** 200 - 1, den=10 ** 200, scale=0, rounding="down")
ep("projection_130_digits", "fraction", num=10 ** 130 + 1, den=1, scale=0, rounding="half_even")
ep("projection_120_digits_scale_9", "fraction", num=10 ** 120 + 1, den=1, scale=9, rounding="half_even")
ep("projection_overflow", "combination", 4096, 2048, scale=2, rounding="half_even")
ep("projection_subnormal_up", "binomial_probability", 4096, 0, 1, 2, 18, "up")
ep("projection_subnormal_ceiling_negative", "fraction", num=-1, den=10 ** 1200, scale=6, rounding="ceiling")
ep("projection_subnormal_floor_negative", "fraction", num=-1, den=10 ** 1200, scale=6, rounding="floor")
ep("projection_small_up", "fraction", num=1, den=10 ** 300, scale=18, rounding="up")

# Combinations and permutations: 0 <= k <= n.
for n, k in [(0, 0), (1, 0), (1, 1), (5, 2), (10, 3), (52, 5), (100, 50), (3, 5), (0, 1),
             (4096, 0), (4096, 1), (4096, 2048), (4096, 4096), (4096, 4095), (1000, 3), (1500, 1500), (2000, 2000)]:
    ep(f"comb_{n}_{k}", "combination", n, k)
    ep(f"perm_{n}_{k}", "permutation", n, k)
for i in range(40):
    n = rng.randint(0, 300)
    k = rng.randint(0, n + 3)
    op = rng.choice(["combination", "permutation"])
    scale = rng.choice([None, 0, 3])
    ep(f"random_{op}_{i}", op, n, k, scale=scale, rounding=None if scale is None else rng.choice(MODES))
ep("comb_missing_k", "combination", n=5)
ep("perm_missing_n", "permutation", k=5)
ep("comb_scale_3", "combination", 10, 3, scale=3, rounding="down")
ep("comb_echoes_fraction", "combination", 10, 3, 6, 8)
ep("perm_echoes_fraction", "permutation", 10, 3, -6, 0)
ep("comb_k_gt_n_scale_only", "combination", 3, 5, scale=2)

# Binomial probabilities.
for i in range(90):
    n = rng.randint(0, 200)
    k = rng.randint(0, n + 2)
    den = rng.choice([2, 3, 6, 10, 100, 1000, 7, 12, rng.randint(1, 10 ** 6)])
    num = rng.randint(0, den)
    scale = rng.choice([None, 0, 2, 6, 12, 18])
    ep(f"binomial_random_{i}", "binomial_probability", n, k, num, den, scale,
       None if scale is None else rng.choice(MODES))
for n, k, num, den in [(0, 0, 1, 2), (5, 0, 0, 1), (5, 5, 1, 1), (5, 3, 0, 1), (5, 0, 1, 1),
                       (6, 2, 1, 6), (20, 10, 1, 2), (4096, 2048, 1, 2), (4096, 0, 1, 2),
                       (10, 3, 2, 4), (10, 3, -1, -2), (10, 3, 1, -2), (10, 11, 1, 2), (100, 50, 49, 100)]:
    ep(f"binomial_{n}_{k}_{num}_{den}", "binomial_probability", n, k, num, den, 18, "half_even")
ep("binomial_p_negative", "binomial_probability", 10, 3, -1, 2)
ep("binomial_p_over_one", "binomial_probability", 10, 3, 3, 2)
ep("binomial_den_zero", "binomial_probability", 10, 3, 1, 0)
ep("binomial_den_negative_p_zero", "binomial_probability", 10, 3, 0, -2)
ep("binomial_missing_p", "binomial_probability", 10, 3)
ep("binomial_missing_den", "binomial_probability", 10, 3, num=1)
ep("binomial_missing_n", "binomial_probability", k=3, num=1, den=2)
ep("binomial_k_gt_n_den_zero", "binomial_probability", 3, 5, 1, 0)
ep("binomial_cost_limit", "binomial_probability", 4096, 2048, 1, 3 ** 10)
ep("binomial_cost_limit_edge_ok", "binomial_probability", 4096, 1, 1, 2 ** 14)
ep("binomial_cost_limit_edge_refused", "binomial_probability", 4096, 1, 1, 2 ** 15)
# The cost estimate uses the denominator as given, not reduced.
ep("binomial_unreduced_den_refused", "binomial_probability", 1100, 7, 2 ** 60, 2 ** 61)
ep("binomial_unreduced_den_ok", "binomial_probability", 1000, 7, 2 ** 60, 2 ** 61)
ep("binomial_reduced_den_big", "binomial_probability", 20, 7, 10 ** 3000, 10 ** 3000)
ep("binomial_decimal_tiny", "binomial_probability", 1000, 0, 1, 2, 18, "up")

# Integers written as 2.0 are integers to JSON Schema; the reference's function
# refuses them (twins give the integer answer).
ep("float_n", "combination", 5.0, 2)
ep("float_n_twin", "combination", 5, 2)
ep("float_numerator", "fraction", num=6.0, den=8)
ep("float_numerator_twin", "fraction", num=6, den=8)
ep("float_scale", "fraction", num=1, den=3, scale=2.0, rounding="half_even")
ep("float_scale_twin", "fraction", num=1, den=3, scale=2, rounding="half_even")

# Input schema.
for name, args in [("n_too_big", {"operation": "combination", "n": 4097, "k": 1}),
                   ("k_negative", {"operation": "combination", "n": 5, "k": -1}),
                   ("scale_19", {"operation": "fraction", "numerator": 1, "denominator": 3, "decimal_scale": 19, "rounding": "up"}),
                   ("unknown_op", {"operation": "factorial", "n": 5}),
                   ("float_numerator_fraction", {"operation": "fraction", "numerator": 0.5, "denominator": 3}),
                   ("string_n", {"operation": "combination", "n": "5", "k": 1}),
                   ("bool_n", {"operation": "combination", "n": True, "k": 1}),
                   ("bad_rounding", {"operation": "fraction", "numerator": 1, "denominator": 3, "decimal_scale": 2, "rounding": "05up"}),
                   ("unknown_arg", {"operation": "fraction", "numerator": 1, "denominator": 3, "p": 1}),
                   ("missing_operation", {"numerator": 1, "denominator": 3}),
                   ("explicit_nulls", {"operation": "fraction", "numerator": 1, "denominator": 3, "n": None, "k": None,
                                       "decimal_scale": None, "rounding": None})]:
    ep_raw(f"schema_{name}", args)
ep_vectors.write()

# ---------------------------------------------------------------------------
# gcd_lcm

gl_vectors = refrunner.Vectors("gcd_lcm", GENERATOR)


def gl(name, args):
    gl_vectors.add(args, name)


for i, (a, b) in enumerate(numgen.gcd_pairs(random.Random(14391299), 100)):
    args = {"a": a, "b": b}
    if i % 5:
        args["operation"] = ["gcd", "lcm", "both"][i % 3]
    gl(f"pair_{i}", args)
L = numgen.LIMIT
gl("spec", {"a": 391, "b": 299})
gl("float_a", {"a": 12.0, "b": 18})
gl("float_a_twin", {"a": 12, "b": 18})
gl("float_both_lcm", {"a": 1e18, "b": 2.0, "operation": "lcm"})
gl("float_both_lcm_twin", {"a": 10 ** 18, "b": 2, "operation": "lcm"})
for name, args in [("above_limit", {"a": L + 1, "b": 1}), ("below_limit", {"a": 1, "b": -L - 1}),
                   ("fraction", {"a": 1.5, "b": 1}), ("string", {"a": "12", "b": 2}),
                   ("bool", {"a": True, "b": 2}), ("null", {"a": None, "b": 2}),
                   ("missing_b", {"a": 1}), ("missing_both", {}), ("unknown", {"a": 1, "b": 2, "c": 3}),
                   ("operation_upper", {"a": 1, "b": 2, "operation": "GCD"}),
                   ("operation_null", {"a": 1, "b": 2, "operation": None})]:
    gl(f"schema_{name}", args)
gl_vectors.write()
