#!/usr/bin/env python3
"""Oracle for hash_text, base64_codec and roman_numeral, from Python's hashlib and
base64 and an independent Roman-numeral implementation written here.
Writes tools/testdata/{hash_text,base64_codec,roman_numeral}/oracle.json.
Run from the repo root: python3 tools/testdata/oracle/gen_core.py"""
import base64, binascii, hashlib, json, os, random, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import record  # noqa: E402

rng = random.Random(1994)
ALGS = {"md5": "md5", "sha1": "sha1", "sha224": "sha224", "sha256": "sha256", "sha384": "sha384",
        "sha512": "sha512", "sha3_256": "sha3_256", "sha3_512": "sha3_512", "blake2b": "blake2b", "blake2s": "blake2s"}
TEXTS = ["", "abc", "hello world", "é ü ß 日本 😀", "a" * 1000, "line1\nline2\r\n\t", "\u0000\u001f",
         "The quick brown fox jumps over the lazy dog", "<script>&'\"", "\u2028\u2029"]

def write(tool, cases):
    os.makedirs(f"tools/testdata/{tool}", exist_ok=True)
    with open(f"tools/testdata/{tool}/oracle.json", "w", encoding="utf-8") as f:
        json.dump({"generator": record("tools/testdata/oracle/gen_core.py"), "cases": cases}, f, ensure_ascii=False, indent=0)
    print(tool, len(cases))

# hash_text
cases = []
for text in TEXTS + ["".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0xa0, 0x3000)])) for _ in range(rng.randrange(1, 60))) for _ in range(15)]:
    for alg in ALGS:
        data = text.encode("utf-8")
        cases.append({"args": {"text": text, "algorithm": alg},
                      "facts": {"algorithm": alg, "encoding": "utf-8", "hex": hashlib.new(ALGS[alg], data).hexdigest(), "input_bytes": len(data)}})
for _ in range(40):
    data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40)))
    alg = rng.choice(list(ALGS))
    hx = data.hex()
    if rng.random() < 0.3:
        hx = " ".join(hx[i:i + 2] for i in range(0, len(hx), 2)).upper()
    cases.append({"args": {"text": hx, "algorithm": alg, "encoding": "hex"},
                  "facts": {"algorithm": alg, "encoding": "hex", "hex": hashlib.new(alg, data).hexdigest(), "input_bytes": len(data)}})
    b64 = base64.b64encode(data).decode()
    cases.append({"args": {"text": b64, "algorithm": alg, "encoding": "base64"},
                  "facts": {"algorithm": alg, "encoding": "base64", "hex": hashlib.new(alg, data).hexdigest(), "input_bytes": len(data)}})
for bad in ["abc", "zz", "12 3"]:
    cases.append({"args": {"text": bad, "encoding": "hex"}, "error_code": "tool_execution_error", "reason": "invalid_hex"})
for bad in ["a", "ab$c", "abcde===="]:
    cases.append({"args": {"text": bad, "encoding": "base64"}, "error_code": "tool_execution_error", "reason": "invalid_base64"})
cases.append({"args": {"text": "x", "algorithm": "sha999"}, "error_code": "input_schema_invalid"})
write("hash_text", cases)

# base64_codec
cases = []
for text in TEXTS + ["".join(chr(rng.randrange(32, 0x800)) for _ in range(rng.randrange(0, 30))) for _ in range(40)]:
    data = text.encode("utf-8")
    for variant in ["standard", "urlsafe"]:
        for padding in [True, False]:
            enc = base64.b64encode(data) if variant == "standard" else base64.urlsafe_b64encode(data)
            enc = enc.decode()
            if not padding:
                enc = enc.rstrip("=")
            cases.append({"args": {"text": text, "mode": "encode", "variant": variant, "padding": padding},
                          "facts": {"mode": "encode", "variant": variant, "padding": padding, "result": enc,
                                    "result_encoding": "base64", "input_bytes": len(data), "output_bytes": len(enc)}})
            dec = base64.b64decode(enc + "=" * (-len(enc) % 4), altchars=None if variant == "standard" else b"-_", validate=True)
            cases.append({"args": {"text": enc, "mode": "decode", "variant": variant},
                          "facts": {"mode": "decode", "variant": variant, "padding": True, "result": dec.decode("utf-8"),
                                    "result_encoding": "utf-8", "input_bytes": len(enc), "output_bytes": len(dec)}})
for _ in range(20):
    data = bytes(rng.randrange(128, 256) for _ in range(rng.randrange(1, 20)))
    try:
        data.decode("utf-8"); continue
    except UnicodeDecodeError:
        pass
    enc = base64.b64encode(data).decode()
    cases.append({"args": {"text": enc, "mode": "decode"}, "warnings": ["decoded_not_utf8"],
                  "facts": {"mode": "decode", "variant": "standard", "padding": True, "result": data.hex(),
                            "result_encoding": "hex", "input_bytes": len(enc), "output_bytes": len(data)}})
for bad in ["a", "ab$c", "aGVsbG8===", "aGV sbG8", "_-_-"]:
    cases.append({"args": {"text": bad, "mode": "decode"}, "error_code": "tool_execution_error", "reason": "invalid_base64"})
write("base64_codec", cases)

# roman_numeral: an independent implementation by digit places
ONES = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
TENS = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"]
HUNDREDS = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"]
THOUSANDS = ["", "M", "MM", "MMM"]
def roman(n):
    return THOUSANDS[n // 1000] + HUNDREDS[n // 100 % 10] + TENS[n // 10 % 10] + ONES[n % 10]
canon = {roman(n): n for n in range(1, 4000)}
cases = []
for n in list(range(1, 60)) + sorted(rng.sample(range(60, 4000), 200)) + [3999, 3888, 1994, 2026, 444, 999]:
    form = rng.choice(["int", "str"])
    cases.append({"args": {"value": n if form == "int" else str(n)}, "facts": {"arabic": n, "roman": roman(n), "direction": "to_roman"}})
    r = roman(n)
    sent = rng.choice([r, r.lower(), r.capitalize()])
    cases.append({"args": {"value": sent}, "facts": {"arabic": n, "roman": r, "direction": "from_roman"}})
for bad in ["IIII", "VX", "IC", "IM", "MMMM", "", "XXXX", "VV", "LL", "DD", "IL", "XD", "ABC", "MCMXCIVI", "IIV", "CMC"]:
    assert bad.upper() not in canon
    cases.append({"args": {"value": bad}, "error_code": "tool_execution_error", "reason": "invalid_roman_numeral"})
for bad in [0, 4000, -1, "0", "4000", 100000]:
    cases.append({"args": {"value": bad}, "error_code": "tool_execution_error", "reason": "out_of_range"})
write("roman_numeral", cases)
