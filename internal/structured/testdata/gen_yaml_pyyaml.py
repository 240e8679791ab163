#!/usr/bin/env python3
"""PyYAML's verdict on small YAML texts, for the YAML differential test
(internal/structured/yaml_pyyaml_test.go).

The reference sidecar reads a YAML payload as
    tokens = list(yaml.scan(payload)); any alias, anchor or tag token ->
    yaml_alias_anchor_or_tag_rejected; then yaml.safe_load(payload); a
    yaml.YAMLError -> yaml_parse_error with str(exc.problem or exc) and
    exc.problem_mark's line + 1 and column + 1; a ValueError -> its text as
    the code
(moe-sovereign server.py, structured_validate). This script applies exactly
that procedure with PyYAML 6.0.3, the version the reference pins, to:
  * every one-character insertion, from a set of characters PyYAML treats
    specially (tab, %, :, @, `, !, &, *, [, ], {, }, ',', ?, '-', '#', quotes),
    at every position of a few short documents;
  * seeded random documents with one random insertion each;
  * a second seeded family (2000 documents) built from a grammar that
    reaches every part of the scanner and parser -- block scalars with
    indicators, quoted scalars with escapes and folds, explicit keys, flow
    collections nested in block ones, directives, document markers, several
    documents, comments, merge keys, YAML 1.1 numbers and timestamps, CR, NEL
    and LS line breaks, a byte order mark -- each then changed by one to
    three random edits (a quarter are kept unedited) (an insertion, a deletion, or a line indented or
    dedented).
It writes internal/structured/testdata/yaml_pyyaml.json: one case a line,
{"src": ..., "code": null | "yaml_parse_error" | "yaml_alias_anchor_or_tag_rejected" | a ValueError's text,
 "message": ..., "line": ..., "column": ...}, and for a valid document the
details the reference reports, "depth" and "nodes".

Run from the repository root with pyenv's python3 (PyYAML 6.0.3):
    python3 internal/structured/testdata/gen_yaml_pyyaml.py
"""
import json
import os
import platform
import random

import yaml

assert yaml.__version__ == "6.0.3", "PyYAML " + yaml.__version__ + ": the reference pins 6.0.3"

HERE = os.path.dirname(os.path.abspath(__file__))


def bounded_tree(value):
    """details.depth and details.nodes as the reference's _bounded_tree counts
    them (every dict, list, key and scalar a node, the root at depth 1), with
    its limits (64 levels, 10000 nodes) raising its ValueErrors."""
    stack = [(value, 1)]
    nodes = depth = 0
    while stack:
        current, level = stack.pop()
        nodes += 1
        depth = max(depth, level)
        if nodes > 10000:
            raise ValueError("structured_node_limit_exceeded")
        if level > 64:
            raise ValueError("structured_depth_limit_exceeded")
        if isinstance(current, dict):
            stack.extend((item, level + 1) for pair in current.items() for item in pair)
        elif isinstance(current, list):
            stack.extend((item, level + 1) for item in current)
    return depth, nodes


def verdict(src):
    try:
        tokens = list(yaml.scan(src))
        if any(t.__class__.__name__ in {"AliasToken", "AnchorToken", "TagToken"} for t in tokens):
            return {"code": "yaml_alias_anchor_or_tag_rejected"}
        depth, nodes = bounded_tree(yaml.safe_load(src))
        return {"code": None, "depth": depth, "nodes": nodes}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return {"code": "yaml_parse_error", "message": str(getattr(exc, "problem", None) or exc),
                "line": mark.line + 1 if mark else None, "column": mark.column + 1 if mark else None}
    except ValueError as exc:
        # A value Python cannot build ("month must be in 1..12"): the
        # reference's finding code is the exception's text.
        return {"code": str(exc)}


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

# Documents as people and models write them, whole and with one random
# insertion each.
REALISTIC = [
    "version: '3.8'\nservices:\n  web:\n    image: nginx:1.25\n    ports:\n      - \"8080:80\"\n    environment:\n      - KEY=value # set\n",
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\n  labels: {app: web, tier: \"frontend\"}\ndata:\n  url: https://example.com/path?q=1&r=2\n  note: |\n    line one\n    line two: with colon\n\n    [not a list] @mention `code`\n",
    "# comment\nname: Test Project\nversion: 1.2.3\ndescription: >\n  A folded\n  description.\nauthors:\n  - name: Ada\n    email: ada@example.com\n  - name: \"Bob, Jr.\"\n",
    "steps:\n- run: echo \"hello world\"\n- run: |\n    make build\n    make test\n- name: deploy\n  if: ${{ github.ref == 'refs/heads/main' }}\n",
    "price: 12.50\ncurrency: EUR\ndate: 2026-12-02\ntime: 2026-12-02T10:00:00Z\nenabled: yes\ncount: 0x1F\nratio: 1e-3\nempty:\nnull_value: ~\n",
    "matrix: [[1, 2], [3, 4]]\npoint: {x: 1, y: 2}\ntags: [a, 'b c', \"d:e\"]\nurl_list: [http://a.example/x, https://b.example:8443/y]\n",
    "key with spaces: value with spaces\n'quoted key': 1\n\"double quoted\": 2\n? complex key\n: complex value\nmulti: first\n  continued line\n",
    "text: 'It''s fine'\npath: C:\\Users\\me\nregex: '^[a-z]+$'\nemoji: \"\\u263A\"\npercent: 50%\nhash: a#b\ncomment: a #b\n",
    "---\na: 1\n...\n",
    "- &anchor {a: 1}\n- *anchor\n",
    "list:\n- a\n- b\nmap:\n  nested:\n    deeper: true\n",
    "a: b: c\n",
    "a:\n\t- b\n",
    "key: value\t# tab before comment\n",
    "key:\tvalue\n",
    "items:\n  - one\n  -two\n  - three\n",
    "{\"x\ty\": 1, \"x\\ty\": 2, \"x y\": 3}\n",
    "[\"\tx\", \"a\tb\", 'c\td']\n",
    "\"k\tey\": [1, 2]\n\"k\\tey\": 3\n",
]
for doc in REALISTIC:
    add(doc)
# Found by a sweep of the reference's own answers (tools/testdata/reference).
for doc in ["-\n  - 12345678901234567890\n  -\n    ~\n :\n      - true\n    a: 2.5\n  - 1\n- {}\n",
            "a:\n  -\n    - 1\n :\n", "- 1\n :\n", "a:\n  b: 1\n :\n", "a:\n :\n", "-\n :\n", "a: 1\n :\n", "a:\n  - 1\n :\n"]:
    add(doc)
# Edges: escaped lone surrogates are distinct keys (and differ from the pair's
# character), an escape past U+10FFFF, a simple key at and past 1024
# characters, a key the scanner must mark far back, a stray bracket, a bad
# escape, a bad tag URI escape.
for doc in ['{"\\ud800": 1, "\\ud801": 2, "\\ud800": 3}\n', '{"\\ud83d\\ude00": 1, "\U0001F600": 2}\n', 'a: "\\U00110000"\n',
            "k" * 1020 + ": v\n", "k" * 1030 + ": v\n", "[" + "a" * 1030 + ": b]\n", "? " + "x" * 1030 + "\n: y\n",
            "[" * 20 + "]:" * 20 + "\n", "[[a]: b, [c]: d]\n", "[", "]a", 'a: "\\x"\n', "%TAG !a! tag:x%C3\n--- 1\n"]:
    add(doc)

rng = random.Random(20261202)
for doc in REALISTIC:
    for _ in range(60):
        pos = rng.randint(0, len(doc))
        add(doc[:pos] + rng.choice(CHARS) + doc[pos:])


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

# The grammar family. Its own seed, so the families above stay as they were.
grng = random.Random(20261203)
GCHARS = CHARS + ["|", ">", "+", "0", "9", "\\", "\r", "\x85", "\u2028", "\ufeff", ".", "<", "=", "~", "x", "é"]
SCALARS = ["a", "b c", "~", "null", "yes", "No", "on", "0o17", "017", "0x1F", "0b101", "1_000", "190:20:30", "-1.5e+3", ".inf", "-.Inf",
           ".NaN", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "2026-13-01", "<<", "=", "1.0", "1", "true",
           "http://x.example/a?b=c#d", "a:b", "k:@", "-x", "?y", "'q''q'", "'multi\n  line'", '"esc \\t\\x41\\u00e9\\N"', '"fold\\\n  ed"',
           '"tab\there"', "'a # b'", "a #c"]
BAD = ["%p", "@x", "`y", "|0", "|x", "*a", "&b c", "!t x"]


def gscalar(indent):
    r = grng.random()
    if r < 0.03:
        return grng.choice(BAD), False
    if r < 0.15:
        head = grng.choice(["|", ">", "|-", ">+", "|2", ">1-", "|+"])
        pad = " " * (indent + grng.choice([1, 2, 2, 4]))
        lines = [grng.choice(["text", "more: words", "  indented", "", "x\ty", "# not a comment", "- item"]) for _ in range(grng.randint(1, 3))]
        return head + grng.choice(["", " # c"]) + "\n" + "".join((pad + l if l else "") + "\n" for l in lines), True
    return grng.choice(SCALARS), False


def gflow(depth):
    r = grng.random()
    if depth > 2 or r < 0.5:
        s, block = gscalar(0)
        return s if not block else "x"
    if r < 0.75:
        return "[" + ", ".join(gflow(depth + 1) for _ in range(grng.randint(0, 3))) + grng.choice(["", ","]) + "]"
    items = []
    for _ in range(grng.randint(0, 3)):
        k = gflow(depth + 1)
        items.append(grng.choice([k + ": " + gflow(depth + 1), "? " + k, k, k + ":" + gflow(depth + 1), '"' + k + '":' + gflow(depth + 1)]))
    return "{" + ", ".join(items) + "}"


def gblock(indent, depth):
    pad = " " * indent
    r = grng.random()
    out = []
    if depth > 3 or r < 0.2:
        v = gflow(0)
        return pad + v + "\n"
    if r < 0.5:
        for _ in range(grng.randint(1, 3)):
            s, block = gscalar(indent)
            if block:
                out.append(pad + "- " + s)
            elif grng.random() < 0.4:
                out.append(pad + "-\n" + gblock(indent + grng.choice([0, 2, 2, 1]), depth + 1))
            else:
                out.append(pad + "- " + grng.choice([s, gflow(0)]) + "\n")
        return "".join(out)
    for i in range(grng.randint(1, 4)):
        key = grng.choice(["k", "key%d" % i, "a b", "'q'", '"d"', "<<", "1", "1.0", "true", "~", "2001-01-01", "[x]", "? e"])
        if key == "? e":
            out.append(pad + "? " + grng.choice(["e", "[1, 2]", "|\n" + pad + "  blk\n"]).rstrip("\n") + "\n" + pad + ": " + gflow(0) + "\n")
            continue
        s, block = gscalar(indent)
        r2 = grng.random()
        if block:
            out.append(pad + key + ": " + s)
        elif r2 < 0.35:
            out.append(pad + key + ":\n" + gblock(indent + grng.choice([2, 2, 4, 0, 1]), depth + 1))
        else:
            out.append(pad + key + ": " + grng.choice([s, gflow(0)]) + grng.choice(["", "", "", " # note", " # note"]) + "\n")
    return "".join(out)


def gdoc():
    body = gblock(0, 0)
    r = grng.random()
    if r < 0.1:
        body = grng.choice(["%YAML 1.1\n", "%YAML 1.2\n", "%YAML 2.0\n", "%TAG !e! tag:e.com,2000:\n", "%FOO bar\n", "%YAML 1.1\n%YAML 1.1\n"]) + "---\n" + body
    elif r < 0.2:
        body = "--- " + body
    elif r < 0.27:
        body = body + grng.choice(["...\n", "---\n", "--- x\n", "...\n---\n" + gblock(0, 2)])
    elif r < 0.32:
        body = "\ufeff" + body
    if grng.random() < 0.08:
        body = body.replace("\n", grng.choice(["\r\n", "\r", "\x85", "\u2028"]))
    return body


def edit(doc):
    for _ in range(grng.choice([1, 1, 2, 3])):
        r = grng.random()
        pos = grng.randint(0, len(doc))
        if r < 0.6:
            doc = doc[:pos] + grng.choice(GCHARS) + doc[pos:]
        elif r < 0.8 and doc:
            doc = doc[:pos] + doc[pos + 1:]
        else:
            lines = doc.split("\n")
            i = grng.randrange(len(lines))
            lines[i] = (" " + lines[i]) if grng.random() < 0.5 else lines[i][1:] if lines[i].startswith(" ") else "\t" + lines[i]
            doc = "\n".join(lines)
    return doc


before = len(cases)
while len(cases) < before + 2000:
    d = gdoc()
    add(d if grng.random() < 0.25 else edit(d))

with open(os.path.join(HERE, "yaml_pyyaml.json"), "w", encoding="utf-8") as f:
    f.write('{"generator": "internal/structured/testdata/gen_yaml_pyyaml.py", "python": "%s", "pyyaml": "%s", "cases": [\n'
            % (platform.python_version(), yaml.__version__))
    f.write(",\n".join(json.dumps(c, ensure_ascii=False, sort_keys=True) for c in cases))
    f.write("\n]}\n")
print(len(cases), "cases,", sum(c["code"] is None for c in cases), "valid")
