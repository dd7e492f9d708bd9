"""A legend panel: small icons with a word each, flowed in rows across the picture.

A game builds :class:`LegendItem` values (an icon drawer, its width, the text) for what
its picture shows and calls :func:`legend_height` then :func:`draw_legend`.  Generic
icons: a colour swatch, a line, a small hexagon drawn by a callback (terrain), a sprite.
Icons are recorded as kind "legend-icon", texts as kind "legend" (panel tier).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex
from render.core.canvas import Canvas, premultiplied_reduce
from render.core.colour import RGBA
from render.core.fonts import Face, text_width
from render.core.layout import HexLayout
from render.core.theme import Theme

IconBox = tuple[int, int, int, int]
Icon = Callable[[Canvas, IconBox], None]


@dataclass(frozen=True)
class LegendItem:
    icon: Icon
    icon_width: int
    text: str


def icon_height(unit: float, th: Theme) -> int:
    """Height of a legend icon (and the usual width of a square one)."""
    return round(round(th.size("panel_font", unit)) * 1.05)


def flow(items: Sequence[LegendItem], width: int, unit: float, th: Theme) -> list[list[tuple[LegendItem, int]]]:
    size = round(th.size("panel_font", unit))
    pad = th.size("panel_pad", unit)
    gap_icon = round(size * 0.35)
    gap_item = round(size * 1.0)
    rows: list[list[tuple[LegendItem, int]]] = [[]]
    x = pad
    for it in items:
        w = it.icon_width + gap_icon + math.ceil(text_width(Face.CONDENSED, size, it.text))
        if rows[-1] and x + w > width - pad:
            rows.append([])
            x = pad
        rows[-1].append((it, round(x)))
        x += w + gap_item
    return rows


def legend_height(items: Sequence[LegendItem], width: int, unit: float, th: Theme) -> int:
    if not items:
        return 0
    rows = flow(items, width, unit, th)
    return round(len(rows) * th.size("panel_line", unit) + th.size("panel_pad", unit))


def draw_legend(canvas: Canvas, top: int, width: int, items: Sequence[LegendItem], unit: float, th: Theme) -> None:
    if not items:
        return
    size = round(th.size("panel_font", unit))
    line = th.size("panel_line", unit)
    gap_icon = round(size * 0.35)
    y = top + th.size("panel_pad", unit) / 2
    for row in flow(items, width, unit, th):
        mid = y + line / 2
        for it, x in row:
            ih = icon_height(unit, th)
            box = (x, round(mid - ih / 2), x + it.icon_width, round(mid - ih / 2) + ih)
            it.icon(canvas, box)
            canvas.mark("legend-icon", box)
            canvas.text((x + it.icon_width + gap_icon, mid), it.text, face=Face.CONDENSED, size=size,
                        fill=th.colour("panel_text"), anchor="lm", kind="legend")
        y += line


# ---------------------------------------------------------------------------- icons
def swatch_icon(fill: RGBA, edge: RGBA, ground: RGBA | None = None) -> Icon:
    """A rectangle of ``fill`` (over ``ground`` when the fill is translucent)."""
    def icon(canvas: Canvas, box: IconBox) -> None:
        if ground is not None:
            canvas.draw.rectangle(box, fill=ground)
        canvas.draw.rectangle(box, fill=fill, outline=edge, width=2)
    return icon


def line_icon(colour: RGBA, casing: RGBA) -> Icon:
    """A short horizontal line with a casing."""
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        y = (y0 + y1) // 2
        canvas.draw.line((x0, y, x1, y), fill=casing, width=max(3, (y1 - y0) // 3))
        canvas.draw.line((x0 + 1, y, x1 - 1, y), fill=colour, width=max(1, (y1 - y0) // 5))
    return icon


def sprite_icon(sprite: Callable[[int, int], Image.Image]) -> Icon:
    """An RGBA sprite made for the icon's size, pasted with its alpha."""
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        canvas.paste(sprite(x1 - x0, y1 - y0), (x0, y0))
    return icon


HexDrawer = Callable[[ImageDraw.ImageDraw, HexLayout, Hex], None]


def hex_icon(key: str, draw: HexDrawer, *, flat: bool = True, supersample: int = 4) -> Icon:
    """A small hexagon drawn by ``draw(d, layout, hex)`` (e.g. a terrain fill and its
    symbol), anti-aliased; ``key`` names the drawing for the sprite cache."""
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        ck = (key, x1 - x0, y1 - y0, flat, supersample)
        sprite = _hex_sprites.get(ck)
        if sprite is None:
            if len(_hex_sprites) > 256:
                _hex_sprites.clear()
            sprite = _hex_sprites[ck] = _hex_sprite(x1 - x0, y1 - y0, flat, supersample, draw)
        canvas.paste(sprite, (x0, y0))
    return icon


_hex_sprites: dict[tuple[str, int, int, bool, int], Image.Image] = {}


def _hex_sprite(w: int, h: int, flat: bool, k: int, draw: HexDrawer) -> Image.Image:
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    # the largest hexagon that fits the box
    R = min(w / 2, h / math.sqrt(3)) if flat else min(w / math.sqrt(3), h / 2)
    layout = HexLayout(R * k, (w * k / 2, h * k / 2), flat)
    draw(ImageDraw.Draw(big, "RGBA"), layout, Hex(0, 0))
    return premultiplied_reduce(big, k)
