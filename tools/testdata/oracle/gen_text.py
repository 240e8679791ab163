#!/usr/bin/env python3
"""Reference implementation of text_analyze's documented rules, written from the
contract text (not from the Go code), and the vector generator.

Writes tools/testdata/text_analyze/oracle_rules.json. Run from the repository root:
    python3 tools/testdata/oracle/gen_text.py
Character categories come from this interpreter's unicodedata (CPython 3.11.7:
Unicode 14.0); the texts avoid characters assigned after Unicode 14.
"""
import os
import random
import sys
import unicodedata
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import write_json  # noqa: E402

WHITE_SPACE = set(map(chr, list(range(0x09, 0x0E)) + [0x20, 0x85, 0xA0, 0x1680]
                      + list(range(0x2000, 0x200B)) + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]))
JOINERS = {"'", "\u2019", "-"}
TERMINATORS = {".", "!", "?", "\u2026"}
CLOSERS = {'"', "'", ")", "]", "}", "\u00bb", "\u201d", "\u2019"}
VOWELS = set("aeiouy")


def is_word_char(c):
    return unicodedata.category(c)[0] in "LMN"


def tokenize(text):
    """Words: maximal runs of L/M/N characters; one joiner between two word
    characters stays inside the word."""
    words = []
    cur = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if is_word_char(c):
            cur.append(c)
            i += 1
            continue
        if cur and c in JOINERS and i + 1 < n and is_word_char(text[i + 1]):
            cur.append(c)
            i += 1
            continue
        if cur:
            words.append(("".join(cur), i))
            cur = []
        i += 1
    if cur:
        words.append(("".join(cur), n))
    return words  # (word, index just past its end)


def sentences(text, words):
    ends = sorted(e for _, e in words)
    # a terminator run at [i, j) ends a sentence if a word ended since the previous
    # boundary and, after closers, whitespace or the end follows.
    count = 0
    last_boundary = 0
    i, n = 0, len(text)
    while i < n:
        if text[i] in TERMINATORS:
            j = i
            while j < n and text[j] in TERMINATORS:
                j += 1
            k = j
            while k < n and text[k] in CLOSERS:
                k += 1
            word_since = any(last_boundary < e <= i for e in ends_between(ends, last_boundary, i))
            if word_since and (k == n or text[k] in WHITE_SPACE):
                count += 1
                last_boundary = j
            i = j
        else:
            i += 1
    if any(e > last_boundary for e in ends[-1:]):
        count += 1
    return count


def ends_between(ends, lo, hi):
    import bisect
    a = bisect.bisect_right(ends, lo)
    b = bisect.bisect_right(ends, hi)
    return ends[a:b]


def paragraphs(text):
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    count, inside = 0, False
    for line in lines:
        blank = all(c in WHITE_SPACE for c in line)
        if not blank and not inside:
            count += 1
        inside = not blank
    return count


def syllables(folded):
    w = "".join(c for c in folded if "a" <= c <= "z")
    if len(w) <= 3:
        return 1
    groups = 0
    prev = False
    for c in w:
        v = c in VOWELS
        if v and not prev:
            groups += 1
        prev = v
    if groups > 1:
        if w.endswith("e"):
            if w[-2] not in VOWELS and not (w[-2] == "l" and w[-3] not in VOWELS):
                groups -= 1
        elif w.endswith("ed"):
            if w[-3] not in "td":
                groups -= 1
        elif w.endswith("es"):
            if not w.endswith(("ses", "xes", "zes", "ces", "ges", "ches", "shes")):
                groups -= 1
    return max(groups, 1)


def round2(x):
    """Half away from zero to 2 decimals, as a float; zero is 0.0."""
    neg = x < 0
    a = abs(x)
    h = (a * 100 + Fraction(1, 2)).__floor__()
    s = f"{h // 100}.{h % 100:02d}"
    if neg and h != 0:
        s = "-" + s
    return float(s)


def analyze(text):
    words = tokenize(text)
    wlist = [w for w, _ in words]
    folded = [w.casefold().replace("\u2019", "'") for w in wlist]
    nw = len(wlist)
    syl = sum(syllables(f) for f in folded)
    ns = sentences(text, words)
    facts = {
        "characters": len(text),
        "characters_no_whitespace": sum(1 for c in text if c not in WHITE_SPACE),
        "words": nw,
        "unique_words": len(set(folded)),
        "sentences": ns,
        "paragraphs": paragraphs(text),
        "syllables": syl,
        "reading_time_minutes": round2(Fraction(nw, 200)),
        "flesch_reading_ease": None,
        "flesch_kincaid_grade": None,
    }
    if nw:
        wps = Fraction(nw, ns)
        spw = Fraction(syl, nw)
        facts["flesch_reading_ease"] = round2(Fraction("206.835") - Fraction("1.015") * wps - Fraction("84.6") * spw)
        facts["flesch_kincaid_grade"] = round2(Fraction("0.39") * wps + Fraction("11.8") * spw - Fraction("15.59"))
    return facts


FIXED = [
    "",
    "   \n\t ",
    "Hello world",
    "Hello world.",
    "The quick brown fox jumps over the lazy dog.",
    "The cat sat on the mat. The dog sat on the log.",
    "Is it? Yes! No... Maybe…",
    "Dr. Smith went to Washington. He arrived at 3.14 p.m. sharp!",
    "e.g. this is one sentence",
    "He said \"stop.\" Then he left.",
    "She whispered 'hi.' Then silence.",
    "(This is bracketed.) And this follows.",
    "«Bonjour.» Oui.",
    "Don't stop. It's well-known that rock--roll isn't dead.",
    "I’m here. You’re there. I'M HERE.",
    "'Tis the season - to be jolly.",
    "Numbers 1, 2, 3 and 2024 count as words. So does 3-4.",
    "First paragraph line one.\nLine two.\n\nSecond paragraph.\n\n\n\nThird.",
    "Para one.\r\n\r\nPara two.\r\rPara three.",
    "  \n\nLeading blank lines.\n   \nTrailing spaces line   \n",
    "...",
    "!!! ??? ...",
    "Wait... what?! Really?!",
    "End with ellipsis…",
    "Unicode: café naïve résumé Ångström. Straße STRASSE strasse.",
    "Ελληνικά κείμενα. Σίσυφος ΣΊΣΥΦΟΣ σίσυφος.",
    "Русский текст. Ещё одно предложение!",
    "中文文本没有空格。这是第二句。",
    "日本語のテキスト。 English mixed in.",
    "עברית ועוד. العربية هنا.",
    "हिन्दी पाठ। दूसरा वाक्य.",
    "Combining e\u0301 marks and ﬁnal ligatures ﬁ.",
    "Emoji 😀 are not words. 👍🏽 Nor these!",
    "Tabs\tand\u00a0no-break\u2003spaces\u3000here.",
    "under_score and snake_case and a+b=c",
    "Email me at someone@example.com. Or visit https://example.org/path?q=1.",
    "make table agree whale jumped wanted loved played makes boxes horses goes lines pages",
    "the a I an it be do go by my",
    "beautiful syllable readability everything university",
    "strengths rhythm crypts",
    "queue eerie aeiou youyou",
    "created decided started needed",
    "rides wishes watches buzzes races judges",
    "people little bottle simple apple",
    "bye goodbye rye dye",
    "A. B. C.",
    "x.y.z",
    "Mr.Brown",
    "One sentence without end\nstill the same sentence",
    "Line one!\n\nLine two?\n\nLine three.",
    "Question?'\" Next.",
    "Trailing closers.)]}",
    "— em dash — separated — words —",
    "hyphen- at end and -start and mid-dle",
    "apostrophe' at end and 'start",
    "multiple''apostrophes and dou--ble",
    "x" * 50,
    "supercalifragilisticexpialidocious",
    "I think, therefore I am.",
    "To be, or not to be, that is the question: Whether 'tis nobler in the mind to suffer.",
    "\u2028Line separator\u2029paragraph separator\u0085next line.",
    "ǅemal ǈ title case.",
    "ⅰⅱⅲ Roman numeral letters Ⅻ count.",
    "½ ¾ superscripts ² ³ count too.",
    "İstanbul ISTANBUL istanbul.",
]

VOCAB = ("the a of and to in is was he she it that for on with as his her they at be this "
         "have from or one had by word but not what all were we when your can said there use "
         "each which do how their if will up other about out many then them these so some "
         "would make like him into time has look two more write go see number no way could "
         "people my than first water been call who oil its now find long down day did get "
         "come made may part beautiful university readability everything created wanted "
         "jumped loved makes boxes table whale agree café naïve Straße don't it's well-known "
         "rock'n'roll 2024 3.14 42 Ελληνικά Русский 中文 I'm you’re").split()
PUNCT = [".", "!", "?", "...", "…", ",", ";", ":", "?!", ".\"", ".'", ".)", " -", " —"]
SPACES = [" ", " ", " ", " ", "  ", "\t", "\n", "\n\n", "\u00a0", " \n \n"]


def random_text(rng, nwords):
    out = []
    for i in range(nwords):
        w = rng.choice(VOCAB)
        if rng.random() < 0.15:
            w = w.capitalize()
        if rng.random() < 0.05:
            w = w.upper()
        out.append(w)
        if rng.random() < 0.25:
            out.append(rng.choice(PUNCT))
        out.append(rng.choice(SPACES))
    return "".join(out)


def main():
    rng = random.Random(1130)
    texts = list(FIXED)
    for k in range(180):
        texts.append(random_text(rng, rng.randint(1, 12 if k < 100 else 120)))
    # Unicode soup: case folding (ß İ ς ǅ ﬁ), marks, joiners, closers, odd spaces
    pool = (list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") * 3
            + list(" \n\t\r.!?…'’-\"”»)]},;:_@#½²ⅫßİıςσΣǅǆﬁﬀẞŉΐ")
            + ["\u0301", "\u00a0", "\u2028", "\u3000", "\x1c", "😀", "é", "ü", "Ö", "中", "ა",
               "Ա", "ǈ", "Ꭰ", "ꭰ", "ⓐ", "Ⓐ", "\u0345", "µ", "\u212a", "\u212b", "ﬆ", "\u200d"])
    for k in range(60):
        texts.append("".join(rng.choice(pool) for _ in range(rng.randint(1, 60))))
    # syllable words one by one
    for w in ("make table agree whale jumped wanted loved played makes boxes horses goes "
              "lines pages people little bye goodbye rye created decided rides wishes "
              "watches buzzes races judges queue eerie strengths rhythm the I be "
              "abide ale axle bottle cycle dle eagle fiddle isle ogle").split():
        texts.append(w)
    cases = []
    for i, t in enumerate(texts):
        cases.append({"name": f"{i:03d} {t[:40]!r}", "args": {"text": t}, "facts": analyze(t)})
    out = {"generator": "tools/testdata/oracle/gen_text.py", "python": sys.version.split()[0],
           "unicode": unicodedata.unidata_version, "cases": cases}
    write_json(os.path.join(os.path.dirname(__file__), "..", "text_analyze", "oracle_rules.json"), out)


if __name__ == "__main__":
    main()
