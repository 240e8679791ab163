#!/usr/bin/env python3
"""Oracle for gcd_lcm: math.gcd / math.lcm on random and edge integers in [-10^18, 10^18].
Writes tools/testdata/gcd_lcm/oracle.json. Run from the repo root."""
import json, math, random
rng = random.Random(391299)
L = 10**18
edge = [0, 1, -1, L, -L, L - 1, 2**59, -(2**59), 999999999999999989, 600851475143]
pairs = [(a, b) for a in edge for b in edge]
for _ in range(300):
    k = rng.randrange(4)
    if k == 0:
        a, b = rng.randrange(-L, L + 1), rng.randrange(-L, L + 1)
    elif k == 1:
        g = rng.randrange(1, 10**6)
        a, b = g * rng.randrange(-10**12, 10**12), g * rng.randrange(-10**12, 10**12)
    elif k == 2:
        a, b = rng.randrange(-1000, 1000), rng.randrange(-1000, 1000)
    else:
        a = rng.randrange(-L, L + 1); b = a // rng.choice([1, 2, 3, 7, -5])
    pairs.append((a, b))
cases = []
for i, (a, b) in enumerate(pairs):
    op = ["gcd", "lcm", "both"][i % 3]
    g = math.gcd(a, b)
    l = 0 if a == 0 or b == 0 else abs(a * b) // g
    cases.append({"name": f"oracle {i}", "args": {"a": a, "b": b, "operation": op},
                  "facts": {"a": a, "b": b, "operation": op, "gcd": g, "lcm": l}})
json.dump({"cases": cases}, open("tools/testdata/gcd_lcm/oracle.json", "w"), indent=0)
print(len(cases))
