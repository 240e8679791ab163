#!/usr/bin/env python3
"""Oracle for gcd_lcm: math.gcd / math.lcm on random and edge integers in [-10^18, 10^18].
Writes tools/testdata/gcd_lcm/oracle.json. Run from the repo root."""
import json, math, os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numgen import gcd_pairs
pairs = gcd_pairs(random.Random(391299), 300)
cases = []
for i, (a, b) in enumerate(pairs):
    op = ["gcd", "lcm", "both"][i % 3]
    g = math.gcd(a, b)
    l = 0 if a == 0 or b == 0 else abs(a * b) // g
    cases.append({"name": f"oracle {i}", "args": {"a": a, "b": b, "operation": op},
                  "facts": {"a": a, "b": b, "operation": op, "gcd": g, "lcm": l}})
from versions import record  # noqa: E402
json.dump({"generator": record("tools/testdata/oracle/gen_gcd.py"), "cases": cases}, open("tools/testdata/gcd_lcm/oracle.json", "w"), indent=0)
print(len(cases))
