"""Small exact-arithmetic helpers shared by the oracle generators in this folder."""


def terminates(f):
    """Whether the Fraction f has a finite decimal expansion (its denominator
    has no prime factors other than 2 and 5)."""
    d = f.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1
