#!/usr/bin/env python3
r"""Side-by-side vectors for regex_extract: the reference sidecar's own answers,
through refrunner.py, to tools/testdata/reference/regex_extract/vectors.json.

The reference's regex_extract answers only a text, no facts: "Pattern '<p>' →
N matches: <repr of re.findall(...)[:20]>" (and "..." past 20), or "Error:
<str(exception)>". For each case the generator runs the same re.findall itself
and keeps it as "oracle" ({"findall": [...], "count": N} or {"error": "..."}),
after checking that the reference's text is exactly the one built from it, so
the oracle is what the reference answered. tools/reference_regex_test.go
compares precisiond's facts with it: total_matches is the count, each match
gives the findall item (the match without groups, the group with one, the list
of groups with more, '' for a group that did not take part), and an error is
invalid_regex with the same message.

Cases: random patterns over every construct of Python 3.11's re — classes,
anchors, groups, named groups, scoped flags, lazy and greedy repeats,
look-ahead and look-behind, backreferences (numbered and (?P=name)), atomic
groups, possessive repeats, conditionals, \N{...} — with random flags (i, m, s)
and random subjects; a case the reference does not answer within a second
(catastrophic backtracking) is left out, and so is one whose pattern is a
repetition count over 1000 (precisiond refuses those: documented).

Run with pyenv's Python 3.11.7 (`python3`; the version is recorded), as
gen_structured.py: Debian's 3.11.2 predates CPython's fix of gh-106052
(possessive repeats).
"""
import asyncio
import os
import random
import re
import signal
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import refrunner  # noqa: E402

server = refrunner.load()
vectors = refrunner.Vectors("regex_extract", "tools/testdata/reference/gen_regex.py")
refrunner._extra["unicodedata"] = unicodedata.unidata_version


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow()


def reference_text(args):
    resp = asyncio.run(server.execute_tool(server.InvokeRequest(tool="regex_extract", args=args)))
    assert set(resp) == {"result", "tool"}, resp
    return resp["result"]


def oracle(args):
    flags = 0
    for c in args.get("flags", ""):
        flags |= {"i": re.I, "m": re.M, "s": re.S}[c]
    try:
        ms = re.findall(args["pattern"], args["text"], flags)
    except re.error as e:
        return {"error": str(e)}, f"Error: {e}"
    text = f"Pattern '{args['pattern']}' → {len(ms)} matches: {ms[:20]}{'...' if len(ms) > 20 else ''}"
    return {"findall": [list(m) if isinstance(m, tuple) else m for m in ms], "count": len(ms)}, text


def add(args, group):
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        want, text = oracle(args)
        got = reference_text(args)
    except Slow:
        return False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if got != text:
        raise SystemExit(f"{args}: the reference answered {got!r}, the oracle {text!r}")
    n = vectors._groups[group] = vectors._groups.get(group, 0) + 1
    vectors.cases.append({"id": f"{group}/{n:04d}", "args": args, "reference": {"result": got}, "oracle": want})
    return True


ATOMS = ["a", "b", "c", "é", " ", ".", r"\d", r"\w", r"\s", r"\W", r"\S", r"\D", "[a-c]", "[^ab]",
         r"[\d_]", "[é-ü]", r"\n", "1", "A", "_", r"[\s,]", "-", r"\$"]
BT_ATOMS = [r"\1", r"\2", r"\1", "(?P=n1)", r"\N{LATIN SMALL LETTER A}", r"\N{DIGIT ONE}", r"\N{EM DASH}"]
ANCHORS = ["^", "$", r"\b", r"\B", r"\A", r"\Z"]
QUANTS = ["*", "+", "?", "{1,2}", "{2}", "*?", "+?", "??", "{,2}", "{0,1}?", "*+", "++", "?+", "{1,2}+", "{2,}+"]
OPENERS = ["(", "(?:", "(?P<n%d>", "(?i:", "(?s:", "(?-i:", "(?=", "(?!", "(?>", "(?<=", "(?<!", "(?(1)", "(?(2)",
           "(?(n1)"]


def atom(rng, depth, names):
    r = rng.random()
    if depth < 3 and r < 0.2:
        op = rng.choice(OPENERS)
        if "%d" in op:
            names[0] += 1
            op = op % names[0]
        return op + alt(rng, depth + 1, names) + ")", True
    if r < 0.3:
        return rng.choice(ANCHORS), False
    if r < 0.4:
        return rng.choice(BT_ATOMS), True
    return rng.choice(ATOMS), True


def seq(rng, depth, names):
    out = []
    for _ in range(rng.randint(0, 4)):
        a, quantifiable = atom(rng, depth, names)
        if quantifiable and rng.random() < 0.35:
            a += rng.choice(QUANTS)
        out.append(a)
    return "".join(out)


def alt(rng, depth, names):
    parts = [seq(rng, depth, names)]
    while rng.random() < 0.25:
        parts.append(seq(rng, depth, names))
    return "|".join(parts)


def subject(rng):
    return "".join(rng.choice("aabbc  1_é\nA,.ü9—$-") for _ in range(rng.randint(0, 40)))


rng = random.Random(20261202)
kinds = {"facts": 0, "error": 0}
while kinds["facts"] < 700 or kinds["error"] < 100:
    p = alt(rng, 0, [0])
    if re.search(r"\{\d{4,}", p):
        continue
    args = {"pattern": p, "text": subject(rng)}
    if rng.random() < 0.4:
        args["flags"] = "".join(c for c in "ims" if rng.random() < 0.4)
    kind = "facts"
    try:
        re.compile(p)
    except re.error:
        kind = "error"
    if kind == "error" and kinds["error"] >= 100 or kind == "facts" and kinds["facts"] >= 700:
        continue
    if add(args, "random-" + kind):
        kinds[kind] += 1

# fixed cases from the issue and the README
for p, t in [(r"(?<=\$)\d+", "cost $12, $3"), (r"(\w+)\s+\1", "the the cat cat"),
             (r'"(?:[^"\\]|\\.)*+"', r'say "hi \"x\"" ok'), (r"(?<name>x)", "x"), (r"(?<=a+)b", "aab"),
             (r"(?(?=a)a|b)", "ab"), (r"\N{EM DASH}", "a—b"), (r"(?P<q>['\"]).*?(?P=q)", "'a' \"b\"")]:
    add({"pattern": p, "text": t}, "fixed")
vectors.write()
