#!/usr/bin/env python3
"""Search for compound-interest growth factors (1 + rate/(100 n)) ** (years n) where
CPython's decimal power (prec 128) differs from the correctly rounded power.

libmpdec multiplies at a working precision of prec + digits(exponent) + 2 and
rounds the product once more to prec; in roughly 1 of 5000 random cases that
double rounding changes the last digit. The cases found pin that algorithm in
gen_decimal.py (a correctly rounded implementation would fail them).

Usage: python3 find_double_rounding.py SEED SECONDS   (prints rate n years)
"""
import random
import sys
import time
from decimal import Context, Decimal, ROUND_HALF_EVEN

seed, seconds = int(sys.argv[1]), float(sys.argv[2])
rng = random.Random(seed)
c = Context(prec=128, rounding=ROUND_HALF_EVEN, Emin=-999, Emax=999)


def correctly_rounded_pow(base, n):
    sign, digits, exp = base.as_tuple()
    coef = int("".join(map(str, digits)))
    exact = coef ** n
    nd = int(exact.bit_length() * 0.30102999566398) + 1
    k = max(0, nd - 140)
    q, r = divmod(exact, 10 ** k)
    q = q * 10 + (1 if r else 0)  # sticky digit: exact re-rounding below
    return c.create_decimal(Decimal((0, tuple(map(int, str(q))), exp * n + k - 1)))


t0 = time.time()
while time.time() - t0 < seconds:
    if rng.random() < 0.5:
        rate = Decimal(str(rng.randint(0, 30)) + "." + str(rng.randint(0, 9999)))
    else:
        rate = Decimal(str(rng.randint(1, 2500)) + "." + str(rng.randint(0, 99)))
    n = rng.choice([1, 2, 4, 12, 52, 365, 360, rng.randint(1, 365)])
    years = rng.randint(1, 10000 // n)
    if years * n > 3000:
        continue
    base = c.add(1, c.divide(rate, c.multiply(100, n)))
    try:
        r = c.power(base, years * n)
    except Exception:
        continue
    if r == 0 or not (-999 <= r.adjusted() <= 999):
        continue
    if correctly_rounded_pow(base, years * n) != r:
        print(rate, n, years, flush=True)
