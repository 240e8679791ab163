#!/usr/bin/env python3
r"""Oracle for regex_extract: CPython's `re` (re.finditer) on the same pattern, text and
flags, paginated as the contract says.

Writes tools/testdata/regex_extract/oracle_re.json. Run from the repository root:
    python3 tools/testdata/oracle/gen_regex.py
Expected errors:
  * invalid_regex             when re.compile raises re.error (the case also records
    str(error) as "message", which tools/regex_extract_test.go compares);
  * unsupported_regex_feature for the repetition counts listed in UNSUPPORTED (valid
    Python beyond the engine's limit of 1000); tagged by hand, and the script checks
    that Python itself accepts each of them;
  * cost_limit_exceeded / regex_work_limit for the CATASTROPHIC cases: the script
    checks that CPython does not finish each of them within CATASTROPHIC_SECONDS
    (it would run for minutes or longer), and the service must refuse them within
    its step budget.
Random patterns cover every construct (look-around, backreferences, atomic groups,
possessive quantifiers, conditionals, \N{...}); a random case CPython does not answer
within a second is left out.
Run with pyenv's Python 3.11.7 (`python3` on PATH; the version is recorded), not Debian's
3.11.2: that one predates the fix of CPython gh-106052 (3.11.5), possessive repeats
that keep what a failed iteration consumed ((?:c(?=)x)?+ matches "c" in "c.").
"""
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import unicodedata

FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}


def py_flags(s):
    f = 0
    for c in s:
        f |= FLAGS[c]
    return f


def facts(pattern, text, flags="", offset=0, limit=20):
    ms = list(re.finditer(pattern, text, py_flags(flags)))
    page = ms[offset:offset + limit]
    end = offset + len(page)
    has_more = end < len(ms)
    return {
        "matches": [{"match": m.group(0), "start": m.start(), "end": m.end(),
                     "groups": list(m.groups()), "named": m.groupdict()} for m in page],
        "total_matches": len(ms),
        "offset": offset,
        "limit": limit,
        "has_more": has_more,
        "next_offset": end if has_more else None,
        "next_cursor": str(end) if has_more else None,
    }


# (pattern, text, flags, offset, limit)
FIXED = [
    (r"\d+", "a1b22c333", "", 0, 20),
    (r"\d+", "a1b22c333", "", 1, 1),
    (r"\d+", "a1b22c333", "", 2, 20),
    (r"\d+", "a1b22c333", "", 3, 20),
    (r"\d+", "a1b22c333", "", 10, 5),
    (r"(\w+)@(\w+)\.com", "joe@example.com, ann@test.com", "", 0, 20),
    (r"(?P<user>\w+)@(?P<host>[\w.]+)", "joe@example.com ann@test.org", "", 0, 20),
    (r"(?P<a>x)|(?P<b>y)", "xyx", "", 0, 20),
    (r"(a)|b", "ab", "", 0, 20),
    (r"(a)?b", "b ab", "", 0, 20),
    # captures of a final empty iteration (CPython's zero-width repeat protection)
    (r"(a*)*", "aab", "", 0, 20),
    (r"(a*)+b", "aab", "", 0, 20),
    (r"(a*){2,3}b", "aab", "", 0, 20),
    (r"(a*)*?b", "aab", "", 0, 20),
    (r"((a)|b*)*", "abba", "", 0, 20),
    (r"(?:(a)|(b)|)+", "ab", "", 0, 20),
    (r"(a|)+", "aa", "", 0, 20),
    (r"(a+)+b", "aab", "", 0, 20),
    (r"(a|b)*", "abba", "", 0, 20),
    (r"", "abc", "", 0, 20),
    (r"", "", "", 0, 20),
    (r"x*", "axxb", "", 0, 20),
    (r"\w*", "ab cd", "", 0, 20),
    (r"|a", "aa", "", 0, 20),
    (r"a*?", "aaa", "", 0, 20),
    (r"a??", "aa", "", 0, 20),
    (r"(?:)|b", "ab", "", 0, 20),
    (r"\b", "ab cd", "", 0, 20),
    (r"\B", "ab cd", "", 0, 20),
    (r"\b", "", "", 0, 20),
    (r"\B", "", "", 0, 20),
    (r"\bé\w*", "été étude café", "", 0, 20),
    (r"\w+", "naïve café Straße 東京 ١٢٣ x_y", "", 0, 20),
    (r"\d+", "٣٤ ۵۶ ४२ 12 ½ ²", "", 0, 20),
    (r"\s+", "a\u00a0b\u2003c\u3000d\x1ce\x85f\tg", "", 0, 20),
    (r"\S+", "a\u00a0b\u2003c\u3000d\x1ce", "", 0, 20),
    (r"\W+", "a, b! c—d", "", 0, 20),
    (r"[\w]+", "naïve-café", "", 0, 20),
    (r"[^\W\d]+", "abc123déf_9", "", 0, 20),
    (r"[\s\d]+", "a 1 2b", "", 0, 20),
    (r"[\S]+", "a b", "", 0, 20),
    (r"^\w+", "one\ntwo\nthree", "", 0, 20),
    (r"^\w+", "one\ntwo\nthree", "m", 0, 20),
    (r"\w+$", "one\ntwo\nthree", "", 0, 20),
    (r"\w+$", "one\ntwo\nthree", "m", 0, 20),
    (r"\w+$", "one\ntwo\n", "", 0, 20),
    (r"^\d+$", "123\n", "", 0, 20),
    (r"$", "a\nb\n", "", 0, 20),
    (r"$", "a\nb\n", "m", 0, 20),
    (r"^", "a\nb\n", "m", 0, 20),
    (r"\Z", "a\n", "", 0, 20),
    (r"\A\w", "ab", "", 0, 20),
    (r"a.c", "abc a\nc", "", 0, 20),
    (r"a.c", "abc a\nc", "s", 0, 20),
    (r"(?s)a.c", "a\nc", "", 0, 20),
    (r"hello", "Hello HELLO hello", "i", 0, 20),
    (r"(?i)hello", "Hello HELLO hello", "", 0, 20),
    (r"(?i:h)ello", "Hello hello HELLO", "", 0, 20),
    (r"(?-i:h)ello", "Hello hello HELLO", "i", 0, 20),
    (r"[a-z]+", "ABC def", "i", 0, 20),
    (r"[^a-z]+", "ABC def", "i", 0, 20),
    (r"straße", "STRASSE Straße STRAẞE", "i", 0, 20),
    (r"σ", "Σ σ ς", "i", 0, 20),
    (r"k", "K k \u212a", "i", 0, 20),
    (r"ǆ", "Ǆ ǅ ǆ", "i", 0, 20),
    # CPython's case-insensitive equivalences that differ from simple case folding
    (r"i", "Iiİıx", "i", 0, 20),
    (r"ı", "Iiİıx", "i", 0, 20),
    (r"[i]", "Iiİıx", "i", 0, 20),
    (r"[^i]", "Iiİıx", "i", 0, 20),
    (r"[h-j]+", "HIJİı", "i", 0, 20),
    (r"ﬅ|ΐ", "ﬅﬆΐΐ", "i", 0, 20),
    (r"(?a)k", "kK\u212a", "i", 0, 20),
    (r"(?a)s+", "sSſ", "i", 0, 20),
    (r"(?a)[a-z]+", "Kelvin \u212a ſ é É", "i", 0, 20),
    (r"(?a)é", "é É", "i", 0, 20),
    (r"[k-l]", "\u212a", "i", 0, 20),
    (r"(?x) a b c  # comment", "abc", "", 0, 20),
    (r"(?x)[ ]a\ b", " a b", "", 0, 20),
    (r"(?x:a b)c d", "abc d", "", 0, 20),
    (r"(?a)\w+", "naïve café", "", 0, 20),
    (r"(?a)\d+", "٣٤ 12", "", 0, 20),
    (r"(?a)\s+", "a\u00a0b c", "", 0, 20),
    (r"(?a)\bé", "é xé", "", 0, 20),
    (r"(?u)\w+", "naïve", "", 0, 20),
    (r"(?a:\w+)\w", "naïve", "", 0, 20),
    (r"(?#comment)a", "a", "", 0, 20),
    (r"a(?#c)*", "aaa", "", 0, 20),
    (r"a{2}", "aaaaa", "", 0, 20),
    (r"a{2,}", "aaaaa", "", 0, 20),
    (r"a{,2}", "aaaaa", "", 0, 20),
    (r"a{1,3}?", "aaaaa", "", 0, 20),
    (r"a{,}", "aaa", "", 0, 20),
    (r"a{", "a{", "", 0, 20),
    (r"a{x}", "a{x}", "", 0, 20),
    (r"a{1,x}", "a{1,x}", "", 0, 20),
    (r"{", "{", "", 0, 20),
    (r"a{}", "a{}", "", 0, 20),
    (r"x{1000}", "x" * 1000, "", 0, 20),
    (r"\x41\u00e9\U0001F600\101\0\07\n\t", "Aé😀A\x00\x07\n\t", "", 0, 20),
    (r"[\x41-\x43]+", "ABCD", "", 0, 20),
    (r"[\101-\103]+", "ABCD", "", 0, 20),
    (r"[\b]", "a\bb", "", 0, 20),
    (r"[]a]+", "]a]b", "", 0, 20),
    (r"[^]a]+", "]a]b", "", 0, 20),
    (r"[a-]+", "a-b", "", 0, 20),
    (r"[-a]+", "a-b", "", 0, 20),
    (r"[\-\]\\]+", "-]\\x", "", 0, 20),
    (r"[[]+", "[[a", "", 0, 20),
    (r"\.\*\+\?\(\)\[\]\{\}\|\^\$", ".*+?()[]{}|^$", "", 0, 20),
    (r"\é\#\ \-", "é# -", "", 0, 20),
    (r"(a)(b)?(c)", "ac abc", "", 0, 20),
    (r"((a)|(b))+", "ab", "", 0, 20),
    (r"(?P<n>a)(?P<m>b)?", "a ab", "", 0, 20),
    (r"(?P<名前>\w+)", "東京", "", 0, 20),
    (r"😀+", "a😀😀b😀", "", 0, 20),
    (r".", "😀é\u0301a", "", 0, 20),
    (r"e\u0301", "e\u0301 é", "", 0, 20),
    (r"\w", "e\u0301", "", 0, 20),
    (r"a|ab", "ab", "", 0, 20),
    (r"ab|a", "ab", "", 0, 20),
    (r"(a|ab)(c|bcd)", "abcd", "", 0, 20),
    (r"a*b|a", "aaa", "", 0, 20),
    (r"x", "x" * 2500, "", 995, 10),
    (r"x", "x" * 2500, "", 0, 1000),
    (r"x", "x" * 2500, "", 2000, 1000),
    (r"x", "x" * 2500, "", 2500, 1000),
    # catastrophic for a backtracking engine; sizes kept small enough for CPython to
    # answer here (the 100 000-character case is a Go test: CPython never finishes)
    (r"(a+)+$", "a" * 18 + "b", "", 0, 20),
    (r"(a+)+$", "a" * 30, "", 0, 20),
    (r"(x+x+)+y", "x" * 16, "", 0, 20),
    (r"(.*a){12}", "a" * 40, "", 0, 20),
]

# Constructs that need backtracking (CPython 3.11 runs all of them).
BACKTRACKING = [
    (r"(?<=\$)\d+", "cost $12, $3 and 45"),
    (r"(?<!\$)\b\d+", "cost $12, $3 and 45"),
    (r"\w+(?=,)", "a, bc, d"),
    (r"\w+(?!,)\b", "a, bc, d"),
    (r"(?<=a)?", "ab"),
    (r"(?<=ab|cd)x", "abx cdx aex"),
    (r"(?<=(a))b", "ab b"),
    (r"(?<=\b)x", "x ax x"),
    (r"(?<!^)x", "xxx"),
    (r"(?<=^)x", "xxx"),
    (r"(?=(\w+))\w", "ab"),
    (r"(?=(a+))a*b\1", "baaabac"),
    (r"(?!(a)b)(\w)", "abac"),
    (r"(?=a)*b", "ab"),
    (r"(?=(a))*", "aa"),
    (r"(?=(a+))+b", "aab"),
    (r"(\w+)\s+\1", "the the cat cat sat"),
    (r"(\w)\1", "aabbcd"),
    (r"(?i)(\w)\1", "aA Bb cd"),
    (r"(?i)(ss)\1", "ssSS ßß ſs"),
    (r"(?ai)(\w)\1", "aA \u212ak"),
    (r"(?i)(k)\1", "kK k\u212a"),
    (r"(?i:(σ)\1)", "σΣ σς"),
    (r"(a)|\1", "ab"),
    (r"(a)?\1", "aa a"),
    (r"(a)?b\1", "ab b aba"),
    (r"(a*)\1", "aaaa"),
    (r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10", "abcdefghijj abcdefghija0"),
    (r"(a)\011", "a\t a\x011"),
    (r"(?P<q>['\"]).*?(?P=q)", "say 'hi' or \"yo\" 'x\""),
    (r"(?P<w>\w)(?P=w)+", "aaab cc"),
    (r"(?>a+)b", "aab aaa"),
    (r"(?>a+)a", "aaa"),
    (r"(?>a|ab)c", "abc ac"),
    (r"(?>(a)|(b))+", "ab"),
    (r"(?>x*)*y", "xxy"),
    (r"a*+a", "aaa"),
    (r"a++b", "aab ab b"),
    (r"a?+a", "a aa"),
    (r"a{1,2}+a", "aaa aa"),
    (r"a{2}+", "aaaaa"),
    (r"(?:ab)*+", "ababa"),
    (r"(a|b)*+c", "abac"),
    (r"(a*)*+", "aab"),
    (r"(a*)++b", "aab"),
    (r"(?:a|)++b", "aab"),
    (r"\d++\.", "12.5 3"),
    (r'"(?:[^"\\]|\\.)*+"', 'say "hi \\"x\\"" and "" ok'),
    (r"(a)?(?(1)b|c)", "ab c b ac"),
    (r"(?P<o><)?\w+(?(o)>)", "<a> b <c d>"),
    (r"(a)?(?(1)b)", "ab b"),
    (r"(?(1)a|b)(x)?", "bx ab"),
    (r"((?(1)b|a))+", "abb"),
    (r"(a)|(?(1)x|y)", "ay"),
    (r"(?:(a)|b)(?(1)c|d)", "ac bd ad bc"),
    (r"(?:(a)|b)*(?(1)c|d)", "abc bad bbd"),
    (r"\N{EM DASH}+", "a—b——c"),
    (r"\N{em dash}", "—"),
    (r"[\N{DIGIT ONE}-\N{DIGIT THREE}]+", "0123 4"),
    (r"\N{LATIN SMALL LETTER A WITH ACUTE}", "á"),
    (r"\N{BYTE ORDER MARK}", "\ufeff"),
    (r"\N{CJK UNIFIED IDEOGRAPH-4E00}", "一二"),
    (r"\N{CJK UNIFIED IDEOGRAPH-2A700}", "\U0002a700"),
    (r"\N{HANGUL SYLLABLE GAG}\N{HANGUL SYLLABLE A}", "각아"),
    (r"\N{LINE FEED}\N{LF}", "\n\n"),
    (r"(?i)\N{LATIN CAPITAL LETTER A}", "aA"),
    # zero-width matches and empty iterations
    (r"(?=a)|a", "aa"),
    (r"(?<=a)", "aaa"),
    (r"\b(?=\w)", "ab cd"),
    (r"(a|(?=b))*", "ab"),
    (r"(?:(a)|(?=b))*b\1", "aba"),
    (r"(a*?)\1b", "aab"),
    (r"((a)|b)*?c\2", "abca"),
    (r"(?:x(?=y)|z)+", "xyzxz"),
    # catastrophic in general, defused by atomic groups and possessive repeats
    (r"(?>a+)+$", "a" * 30 + "!"),
    (r"(a++)+$", "a" * 30 + "!"),
    (r"(?:\w++\s?)*+$", "a" * 30 + "!"),
    (r"(?>(?:\w+\s?)*)$", "a" * 30 + "!"),
    (r"(x+x+)++y", "x" * 30),
]

# valid Python beyond the engine's limits: refused with unsupported_regex_feature
UNSUPPORTED = [
    r"a{1001}", r"a{2,1001}", r"(?=a{1001})", r"(a)\1{1001}",
]

# CPython runs these for minutes or longer (exponential backtracking): the service
# refuses them within its step budget (cost_limit_exceeded, regex_work_limit).
CATASTROPHIC_SECONDS = 5
CATASTROPHIC = [
    (r"(a+)+\1$", "a" * 40 + "!"),
    (r"(\w+\s?)*(?=!)x", "a" * 40 + "!"),
    (r"(?=(a+))*(a+)+b", "a" * 40),
    (r"((?=(a+))(a+))+\2c", "a" * 40),
    (r"(?<=(a))((?!b)(a+))+\1$", "a" * 40 + "!"),
    (r"(.*?,){13}(?>x)", "a," * 30),
    (r"(x+x+)+(?(1)y)", "x" * 40),
]

# re.error in Python: refused with invalid_regex
INVALID = [
    r"(", r")", r"a)", r"(a", r"[a", r"[", r"[]", r"[^]", r"*", r"a**", r"a*?*", r"+a",
    r"?", r"a{2}{3}", r"a{3,2}", "\\", r"\p{L}", r"\z", r"\e", r"\g<1>",
    r"\8", r"[\8]", r"[z-a]", r"[\d-z]", r"[a-\d]", r"(?P<1a>x)", r"(?P<a>x)(?P<a>y)",
    r"(?P<>x)", r"(?P<a", r"(?Px)", r"(?z)", r"(?L)a", r"(?au)a", r"(?i", r"(?-)a",
    r"(?-a:x)", r"(?i-i:x)", r"a(?i)b", r"(?#unterminated", r"\x4", r"\u12", r"\U0011FFFF",
    r"\777", r"[\777]", r"^*", r"$+", r"\b*", r"\A?", r"x{4294967295}", r"(?<n", r"(?Q)",
    r"(?i)(?m)(?s)a*+*",
    # Python 3.11 has no (?<name>...) (PCRE's spelling)
    r"(?<year>\d{4})", r"(?<a>x)|(?<b>y)", r"a(?<n>b)", r"(?<",
    # look-behind needs a fixed width
    r"(?<=a*)b", r"(?<=a|bc)x", r"(?<!a+)b", r"(?<=a{1,2})b", r"(?<=(a)|b\1)c", r"(?<=a(?(1)b))(c)",
    r"(?<=(?>ab|c))d", r"(a*)(?<=\1)",
    # references
    r"(a)\2", r"(a)\10", r"\1(a)", r"(a\1)", r"(?P<n>a(?P=n))", r"(?P=n)", r"(?P<n>a)(?P=m)", r"(?P=1)",
    r"(?<=(a)\1)b", r"(?<=(?P<n>a)(?P=n))b", r"(?<=(a)(?(1)b|c))d",
    r"(a)\g<1>", r"(?P<n>a)\g<n>",
    # conditionals: group references only (no look-around), at most two branches
    r"(?(?=a)a|b)", r"(?(?<=a)a|b)", r"(?(1)a|b|c)", r"(?(0)a|b)", r"(?(-1)a|b)",
    r"(?(x)a|b)", r"(?(1a)a|b)", r"(?()a|b)", r"(?(1", r"(?(1)a", r"(?(2)a)(b)", r"(?(1)a)",
    # group numbers at and beyond MAXGROUPS, printed in full; other digits and underscores
    r"(?(99999999999999999999)a)", r"(?(2147483646)a)", r"(?(2147483647)a)", r"(?(3000000000)a)",
    "(?(\u0663)a)", r"(?(0_1)a)", r"(?(00)a)",
    # atomic and possessive
    r"(?>a", r"[a-z]*?+", r"a**+", r"a*+*", r"a++?", r"(?>)*+*", r"*+",
    # \N{...}
    r"\N", r"\N{", r"\N{}", r"\N{EM DASH", r"\N{NOT A NAME}", r"[\N{NOT A NAME}]",
    r"\N{LATIN CAPITAL LETTER A WITH MACRON AND GRAVE}", r"\N{hangul syllable ga}",
    r"\N{CJK UNIFIED IDEOGRAPH-4e00}", r"\N{CJK UNIFIED IDEOGRAPH-E000}",
]


def atom(rng, depth, bt):
    r = rng.random()
    if depth < 3 and r < 0.15:
        inner = alt(rng, depth + 1, bt)
        kinds = ["(", "(?:", "(?P<g%d>" % rng.randint(0, 10**6), "(?i:", "(?s:"]
        if bt:
            kinds += ["(?=", "(?!", "(?>", "(?<=", "(?<!", "(?(1)", "(?(2)"]
        return rng.choice(kinds) + inner + ")", True
    if r < 0.25:
        return rng.choice(["^", "$", r"\b", r"\B", r"\A", r"\Z"]), False
    atoms = ["a", "b", "c", "é", " ", ".", r"\d", r"\w", r"\s", r"\W", r"\S", r"\D",
             "[a-c]", "[^ab]", r"[\d_]", "[é-ü]", r"\n", "1", "A", "_", r"[\s,]"]
    if bt:
        atoms += [r"\1", r"\2", r"\1", r"\N{LATIN SMALL LETTER A}", r"\N{DIGIT NINE}"]
    return rng.choice(atoms), True


def seq(rng, depth, bt):
    out = []
    for _ in range(rng.randint(0, 4)):
        a, quantifiable = atom(rng, depth, bt)
        if quantifiable and rng.random() < 0.4:
            qs = ["*", "+", "?", "{1,2}", "{2}", "*?", "+?", "??", "{,2}", "{0,1}?"]
            if bt:
                qs += ["*+", "++", "?+", "{1,2}+"]
            a += rng.choice(qs)
        out.append(a)
    return "".join(out)


def alt(rng, depth, bt=False):
    parts = [seq(rng, depth, bt)]
    while rng.random() < 0.25:
        parts.append(seq(rng, depth, bt))
    return "|".join(parts)


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow()


def facts_within(seconds, *args):
    """facts(*args), or None when CPython takes longer than seconds (sre checks
    signals while it matches)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return facts(*args)
    except Slow:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _run(p, t, q):
    q.put(len(list(re.finditer(p, t))))


def finishes_within(seconds, p, t):
    """Whether CPython's finditer over t ends within seconds (in a child process)."""
    q = multiprocessing.Queue()
    proc = multiprocessing.Process(target=_run, args=(p, t, q))
    proc.start()
    proc.join(seconds)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return False
    return True


def random_text(rng):
    return "".join(rng.choice("aabbc  1_é\nA,.ü9") for _ in range(rng.randint(0, 30)))


def dedupe_names(p):
    seen = {}
    def sub(m):
        n = m.group(1)
        seen[n] = seen.get(n, 0) + 1
        return "(?P<%s_%d>" % (n, seen[n])
    return re.sub(r"\(\?P<(g\d+)>", sub, p)


def main():
    rng = random.Random(42)
    cases = []

    def add(name, args, **kw):
        case = {"name": name, "args": args}
        case.update(kw)
        cases.append(case)

    for i, (p, t, fl, off, lim) in enumerate(FIXED):
        args = {"pattern": p, "text": t, "flags": fl, "offset": off, "limit": lim}
        add(f"fixed {i:03d} {p[:30]!r}", args, facts=facts(p, t, fl, off, lim))
    for i, (p, t) in enumerate(BACKTRACKING):
        args = {"pattern": p, "text": t, "flags": "", "offset": 0, "limit": 20}
        add(f"backtracking {i:03d} {p[:30]!r}", args, facts=facts(p, t))
    for i, p in enumerate(UNSUPPORTED):
        re.compile(p)  # Python accepts it
        add(f"unsupported {i:02d} {p!r}", {"pattern": p, "text": "xab"},
            error_code="tool_execution_error", reason="unsupported_regex_feature")
    for i, (p, t) in enumerate(CATASTROPHIC):
        re.compile(p)
        if finishes_within(CATASTROPHIC_SECONDS, p, t):
            raise SystemExit(f"CATASTROPHIC entry finishes in CPython: {p!r}")
        add(f"catastrophic {i:02d} {p!r}", {"pattern": p, "text": t},
            error_code="cost_limit_exceeded", reason="regex_work_limit")
    for i, p in enumerate(INVALID):
        try:
            re.compile(p)
        except re.error as e:
            msg = str(e)
        except OverflowError:  # repeat count >= MAXREPEAT
            msg = None
        else:
            raise SystemExit(f"INVALID entry compiles in Python: {p!r}")
        kw = {"message": msg} if msg is not None else {}
        add(f"invalid {i:02d} {p!r}", {"pattern": p, "text": "x"},
            error_code="tool_execution_error", reason="invalid_regex", **kw)
    k = 0
    while k < 260:
        p = dedupe_names(alt(rng, 0))
        fl = "".join(c for c in "ims" if rng.random() < 0.25)
        t = random_text(rng)
        try:
            f = facts(p, t, fl, 0, 1000)
        except re.error:
            continue
        add(f"random {k:03d} {p[:30]!r}", {"pattern": p, "text": t, "flags": fl, "offset": 0, "limit": 1000}, facts=f)
        k += 1
    # the same with every backtracking construct (a separate stream, so that the
    # cases above stay as they were)
    rng = random.Random(4311)
    k = 0
    while k < 400:
        p = dedupe_names(alt(rng, 0, True))
        fl = "".join(c for c in "ims" if rng.random() < 0.25)
        t = random_text(rng)
        try:
            re.compile(p, py_flags(fl))
        except re.error:
            continue
        f = facts_within(1.0, p, t, fl, 0, 1000)
        if f is None:
            continue
        add(f"random backtracking {k:03d} {p[:30]!r}", {"pattern": p, "text": t, "flags": fl, "offset": 0, "limit": 1000}, facts=f)
        k += 1
    out = {"generator": "tools/testdata/oracle/gen_regex.py", "python": sys.version.split()[0],
           "unicodedata": unicodedata.unidata_version, "cases": cases}
    path = os.path.join(os.path.dirname(__file__), "..", "regex_extract", "oracle_re.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False, indent=None)
        fh.write("\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
