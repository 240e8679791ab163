"""The one runner behind every side-by-side generator in this directory
(gen_*.py; README.md says how to run them).

It imports the reference sidecar's server.py (../shared/reference/moe-sovereign,
Apache-2.0; REFERENCE_SERVER names another copy) with stubs for the modules
that only its other tools use, sends every case through the reference's own
REST path, execute_tool (schema defaults and validation, the tool function, the
structured facts, the facts' schema check), and writes what it answered to

    tools/testdata/reference/<tool>/vectors.json
    {"generator", "versions": {...}, "cases": [{"id", "args", "reference", "oracle"?}]}

one case a line, keys sorted. "reference" is {"facts"} plus "result" when the
legacy text is not the canonical JSON of the facts, or {"error_code", "error"}
plus "tool_text", the tool's own answer, when the envelope hides it
(tool_result_error). "oracle" holds values a generator computed itself.
Nothing of the reference is copied into precisiond: it is imported from where
it lies. tools/reference_test.go replays the files.
"""
import asyncio
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import sys
import tempfile
import types
import zoneinfo

if os.environ.get("PYTHONHASHSEED") != "0":
    # No answer depends on set order (the reference sorts what it reports), but
    # a fixed seed keeps any tie reproducible.
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SERVER = os.environ.get("REFERENCE_SERVER") or os.path.join(
    ROOT, "..", "shared", "reference", "moe-sovereign", "server.py")
PINTDATA = os.path.join(ROOT, "internal", "units", "pintdata")


class _Anything:
    """Stands in for whatever a stubbed module is asked for; as a decorator it
    returns the decorated function."""

    def __call__(self, *a, **k):
        if len(a) == 1 and callable(a[0]) and not k:
            return a[0]
        return self

    def __getattr__(self, name):
        return self

    def __mro_entries__(self, bases):
        return (object,)


class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything()


class _FastMCP:
    def __init__(self, *a, **k):
        pass

    def tool(self, *a, **k):
        return lambda f: f

    def __getattr__(self, name):
        return _Anything()


def load(zoneinfo_dir=None, units=False):
    """Imports the reference and returns its module. zoneinfo_dir, when given,
    is the extracted tzdata tree its ZoneInfo reads (without the PyPI tzdata
    package it reads the search path); units builds pint's registry from the
    0.25.3 definitions precisiond is generated from (Debian ships pint 0.19.2,
    the reference pins 0.25.3: names and factors are 0.25.3's, the float
    arithmetic 0.19.2's)."""
    global _server, _extra
    _extra = {"reference_server_sha256": _sha256(SERVER), "pydantic": importlib.metadata.version("pydantic")}
    if zoneinfo_dir is not None:
        zoneinfo.reset_tzpath(to=[os.path.abspath(zoneinfo_dir)])
        with open(os.path.join(zoneinfo_dir, "tzdata.zi"), encoding="utf-8") as f:
            _extra["tzdata"] = f.readline().split()[-1]
    try:
        import defusedxml  # noqa: F401
    except ImportError:  # pyenv's python: only defusedxml from Debian's tree
        shim = tempfile.mkdtemp()
        os.symlink("/usr/lib/python3/dist-packages/defusedxml", os.path.join(shim, "defusedxml"))
        sys.path.insert(0, shim)
    for name in ("pm_connector", "httpx", "sympy", "uvicorn", "fastapi", "mcp", "mcp.server", "mcp.server.fastmcp"):
        sys.modules[name] = _Stub(name)
    sys.modules["mcp.server.fastmcp"].FastMCP = _FastMCP
    if units:
        import pint
        registry = pint.UnitRegistry(os.path.join(PINTDATA, "default_en.txt"))
        # The reference builds UnitRegistry() on every call; one registry built
        # from the 0.25.3 files answers the same (conversions do not change it).
        pint.UnitRegistry = lambda *a, **k: registry
        _extra.update(pint=pint.__version__, pint_definitions="internal/units/pintdata (pint 0.25.3)")
    scratch = tempfile.mkdtemp(prefix="refgen-")
    os.environ["MOE_GENERATED_DIR"] = scratch
    os.environ["CODE_WORKSPACE"] = scratch
    sys.dont_write_bytecode = True  # leave the reference's directory as it is
    spec = importlib.util.spec_from_file_location("reference_server", SERVER)
    _server = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(_server)
    return _server


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def versions():
    """The interpreter and the libraries that decide the reference's answers."""
    return {
        "python": sys.version.split()[0],
        "jsonschema": importlib.metadata.version("jsonschema"),
        "PyYAML": importlib.metadata.version("PyYAML"),
        "defusedxml": __import__("defusedxml").__version__,
        "expat": __import__("pyexpat").EXPAT_VERSION,
    }


def canonical(v):
    return json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def invoke(tool, args):
    """The reference's answer to POST /invoke {"tool", "args"}. The args go
    through JSON first, so that they are what the reference parses from the
    wire."""
    wire = json.loads(json.dumps(args))
    resp = asyncio.run(_server.execute_tool(_server.InvokeRequest(tool=tool, args=wire)))
    if "structured_result" in resp:
        out = {"facts": resp["structured_result"]["facts"]}
        if resp["result"] != canonical(out["facts"]):
            out["result"] = resp["result"]
        return out
    out = {"error_code": resp["error_code"], "error": resp["error"]}
    if resp["error_code"] == "tool_result_error":
        out["tool_text"] = getattr(_server, tool)(**wire)
    return out


class Vectors:
    """The cases of one tool, written by write(). A case without an id is
    numbered within its group."""

    def __init__(self, tool, generator):
        self.tool, self.generator, self.cases, self._ids, self._groups = tool, generator, [], set(), {}

    def add(self, args, id=None, group="case", oracle=None):
        if id is None:
            n = self._groups[group] = self._groups.get(group, 0) + 1
            id = f"{group}/{n:04d}"
        assert id not in self._ids, id
        self._ids.add(id)
        case = {"id": id, "args": args, "reference": invoke(self.tool, args)}
        if oracle is not None:
            case["oracle"] = oracle
        self.cases.append(case)
        return case

    def write(self):
        path = os.path.join(HERE, self.tool, "vectors.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        head = {"generator": self.generator, "versions": dict(versions(), **_extra)}
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(head, ensure_ascii=False, sort_keys=True)[:-1] + ', "cases": [\n')
            f.write(",\n".join(json.dumps(c, ensure_ascii=False, sort_keys=True) for c in self.cases))
            f.write("\n]}\n")
        kinds = {}
        for c in self.cases:
            k = c["reference"].get("error_code", "facts")
            kinds[k] = kinds.get(k, 0) + 1
        print(f"{os.path.relpath(path, ROOT)}: {len(self.cases)} cases {kinds}")
