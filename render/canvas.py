"""A Pillow image plus a record of what was drawn where.

Every text (and every small marker that must stay readable) is drawn through a
:class:`Canvas`, which keeps a :class:`Drawn` item per draw: kind, bounding box, font
size.  Tests use the record to *measure* legibility (smallest cap height once the
image is shown 550 px wide) and overlap (no two labels' boxes intersect), instead of
looking at pictures.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex
from render.fonts import Face, cap_ratio, font
from render.theme import RGB, RGBA

Box = tuple[float, float, float, float]
Colour = RGB | RGBA


@dataclass(frozen=True)
class Drawn:
    """One recorded draw.  ``tier`` is "hex" for text inside map hexes (bounded by the
    hex size) and "panel" for frame, title, legend and roster text; "" for markers."""

    kind: str
    box: Box
    text: str = ""
    face: Face | None = None
    size: int = 0
    tier: str = ""
    hex: Hex | None = None
    owner: str = ""  # unit id for unit tokens and their markers

    @property
    def cap_height(self) -> float:
        return self.size * cap_ratio(self.face) if self.face is not None else 0.0

    def moved(self, dx: float, dy: float) -> Drawn:
        x0, y0, x1, y1 = self.box
        return Drawn(self.kind, (x0 + dx, y0 + dy, x1 + dx, y1 + dy), self.text, self.face,
                     self.size, self.tier, self.hex, self.owner)


def boxes_overlap(a: Box, b: Box, *, slack: float = 0.0) -> bool:
    """Do two boxes share interior (touching edges do not count)?"""
    return (a[0] + slack < b[2] and b[0] + slack < a[2]
            and a[1] + slack < b[3] and b[1] + slack < a[3])


class Canvas:
    """An RGB image with an alpha-blending draw and the list of recorded items."""

    def __init__(self, image: Image.Image, items: Iterable[Drawn] = ()) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image, "RGBA")
        self.items: list[Drawn] = list(items)

    def text(self, xy: tuple[float, float], text: str, *, face: Face, size: int, fill: Colour,
             anchor: str = "la", kind: str = "text", tier: str = "panel", hex: Hex | None = None,
             owner: str = "", stroke: int = 0, stroke_fill: Colour | None = None) -> Box:
        """Draw ``text`` and record it; returns its ink box.  The anchor point is
        rounded to whole pixels so each text's coverage mask can be cached."""
        x, y = round(xy[0]), round(xy[1])
        if stroke:
            f = font(face, size)
            self.draw.text((x, y), text, font=f, fill=fill, anchor=anchor, stroke_width=stroke,
                           stroke_fill=stroke_fill)
            box = self.draw.textbbox((x, y), text, font=f, anchor=anchor, stroke_width=stroke)
        else:
            mask, (dx, dy) = text_mask(text, face, size, anchor)
            box = (x + dx, y + dy, x + dx + mask.width, y + dy + mask.height)
            if mask.width and mask.height:
                self.image.paste(fill[:3], box, mask)
        fbox = (float(box[0]), float(box[1]), float(box[2]), float(box[3]))
        self.items.append(Drawn(kind, fbox, text, face, size, tier, hex, owner))
        return fbox

    def mark(self, kind: str, box: Box, *, hex: Hex | None = None, owner: str = "") -> None:
        """Record a non-text marker's box (drawn by the caller)."""
        self.items.append(Drawn(kind, box, hex=hex, owner=owner))

    def paste(self, sprite: Image.Image, xy: tuple[int, int]) -> None:
        """Paste an RGBA sprite with its own alpha."""
        self.image.paste(sprite, xy, sprite)


@lru_cache(maxsize=8192)
def text_mask(text: str, face: Face, size: int, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """The anti-aliased coverage of ``text`` and its offset from the anchor point."""
    f = font(face, size)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(0, int(x1 - x0)), max(0, int(y1 - y0))), 0)
    if mask.width and mask.height:
        ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
    return mask, (int(x0), int(y0))


def premultiplied_reduce(image: Image.Image, k: int) -> Image.Image:
    """Downscale an RGBA image by ``k`` without dark fringes (average premultiplied)."""
    if k == 1:
        return image
    return image.convert("RGBa").reduce(k).convert("RGBA")
