"""Random inputs shared by the number oracles and the reference-vector generator
(tools/testdata/reference/gen_numbers.py). Every function takes the caller's
seeded random.Random, so each generator stays reproducible."""


def rand_dec(rng, int_digits=None, frac_digits=None, neg=None):
    """A canonical decimal string: int_digits integer digits (1-48), frac_digits
    fractional digits (0-24), negative with probability 0.3 unless neg is given."""
    if int_digits is None:
        int_digits = rng.randint(1, 48)
    if frac_digits is None:
        frac_digits = rng.randint(0, 24)
    s = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(int_digits - 1))
    if int_digits == 1 and rng.random() < 0.3:
        s = "0"
    if frac_digits:
        s += "." + "".join(rng.choice("0123456789") for _ in range(frac_digits))
    if neg is None:
        neg = rng.random() < 0.3
    return "-" + s if neg else s


LIMIT = 10 ** 18
EDGE_INTS = [0, 1, -1, LIMIT, -LIMIT, LIMIT - 1, 2 ** 59, -(2 ** 59), 999999999999999989, 600851475143]


def gcd_pairs(rng, count):
    """Every pair of EDGE_INTS, then count random pairs in [-10^18, 10^18]: uniform,
    with a large common factor, small, and one a fraction of the other."""
    pairs = [(a, b) for a in EDGE_INTS for b in EDGE_INTS]
    for _ in range(count):
        k = rng.randrange(4)
        if k == 0:
            a, b = rng.randrange(-LIMIT, LIMIT + 1), rng.randrange(-LIMIT, LIMIT + 1)
        elif k == 1:
            g = rng.randrange(1, 10 ** 6)
            a, b = g * rng.randrange(-10 ** 12, 10 ** 12), g * rng.randrange(-10 ** 12, 10 ** 12)
        elif k == 2:
            a, b = rng.randrange(-1000, 1000), rng.randrange(-1000, 1000)
        else:
            a = rng.randrange(-LIMIT, LIMIT + 1)
            b = a // rng.choice([1, 2, 3, 7, -5])
        pairs.append((a, b))
    return pairs
