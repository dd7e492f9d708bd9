"""The league standings table as an image, made to be read on a phone: Discord shows
an image at most about 550 px wide, so the table is laid out for that width (a long
name is shortened with "…" before the table grows wider) and every text keeps a cap
height of at least 7 px as displayed.

It knows nothing of leagues: it draws a title, a header row and rows of cells (the bot
builds them with ``bot.league.export.standings_table``).  Column 0 and 2.. are numbers
(right-aligned); column 1 is the name (left-aligned).  It draws on the core
:class:`~render.core.canvas.Canvas`, so every text is recorded and measured by
:mod:`render.core.legibility` like any other picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO
from typing import Sequence

from PIL import Image

from render.core.canvas import Canvas, Drawn
from render.core.fonts import Face, text_width, wrap_text
from render.core.legibility import DISPLAY_WIDTH

RGB = tuple[int, int, int]

BACKGROUND: RGB = (255, 255, 255)
INK: RGB = (28, 30, 34)
MUTED: RGB = (104, 110, 120)
HEADER_FILL: RGB = (44, 62, 80)
HEADER_INK: RGB = (255, 255, 255)
STRIPE: RGB = (238, 241, 245)
LEADER_FILL: RGB = (255, 240, 196)
RULE: RGB = (200, 205, 212)

PAD = 14
TITLE = (Face.BOLD, 20)
SUBTITLE = (Face.SANS, 13)
HEAD = (Face.CONDENSED_BOLD, 15)
CELL = (Face.CONDENSED, 16)
ROW_H = 26
GAP = 14  # between columns
MIN_NAME_W = 96


@dataclass(frozen=True)
class TableImage:
    image: Image.Image
    items: tuple[Drawn, ...]  # every text, kind "title", "subtitle", "header", "cell" or "legend"

    def png(self) -> bytes:
        out = BytesIO()
        self.image.save(out, format="PNG", compress_level=6)
        return out.getvalue()


def _width(text: str, face: Face, size: int) -> float:
    return text_width(face, size, text)


def _fit(text: str, face: Face, size: int, width: float) -> str:
    """``text``, shortened with "…" until it fits ``width``."""
    if _width(text, face, size) <= width:
        return text
    cut = text
    while cut and _width(cut + "…", face, size) > width:
        cut = cut[:-1]
    return (cut.rstrip() + "…") if cut else "…"


def render_table(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    subtitle: str = "",
    legend: str = "",
    muted: Sequence[bool] = (),
    width: int = DISPLAY_WIDTH,
) -> TableImage:
    """Draw the table.  ``muted[i]`` greys row ``i`` (a withdrawn player); the first
    row is tinted (the leader).  The image is ``width`` wide unless the number columns
    alone need more."""
    if any(len(r) != len(header) for r in rows):
        raise ValueError("every row needs one cell per header column")
    ncols = len(header)
    col_w: list[float] = []
    for k in range(ncols):
        face, size = HEAD
        w = _width(header[k], face, size)
        for r in rows:
            w = max(w, _width(r[k], CELL[0], CELL[1]))
        col_w.append(w)
    others = sum(w for k, w in enumerate(col_w) if k != 1) + GAP * (ncols - 1)
    room = width - 2 * PAD - others
    if ncols > 1:
        col_w[1] = max(MIN_NAME_W, min(col_w[1], room))
    table_w = sum(col_w) + GAP * (ncols - 1)
    img_w = int(max(width, table_w + 2 * PAD))
    # Extra room goes to the name column.
    if ncols > 1 and table_w + 2 * PAD < img_w:
        col_w[1] += img_w - 2 * PAD - table_w
        table_w = img_w - 2 * PAD

    y = PAD
    title_h = 28
    sub_h = 20 if subtitle else 0
    legend_lines = wrap_text(legend, *SUBTITLE, img_w - 2 * PAD)
    height = PAD + title_h + sub_h + 6 + ROW_H * (len(rows) + 1) + (8 + 18 * len(legend_lines)) + PAD
    canvas = Canvas(Image.new("RGB", (img_w, int(height)), BACKGROUND))
    draw = canvas.draw

    def text(xy: tuple[float, float], s: str, face: Face, size: int, fill: RGB, kind: str,
             anchor: str = "ls") -> None:
        canvas.text(xy, s, face=face, size=size, fill=fill, anchor=anchor, kind=kind)

    text((PAD, y + 21), _fit(title, *TITLE, img_w - 2 * PAD), *TITLE, INK, "title")
    y += title_h
    if subtitle:
        text((PAD, y + 14), _fit(subtitle, *SUBTITLE, img_w - 2 * PAD), *SUBTITLE, MUTED, "subtitle")
        y += sub_h
    y += 6

    xs: list[float] = []
    x: float = PAD
    for w in col_w:
        xs.append(x)
        x += w + GAP

    def row(cells: Sequence[str], top: float, face: Face, size: int, fill: RGB, kind: str) -> None:
        base = top + ROW_H - 8
        for k, cell in enumerate(cells):
            if k == 1:
                text((xs[k], base), _fit(cell, face, size, col_w[k]), face, size, fill, kind, "ls")
            else:
                text((xs[k] + col_w[k], base), cell, face, size, fill, kind, "rs")

    draw.rectangle((PAD - 6, y, PAD + table_w + 6, y + ROW_H - 1), fill=HEADER_FILL)
    row(header, y, *HEAD, HEADER_INK, "header")
    y += ROW_H
    for i, cells in enumerate(rows):
        fill = LEADER_FILL if i == 0 else (STRIPE if i % 2 == 1 else BACKGROUND)
        if fill != BACKGROUND:
            draw.rectangle((PAD - 6, y, PAD + table_w + 6, y + ROW_H - 1), fill=fill)
        ink = MUTED if i < len(muted) and muted[i] else INK
        row(cells, y, *CELL, ink, "cell")
        y += ROW_H
    draw.line((PAD - 6, y, PAD + table_w + 6, y), fill=RULE, width=1)
    y += 8
    for line in legend_lines:
        text((PAD, y + 14), line, *SUBTITLE, MUTED, "legend")
        y += 18
    return TableImage(canvas.image, tuple(canvas.items))

