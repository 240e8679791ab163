"""Oracle vectors of version_compare: tools/testdata/version_compare/oracle_{semver,pep440,debian}.json.

Run with Debian's Python (/usr/bin/python3, python3-packaging 23.0) on a
machine with dpkg and node:

    (cd tools/testdata/oracle/semver && npm ci)
    /usr/bin/python3 tools/testdata/oracle/gen_version.py

The oracles are the reference implementations themselves:
- semver: npm semver (version pinned by semver/package-lock.json), through
  semver/gen_semver.mjs: valid(), compare(), new Range(), Range.test();
- pep440: packaging.version.Version and packaging.specifiers.SpecifierSet
  (contains with its default prerelease rules);
- debian: `dpkg --compare-versions`; a version is valid when dpkg neither
  fails (exit 2, "error") nor warns ("warning") on it.

Decisions of the tool (docs/data-versions.md) that the generator applies on
top of the oracle, each marked where it is made: the empty string is not a
version (dpkg reads it as "no version"); a Debian constraint is one relation
and a version; a PEP 440 version whose str() reads back as another version is
refused; an === specifier whose string is not a version is refused (packaging
raises while deciding the prerelease default). Sort is stable, max is the
first of equal maxima (Python's max()).
"""
import functools
import json
import os
import random
import subprocess
import sys

import packaging
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

sys.path.insert(0, os.path.dirname(__file__))
from versions import record, write_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "version_compare")
SEED = int(os.environ.get("VERSION_ORACLE_SEED", "20261202"))  # sweeps: another seed,
N_RANDOM = int(os.environ.get("VERSION_ORACLE_RANDOM", "700"))   # more cases, and
OUT = os.environ.get("VERSION_ORACLE_OUT", OUT)                  # a scratch folder
rnd = random.Random(SEED)


def refused(reason):
    return {"error_code": "tool_execution_error", "reason": reason}


# ---------------------------------------------------------------- semver

def run_semver(cases):
    out = subprocess.run(["node", os.path.join(HERE, "semver", "gen_semver.mjs")],
                         input=json.dumps([{"args": c["args"]} for c in cases]),
                         capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)
    for c, r in zip(cases, doc["results"]):
        if "facts" in r:
            c["facts"] = r["facts"]
        else:
            c.update(refused(r["reason"]))
    return {"node": doc["node"], "semver": doc["semver"]}


SEMVER_EDGE_VERSIONS = [
    "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
    "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "v1.2.3", "=1.2.3", " 1.2.3 ", "\t1.2.3\n",
    "\u00a01.2.3\u3000", "1.2.3+build.5", "1.2.3-rc.1+b", "01.2.3", "1.2", "1.2.3-01",
    "1.2.3-0a", "1.2.3-", "1.2.3+", "1.2.3.4", "9007199254740991.0.0", "9007199254740992.0.0",
    "1.2.3-9007199254740991", "1.2.3-9007199254740993", "1.2.3-x-y-z.--", "", "V1.2.3",
    "1.2.3\u0000", "1.2.3 4", "\ufeff1.2.3",
]
SEMVER_EDGE_RANGES = [
    "^0.2.3", "^0.0.3", "^0.x", "^0", "^1.2.3-beta.2", "^0.0", "^1.x", "~1.2.3", "~1.2", "~1",
    "~0.2.3-beta", "~>1.2", "1.2.3 - 2.3.4", "1.2 - 2.3.4", "1.2.3 - 2.3", "1.2.3 - 2",
    "1.2.3-rc.1 - 2.0.0-rc.2", "* - 2", "1.x", "1.2.x", "1.*", "*", "x", "", ">=1.2.3 <2.0.0",
    ">1.2", "<=1.2", ">1", "<1.x", ">=1.2.3 || <0.1.0", "1.2.7 || >=1.2.9 <2.0.0", ">= 1.2.3",
    "> 1.2.3 < 2", "^ 1.2.3", "~ 1.2.3", "=1.2.3", "v1.2.3", "1.2.3+build", ">*", "<*", ">=*",
    "1.2.3 || ", "|| 1.2.3", "||", "garbage", "1.2.3.4", ">=1.2.3 garbage", "^1.2.3 <1.0.0",
    "<0.0.0-0", "<0.0.0", "1.*.3", ">=01.2.3", "~9007199254740991", "^9007199254740991.0.0",
    ">=9007199254740991.0.0", "1.2.3 -2.3.4", "1.2.3\t-\t2.3.4", "^1.2.3\u00a0||\u00a0^2",
    ">=1.0.0-alpha <1.0.0", ">=1.0.0-0", ">=0.0.0", "~1.2.3-beta.2 || ^3.0.0-rc.1",
    # a comparator that matches nothing does not hide an invalid one after it
    "<* 1.2.3 - 2.3", "< 0 ^1.2.3+", "<0.0.0-0 garbage || 1.x", ">* || 1.2.3",
    # runs of identifier characters beyond npm's regex bounds (250, 256)
    ">=1.2.3-" + "a" * 251, ">=1.2.3-" + "a" * 250, "1.2.3-" + "1" * 257 + " - 2.0.0",
    "^1.2.3+" + "b" * 260, "~1.2." + "9" * 300, ">= " + "1" * 257 + ".0.0",
    "1.2.3-a." + "0" * 260 + " || 1.x",
]


def semver_version():
    r = rnd.random()
    main = ".".join(str(rnd.choice([0, 0, 1, 1, 2, 3, 10, 11])) for _ in range(3))
    if r < 0.1:
        return rnd.choice(SEMVER_EDGE_VERSIONS)
    if r < 0.5:
        ids = [rnd.choice(["alpha", "beta", "rc", "0", "1", "2", "11", "x-1", "0a", "a0", "-"])
               for _ in range(rnd.randint(1, 3))]
        main += "-" + ".".join(ids)
    if rnd.random() < 0.15:
        main += "+" + rnd.choice(["b1", "exp.sha.5114f85", "001"])
    if rnd.random() < 0.1:
        main = rnd.choice(["v", "=", " ", "V"]) + main
    return main


def semver_range_atom():
    r = rnd.random()
    part = lambda: str(rnd.choice([0, 0, 1, 2, 3]))  # noqa: E731
    xs = lambda: rnd.choice([part(), part(), "x", "*", "X"])  # noqa: E731
    if r < 0.2:
        return rnd.choice(["^", "~", ""]) + ".".join([part(), xs(), xs()][:rnd.randint(1, 3)])
    if r < 0.4:
        return rnd.choice([">", ">=", "<", "<=", "=", ""]) + rnd.choice(["", " "]) + \
            ".".join([part(), part(), xs()][:rnd.randint(1, 3)])
    if r < 0.55:
        return semver_version().strip() + " - " + semver_version().strip()
    if r < 0.75:
        return rnd.choice(["^", "~", ">=", "<", ""]) + semver_version().strip()
    return rnd.choice(SEMVER_EDGE_RANGES)


def semver_range():
    alts = []
    for _ in range(rnd.randint(1, 3)):
        alts.append(" ".join(semver_range_atom() for _ in range(rnd.randint(1, 2))))
    return " || ".join(alts)


# ---------------------------------------------------------------- pep440

def pep_parse(v):
    """packaging's Version, with the tool's round-trip rule."""
    try:
        p = Version(v)
    except InvalidVersion:
        return None
    try:
        back = Version(str(p))
    except InvalidVersion:
        return None  # decision: no readable normal form
    if back != p or str(back) != str(p):
        return None  # decision: the normal form is another version
    return p


def pep_spec(c):
    try:
        s = SpecifierSet(c)
    except InvalidSpecifier:
        return None
    for sp in s:
        if sp.operator == "===":
            try:
                Version(sp.version)
            except InvalidVersion:
                return None  # decision: packaging raises on it in contains()
    return s


def pep_answer(a):
    op = a["operation"]
    if op == "compare":
        pa, pb = pep_parse(a["a"]), pep_parse(a["b"])
        if pa is None or pb is None:
            return refused("invalid_version")
        return {"facts": {"result": (pa > pb) - (pa < pb), "a_normalized": str(pa), "b_normalized": str(pb)}}
    if op in ("sort", "max"):
        ps = [pep_parse(v) for v in a["versions"]]
        if any(p is None for p in ps):
            return refused("invalid_version")
        order = sorted(range(len(ps)), key=lambda i: ps[i])
        if op == "sort":
            return {"facts": {"sorted": [a["versions"][i] for i in order]}}
        return {"facts": {"max": a["versions"][max(range(len(ps)), key=lambda i: ps[i])]}}
    p = pep_parse(a["version"])
    if p is None:
        return refused("invalid_version")
    s = pep_spec(a["constraint"])
    if s is None:
        return refused("invalid_constraint")
    return {"facts": {"satisfied": s.contains(a["version"])}}


PEP_EDGE_VERSIONS = [
    "1.0", "1.0.0", "1!1.0", "0!1.0", "1.0-RC1", "1.0rc1", "v1.0", "V1.0", "1.0.post1", "1.0-1",
    "1.0.dev0", "1.0a1.dev1", "1.0.post1.dev1", "1.0+local.1", "1.0+LOCAL-01", "1.0+abc.5",
    "1.0+5", "1.0+abc", "1.0alpha", "1.0-beta.2", "1.0c1", "1.0pre1", "1.0preview1", "1.0rev1",
    "1.0r", "1.0.post", "1.0-post-1", "1.0_dev_3", " 1.0 ", "\x1c1.0\u2003", "01.02.003",
    "1.0.0.0.0", "123456789012345678901234567890.1", "1.0+İ", "1.0+ı", "1.0+K", "1.0.poſt1",
    "1.0prevıew1", "1.0prevİew1", "1.0+", "1.0.", "a1.0", "1.0-", "1.0 .1", "", "1.0_", "1!",
    "1.0a", "1.0b2.post345.dev456", "1.1.dev1", "1.0+ubuntu-1", "1.0.*", "1.0\n",
]
PEP_EDGE_SPECS = [
    "~=1.4.5", "~=1.4", "~=2.2.post3", "~=1.4.5a4", "~=1.0.c1", "~=1", "===1.0", "===1.0.0",
    "===foobar", "!=1.*", "==1.*", "==1.0.*", "==1.0", "==1.0+local", "!=1.0", "<1.0", ">1.0",
    "<=1.0", ">=1.0", "<1.0rc1", ">1.0.post1", ">=1.0a1", ">=1.0,<2.0", ">=1.0, !=1.5.*, <2",
    "", " , ", "==1.0a1", ">1.0a1", "<2.0", ">=1.0.dev0", "== 1.0", ">= 1.0 ", ">=1.0;", "=>1.0",
    "==1.0.*+local", "~=1.0+local", "<1.0+local", ">=v1.0", "==1!1.0.*", "1.0", "==1.0.post1.*",
    ">=1.0,", "~=1.0.preview1", "~=1.4.post1", "==1.0a1.*", "!=1.0.0.*",
]


def pep_version():
    r = rnd.random()
    if r < 0.12:
        return rnd.choice(PEP_EDGE_VERSIONS)
    v = ".".join(str(rnd.choice([0, 0, 1, 1, 2, 3, 10])) for _ in range(rnd.randint(1, 4)))
    if rnd.random() < 0.1:
        v = rnd.choice(["1!", "2!", "0!"]) + v
    if rnd.random() < 0.35:
        v += rnd.choice(["a", "b", "rc", "c", "alpha", "-beta", ".pre", "RC"]) + rnd.choice(["", "0", "1", "2"])
    if rnd.random() < 0.25:
        v += rnd.choice([".post", "-", ".rev", "post", "r"]) + rnd.choice(["1", "2", "0"])
    if rnd.random() < 0.25:
        v += rnd.choice([".dev", "dev", "-dev"]) + rnd.choice(["", "0", "1"])
    if rnd.random() < 0.12:
        v += "+" + rnd.choice(["local", "1", "abc.2", "x-y_z", "7.a"])
    if rnd.random() < 0.05:
        v = rnd.choice(["v", " ", "x"]) + v
    return v


def pep_spec_gen():
    specs = []
    for _ in range(rnd.randint(1, 3)):
        if rnd.random() < 0.15:
            specs.append(rnd.choice(PEP_EDGE_SPECS))
            continue
        op = rnd.choice(["==", "!=", "<", ">", "<=", ">=", "~=", "===", "==", "!="])
        v = pep_version().strip()
        if op in ("==", "!=") and rnd.random() < 0.3:
            v = ".".join(v.split(".")[:2]).split("+")[0] + ".*"
        if op == "===" and rnd.random() < 0.5:
            v = str(pep_parse(v) or v)
        specs.append(op + rnd.choice(["", " "]) + v)
    return ", ".join(specs)


# ---------------------------------------------------------------- debian

@functools.lru_cache(maxsize=None)
def dpkg(a, op, b):
    # "--": a version may start with "-", which dpkg would read as an option.
    p = subprocess.run(["dpkg", "--compare-versions", "--", a, op, b], capture_output=True, text=True)
    return p.returncode, p.stderr


@functools.lru_cache(maxsize=None)
def deb_valid(v):
    if v == "" or "\0" in v:
        return False  # decision: dpkg reads "" as no version; argv cannot hold NUL
    rc, err = dpkg(v, "eq", v)
    return rc in (0, 1) and err == ""


def deb_cmp(a, b):
    if dpkg(a, "lt", b)[0] == 0:
        return -1
    return 0 if dpkg(a, "eq", b)[0] == 0 else 1


RELATIONS = {"<<": "lt", "<=": "le", "=": "eq", ">=": "ge", ">>": "gt"}


def deb_relation(c):
    """The tool's grammar: blanks, a relation, blanks, a dpkg-valid version."""
    s = c.strip(" \t")
    for op in ("<<", "<=", ">=", ">>", "="):
        if s.startswith(op):
            v = s[len(op):]
            if v.strip(" \t") == "" or not deb_valid(v):
                return None
            return op, v
    return None


def deb_answer(a):
    op = a["operation"]
    if op == "compare":
        if not (deb_valid(a["a"]) and deb_valid(a["b"])):
            return refused("invalid_version")
        return {"facts": {"result": deb_cmp(a["a"], a["b"]), "a_normalized": a["a"], "b_normalized": a["b"]}}
    if op in ("sort", "max"):
        vs = a["versions"]
        if not all(deb_valid(v) for v in vs):
            return refused("invalid_version")
        key = functools.cmp_to_key(deb_cmp)
        if op == "sort":
            return {"facts": {"sorted": sorted(vs, key=key)}}
        return {"facts": {"max": max(vs, key=key)}}
    if not deb_valid(a["version"]):
        return refused("invalid_version")
    rel = deb_relation(a["constraint"])
    if rel is None:
        return refused("invalid_constraint")
    return {"facts": {"satisfied": dpkg(a["version"], RELATIONS[rel[0]], rel[1])[0] == 0}}


DEB_EDGE_VERSIONS = [
    "1.0~rc1", "1.0", "1.0~~", "1.0~", "1.0+b1", "1.0a", "1.0.", "1:1.0", "0:1.0", "2:0.1",
    "1.0-1", "1.0-1~bpo1", "1.0-1+deb12u1", "1.0-0", "1.0-", "-1", "1.0-a-b", "a1.0", "1.0_1",
    "1.0 ", " 1.0", "1 0", ":1.0", "a:1.0", "-1:1.0", "-0:1.0", "+1:1.0", "9999999999:1.0",
    "2147483647:1.0", "2147483648:1.0", "1:", "1:2:3", "1.0-1:2", "1.0!", "1.0é", "\n1:1.0",
    "1.0\n", "\t1.0", "", "00:1.0", "1.01", "1.001", "1.00a", "1.0-1.1", "1.2.3-4ubuntu0.1",
    "10", "9", "1~", "1.0-~", "1.0-+", "1.0-.", "0", "000",
]


def deb_version():
    if rnd.random() < 0.15:
        return rnd.choice(DEB_EDGE_VERSIONS)
    v = str(rnd.choice([0, 1, 1, 2, 10])) + "".join(
        rnd.choice([".", ".", "~", "+", "a", "b", "z", "0", "1", "9", "01", "~rc"]) + rnd.choice(["", "0", "1", "2"])
        for _ in range(rnd.randint(0, 3)))
    if rnd.random() < 0.2:
        v = rnd.choice(["1:", "2:", "0:"]) + v
    if rnd.random() < 0.35:
        v += "-" + rnd.choice(["1", "0", "2", "1~bpo1", "1+b2", "1ubuntu1", "a", "1.1"])
    return v


def deb_constraint():
    if rnd.random() < 0.15:
        return rnd.choice([">= 1:2.3-1", "<< 1.0", "<1.0", "> 1.0", "=1.0", "==1.0", ">=", "1.0",
                           ">> 1.0~", "<= 1.0 x", " >=\t1.0 ", "!= 1.0", "=< 1.0", ">= a1.0"])
    return rnd.choice(["<<", "<=", "=", ">=", ">>", "<", ">"]) + rnd.choice(["", " "]) + deb_version().strip()


# ---------------------------------------------------------------- cases

def random_args(scheme, gen_v, gen_c):
    op = rnd.choice(["compare", "compare", "sort", "max", "satisfies", "satisfies", "satisfies"])
    a = {"scheme": scheme, "operation": op}
    if op == "compare":
        a["a"], a["b"] = gen_v(), gen_v()
    elif op in ("sort", "max"):
        a["versions"] = [gen_v() for _ in range(rnd.randint(1, 7))]
    else:
        a["version"], a["constraint"] = gen_v(), gen_c()
    return a


def edge_args(scheme, versions, constraints, chain=None):
    out = []
    for v in versions:
        out.append({"scheme": scheme, "operation": "compare", "a": v, "b": versions[0]})
    if chain:
        for x, y in zip(chain, chain[1:]):
            out.append({"scheme": scheme, "operation": "compare", "a": x, "b": y})
        shuffled = chain[:]
        random.Random(1).shuffle(shuffled)
        out.append({"scheme": scheme, "operation": "sort", "versions": shuffled})
        out.append({"scheme": scheme, "operation": "max", "versions": shuffled})
    probes = [v for v in versions if v.strip()][:24]
    for c in constraints:
        for v in rnd.sample(probes, 3):
            out.append({"scheme": scheme, "operation": "satisfies", "version": v, "constraint": c})
    return out


def named(args_list, tag):
    return [{"name": f"{tag} {i:03d} {args['operation']}", "args": args} for i, args in enumerate(args_list)]


def build(scheme, edges, gen_v, gen_c, n_random, answer):
    cases = named(edges, f"{scheme} edge") + named(
        [random_args(scheme, gen_v, gen_c) for _ in range(n_random)], f"{scheme} random")
    if answer:
        for c in cases:
            c.update(answer(c["args"]))
    return cases


def write(scheme, cases, versions, n_edges):
    doc = {"generator": versions, "seed": SEED, "edges": n_edges, "random": len(cases) - n_edges, "cases": cases}
    write_json(os.path.join(OUT, f"oracle_{scheme}.json"), doc)


def main():
    script = "tools/testdata/oracle/gen_version.py"
    chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
             "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"]
    edges = edge_args("semver", SEMVER_EDGE_VERSIONS, SEMVER_EDGE_RANGES, chain)
    semver_cases = build("semver", edges, semver_version, semver_range, N_RANDOM, None)
    rec = record(script)
    rec.update(run_semver(semver_cases))
    write("semver", semver_cases, rec, len(edges))

    pep_chain = ["1.0.dev0", "1.0a1.dev1", "1.0a1", "1.0a2", "1.0b1", "1.0rc1", "1.0", "1.0+abc",
                 "1.0+abc.5", "1.0+5", "1.0.post1.dev1", "1.0.post1", "1.1.dev1", "1!0.1"]
    edges = edge_args("pep440", PEP_EDGE_VERSIONS, PEP_EDGE_SPECS, pep_chain)
    cases = build("pep440", edges, pep_version, pep_spec_gen, N_RANDOM, pep_answer)
    write("pep440", cases, record(script, packaging), len(edges))

    deb_chain = ["1.0~~", "1.0~rc1", "1.0~", "1.0", "1.0-1", "1.0a", "1.0+b1", "1.0.", "1.01", "1:0.1"]
    edges = edge_args("debian", DEB_EDGE_VERSIONS, [
        ">= 1:2.3-1", "<< 1.0", "<1.0", "> 1.0", "=1.0", ">=1.0~rc1", "<= 1.0-1", ">> 0:1.0",
        "==1.0", "1.0", ">=", ">= a1.0", " = 1.0 ", "<<1.0 1"], deb_chain)
    cases = build("debian", edges, deb_version, deb_constraint, N_RANDOM, deb_answer)
    rec = record(script)
    rec["dpkg"] = subprocess.run(["dpkg", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    write("debian", cases, rec, len(edges))


if __name__ == "__main__":
    main()
