#!/usr/bin/env python3
"""Oracle vectors for json_query: Python's jmespath (the reference) on json.loads.

Writes tools/testdata/json_query/oracle_jmespath.json (golden-case format).
Run from the repository root:  python3 tools/testdata/oracle/gen_jmespath.py
Cases where Python fails outside jmespath's own error types (a TypeError from
comparing str with int, OverflowError, ...) are dropped: they are Python bugs,
not answers. Legacy unquoted literals (`foo`, which Python still reads as the
string "foo" with a DeprecationWarning) are refused by json_query and not
generated.
"""
import json
import platform
import random

import jmespath
from jmespath import exceptions as jx

rng = random.Random(20261130)

DOCS = [
    '{"a": {"b": [{"c": 1}, {"c": 2.5}, {"c": "x"}]}, "d": null, "e": [1, 2, 3]}',
    '{"people": [{"name": "Ann", "age": 31, "tags": ["a", "b"]}, {"name": "Bo", "age": 25, "tags": []},'
    ' {"name": "Cy", "age": 47, "tags": ["c"]}, {"name": "Di", "age": 25.5, "tags": ["a"]}]}',
    '{"n": [3, 1.5, -2, 10, 0, 2.0], "s": ["pear", "apple", "Zed", "\u00e9clair", "fig"], "z": [], "o": {}}',
    '{"big": 123456789012345678901234567890, "neg": -98765432109876543210, "f": 1.10, "e": 1E2, "t": 0.1,'
    ' "u": "\u00fc\u00df\u20ac \U0001f600", "m": {"k1": 1, "k0": 0, "k2": [true, false, null]}}',
    '[{"id": 1, "v": {"x": 10}}, {"id": 2, "v": {"x": -1}}, {"id": 3, "v": null}, {"id": 4}]',
    '{"reservations": [{"instances": [{"state": "running", "type": "m1"}, {"state": "stopped", "type": "t2"}]},'
    ' {"instances": [{"state": "running", "type": "c5"}]}], "foo": {"bar": {"baz": [[1, 2], [3, [4, 5]]]}}}',
    '{"config": {"server": {"host": "localhost", "port": 8003, "tls": false}, "limits": [1.5e3, 2e-3, 7]},'
    ' "key with space": "v", "dup": 1, "dup": 2}',
]

EXPRS = [
    # reference-style dotted paths
    "a", "a.b", "a.b[0]", "a.b[0].c", "a.b[1].c", "a.b[2].c", "a.b[-1].c", "a.b[5].c", "d", "e[1]", "e[-1]",
    "people[0].name", "people[3].age", "config.server.port", "config.limits[0]", "config.limits[1]", "m.k2[0]",
    "big", "neg", "f", "e", "t", "u", "foo.bar.baz[1][1][0]", "reservations[0].instances[1].type",
    "[0].v.x", "[1].id", "[3].v", "missing", "missing.deeper[0]",
    # projections and filters
    "a.b[*].c", "people[*].name", "people[?age > `30`].name", "people[?age == `25`].name",
    "people[?age >= `25.5`].name", "people[?contains(tags, 'a')].name", "people[?tags].name",
    "people[?!tags].name", "reservations[*].instances[*].state", "reservations[].instances[].type",
    "reservations[].instances[?state == 'running'].type", "foo.bar.baz[]", "foo.bar.baz[][]",
    "[*].v.x", "[?v.x > `0`].id", "[?v == null].id", "m.*", "config.*", "config.server.*",
    "n[?@ > `1`]", "n[?@ < `0`]", "s[?@ > 'f']", "n[0:3]", "n[::-1]", "n[1::2]", "n[-2:]", "s[:2]",
    "e[::2]", "people[1:].name", "n[10:]",
    # multiselect
    "people[*].[name, age]", "people[*].{n: name, a: age}", "{first: people[0].name, count: length(people)}",
    "[a.b[0].c, e[0]]", "config.server.[host, port]",
    # boolean logic
    "d || e", "e && d", "missing || 'default'", "!d", "!e", "z || o || 'x'", "people[?age > `30` && age < `40`].name",
    "people[?age < `26` || name == 'Cy'].name", "n[?!(@ > `1`)]",
    # comparisons
    "big == `123456789012345678901234567890`", "big > `123456789012345678901234567889`", "f == `1.1`",
    "e == `100`", "t < `0.2`", "'abc' < 'abd'", "`1` == `1.0`", "`true` == `1`", "a.b[0].c == `1`",
    "n[0] > s[0]",
    # pipes
    "people[*].name | [0]", "people[*] | [?age > `30`] | length(@)", "foo.bar | baz[0]",
    # functions
    "length(people)", "length(s[3])", "length(u)", "length(o)", "sum(n)", "sum(e)", "avg(n)", "avg(e)", "avg(z)",
    "max(n)", "min(n)", "max(s)", "min(s)", "abs(`-3`)", "abs(`-3.5`)", "ceil(`1.2`)", "floor(`-1.2`)",
    "ceil(`2`)", "floor(f)", "sort(n)", "sort(s)", "sort_by(people, &age)[*].name", "sort_by(people, &name)[0].name",
    "max_by(people, &age).name", "min_by(people, &age).name", "reverse(s)", "reverse(u)", "reverse(n)",
    "keys(m)", "values(m)", "keys(config)", "join(', ', s)", "join('', people[*].name)", "starts_with(u, '\u00fc')",
    "ends_with(s[0], 'ar')", "contains(s, 'fig')", "contains(u, '\u20ac')", "contains(n, `2`)",
    "merge(m, `{\"k1\": 9, \"new\": 1}`)", "merge(config.server, `{}`)", "not_null(missing, d, e)",
    "not_null(missing)", "to_array(big)", "to_array(e)", "to_string(big)", "to_string(f)", "to_string(m)",
    "to_string(u)", "to_string(people[0])", "to_number('42')", "to_number('4.20')", "to_number('-7')",
    "to_number('1e3')", "to_number('abc')", "to_number(big)", "type(big)", "type(f)", "type(u)", "type(m)",
    "type(missing)", "type(`true`)", "type(n)", "map(&age, people)", "map(&to_string(@), n)",
    "map(&[0], foo.bar.baz)", "length(keys(@))", "sort(keys(@))",
    # literals
    "`null`", "`[1, 2.0, \"x\"]`", "`{\"b\": 1, \"a\": [1.5]}`", "'raw string'", "`\"json string\"`",
    "`-0.0`", "`1e300`", "`12345678901234567890`",
    # current node / identity
    "@", "@.a", "people[0].@",
    # errors
    "a.", "a[", "[?]", "foo[?bar==]", "length()", "length(@, @)", "abs('x')", "sum(s)", "sort(people)",
    "max(people)", "unknown_fn(@)", "a.b[0:1:0]", "sort_by(people, &tags)", "to_number()", "keys(n)",
    "values('x')", "join(',', n)", "avg(s)", "min_by(people, &tags)", "merge(`1`)", "not_null()",
    "starts_with(`1`, 'a')", "`{\"a`", "a || ", "&a", "people[?age > `30`", "'unterminated",
]

SYNTAX = (jx.ParseError, jx.LexerError, jx.IncompleteExpressionError, jx.EmptyExpressionError)


def jmes_type(v):
    return jmespath.search("type(@)", v)


def case(doc_text, expr):
    try:
        data = json.loads(doc_text)
    except ValueError:
        return None
    try:
        result = jmespath.search(expr, data)
    except (jx.ArityError, jx.VariadictArityError):  # subclasses of ParseError
        return {"error_code": "tool_execution_error", "reason": "invalid-arity"}
    except SYNTAX:
        return {"error_code": "tool_execution_error", "reason": "invalid_jmespath"}
    except jx.UnknownFunctionError:
        return {"error_code": "tool_execution_error", "reason": "unknown-function"}
    except jx.JMESPathTypeError:
        return {"error_code": "tool_execution_error", "reason": "invalid-type"}
    except jx.JMESPathError as e:
        if "slice step" in str(e) or "Step" in str(e):
            return {"error_code": "tool_execution_error", "reason": "invalid-value"}
        return None
    except (TypeError, ValueError, OverflowError):
        return None  # Python-only failure: no oracle answer
    try:
        json.dumps(result, allow_nan=False)
    except (ValueError, TypeError):
        return None  # an expression reference or a non-finite float: no JSON answer
    return {"facts": {"path": expr, "result": result, "result_type": jmes_type(result)}}


def random_path(v, depth=0):
    """A reference-style dotted path into v (sometimes one step off the end)."""
    parts = []
    while depth < 6:
        depth += 1
        if isinstance(v, dict) and v:
            k = rng.choice(list(v.keys()))
            if not k.replace("_", "a").isalnum() or not k[0].isalpha():
                break
            parts.append(("." if parts else "") + k)
            v = v[k]
        elif isinstance(v, list) and v:
            i = rng.randrange(len(v))
            if rng.random() < 0.3:
                i = i - len(v)
            parts.append("[%d]" % i)
            v = v[i]
        else:
            break
        if rng.random() < 0.15:
            break
    if rng.random() < 0.2:
        parts.append((".nope" if parts else "nope"))
    return "".join(parts) or "@"


RFIELDS = ["a", "b", "c", "people", "n", "s", "o", "m", "big", "f", "e", "t", "u", "name", "age", "tags", "v", "x",
           "id", "config", "foo", "bar", "baz"]
RLITS = ["`1`", "`1.0`", "`2.5`", "`-1`", "`0`", "`\"x\"`", "'a'", "`null`", "`true`", "`[]`", "`{}`", "`[1, 2]`",
         "`{\"k\": 1}`", "`123456789012345678901234567890`"]
RFUNCS = ["length", "abs", "ceil", "floor", "sum", "avg", "max", "min", "sort", "reverse", "keys", "values", "to_array",
          "to_string", "to_number", "type", "not_null"]


def rand_atom(d):
    r = rng.random()
    if d <= 0 or r < 0.3:
        return rng.choice(RFIELDS + ["@"] + RLITS)
    if r < 0.45:
        return rand_atom(d - 1) + "." + rng.choice(RFIELDS)
    if r < 0.55:
        return rand_atom(d - 1) + "[%d]" % rng.randint(-3, 3)
    if r < 0.62:
        return rand_atom(d - 1) + "[%s:%s:%s]" % (rng.choice(["", "1", "-2"]), rng.choice(["", "3", "-1"]), rng.choice(["", "2", "-1"]))
    if r < 0.7:
        return rand_atom(d - 1) + "[*]." + rng.choice(RFIELDS)
    if r < 0.75:
        return rand_atom(d - 1) + "[]"
    if r < 0.8:
        return rand_atom(d - 1) + ".*"
    if r < 0.87:
        op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        return "%s[?%s %s %s]" % (rand_atom(d - 1), rng.choice(RFIELDS + ["@"]), op, rng.choice(RLITS))
    if r < 0.93:
        return "%s(%s)" % (rng.choice(RFUNCS), rand_atom(d - 1))
    if r < 0.96:
        return "%s(%s, &%s)" % (rng.choice(["sort_by", "max_by", "min_by"]), rand_atom(d - 1), rng.choice(RFIELDS + ["@"]))
    if rng.random() < 0.5:
        return "[%s, %s]" % (rand_atom(d - 1), rand_atom(d - 1))
    return "{k1: %s, k2: %s}" % (rand_atom(d - 1), rand_atom(d - 1))


def rand_expr():
    e = rand_atom(rng.randint(1, 4))
    r = rng.random()
    if r < 0.1:
        e = e + " || " + rand_atom(2)
    elif r < 0.2:
        e = e + " && " + rand_atom(2)
    elif r < 0.25:
        e = "!" + e
    elif r < 0.3:
        e = e + " | " + rand_atom(2)
    elif r < 0.4:
        e = rand_atom(2) + " " + rng.choice(["==", "<", ">="]) + " " + rand_atom(2)
    return e


def merged_brackets(node):
    """Python's parser merges a bracket that follows an index expression into it
    (so a slice there does not project); json_query follows the specification.
    Such expressions are the one documented divergence and are not vectors."""
    if isinstance(node, dict):
        if node.get("type") == "index_expression" and len(node.get("children", [])) > 2:
            return True
        return any(merged_brackets(c) for c in node.get("children", []))
    return False


def main():
    cases = []
    seen = set()

    def add(name, doc, expr):
        if (doc, expr) in seen:
            return
        seen.add((doc, expr))
        c = case(doc, expr)
        if c is None:
            return
        c = dict(name=name, args={"json_str": doc, "path": expr}, **c)
        cases.append(c)

    for di, doc in enumerate(DOCS):
        for ei, expr in enumerate(EXPRS):
            r = case(doc, expr)
            # Keep every expression once on a document where it means something,
            # plus all errors once.
            if r is None:
                continue
            if "facts" in r and r["facts"]["result"] is None and rng.random() < 0.85:
                continue
            add("doc%d/expr%03d" % (di, ei), doc, expr)
    for di, doc in enumerate(DOCS):
        data = json.loads(doc)
        for k in range(20):
            add("doc%d/dotted%02d" % (di, k), doc, random_path(data))
    # Random expressions over the documents (a differential sample).
    k = 0
    while k < 600:
        doc, expr = rng.choice(DOCS), rand_expr()
        try:
            if merged_brackets(jmespath.compile(expr).parsed):
                continue
        except jx.JMESPathError:
            pass
        before = len(cases)
        add("random/%03d" % k, doc, expr)
        k += len(cases) - before
    # Invalid JSON documents: Python's json error.
    for k, bad in enumerate(['{"a": 1,}', '[1, 2', '{"a" 1}', 'nul', '', '{"a": NaN}', '[1] x']):
        cases.append({"name": "invalid_json/%d" % k, "args": {"json_str": bad, "path": "a"},
                      "error_code": "tool_execution_error", "reason": "invalid_json"})
    with open("tools/testdata/json_query/oracle_jmespath.json", "w", encoding="utf-8") as f:
        json.dump({"generator": "tools/testdata/oracle/gen_jmespath.py", "jmespath": jmespath.__version__,
                   "python": platform.python_version(),
                   "cases": cases}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
