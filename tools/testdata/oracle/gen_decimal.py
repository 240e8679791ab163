#!/usr/bin/env python3
"""Oracle for exactdec's integer power: Python's decimal module (libmpdec) under
the reference context prec=128, ROUND_HALF_EVEN, Emin=-999, Emax=999.

Writes internal/exactdec/testdata/pow_vectors.json (raw Decimal ** int vectors;
str(Decimal) keeps the exponent, so the vectors pin exponents too).

decimal_finance itself is checked against the reference service's own answers:
tools/testdata/reference/gen_numbers.py.

Run from the repository root:  python3 tools/testdata/oracle/gen_decimal.py
The random generator is seeded, so the output is reproducible.
"""
import json
import os
import random
import sys
from decimal import Context, Decimal, ROUND_HALF_EVEN, Overflow, localcontext

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numgen import rand_dec  # noqa: E402
from versions import record  # noqa: E402

rng = random.Random(20261130)


# The double-rounding cases found by find_double_rounding.py: libmpdec's power
# differs from the correctly rounded power there.
DOUBLE_ROUNDING = [("908.70", 365, 1), ("14.9510", 12, 75), ("712.75", 52, 13), ("94.53", 360, 2)]

# Raw power vectors: Decimal ** int under the 128-digit context (no exponent traps
# needed: bases are kept so that no vector over- or underflows).
pow_vectors = []
with localcontext(Context(prec=128, rounding=ROUND_HALF_EVEN, Emin=-999, Emax=999)):
    # The double-rounding cases first (see find_double_rounding.py).
    for rate, n, years in DOUBLE_ROUNDING:
        base = 1 + Decimal(rate) / (100 * Decimal(n))
        pow_vectors.append({"base": str(base), "n": n * years, "result": str(base ** (n * years))})
    for i in range(3000):
        kind = i % 5
        if kind == 0:   # 1 + rate/(100 n): the compound-interest base
            rate = Decimal(rand_dec(rng, rng.randint(1, 2), rng.randint(0, 8), rng.random() < 0.2))
            n = Decimal(rng.randint(1, 365))
            base = 1 + rate / (100 * n)
        elif kind == 1:  # a full 128-digit base near 1
            base = Decimal("1." + "".join(rng.choice("0123456789") for _ in range(127)))
        elif kind == 2:  # short bases
            base = Decimal(rand_dec(rng, rng.randint(1, 3), rng.randint(0, 3), rng.random() < 0.2))
        elif kind == 4:  # large rates: where double rounding shows most often
            rate = Decimal(str(rng.randint(1, 2500)) + "." + str(rng.randint(0, 99)))
            n = Decimal(rng.choice([1, 2, 4, 12, 52, 365, 360]))
            base = 1 + rate / (100 * n)
        else:            # long random base of any size
            base = Decimal(rand_dec(rng, rng.randint(1, 48), rng.randint(0, 24), rng.random() < 0.2))
        if base == 0:
            continue
        mag = abs(base.adjusted()) + 1
        limit = max(1, min(10000, 900 // mag)) if abs(base) >= 10 or abs(base) < Decimal("0.1") else 10000
        n = rng.randint(1, limit)
        try:
            r = base ** n
        except Exception:
            continue
        if r == 0 or not (-999 <= r.adjusted() <= 999):
            continue
        pow_vectors.append({"base": str(base), "n": n, "result": str(r)})
    # Edges: zero and one bases (exponents of the result), and powers that leave
    # the exponent range: Overflow (trapped), or subnormal and zero results
    # (Underflow is not trapped: Python rounds to Etiny = -1126).
    edges = [("0", 5), ("-0.00", 3), ("-0.00", 4), ("1.000", 5), ("1.000", 50), ("1", 7), ("-1.00", 3),
             ("0.0001", 249), ("0.0001", 250), ("0.0001", 281), ("0.0001", 282), ("0.1", 1125),
             ("0.1", 1126), ("0.1", 1127), ("0.5", 3700), ("0.5", 3741), ("0.99", 10000),
             ("0.3333333333333333333333", 2300), ("0.000123456789", 300), ("10", 999), ("10", 1000),
             ("9.99", 1000), ("1.5", 5677), ("1.5", 5678), ("123456789.123456789", 100)]
    for base, n in edges:
        try:
            pow_vectors.append({"base": base, "n": n, "result": str(Decimal(base) ** n)})
        except Overflow:
            pow_vectors.append({"base": base, "n": n, "error": "Overflow"})

os.makedirs(os.path.join(ROOT, "internal/exactdec/testdata"), exist_ok=True)
with open(os.path.join(ROOT, "internal/exactdec/testdata/pow_vectors.json"), "w") as f:
    json.dump({"generator": record("tools/testdata/oracle/gen_decimal.py"), "cases": pow_vectors}, f, indent=0)
    f.write("\n")

print(len(pow_vectors), "pow vectors")
