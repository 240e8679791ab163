#!/usr/bin/env python3
"""Oracle for solve_equation, issue 14: random families checked against SymPy.

Writes
  tools/testdata/solve_equation/oracle_issue14.json   golden cases (facts compared exactly by
                                                      TestGolden and TestOracleExact):
      symbolic pure quadratics p*M*x**2 = q*N (M, N monomials in a, b, c; the family of the
      wrong answer x**2 = 2*a**2 -> [-a, a]), monic and non-monic biquadratics, expanded and
      factored products with biquadratic factors, binomial cubic factors alone, in expanded
      products and in factored products
  internal/poly/testdata/oracle_issue14_symbolic.json symbolic quadratics and linear equations
      (pure with a polynomial right side, monic with parameters, parameters in the leading
      coefficient, linear): SymPy's strings and every root's value at a rational point; the Go
      test compares every value and every string except the listed simplify() differences

Run from the repository root:  python3 tools/testdata/oracle/gen_solve_issue14.py
Optional: --compare-with DIR runs the same equations under the SymPy found in DIR (e.g. the
Debian python3-sympy 1.11.1 unpacked with dpkg -x) and records, per case, the strings that
version prints when they differ ("sympy_other"), so version-dependent printing is visible.
The reference sidecar pins sympy==1.12, which cannot be installed here (no PyPI); 1.12 lies
between 1.11.1 and the installed version.

The cases come from a fixed seed; the expected values come from SymPy only.
"""
import json
import os
import random
import subprocess
import sys

import sympy as sp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_solve as G  # noqa: E402  (parse, special factors, exact_case, versions)

rng = random.Random(20261201)
X = sp.Symbol("x")
PARAMS = sp.symbols("a b c")
POINT = {"a": sp.Rational(3, 7), "b": sp.Rational(-5, 3), "c": sp.Rational(11, 13)}


def rq(maxn=9, dens=(1, 1, 1, 2, 3, 4, 5)):
    n = 0
    while n == 0:
        n = rng.randint(-maxn, maxn)
    return sp.Rational(n, rng.choice(dens))


def fmt(c):
    c = sp.Rational(c)
    return str(c.p) if c.q == 1 else "(%d/%d)" % (c.p, c.q)


def mono(k=2, maxe=4, need=True):
    while True:
        m = sp.Integer(1)
        for p in PARAMS[:k]:
            m *= p ** rng.randint(0, maxe)
        if m != 1 or not need:
            return m


def term(c, m):
    return fmt(c) if m == 1 else "%s*%s" % (fmt(c), m)


def sym_case(name, eq):
    """Golden facts and values for an equation with parameters."""
    params = sorted(str(s) for s in G.parse(eq, "x", [str(p) for p in PARAMS]).free_symbols if str(s) != "x")
    e = G.parse(eq, "x", params)
    sols = sp.solve(e, X)
    deg = int(sp.Poly(e, X).degree())
    vals = []
    for r in sols:
        v = sp.N(r.subs({sp.Symbol(k): POINT[k] for k in params}), 30)
        vals.append([str(sp.re(v)), str(sp.im(v))])
    golden = G.symbolic_golden(name, eq, params, deg, sols)
    values = {"name": name, "equation": eq, "variable": "x", "parameters": params, "degree": deg,
              "solutions": [str(r) for r in sols], "values_at_point": vals,
              "point": {k: str(POINT[k]) for k in params}}
    return golden, values


def exact_ok(eq):
    """Every irreducible factor has an exact form this tool prints (degree <= 2, nested
    biquadratic, prime or cubic binomial)."""
    _, facs = sp.Poly(G.parse(eq, "x"), X).factor_list()
    return all(f.degree() <= 2 or G.special(f) for f, _ in facs)


def families():
    """(family, name, equation) for every case, in a fixed order."""
    cases = []
    seen = set()

    def add(fam, eq):
        if eq in seen:
            return
        seen.add(eq)
        cases.append((fam, "%s_%03d" % (fam, sum(1 for c in cases if c[0] == fam)), eq))

    # The wrong answers of issue 14 and their relatives.
    for eq in ["x**2 = 2*a**2", "3*x**2 = a**2*b**2", "x**2 = a**2/3", "x**2 = -2*a**2", "3*x**2 = -a**2*b**2",
               "x**2 = 2*a", "x**2 = -2*a", "x**2 = a**3", "x**2 = 8*a**3*b", "2*x**2 = a", "x**2 = 4*a**2*b",
               "5*x**2 = 3*a", "a*x**2 = 1", "a**2*x**2 = 1", "a**2*x**2 + 1 = 0", "x**2 - a*b**2 = 0",
               "a*b*x**2 + 3*b**3 = 0", "b**3*x**2 = 7", "a**3*b*x**2 = 2", "2*b*x**2 = 3*a**3"]:
        add("sym_issue", eq)
    # p*M*x**2 = q*N with monomials M, N.
    while sum(1 for c in cases if c[0] == "sym_pure_monomial") < 120:
        lhs = term(rq(), mono(2, 2, False)) + "*x**2"
        add("sym_pure_monomial", lhs + " = " + term(rq(), mono(3, 4)))
    # p*x**2 = polynomial in the parameters.
    while sum(1 for c in cases if c[0] == "sym_pure_poly") < 60:
        rhs = " + ".join(term(rq(), mono(2, 3, False)) for _ in range(rng.randint(2, 3)))
        add("sym_pure_poly", fmt(rq()) + "*x**2 = " + rhs)
    # x**2 + B*x + C with monomial B, C.
    while sum(1 for c in cases if c[0] == "sym_monic") < 60:
        B = term(rq(6, (1, 1, 2)), mono(2, 2, False))
        C = term(rq(6, (1, 1, 2)), mono(2, 2, False))
        add("sym_monic", "x**2 + (%s)*x + (%s) = 0" % (B, C))

    def cf(k=2):
        return " + ".join(term(rq(6, (1, 1, 2, 3)), mono(k, 2, False)) for _ in range(rng.randint(1, 2)))
    # A*x**2 + B*x + C, parameters anywhere.
    while sum(1 for c in cases if c[0] == "sym_general") < 60:
        add("sym_general", "(%s)*x**2 + (%s)*x + (%s) = 0" % (cf(), cf(), cf()))
    while sum(1 for c in cases if c[0] == "sym_linear") < 40:
        add("sym_linear", "(%s)*x + (%s) = %s" % (cf(3), cf(3), cf(3)))

    # Biquadratics a*x**4 + b*x**2 + c with a nested-radical solution.
    def biquad(monic):
        while True:
            a = 1 if monic else rng.randint(2, 9)
            k = rng.choice([1, 1, 2, 3])  # scaled coefficients exercise SymPy's rescaling
            b = rng.choice([-1, 1]) * rng.randint(1, 12) * k * k
            c = rng.choice([-1, 1]) * rng.randint(1, 20) * k ** 4
            p = sp.Poly(a * X ** 4 + b * X ** 2 + c, X)
            _, facs = p.factor_list()
            if len(facs) == 1 and G.nested_biquadratic(facs[0][0]):
                return p.as_expr()
    while sum(1 for c in cases if c[0] == "biquadratic_monic") < 40:
        add("biquadratic_monic", G.poly_str(sp.Poly(biquad(True), X).all_coeffs()) + " = 0")
    while sum(1 for c in cases if c[0] == "biquadratic") < 60:
        add("biquadratic", G.poly_str(sp.Poly(biquad(False), X).all_coeffs()) + " = 0")

    def small_factor():
        if rng.random() < 0.5:
            return X - sp.Rational(rng.randint(-5, 5), rng.choice([1, 1, 2]))
        return X ** 2 + rng.randint(-4, 4) * X + rng.randint(-6, 6)
    # Products with biquadratic factors, expanded (SymPy: quartic formula, sqrt of a
    # negative radicand kept) and factored (SymPy: each factor alone).
    while sum(1 for c in cases if c[0] == "biquadratic_product") < 50:
        p = sp.Poly(sp.expand(biquad(rng.random() < 0.5) * small_factor()), X)
        eq = G.poly_str(p.all_coeffs()) + " = 0"
        if exact_ok(eq):
            add("biquadratic_product", eq)
    while sum(1 for c in cases if c[0] == "biquadratic_factored") < 20:
        eq = "(%s)*(%s) = 0" % (sp.sstr(small_factor()), sp.sstr(biquad(rng.random() < 0.5)))
        if exact_ok(eq):
            add("biquadratic_factored", eq)

    # Binomial cubic factors a*x**3 + c.
    def cubic():
        while True:
            a = rng.choice([1, 1, 1, 2, 3, 4, 9])
            c = rng.choice([-1, 1]) * rng.randint(2, 400)
            if not sp.root(sp.Rational(c, a), 3).is_Rational:
                return a * X ** 3 + c
    while sum(1 for c in cases if c[0] == "cubic_binomial") < 40:
        add("cubic_binomial", G.poly_str(sp.Poly(cubic(), X).all_coeffs()) + " = 0")
    while sum(1 for c in cases if c[0] == "cubic_binomial_product") < 40:
        other = cubic() if rng.random() < 0.4 else small_factor()
        p = sp.Poly(sp.expand(cubic() * other), X)
        eq = G.poly_str(p.all_coeffs()) + " = 0"
        if exact_ok(eq) and p.degree() <= 6:
            add("cubic_binomial_product", eq)
    for eq in ["x**6 + 124*x**3 - 1485 = 0", "5*x**4 + 24*x**2 - 32 = 0",
               "x**5 - x**4 - x**3 + x**2 - x + 1 = 0"]:
        add("issue_examples", eq)
    while sum(1 for c in cases if c[0] == "cubic_binomial_factored") < 20:
        eq = "(%s)*(%s) = 0" % (sp.sstr(small_factor()), sp.sstr(cubic()))
        if exact_ok(eq):
            add("cubic_binomial_factored", eq)
    return cases


SYMBOLIC_GOLDEN = {"sym_issue", "sym_pure_monomial"}


def strings_only():
    """Print 'name<TAB>json(strings)' for every case (used by --compare-with)."""
    for fam, name, eq in families():
        params = [str(p) for p in PARAMS] if fam.startswith("sym") else []
        e = G.parse(eq, "x", params)
        print(name + "\t" + json.dumps([str(r) for r in sp.solve(e, X)]))
        sys.stdout.flush()


def main():
    if "--strings" in sys.argv:
        strings_only()
        return
    other = {}
    if "--compare-with" in sys.argv:
        path = sys.argv[sys.argv.index("--compare-with") + 1]
        env = dict(os.environ, PYTHONPATH=path)
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--strings"], env=env,
                             capture_output=True, text=True, check=True).stdout
        ver = subprocess.run([sys.executable, "-c", "import sympy; print(sympy.__version__)"], env=env,
                             capture_output=True, text=True, check=True).stdout.strip()
        for line in out.splitlines():
            name, js = line.split("\t", 1)
            other[name] = json.loads(js)
    golden, values = [], []
    differs = []
    for fam, name, eq in families():
        if fam.startswith("sym"):
            g, v = sym_case(name, eq)
            if fam in SYMBOLIC_GOLDEN:
                golden.append(g)
            else:
                v["family"] = fam
                values.append(v)
            mine = v["solutions"]
            target = g if fam in SYMBOLIC_GOLDEN else v
        else:
            g = G.exact_case(name, eq)
            golden.append(g)
            mine = [s["exact"] for s in g["facts"]["solutions"]]
            target = g
        if other and other.get(name) != mine:
            target["sympy_other"] = other.get(name)
            differs.append(name)
    gen = G.versions()
    gen["script"] = "tools/testdata/oracle/gen_solve_issue14.py"
    if other:
        gen["compared_with_sympy"] = ver
        gen["cases_printed_differently_by_that_version"] = differs
    G.write("tools/testdata/solve_equation/oracle_issue14.json", {"cases": golden}, gen)
    G.write("internal/poly/testdata/oracle_issue14_symbolic.json", {"cases": values}, gen)
    print("golden %d, symbolic values %d, printed differently by the compared version: %d" % (
        len(golden), len(values), len(differs)), file=sys.stderr)


if __name__ == "__main__":
    main()
