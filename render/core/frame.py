"""The frame around a hex board: column letters above and below, row numbers on the
left, and a small coordinate label (``F7``) at the top of every hex.  Works for flat-top
boards (columns) and pointy-top boards (rows), whole boards or a window of one.

Sizes come from the theme (``frame_*``, ``hex_label_*``, multiples of the hex radius).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from engine.core.hexgrid import Hex, Labels, column_letters
from render.core.canvas import Canvas
from render.core.colour import RGB, RGBA
from render.core.fonts import Face, cap_ratio
from render.core.layout import HexLayout, hexes_size, layout_for
from render.core.theme import Theme


@dataclass(frozen=True)
class FrameSizes:
    """Pixel sizes of the frame around the hexes for hex radius R."""

    left: int
    right: int
    top: int
    bottom: int

    @classmethod
    def of(cls, th: Theme, R: float) -> FrameSizes:
        return cls(round(th.size("frame_left", R)), round(th.size("frame_right", R)),
                   round(th.size("frame_top", R)), round(th.size("frame_bottom", R)))


@dataclass(frozen=True)
class FramedBoard:
    """Where a set of hexes goes inside its frame: image size and hex layout."""

    width: int
    height: int
    layout: HexLayout
    frame: FrameSizes


def framed(hexes: Iterable[Hex], R: float, th: Theme, *, flat: bool = True) -> FramedBoard:
    """The image size and layout of ``hexes`` drawn with radius R inside the frame."""
    hs = list(hexes)
    fr = FrameSizes.of(th, R)
    w, h = hexes_size(hs, R, flat=flat)
    layout = layout_for(hs, R, flat=flat, left=fr.left, top=fr.top)
    return FramedBoard(round(fr.left + w + fr.right), round(fr.top + h + fr.bottom), layout, fr)


def draw_coordinates(canvas: Canvas, layout: HexLayout, labels: Labels, hexes: Iterable[Hex],
                     fr: FrameSizes, th: Theme) -> None:
    """Column letters above and below the hexes, row numbers on the left (each at the
    centre of its column's top / bottom hex and of its row's leftmost hex)."""
    R = layout.radius
    size = round(th.size("frame_font", R))
    colour = th.colour("frame_text")
    hs = list(hexes)
    x0, y0, x1, y1 = layout.bbox(hs)
    columns: dict[int, list[tuple[int, Hex]]] = {}
    rows: dict[int, list[tuple[int, Hex]]] = {}
    for h in hs:
        c, r = labels.to_offset(h)
        columns.setdefault(c, []).append((r, h))
        rows.setdefault(r, []).append((c, h))
    for c in sorted(columns):
        members = sorted(columns[c])
        letters = column_letters(c)
        top_x, _ = layout.centre(members[0][1])
        bottom_x, _ = layout.centre(members[-1][1])
        canvas.text((top_x, y0 - fr.top / 2), letters, face=Face.BOLD, size=size, fill=colour, anchor="mm",
                    kind="frame-column")
        canvas.text((bottom_x, y1 + fr.bottom / 2), letters, face=Face.BOLD, size=size, fill=colour,
                    anchor="mm", kind="frame-column")
    for r in sorted(rows):
        _, y = layout.centre(min(rows[r])[1])
        canvas.text((fr.left / 2, y), str(r + 1), face=Face.BOLD, size=size, fill=colour, anchor="mm",
                    kind="frame-row")


def hex_label_baseline(layout: HexLayout, h: Hex, th: Theme) -> float:
    """Baseline of a hex's coordinate label, near the top of the hex (below the top
    corner on a pointy-top board)."""
    R = layout.radius
    size = round(th.size("hex_label_font", R))
    _, cy = layout.centre(h)
    top = cy - (layout.apothem if layout.flat else R * 0.78)
    return top + th.size("hex_label_top", R) + size * cap_ratio(Face.CONDENSED_BOLD)


def draw_hex_label(canvas: Canvas, layout: HexLayout, h: Hex, text: str, colour: RGB | RGBA, th: Theme, *,
                   halo: RGB | RGBA | None = None) -> None:
    """The coordinate label of ``h``; with ``halo`` outlined in that colour (to stay
    readable over a marker drawn across it).  Recorded as kind "hex-label", tier "hex"."""
    R = layout.radius
    size = round(th.size("hex_label_font", R))
    cx, _ = layout.centre(h)
    canvas.text((cx, hex_label_baseline(layout, h, th)), text, face=Face.CONDENSED_BOLD, size=size, fill=colour,
                anchor="ms", kind="hex-label", tier="hex", hex=h,
                stroke=max(1, round(R * 0.05)) if halo is not None else 0, stroke_fill=halo)
