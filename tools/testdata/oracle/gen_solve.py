#!/usr/bin/env python3
"""Oracle for solve_equation: SymPy (sympy.solve, sympy.N(root, 34)).

Writes
  tools/testdata/solve_equation/oracle_exact.json    golden cases, facts compared exactly
  tools/testdata/solve_equation/oracle_errors.json   golden error cases
  internal/poly/testdata/oracle_numeric.json         roots of irreducible factors of degree >= 3
                                                     (compared digit by digit on the real roots)
  internal/poly/testdata/oracle_symbolic.json        equations with symbolic parameters (strings + values at a point)
  tools/testdata/solve_equation/oracle_symbolic.json golden symbolic cases (all but KNOWN_SHAPE_DIFFERENT)

Run from the repository root:  python3 tools/testdata/oracle/gen_solve.py
The cases are generated from a fixed random seed; the expected values come from SymPy only.

Semantics that the oracle fixes (the tool's documented contract):
  * decimal literals are exact rationals (SymPy's `rationalize` transformation);
  * `solutions` are str(r) for r in sympy.solve(lhs - rhs, x) in SymPy's order, each with
    decimal = str(sympy.N(r, 34)) and is_real = r.is_real;
  * method: degree 1 -> "linear", degree 2 -> "quadratic_formula", higher degree with every
    irreducible factor of degree <= 2 -> "factorization"; a contradiction -> "no_solution";
    symbolic linear/quadratic -> "symbolic_linear"/"symbolic_quadratic".
"""
import json
import os
import random
import sys

import mpmath

import sympy as sp
from sympy.parsing.sympy_parser import (convert_xor, parse_expr, rationalize,
                                        standard_transformations)

T = standard_transformations + (convert_xor, rationalize)
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
rng = random.Random(20261130)


def parse(eq, var, params=()):
    local = {var: sp.Symbol(var)}
    for p in params:
        local[p] = sp.Symbol(p)
    if "=" in eq:
        lhs, rhs = eq.split("=")
        return parse_expr(lhs, transformations=T, local_dict=local) - parse_expr(rhs, transformations=T, local_dict=local)
    return parse_expr(eq, transformations=T, local_dict=local)


def method_for(degree, factors_max_deg):
    if degree == 1:
        return "linear"
    if degree == 2:
        return "quadratic_formula"
    return "factorization"


def exact_case(name, eq, var="x"):
    expr = parse(eq, var)
    x = sp.Symbol(var)
    poly = sp.Poly(expr, x)
    deg = poly.degree()
    _, facs = poly.factor_list()
    maxdeg = max([f.degree() for f, _ in facs] or [0])
    assert all(f.degree() <= 2 or special(f) for f, _ in facs), (eq, facs)
    sols = sp.solve(expr, x)
    out = []
    for r in sols:
        out.append({"exact": str(r), "decimal": str(sp.N(r, 34)), "is_real": bool(r.is_real)})
    facts = {
        "equation": eq, "variable": var, "degree": int(deg), "parameters": [],
        "solutions": out, "solution_count": len(out),
        "method": method_for(deg, maxdeg), "nonreal_roots_omitted": 0,
    }
    return {"name": name, "args": {"equation": eq, "variable": var}, "facts": facts}


def nested_biquadratic(f):
    """An irreducible a*x**4 + b*x**2 + c, b != 0, with b**2 - 4*a*c > 0 not a square:
    SymPy writes its roots as +-sqrt(Y) / +-I*sqrt(-Y) with Y a real quadratic surd."""
    if f.degree() != 4:
        return False
    a, c3, b, c1, c = f.all_coeffs()
    disc = b * b - 4 * a * c
    return c3 == 0 and c1 == 0 and b != 0 and disc > 0 and not sp.sqrt(disc).is_Rational


def prime_binomial(f):
    """a*x**3 + c or a*x**4 + c with r = -c/a an integer (r > 0 for degree 4) equal to
    +-k**n * p, p a prime below 2**15: SymPy writes the roots with p**(1/3) / p**(1/4)."""
    n = f.degree()
    if n not in (3, 4):
        return False
    cs = f.all_coeffs()
    if any(c != 0 for c in cs[1:-1]):
        return False
    r = sp.Rational(-cs[-1], cs[0])
    if n == 4 and r < 0:
        # x**4 + q**4, q rational: q*(+-1 +- I)*sqrt(2)/2
        return sp.root(-r, 4).is_Rational
    if r.q != 1 or r == 0:
        return False
    fac = sp.factorint(abs(r.p))
    ones = [q for q, e in fac.items() if e % n == 1]
    return len(ones) == 1 and ones[0] < 2**15 and all(e % n == 0 for q, e in fac.items() if q != ones[0])


def cubic_binomial(f):
    """a*x**3 + c with -c/a not a rational cube: SymPy's roots_binomial radicals
    (12**(1/3), 2**(2/3)*3**(1/3)/2, -3*5**(1/3), ...)."""
    if f.degree() != 3:
        return False
    cs = f.all_coeffs()
    if cs[1] != 0 or cs[2] != 0 or cs[3] == 0:
        return False
    return not sp.root(sp.Rational(-cs[3], cs[0]), 3).is_Rational


def special(f):
    return nested_biquadratic(f) or prime_binomial(f) or cubic_binomial(f)


def numeric_case(name, eq, var="x"):
    expr = parse(eq, var)
    x = sp.Symbol(var)
    poly = sp.Poly(expr, x)
    _, facs = poly.factor_list()
    assert any(f.degree() >= 3 and not special(f) for f, _ in facs), (eq, facs)
    sqf = sp.Poly(sp.prod([f.as_expr() for f, _ in facs]), x)
    reals = sorted(set(sqf.real_roots()), key=lambda r: sp.N(r, 60))
    # roots SymPy gives as rationals or quadratic surds (irreducible factors of degree <= 2)
    exact = []
    for f, _ in facs:
        if f.degree() <= 2 or special(f):
            exact += [str(r) for r in sp.solve(f.as_expr(), x)]
    # roots of the irreducible factors of degree >= 3, in SymPy's CRootOf order over
    # their product (real ascending, then non-real by real part, conjugate pairs)
    rest = [f for f, _ in facs if f.degree() >= 3 and not special(f)]
    root_of = []
    if rest:
        prod = sp.Poly(sp.prod([f.as_expr() for f in rest]), x)
        irreducible = len(rest) == 1
        real = prod.real_roots()
        for k, r in enumerate(real):
            root_of.append({"decimal": str(sp.N(r, 34)), "is_real": True,
                            "exact": str(sp.CRootOf(prod.as_expr(), k)) if irreducible and prod.degree() >= 5 else None})
        # Non-real roots: SymPy's own 34-digit refinement of complex CRootOf takes minutes,
        # so they come from mpmath.polyroots at 80 digits (error estimate checked), rounded
        # by SymPy (str(sympy.N(value, 34))), in SymPy's CRootOf order: by real part, then
        # imaginary part. A real part below 1e-60 is taken as exactly 0 (a root on the
        # imaginary axis); such roots come in pairs +-r, so p(x) and p(-x) must then share
        # a factor, which is asserted.
        with mpmath.workdps(80):
            rts, err = mpmath.polyroots([int(c) for c in prod.all_coeffs()], maxsteps=400, extraprec=400, error=True)
            assert err < mpmath.mpf(10) ** -60, (eq, err)
        nonreal = sorted([z for z in rts if abs(z.imag) > mpmath.mpf(10) ** -40],
                         key=lambda z: (z.real, z.imag))
        assert len(nonreal) + len(real) == prod.degree(), eq
        even = sp.gcd(prod.as_expr(), prod.as_expr().subs(x, -x))
        for j, z in enumerate(nonreal):
            im = sp.Float(mpmath.nstr(z.imag, 80), 80)
            if abs(z.real) < mpmath.mpf(10) ** -60:
                assert sp.degree(even, x) > 0, eq
                v = sp.I * im
            else:
                v = sp.Float(mpmath.nstr(z.real, 80), 80) + sp.I * im
            k = len(real) + j
            root_of.append({"decimal": str(sp.N(v, 34)), "is_real": False,
                            "exact": "CRootOf(%s, %d)" % (prod.as_expr(), k) if irreducible and prod.degree() >= 5 else None})
    return {"name": name, "equation": eq, "variable": var, "degree": int(poly.degree()),
            "exact": sorted(exact), "real_decimals": [str(sp.N(r, 34)) for r in reals],
            "root_of": root_of,
            "sympy_solution_count": len(sp.solve(expr, x))}


# Symbolic equations whose SymPy output shape comes from simplify() heuristics that
# this tool does not reproduce (the value is the same; checked numerically in
# internal/poly/symbolic_test.go). Not written as golden (string-exact) cases.
KNOWN_SHAPE_DIFFERENT = {
    "a*x = 2*a + 2*b",  # SymPy 2 + 2*b/a, ours (2*a + 2*b)/a
}


def symbolic_golden(name, eq, params, deg, sols):
    """The golden case of an equation in x with parameters, from SymPy's solutions."""
    out = []
    for r in sols:
        free = bool(r.free_symbols)
        out.append({"exact": str(r), "decimal": None if free else str(sp.N(r, 34)),
                    "is_real": None if free else bool(r.is_real)})
    if any(r.free_symbols for r in sols):
        method = "symbolic_linear" if deg == 1 else "symbolic_quadratic"
    else:
        method = method_for(deg, 0)
    return {"name": name, "args": {"equation": eq, "variable": "x"},
            "warnings": ["generic_solution"] if params else [],
            "facts": {"equation": eq, "variable": "x", "parameters": params, "degree": deg,
                      "solutions": out, "solution_count": len(out), "method": method,
                      "nonreal_roots_omitted": 0}}


def versions():
    """Python and library versions that wrote a vector file."""
    return {"script": "tools/testdata/oracle/gen_solve.py", "python": sys.version.split()[0],
            "sympy": sp.__version__, "mpmath": mpmath.__version__,
            "note": "the reference sidecar pins sympy==1.12; these vectors were written with the sympy above"}


def write(path, obj, generator=None):
    """Write a vector file below the repository root, with the versions that wrote it."""
    obj = dict(obj, generator=generator or versions())
    full = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, ensure_ascii=False, indent=1, sort_keys=True)
        fh.write("\n")
    return full


def rat(maxn=9, maxd=1):
    n = rng.randint(-maxn, maxn)
    d = rng.randint(1, maxd)
    return sp.Rational(n, d)


def fmt(c):
    c = sp.Rational(c)
    if c.q == 1:
        return str(c.p)
    return "%d/%d" % (c.p, c.q)


def poly_str(coeffs, var="x"):
    """coeffs highest degree first -> Python expression text."""
    n = len(coeffs) - 1
    parts = []
    for i, c in enumerate(coeffs):
        d = n - i
        if c == 0:
            continue
        mon = "" if d == 0 else (var if d == 1 else "%s**%d" % (var, d))
        cs = fmt(c)
        if mon == "":
            t = cs
        elif c == 1:
            t = mon
        elif c == -1:
            t = "-" + mon
        else:
            t = "(%s)*%s" % (cs, mon) if "/" in cs else "%s*%s" % (cs, mon)
        parts.append(t)
    if not parts:
        return "0"
    s = parts[0]
    for t in parts[1:]:
        s += " - " + t[1:] if t.startswith("-") else " + " + t
    return s


def main():
    exact, numeric, errors, symbolic, sym_golden = [], [], [], [], []
    seen = set()

    def add_exact(name, eq, var="x"):
        if (eq, var) in seen:
            return
        seen.add((eq, var))
        exact.append(exact_case(name, eq, var))

    # Required by the brief / spec.
    add_exact("must_quadratic_difference_of_squares", "x**2 - 4 = 0")
    add_exact("must_linear", "2*x + 5 = 13")
    add_exact("must_cubic_three_rational", "x**3 - 6*x**2 + 11*x - 6 = 0")
    add_exact("golden_ratio", "x**2 - x - 1 = 0")
    add_exact("complex_pair", "x**2 + 2*x + 3 = 0")
    add_exact("sqrt8_simplifies", "x**2 = 8")
    add_exact("rational_coefficients", "2*x**2 + 3*x - 4 = 0")
    add_exact("expression_equal_zero", "x**2 + x - 1")
    add_exact("xor_power", "x^2 - 2 = 0")
    add_exact("other_variable", "t**2 - 3*t + 1 = 0", "t")
    add_exact("decimal_coefficients", "0.5*x**2 - 1.25*x + 0.5 = 0")
    add_exact("decimal_linear", "0.1*x + 0.2 = 0.3")
    add_exact("biquadratic_rational", "x**4 - 5*x**2 + 4 = 0")
    add_exact("biquadratic_surds", "x**4 - 5*x**2 + 6 = 0")
    add_exact("biquadratic_mixed", "x**4 + x**2 - 6 = 0")
    add_exact("quartic_two_quadratics", "x**4 - 3*x**2 + 1 = 0")
    add_exact("sophie_germain", "x**4 + 4 = 0")
    add_exact("repeated_root", "(x - 1)**2*(x + 2) = 0")
    add_exact("perfect_square", "x**2 - 6*x + 9 = 0")
    add_exact("zero_root", "2*x**2 + 3*x = 0")
    add_exact("imaginary_unit", "x**2 + 1 = 0")
    add_exact("both_sides", "x**2 + 3*x = 2*x + 5")
    add_exact("parentheses_expanded", "(x + 1)*(x - 3) = 2*(x - 1)")
    add_exact("big_rational_root", "1234567*x - 7654321 = 0")
    add_exact("large_root_exponent_notation", "x - 12345678901234567890123456789012345678 = 0")
    add_exact("tiny_root", "x - 1/1000000000000000 = 0")
    add_exact("unary_minus_power", "-x**2 + 2 = 0")

    # Degree 1 with rational coefficients.
    for i in range(40):
        a = 0
        while a == 0:
            a = rat(12, rng.choice([1, 1, 2, 3, 7]))
        b, c = rat(30, rng.choice([1, 2, 5])), rat(30, 1)
        add_exact("linear_%02d" % i, "%s = %s" % (poly_str([a, b]), fmt(c)))
    # Degree 2 with integer coefficients (real/complex/irrational/rational roots).
    for i in range(70):
        a = 0
        while a == 0:
            a = rng.randint(-9, 9)
        b, c = rng.randint(-20, 20), rng.randint(-30, 30)
        if c == 0 and b == 0:
            c = 1
        add_exact("quadratic_int_%02d" % i, poly_str([a, b, c]) + " = 0")
    # Degree 2 with fractions and decimals.
    for i in range(25):
        a = 0
        while a == 0:
            a = rat(9, rng.choice([1, 2, 3, 4, 5]))
        b, c = rat(15, rng.choice([1, 2, 3, 7])), rat(15, rng.choice([1, 2, 3, 8]))
        add_exact("quadratic_frac_%02d" % i, poly_str([a, b, c]) + " = 0")
    for i in range(15):
        a = rng.choice(["0.5", "1.5", "2.25", "0.1", "3", "-0.75"])
        b = rng.choice(["0.3", "-1.2", "2", "0", "-0.05"])
        c = rng.choice(["1", "-2.5", "0.125", "-0.4", "3.2"])
        add_exact("quadratic_decimal_%02d" % i, "%s*x**2 + %s*x + %s = 0" % (a, b, c))
    # Products of linear factors: repeated roots, degree 3-6.
    for i in range(40):
        k = rng.randint(3, 6)
        roots = [rat(6, rng.choice([1, 1, 2, 3])) for _ in range(k)]
        if rng.random() < 0.5:
            roots[1] = roots[0]
        x = sp.Symbol("x")
        lead = rng.choice([1, 1, 2, -3])
        p = sp.Poly(lead * sp.prod([(x - r) for r in roots]), x)
        form = rng.random()
        if form < 0.4:
            eq = " * ".join(["(x - %s)" % ("(" + fmt(r) + ")" if r < 0 or r.q != 1 else fmt(r)) for r in roots]) + " = 0"
        else:
            eq = poly_str(p.all_coeffs()) + " = 0"
        add_exact("rational_roots_%02d" % i, eq)
    # Linear and quadratic factors mixed.
    for i in range(45):
        x = sp.Symbol("x")
        facs = []
        for _ in range(rng.randint(1, 2)):
            a = rng.randint(1, 4)
            b, c = rng.randint(-6, 6), rng.randint(-8, 8)
            q = sp.Poly(a * x**2 + b * x + c, x)
            facs.append(q.as_expr())
        for _ in range(rng.randint(0, 2)):
            facs.append(x - rat(5, rng.choice([1, 2])))
        p = sp.Poly(sp.expand(sp.prod(facs)), x)
        if p.degree() < 3:
            continue
        eq = poly_str(p.all_coeffs()) + " = 0"
        if rng.random() < 0.3:
            eq = " * ".join("(" + str(f).replace(" ", "") + ")" for f in facs) + " = 0"
        add_exact("mixed_factors_%02d" % i, eq)
    # Biquadratics that split over the rationals.
    for i in range(25):
        x = sp.Symbol("x")
        p1, p2 = rat(9, rng.choice([1, 4])), rat(9, 1)
        if p1 == p2:
            p2 += 1
        e = sp.expand((x**2 - p1) * (x**2 - p2))
        add_exact("biquadratic_%02d" % i, poly_str(sp.Poly(e, x).all_coeffs()) + " = 0")
    # Irreducible biquadratics: nested square roots.
    for eq in ["x**4 - 10*x**2 + 1 = 0", "x**4 - 2*x**2 - 1 = 0", "x**4 - 8*x**2 + 8 = 0", "x**4 + 6*x**2 + 7 = 0",
               "2*x**4 - 6*x**2 + 1 = 0", "9*x**4 - 12*x**2 + 2 = 0", "(x - 1)*(x**4 - 2*x**2 - 1) = 0",
               "x**4 - 3*x**2 - 3 = 0", "(x**2 + 1)*(x**4 - 4*x**2 + 2) = 0"]:
        add_exact("nested_biquadratic_%02d" % len(exact), eq)
    for i in range(30):
        x = sp.Symbol("x")
        a, b, c = rng.randint(1, 6), rng.choice([-1, 1]) * rng.randint(1, 12), rng.randint(-9, 9)
        p = sp.Poly(a * x**4 + b * x**2 + c, x)
        _, facs = p.factor_list()
        if not (len(facs) == 1 and nested_biquadratic(facs[0][0])):
            continue
        add_exact("nested_biquadratic_random_%02d" % i, poly_str(p.all_coeffs()) + " = 0")
    # Binomials x**3 = +-k**3*p, x**4 = k**4*p (p prime): p**(1/3), p**(1/4) forms.
    for eq in ["x**3 = 2", "x**3 = -2", "x**3 = 16", "2*x**3 = 4", "x**3 = 5", "x**3 = 3", "x**3 = 81",
               "x**3 = -5", "x**3 = 40", "x**3 = 7*27", "x**3 = -3", "x**4 = 2", "x**4 = 3", "x**4 = 5*16",
               "x**4 = 48", "(x - 1)*(x**3 - 2) = 0", "x**3 - 13 = 0", "-x**3 + 11 = 0", "x**3 + 250 = 0",
               "(x**2 + 1)*(x**4 - 7) = 0", "x**4 - 162 = 0", "3*x**3 - 81*5 = 0",
               "x**4 + 1 = 0", "x**4 + 16 = 0", "x**4 + 81 = 0", "2*x**4 + 2 = 0", "x**4 + 1/16 = 0",
               "16*x**4 + 1 = 0", "x**4 = -625", "(x - 2)*(x**4 + 1) = 0"]:
        add_exact("binomial_%02d" % len(exact), eq)
    # Quartics that are products of two quadratics.
    for i in range(15):
        x = sp.Symbol("x")
        q1 = x**2 + rng.randint(-4, 4) * x + rng.randint(-5, 5)
        q2 = rng.randint(1, 3) * x**2 + rng.randint(-4, 4) * x + rng.randint(-5, 5)
        e = sp.Poly(sp.expand(q1 * q2), x)
        _, facs = e.factor_list()
        if max(f.degree() for f, _ in facs) > 2:
            continue
        add_exact("two_quadratics_%02d" % i, poly_str(e.all_coeffs()) + " = 0")

    # Irreducible factors of degree >= 3: real roots compared digit by digit.
    num_seen = set()
    def add_num(name, eq):
        if eq in num_seen:
            return
        num_seen.add(eq)
        x = sp.Symbol("x")
        _, facs = sp.Poly(parse(eq, "x"), x).factor_list()
        if all(f.degree() <= 2 or special(f) for f, _ in facs):
            add_exact(name, eq)  # every root has an exact form (e.g. cubic binomials)
            return
        numeric.append(numeric_case(name, eq))
    for eq in ["x**3 - 12 = 0", "x**3 - x - 1 = 0", "x**5 - x - 1 = 0", "x**3 - 3*x + 1 = 0",
               "(x**4 - 10*x**2 + 1)*(x**3 - 6) = 0", "x**4 + 2 = 0", "x**4 - 8 = 0", "x**5 - 5*x + 12 = 0",
               "(x**2 + 1)*(x**3 - x - 1) = 0", "(x - 5)*(x**3 - 12)*(x**2 + x + 1) = 0",
               "x**7 - 3*x**5 + x - 1 = 0", "x**6 - 2*x**3 - 1 = 0", "2*x**3 + 0.5*x - 7 = 0",
               "x**9 - 9*x**7 + 27*x**5 - 30*x**3 + 9*x - 1 = 0", "(x**3 - 6)**2 = 0",
               "x**20 - x**19 + 7*x**3 - 1 = 0", "1000000*x**3 - 3*x + 1 = 0",
               "(x**3 - 2)*(x**3 - x - 1) = 0", "(x**4 - 3)*(x**5 - x - 1)*(x**3 + 5) = 0",
               "(2*x**3 - 162)*(x**4 - 10*x**2 + 1)*(x**3 - x - 1) = 0", "(x**4 + 1)*(x**3 - x - 1) = 0"]:
        add_num("fixed_%02d" % len(numeric), eq)
    for i in range(30):
        x = sp.Symbol("x")
        deg = rng.choice([3, 3, 4, 5, 5, 6])
        coeffs = [rng.randint(1, 5)] + [rng.randint(-9, 9) for _ in range(deg)]
        p = sp.Poly(coeffs, x)
        _, facs = p.factor_list()
        if max(f.degree() for f, _ in facs) < 3:
            continue
        add_num("random_%02d" % i, poly_str(coeffs) + " = 0")

    # Errors.
    def add_err(name, eq, reason, code="tool_execution_error", var="x"):
        errors.append({"name": name, "args": {"equation": eq, "variable": var}, "error_code": code, "reason": reason})
    for name, eq in [("sin", "sin(x) = 0"), ("exponential", "2**x = 8"), ("reciprocal", "1/x = 2"),
                     ("fractional_power", "x**0.5 = 2"), ("sqrt_function", "sqrt(x) = 3"),
                     ("negative_power", "x**-1 = 4"), ("x_to_x", "x**x = 4"), ("exp", "exp(x) = 1"),
                     ("log", "log(x) = 0"), ("division_by_poly", "(x + 1)/(x - 1) = 2"),
                     ("abs", "Abs(x) = 1")]:
        x = sp.Symbol("x")
        try:
            e = parse(eq, "x")
            assert not e.is_polynomial(x), eq
        except Exception:  # noqa: BLE001 - sympy may refuse outright; still not a polynomial
            pass
        add_err("not_polynomial_" + name, eq, "not_polynomial")
    add_err("identity", "x = x", "identity_all_values")
    add_err("identity_expanded", "(x + 1)**2 = x**2 + 2*x + 1", "identity_all_values")
    add_err("syntax_two_equals", "x = 1 = 2", "invalid_syntax")
    add_err("syntax_unbalanced", "(x + 1 = 2", "invalid_syntax")
    add_err("syntax_implicit_mult", "2x + 1 = 0", "invalid_syntax")
    add_err("syntax_empty_side", "x**2 = ", "invalid_syntax")
    add_err("syntax_bad_char", "x $ 2 = 0", "invalid_syntax")
    add_err("constant_pi", "x - pi = 0", "unsupported_constant")
    add_err("constant_I", "x**2 + I = 0", "unsupported_constant")
    add_err("constant_E", "x - E = 0", "unsupported_constant")
    add_err("irrational_coefficient", "x**2 - 2**0.5 = 0", "irrational_coefficient")
    add_err("division_by_zero", "x/0 = 1", "division_by_zero")
    add_err("degree_too_large", "x**65 - 1 = 0", "degree_too_large", "cost_limit_exceeded")
    add_err("degree_too_large_product", "(x**40 + 1)*(x**30 + 1) = 0", "degree_too_large", "cost_limit_exceeded")
    add_err("huge_power_of_number", "x - 10**100000 = 0", "coefficient_too_large", "cost_limit_exceeded")
    add_err("too_deep", "(" * 120 + "x" + ")" * 120 + " = 1", "nesting_too_deep", "cost_limit_exceeded")
    add_err("isolation_too_costly", "x**63 - 2**2000*x**62 + 1 = 0", "isolation_too_costly", "cost_limit_exceeded")
    add_err("too_many_parameters", "a*x + b + c + d + e + f + g = 0", "too_many_parameters", "cost_limit_exceeded")
    add_err("symbolic_cubic", "a*x**3 + b = 0", "unsupported_symbolic")
    add_err("parameter_division", "x/a = 1", "unsupported_parameter_division")
    add_err("reserved_variable", "I**2 = 1", "invalid_variable", var="I")

    # Contradiction: no solution (sympy.solve returns []).
    for name, eq in [("contradiction", "1 = 2"), ("contradiction_cancelled", "x + 1 = x + 2")]:
        e = parse(eq, "x")
        assert sp.solve(e, sp.Symbol("x")) == []
        exact.append({"name": name, "args": {"equation": eq, "variable": "x"}, "facts": {
            "equation": eq, "variable": "x", "degree": 0, "parameters": [], "solutions": [],
            "solution_count": 0, "method": "no_solution", "nonreal_roots_omitted": 0}})

    # Symbolic parameters: strings as SymPy prints them, plus every root's value at a
    # fixed rational point (so the Go test can check forms SymPy's simplify() writes
    # differently, numerically).
    point = {"a": sp.Rational(3, 7), "b": sp.Rational(-5, 3), "c": sp.Rational(11, 13),
             "d": sp.Rational(2, 9), "k": sp.Rational(7, 5), "m": sp.Rational(-4, 11),
             "p": sp.Rational(5, 2), "q": sp.Rational(1, 3)}
    sym_eqs = ["a*x + b = 0", "a*x**2 + b*x + c = 0", "x**2 + b*x + 1 = 0", "a*x + b - c = 0",
               "2*a*x + b = 0", "x**2 - a = 0", "k*x = 3", "x + p = 2*p", "m*x - m**2 = 0",
               "x**2 + p*x + q = 0", "a*x**2 - 4*a = 0", "(x - a)*(x - b) = 0",
               "x**2 - 2*a*x + a**2 = 0", "a*x + 2*b = 3*c", "x/2 + a = 1", "x**2 + a**2 = 0",
               "a*x**2 + b = 0", "x**2 + x + c = 0", "(a + 1)*x = a - 1", "3*x**2 + b*x = 0",
               "a*x + b + c = 0", "2*a*x + b + c = 0", "a*b*x + c + d = 0", "(a+b)*x + 2*c = 0",
               "(a+b)*x = c*d", "2*(a+b)*x + 3 = 0", "a*x = 2*a + 2*b", "a*x = b**2", "a**2*x = b",
               "-a*x + b = 0", "a*x + b**2 - c**2 = 0", "(a+1)*x = a+1", "a*x + a*b = 0",
               "(a-b)*x = c", "(b-a)*x = c", "x*(a + 1) = 2*b - 3", "3*x - 2*a = 0", "x + a + b = 0",
               "x = a*b", "2*x = a", "(1/2)*a*x = b", "(2*a+1)*x + 3*b = 0", "a*x + 1 = 0",
               "x**2 + 2*b*x + 1 = 0", "x**2 + b*x = 0", "a*x**2 + b*x = 0", "2*x**2 + b*x + c = 0",
               "a*x**2 + 2*x + 1 = 0", "x**2 = a*b", "x**2 = 4*a", "x**2 + a = 0", "a*x**2 = 1",
               "x**2 - a*x - 1 = 0", "a*x**2 + b*x + c - d = 0", "x**2 - (a+b)*x + a*b = 0",
               "-x**2 + b*x + c = 0", "x**2 = a**2 + 1", "(1/2)*x**2 + b*x + c = 0",
               "3*x**2 + a*x + 1 = 0", "(a+1)*x**2 + b = 0", "x**2 + 4*a*x + 4 = 0",
               "0.5*a*x - 0.25 = 0", "x**2 - 9*a**2 = 0", "k*x**2 + k*x - 2*k = 0", "a*b*x**2 - a*b = 0"]
    for eq in sym_eqs:
        x = sp.Symbol("x")
        params = sorted(set(ch for ch in eq if ch in point))
        e = parse(eq, "x", params)
        sols = sp.solve(e, x)
        vals = []
        for r in sols:
            v = sp.N(r.subs(point), 30)
            vals.append([str(sp.re(v)), str(sp.im(v))])
        used = sorted(str(s) for s in e.free_symbols if str(s) != "x")
        deg = int(sp.Poly(e, x).degree())
        if eq not in KNOWN_SHAPE_DIFFERENT:
            sym_golden.append(symbolic_golden("symbolic_%02d" % len(sym_golden), eq, used, deg, sols))
        symbolic.append({"equation": eq, "variable": "x", "parameters": used,
                         "degree": int(sp.Poly(e, x).degree()),
                         "solutions": [str(r) for r in sols], "values_at_point": vals,
                         "point": {k: str(v) for k, v in point.items() if k in used}})

    write("tools/testdata/solve_equation/oracle_exact.json", {"cases": exact})
    write("tools/testdata/solve_equation/oracle_errors.json", {"cases": errors})
    write("internal/poly/testdata/oracle_numeric.json", {"cases": numeric})
    write("internal/poly/testdata/oracle_symbolic.json", {"cases": symbolic})
    write("tools/testdata/solve_equation/oracle_symbolic.json", {"cases": sym_golden})
    print("exact %d, errors %d, numeric %d, symbolic %d, total %d" % (
        len(exact), len(errors), len(numeric), len(symbolic), len(exact) + len(errors) + len(numeric) + len(symbolic)),
        file=sys.stderr)


if __name__ == "__main__":
    main()
