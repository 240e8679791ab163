#!/usr/bin/env python3
"""Oracle for the calculate tool.

Every expression is evaluated independently of the Go code: Python's own parser
(ast) gives the operator semantics (precedence, associativity, -2**2 == -4), the
tree is evaluated with SymPy exact objects (Rational for every literal, so 0.1 is
exactly 1/10; sympy.sqrt/log/sin/... for functions), and:
  * rational values give `fraction` from fractions.Fraction and `result` either as
    the exact terminating decimal or decimal.Decimal division rounded half-even to
    `precision` digits (Python's str(Decimal) form);
  * irrational values are evaluated with mpmath (through sympy.N) at precision+40
    digits and rounded half-even to `precision` digits; a case whose digits come
    within 10^-30 of a rounding tie is rejected (never happens in practice).
Percent cases are written twice: the calculate syntax and an equivalent Python
expression (N% of X == N/100*X by the spec). Error cases name the reason the
contract gives; each is confirmed against Python's math module (ValueError ->
math_domain_error, ZeroDivisionError -> division_by_zero) where Python has the
same notion, and cost-limit cases are checked against the declared limits.

Writes tools/testdata/calculate/oracle_*.json.
Run from the repo root: python3 tools/testdata/oracle/gen_calculate.py
"""
import ast
import json
import math
import os
import random
from decimal import Decimal, Context, ROUND_HALF_EVEN, localcontext
from fractions import Fraction

import sys
import sympy

sys.set_int_max_str_digits(0)
sys.setrecursionlimit(20000)
from sympy import Rational, Integer

rng = random.Random(20261130)


class Bad(Exception):
    pass


FUNCS = {}


def fn(name):
    def deco(f):
        FUNCS[name] = f
        return f
    return deco


def num(x, prec=60):
    return sympy.N(x, prec)


def is_int(x):
    return x.is_Integer


@fn("sqrt")
def _sqrt(x):
    return sympy.sqrt(x)


@fn("round")
def _round(x, n=None):
    k = 0 if n is None else int(n)
    y = x * Rational(10) ** k
    if y.is_Rational:
        r = round(Fraction(int(y.p), int(y.q)))  # Python rounds Fractions half-even
    else:
        r = int(sympy.floor(y + Rational(1, 2)))
    return Integer(r) / Rational(10) ** k


def rational_log(x, b):
    """log_b(x) for rationals when it is rational: find m/n from a high-precision
    value and verify x**n == b**m exactly."""
    if not (x.is_Rational and b.is_Rational) or x <= 0 or b <= 0 or b == 1:
        return None
    L = sympy.N(sympy.log(x) / sympy.log(b), 60)
    fr = Fraction(str(L)).limit_denominator(100000)
    if x ** fr.denominator == b ** fr.numerator:
        return Rational(fr.numerator, fr.denominator)
    return None


@fn("log")
def _log(x, b=None):
    if b is None:
        return sympy.log(x)
    r = rational_log(x, b)
    return r if r is not None else sympy.log(x) / sympy.log(b)


@fn("log10")
def _log10(x):
    return _log(x, Integer(10))


@fn("log2")
def _log2(x):
    return _log(x, Integer(2))


# Functions that are SymPy's own (the name differs for abs and ceil).
for _n, _f in [("abs", "Abs"), ("floor", "floor"), ("ceil", "ceiling"), ("exp", "exp"), ("sin", "sin"),
               ("cos", "cos"), ("tan", "tan"), ("asin", "asin"), ("acos", "acos"), ("atan", "atan")]:
    FUNCS[_n] = getattr(sympy, _f)


@fn("atan2")
def _atan2(y, x):
    if y == 0 and x == 0:
        return Integer(0)  # Python: math.atan2(0, 0) == 0.0 (SymPy says nan)
    return sympy.atan2(y, x)


@fn("hypot")
def _hypot(*xs):
    return sympy.sqrt(sum((x * x for x in xs), Integer(0)))


def on_ints(f):
    """The math function f on integer arguments, as a SymPy Integer."""
    return lambda *xs: Integer(f(*[int(x) for x in xs]))


for _n in ["factorial", "gcd", "lcm", "comb"]:
    FUNCS[_n] = on_ints(getattr(math, _n))


@fn("perm")
def _perm(n, k=None):
    return Integer(math.perm(int(n), None if k is None else int(k)))


@fn("min")
def _min(*xs):
    return min(xs, key=lambda v: num(v, 80))


@fn("max")
def _max(*xs):
    return max(xs, key=lambda v: num(v, 80))


NAMES = {"pi": sympy.pi, "e": sympy.E, "tau": 2 * sympy.pi}


def ev_leaf(node):
    """The value of a leaf of the expression tree: a number or a named constant."""
    if isinstance(node, ast.Constant):
        return Rational(repr(node.value)) if isinstance(node.value, float) else Integer(node.value)
    if isinstance(node, ast.Name):
        return NAMES[node.id]
    if isinstance(node, ast.Attribute):  # math.pi
        return NAMES[node.attr]
    raise Bad(ast.dump(node))


def ev_tree(tree, src):
    # Map each float constant to its source segment once.
    segs = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            segs[id(node)] = ast.get_source_segment(src, node).replace("_", "")

    def walk(node):
        if isinstance(node, ast.Constant) and id(node) in segs:
            return Rational(segs[id(node)])
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.UnaryOp):
            v = walk(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = walk(node.left), walk(node.right)
            op = node.op
            if isinstance(op, ast.Add):
                return a + b
            if isinstance(op, ast.Sub):
                return a - b
            if isinstance(op, ast.Mult):
                return a * b
            if isinstance(op, ast.Div):
                # Contract rule: a ratio of logarithms of rationals is exact when
                # it is rational (SymPy leaves log(1000)/log(10) unevaluated).
                if a.has(sympy.log) and b.has(sympy.log):
                    ea, eb = sympy.exp(a), sympy.exp(b)
                    if ea.is_Rational and eb.is_Rational:
                        r = rational_log(ea, eb)
                        if r is not None:
                            return r
                return a / b
            if isinstance(op, ast.FloorDiv):
                return sympy.floor(a / b)
            if isinstance(op, ast.Mod):
                return a - b * sympy.floor(a / b)
            if isinstance(op, ast.Pow):
                return a ** b
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            return FUNCS[name](*[walk(a) for a in node.args])
        return ev_leaf(node)

    return walk(tree)


def exact_decimal(fr):
    """Plain exact decimal of a terminating Fraction, else None."""
    d = fr.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return None
    if fr.denominator == 1:
        return str(fr.numerator)
    with localcontext(Context(prec=100000)):
        return format(Decimal(fr.numerator) / Decimal(fr.denominator), "f")


def round_sig(s, p):
    """Round a long decimal string half-even to p significant digits, Python str form."""
    ctx = Context(prec=p, rounding=ROUND_HALF_EVEN, Emax=10**6, Emin=-10**6)
    return str(ctx.create_decimal(s))


def facts_for(expr_text, py_src, p):
    v = ev_tree(ast.parse(py_src, mode="eval"), py_src)
    if v.is_Rational:
        fr = Fraction(int(v.p), int(v.q))
        ed = exact_decimal(fr)
        if ed is not None:
            res, exact = ed, True
        else:
            ctx = Context(prec=p, rounding=ROUND_HALF_EVEN, Emax=10**6, Emin=-10**6)
            res, exact = str(ctx.divide(Decimal(fr.numerator), Decimal(fr.denominator))), False
        kind = "integer" if fr.denominator == 1 else "rational"
        frac = str(fr)
    else:
        assert v.is_real is not False, (expr_text, v)
        digits = p + 40
        s = str(sympy.N(v, digits))
        # Guard against a near tie at digit p+1.
        mant = s.lstrip("-").replace(".", "").lstrip("0").split("e")[0]
        tail = mant[p:p + 30]
        if tail.startswith("5" + "0" * 29) or tail.startswith("4" + "9" * 29):
            raise Bad("near tie: " + expr_text)
        res, exact, kind, frac = round_sig(s, p), False, "irrational", None
    return {"expression": expr_text, "result": res, "exact": exact, "fraction": frac, "kind": kind, "precision": p}


cases = []


def add(expr_text, py_src=None, p=None, name=None):
    args = {"expression": expr_text}
    if p is not None:
        args["precision"] = p
    f = facts_for(expr_text, py_src or expr_text, p or 34)
    c = {"name": name or expr_text[:60], "args": args, "facts": f}
    if not f["exact"]:
        c["warnings"] = ["rounded"]
    cases.append(c)


def add_err(expr_text, code, reason, p=None, python_check=None):
    args = {"expression": expr_text}
    if p is not None:
        args["precision"] = p
    if python_check is not None:
        exc = python_check
        try:
            eval(expr_text.replace("^", "**"), {"__builtins__": {}}, vars(math) | {"math": math})
        except exc:
            pass
        else:
            raise AssertionError("python did not raise for " + expr_text)
    cases.append({"name": "error " + expr_text[:50], "args": args, "error_code": code, "reason": reason})


# ---- 1. operator semantics with negatives, floor division and modulo signs ----
vals = ["7", "-7", "3", "-3", "0", "2.5", "-2.5", "10", "-10", "1", "0.75"]
for a in vals:
    for b in ["3", "-3", "2.5", "-0.75", "4"]:
        for op in ["//", "%"]:
            add(f"{a} {op} {b}")
for a, b in [("7", "2"), ("-7", "2"), ("1", "3"), ("-1", "3"), ("22", "7"), ("0.1", "0.3"), ("2", "-8")]:
    add(f"{a} / {b}")
for src in ["-2**2", "2**-1", "2**3**2", "(-2)**3", "(-2)**-3", "-2**-2", "2**2**-1", "-(3)**2", "+-+3",
            "--4", "2*-3", "2**-2**-1", "(2**3)**2", "1 + 2 * 3 - 4 / 5", "(1 + 2) * (3 - 4) / 5",
            "2**32 - 1", "2**64", "-2**63", "10**18 + 1", "0**0", "0**5", "1.5**3", "(-1.5)**5",
            "4**0.5", "8**(1/3)", "27**(-2/3)", "(9/4)**(3/2)", "1000000**(1/6)", "0.1 + 0.2", "0.1 + 0.2 - 0.3",
            "1/3 + 1/6", "1e3 + 1", "2.5e-3 * 4", "1_000_000 / 8", "7 // 2 * 2 + 7 % 2", "-7 // 2 * 2 + -7 % 2",
            "1/3", "2/3", "-1/7", "22/7", "1/81", "10**40/3", "1e-7/3", "123456789/1000", "1/1024", "-1/1024",
            "3**500", "2**1000 - 1", "7**(-30)", "(1/3)**20", "2**99999 // 2**99998"]:
    add(src)

# ---- 2. percentages (calculate syntax, Python equivalent) ----
for text, py in [("10% of 50", "10/100*50"), ("15% of 80", "15/100*80"), ("12.5% of 64", "12.5/100*64"),
                 ("20% von 150", "20/100*150"), ("3% of 1/3", "3/100*(1/3)"), ("50 * 10%", "50 * (10/100)"),
                 ("10%", "10/100"), ("200 + 5%", "200 + 5/100"), ("100 - 7.5% of 100", "100 - 7.5/100*100"),
                 ("(10 + 5)% of 200", "(10 + 5)/100*200"), ("-5% of 40", "-(5/100*40)"), ("1%%", "1/100/100"),
                 ("10 % 3", "10 % 3"), ("10 %- 3", "10 % -3"), ("17% of 0.3", "17/100*0.3"),
                 ("33% of 1", "33/100"), ("2**10%", "2**(10/100)"), ("sqrt(16)% of 50", "4/100*50")]:
    add(text, py)

# ---- 3. every function, exact and inexact, rational arguments ----
fn_cases = [
    "sqrt(4)", "sqrt(9/4)", "sqrt(0)", "sqrt(2)", "sqrt(8)", "sqrt(12)/sqrt(3)", "sqrt(2)*sqrt(8)", "sqrt(2)**2",
    "sqrt(2)*sqrt(3)*sqrt(6)", "sqrt(8) - 2*sqrt(2)", "sqrt(2) + sqrt(8)", "sqrt(1/2)", "1/sqrt(2)", "sqrt(2)**5",
    "sqrt(2)**-3", "sqrt(10**100)", "sqrt(10**101)", "sqrt(0.01)", "sqrt(1e-6)", "sqrt(123456789)",
    "abs(-3)", "abs(-2.5)", "abs(3 - sqrt(10))", "abs(-pi)",
    "floor(2.5)", "floor(-2.5)", "floor(pi*1000)", "floor(-e)", "floor(sqrt(2)*10**20)", "ceil(2.1)", "ceil(-2.1)",
    "ceil(e**10)", "ceil(-sqrt(3))",
    "round(2.5)", "round(3.5)", "round(-2.5)", "round(2.675, 2)", "round(1234, -2)", "round(1250, -2)",
    "round(pi, 5)", "round(-e, 3)", "round(1/3, 4)", "round(sqrt(2)*100)", "round(0.125, 2)", "round(0.375, 2)",
    "exp(0)", "exp(1)", "exp(-1)", "exp(2.5)", "exp(100)", "exp(-1000)", "exp(1/3)", "exp(log(5))", "exp(log(2) + log(3))", "log(1000)/log(10)", "log(8)/log(2) - 3", "log(2) + log(1/2)", "log(2) - log(3)", "log(9)/log(27)", "log(10)/log(2)", "abs(log(1/3))",
    "log(1)", "log(10)", "log(2)", "log(0.5)", "log(1e-100)", "log(8, 2)", "log(1000, 10)", "log(4/9, 2/3)",
    "log(2, 8)", "log(1/8, 2)", "log(3, 2)", "log(100, 3)", "log(e**3)", "log(e)", "log(pi)",
    "log10(1000)", "log10(0.001)", "log10(2)", "log10(10**50)", "log2(8)", "log2(1024)", "log2(1/1024)", "log2(3)",
    "log2(2**99999 // 2**99000)",
    "sin(0)", "sin(1)", "sin(-1)", "sin(pi)", "sin(pi/6)", "sin(pi/4)", "sin(pi/3)", "sin(pi/2)", "sin(5*pi/6)",
    "sin(-pi/3)", "sin(7*pi/4)", "sin(pi/12)", "sin(100)", "sin(10**20)", "sin(1e-10)", "sin(tau)",
    "cos(0)", "cos(1)", "cos(pi)", "cos(pi/3)", "cos(pi/4)", "cos(2*pi/3)", "cos(pi/2)", "cos(3*pi/2)", "cos(22)",
    "tan(0)", "tan(1)", "tan(pi/4)", "tan(pi/3)", "tan(pi/6)", "tan(3*pi/4)", "tan(1.5)", "tan(-0.5)",
    "asin(0)", "asin(1)", "asin(-1)", "asin(0.5)", "asin(-1/2)", "asin(sqrt(2)/2)", "asin(sqrt(3)/2)", "asin(0.3)",
    "asin(0.999)", "acos(1)", "acos(0)", "acos(-1)", "acos(0.5)", "acos(-sqrt(2)/2)", "acos(0.3)", "acos(-0.99)",
    "atan(0)", "atan(1)", "atan(-1)", "atan(sqrt(3))", "atan(sqrt(3)/3)", "atan(1/3)", "atan(10)", "atan(-1000)",
    "atan(1e-5)", "4*atan(1)", "atan(1)*4/pi",
    "atan2(1, 1)", "atan2(1, -1)", "atan2(-1, -1)", "atan2(0, -1)", "atan2(0, 1)", "atan2(1, 0)", "atan2(-2, 0)",
    "atan2(0, 0)", "atan2(3, 4)", "atan2(-3, -4)",
    "hypot(3, 4)", "hypot(1, 1)", "hypot(5, 12)", "hypot(1, 2, 2)", "hypot(0.3, 0.4)", "hypot(1, 2)",
    "factorial(0)", "factorial(1)", "factorial(20)", "factorial(25)", "factorial(100)", "factorial(1000)", "factorial(8599)",
    "factorial(4/2)",
    "gcd(12, 18)", "gcd(12, 18, 27)", "gcd(-12, 18)", "gcd(0, 5)", "gcd(0, 0)", "gcd()", "gcd(2**64, 6**40)",
    "lcm(4, 6)", "lcm(4, 6, 10)", "lcm(0, 5)", "lcm()", "lcm(-4, 6)", "lcm(2**40, 3**30)",
    "min(3, 1, 2)", "max(3, 1, 2)", "min(sqrt(2), 1.5)", "max(pi, 22/7)", "max(-1, -0.5)", "min(e, 2.7183)",
    "comb(52, 5)", "comb(10, 0)", "comb(10, 11)", "comb(100, 50)", "comb(1000, 3)", "comb(10**30, 2)",
    "perm(5)", "perm(5, 2)", "perm(10, 10)", "perm(10, 0)", "perm(3, 5)", "perm(100, 20)",
    "math.sqrt(16) + math.pi", "pi", "e", "tau", "pi/2", "2*pi - tau", "e**2", "e**0.5", "pi**2",
    "pi*e", "sqrt(2) + sqrt(3)", "sqrt(2)*pi", "2**0.5", "2**sqrt(2)", "pi**e", "e**pi - pi",
    "10**0.5", "(1 + sqrt(5))/2", "((1 + sqrt(5))/2)**10", "3**(1/3)", "exp(1/2)**2", "log(2)/log(4)",
]
for src in fn_cases:
    add(src)

# ---- 4. irrational results at several precisions, including 1000 ----
for src in ["sqrt(2)", "pi", "e", "sin(1)", "log(10)", "atan(1/3)", "exp(pi)", "sqrt(2)*pi + e",
            "asin(0.3)", "cos(1e-3)", "log2(3)", "10**(1/3)", "1/7", "22/7 - pi", "tan(1)", "2**sqrt(2)"]:
    for p in [1, 2, 5, 15, 50, 100, 500, 1000]:
        add(src, p=p, name=f"{src} p={p}")

# ---- 5. random rational arithmetic ----
for _ in range(60):
    a = Fraction(rng.randint(-999, 999), rng.randint(1, 60))
    b = Fraction(rng.randint(-999, 999), rng.randint(1, 60))
    op = rng.choice(["+", "-", "*", "/", "//", "%"])
    if b == 0 and op in "/%":
        continue
    fa = f"({a.numerator}/{a.denominator})"
    fb = f"({b.numerator}/{b.denominator})"
    if b == 0:
        continue
    add(f"{fa} {op} {fb}", p=rng.choice([10, 34, 60]))
for _ in range(25):
    x = rng.randint(2, 40)
    y = rng.randint(-12, 12)
    add(f"{x}**{y} + {rng.randint(-9, 9)}/{rng.randint(1, 9)}")

# ---- 6. domain errors (each confirmed against Python's math module) ----
for src, reason, exc in [("sqrt(-1)", "math_domain_error", ValueError), ("log(0)", "math_domain_error", ValueError),
                         ("log(-5)", "math_domain_error", ValueError), ("asin(2)", "math_domain_error", ValueError),
                         ("acos(-1.5)", "math_domain_error", ValueError), ("factorial(-1)", "math_domain_error", ValueError),
                         ("log10(0)", "math_domain_error", ValueError), ("log2(-1)", "math_domain_error", ValueError),
                         ("comb(-1, 2)", "math_domain_error", ValueError), ("perm(5, -1)", "math_domain_error", ValueError),
                         ("1/0", "division_by_zero", ZeroDivisionError), ("5 // 0", "division_by_zero", ZeroDivisionError),
                         ("5 % 0", "division_by_zero", ZeroDivisionError), ("0**-1", "division_by_zero", ZeroDivisionError),
                         ("2.5 / (1 - 1)", "division_by_zero", ZeroDivisionError), ("pi % 0", "division_by_zero", ZeroDivisionError),
                         ("log(8, 1)", "division_by_zero", ZeroDivisionError)]:
    add_err(src, "tool_execution_error", reason, python_check=exc)
# Domain errors where Python floats answer approximately or with a complex number;
# mathematically undefined, and the contract refuses them.
for src in ["tan(pi/2)", "tan(-3*pi/2)", "(-8)**(1/3)", "(-2)**0.5", "sqrt(-pi)", "log(-e)", "asin(1 + sqrt(2))"]:
    add_err(src, "tool_execution_error", "math_domain_error")
for src, reason in [("factorial(2.5)", "integer_required"), ("gcd(1.5, 3)", "integer_required"),
                    ("comb(5.5, 2)", "integer_required"), ("x + 1", "unknown_identifier"), ("foo(2)", "unknown_function"),
                    ("sqrt(1, 2)", "wrong_argument_count"), ("atan2(1)", "wrong_argument_count"), ("min()", "wrong_argument_count"),
                    ("2 +", "syntax_error"), ("(1 + 2", "syntax_error"), ("2 ^ 3", "syntax_error"), ("3 4", "syntax_error"),
                    ("1..2", "syntax_error"), ("of 5", "syntax_error"), ("sqrt", "syntax_error"), ("pi(2)", "syntax_error"),
                    ("2 ** * 3", "syntax_error"), ("1e", "syntax_error"), ("import os", "syntax_error"),
                    ("__import__('os')", "syntax_error"), ("2pi", "syntax_error"), (",", "syntax_error")]:
    add_err(src, "tool_execution_error", reason)

# ---- 7. cost limits (declared in the contract; refused before the work) ----
for src, reason in [("9**9**9**9", "exponent_too_large"), ("factorial(10**9)", "factorial_too_large"),
                    ("10**100000 * 7", "exponent_too_large"), ("2**100001", "exponent_too_large"),
                    ("factorial(10001)", "factorial_too_large"), ("factorial(8600)", "result_too_large"),
                    ("exp(70000)", "exponent_too_large"), ("exp(-10**6)", "exponent_too_large"),
                    ("e**100000", "exponent_too_large"), ("sin(2**1100)", "argument_too_large"),
                    ("1e40000", "result_too_large"), ("comb(10**6, 5*10**5)", "result_too_large"),
                    ("perm(10**5, 10**5)", "result_too_large"), ("lcm(2**60000, 3**40000)", "result_too_large"),
                    ("(2**60000) * (3**40000)", "result_too_large"), ("(1/3)**70000", "exponent_too_large"),
                    ("(" * 101 + "1" + ")" * 101, "nesting_too_deep"), ("-" * 101 + "1", "nesting_too_deep"),
                    ("1" + "+1" * 999 + "+" + "1" * 2, None), ("2" + "**2" * 101, "nesting_too_deep")]:
    if reason is None:
        continue
    add_err(src, "cost_limit_exceeded", reason)
add("1" + "+1" * 999, "1" + "+1" * 999, name="long flat sum (1999 chars)")
add("(" * 100 + "1" + ")" * 100, "1", name="nesting of exactly 100")
add("2**4**" + "1**" * 97 + "1", "2**4", name="power chain of depth 100")
cases.append({"name": "2001 characters", "args": {"expression": "1" * 2001}, "error_code": "input_schema_invalid"})

# ---- 8. huge magnitudes: values near 2^100000 at 1000 digits ----
# A product of a transcendental factor and exp(69314) ≈ 2^99999 is within the
# limits; its 1000 digits need each factor to about 3400 bits relative, not
# every integer bit of the product (which took seconds before the engine asked
# for coarse approximations at negative precision).
for src, p in [("sin(10**300)*exp(69314)", 1000), ("sin(10**300)*exp(69314)*sin(10**300+1)", 1000),
               ("sin(10**300+2)*exp(69314) + cos(10**300+2)*exp(69314)", 1000),
               ("(sin(10**300+3)*exp(69000))*(cos(7)*exp(300))", 1000),
               ("-sin(10**300+4)*exp(69314)*pi", 500), ("abs(cos(10**300+5)*exp(69314))", 100),
               ("sqrt(sin(10**300+6)**2*exp(69314))", 1000), ("log(sin(10**300+7)**2*exp(69314))", 1000),
               ("atan(cos(10**300+8)*exp(69314))", 1000), ("sin(10**300+9)*exp(69314) - exp(69313)", 1000),
               ("exp(69314)*sin(10**300+10)*1e-30000", 1000), ("exp(-69314)*sin(10**300+11)*1e+28000", 50),
               ("floor(sin(10**300+12)*exp(60))", None), ("exp(69314)*sin(1/10**30)", 1000)]:
    add(src, p=p, name=f"huge: {src[:50]} p={p}")
# 70 such products: the first three factors already exceed 2^100000.
add_err("*".join(f"sin(10**300+{k})*exp({69314 - k})" for k in range(70)), "cost_limit_exceeded", "result_too_large",
        p=1000)

# ---- 9. tiny non-zero values: far below 2^-16384, known non-zero ----
# A product or quotient of decidably non-zero factors is non-zero however small,
# and so are sin, tan, asin and atan of such a value below 1 and its square root
# (Python's floats underflow to 0.0 here); a value that may be exactly zero is
# still refused below 2^-16384 (precision_exhausted).
for src, p in [("sin(1)*exp(-20000)", 34), ("sqrt(2)*exp(-20000)", 50), ("1/(sqrt(2)*exp(20000))", 34),
               ("pi*exp(-12000)", 1000), ("1e-5000*sin(1)", 34), ("1/(sin(1)*exp(12000))", 100),
               ("(sqrt(2)-1)**20000", 34), ("-cos(2)*exp(-69314)*1e-5000", 34), ("abs(sin(3)*exp(-30000))", 20),
               ("exp(-60000)/(1+sqrt(5))", 60), ("exp(-69314)*1e-30000*1e-30000*1e-30000*sin(1)", 34),
               ("sin(1e-5000)", 34), ("-sin(-1e-5000)*exp(-60000)", 30), ("atan(1e-6000)", 50), ("asin(-1e-7000)", 34),
               ("tan(1e-4000)", 34), ("sqrt(sin(1)*exp(-60000))", 40), ("sin(exp(-30000))", 34), ("atan(exp(-50000))*pi", 34)]:
    add(src, p=p, name=f"tiny: {src[:50]} p={p}")
# The first may be exactly zero; the second is about 2^-498600, below the
# 2^-400000 a bound derived from the factors may reach.
for src in ["exp(-30000)*(sin(1)**2 + cos(1)**2) - exp(-30000)", "exp(-69314)*1e-30000*1e-30000*1e-30000*1e-30000*sin(1)"]:
    add_err(src, "tool_execution_error", "precision_exhausted")
# Known not to be zero, however small: their floor and ceiling are exact (floats
# give 0 for all of them, from 0.0 and -0.0).
_tiny = "exp(-69314)*1e-30000*1e-30000*1e-30000*1e-30000*sin(1)"
for src in ["floor(-sin(1)*exp(-20000))", "ceil(atan(1e-6000))", "floor(sin(1e-5000))", "ceil(-1e-5000*sin(1))",
            f"floor({_tiny})", f"floor(-{_tiny})", f"ceil({_tiny})", f"ceil(-{_tiny})", f"round({_tiny})"]:
    add(src, name=f"tiny, integer part: {src[:50]}")

# ---- 9b. a subexpression written twice alike is evaluated once: x - x is 0 ----
for src in ["sin(1) - sin(1)", "exp(pi) - exp(pi)", "sin(10**300)*exp(69314) - sin(10**300)*exp(69314)",
            "sin(2) - sin(2) + 1/3", "2*(atan(7)*e - atan(7)*e)", "round(log(5) - log(5), 3)"]:
    add(src, p=34, name=f"repeated: {src[:50]}")

# ---- 10. random products, quotients and sums across the whole magnitude range ----
# Factors from 2^-99000 to 2^99000 (exp, decimal powers, sin/cos/atan/log/sqrt
# of integers, pi), every partial product within 2^±99000 so that no limit
# applies, results of products down to 2^-200000 and of sums down to
# 2^-15000 (a sum has no structural lower bound), at 5 to 1000 digits. mpmath
# (through sympy.N) decides the magnitudes and the digits.
rng10 = random.Random(20261202)


def rand_factor():
    kind = rng10.choice(["exp", "dec", "sin", "cos", "atan", "log", "sqrt", "pi", "frac"])
    k = rng10.randint(2, 10**6)
    extreme = rng10.random() < 0.5  # near the ends of the range half the time
    if kind == "exp":
        e = rng10.randint(60000, 69000) if extreme else rng10.randint(0, 69000)
        return f"exp({rng10.choice([-1, 1]) * e})"
    if kind == "dec":
        e = rng10.randint(25000, 29000) if extreme else rng10.randint(0, 29000)
        return f"{rng10.randint(1, 999)}e{rng10.choice([-1, 1]) * e}"
    if kind in ("sin", "cos", "atan", "log", "sqrt"):
        return f"{kind}({k})"
    if kind == "pi":
        return "pi"
    return f"({k}/{rng10.randint(2, 10**6)})"


def log2abs(src):
    mpmath.mp.dps = 30
    v = sympy.N(ev_tree(ast.parse(src, mode="eval"), src), 30)
    return None if v == 0 else float(mpmath.log(abs(mpmath.mpf(str(v))), 2))


def rand_product():
    # Left to right; a factor that would take the partial product out of
    # range is skipped.
    src, lg = None, 0.0
    for _ in range(rng10.randint(2, 4)):
        f = rand_factor()
        op = rng10.choice(["*", "*", "/"]) if src else ""
        cand = f if src is None else f"{src}{op}{f}"
        lc = log2abs(cand)
        if lc is None or abs(lc) > 99000:
            continue
        src, lg = cand, lc
    return src, lg


import mpmath  # noqa: E402
n10 = 0
while n10 < 60:
    a, la = rand_product()
    if a is None:
        continue
    src, low = a, -200000
    if rng10.random() < 0.4:
        b, lb = rand_product()
        if b is None or "/" in b:
            continue
        src, low = f"{a} {rng10.choice(['+', '-'])} {b}", -15000
    lv = log2abs(src)
    if lv is None or not (low <= lv <= 99000):
        continue
    try:
        add(src, p=rng10.choice([5, 34, 200, 1000]), name=f"random {n10}: {src[:40]}")
    except Bad:
        continue
    n10 += 1

# ---- write ----
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import record  # noqa: E402
import mpmath  # noqa: E402
os.makedirs("tools/testdata/calculate", exist_ok=True)
big = [c for c in cases if len(json.dumps(c)) > 4000]
small = [c for c in cases if len(json.dumps(c)) <= 4000]
for fname, cs in [("oracle_cases.json", small), ("oracle_big.json", big)]:
    with open(f"tools/testdata/calculate/{fname}", "w", encoding="utf-8") as f:
        json.dump({"generator": record("tools/testdata/oracle/gen_calculate.py", sympy, mpmath), "cases": cs}, f, ensure_ascii=False, indent=0)
print("calculate", len(cases), "cases")
