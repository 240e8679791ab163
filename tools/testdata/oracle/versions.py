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
