"""The strike pass's spans (engine.odds.aa_strike_kernel, issue 19 speed): every spread
of a mass goes over a *rung*, the span of the least power of two at least the mass.
What the pass and its chances backward rely on: a rung holds every outcome whose
product with the mass reaches TINY (nothing above TINY is left out), keeps none below
TINY / 2 (below a mass of 1), grows with the mass (the chances backward pulls each
tag over the rung of a mass at least the tag's, so it meets every outcome step 4
spread), and leaves out exactly the chance it says (the error bound)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine.odds.aa_battle import TINY
from engine.odds.aa_strike import _dist_table
from engine.odds.aa_strike_kernel import LADDER, _rung, _span, rung_bits, span_ladder
from engine.odds.dist import hits_distribution


def _dists() -> tuple[np.ndarray, ...]:
    """Hit distributions as the pass's tables hold them: by number of dice rolled,
    fighters at 3 and bombers at 4 (a struck air force's shape), up to 85 dice."""
    rows = [hits_distribution([(3, n - n // 5), (4, n // 5)], 1.0) for n in range(86)]
    return _dist_table(rows)


def _exact(dist: tuple[np.ndarray, ...], kk: int, m: float) -> tuple[int, int]:
    lo, hi, _ = _span(dist[0], dist[4], dist[5], kk, m, TINY)
    return lo, hi


MASSES = [0.0, 1e-30, TINY / 3, TINY, 2 * TINY, 1e-18, 3.7e-15, 1e-9, 0.001, 0.25, 0.5, 0.75, 1.0, 1.5, 40.0]


@pytest.mark.parametrize("m", MASSES + [random.Random(7).uniform(0, 1) ** 12 for _ in range(40)])
def test_a_rung_holds_the_exact_span_and_nothing_below_half_of_tiny(m: float) -> None:
    dist = _dists()
    ladder = span_ladder(dist, TINY)
    bits = rung_bits()
    table = dist[0]
    for kk in range(table.shape[0]):
        lo, hi, _ = _rung(ladder, kk, m, bits)
        e_lo, e_hi = _exact(dist, kk, m)
        if e_hi >= e_lo:  # every product of TINY or more is in the rung
            assert lo <= e_lo and hi >= e_hi, (kk, m, (lo, hi), (e_lo, e_hi))
        if hi >= lo and m < 1.0:
            products = m * table[kk, lo : hi + 1]
            assert products.min() >= TINY / 2, (kk, m, products.min())
        if m == 0.0:
            assert hi < lo  # no mass: nothing spread


def test_rungs_grow_with_the_mass() -> None:
    dist = _dists()
    ladder = span_ladder(dist, TINY)
    bits = rung_bits()
    masses = sorted(MASSES[1:] + [random.Random(3).uniform(0, 2) ** 9 for _ in range(60)])
    for kk in range(dist[0].shape[0]):
        spans = [_rung(ladder, kk, m, bits)[:2] for m in masses]
        for (lo0, hi0), (lo1, hi1) in zip(spans, spans[1:]):
            if hi0 >= lo0:
                assert lo1 <= lo0 and hi1 >= hi0, (kk, (lo0, hi0), (lo1, hi1))


def test_what_a_rung_leaves_out_is_the_chance_outside_it() -> None:
    """With the dice outcomes cut (below CUT, some of these rows have them): the error
    bound's share of a spread."""
    dist = _dists()
    table, cut = dist[0], dist[3]
    assert (cut > 0).any()
    ladder = span_ladder(dist, TINY)
    bits = rung_bits()
    for kk in range(table.shape[0]):
        for m in MASSES[1:]:
            lo, hi, left = _rung(ladder, kk, m, bits)
            if hi >= lo:  # outcome 0 (no hit) is a stay, apart
                outside = float(table[kk, 1:lo].sum() + table[kk, hi + 1 :].sum())
            else:
                outside = float(table[kk, 1:].sum())
            # (from cumulative chances near 1: ~1e-16 off; a mass of 1 or more takes every
            # outcome, so it leaves out the cut alone, exactly)
            assert left == pytest.approx(cut[kk] + outside, abs=1e-15), (kk, m)
            if m >= 1.0:
                assert left == pytest.approx(cut[kk], rel=1e-12, abs=1e-300), (kk, m)


def test_the_exponent_read_from_the_bits_is_frexps() -> None:
    """The rung index comes from the mass's exponent bits: the least power of two above
    the mass, 2^e as ``math.frexp`` gives it, is rung 1 - e (rung 0 at a mass of 1 or
    more, the last rung for the least masses)."""
    dist = _dists()
    ladder = span_ladder(dist, TINY)
    bits = rung_bits()
    kk = 60
    for m in [2.0**-e * f for e in range(0, LADDER + 3) for f in (0.5, 0.75, 1.0)] + [3.0, 1e-300, 5e-324]:
        j = min(max(1 - math.frexp(m)[1], 0), LADDER)
        lo, hi, left = _rung(ladder, kk, m, bits)
        assert (lo, hi, left) == (ladder[0][kk, j], ladder[1][kk, j], ladder[2][kk, j]), m
