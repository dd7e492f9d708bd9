"""Phone readability, measured on what a canvas recorded.

Discord shows an image about 550 px wide in a chat on a phone (never wider than the image
itself).  Every text and mark drawn through a :class:`~render.core.canvas.Canvas` is
recorded with its box and font size, so its size *as shown* can be computed and checked
against the thresholds below, for any game's pictures:

Text (cap height: font size × the font's cap-height ratio × the display scale):

- ``panel`` text (frame, title, legend, roster, cards, captions): ≥ 7 px;
- ``hex`` text on an overview map (hex labels, unit numbers, result labels): ≥ 5 px —
  the most a full hex of a 19–20-column board allows (four stacked unit numbers in a
  hex about 36 px wide on the phone);
- everything on a close-up (the picture made to be read): ≥ 7 px.

Marks (kinds starting with ``pip-``, the counters on tokens; the shorter side of the
box):

- on an overview map: ≥ 3 px, a coloured square of 6–9 device pixels on a phone's
  2–3× screen — enough to tell yellow, red, black and white counters apart;
- on a close-up: ≥ 6 px.

Facing arrows (kind ``facing``, the longer side of the box): ≥ 8 px on an overview map,
≥ 16 px on a close-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from render.core.canvas import Drawn

DISPLAY_WIDTH = 550

TEXT_MIN = {"panel": 7.0, "hex": 5.0}
CLOSE_TEXT_MIN = 7.0
COUNTER_MIN = 3.0
CLOSE_COUNTER_MIN = 6.0
FACING_MIN = 8.0
CLOSE_FACING_MIN = 16.0


def display_scale(image_width: int) -> float:
    return min(1.0, DISPLAY_WIDTH / image_width)


def shown_cap(item: Drawn, image_width: int) -> float:
    """Cap height in pixels of a recorded text once the image is shown 550 px wide."""
    return item.cap_height * display_scale(image_width)


def shown_side(item: Drawn, image_width: int, *, longer: bool = False) -> float:
    x0, y0, x1, y1 = item.box
    side = max(x1 - x0, y1 - y0) if longer else min(x1 - x0, y1 - y0)
    return side * display_scale(image_width)


@dataclass(frozen=True)
class Problem:
    item: Drawn
    shown: float
    needed: float

    def __str__(self) -> str:
        return f"{self.item.kind} {self.item.text!r} shown {self.shown:.2f} px < {self.needed} px"


def problems(items: Iterable[Drawn], image_width: int, *, close: bool = False) -> list[Problem]:
    """Every recorded text, counter and facing arrow that is too small on a phone."""
    out: list[Problem] = []
    for it in items:
        if it.face is not None and it.text:
            need = CLOSE_TEXT_MIN if close else TEXT_MIN.get(it.tier, TEXT_MIN["panel"])
            shown = shown_cap(it, image_width)
        elif it.kind.startswith("pip-"):
            need = CLOSE_COUNTER_MIN if close and it.tier == "hex" else COUNTER_MIN
            shown = shown_side(it, image_width)
        elif it.kind == "facing":
            need = CLOSE_FACING_MIN if close else FACING_MIN
            shown = shown_side(it, image_width, longer=True)
        else:
            continue
        if shown < need:
            out.append(Problem(it, shown, need))
    return out


def smallest(items: Iterable[Drawn], image_width: int, *, kinds: tuple[str, ...] = (), tier: str | None = None,
             text: bool = True) -> float:
    """The smallest shown cap height (``text``) or counter side among the matching items."""
    sizes = []
    for it in items:
        if kinds and not it.kind.startswith(kinds):
            continue
        if tier is not None and it.tier != tier:
            continue
        if text and it.face is not None and it.text:
            sizes.append(shown_cap(it, image_width))
        elif not text and it.face is None:
            sizes.append(shown_side(it, image_width))
    if not sizes:
        raise ValueError("nothing matched")
    return min(sizes)
