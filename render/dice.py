"""A picture of rolled dice for ``/roll image:true``: pips on d6, numbers otherwise;
in a success test, succeeding dice are drawn solid and failing ones pale."""

from __future__ import annotations

import io
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

SIZE = 56  # one die, in pixels
GAP = 10
PER_ROW = 10
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def dice_image(
    values: Sequence[int], sides: Sequence[int] = (), hits: Sequence[bool] = ()
) -> Image.Image:
    count = max(1, len(values))
    cols = min(PER_ROW, count)
    rows = (count + PER_ROW - 1) // PER_ROW
    img = Image.new("RGB", (GAP + cols * (SIZE + GAP), GAP + rows * (SIZE + GAP)), (47, 49, 54))
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=26)
    for i, value in enumerate(values):
        x = GAP + (i % PER_ROW) * (SIZE + GAP)
        y = GAP + (i // PER_ROW) * (SIZE + GAP)
        success = hits[i] if i < len(hits) else True
        face = (245, 240, 228) if success else (120, 120, 126)
        ink = (30, 30, 30) if success else (70, 70, 74)
        draw.rounded_rectangle((x, y, x + SIZE, y + SIZE), radius=9, fill=face, outline=(20, 20, 20))
        die_sides = sides[i] if i < len(sides) else 6
        if die_sides == 6 and value in _PIPS:
            r = SIZE * 0.09
            for px, py in _PIPS[value]:
                cx, cy = x + px * SIZE, y + py * SIZE
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
        else:
            draw.text((x + SIZE / 2, y + SIZE / 2), str(value), fill=ink, font=font, anchor="mm")
    return img


def dice_png(values: Sequence[int], sides: Sequence[int] = (), hits: Sequence[bool] = ()) -> bytes:
    out = io.BytesIO()
    dice_image(values, sides, hits).save(out, format="PNG", optimize=False)
    return out.getvalue()
