#!/usr/bin/env python3
"""PyYAML's verdict on small YAML texts, for the YAML differential test
(internal/structured/yaml_pyyaml_test.go).

The reference sidecar reads a YAML payload as
    tokens = list(yaml.scan(payload)); any alias, anchor or tag token ->
    yaml_alias_anchor_or_tag_rejected; then yaml.safe_load(payload); a
    yaml.YAMLError -> yaml_parse_error with str(exc.problem or exc) and
    exc.problem_mark's line + 1 and column + 1
(moe-sovereign server.py, structured_validate). This script applies exactly
that procedure with PyYAML 6.0.3, the version the reference pins, to:
  * every one-character insertion, from a set of characters PyYAML treats
    specially (tab, %, :, @, `, !, &, *, [, ], {, }, ',', ?, '-', '#', quotes),
    at every position of a few short documents;
  * seeded random documents with one random insertion each.
It writes internal/structured/testdata/yaml_pyyaml.json: one case a line,
{"src": ..., "code": null | "yaml_parse_error" | "yaml_alias_anchor_or_tag_rejected",
 "message": ..., "line": ..., "column": ...}.

Run from the repository root with pyenv's python3 (PyYAML 6.0.3):
    python3 internal/structured/testdata/gen_yaml_pyyaml.py
"""
import json
import os
import random

import yaml

assert yaml.__version__ == "6.0.3", "PyYAML " + yaml.__version__ + ": the reference pins 6.0.3"

HERE = os.path.dirname(os.path.abspath(__file__))


def verdict(src):
    try:
        tokens = list(yaml.scan(src))
        if any(t.__class__.__name__ in {"AliasToken", "AnchorToken", "TagToken"} for t in tokens):
            return {"code": "yaml_alias_anchor_or_tag_rejected"}
        yaml.safe_load(src)
        return {"code": None}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return {"code": "yaml_parse_error", "message": str(getattr(exc, "problem", None) or exc),
                "line": mark.line + 1 if mark else None, "column": mark.column + 1 if mark else None}


BASES = [
    "a: 1\nb: [x, y]\n",
    "- 1\n- \"x\"\n- {k: v}\n",
    "a:\n  - b\n  - 'c'\n",
    "true\n",
    "[1, 2]\n",
    "\"a b\"\n",
    "k: v # c\n",
    "a: |\n  x\n  y\nb: 2\n",
    "- - 1\n  - 2\n",
    "{a: 1, b: 2}\n",
    "{a:b, c: [d:e, f]}\n",
    "k: >\n  x y\n\n  z\n",
]
CHARS = ["\t", "%", ":", "@", "`", "!", "&", "*", "[", "]", "{", "}", ",", "?", "-", "#", "'", '"', " ", "\n"]

cases = []
seen = set()


def add(src):
    if src in seen:
        return
    seen.add(src)
    cases.append(dict(src=src, **verdict(src)))


for base in BASES:
    add(base)
    for pos in range(len(base) + 1):
        for ch in CHARS:
            add(base[:pos] + ch + base[pos:])

rng = random.Random(20261202)


def rand_value(depth=0):
    r = rng.random()
    if depth > 2 or r < 0.4:
        return rng.choice([0, 1, -7, 2.5, "x", "a b", "", True, None, "é"])
    if r < 0.7:
        return [rand_value(depth + 1) for _ in range(rng.randint(1, 3))]
    return {rng.choice(["a", "b", "c", "k"]) + str(i): rand_value(depth + 1) for i in range(rng.randint(1, 3))}


def to_yaml(v, indent=0):
    pad = " " * indent
    if isinstance(v, dict):
        return "".join(f"{pad}{k}:" + ("\n" + to_yaml(x, indent + 2) if isinstance(x, (dict, list)) else " " + json.dumps(x, ensure_ascii=False) + "\n") for k, x in v.items())
    if isinstance(v, list):
        return "".join(f"{pad}-" + ("\n" + to_yaml(x, indent + 2) if isinstance(x, (dict, list)) else " " + json.dumps(x, ensure_ascii=False) + "\n") for x in v)
    return pad + json.dumps(v, ensure_ascii=False) + "\n"


for _ in range(3000):
    v = rand_value()
    text = to_yaml(v) if rng.random() < 0.7 else json.dumps(v, ensure_ascii=False) + "\n"
    pos = rng.randint(0, len(text))
    add(text[:pos] + rng.choice(CHARS) + text[pos:])

with open(os.path.join(HERE, "yaml_pyyaml.json"), "w", encoding="utf-8") as f:
    f.write('{"generator": "internal/structured/testdata/gen_yaml_pyyaml.py", "pyyaml": "%s", "cases": [\n' % yaml.__version__)
    f.write(",\n".join(json.dumps(c, ensure_ascii=False, sort_keys=True) for c in cases))
    f.write("\n]}\n")
print(len(cases), "cases,", sum(c["code"] is None for c in cases), "valid")
