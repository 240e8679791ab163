"""The version record every oracle vector file carries: which script wrote it,
with which Python and which libraries. Usage from a generator in this folder:

    from versions import record
    json.dump({"generator": record("tools/testdata/oracle/gen_x.py", sympy), "cases": cases}, f)
"""
import platform


def record(script, *modules):
    """Returns {"script", "python", and the __version__ of each module given}."""
    out = {"script": script, "python": platform.python_version()}
    for m in modules:
        out[m.__name__] = m.__version__
    return out


def write_json(path, doc):
    """Writes doc to path as UTF-8 JSON, one item a line (indent=1), with a
    final newline, and says how many cases it holds."""
    import json
    import os
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(f"wrote {len(doc['cases'])} cases to {path}")
