#!/usr/bin/env python3
"""Oracle for exact_probability: fractions.Fraction, math.comb, math.perm, and
the decimal module for the rounded decimal (ROUND_05UP at extra precision, then
one rounding with the requested mode: this re-rounding is exact, so the decimal is
the correctly rounded value of the exact fraction).

Writes tools/testdata/exact_probability/oracle_cases.json.
Run from the repository root:  python3 tools/testdata/oracle/gen_probability.py
"""
import json
import math
import os
import random
import sys
from decimal import (Context, Decimal, ROUND_05UP, ROUND_HALF_EVEN, ROUND_HALF_UP,
                     ROUND_HALF_DOWN, ROUND_DOWN, ROUND_UP, ROUND_FLOOR, ROUND_CEILING)
from fractions import Fraction

sys.set_int_max_str_digits(0)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MODES = {"half_even": ROUND_HALF_EVEN, "half_up": ROUND_HALF_UP, "half_down": ROUND_HALF_DOWN,
         "down": ROUND_DOWN, "up": ROUND_UP, "floor": ROUND_FLOOR, "ceiling": ROUND_CEILING}
MAX_BITS = 65536
# JSON integers are limited to 4300 digits (Python's default int<->str limit, which
# precisiond's envelope enforces too): bigger results are refused as result_too_large.
MAX_DIGITS = 4300


class Refused(Exception):
    def __init__(self, code, reason):
        self.code, self.reason = code, reason


def to_decimal(f, scale, mode):
    # Digits needed: integer part + scale + 3 guard digits, truncated with 05UP.
    int_digits = len(str(abs(f.numerator) // f.denominator))
    prec = int_digits + scale + 3
    q = Context(prec=prec, rounding=ROUND_05UP, Emax=10**6, Emin=-10**6).divide(
        Decimal(f.numerator), Decimal(f.denominator))
    r = q.quantize(Decimal(1).scaleb(-scale), rounding=MODES[mode],
                   context=Context(prec=prec + 10, Emax=10**6, Emin=-10**6))
    s = format(r, "f")
    if s.startswith("-") and r == 0:
        s = s[1:]
    return s


def compute(op, n, k, num, den, scale, rounding):
    if (scale is None) != (rounding is None):
        raise Refused("tool_execution_error", "incomplete_decimal_options")

    def need_frac():
        if num is None or den is None:
            raise Refused("tool_execution_error", "missing_argument")
        for v in (num, den):
            if abs(v).bit_length() > MAX_BITS:
                raise Refused("cost_limit_exceeded", "operand_too_large")
        if den == 0:
            raise Refused("tool_execution_error", "division_by_zero")
        return Fraction(num, den)

    prob = None
    if op == "fraction":
        prob = need_frac()
        result = prob
    elif op in ("combination", "permutation"):
        if n is None or k is None:
            raise Refused("tool_execution_error", "missing_argument")
        result = Fraction(math.comb(n, k) if op == "combination" else math.perm(n, k))
    else:
        if n is None or k is None:
            raise Refused("tool_execution_error", "missing_argument")
        prob = need_frac()
        if prob < 0 or prob > 1:
            raise Refused("tool_execution_error", "probability_out_of_range")
        if prob.denominator.bit_length() * n + n > MAX_BITS:
            raise Refused("cost_limit_exceeded", "binomial_too_large")
        # P(X = k) is 0 for k > n (math.comb(n, k) == 0 there).
        result = Fraction(0) if k > n else Fraction(math.comb(n, k) * prob ** k * (1 - prob) ** (n - k))
    if result.numerator.bit_length() > MAX_BITS or result.denominator.bit_length() > MAX_BITS:
        raise Refused("cost_limit_exceeded", "result_too_large")
    if len(str(abs(result.numerator))) > MAX_DIGITS or len(str(result.denominator)) > MAX_DIGITS:
        raise Refused("cost_limit_exceeded", "result_too_large")
    return {
        "operation": op, "n": n, "k": k,
        "probability_numerator": None if prob is None else prob.numerator,
        "probability_denominator": None if prob is None else prob.denominator,
        "result_numerator": result.numerator, "result_denominator": result.denominator,
        "fraction": f"{result.numerator}/{result.denominator}",
        "decimal_scale": scale, "rounding": rounding,
        "decimal": None if scale is None else to_decimal(result, scale, rounding),
    }


cases = []


def add(name, op, n=None, k=None, num=None, den=None, scale=None, rounding=None):
    args = {"operation": op}
    for key, v in (("n", n), ("k", k), ("numerator", num), ("denominator", den),
                   ("decimal_scale", scale), ("rounding", rounding)):
        if v is not None:
            args[key] = v
    case = {"name": name, "args": args}
    try:
        facts = compute(op, n, k, num, den, scale, rounding)
        # The legacy `result` is canonical(facts); longer than limits.max_result_chars
        # is tool_result_too_large (SPEC section 5).
        if len(json.dumps(facts, ensure_ascii=False, sort_keys=True, separators=(",", ":"))) > 65536:
            raise Refused("tool_result_too_large", None)
        case["facts"] = facts
    except Refused as e:
        case["error_code"] = e.code
        if e.reason:
            case["reason"] = e.reason
    cases.append(case)


def schema(name, args):
    cases.append({"name": name, "args": args, "error_code": "input_schema_invalid"})


rng = random.Random(31337)
modes = list(MODES)

# Reference example from the specification.
add("spec_binomial_10_3_half", "binomial_probability", 10, 3, 1, 2)
add("spec_binomial_10_3_half_scale6", "binomial_probability", 10, 3, 1, 2, 6, "half_even")

# Fractions: reduction, signs, repeating decimals, ties in every mode.
for num, den in [(6, 8), (-6, 8), (6, -8), (-6, -8), (0, 5), (0, -5), (1, 3), (2, 3), (1, 7),
                 (22, 7), (355, 113), (10, 1), (7, 7), (1, 10**30), (10**40 + 1, 3)]:
    add(f"fraction_{num}_{den}", "fraction", num=num, den=den)
    add(f"fraction_{num}_{den}_s6", "fraction", num=num, den=den, scale=6, rounding=rng.choice(modes))
for mode in modes:
    for num, den, scale in [(2675, 1000, 2), (-2675, 1000, 2), (5, 2, 0), (-5, 2, 0), (7, 2, 0),
                            (1, 8, 2), (-1, 8, 2), (1, 3, 0), (2, 3, 0), (-1, 1000, 2),
                            (1, 2 * 10**18, 18), (123456789, 10**9, 4)]:
        add(f"tie_{mode}_{num}_{den}_s{scale}", "fraction", num=num, den=den, scale=scale, rounding=mode)
add("fraction_den_zero", "fraction", num=1, den=0)
add("fraction_zero_over_zero", "fraction", num=0, den=0)
add("fraction_missing_den", "fraction", num=1)
add("fraction_scale_without_rounding", "fraction", num=1, den=3, scale=2)
add("fraction_rounding_without_scale", "fraction", num=1, den=3, rounding="half_up")
add("fraction_huge_operand", "fraction", num=2**65536, den=3)
add("fraction_max_operand", "fraction", num=2**65536 - 1, den=2**65535 + 1)
add("fraction_negative_big", "fraction", num=-(3**1000), den=2**1500, scale=18, rounding="floor")
add("fraction_4300_digits", "fraction", num=10**4299 + 7, den=3, scale=2, rounding="half_up")
add("fraction_4301_digits", "fraction", num=10**4300 + 7, den=3)

# Combinations and permutations, including k > n and the range ends.
for n, k in [(0, 0), (1, 0), (1, 1), (5, 2), (10, 3), (52, 5), (100, 50), (3, 5), (0, 1),
             (4096, 0), (4096, 1), (4096, 2048), (4096, 4096), (4096, 4095), (1000, 3)]:
    add(f"comb_{n}_{k}", "combination", n, k)
    add(f"perm_{n}_{k}", "permutation", n, k)
for i in range(40):
    n = rng.randint(0, 300)
    k = rng.randint(0, n + 3)
    op = rng.choice(["combination", "permutation"])
    scale = rng.choice([None, 0, 3])
    add(f"random_{op}_{i}", op, n, k, scale=scale, rounding=None if scale is None else rng.choice(modes))
add("comb_missing_k", "combination", n=5)
add("perm_missing_n", "permutation", k=5)
add("comb_scale_3", "combination", 10, 3, scale=3, rounding="down")

# Binomial probabilities.
for i in range(90):
    n = rng.randint(0, 200)
    k = rng.randint(0, n + 2)
    den = rng.choice([2, 3, 6, 10, 100, 1000, 7, 12, rng.randint(1, 10**6)])
    num = rng.randint(0, den)
    scale = rng.choice([None, 0, 2, 6, 12, 18])
    add(f"binomial_random_{i}", "binomial_probability", n, k, num, den, scale,
        None if scale is None else rng.choice(modes))
for n, k, num, den in [(0, 0, 1, 2), (5, 0, 0, 1), (5, 5, 1, 1), (5, 3, 0, 1), (5, 0, 1, 1),
                       (6, 2, 1, 6), (20, 10, 1, 2), (4096, 2048, 1, 2), (4096, 0, 1, 2),
                       (10, 3, 2, 4), (10, 3, -1, -2), (10, 11, 1, 2), (100, 50, 49, 100)]:
    add(f"binomial_{n}_{k}_{num}_{den}", "binomial_probability", n, k, num, den, 18, "half_even")
add("binomial_p_negative", "binomial_probability", 10, 3, -1, 2)
add("binomial_p_over_one", "binomial_probability", 10, 3, 3, 2)
add("binomial_den_zero", "binomial_probability", 10, 3, 1, 0)
add("binomial_missing_p", "binomial_probability", 10, 3)
add("binomial_missing_n", "binomial_probability", k=3, num=1, den=2)
add("binomial_cost_limit", "binomial_probability", 4096, 2048, 1, 3**10)
add("binomial_cost_limit_edge_ok", "binomial_probability", 4096, 1, 1, 2**14)
add("binomial_cost_limit_edge_refused", "binomial_probability", 4096, 1, 1, 2**15)
add("binomial_reduced_den_ok", "binomial_probability", 4096, 7, 10**3000, 10**3000)
add("binomial_decimal_tiny", "binomial_probability", 1000, 0, 1, 2, 18, "up")

# Input-schema refusals.
schema("schema_n_too_big", {"operation": "combination", "n": 4097, "k": 1})
schema("schema_k_negative", {"operation": "combination", "n": 5, "k": -1})
schema("schema_scale_19", {"operation": "fraction", "numerator": 1, "denominator": 3, "decimal_scale": 19, "rounding": "up"})
schema("schema_unknown_op", {"operation": "factorial", "n": 5})
schema("schema_float_numerator", {"operation": "fraction", "numerator": 0.5, "denominator": 3})
schema("schema_string_n", {"operation": "combination", "n": "5", "k": 1})
schema("schema_bad_rounding", {"operation": "fraction", "numerator": 1, "denominator": 3, "decimal_scale": 2, "rounding": "05up"})
schema("schema_unknown_arg", {"operation": "fraction", "numerator": 1, "denominator": 3, "p": 1})

def has_huge_int(v):
    if isinstance(v, int) and not isinstance(v, bool):
        return len(str(abs(v))) > MAX_DIGITS
    if isinstance(v, dict):
        return any(has_huge_int(x) for x in v.values())
    return False


# Requests carrying integers over 4300 digits never reach a tool (the request
# parser refuses them), so those cases are replayed by the internal package only.
tool_cases = [c for c in cases if not has_huge_int(c["args"])]
huge_cases = [c for c in cases if has_huge_int(c["args"])]
os.makedirs(os.path.join(ROOT, "tools/testdata/exact_probability"), exist_ok=True)
with open(os.path.join(ROOT, "tools/testdata/exact_probability/oracle_cases.json"), "w") as f:
    json.dump({"cases": tool_cases}, f, indent=1)
    f.write("\n")
os.makedirs(os.path.join(ROOT, "internal/exactprob/testdata"), exist_ok=True)
with open(os.path.join(ROOT, "internal/exactprob/testdata/oracle_huge.json"), "w") as f:
    json.dump({"cases": huge_cases}, f, indent=1)
    f.write("\n")
print(len(tool_cases), "exact_probability cases,", len(huge_cases), "huge-operand cases")
