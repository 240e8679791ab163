#!/usr/bin/python3
"""Writes names.txt.gz: the character names regexpy's \\N{...} escape accepts.

CPython 3.11's re resolves \\N{name} with unicodedata.lookup (Unicode 14.0.0 in
3.11): every character's name, the formal name aliases, and the algorithmic
names of Hangul syllables and CJK unified ideographs (those two are computed in
names.go, not listed here; the ideograph ranges are). Named sequences are more
than one character, so re refuses them, and they are left out.

Python has no list of aliases: they are read from NameAliases.txt (Debian's
unicode-data package, /usr/share/unicode, which may be a later Unicode version)
and each is kept only if this Python's unicodedata.lookup gives the same
character, so the table is exactly 3.11's.

Run with Debian's Python 3.11 from the repository root:
    /usr/bin/python3 internal/regexpy/unames/gen_names.py
The file is gzip-compressed text: a header line, then one "HEX NAME" line per
name (aliases too), then "CJK first-last" lines.
"""
import gzip
import os
import sys
import unicodedata

ALIASES = "/usr/share/unicode/NameAliases.txt"


def main():
    lines = []
    cjk = []
    run = None
    for cp in range(0x110000):
        name = unicodedata.name(chr(cp), "")
        if name.startswith("CJK UNIFIED IDEOGRAPH-"):
            if run and run[1] == cp - 1:
                run[1] = cp
            else:
                run = [cp, cp]
                cjk.append(run)
            continue
        if not name or name.startswith("HANGUL SYLLABLE "):
            continue
        lines.append("%X %s" % (cp, name))
    aliases = 0
    with open(ALIASES, encoding="utf-8") as fh:
        for raw in fh:
            raw = raw.split("#")[0].strip()
            if not raw:
                continue
            cp, alias, _kind = raw.split(";")
            cp = int(cp, 16)
            try:
                got = unicodedata.lookup(alias)
            except KeyError:
                continue  # an alias of a later Unicode version
            if got != chr(cp):
                raise SystemExit("alias %s: lookup gives %r" % (alias, got))
            lines.append("%X %s" % (cp, alias))
            aliases += 1
    # spot checks of what names.go computes
    assert unicodedata.lookup("HANGUL SYLLABLE GAG") == "\uac01"
    head = "unicodedata %s python %s names %d aliases %d" % (
        unicodedata.unidata_version, sys.version.split()[0], len(lines), aliases)
    body = "\n".join([head] + lines + ["CJK %X-%X" % (a, b) for a, b in cjk]) + "\n"
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "names.txt.gz")
    with open(out, "wb") as fh:
        # mtime 0: the same input gives the same bytes
        with gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=9, mtime=0) as gz:
            gz.write(body.encode("ascii"))
    print(head, "->", out, os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
