#!/usr/bin/env python3
"""Oracle for unit_convert: reads pint's definition files itself and computes
conversions with exact fractions.Fraction arithmetic (pi tracked as an exact
power; square roots of non-squares and pint's truncated irrational constants
fall back to mpmath at 100 digits and are reported as rounded).

It shares no code with the Go implementation: its own reader of the definition
file, its own expression evaluator (pint's textual preprocessing + a
precedence-climbing parser), its own pint-style name resolution, and Python's
decimal module for the exact_value strings.

Usage (from the repository root):
    python3 tools/testdata/oracle/gen_units.py [internal/units/pintdata]
By default it reads the pinned copy of pint 0.25.3's definition files in
internal/units/pintdata, the files units_gen.json is generated from.
writes tools/testdata/unit_convert/oracle_table.json and oracle_errors.json.
"""

import json
import math
import os
import random
import re
import sys
from decimal import Decimal, Context, ROUND_HALF_EVEN
from fractions import Fraction

import mpmath

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exact import terminates  # noqa: E402

mpmath.mp.dps = 100

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "internal", "units", "pintdata")
OUT = os.path.join(ROOT, "tools", "testdata", "unit_convert")

TRUNCATED = {"tansec", "ln10", "wien_x", "wien_u", "eulers_number"}


# ---------------------------------------------------------------- numbers --
class Num:
    """c * sqrt(r) * pi**p exactly (c, r, p Fractions; p a multiple of 1/2), or an
    mpf approximation m (approx=True) when that form cannot hold the value."""

    __slots__ = ("c", "r", "p", "m", "approx")

    def __init__(self, c=Fraction(1), p=0, m=None, approx=False, r=Fraction(1)):
        self.c, self.r, self.p, self.m, self.approx = Fraction(c), Fraction(r), Fraction(p), m, approx
        if self.m is None and self.r != 1:
            root = sqrt_fraction(self.r)
            if root is not None:
                self.c, self.r = self.c * root, Fraction(1)

    def value(self):
        if self.m is not None:
            return self.m
        v = mpmath.mpf(self.c.numerator) / self.c.denominator
        v *= mpmath.sqrt(mpmath.mpf(self.r.numerator) / self.r.denominator)
        return v * mpmath.pi ** (mpmath.mpf(self.p.numerator) / self.p.denominator)

    def exact(self):
        return self.m is None and not self.approx

    def rational(self):
        return self.exact() and self.r == 1 and self.p == 0

    def __mul__(self, o):
        if self.m is None and o.m is None:
            return Num(self.c * o.c, self.p + o.p, None, self.approx or o.approx, self.r * o.r)
        return Num(m=self.value() * o.value(), approx=True)

    def inv(self):
        if self.m is None:
            return Num(1 / self.c, -self.p, None, self.approx, 1 / self.r)
        return Num(m=1 / self.m, approx=True)

    def __truediv__(self, o):
        return self * o.inv()

    def pow(self, e):
        e = Fraction(e)
        if e.denominator == 1:
            k = e.numerator
            if self.m is None:
                return Num(self.c ** k, self.p * k, None, self.approx, self.r ** k)
            return Num(m=self.m ** k, approx=True)
        if e.denominator == 2 and self.m is None and self.r == 1 and self.c > 0:
            return Num(1, self.p / 2, None, self.approx, self.c).pow(e.numerator)
        return Num(m=self.value() ** (mpmath.mpf(e.numerator) / e.denominator), approx=True)


def isqrt_exact(n):
    if n < 0:
        return None
    r = math.isqrt(n)
    return r if r * r == n else None


def sqrt_fraction(f):
    a, b = isqrt_exact(f.numerator), isqrt_exact(f.denominator)
    if a is None or b is None:
        return None
    return Fraction(a, b)


# ------------------------------------------------------------ expressions --
SUPER = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def preprocess(s):
    """pint's string_preprocessor, restated."""
    s = s.replace(",", "")
    s = s.replace(" per ", "/")
    s = s.replace("°", "degree")
    s = re.sub(r"\s+", " ", s).strip()
    word = r"([^\W\d]\w*)"
    s = re.sub(word + r" squared", r"\1**2", s)
    s = re.sub(word + r" cubed", r"\1**3", s)
    s = re.sub(r"\bcubic " + word, r"\1**3", s)
    s = re.sub(r"\bsquare " + word, r"\1**2", s)
    s = re.sub(r"\bsq " + word, r"\1**2", s)

    def sup(m):
        t = m.group(0)
        sign = "-" if t.startswith("⁻") else ""
        return "**" + sign + "".join(str(SUPER.index(ch)) for ch in t.lstrip("⁻"))

    s = re.sub("⁻?[" + SUPER + "]+", sup, s)
    for a, b in (("·", "*"), ("⋅", "*"), ("×", "*"), ("÷", "/"), ("⁄", "/"), ("−", "-")):
        s = s.replace(a, b)
    s = s.replace("^", "**")
    return s


TOKEN = re.compile(r"\s*(?:(\*\*)|([*/()+\-])|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|([^\W\d][\w∞]*)|(%|‰))")


def tokenize(s):
    out, i = [], 0
    s = s.rstrip()
    while i < len(s):
        m = TOKEN.match(s, i)
        if not m or m.end() == i:
            raise SyntaxError("bad character at %d in %r" % (i, s))
        i = m.end()
        if m.group(1):
            out.append(("op", "**"))
        elif m.group(2):
            out.append(("op", m.group(2)))
        elif m.group(3):
            out.append(("num", m.group(3)))
        else:
            out.append(("name", m.group(4) or m.group(5)))
    # juxtaposition is multiplication (pint inserts '*' for whitespace)
    res = []
    for t in out:
        if res and (res[-1][0] in ("num", "name") or res[-1] == ("op", ")")) and (t[0] in ("num", "name") or t == ("op", "(")):
            res.append(("op", "*"))
        res.append(t)
    return res


class Parser:
    """Python precedence: * / left-assoc; unary -; ** right-assoc, binds tighter."""

    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else ("eof", None)

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def parse(self):
        n = self.sum()
        if self.peek()[0] != "eof":
            raise SyntaxError("trailing tokens")
        return n

    def chain(self, operand, ops):
        """operand (op operand)* for the left-associative operators ops."""
        n = operand()
        while self.peek() in [("op", o) for o in ops]:
            op = self.take()[1]
            n = (op, n, operand())
        return n

    def sum(self):
        return self.chain(self.expr, "+-")

    def expr(self):
        return self.chain(self.unary, "*/")

    def unary(self):
        if self.peek() in (("op", "-"), ("op", "+")):
            op = self.take()[1]
            n = self.unary()
            return ("neg", n) if op == "-" else n
        return self.power()

    def power(self):
        b = self.atom()
        if self.peek() == ("op", "**"):
            self.take()
            return ("**", b, self.unary())
        return b

    def atom(self):
        k, v = self.take()
        if k == "name":
            return ("name", v)
        if k == "num":
            return ("num", Fraction(v))
        if (k, v) == ("op", "("):
            n = self.expr()
            if self.take() != ("op", ")"):
                raise SyntaxError("missing )")
            return n
        raise SyntaxError("unexpected %r" % (v,))


def parse(s):
    return Parser(tokenize(preprocess(s))).parse()


def numeric(n):
    """A purely numeric subtree as a Fraction (exponents, prefix values)."""
    k = n[0]
    if k == "num":
        return n[1]
    if k == "neg":
        return -numeric(n[1])
    a, b = numeric(n[1]), numeric(n[2])
    if k == "*":
        return a * b
    if k == "/":
        return a / b
    if k == "+":
        return a + b
    if k == "-":
        return a - b
    if k == "**":
        assert b.denominator == 1
        return a ** b.numerator
    raise ValueError(n)


# ------------------------------------------------------------- definitions --
class Registry:
    def __init__(self):
        self.units = {}  # key -> canonical name (later wins)
        self.defs = {}  # canonical name -> dict
        self.prefixes = {"": Fraction(1)}  # key -> factor, insertion order kept
        self.cache = {}

    def read(self, path):
        skip = False
        for raw in open(path, encoding="utf-8"):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if skip:
                if line == "@end":
                    skip = False
                continue
            if line.startswith(("@defaults", "@context", "@system")):
                skip = True
                continue
            if line.startswith("@import"):
                self.read(os.path.join(os.path.dirname(path), line.split(None, 1)[1].strip()))
                continue
            if line.startswith("@alias"):
                parts = [p.strip() for p in line[len("@alias"):].split("=")]
                for a in parts[1:]:
                    self.units[a] = self.units[parts[0]]
                continue
            if line.startswith("@") or line.startswith("["):
                continue
            self.define(line)

    def define(self, line):
        parts = [p.strip() for p in line.split("=")]
        name, value, rest = parts[0], parts[1], parts[2:]
        if name.endswith("-"):
            f = numeric(parse(value))
            for k in [name] + rest:
                k = k[:-1] if k.endswith("-") else k
                if k and k != "_":
                    self.prefixes[k] = f
            return
        ref, *mods = [m.strip() for m in value.split(";")]
        d = {"name": name, "ref": ref, "offset": Fraction(0), "log": False}
        for m in mods:
            key, val = [x.strip() for x in m.split(":", 1)]
            if key == "offset":
                d["offset"] = numeric(parse(val))
            else:
                d["log"] = True
        self.defs[name] = d
        for k in [name] + rest:
            if k and k != "_":
                self.units[k] = name
        if d["offset"] != 0:
            dd = {"name": "delta_" + name, "ref": ref, "offset": Fraction(0), "log": False}
            self.defs[dd["name"]] = dd
            sym, aliases = (rest[0] if rest else ""), rest[1:]
            keys = [dd["name"]] + (["Δ" + sym] if sym and sym != "_" else [])
            keys += ["Δ" + a for a in aliases] + ["delta_" + a for a in aliases]
            for k in keys:
                self.units[k] = dd["name"]

    def split(self, word):
        """pint's name resolution: exact key, else first (prefix, unit, suffix)."""
        if word in self.units:
            return "", self.units[word]
        for suffix in ("", "s"):
            for p in self.prefixes:
                if word.startswith(p) and word.endswith(suffix):
                    rest = word[len(p):]
                    if suffix:
                        rest = rest[: -len(suffix)]
                        if len(rest) == 1:
                            continue
                    if rest in self.units:
                        return p, self.units[rest]
        raise KeyError(word)

    def root(self, name):
        """(Num, dims) of one unit in base units."""
        if name in self.cache:
            return self.cache[name]
        d = self.defs[name]
        ref = d["ref"]
        if d["log"]:
            res = (Num(), {})
        elif ref.startswith("["):
            dim = ref[1:-1].strip()
            res = (Num(), {dim: Fraction(1)} if dim else {})
        else:
            res = self.eval_def(parse(ref))
        if name == "pi":
            assert abs(res[0].value() - mpmath.pi) < mpmath.mpf("1e-49")
            res = (Num(1, 1), {})
        if name in TRUNCATED:
            res = (Num(m=res[0].value(), approx=True), res[1])
        self.cache[name] = res
        return res

    def eval_def(self, n):
        k = n[0]
        if k == "num":
            return Num(n[1]), {}
        if k == "name":
            p, u = self.split(n[1])
            v, dims = self.root(u)
            return v * Num(self.prefixes[p]), dims
        if k == "neg":
            v, dims = self.eval_def(n[1])
            return v * Num(-1), dims
        if k == "**":
            v, dims = self.eval_def(n[1])
            e = numeric(n[2])
            return v.pow(e), {a: b * e for a, b in dims.items()}
        a, da = self.eval_def(n[1])
        b, db = self.eval_def(n[2])
        if k == "/":
            b, db = b.inv(), {x: -y for x, y in db.items()}
        dims = dict(da)
        for x, y in db.items():
            dims[x] = dims.get(x, 0) + y
            if dims[x] == 0:
                del dims[x]
        return a * b, dims


# ------------------------------------------------------------- conversions --
class Refused(Exception):
    """A refusal: tool_result_error, as the reference reports every failure of
    its unit_convert function, unless code says otherwise."""

    def __init__(self, reason, code="tool_result_error"):
        self.reason, self.code = reason, code


def collect(reg, n, e, acc, src=None):
    """Adds each unit of tree n with exponent e to acc. src is None for a target
    unit (pint's parse_units: no numbers but 1); for a source expression
    (pint's parse_expression, the reference's from_unit) it collects the
    product of the numbers ("scale") and counts the names ("names")."""
    k = n[0]
    if k == "name":
        if src is not None:
            src["names"] += 1
        if n[1] == "dimensionless":
            return
        try:
            p, u = reg.split(n[1])
        except KeyError:
            raise Refused("unknown_unit")
        key = (p, u)
        acc[key] = acc.get(key, 0) + e
    elif k == "num":
        if n[1] != 1:
            if src is None:
                raise Refused("invalid_unit_expression")
            if n[1] == 0 and e < 0:
                raise Refused("invalid_unit_expression")
            src["scale"] = src["scale"] * Num(Fraction(n[1])).pow(e)
    elif k == "neg":
        if src is None:
            raise Refused("invalid_unit_expression")
        if Fraction(e).denominator != 1:
            # pint's magnitude is complex, which the reference's facts cannot
            # hold (float() raises TypeError): wrong_arguments.
            raise Refused("invalid_unit_expression", "wrong_arguments")
        src["scale"] = src["scale"] * Num(Fraction(-1)).pow(e)
        collect(reg, n[1], e, acc, src)
    elif k == "**":
        collect(reg, n[1], e * numeric(n[2]), acc, src)
    elif k in ("+", "-"):
        raise Refused("invalid_unit_expression")
    else:
        collect(reg, n[1], e, acc, src)
        collect(reg, n[2], -e if k == "/" else e, acc, src)


def unit_of(reg, s, source=False):
    try:
        tree = parse(s)
    except (SyntaxError, ZeroDivisionError):
        raise Refused("invalid_unit_expression")
    acc = {}
    src = {"scale": Num(), "names": 0} if source else None
    try:
        collect(reg, tree, Fraction(1), acc, src)
    except (ValueError, AssertionError, IndexError, TypeError, ZeroDivisionError):
        raise Refused("invalid_unit_expression")
    if source and src["names"] == 0:
        raise Refused("invalid_unit_expression")  # pint evaluates it to a plain number
    acc = {k: v for k, v in acc.items() if v != 0}
    total, dims, offset = Num(), {}, None
    for (p, u), e in acc.items():
        d = reg.defs[u]
        if d["log"]:
            raise Refused("unsupported_unit")
        if d["offset"] != 0:
            if p or e != 1 or len(acc) != 1:
                raise Refused("offset_unit_not_multiplicative")
            if source and not (src["scale"].rational() and src["scale"].c == 1):
                raise Refused("offset_unit_not_multiplicative")
            offset = d
        v, dd = reg.root(u)
        total = total * (v * Num(reg.prefixes[p])).pow(e)
        for x, y in dd.items():
            dims[x] = dims.get(x, 0) + y * e
            if dims[x] == 0:
                del dims[x]
    if source:
        total = total * src["scale"]
    return total, dims, offset


ORDER = ["length", "mass", "time", "current", "temperature", "substance", "luminosity", "printing_unit"]


def dim_string(dims):
    if not dims:
        return "dimensionless"
    names = sorted(dims, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))

    def term(n):
        e = abs(dims[n])
        t = "[%s]" % n
        if e != 1:
            t += " ** " + (str(e.numerator) if e.denominator == 1 else str(float(e)))
        return t

    pos = [term(n) for n in names if dims[n] > 0]
    neg = [term(n) for n in names if dims[n] < 0]
    return " / ".join([" * ".join(pos) or "1"] + neg)


def fmt_decimal(d):
    """Plain notation when the adjusted exponent is in [-7, 21), else d.ddde±XX."""
    if d == 0:
        return "0"
    sign, digits, exp = d.normalize(Context(prec=100000)).as_tuple()
    ds = "".join(map(str, digits))
    adj = exp + len(ds) - 1
    s = "-" if sign else ""
    if adj < -7 or adj >= 21:
        m = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
        return s + m + "e%s%02d" % ("-" if adj < 0 else "+", abs(adj))
    if exp >= 0:
        return s + ds + "0" * exp
    if adj >= 0:
        return s + ds[: adj + 1] + "." + ds[adj + 1:]
    return s + "0." + "0" * (-adj - 1) + ds


def exact_value(x):
    """(string, exact?) for a Fraction or an mpf."""
    ctx34 = Context(prec=34, rounding=ROUND_HALF_EVEN)
    if isinstance(x, Fraction):
        if terminates(x):
            big = Context(prec=100000)
            return fmt_decimal(big.divide(Decimal(x.numerator), Decimal(x.denominator))), True
        return fmt_decimal(ctx34.divide(Decimal(x.numerator), Decimal(x.denominator))), False
    return fmt_decimal(ctx34.create_decimal(mpmath.nstr(x, 80))), False


def convert(reg, value_text, frm, to):
    fv, fd, fo = unit_of(reg, frm, source=True)
    tv, td, to_ = unit_of(reg, to)
    if fd != td:
        raise Refused("dimensionality_mismatch")
    v = Fraction(value_text)
    if fo is None and to_ is None:
        r = fv / tv
        if v == 0:
            return Fraction(0), fd
        if r.rational():
            return v * r.c, fd
        return mpmath.mpf(v.numerator) / v.denominator * r.value(), fd
    base = v * fv.c + (fo["offset"] if fo else 0)
    base -= to_["offset"] if to_ else 0
    return base / tv.c, fd


def case(reg, value, frm, to):
    text = json.dumps(value)
    args = {"value": value, "from_unit": frm, "to_unit": to}
    try:
        x, dims = convert(reg, text, frm, to)
    except Refused as e:
        return {"name": "%s %s -> %s" % (text, frm, to), "args": args, "error_code": e.code, "reason": e.reason}
    cv = float(x)
    ev, exact = exact_value(x)
    # The reference prints the value it received with f"{value}": an integer
    # as its digits, a float in repr form (100.0, 1e-05, 1e+16).
    rendered = "%s %s = %s %s" % (value, frm, format(cv, ".10g"), to)
    facts = {"value": value, "from_unit": frm, "converted_value": cv, "to_unit": to,
             "rendered": rendered, "exact_value": ev, "dimension": dim_string(dims)}
    warnings = [] if exact else ["rounded"]
    return {"name": "%s %s -> %s" % (text, frm, to), "args": args, "facts": facts, "warnings": warnings}


CATEGORIES = {
    "length": ["m", "km", "cm", "mm", "µm", "um", "μm", "nm", "mile", "mi", "yard", "yd", "ft", "foot", "feet",
               "inch", "in", "inches", "nautical_mile", "nmi", "angstrom", "au", "ly", "light_year", "parsec",
               "furlong", "chain", "survey_foot", "thou", "league", "fathom", "hand", "pica", "point",
               "meters", "kilometers", "dam", "Mm"],
    "area": ["m**2", "km^2", "cm²", "ha", "hectare", "acre", "are", "sq_ft", "square_foot", "ft**2", "sq_mi",
             "square_mile", "barn", "square meter", "sq m", "in^2", "circular_mil", "mm**2", "yd²"],
    "volume": ["L", "l", "liter", "mL", "ml", "m³", "m**3", "cc", "gallon", "gal", "imperial_gallon", "quart",
               "pint", "cup", "fluid_ounce", "floz", "tablespoon", "tbsp", "teaspoon", "tsp", "barrel",
               "oil_barrel", "bushel", "cubic_foot", "ft**3", "cu_in", "cubic inch", "US_liquid_gallon",
               "UK_gallon", "cm^3", "dm**3", "hl"],
    "mass": ["kg", "g", "mg", "µg", "t", "tonne", "lb", "pound", "oz", "ounce", "stone", "grain", "carat",
             "ton", "short_ton", "long_ton", "troy_ounce", "slug", "dalton", "metric_ton", "lbs", "grams"],
    "time": ["s", "ms", "µs", "ns", "min", "h", "hr", "hour", "day", "d", "week", "fortnight", "year", "yr",
             "month", "century", "millennium", "gregorian_year", "common_year", "minutes", "seconds", "days"],
    "speed": ["m/s", "km/h", "kph", "mph", "mi/h", "knot", "kn", "kt", "ft/s", "fps", "c", "meters per second",
              "mps", "km/s", "cm/s", "m s^-1", "in/min", "mile/hour"],
    "acceleration": ["m/s**2", "m/s^2", "g_0", "gravity", "Gal", "ft/s²", "m s^-2", "cm/s**2", "km/h/s",
                     "mph/s", "in/s**2"],
    "force": ["N", "kN", "dyn", "kgf", "lbf", "pound_force", "ozf", "kip", "poundal", "kg*m/s**2", "tf", "mN",
              "g*cm/s^2", "force_kilogram"],
    "pressure": ["Pa", "kPa", "hPa", "MPa", "bar", "mbar", "atm", "psi", "mmHg", "torr", "inHg", "inH2O", "at",
                 "ksi", "N/m**2", "lbf/in**2", "cmHg", "GPa", "barye", "kgf/cm^2"],
    "energy": ["J", "kJ", "MJ", "cal", "kcal", "Wh", "kWh", "MWh", "eV", "keV", "erg", "Btu", "BTU", "therm",
               "ft_lb", "foot_pound", "lbf*ft", "N*m", "toe", "ton_TNT", "hartree", "W*s", "kW*h", "GJ",
               "international_calorie", "quad"],
    "power": ["W", "kW", "MW", "mW", "hp", "horsepower", "metric_horsepower", "Btu/h", "BTU/hour", "erg/s",
              "J/s", "ft*lbf/s", "refrigeration_ton", "VA", "GW", "kcal/h", "electrical_horsepower"],
    "temperature": ["degC", "degF", "kelvin", "K", "degR", "degRe", "celsius", "fahrenheit", "rankine",
                    "reaumur", "°C", "°F", "mK", "degree_Celsius", "degree_Fahrenheit", "°K"],
    "temperature_delta": ["delta_degC", "delta_degF", "K", "degR", "delta_celsius", "mK", "Δcelsius"],
    "angle": ["rad", "deg", "degree", "arcmin", "arcsec", "turn", "revolution", "grad", "gon", "mil", "mrad",
              "°", "arcminute", "degrees", "radians", "milliarcsecond", "cycle"],
    "solid_angle": ["sr", "square_degree", "rad**2", "deg**2"],
    "data": ["bit", "byte", "B", "kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "kbit", "Mbit", "Gbit",
             "Kibit", "octet", "bytes", "bits", "PB", "PiB"],
    "data_rate": ["bit/s", "bps", "baud", "kB/s", "Mbit/s", "MB/s", "Gbit/s", "MiB/s", "B/s", "kbps"],
    "frequency": ["Hz", "kHz", "MHz", "GHz", "rpm", "1/s", "1/min", "rps", "cps", "s^-1", "revolution/minute",
                  "THz", "1/h"],
    "viscosity": ["Pa*s", "poise", "P", "cP", "centipoise", "mPa*s", "reyn", "lbf*s/in**2", "Pa s", "dyn*s/cm**2"],
    "kinematic_viscosity": ["stokes", "St", "cSt", "m**2/s", "mm^2/s", "cm**2/s", "ft**2/s"],
    "radiation": ["Bq", "Ci", "kBq", "mCi", "Rd", "MBq", "GBq", "µCi", "1/s"],
    "absorbed_dose": ["Gy", "Sv", "mSv", "µSv", "rem", "mrem", "rads", "J/kg", "mGy", "cGy"],
    "exposure": ["roentgen", "C/kg", "mC/kg", "µC/kg"],
    "misc": ["percent", "%", "ppm", "permille", "dimensionless", "count", "1"],
}

VALUES = [1, 100, 2.5, 0.001, 12345.678, 37, -40, 0.1, 1e6, 3, 0, 1e-9, 42.195, 7, 1000, 98.6]

MUST = [
    (100, "km/h", "m/s"), (1, "mile", "km"), (100, "degF", "degC"), (0, "degC", "kelvin"),
    (5, "lb", "kg"), (1, "atm", "psi"), (1, "kWh", "J"), (212, "degF", "degC"), (-40, "degC", "degF"),
    (0, "K", "degC"), (300, "K", "degF"), (1, "gallon", "l"), (1, "imperial_gallon", "l"), (1, "acre", "m**2"),
    (1, "nautical_mile", "m"), (1, "mmHg", "Pa"), (1, "lbf*ft", "N*m"), (1, "psi", "kPa"), (1, "rad", "deg"),
    (180, "deg", "rad"), (1, "turn", "deg"), (1, "GiB", "GB"), (1, "planck_length", "m"), (1, "parsec", "ly"),
    (20, "degC", "degR"), (1, "furlongs", "light_years"), (100, "degRe", "degC"), (1, "delta_degC", "delta_degF"), (98.6, "°F", "°C"),
    # how the legacy line prints the value: integers of any size as digits, floats in repr form
    (100.0, "km/h", "m/s"), (12345678901234567, "mm", "m"), (10**25, "nm", "km"), (1e16, "m", "km"),
    (2.5e-05, "km", "mm"), (123456789012345.6, "m", "km"), (-0.0, "degC", "K"), (0.0001, "m", "mm"),
    # pint 0.25.3 meanings: Nm is number_meter (km/kg), not newton-metre; bpm is not a unit
    (1, "Nm", "km/kg"), (1, "N*m", "J"),
    # a source expression may carry numbers, as pint's parse_expression reads it
    (5, "1000 m", "km"), (1, "2*m", "m"), (1, "-m", "m"), (3, "2**3 m", "m"), (1, "0.5/s", "Hz"), (2, "2**0.5 m", "m"),
    (1, "1e3 m", "km"), (1, "m/4", "cm"),
]


def source_of(src):
    """Names the definition files read: the commit in their SOURCE note and their sha256."""
    import hashlib
    out = {}
    with open(os.path.join(src, "SOURCE"), encoding="utf-8") as f:
        m = re.search(r"\b[0-9a-f]{40}\b", f.read())
        out["commit"] = m.group(0) if m else ""
    for name in ("default_en.txt", "constants_en.txt"):
        with open(os.path.join(src, name), "rb") as f:
            out[name] = hashlib.sha256(f.read()).hexdigest()
    return out


def main():
    reg = Registry()
    reg.read(os.path.join(SRC, "default_en.txt"))
    rng = random.Random(20261130)
    cases, seen = [], set()

    def add(v, a, b):
        if (a, b, json.dumps(v)) in seen:
            return
        seen.add((a, b, json.dumps(v)))
        cases.append(case(reg, v, a, b))

    for v, a, b in MUST:
        add(v, a, b)
    k = 0
    per_category = {}
    for cat, names in CATEGORIES.items():
        pairs = [(a, b) for a in names for b in names if a != b]
        rng.shuffle(pairs)
        # every unit appears at least once on each side, plus a sample of the rest
        chosen = []
        for a in names:
            chosen.append(next(p for p in pairs if p[0] == a))
            chosen.append(next(p for p in pairs if p[1] == a))
        chosen += pairs[: max(0, 40 - len(chosen))]
        before = len(cases)
        for a, b in chosen:
            add(VALUES[k % len(VALUES)], a, b)
            k += 1
        per_category[cat] = len(cases) - before
    # Compound expressions: products, quotients and powers (integer and half)
    # of units of the same categories on both sides, in assorted spellings.
    simple = re.compile(r"^[^\s*/^()²³·]+$")
    pools = {c: [n for n in CATEGORIES[c] if simple.match(n) and n not in ("1", "dimensionless", "%")]
             for c in ("length", "area", "volume", "mass", "time", "force", "pressure", "energy", "power",
                       "angle", "data", "frequency", "temperature_delta", "viscosity", "kinematic_viscosity")}
    sup = {2: "²", 3: "³", -1: "⁻¹", -2: "⁻²"}

    def power(name, e):
        if e == 1:
            return name
        if e.denominator == 2:
            return name + rng.choice(["**%s" % float(e), "**(%d/2)" % e.numerator])
        forms = ["**%d" % e, "^%d" % e]
        if e in sup:
            forms.append(sup[e])
        return name + rng.choice(forms)

    made = 0
    while made < 300:
        terms = []
        for _ in range(rng.choice([1, 2, 2, 3])):
            cat = rng.choice(sorted(pools))
            e = Fraction(rng.choice([1, 1, 1, 2, 3, -1, -2, "1/2", "-1/2", "3/2"]))
            terms.append((rng.choice(pools[cat]), rng.choice(pools[cat]), e))
        frm, to = "", ""
        for i, (a, b, e) in enumerate(terms):
            if i == 0:
                frm += power(a, e)
                to += power(b, e)
                continue
            sep = rng.choice(["*", " ", "/", "·", " * ", " / "])
            fe = -e if sep.strip() == "/" else e
            frm += sep + power(a, fe if sep.strip() != "/" else e)
            to += ("/" + power(b, -fe)) if fe < 0 and rng.random() < 0.5 else ("*" + power(b, fe))
        if len(frm) > 64 or len(to) > 64 or frm == to:
            continue
        before = len(cases)
        add(VALUES[made % len(VALUES)], frm, to)
        if len(cases) > before:
            made += 1
    table = [c for c in cases if "facts" in c]
    errors = [c for c in cases if "facts" not in c]
    # cross-dimension and refused expressions, decided by the oracle too
    bad = [
        (1, "m", "s"), (1, "km/h", "m"), (1, "kg", "N"), (1, "J", "W"), (1, "degC", "m"), (1, "Pa", "J"),
        (1, "bit", "m"), (1, "Hz", "rpm**2"),
        (1, "degC/m", "K/m"), (1, "degC**2", "K**2"), (1, "degC*m", "K*m"), (1, "kdegC", "K"),
        (1, "degF/s", "K/s"), (1, "m/degC", "m/K"),
        (1, "meterz", "m"), (1, "m", "foo"), (1, "KB", "B"), (1, "Cal", "J"), (1, "US gallon", "l"),
        (1, "imperial gallon", "l"), (1, "kilogramm", "g"), (1, "xyz/s", "m/s"),
        (1, "m**", "m"), (1, "(m", "m"), (1, "m)", "m"), (1, "*m", "m"), (1, "m//s", "m/s"), (1, "m $", "m"),
        (1, "m", "1000 m"), (1, "m", "2*m"), (1, "m", "-m"), (1, "m**x", "m"), (1, "3", "m"), (1, "2 degC", "K"),
        (1, "(-2)**0.5 m", "m"), (1, "0**-1 m", "m"),
        (1, "dB", "dB"), (1, "dBm", "W"), (60, "bpm", "Hz"), (1, "Nm", "J"),
    ]
    for v, a, b in bad:
        errors.append(case(reg, v, a, b))
    for c in errors:
        assert "facts" not in c, c
    os.makedirs(OUT, exist_ok=True)
    oracle = {"generator": "tools/testdata/oracle/gen_units.py", "python": sys.version.split()[0], "mpmath": mpmath.__version__,
              "definitions": source_of(SRC)}
    with open(os.path.join(OUT, "oracle_table.json"), "w", encoding="utf-8") as f:
        json.dump({"about": "unit_convert conversions computed by tools/testdata/oracle/gen_units.py from pint's definition files with exact fractions", "oracle": oracle, "cases": table}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    with open(os.path.join(OUT, "oracle_errors.json"), "w", encoding="utf-8") as f:
        json.dump({"about": "unit_convert refusals decided by tools/testdata/oracle/gen_units.py", "oracle": oracle, "cases": errors}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    cats = {}
    for c in table:
        cats[c["facts"]["dimension"]] = cats.get(c["facts"]["dimension"], 0) + 1
    print("conversions:", len(table), "errors:", len(errors))
    print("per category:", ", ".join("%s %d" % kv for kv in per_category.items()), "| compound 300 | named", len(MUST))


if __name__ == "__main__":
    main()
