#!/usr/bin/python3
"""Oracle for identifier_validate: Debian's python3-stdnum (validate, compact,
format of stdnum.iban, bic, isbn, issn, ean, isin, lei, luhn) and CPython's
uuid.UUID.

Writes tools/testdata/identifier_validate/oracle_stdnum.json. Run from the
repository root with Debian's interpreter, which has python3-stdnum
(apt-get install python3-stdnum):
    /usr/bin/python3 tools/testdata/oracle/gen_identifier.py
The verdicts pinned are those of the stdnum release recorded in the output
("stdnum"); the checked-in vectors were made with python-stdnum 1.18 on
CPython 3.11.2.

Facts, as the contract states them: a valid identifier has compact (the
module's compact()), formatted (its format(), or compact() for modules without
one) and details; an invalid one has valid false, error after the stdnum
exception class raised, and compact, formatted and details null.
"""
import os
import random
import sys
import uuid

import stdnum
from stdnum import bic, ean, iban, isbn, isin, issn, lei, luhn, numdb
from stdnum.exceptions import (InvalidChecksum, InvalidComponent, InvalidFormat,
                               InvalidLength, ValidationError)
from stdnum.iso7064 import mod_97_10

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import record, write_json  # noqa: E402

MODULES = {"iban": iban, "bic": bic, "isbn": isbn, "issn": issn, "ean": ean,
           "isin": isin, "lei": lei, "luhn": luhn}
VARIANTS = {uuid.RESERVED_NCS: "ncs", uuid.RFC_4122: "rfc4122",
            uuid.RESERVED_MICROSOFT: "microsoft", uuid.RESERVED_FUTURE: "future"}


def reason(e):
    # InvalidLength is an InvalidFormat: test the most specific class first
    for cls, name in ((InvalidLength, "invalid_length"), (InvalidChecksum, "invalid_checksum"),
                      (InvalidComponent, "invalid_component"), (InvalidFormat, "invalid_format")):
        if isinstance(e, cls):
            return name
    raise AssertionError("unexpected %r" % e)


def invalid(why):
    return {"valid": False, "compact": None, "formatted": None, "error": why, "details": None}


def facts(kind, value):
    if kind == "uuid":
        try:
            u = uuid.UUID(value)
        except ValueError:
            # the only message is "badly formed hexadecimal UUID string": tell the
            # length check (32 characters after removing urn:, uuid:, braces and
            # hyphens) from a failed int(s, 16)
            s = value.replace("urn:", "").replace("uuid:", "").strip("{}").replace("-", "")
            return invalid("invalid_length" if len(s) != 32 else "invalid_format")
        return {"valid": True, "compact": u.hex, "formatted": str(u), "error": None,
                "details": {"version": u.version, "variant": VARIANTS[u.variant]}}
    mod = MODULES[kind]
    try:
        checked = mod.validate(value)
    except ValidationError as e:
        return invalid(reason(e))
    compact = mod.compact(value) if hasattr(mod, "compact") else value
    assert compact == checked, (kind, value, compact, checked)
    formatted = mod.format(value) if hasattr(mod, "format") else compact
    details = {}
    if kind == "iban":
        details = {"country": compact[:2], "check_digits": compact[2:4], "bban": compact[4:]}
    elif kind == "isbn":
        details = {"isbn10": isbn.to_isbn10(compact) if compact[:3] != "979" or len(compact) == 10 else None,
                   "isbn13": isbn.to_isbn13(compact)}
    elif kind == "ean":
        details = {"length": len(compact)}
    elif kind == "luhn":
        details = {"check_digit": compact[-1]}
    return {"valid": True, "compact": compact, "formatted": formatted, "error": None, "details": details}


# ---- hand-picked edges -------------------------------------------------------

EDGES = [
    # IBANs of many countries (registry and bank examples), then broken ones
    ("iban", "DE89 3704 0044 0532 0130 00"), ("iban", "DE89370400440532013000"),
    ("iban", "GB82 WEST 1234 5698 7654 32"), ("iban", "gb82west12345698765432"),
    ("iban", "FR14 2004 1010 0505 0001 3M02 606"), ("iban", "NL91ABNA0417164300"),
    ("iban", "BE68 5390 0754 7034"), ("iban", "BE71 0961 2345 6769"), ("iban", "BE68539007547035"),
    ("iban", "ES91 2100 0418 4502 0005 1332"), ("iban", "ES9121000418450200051331"),
    ("iban", "IT60 X054 2811 1010 0000 0123 456"), ("iban", "CH93 0076 2011 6238 5295 7"),
    ("iban", "NO93 8601 1117 947"), ("iban", "NO9386011117948"), ("iban", "NO02 0000 1234 567"),
    ("iban", "ME25 5050 0001 2345 6789 51"), ("iban", "ME25505000012345678952"),
    ("iban", "PL61 1090 1014 0000 0712 1981 2874"), ("iban", "AT61 1904 3002 3457 3201"),
    ("iban", "SA03 8000 0000 6080 1016 7519"), ("iban", "BR18 0036 0305 0000 1000 9795 493C 1"),
    ("iban", "MU17 BOMM 0101 1010 3030 0200 000M UR"), ("iban", "GR16 0110 1250 0000 0001 2300 695"),
    ("iban", "IE29 AIBK 9311 5212 3456 78"), ("iban", "FI21 1234 5600 0007 85"),
    ("iban", "SE45 5000 0000 0583 9825 7466"), ("iban", "DK50 0040 0440 1162 43"),
    ("iban", "LU28 0019 4006 4475 0000"), ("iban", "PT50 0002 0123 1234 5678 9015 4"),
    ("iban", "HU42 1177 3016 1111 1018 0000 0000"), ("iban", "CZ65 0800 0000 1920 0014 5399"),
    ("iban", "DE89-3704-0044-0532-0130-00"), ("iban", "DE89.3704.0044.0532.0130.00"),
    ("iban", " DE89370400440532013000\t"), ("iban", "DE89\u20133704\u20130044\u201305320130\u201300"),
    ("iban", "DE88370400440532013000"), ("iban", "DE8937040044053201300"),
    ("iban", "DE893704004405320130000"), ("iban", "XX89370400440532013000"),
    ("iban", "US64SVBKUS6S3300958879"), ("iban", "DE89_3704_0044_0532_0130_00"),
    ("iban", "GB82WEST1234569876543Z"), ("iban", "GB\u0668\u0662WEST12345698765432"),
    ("iban", "GB\uff18\uff12WEST12345698765432"), ("iban", "\uff27\uff2282WEST12345698765432"),
    ("iban", ""), ("iban", "1"), ("iban", "DE"), ("iban", "DE89"), ("iban", "!!"),
    # BICs
    ("bic", "DEUTDEFF"), ("bic", "deutdeff500"), ("bic", "DEUT DE FF 500"), ("bic", "DEUT-DE-FF"),
    ("bic", "DEUTDEF"), ("bic", "DEUTDEFF5"), ("bic", "DEU1DEFF"), ("bic", "DEUTDEFF50!"),
    ("bic", "deutde\ufb00"), ("bic", "DEUTDE\u00df"), ("bic", "DEUTDEFF\u00df"), ("bic", ""),
    # ISBNs: ISBN-10 with X, ISBN-13 (978 and 979), SBN (9 digits), broken
    ("isbn", "0-8044-2957-X"), ("isbn", "080442957X"), ("isbn", "080442957x"),
    ("isbn", "0-9752298-0-X"), ("isbn", "3-598-21508-X"), ("isbn", "1-4028-9462-7"),
    ("isbn", "0-8044-2957-9"), ("isbn", "978-0-306-40615-7"), ("isbn", "9780306406157"),
    ("isbn", "978 0 306 40615 7"), ("isbn", "978-0-306-40615-8"), ("isbn", "979-10-90636-07-1"),
    ("isbn", "9791090636071"), ("isbn", "979-8-6024-0545-3"), ("isbn", "306406152"),
    ("isbn", "977-1234-5678-9-8"), ("isbn", "9771234567898"), ("isbn", "97803064061X7"),
    ("isbn", "978030640615X"), ("isbn", "0306406152X"), ("isbn", "X"), ("isbn", ""),
    ("isbn", "99921-58-10-7"), ("isbn", "9971-5-0210-0"), ("isbn", "960-425-059-0"),
    ("isbn", "80-902734-1-6"), ("isbn", "85-359-0277-5"), ("isbn", "1-84356-028-3"),
    ("isbn", "0-684-84328-5"), ("isbn", "0-8044-2957\u2010X"),
    # ISSN
    ("issn", "0378-5955"), ("issn", "03785955"), ("issn", "2434-561X"), ("issn", "2434-561x"),
    ("issn", "0378-5954"), ("issn", "0378-595"), ("issn", "X378-5955"), ("issn", ""),
    # EAN / UPC / GTIN
    ("ean", "73513537"), ("ean", "036000291452"), ("ean", "4006381333931"),
    ("ean", "400 6381 33393 1"), ("ean", "10012345678902"), ("ean", "4006381333932"),
    ("ean", "400638133393"), ("ean", "4006381333931a"), ("ean", "12345"), ("ean", ""),
    # ISIN
    ("isin", "US0378331005"), ("isin", "us0378331005"), ("isin", "US 0378 3310 05"),
    ("isin", "AU0000XVGZA3"), ("isin", "GB0002634946"), ("isin", "XS2021471433"),
    ("isin", "US0378331006"), ("isin", "ZZ0378331005"), ("isin", "US03783310"),
    ("isin", "US-0378331005"), ("isin", ""),
    # LEI (stdnum checks ISO 7064 mod 97-10 only: no length check)
    ("lei", "213800D1EI4B9WTWWD28"), ("lei", "5493001KJTIIGC8Y1R12"), ("lei", "5493 001K JTII GC8Y 1R12"),
    ("lei", "5493001kjtiigc8y1r12"), ("lei", "5493001KJTIIGC8Y1R13"), ("lei", "1"), ("lei", "98"),
    ("lei", "\u0665493001KJTIIGC8Y1R12"), ("lei", "5493001KJTIIGC8Y1R1!"), ("lei", ""),
    # Luhn (no compact: the value as given)
    ("luhn", "4111111111111111"), ("luhn", "79927398713"), ("luhn", "79927398710"),
    ("luhn", "0"), ("luhn", "00"), ("luhn", "18"), ("luhn", "4111 1111 1111 1111"),
    ("luhn", " 79927398713"), ("luhn", "\u0667\u0669\u0669\u0662\u0667\u0663\u0669\u0668\u0667\u0661\u0663"),
    ("luhn", "7992739871a"), ("luhn", ""),
    # UUID as uuid.UUID parses it
    ("uuid", "12345678-1234-5678-1234-567812345678"), ("uuid", "{12345678-1234-5678-1234-567812345678}"),
    ("uuid", "urn:uuid:12345678-1234-5678-1234-567812345678"), ("uuid", "12345678123456781234567812345678"),
    ("uuid", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"), ("uuid", "550e8400-e29b-41d4-a716-446655440000"),
    ("uuid", "00000000-0000-0000-0000-000000000000"), ("uuid", "ffffffff-ffff-ffff-ffff-ffffffffffff"),
    ("uuid", "018f4e5a-7b3c-7def-8123-456789abcdef"), ("uuid", "00000000-0000-0000-c000-000000000000"),
    ("uuid", "URN:UUID:12345678-1234-5678-1234-567812345678"), ("uuid", "{{12345678123456781234567812345678}}"),
    ("uuid", "0x345678123456781234567812345678"), ("uuid", "0X_45678123456781234567812345678"),
    ("uuid", "+2345678123456781234567812345678"), ("uuid", " 2345678123456781234567812345678"),
    ("uuid", "1234_678123456781234567812345678"), ("uuid", "1234__78123456781234567812345678"),
    ("uuid", "_234567812345678123456781234567_"), ("uuid", "1234567812345678123456781234567_"),
    ("uuid", "12345678-1234-5678-1234-56781234567"), ("uuid", "12345678-1234-5678-1234-5678123456789"),
    ("uuid", "g2345678-1234-5678-1234-567812345678"), ("uuid", "\u0661234567812345678123456781234567\u0668"),
    ("uuid", "uuid:urn:12345678123456781234567812345678"), ("uuid", "uurn:uid:12345678123456781234567812345678"),
    ("uuid", "{12345678-1234-5678-1234-567812345678"), ("uuid", ""), ("uuid", "1" * 32 + "\u3000"),
]

# ---- seeded random cases -------------------------------------------------------

ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"


def rand_bban(rng, structure):
    out = []
    for n, cls in ((int(a), b) for a, b in (p.split("!") for p in structure.replace("!n", "!n|").replace("!a", "!a|").replace("!c", "!c|").split("|") if p)):
        chars = {"n": DIGITS, "a": LETTERS, "c": ALNUM + "abcdefghijklmnopqrstuvwxyz" if rng.random() < 0.05 else ALNUM}[cls]
        out.append("".join(rng.choice(chars) for _ in range(n)))
    return "".join(out)


def national(rng, cc, bban):
    """Makes bban pass the national checks stdnum adds for BE, ES, ME, NO."""
    from stdnum.es import ccc
    from stdnum.no import kontonr
    if cc == "BE":
        banks = [p for p in numdb.get("be/banks").prefixes]
        lo, hi = rng.choice(banks)[1:3]
        bank = "%03d" % rng.randint(int(lo), int(hi))
        body = bank + bban[3:10]
        return body + "%02d" % (int(body) % 97 or 97)
    if cc == "ES":
        return bban[:8] + ccc.calc_check_digits(bban) + bban[10:]
    if cc == "ME":
        body = bban[:-2]
        return body + mod_97_10.calc_check_digits(body)
    if cc == "NO":
        while True:
            body = bban[:10]
            check = kontonr._calc_check_digit(body)
            if len(check) == 1:
                return body + check
            bban = "".join(rng.choice(DIGITS) for _ in range(11))
    return bban


def gen_iban(rng):
    entries = numdb.get("iban").prefixes
    cc = rng.choice(entries)[1]
    structure = dict((e[1], e[3]) for e in entries)[cc]["bban"]
    bban = rand_bban(rng, structure)
    if rng.random() < 0.9:
        bban = national(rng, cc, bban)
    number = cc + iban.calc_check_digits(cc + "00" + bban) + bban
    return iban.format(number) if rng.random() < 0.4 else number


def gen_bic(rng):
    s = "".join(rng.choice(LETTERS) for _ in range(6)) + "".join(rng.choice(ALNUM) for _ in range(2))
    return s + ("".join(rng.choice(ALNUM) for _ in range(3)) if rng.random() < 0.5 else "")


def gen_isbn(rng):
    r = rng.random()
    if r < 0.4:
        body = "".join(rng.choice(DIGITS) for _ in range(9))
        s = body + isbn._calc_isbn10_check_digit(body)
    else:
        body = rng.choice(["978", "979"]) + "".join(rng.choice(DIGITS) for _ in range(9))
        s = body + ean.calc_check_digit(body)
    if rng.random() < 0.4:
        try:
            s = isbn.format(s)
        except ValidationError:
            pass
    return s


def gen_issn(rng):
    body = "".join(rng.choice(DIGITS) for _ in range(7))
    s = body + issn.calc_check_digit(body)
    return issn.format(s) if rng.random() < 0.5 else s


def gen_ean(rng):
    n = rng.choice([8, 12, 13, 14])
    body = "".join(rng.choice(DIGITS) for _ in range(n - 1))
    return body + ean.calc_check_digit(body)


def gen_isin(rng):
    cc = rng.choice(sorted(isin._country_codes))
    body = cc + "".join(rng.choice(ALNUM if rng.random() < 0.3 else DIGITS) for _ in range(9))
    return body + isin.calc_check_digit(body)


def gen_lei(rng):
    body = "".join(rng.choice(ALNUM if rng.random() < 0.5 else DIGITS) for _ in range(18))
    return body + mod_97_10.calc_check_digits(body)


def gen_luhn(rng):
    body = "".join(rng.choice(DIGITS) for _ in range(rng.randint(1, 19)))
    return body + luhn.calc_check_digit(body)


def gen_uuid(rng):
    u = uuid.UUID(int=rng.getrandbits(128))
    if rng.random() < 0.5:  # mostly RFC 4122 version 1-8
        u = uuid.UUID(int=(u.int & ~(0xF << 76) & ~(0xC000 << 48)) | (rng.randint(1, 8) << 76) | (0x8000 << 48))
    form = rng.random()
    if form < 0.4:
        return str(u)
    if form < 0.55:
        return u.hex
    if form < 0.7:
        return "{%s}" % u
    if form < 0.8:
        return u.urn
    return str(u).upper()


GENERATORS = {"iban": gen_iban, "bic": gen_bic, "isbn": gen_isbn, "issn": gen_issn, "ean": gen_ean,
              "isin": gen_isin, "lei": gen_lei, "luhn": gen_luhn, "uuid": gen_uuid}


def mutate(rng, s):
    """One realistic corruption of s."""
    if not s:
        return s + rng.choice(DIGITS)
    i = rng.randrange(len(s))
    op = rng.randrange(10)
    if op == 0 and s[i].isdigit():  # one digit changed
        return s[:i] + rng.choice(DIGITS.replace(s[i], "")) + s[i + 1:]
    if op == 1 and len(s) > 1:  # two neighbours swapped
        i = min(i, len(s) - 2)
        return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    if op == 2:  # one character dropped
        return s[:i] + s[i + 1:]
    if op == 3:  # one character added
        return s[:i] + rng.choice(ALNUM) + s[i:]
    if op == 4:  # a bad character
        return s[:i] + rng.choice("!/_+*#:;,'xX\u00e9\u2013 .\t") + s[i:]
    if op == 5:  # lower case
        return s.lower()
    if op == 6:  # spaces or hyphens every 4
        sep = rng.choice([" ", "-", "  "])
        return sep.join(s[j:j + 4] for j in range(0, len(s), 4))
    if op == 7:  # surrounding whitespace
        return rng.choice([" ", "\t", "\n", "\u00a0"]) + s + rng.choice(["", " ", "\r\n"])
    if op == 8:  # last character changed
        return s[:-1] + rng.choice(ALNUM)
    return s[:i] + rng.choice(DIGITS) + s[i + 1:]


def main():
    rng = random.Random(20261202)
    inputs = list(EDGES)
    kinds = list(GENERATORS)
    for n in range(720):
        kind = kinds[n % len(kinds)]
        s = GENERATORS[kind](rng)
        r = rng.random()
        if r < 0.45:
            pass
        elif r < 0.9:
            s = mutate(rng, s)
        else:
            s = mutate(rng, mutate(rng, s))
        inputs.append((kind, s))
    cases = []
    seen = set()
    for kind, value in inputs:
        if (kind, value) in seen:
            continue
        seen.add((kind, value))
        assert len(value) <= 256
        f = facts(kind, value)
        cases.append({"name": "%03d %s %r" % (len(cases), kind, value), "args": {"kind": kind, "value": value}, "facts": f})
    valid = sum(c["facts"]["valid"] for c in cases)
    print("%d valid, %d invalid" % (valid, len(cases) - valid))
    write_json("tools/testdata/identifier_validate/oracle_stdnum.json",
               {"generator": record("tools/testdata/oracle/gen_identifier.py", stdnum),
                "edges": len(EDGES), "random": 720, "seed": 20261202, "cases": cases})


if __name__ == "__main__":
    main()
