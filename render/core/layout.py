"""Hex ↔ pixel maths for drawing boards (Red Blob Games' layout, kept apart from the
engine's axial ``Hex`` as in hexutil).

Axial coordinates map to pixels by one linear map plus an origin.  Flat-top boards
(A&A Miniatures): ``x = R·3/2·q``, ``y = R·√3·(r + q/2)`` — x grows with q, y grows
downwards, so direction indexes 0…5 are SE, NE, N, NW, SW, S.  Pointy-top boards:
``x = R·√3·(q + r/2)``, ``y = R·3/2·r``.

Both orientations are used: A&A Miniatures boards are flat-top (columns), Memoir '44's
is pointy-top (rows of 13 and 12 hexes, :func:`offset_hexes` with ``short_shifted``).

Corners and hexsides are derived from :data:`engine.core.hexgrid.CORNERS3` (the corners
in axial space, scaled by 3) through the same linear map, so the hexside the engine
calls ``d`` is exactly the segment drawn for ``d``, and line-of-sight pictures agree
with the engine's exact geometry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from engine.core.hexgrid import CORNERS3, Hex, Labels, cube_round, side_corners3

Point = tuple[float, float]
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class HexLayout:
    """Pixel geometry of one board: hex ``radius`` (centre to corner, px), the pixel
    position of ``Hex(0, 0)``'s centre, and the orientation."""

    radius: float
    origin: Point = (0.0, 0.0)
    flat: bool = True

    # ------------------------------------------------------------------ the linear map
    def _matrix(self) -> tuple[float, float, float, float]:
        """(a, b, c, d) with x = a·q + b·r, y = c·q + d·r (before the origin)."""
        R = self.radius
        if self.flat:
            return 1.5 * R, 0.0, SQRT3 / 2 * R, SQRT3 * R
        return SQRT3 * R, SQRT3 / 2 * R, 0.0, 1.5 * R

    def axial_to_pixel(self, q: float, r: float) -> Point:
        a, b, c, d = self._matrix()
        return self.origin[0] + a * q + b * r, self.origin[1] + c * q + d * r

    def pixel_to_axial(self, x: float, y: float) -> tuple[float, float]:
        """The fractional axial coordinates of a pixel (inverse of the linear map)."""
        a, b, c, d = self._matrix()
        det = a * d - b * c
        px, py = x - self.origin[0], y - self.origin[1]
        return (d * px - b * py) / det, (-c * px + a * py) / det

    # ------------------------------------------------------------------ hexes
    def centre(self, h: Hex) -> Point:
        return self.axial_to_pixel(h.q, h.r)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing pixel (x, y) (cube rounding; a point exactly on an edge
        goes to one of the two hexes)."""
        return cube_round(*self.pixel_to_axial(x, y))

    def corner_offsets(self) -> tuple[Point, ...]:
        """The six corners relative to a centre, in the engine's CORNERS3 order."""
        a, b, c, d = self._matrix()
        return tuple((a * u / 3 + b * v / 3, c * u / 3 + d * v / 3) for u, v in CORNERS3)

    def corners(self, h: Hex, *, inset: float = 0.0) -> list[Point]:
        """The six corners of ``h``; ``inset`` pulls them towards the centre by that
        many pixels (measured along the corner direction)."""
        cx, cy = self.centre(h)
        k = 1.0 - inset / self.radius if inset else 1.0
        return [(cx + ox * k, cy + oy * k) for ox, oy in self.corner_offsets()]

    def side(self, h: Hex, direction: int) -> tuple[Point, Point]:
        """The segment of hexside ``direction`` of ``h`` (shared with ``h.neighbour(d)``)."""
        a, b, c, d = self._matrix()
        cx, cy = self.centre(h)
        (u1, v1), (u2, v2) = side_corners3(direction)
        p1 = (cx + a * u1 / 3 + b * v1 / 3, cy + c * u1 / 3 + d * v1 / 3)
        p2 = (cx + a * u2 / 3 + b * v2 / 3, cy + c * u2 / 3 + d * v2 / 3)
        return p1, p2

    def side_midpoint(self, h: Hex, direction: int) -> Point:
        (x1, y1), (x2, y2) = self.side(h, direction)
        return (x1 + x2) / 2, (y1 + y2) / 2

    @property
    def apothem(self) -> float:
        """Centre to the middle of a hexside."""
        return self.radius * SQRT3 / 2

    @property
    def half_extent(self) -> Point:
        """Half width and half height of one hex's bounding box."""
        if self.flat:
            return self.radius, self.apothem
        return self.apothem, self.radius

    def bbox(self, hexes: Iterable[Hex]) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the union of the hexes' bounding boxes."""
        hw, hh = self.half_extent
        xs: list[float] = []
        ys: list[float] = []
        for h in hexes:
            x, y = self.centre(h)
            xs.append(x)
            ys.append(y)
        if not xs:
            raise ValueError("bbox of no hexes")
        return min(xs) - hw, min(ys) - hh, max(xs) + hw, max(ys) + hh

    def scaled(self, k: float) -> HexLayout:
        """The same layout drawn ``k`` times larger (for supersampled drawing)."""
        return HexLayout(self.radius * k, (self.origin[0] * k, self.origin[1] * k), self.flat)

    def shifted(self, dx: float, dy: float) -> HexLayout:
        return HexLayout(self.radius, (self.origin[0] + dx, self.origin[1] + dy), self.flat)

    def contains(self, h: Hex, x: float, y: float, *, tolerance: float = 1e-9) -> bool:
        """Is pixel (x, y) inside or on the boundary of hex ``h``?"""
        cx, cy = self.centre(h)
        pts = [(cx + ox, cy + oy) for ox, oy in self.corner_offsets()]
        sign = 0.0
        for i in range(6):
            (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 6]
            cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
            if abs(cross) <= tolerance * self.radius * self.radius:
                continue
            if sign == 0.0:
                sign = cross
            elif (cross > 0) != (sign > 0):
                return False
        return True


def offset_hexes(cols: int, rows: int, labels: Labels = Labels(), *,
                 short_shifted: bool = False) -> frozenset[Hex]:
    """The hexes of a ``cols`` × ``rows`` board in offset coordinates.  With
    ``short_shifted`` the shifted lines are one hex shorter: on a pointy-top board the
    shifted (even-numbered) rows, e.g. Memoir '44's 13/12-hex rows; on a flat-top
    board the shifted (odd-lettered) columns."""
    out = set()
    for c in range(cols):
        for r in range(rows):
            shifted = (c % 2 == 1) if labels.flat else (r % 2 == 1)
            if short_shifted and shifted and ((r == rows - 1) if labels.flat else (c == cols - 1)):
                continue
            out.add(labels.from_offset(c, r))
    return frozenset(out)


def layout_for(hexes: Iterable[Hex], radius: float, *, flat: bool = True, left: float = 0.0,
               top: float = 0.0) -> HexLayout:
    """The layout that puts the bounding box of ``hexes`` with its top-left corner at
    (left, top)."""
    base = HexLayout(radius, (0.0, 0.0), flat)
    x0, y0, _, _ = base.bbox(hexes)
    return base.shifted(left - x0, top - y0)


def hexes_size(hexes: Iterable[Hex], radius: float, *, flat: bool = True) -> Point:
    """Width and height in pixels of the bounding box of ``hexes``."""
    x0, y0, x1, y1 = HexLayout(radius, (0.0, 0.0), flat).bbox(hexes)
    return x1 - x0, y1 - y0


def board_layout(cols: int, rows: int, radius: float, labels: Labels = Labels(),
                 left: float = 0.0, top: float = 0.0) -> HexLayout:
    """The layout whose board of ``cols`` × ``rows`` offset hexes has its bounding box's
    top-left corner at (left, top)."""
    return layout_for(offset_hexes(cols, rows, labels), radius, flat=labels.flat, left=left, top=top)


def board_size(cols: int, rows: int, radius: float, labels: Labels = Labels()) -> Point:
    """Width and height in pixels of the bounding box of a ``cols`` × ``rows`` board."""
    return hexes_size(offset_hexes(cols, rows, labels), radius, flat=labels.flat)
