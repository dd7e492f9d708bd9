"""Exact probability distributions of dice: binomials, convolutions, hit counts.

Every function works on one number type, chosen by the caller: ``float`` for speed or
:class:`fractions.Fraction` for exact rationals (tests, small battles, ``--exact``).
The type is given by a *unit* value (``1.0`` or ``Fraction(1)``) passed in; no sampling
anywhere.  A distribution is a list ``d`` where ``d[k]`` is the probability of ``k``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import repeat
from operator import add, mul
from typing import Iterable, Sequence, TypeVar

N = TypeVar("N", float, Fraction)


def die_chance(target: int, unit: N, sides: int = 6) -> N:
    """Chance that one die shows ``target`` or less (A&A: a die ≤ the value hits)."""
    hits = min(max(target, 0), sides)
    return unit * hits / sides


# Tries beyond which a float binomial is built from its mode (binomial_from_mode): the
# plain formula's ``comb(n, k)`` passes the largest float from ~1,030 tries on.
PLAIN_MOST = 1000


def binomial(n: int, p: N) -> list[N]:
    """Distribution of the number of successes among ``n`` independent tries of chance ``p``."""
    if isinstance(p, float) and n > PLAIN_MOST:
        return binomial_from_mode(n, p)
    q = 1 - p
    return [math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]


def binomial_from_mode(n: int, p: float) -> list[float]:
    """:func:`binomial` in floats for any number of tries: 1 at the mode, each
    neighbour from the one nearer it by the ratio of consecutive terms, then divided by
    the sum.  Nothing overflows (every term is at most the mode's) and the terms that
    matter never underflow, where ``q ** n`` (the first term) does from a few thousand
    dice on; the far tails are 0, as they should be (only the terms down to the smallest
    float are worked out, so thousands of dice cost a few hundred steps)."""
    if p <= 0.0 or p >= 1.0:
        return [1.0 if k == (n if p >= 1.0 else 0) else 0.0 for k in range(n + 1)]
    q = 1.0 - p
    mode = min(n, int((n + 1) * p))
    up = [1.0]  # P(mode), P(mode + 1) ...: P(k + 1) / P(k) = (n - k) p / ((k + 1) q)
    for k in range(mode, n):
        x = up[-1] * (n - k) * p / ((k + 1) * q)
        if x == 0.0:
            break
        up.append(x)
    down: list[float] = []  # P(mode - 1), P(mode - 2) ...: P(k - 1) / P(k) = k q / ((n - k + 1) p)
    x = 1.0
    for k in range(mode, 0, -1):
        x = x * k * q / ((n - k + 1) * p)
        if x == 0.0:
            break
        down.append(x)
    total = math.fsum(down) + math.fsum(up)
    out = [0.0] * (n + 1)
    lo = mode - len(down)
    out[lo : mode + len(up)] = [x / total for x in (*reversed(down), *up)]
    return out


def convolve(a: Sequence[N], b: Sequence[N]) -> list[N]:
    """Distribution of the sum of two independent counts."""
    if len(a) < len(b):
        a, b = b, a
    zero = a[0] - a[0]
    out = [zero] * (len(a) + len(b) - 1)
    la = len(a)
    for k, y in enumerate(b):
        if y:
            out[k : k + la] = map(add, out[k : k + la], map(mul, a, repeat(y)))
    return out


def hits_distribution(groups: Iterable[tuple[int, int]], unit: N, sides: int = 6) -> list[N]:
    """Hits scored by dice grouped as ``(target number, number of dice)``.

    Dice with the same target number are pooled into one binomial, then the binomials
    are convolved.  No dice gives ``[1]`` (certainly no hit)."""
    pooled: dict[int, int] = {}
    for target, count in groups:
        target = min(target, sides)
        if target <= 0 or count <= 0:
            continue
        pooled[target] = pooled.get(target, 0) + count
    out: list[N] = [unit]
    for target in sorted(pooled):
        p = die_chance(target, unit, sides)
        if target >= sides:  # every die hits
            out = [unit - unit] * pooled[target] + out
        else:
            out = convolve(out, binomial(pooled[target], p))
    return out




def low_luck_distribution(groups: Iterable[tuple[int, int]], unit: N, sides: int = 6) -> list[N]:
    """Hits under low luck: the dice's combat values are added up; every full ``sides``
    is a sure hit and the rest is one die that hits on the remainder or less."""
    total = sum(min(t, sides) * c for t, c in groups if t > 0 and c > 0)
    sure, rest = divmod(total, sides)
    zero = unit - unit
    if not rest:
        return [zero] * sure + [unit]
    p = unit * rest / sides
    return [zero] * sure + [unit - p, p]


def fire_distribution(groups: Iterable[tuple[int, int]], unit: N, low_luck: bool = False) -> list[N]:
    """Hits of a side's dice: ordinary dice, or low luck when the battle is played so."""
    return low_luck_distribution(groups, unit) if low_luck else hits_distribution(groups, unit)
