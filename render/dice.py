"""A picture of a dice roll for ``/roll image:true``: the expression on top, every die
(pips on a d6, the number on others), and the result at the bottom — the total, or in a
success test the number of successes.

- In a success test the succeeding dice are drawn solid and the failing ones pale.
- Dice the expression dropped (``4d6kh3``) are pale and struck through.

Texts go through a :class:`~render.core.canvas.Canvas`, so the 550-px legibility rules
(:mod:`render.core.legibility`) are checked on this picture like on any other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from PIL import Image

from render.core.canvas import Canvas, Drawn
from render.core.encode import png
from render.core.fonts import Face, font

SIZE = 56  # one die, in pixels
GAP = 10
PER_ROW = 10
PAD = 16
BACKGROUND = (44, 48, 52)
INK = (28, 28, 28)
FACE_ON = (244, 240, 228)
FACE_OFF = (120, 120, 124)
INK_OFF = (68, 68, 72)
TEXT = (240, 240, 236)
DIM = (168, 172, 168)
STRIKE = (184, 28, 28)
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@dataclass(frozen=True)
class RolledDie:
    """One die as rolled: its value, its number of sides, whether it counts."""

    value: int
    sides: int = 6
    kept: bool = True


@dataclass(frozen=True)
class RollPicture:
    image: Image.Image
    items: tuple[Drawn, ...]


def result_text(total: int | None, successes: int | None) -> str:
    if successes is not None:
        return f"{successes} success" + ("" if successes == 1 else "es")
    return f"Total {total}" if total is not None else ""


def roll_picture(expression: str, faces: Sequence[RolledDie], *, hits: Sequence[bool] = (),
                 total: int | None = None, successes: int | None = None) -> RollPicture:
    """The picture of a roll.  ``hits`` (success tests) tells, for each *kept* die in
    order, whether it succeeded."""
    head_f, body_f, num_f = font(Face.BOLD, 26), font(Face.BOLD, 30), font(Face.BOLD, 26)
    count = max(1, len(faces))
    cols = min(PER_ROW, count)
    rows = math.ceil(count / PER_ROW)
    result = result_text(total, successes)
    grid_w = cols * SIZE + (cols - 1) * GAP
    width = max(grid_w, math.ceil(head_f.getlength(expression)), math.ceil(body_f.getlength(result)), 220) + 2 * PAD
    head_h, foot_h = 48, 56 if result else 0
    height = PAD + head_h + rows * SIZE + (rows - 1) * GAP + foot_h + PAD
    image = Image.new("RGB", (width, height), BACKGROUND)
    cv = Canvas(image)
    cv.text((PAD, PAD + head_h / 2 - 4), expression, face=Face.BOLD, size=26, fill=TEXT, anchor="lm",
            kind="roll-expression")
    top = PAD + head_h
    kept_index = 0
    for i, f in enumerate(faces):
        x = PAD + (i % PER_ROW) * (SIZE + GAP)
        y = top + (i // PER_ROW) * (SIZE + GAP)
        success = True
        if f.kept:
            success = hits[kept_index] if kept_index < len(hits) else True
            kept_index += 1
        solid = f.kept and success
        face = FACE_ON if solid else FACE_OFF
        ink = INK if solid else INK_OFF
        cv.draw.rounded_rectangle((x, y, x + SIZE, y + SIZE), radius=9, fill=face, outline=(20, 20, 20))
        if f.sides == 6 and f.value in _PIPS:
            r = SIZE * 0.09
            for px, py in _PIPS[f.value]:
                cx, cy = x + px * SIZE, y + py * SIZE
                cv.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
            cv.mark("die", (x, y, x + SIZE, y + SIZE), text=str(f.value))
        else:
            size = 26 if num_f.getlength(str(f.value)) <= SIZE - 8 else 18
            cv.text((x + SIZE / 2, y + SIZE / 2), str(f.value), face=Face.BOLD, size=size, fill=ink, anchor="mm",
                    kind="die")
        if not f.kept:
            cv.draw.line((x + 4, y + SIZE - 4, x + SIZE - 4, y + 4), fill=STRIKE, width=4)
            cv.mark("die-dropped", (x, y, x + SIZE, y + SIZE), text=str(f.value))
    if result:
        cv.text((PAD, height - PAD - foot_h / 2 + 2), result, face=Face.BOLD, size=30, fill=TEXT, anchor="lm",
                kind="roll-result")
    return RollPicture(image, tuple(cv.items))


def roll_png(expression: str, faces: Sequence[RolledDie], *, hits: Sequence[bool] = (), total: int | None = None,
             successes: int | None = None) -> bytes:
    """PNG bytes of :func:`roll_picture` (a lossless palette PNG: few colours)."""
    return png(roll_picture(expression, faces, hits=hits, total=total, successes=successes).image)

