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


def binomial(n: int, p: N) -> list[N]:
    """Distribution of the number of successes among ``n`` independent tries of chance ``p``."""
    q = 1 - p
    return [math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]


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
