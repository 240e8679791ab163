"""Shared runner for the side-by-side vector generators (gen_reference_*.py):
loads the reference sidecar's server.py (../shared/reference/moe-sovereign,
Apache-2.0) and runs its own REST execution path, execute_tool (schema defaults
and validation, the tool function, _structured_facts, the facts' schema check),
on inputs, recording what it answers. Nothing of the reference is copied into
precisiond: it is imported from where it lies.

Modules the sidecar imports but the wire-compatible tools run here never use
(httpx, sympy, mcp, pm_connector) are stubbed. Runs under Debian's
/usr/bin/python3 with the packages the reference needs:

    apt-get install python3-pint python3-fastapi python3-jsonschema python3-yaml python3-defusedxml

Pint: Debian ships pint 0.19.2, not the 0.25.3 the reference pins; the registry
is built from pint 0.25.3's own definition files (internal/units/pintdata), so
names and factors are 0.25.3's while the arithmetic is 0.19.2's.

tools/*_reference_test.go replay the vectors through precisiond and require the
same answer or a difference listed in docs/compatibility.md.
"""
import asyncio
import json
import os
import sys
import tempfile
import types
import zoneinfo

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
REFERENCE = os.path.normpath(os.path.join(ROOT, "..", "shared", "reference", "moe-sovereign"))
PINTDATA = os.path.join(ROOT, "internal", "units", "pintdata")


def _stub(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m


class _FastMCP:  # only what server.py calls at import time
    def __init__(self, *a, **k):
        pass

    def tool(self, *a, **k):
        return lambda f: f

    def sse_app(self):
        async def app(scope, receive, send):
            pass
        return app


def load(generator, zoneinfo_dir=None, units=True):
    """Imports the reference's server.py and returns (server, oracle): the
    module and the provenance every vector file records. zoneinfo_dir, when
    given, is the extracted tzdata tree the reference's ZoneInfo reads (without
    the PyPI tzdata package it reads the search path); units says whether
    unit_convert will run (pint with the 0.25.3 definitions)."""
    oracle = {
        "generator": generator,
        "reference": "shared/reference/moe-sovereign/server.py execute_tool",
        "python": sys.version.split()[0],
    }
    if zoneinfo_dir is not None:
        zoneinfo.reset_tzpath(to=[os.path.abspath(zoneinfo_dir)])
        with open(os.path.join(zoneinfo_dir, "tzdata.zi"), encoding="utf-8") as f:
            oracle["tzdata"] = f.readline().split()[-1]

    for name in ("mcp", "mcp.server"):
        _stub(name)
    _stub("mcp.server.fastmcp", FastMCP=_FastMCP)
    for name in ("httpx", "sympy", "pm_connector"):
        _stub(name)

    if units:
        _pint(oracle)

    os.environ["MOE_GENERATED_DIR"] = tempfile.mkdtemp()
    sys.path.insert(0, REFERENCE)
    import server

    return server, oracle


def _pint(oracle):
    import pint

    registry = pint.UnitRegistry(os.path.join(PINTDATA, "default_en.txt"))
    # The reference builds UnitRegistry() on every call; one registry built from
    # the 0.25.3 files answers the same (a registry is not changed by conversions).
    pint.UnitRegistry = lambda *a, **k: registry
    oracle["pint_code"] = pint.__version__
    oracle["pint_definitions"] = "internal/units/pintdata (pint 0.25.3)"


def run(server, tool, a):
    """The reference's answer to args a: result and facts, or error and
    error_code. When the envelope hides why the tool failed
    (tool_result_error), the tool's own text is recorded as tool_text."""
    resp = asyncio.run(server.execute_tool(server.InvokeRequest(tool=tool, args=a)))
    out = {k: resp[k] for k in ("result", "error", "error_code") if k in resp}
    if "structured_result" in resp:
        out["facts"] = resp["structured_result"]["facts"]
    elif resp.get("error_code") == "tool_result_error":
        out["tool_text"] = getattr(server, tool)(**a)
    return {"args": a, "reference": out}


def golden_args(path, every=1, locales=("de", "en")):
    """Inputs of an oracle file, every every-th case. The reference knows only
    the given locales (precisiond adds more, a documented extension tested
    elsewhere), so others become en here."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    out = []
    for c in cases[::every]:
        a = dict(c["args"])
        if a.get("locale", "de") not in locales:
            a["locale"] = "en"
        out.append(a)
    return out


def write(tool, oracle, cases):
    """Writes tools/testdata/<tool>/reference/reference.json, one case a line."""
    path = os.path.join(ROOT, "tools", "testdata", tool, "reference", "reference.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"oracle": ' + json.dumps(oracle, sort_keys=True) + ',\n "cases": [\n')
        f.write(",\n".join(json.dumps(c, ensure_ascii=False, sort_keys=True) for c in cases))
        f.write("\n]}\n")
    print(f"{path}: {len(cases)}")
