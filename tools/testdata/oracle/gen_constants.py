#!/usr/bin/python3
"""Oracle for physical_constant: checks the shipped CODATA tables against
scipy.constants and writes golden vectors for every constant of both editions,
seeded random lookups and searches, and hand-picked edges.

Run it with Debian's Python and python3-scipy (1.10.1 on bookworm), from the
repository root:
    /usr/bin/python3 tools/testdata/oracle/gen_constants.py

What scipy vouches for:
- CODATA 2018: scipy 1.10.1 embeds the 2018 table itself. Every row of the
  shipped internal/codata/data/codata2018.txt except one must equal a row of
  scipy's txt2018, and the one extra row must be "characteristic impedance of
  vacuum" (scipy 1.10.1 computes that constant; its float must agree to 1e-9).
  Every 2018 constant of scipy's _physical_constants_2018 is in the vectors.
- CODATA 2022: scipy 1.10.1 has no 2022 table; its 2018-layout parser
  (parse_constants_2018toXXXX) reads the shipped codata2022.txt, and every
  expected fact is checked against what it reads.
For each constant the expected value and uncertainty strings are the published
field without spaces and "...", and float() of each must equal scipy's float;
the unit must equal scipy's unit; exact means the published "(exact)".

Writes tools/testdata/physical_constant/{oracle_codata2018,oracle_codata2022,
oracle_random,edges}.json.
"""

import hashlib
import os
import random
import sys

import scipy
import scipy.constants._codata as sc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import record, write_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DATA = os.path.join(ROOT, "internal", "codata", "data")
OUT = os.path.join(ROOT, "tools", "testdata", "physical_constant")
SCRIPT = "tools/testdata/oracle/gen_constants.py"
MAX_MATCHES = 20
EDITIONS = ("CODATA2018", "CODATA2022")
EXEC = "tool_execution_error"
# Names match without regard to ASCII letter case only: str.lower() would also
# fold the Kelvin sign U+212A to "k", which the tool does not.
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
SCHEMA = "input_schema_invalid"


def rows(path):
    """The shipped table: (line, facts) in table order, read by column
    position as NIST's header lays the table out (name 1-60, value 61-85,
    uncertainty 86-110, unit 111-)."""
    with open(path, "rb") as fh:
        raw = fh.read()
    text = raw.decode("ascii")
    assert text.endswith("\n") and not text.endswith("\n\n")
    out = []
    for line in text[:-1].split("\n"):
        name = line[:60].rstrip()
        vfield = line[60:85].strip()
        ufield = line[85:110].strip()
        exact = ufield == "(exact)"
        value = vfield.replace(" ", "").replace("...", "")
        unc = "0" if exact else ufield.replace(" ", "")
        out.append((line, {
            "name": name,
            "value": value,
            "uncertainty": unc,
            "exact": exact,
            "value_truncated": "..." in vfield,
            "unit": line[110:].strip(),
        }))
    return out, hashlib.sha256(raw).hexdigest()


def check_against(facts, scipy_entry, name):
    val, unit, unc = scipy_entry
    assert float(facts["value"]) == val, (name, facts["value"], val)
    assert float(facts["uncertainty"]) == unc, (name, facts["uncertainty"], unc)
    assert facts["unit"] == unit, (name, facts["unit"], unit)
    assert facts["exact"] == (unc == 0), name
    assert not facts["value_truncated"] or facts["exact"], name


def load():
    tables, hashes = {}, {}
    # 2018: scipy's own text and parse.
    r18, hashes["CODATA2018"] = rows(os.path.join(DATA, "codata2018.txt"))
    scipy_lines = set(sc.txt2018.split("\n"))
    extra = [f["name"] for line, f in r18 if line not in scipy_lines]
    assert extra == ["characteristic impedance of vacuum"], extra
    assert len(scipy_lines) == len(r18) - 1
    p18 = sc._physical_constants_2018
    assert set(p18) | set(extra) == {f["name"] for _, f in r18}
    for _, f in r18:
        if f["name"] in p18:
            check_against(f, p18[f["name"]], f["name"])
        else:
            val, unit, unc = sc.physical_constants[f["name"]]
            assert abs(float(f["value"]) / val - 1) < 1e-9 and unit == f["unit"], f
            # scipy 1.10.1 propagates 5.61e-8 linearly; NIST publishes 5.7e-8
            assert abs(float(f["uncertainty"]) / unc - 1) < 0.05, (f, unc)
    tables["CODATA2018"] = [f for _, f in r18]
    # 2022: scipy's parser on the shipped text.
    r22, hashes["CODATA2022"] = rows(os.path.join(DATA, "codata2022.txt"))
    with open(os.path.join(DATA, "codata2022.txt"), encoding="ascii") as fh:
        p22 = sc.parse_constants_2018toXXXX(fh.read().rstrip("\n"))
    assert set(p22) == {f["name"] for _, f in r22} and len(p22) == len(r22)
    for _, f in r22:
        check_against(f, p22[f["name"]], f["name"])
    tables["CODATA2022"] = [f for _, f in r22]
    for ed, t in tables.items():
        lower = [f["name"].translate(ASCII_LOWER) for f in t]
        assert len(set(lower)) == len(lower), ed
        assert all(f["name"].isascii() for f in t)
    return tables, hashes


def facts_of(f, edition):
    return dict(f, edition=edition)


def search(table, query, edition):
    hits = [f["name"] for f in table if query.translate(ASCII_LOWER) in f["name"].translate(ASCII_LOWER)]
    return {"query": query, "matches": hits[:MAX_MATCHES], "total": len(hits),
            "truncated": len(hits) > MAX_MATCHES, "edition": edition}


def random_case(rng, s):
    return "".join(c.upper() if rng.random() < 0.5 else c.translate(ASCII_LOWER) for c in s)


def main():
    tables, hashes = load()
    gen = record(SCRIPT, scipy)
    gen["tables_sha256"] = hashes
    for ed in EDITIONS:
        cases = [{"args": {"name": f["name"], "edition": ed}, "facts": facts_of(f, ed)} for f in tables[ed]]
        write_json(os.path.join(OUT, "oracle_%s.json" % ed.translate(ASCII_LOWER)), {"generator": gen, "cases": cases})

    rng = random.Random(31)
    cases = []
    all_names = {ed: {f["name"].translate(ASCII_LOWER) for f in tables[ed]} for ed in EDITIONS}
    for i in range(900):
        ed = rng.choice(EDITIONS)
        table = tables[ed]
        args = {} if ed == "CODATA2022" and rng.random() < 0.3 else {"edition": ed}
        kind = rng.random()
        f = rng.choice(table)
        if kind < 0.45:
            args["name"] = random_case(rng, f["name"])
            cases.append({"args": args, "facts": facts_of(f, ed)})
        elif kind < 0.85:
            n = f["name"]
            a = rng.randrange(len(n))
            b = min(len(n), a + rng.randint(1, 14))
            q = random_case(rng, n[a:b])
            args["query"] = q
            cases.append({"args": args, "facts": search(table, q, ed)})
        else:
            n = f["name"]
            a = rng.randrange(len(n))
            mutated = n[:a] + n[a + 1:] if rng.random() < 0.5 else n[:a] + rng.choice("xqz#") + n[a:]
            if mutated.translate(ASCII_LOWER) in all_names[ed] or mutated.translate(ASCII_LOWER) in all_names["CODATA2018"] | all_names["CODATA2022"] or not mutated:
                continue
            args["name"] = random_case(rng, mutated)
            cases.append({"args": args, "error_code": EXEC, "reason": "unknown_constant"})
    assert len(cases) >= 500, len(cases)
    write_json(os.path.join(OUT, "oracle_random.json"), {"generator": gen, "cases": cases})

    t18, t22 = tables["CODATA2018"], tables["CODATA2022"]
    by = {ed: {f["name"]: f for f in tables[ed]} for ed in EDITIONS}
    edges = []

    def ok(title, args, facts):
        edges.append({"name": title, "args": args, "facts": facts})

    def err(title, args, code, reason=None):
        c = {"name": title, "args": args, "error_code": code}
        if reason == "unknown_constant":
            ed = args.get("edition", "CODATA2022")
            assert args["name"].translate(ASCII_LOWER) not in {f["name"].translate(ASCII_LOWER) for f in tables[ed]}, title
        if reason:
            c["reason"] = reason
        edges.append(c)

    ok("default edition is 2022", {"name": "electron mass"}, facts_of(by["CODATA2022"]["electron mass"], "CODATA2022"))
    ok("2018 electron mass", {"name": "electron mass", "edition": "CODATA2018"}, facts_of(by["CODATA2018"]["electron mass"], "CODATA2018"))
    ok("upper case", {"name": "PLANCK CONSTANT"}, facts_of(by["CODATA2022"]["Planck constant"], "CODATA2022"))
    ok("truncated exact value", {"name": "von klitzing constant"}, facts_of(by["CODATA2022"]["von Klitzing constant"], "CODATA2022"))
    ok("exact, exponent after dots", {"name": "Wien frequency displacement law constant"},
       facts_of(by["CODATA2022"]["Wien frequency displacement law constant"], "CODATA2022"))
    ok("negative value", {"name": "electron g factor"}, facts_of(by["CODATA2022"]["electron g factor"], "CODATA2022"))
    ok("dimensionless", {"name": "fine-structure constant"}, facts_of(by["CODATA2022"]["fine-structure constant"], "CODATA2022"))
    ok("abbreviated published name", {"name": "vacuum mag. permeability", "edition": "CODATA2018"},
       facts_of(by["CODATA2018"]["vacuum mag. permeability"], "CODATA2018"))
    ok("row scipy 1.10.1 lacks", {"name": "characteristic impedance of vacuum", "edition": "CODATA2018"},
       facts_of(by["CODATA2018"]["characteristic impedance of vacuum"], "CODATA2018"))
    ok("new in 2022", {"name": "alpha particle rms charge radius"}, facts_of(by["CODATA2022"]["alpha particle rms charge radius"], "CODATA2022"))
    ok("renamed in 2022 (2018 name)", {"name": "Cu x unit", "edition": "CODATA2018"}, facts_of(by["CODATA2018"]["Cu x unit"], "CODATA2018"))
    ok("renamed in 2022 (2022 name)", {"name": "Copper x unit"}, facts_of(by["CODATA2022"]["Copper x unit"], "CODATA2022"))
    ok("first row", {"name": t22[0]["name"]}, facts_of(t22[0], "CODATA2022"))
    ok("last row", {"name": t22[-1]["name"]}, facts_of(t22[-1], "CODATA2022"))
    for q in ("Planck", "planck", "x unit", "rms charge radius", "magn", "mom.um", "-", " ", "e", "zzz",
              "electron mass", "Electron Mass", "^", "...", "(exact)", "\u212a"):
        ok("query %r" % q, {"query": q}, search(t22, q, "CODATA2022"))
    for q in ("x unit", "Planck", "mag."):
        ok("2018 query %r" % q, {"query": q, "edition": "CODATA2018"}, search(t18, q, "CODATA2018"))
    ok("query of 128 characters", {"query": "a" * 128}, search(t22, "a" * 128, "CODATA2022"))

    err("2022 lost Cu x unit", {"name": "Cu x unit"}, EXEC, "unknown_constant")
    err("2018 had no Copper x unit", {"name": "Copper x unit", "edition": "CODATA2018"}, EXEC, "unknown_constant")
    err("2018 had no rms radius", {"name": "alpha particle rms charge radius", "edition": "CODATA2018"}, EXEC, "unknown_constant")
    err("misspelt", {"name": "Plank constant"}, EXEC, "unknown_constant")
    err("trailing space", {"name": "electron mass "}, EXEC, "unknown_constant")
    err("Kelvin sign is not K", {"name": "Boltzmann constant in eV/\u212a"}, EXEC, "unknown_constant")
    err("scipy's alias is not a NIST name", {"name": "natural unit of mom.um"}, EXEC, "unknown_constant")
    err("a word", {"name": "planck"}, EXEC, "unknown_constant")
    err("unicode", {"name": "électron mass"}, EXEC, "unknown_constant")
    err("neither name nor query", {}, EXEC, "name_or_query_required")
    err("neither, edition only", {"edition": "CODATA2018"}, EXEC, "name_or_query_required")
    err("both name and query", {"name": "electron mass", "query": "electron"}, EXEC, "name_and_query_both_given")
    err("empty name", {"name": ""}, SCHEMA)
    err("empty query", {"query": ""}, SCHEMA)
    err("long name", {"name": "a" * 129}, SCHEMA)
    err("long query", {"query": "a" * 129}, SCHEMA)
    err("edition in lower case", {"name": "electron mass", "edition": "codata2022"}, SCHEMA)
    err("edition 2014", {"name": "electron mass", "edition": "CODATA2014"}, SCHEMA)
    err("name not a string", {"name": 42}, SCHEMA)
    err("unknown argument", {"name": "electron mass", "symbol": "m_e"}, SCHEMA)
    write_json(os.path.join(OUT, "edges.json"), {"generator": gen, "cases": edges})


if __name__ == "__main__":
    main()
