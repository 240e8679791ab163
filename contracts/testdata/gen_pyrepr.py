#!/usr/bin/env python3
"""Oracle for the Python repr at the start of schema-error messages: writes pyrepr_errors.json.

The reference sidecar (moe-sovereign server.py, `_schema_error`) sorts Python
jsonschema's errors by (path parts, message) and reports the first one as
"<path>:<validator>". Most messages begin with repr() of the instance (or of
a const value), so the order of two errors at one path, and with it the
reported error, depends on Python's repr of floats (100.0, 1e+16,
1234567890123456.0) and of strings (str.isprintable, quoting).

For small schemas (the instance at property "v" of an object) and instances of
every float repr regime, big integers, unusual strings and nested containers,
this records the instance as JSON text, Python's repr of what json.loads makes
of it, every error in the reference's order (path, validator, message) and the
reference's "<path>:<validator>". Object keys are written in sorted order: Go's
generic maps do not keep document order, which Python's dict repr shows.
The Go test (contracts/pyrepr_test.go) reads the file; no Python at test time.
Run from the repository root:
    python3 contracts/testdata/gen_pyrepr.py
"""
import importlib.metadata
import json
import os
import platform
import unicodedata

from jsonschema import Draft202012Validator

# Numbers as JSON text, so that exponent spellings (1E5) reach both readers.
NUMBERS = [
    "100.0", "1.0", "0.0", "-0.0", "1e16", "1e+16", "1234567890123456.0", "123456789012345.6",
    "1234567.0", "1e-05", "0.0001", "0.00012", "1.5e300", "5e-324", "0.1", "1e22", "-2.5e-07",
    "1E5", "1.0e+2", "12e-1", "-1e-7", "2.5E+20", "9007199254740993.0", "1.7976931348623157e308",
    "0", "-0", "7", "12345678901234567890", "-98765432109876543210987654321", "9007199254740993",
]

NUMBER_SCHEMAS = [
    {"maximum": -1e308},
    {"exclusiveMinimum": 1e308},
    {"type": "string"},
    {"enum": ["a", 1.5]},
    {"enum": [1.5, 1e16, 1234567890123456.0]},
    {"const": 1.5},
    {"const": 100.0},
    {"const": 1e16},
    {"const": [1.0, 1234567.0]},
    {"maximum": -1e308, "exclusiveMinimum": 1e308},
]

STRINGS = [
    "\x7f", "\xa0", "\u2028", "\u2029", "\u00ad", "\U0001F600", "'", '"', "'\"", "\\", "\t\n\r",
    "\x00\x1f", "\u0378", "\U0001FAE8", "\u0CF3", "\ue000", "\ufeff", "\u200b", "\u3000", "\U000E0001",
    "\xe9", "\u65e5\u672c", "a'b", "\x80\x9f", "\u0300", "\U0010FFFF", " ", "\u2000x",
]

STRING_SCHEMAS = [
    {"type": "integer"},
    {"maxLength": 0},
    {"pattern": "^z"},
    {"enum": ["x"]},
    {"const": "\\"},
    {"const": "'"},
    {"const": "\xa0\U0001FAE8"},
    {"pattern": "^z", "maxLength": 0, "minLength": 5},
]

NESTED = [
    '[1.0, {"a": "\\u00a0", "b": 2.50}, [1e100, -0.0]]',
    '{"a": 100.0, "b": [1234567890123456.0, "\\u2028"], "c": {"d": null, "e": true}}',
    '[[[1e-05]], false, "\'", 12345678901234567890]',
    '{"k\'": "\\"", "z": [], "\\u00ad": 1E5}',
    '[]',
    '{}',
]

NESTED_SCHEMAS = [
    {"type": "string"},
    {"maxItems": 0, "maxProperties": 0},
    {"const": [1.0]},
    {"const": {"a": 0.5}},
    {"not": {}},
    # Several errors at one path, ordered by the reprs of the property names.
    {"required": ["z", "\U0001FAE8", "\xa0", "\xe9", "'", "a\"b", "\u00ad"], "maxProperties": 0, "minItems": 9},
]


def flatten(errors):
    """The errors, in the reference's order, as records."""
    out = []
    for e in errors:
        out.append({
            "path": [str(p) for p in e.absolute_path],
            "validator": e.validator or "invalid",
            "message": e.message,
        })
    return out


def case(schema_v, instance_json):
    schema = {"type": "object", "properties": {"v": schema_v}}
    instance = json.loads(instance_json)
    args = {"v": instance}
    errors = sorted(
        Draft202012Validator(schema).iter_errors(args),
        key=lambda e: (tuple(str(p) for p in e.absolute_path), e.message),
    )
    first = ""
    if errors:
        path = ".".join(str(p) for p in errors[0].absolute_path) or "value"
        first = f"{path}:{errors[0].validator or 'invalid'}"
    return {
        "schema": schema,
        "instance": instance_json,
        "repr": repr(instance),
        "errors": flatten(errors),
        "error": first,
    }


def main():
    for s in NUMBER_SCHEMAS + STRING_SCHEMAS + NESTED_SCHEMAS:
        Draft202012Validator.check_schema(s)
    cases = []
    for n in NUMBERS:
        for s in NUMBER_SCHEMAS:
            cases.append(case(s, n))
    for text in STRINGS:
        for s in STRING_SCHEMAS:
            cases.append(case(s, json.dumps(text)))
    for text in NESTED:
        for s in NESTED_SCHEMAS:
            cases.append(case(s, text))
    out = {
        "generator": "contracts/testdata/gen_pyrepr.py",
        "python": platform.python_version(),
        "jsonschema": importlib.metadata.version("jsonschema"),
        "unicodedata": unicodedata.unidata_version,
        "cases": cases,
    }
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "testdata", "pyrepr_errors.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=True, indent=0, sort_keys=True)
        f.write("\n")
    print(len(cases), "cases,", sum(1 for c in cases if c["error"]), "invalid")


main()
