#!/usr/bin/env python3
"""Oracle for Base64 decoding in base64_codec and hash_text (encoding: base64),
from Python's base64.b64decode(validate=True) (binascii strict mode).

The contract's decoding is Python's strict decoding of the text after removing
CR and LF, with two additions the contract promises: missing padding is
accepted (a final group of 2 or 3 characters without '='), and the urlsafe
variant's alphabet is exactly A-Z a-z 0-9 - _ (Python's urlsafe_b64decode would
also take + and /). Non-zero trailing bits are ignored, as Python ignores them
("QR==" is b'A').

Writes tools/testdata/base64_codec/python_decode.json and
tools/testdata/hash_text/python_base64.json (golden cases).
Run from the repository root: python3 tools/testdata/oracle/gen_base64.py
"""
import base64
import binascii
import hashlib
import json
import os
import random
import sys

rng = random.Random(14)
STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def contract_decode(text, variant):
    """The bytes the contract's decoding gives, or None for a refusal."""
    s = text.replace("\r", "").replace("\n", "")
    if variant == "urlsafe":
        if "+" in s or "/" in s:
            return None
        s = s.replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(s, validate=True)
    except ValueError as e:  # binascii.Error, or a non-ASCII character
        if str(e) == "Incorrect padding" and "=" not in s and len(s) % 4 in (2, 3):
            return base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
        return None


def with_trailing_bits(data, variant):
    """The padded encoding of data with its unused trailing bits set non-zero."""
    enc = base64.b64encode(data).decode()
    rest = len(data) % 3
    if rest:
        body = enc.rstrip("=")
        last = STD.index(body[-1])
        unused = 0b1111 if rest == 1 else 0b11
        last |= rng.randint(1, unused)
        enc = body[:-1] + STD[last] + enc[len(body):]
    if variant == "urlsafe":
        enc = enc.replace("+", "-").replace("/", "_")
    return enc


def sprinkle_breaks(text):
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        chars.insert(rng.randint(0, len(chars)), rng.choice(["\n", "\r\n", "\r"]))
    return "".join(chars)


codec, hashes = [], []


def add(text, variant="standard"):
    data = contract_decode(text, variant)
    args = {"text": text, "mode": "decode", "variant": variant}
    name = f"{variant} {text!r}"[:80]
    if data is None:
        codec.append({"name": name, "args": args, "error_code": "tool_execution_error", "reason": "invalid_base64"})
    else:
        facts = {"mode": "decode", "variant": variant, "padding": True, "output_bytes": len(data),
                 "input_bytes": len(text.replace("\r", "").replace("\n", ""))}
        case = {"name": name, "args": args, "facts": facts}
        try:
            facts.update(result=data.decode("utf-8"), result_encoding="utf-8")
            case["warnings"] = []
        except UnicodeDecodeError:
            facts.update(result=data.hex(), result_encoding="hex")
            case["warnings"] = ["decoded_not_utf8"]
        codec.append(case)
    if variant == "standard":
        hargs = {"text": text, "algorithm": "sha256", "encoding": "base64"}
        if data is None:
            hashes.append({"name": name, "args": hargs, "error_code": "tool_execution_error", "reason": "invalid_base64"})
        else:
            hashes.append({"name": name, "args": hargs, "facts": {"algorithm": "sha256", "encoding": "base64",
                           "hex": hashlib.sha256(data).hexdigest(), "input_bytes": len(data)}})


# The case and every trailing-bit pattern of a one- and two-byte tail.
add("QR==")
for c in STD:
    add("Q" + c + "==")
    add("QU" + c + "=")
for variant in ["standard", "urlsafe"]:
    for n in range(1, 40):
        data = bytes(rng.randrange(256) for _ in range(n))
        enc = with_trailing_bits(data, variant)
        add(enc, variant)
        add(enc.rstrip("="), variant)           # padding omitted
        add(sprinkle_breaks(enc), variant)      # CR/LF anywhere
# Refusals: each of Python's strict-mode errors, and what the contract adds.
for text in ["=", "==", "====", "=QQ", "\n=QQ==",                    # leading padding
             "Q=Q=", "QQ=Q", "QUJD=Q", "QQ=\nQ",                     # data after padding
             "QQ===", "QQ==QUJD", "QUI==",                           # excess data after padding
             "Q", "QUJDR", "QUJDR=", "QUJDRA=Q",                     # one character too many
             "QQ=", "QUJDRA=", "\n\nQQ=\n",                          # incomplete padding
             "QQ= =", "QQ==\t", " QQ==", "ab$c", "QQé=", "Q\u00a0Q==",  # not in the alphabet
             "-_-_", "a+b/", "QUJD\x00"]:
    add(text)
for text in ["+/+/", "QQ==", "-_-_", "QR", "Q=Q=", "a-b_"]:
    add(text, "urlsafe")
# Accepted although unusual, as Python accepts them.
for text in ["", "\r\n", "QUJD=", "QUJD==", "QUJD===", "QUJ=", "QUJDRA==", "QUJDRA", "QUJDRA\r\n=\r\n="]:
    add(text)


def write(path, cases):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    doc = {"about": "Python base64.b64decode(validate=True) after removing CR/LF, missing padding accepted; "
                    "written by tools/testdata/oracle/gen_base64.py", "python": sys.version.split()[0],
           "cases": cases}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(path, len(cases))


write("tools/testdata/base64_codec/python_decode.json", codec)
write("tools/testdata/hash_text/python_base64.json", hashes)
