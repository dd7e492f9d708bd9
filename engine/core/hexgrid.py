"""Axial hex coordinates, player-facing labels, and exact hex geometry.

Inside the engine every hex is an axial ``Hex(q, r)`` (Red Blob Games' convention,
``s = -q - r``).  Players see labels such as ``F7``; a :class:`Labels` object, defined
once per board, converts between the two.

Geometry is done in axial space itself, which is an affine image of the drawn board:
incidence (is a point inside a hexagon, does a segment enter it, is a point inside a
wedge) survives affine maps, so every test here is exact integer/rational arithmetic
and does not depend on whether the board is drawn flat-top or pointy-top.
All coordinates used for geometry are multiplied by 3 so hex corners are integers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Iterator

from engine.core.errors import NotationError


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One hex in axial coordinates."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def neighbour(self, direction: int) -> Hex:
        return self + DIRECTIONS[direction % 6]

    def neighbours(self) -> tuple[Hex, ...]:
        return tuple(self + d for d in DIRECTIONS)

    def direction_to(self, other: Hex) -> int:
        """The direction index of an adjacent hex (raises ValueError if not adjacent)."""
        return DIRECTIONS.index(other - self)

    def ring(self, radius: int) -> Iterator[Hex]:
        if radius == 0:
            yield self
            return
        h = self + Hex(DIRECTIONS[4].q * radius, DIRECTIONS[4].r * radius)
        for side in range(6):
            for _ in range(radius):
                yield h
                h = h.neighbour(side)

    def within(self, radius: int) -> Iterator[Hex]:
        for k in range(radius + 1):
            yield from self.ring(k)


# Direction i is the hexside shared with neighbour(i).  On a flat-top board
# (x grows with q, y grows downwards with r + q/2) these are SE, NE, N, NW, SW, S;
# on a pointy-top board E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))
FLAT_DIRECTION_NAMES: tuple[str, ...] = ("SE", "NE", "N", "NW", "SW", "S")
POINTY_DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

# Hex corners relative to the centre, in axial space scaled by 3.  Corner k lies
# between sides (6-k)%6 and (7-k)%6; side d runs from CORNERS3[(6-d)%6] to CORNERS3[(7-d)%6].
CORNERS3: tuple[tuple[int, int], ...] = ((2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2))


def side_corners3(direction: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two corners (scaled by 3, relative to the centre) of hexside ``direction``."""
    d = direction % 6
    return CORNERS3[(6 - d) % 6], CORNERS3[(7 - d) % 6]


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


# --------------------------------------------------------------------------- labels


def column_letters(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA (spreadsheet style)."""
    if index < 0:
        raise ValueError(f"negative column {index}")
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def column_index(letters: str) -> int:
    value = 0
    for ch in letters.upper():
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


_LABEL = re.compile(r"^\s*([A-Za-z]{1,2})\s*(\d{1,3})\s*$")


@dataclass(frozen=True, slots=True)
class Labels:
    """Offset (column letter, row number) labels for one board shape.

    ``flat=True``: flat-top hexes in vertical columns; every odd column (B, D, …) is
    shifted half a hex down ("odd-q").  ``flat=False``: pointy-top hexes in rows; every
    odd row (2, 4, …) is shifted half a hex right ("odd-r").  Column A / row 1 is the
    top-left hex.
    """

    flat: bool = True

    def to_offset(self, h: Hex) -> tuple[int, int]:
        if self.flat:
            return h.q, h.r + (h.q - (h.q & 1)) // 2
        return h.q + (h.r - (h.r & 1)) // 2, h.r

    def from_offset(self, col: int, row: int) -> Hex:
        if self.flat:
            return Hex(col, row - (col - (col & 1)) // 2)
        return Hex(col - (row - (row & 1)) // 2, row)

    def label(self, h: Hex) -> str:
        col, row = self.to_offset(h)
        if col < 0 or row < 0:
            return f"({h.q},{h.r})"
        return f"{column_letters(col)}{row + 1}"

    def parse(self, text: str) -> Hex:
        m = _LABEL.match(text)
        if not m:
            raise NotationError(
                f"'{text}' is not a hex label", legal=("a column letter then a row number, e.g. F7",)
            )
        return self.from_offset(column_index(m.group(1)), int(m.group(2)) - 1)

    @property
    def direction_names(self) -> tuple[str, ...]:
        return FLAT_DIRECTION_NAMES if self.flat else POINTY_DIRECTION_NAMES

    def direction_name(self, direction: int) -> str:
        return self.direction_names[direction % 6]

    def parse_direction(self, text: str) -> int:
        names = self.direction_names
        key = text.strip().upper()
        if key in names:
            return names.index(key)
        raise NotationError(f"'{text}' is not a facing", legal=names)


# --------------------------------------------------------------------------- geometry


def _hex_interior_hit(p0: tuple[int, int], d: tuple[int, int], centre: tuple[int, int]) -> bool:
    """Does the segment p0 → p0+d (scaled-by-3 coordinates) enter the open interior of
    the hexagon around ``centre``?  Cyrus–Beck clipping against the closed hexagon,
    then an exact strict-inside test of the clipped piece's midpoint: a piece that only
    runs along an edge or touches a corner has its midpoint on the boundary."""
    lo, hi = Fraction(0), Fraction(1)
    cx, cy = centre
    for k in range(6):
        ax, ay = CORNERS3[k]
        bx, by = CORNERS3[(k + 1) % 6]
        ex, ey = bx - ax, by - ay
        # CORNERS3 runs with the interior on the side where cross(edge, x - a) > 0.
        a = _cross(ex, ey, p0[0] - (cx + ax), p0[1] - (cy + ay))
        b = _cross(ex, ey, d[0], d[1])
        if b == 0:
            if a < 0:
                return False
            continue
        t = Fraction(-a, b)
        if b > 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo >= hi:
            return False
    mid = (lo + hi) / 2
    mx, my = p0[0] + d[0] * mid, p0[1] + d[1] * mid
    for k in range(6):
        ax, ay = CORNERS3[k]
        bx, by = CORNERS3[(k + 1) % 6]
        if (bx - ax) * (my - (cy + ay)) - (by - ay) * (mx - (cx + ax)) <= 0:
            return False
    return True


@lru_cache(maxsize=65536)
def _crossed_from_origin(dq: int, dr: int) -> frozenset[Hex]:
    """Hexes (other than the two end hexes) whose interior the centre-to-centre segment
    from Hex(0, 0) to Hex(dq, dr) enters."""
    end = Hex(dq, dr)
    ds = -dq - dr
    out: set[Hex] = set()
    for q in range(min(0, dq) - 1, max(0, dq) + 2):
        for r in range(min(0, dr) - 1, max(0, dr) + 2):
            s = -q - r
            if not (min(0, ds) - 1 <= s <= max(0, ds) + 1):
                continue
            h = Hex(q, r)
            if h == end or (q == 0 and r == 0):
                continue
            if _hex_interior_hit((0, 0), (3 * dq, 3 * dr), (3 * q, 3 * r)):
                out.add(h)
    return frozenset(out)


def hexes_crossed(a: Hex, b: Hex) -> frozenset[Hex]:
    """Every hex, other than ``a`` and ``b``, whose interior the straight segment between
    the two centres passes through.  A segment that runs exactly along a hexside or
    touches a corner does not cross the hexes on either side there (M-10.2)."""
    delta = b - a
    return frozenset(a + h for h in _crossed_from_origin(delta.q, delta.r))


def line_blocked_by(a: Hex, b: Hex, blocking: Iterable[Hex] | frozenset[Hex]) -> tuple[Hex, ...]:
    """The blocking hexes that stand between ``a`` and ``b`` (sorted), end hexes ignored."""
    block = blocking if isinstance(blocking, (set, frozenset)) else frozenset(blocking)
    return tuple(sorted(h for h in hexes_crossed(a, b) if h in block))


def in_front_arc(origin: Hex, facing: int, target: Hex) -> bool:
    """M-7.9: is ``target``'s centre inside the closed 60° wedge that opens from
    ``origin``'s centre through the two corners of hexside ``facing``?  The origin hex
    itself is never in front (attacks from the same hex use rear defense)."""
    if target == origin:
        return False
    (ux, uy), (wx, wy) = side_corners3(facing)
    px, py = 3 * (target.q - origin.q), 3 * (target.r - origin.r)
    sign = _cross(ux, uy, wx, wy)  # positive for our corner order; kept general
    return _cross(ux, uy, px, py) * sign >= 0 and _cross(px, py, wx, wy) * sign >= 0


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """A shortest chain of hexes from ``a`` to ``b`` (cube lerp with a fixed nudge);
    used for drawing and default paths, never for line of sight."""
    n = a.distance(b)
    if n == 0:
        return [a]
    out: list[Hex] = []
    for i in range(n + 1):
        t = Fraction(i, n)
        q = a.q + (b.q - a.q) * t + Fraction(1, 1000000)
        r = a.r + (b.r - a.r) * t + Fraction(2, 1000000)
        out.append(cube_round(q, r))
    return out


def cube_round(q: float | Fraction, r: float | Fraction) -> Hex:
    """The hex containing the fractional axial point (q, r) (Red Blob's cube rounding;
    a point exactly on an edge goes to one of the two hexes)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))
