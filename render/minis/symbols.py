"""Unit type symbols (simplified NATO-style frames) drawn inside a token's cap.

- infantry: a frame with crossed diagonals;
- armour: a frame with a track oval;
- artillery: a frame with a filled dot;
- commander: a star;
- transport: a frame on two wheels.

Which symbol a card gets comes from ``theme.json`` ("symbols": subtype → symbol), else
Vehicles are armour and Soldiers infantry.
"""

from __future__ import annotations

from PIL import ImageDraw

from engine.minis.model import UnitCard
from render.minis.terrain import star
from render.theme import RGBA, Theme

SYMBOLS = ("infantry", "armour", "artillery", "commander", "transport")


def symbol_for(card: UnitCard, th: Theme) -> str:
    sub = (card.subtype or "").strip().lower()
    if sub in th.symbols:
        return th.symbols[sub]
    return "armour" if card.is_vehicle else "infantry"


def draw_symbol(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], kind: str,
                colour: RGBA, width: float) -> None:
    """Draw symbol ``kind`` filling ``box`` (x0, y0, x1, y1) with lines ``width`` px wide."""
    x0, y0, x1, y1 = box
    w = max(1, round(width))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    bw, bh = x1 - x0, y1 - y0
    if kind == "commander":
        r = min(bw, bh) / 2
        d.polygon(star((cx, cy + r * 0.08), r * 1.05, r * 0.45), fill=colour)
        return
    if kind == "transport":
        # the frame sits higher to leave room for the wheels
        fy1 = y0 + bh * 0.68
        d.rectangle((x0, y0 + bh * 0.08, x1, fy1), outline=colour, width=w)
        wr = bh * 0.15
        for wx in (x0 + bw * 0.27, x1 - bw * 0.27):
            d.ellipse((wx - wr, y1 - 2 * wr, wx + wr, y1), fill=colour)
        return
    fy0, fy1 = y0 + bh * 0.14, y1 - bh * 0.14
    d.rectangle((x0, fy0, x1, fy1), outline=colour, width=w)
    if kind == "infantry":
        d.line((x0, fy0, x1, fy1), fill=colour, width=w)
        d.line((x0, fy1, x1, fy0), fill=colour, width=w)
    elif kind == "armour":
        ix, iy = bw * 0.2, (fy1 - fy0) * 0.24
        d.rounded_rectangle((x0 + ix, fy0 + iy, x1 - ix, fy1 - iy), radius=(fy1 - fy0 - 2 * iy) / 2,
                            outline=colour, width=w)
    elif kind == "artillery":
        r = (fy1 - fy0) * 0.24
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    else:
        raise ValueError(f"unknown symbol {kind!r}")
