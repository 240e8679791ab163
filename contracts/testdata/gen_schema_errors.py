#!/usr/bin/env python3
"""Oracle for the input_schema_invalid message: writes schema_errors.json.

The reference sidecar (moe-sovereign server.py, `_schema_error`) validates the
arguments with Python jsonschema's Draft202012Validator (no format checker),
sorts the errors by (tuple(str(part) for part in absolute_path), message) and
reports the first one as "<path>:<validator>", the path's parts joined with
"." or "value" for the root. This script does the same for invalid arguments
of every contract in contracts/defs/ (schema defaults applied at the top level
first, as the reference's _normalize_input does) and records the normalized
arguments with the expected text ("" when they are valid). The Go test
(contracts/reference_order_test.go) validates the recorded arguments and
compares. Run from the repository root:
    python3 contracts/testdata/gen_schema_errors.py
"""
import copy
import glob
import importlib.metadata
import json
import os
import platform
import random

from jsonschema import Draft202012Validator

rng = random.Random(20261201)


def schema_error(value, schema):
    errors = sorted(
        Draft202012Validator(schema).iter_errors(value),
        key=lambda e: (tuple(str(p) for p in e.absolute_path), e.message),
    )
    if not errors:
        return ""
    first = errors[0]
    path = ".".join(str(p) for p in first.absolute_path) or "value"
    return f"{path}:{first.validator or 'invalid'}"


def normalize(args, schema):
    out = dict(args)
    for name, prop in schema.get("properties", {}).items():
        if name not in out and isinstance(prop, dict) and "default" in prop:
            out[name] = copy.deepcopy(prop["default"])
    return out


WRONG = ["x", 7, -3, 2.5, True, None, [], {}, [1, "a"], {"k": 1}, "", 10**30]


def misspell(name):
    if len(name) < 3:
        return name + "x"
    i = rng.randrange(len(name) - 1)
    return name[:i] + name[i + 1] + name[i] + name[i + 2:]


BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def out_of_bounds(p):
    """Fractions and integers just outside, and fractions inside, the bounds."""
    if not isinstance(p, dict) or not any(k in p for k in BOUNDS + ("multipleOf",)):
        return []
    out = [-0.5, 0.5, -2.5]
    for k in BOUNDS:
        if k in p:
            b = p[k]
            out += [b - 0.5, b + 0.5, b - 1.5, b + 1.5, b - 1, b + 1, float(b)]
    if "multipleOf" in p:
        out += [p["multipleOf"] * 1.5, p["multipleOf"] * 2 + 0.25]
    return out


def variants(schema, example):
    props = schema.get("properties", {})
    required = schema.get("required", [])
    yield {}
    yield dict(example)
    for name in required:
        a = dict(example)
        a.pop(name, None)
        yield a
    a = dict(example)
    a["unexpected_property"] = 1
    yield a
    for name in props:
        a = dict(example)
        a[misspell(name)] = a.pop(name, 1)
        yield a
        for w in WRONG:
            a = dict(example)
            a[name] = w
            yield a
        p = props[name]
        if isinstance(p, dict) and "enum" in p:
            for v in p["enum"]:
                if isinstance(v, str):
                    a = dict(example)
                    a[name] = v.upper() if v.upper() != v else v.lower() + "_"
                    yield a
        if isinstance(p, dict) and p.get("type") == "string" and "maxLength" in p and p["maxLength"] <= 5000:
            a = dict(example)
            a[name] = "y" * (p["maxLength"] + 1)
            yield a
        # A number outside the bounds of an integer property fails `type` and
        # a bound together (Python reports both; the message order decides).
        for v in out_of_bounds(p):
            a = dict(example)
            a[name] = v
            yield a
        # A value failing `enum` or `const` next to another keyword.
        if isinstance(p, dict) and ("enum" in p or "const" in p):
            for v in (True, False, 0.5, -1.5, 128, "Z" * 40):
                a = dict(example)
                a[name] = v
                yield a
        if isinstance(p, dict) and p.get("type") == "array":
            a = dict(example)
            a[name] = [None, "z", 1.5]
            yield a
    # Several failures at once: the order between them decides the message.
    names = list(props)
    for _ in range(12):
        a = dict(example)
        for name in rng.sample(names, min(len(names), rng.randrange(1, 4))):
            a[name] = rng.choice(WRONG)
        if required and rng.random() < 0.5:
            a.pop(rng.choice(required), None)
        if rng.random() < 0.5:
            a[rng.choice(["extra", "Extra", "zzz", "_"])] = 0
        yield a


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cases = []
    for path in sorted(glob.glob(os.path.join(root, "defs", "*.json"))):
        with open(path, encoding="utf-8") as f:
            contract = json.load(f)
        schema = contract["inputSchema"]
        seen = set()
        for ex in contract["examples"]:
            for args in variants(schema, ex["args"]):
                norm = normalize(args, schema)
                key = json.dumps(norm, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                cases.append({"tool": contract["tool"], "args": norm, "error": schema_error(norm, schema)})
    out = {
        "generator": "contracts/testdata/gen_schema_errors.py",
        "python": platform.python_version(),
        "jsonschema": importlib.metadata.version("jsonschema"),
        "cases": cases,
    }
    with open(os.path.join(root, "testdata", "schema_errors.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0, sort_keys=True)
        f.write("\n")
    print(len(cases), "cases,", sum(1 for c in cases if c["error"]), "invalid")


main()
