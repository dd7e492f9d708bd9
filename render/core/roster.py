"""A roster panel: sections (one per side, army, player …) each with a heading and one
line per entry — a chip (the token as drawn on the board), a name and a place — laid out
in as many columns as the width allows.

A game builds :class:`RosterSection` values; the chip is drawn by the game's callback
inside a box the roster gives it.  Texts are recorded as kinds "roster-head" and
"roster" (panel tier).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from render.core.canvas import Canvas
from render.core.fonts import Face, text_width
from render.core.theme import Theme

Chip = Callable[[Canvas, tuple[float, float]], None]  # draws a chip centred at a point


@dataclass(frozen=True)
class RosterEntry:
    chip: Chip | None
    chip_width: float
    name: str
    where: str = ""


@dataclass(frozen=True)
class RosterSection:
    heading: str
    entries: Sequence[RosterEntry]


@dataclass(frozen=True)
class RosterMetrics:
    columns: int
    column_width: int
    line: float


def metrics(sections: Sequence[RosterSection], width: int, unit: float, th: Theme, *,
            chip_height: float = 0.0) -> RosterMetrics:
    size = round(th.size("panel_font", unit))
    pad = th.size("panel_pad", unit)
    widest = 0.0
    for sec in sections:
        for e in sec.entries:
            widest = max(widest, e.chip_width + size * 0.5 + text_width(Face.CONDENSED, size, e.name) + size * 0.8
                         + text_width(Face.CONDENSED_BOLD, size, e.where))
    col_w = math.ceil(widest + size)
    cols = max(1, int((width - 2 * pad) // max(1, col_w)))
    line = max(th.size("panel_line", unit), chip_height + unit * 0.12)
    return RosterMetrics(cols, max(col_w, int((width - 2 * pad) // cols)), line)


def roster_height(sections: Sequence[RosterSection], width: int, unit: float, th: Theme, *,
                  chip_height: float = 0.0) -> int:
    shown = [s for s in sections if s.entries]
    if not shown:
        return 0
    m = metrics(shown, width, unit, th, chip_height=chip_height)
    rows = sum(1 + math.ceil(len(s.entries) / m.columns) for s in shown)
    return round(rows * m.line + th.size("panel_pad", unit))


def draw_roster(canvas: Canvas, top: int, width: int, sections: Sequence[RosterSection], unit: float, th: Theme,
                *, chip_height: float = 0.0) -> None:
    shown = [s for s in sections if s.entries]
    if not shown:
        return
    m = metrics(shown, width, unit, th, chip_height=chip_height)
    size = round(th.size("panel_font", unit))
    pad = th.size("panel_pad", unit)
    y = top + pad / 2
    for sec in shown:
        mid = y + m.line / 2
        canvas.draw.line((pad, round(y + m.line - 2), width - pad, round(y + m.line - 2)),
                         fill=th.colour("panel_dim"), width=1)
        canvas.text((pad, mid), sec.heading, face=Face.BOLD, size=size, fill=th.colour("panel_text"),
                    anchor="lm", kind="roster-head")
        y += m.line
        per_col = math.ceil(len(sec.entries) / m.columns)
        for i, e in enumerate(sec.entries):
            col, row = divmod(i, per_col)
            x = pad + col * m.column_width
            mid = y + row * m.line + m.line / 2
            if e.chip is not None:
                e.chip(canvas, (x + e.chip_width / 2, mid))
            canvas.text((x + e.chip_width + size * 0.5, mid), e.name, face=Face.CONDENSED, size=size,
                        fill=th.colour("panel_text"), anchor="lm", kind="roster")
            if e.where:
                canvas.text((x + m.column_width - size * 0.6, mid), e.where, face=Face.CONDENSED_BOLD, size=size,
                            fill=th.colour("panel_dim"), anchor="rm", kind="roster")
        y += per_col * m.line
