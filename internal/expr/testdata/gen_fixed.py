#!/usr/bin/env python3
"""Oracle for the fixed-point kernels of internal/expr (sinCosFixed, expFixed)
and its constants (pi and ln 2, up to 120000 bits).

Each case gives an input r as a fixed-point integer at w fractional bits
(r_fixed = floor(x·2^w) for a rational x) and the exact functions of
r_fixed/2^w, rounded to the nearest integer in units of 2^-w, computed by
mpmath at w + 64 bits. w reaches 50000 bits: from 256 bits on, the kernels
halve their argument (about sqrt(w)/2 times) and square or double back, the
same code at every larger precision; calculate's decisions around values near
2^100000 ask for up to about 120000 bits, its 1000-digit results (covered by
the calculate oracle) for about 3500.

Writes internal/expr/testdata/fixed.json.
Run from the repo root: python3 internal/expr/testdata/gen_fixed.py
"""
import os
import sys
from fractions import Fraction

import mpmath

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "testdata", "oracle"))
from versions import record, write_json  # noqa: E402

sys.set_int_max_str_digits(0)


def fixed(x, w):
    return (x.numerator << w) // x.denominator


cases = []
inputs = [Fraction(7, 10), Fraction(-785, 1000), Fraction(1, 3), Fraction(-1, 10**5), Fraction(0), Fraction(99, 100)]
for w in [64, 255, 256, 3000, 20000, 50000]:
    for i, x in enumerate(inputs):
        if w == 50000 and i % 2:
            continue  # keep the file small: three inputs at the largest w
        r = fixed(x, w)
        mpmath.mp.prec = w + 64
        v = mpmath.mpf(r) / mpmath.mpf(2) ** w
        out = {}
        for name, f in [("sin", mpmath.sin), ("cos", mpmath.cos), ("exp", mpmath.exp)]:
            out[name] = format(int(mpmath.nint(f(v) * mpmath.mpf(2) ** w)), "x")
        cases.append({"w": w, "r": format(r, "x"), **out})
# The constants, pi and ln 2, as the kernels' callers cache them (r unused).
for w in [64, 3000, 50000, 120000]:
    mpmath.mp.prec = w + 64
    cases.append({"w": w, "r": "0", "pi": format(int(mpmath.nint(mpmath.pi * mpmath.mpf(2) ** w)), "x"),
                  "ln2": format(int(mpmath.nint(mpmath.ln2 * mpmath.mpf(2) ** w)), "x")})
write_json("internal/expr/testdata/fixed.json", {"generator": record("internal/expr/testdata/gen_fixed.py", mpmath), "cases": cases})
