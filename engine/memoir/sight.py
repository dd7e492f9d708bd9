"""Line of sight (E-11) with Memoir's edge rule.

The geometry comes from :mod:`engine.core.hexgrid`: :func:`hexes_crossed` gives the hexes
whose interior the centre-to-centre segment enters.  Memoir adds the hexes the segment
only *touches* (it runs along one of their edges or through one of their corners): moving
the whole segment a tiny ε to one side enters exactly the touched hexes on that side
(and still crosses every crossed hex).  So (E-11.4) sight is blocked when a crossed hex
blocks, or when a touched hex on *each* side blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.core.hexgrid import CORNERS3, Hex, hexes_crossed
from engine.memoir.board import hex_key


@dataclass(frozen=True)
class Segment:
    """The hexes between two hex centres, relative to nothing: absolute hexes."""

    crossed: frozenset[Hex]
    left: frozenset[Hex]  # touched on one side
    right: frozenset[Hex]  # touched on the other side


@lru_cache(maxsize=8192)
def _relative(dq: int, dr: int) -> tuple[frozenset[Hex], frozenset[Hex], frozenset[Hex]]:
    origin, end = Hex(0, 0), Hex(dq, dr)
    crossed = hexes_crossed(origin, end)
    dx, dy = 3 * dq, 3 * dr
    length2 = dx * dx + dy * dy
    left: set[Hex] = set()
    right: set[Hex] = set()
    ds = -dq - dr
    for q in range(min(0, dq) - 1, max(0, dq) + 2):
        for r in range(min(0, dr) - 1, max(0, dr) + 2):
            if not min(0, ds) - 1 <= -q - r <= max(0, ds) + 1:
                continue
            h = Hex(q, r)
            if h in crossed or h == origin or h == end:
                continue
            touches = False
            for cx, cy in CORNERS3:
                px, py = 3 * q + cx, 3 * r + cy
                if dx * py - dy * px == 0 and 0 <= px * dx + py * dy <= length2:
                    touches = True
                    break
            if not touches:
                continue
            side = dx * (3 * r) - dy * (3 * q)
            if side > 0:
                left.add(h)
            elif side < 0:
                right.add(h)
    return crossed, frozenset(left), frozenset(right)


def segment(a: Hex, b: Hex) -> Segment:
    d = b - a
    crossed, left, right = _relative(d.q, d.r)
    if a == b:
        return Segment(frozenset(), frozenset(), frozenset())
    return Segment(frozenset(a + h for h in crossed), frozenset(a + h for h in left),
                   frozenset(a + h for h in right))


def blocked_by(a: Hex, b: Hex, blocks: set[Hex] | frozenset[Hex]) -> tuple[Hex, ...]:
    """E-11.4: the obstructions that block sight from ``a`` to ``b`` (empty = clear).

    ``blocks`` holds the hexes that obstruct (units, blocking terrain); ``a`` and ``b``
    themselves never count (E-11.1).  Crossed obstructions always block; touched ones
    block only when there are some on both sides, and then all of them are named."""
    seg = segment(a, b)
    found = [h for h in seg.crossed if h in blocks]
    left = [h for h in seg.left if h in blocks]
    right = [h for h in seg.right if h in blocks]
    if left and right:
        found += left + right
    return tuple(sorted(found, key=hex_key))
