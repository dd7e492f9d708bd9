"""A Pillow image plus a record of what was drawn where.

Every text (and every small marker that must stay readable) is drawn through a
:class:`Canvas`, which keeps a :class:`Drawn` item per draw: kind, bounding box, font
size.  Tests use the record to *measure* legibility (smallest cap height once the
image is shown 550 px wide) and overlap (no two labels' boxes intersect), instead of
looking at pictures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex
from render.core.colour import RGB, RGBA
from render.core.fonts import Face, cap_ratio, font

Box = tuple[float, float, float, float]
Colour = RGB | RGBA


@dataclass(frozen=True)
class Drawn:
    """One recorded draw.  For text, ``tier`` is "hex" for text inside map hexes
    (bounded by the hex size) and "panel" for frame, title, legend and roster text; for
    markers it is "" or the tier the marker is measured in (counters: "hex")."""

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

    def mark(self, kind: str, box: Box, *, hex: Hex | None = None, owner: str = "", tier: str = "",
             text: str = "") -> None:
        """Record a non-text marker's box (drawn by the caller)."""
        self.items.append(Drawn(kind, box, text, hex=hex, owner=owner, tier=tier))

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


Point = tuple[float, float]


class AALayer:
    """A transparent layer ``k`` times larger than a box of the canvas; shapes drawn on
    it in canvas coordinates are anti-aliased when the layer is committed."""

    def __init__(self, canvas: Canvas, box: Box, k: int = 3) -> None:
        w, h = canvas.image.size
        self.canvas = canvas
        self.x0 = max(0, math.floor(box[0]) - 4)
        self.y0 = max(0, math.floor(box[1]) - 4)
        x1 = min(w, math.ceil(box[2]) + 4)
        y1 = min(h, math.ceil(box[3]) + 4)
        self.k = k
        self.size = (max(1, x1 - self.x0), max(1, y1 - self.y0))
        self.image = Image.new("RGBA", (self.size[0] * k, self.size[1] * k), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def p(self, pt: Point) -> Point:
        return (pt[0] - self.x0) * self.k, (pt[1] - self.y0) * self.k

    def line(self, pts: Sequence[Point], fill: Colour, width: float, *, round_ends: bool = True) -> None:
        q = [self.p(pt) for pt in pts]
        w = max(1, round(width * self.k))
        self.draw.line(q, fill=fill, width=w, joint="curve")
        if round_ends:
            r = w / 2
            for x, y in (q[0], q[-1]):
                self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)

    def dashed(self, a: Point, b: Point, fill: Colour, width: float, dash: float, gap: float) -> None:
        length = math.dist(a, b)
        if length == 0:
            return
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        t = 0.0
        while t < length:
            e = min(length, t + dash)
            self.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)], fill, width)
            t = e + gap

    def polygon(self, pts: Sequence[Point], fill: Colour | None, outline: Colour | None = None,
                width: float = 0.0) -> None:
        q = [self.p(pt) for pt in pts]
        if fill is not None:
            self.draw.polygon(q, fill=fill)
        if outline is not None and width > 0:
            self.draw.line(q + [q[0]], fill=outline, width=max(1, round(width * self.k)), joint="curve")

    def ellipse(self, centre: Point, r: float, *, fill: Colour | None = None, outline: Colour | None = None,
                width: float = 0.0) -> None:
        x, y = centre
        self.draw.ellipse([*self.p((x - r, y - r)), *self.p((x + r, y + r))], fill=fill, outline=outline,
                          width=max(1, round(width * self.k)) if outline is not None else 0)

    def commit(self) -> None:
        self.canvas.paste(premultiplied_reduce(self.image, self.k), (self.x0, self.y0))


def box_of(points: Iterable[Point], pad: float) -> Box:
    pts = list(points)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
