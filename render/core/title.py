"""The title bar at the top of a picture: a bold left text (what is shown: turn, phase,
side) and a lighter right text (scenario, map, objectives).  Both fit on one line when
they can; otherwise the left text wraps and the right text's parts (split at " · ")
follow on their own lines, so nothing runs off the image.  Recorded as kind "title"
(panel tier)."""

from __future__ import annotations

from typing import Callable, Sequence

from render.core.canvas import Canvas
from render.core.fonts import Face, text_width
from render.core.theme import Theme

Lines = list[tuple[str, str]]


def _greedy(parts: Sequence[str], sep: str, measure: Callable[[str], float], room: float) -> list[str]:
    """``parts`` joined with ``sep`` into as few lines of at most ``room`` pixels as a
    greedy fill gives (a part longer than the room gets a line of its own)."""
    lines: list[str] = []
    current = ""
    for part in parts:
        trial = f"{current}{sep}{part}" if current else part
        if current and measure(trial) > room:
            lines.append(current)
            current = part
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def pack(text: str, measure: Callable[[str], float], room: float) -> list[str]:
    """Lines of at most ``room`` pixels: parts split at " · ", an overlong part at spaces."""
    pieces: list[str] = []
    for part in text.split(" · "):
        pieces.extend([part] if measure(part) <= room else _greedy(part.split(" "), " ", measure, room))
    return _greedy(pieces, " · ", measure, room)


def title_lines(left: str, right: str, width: int, unit: float, th: Theme) -> Lines:
    """The title bar's lines as (left, right) pairs."""
    size = round(th.size("title_font", unit))
    pad = th.size("panel_pad", unit)

    def bold(t: str) -> float:
        return text_width(Face.BOLD, size, t)

    def cond(t: str) -> float:
        return text_width(Face.CONDENSED, size, t)

    if bold(left) + cond(right) + 3 * pad <= width:
        return [(left, right)]
    room = width - 2 * pad
    lines: Lines = [(text, "") for text in pack(left, bold, room)] if left else []
    lines += [("", text) for text in pack(right, cond, room)] if right else []
    return lines


def title_height(lines: Sequence[tuple[str, str]], unit: float, th: Theme) -> int:
    one = th.size("title_height", unit)
    return round(one + (max(1, len(lines)) - 1) * one * 0.8)


def draw_title(canvas: Canvas, width: int, height: int, lines: Sequence[tuple[str, str]], unit: float,
               th: Theme, *, top: int = 0) -> None:
    size = round(th.size("title_font", unit))
    pad = th.size("panel_pad", unit)
    one = th.size("title_height", unit)
    canvas.draw.rectangle((0, top, width, top + height), fill=th.colour("title_bar"))
    canvas.draw.rectangle((0, top + height - max(1, round(unit * 0.06)), width, top + height),
                          fill=th.colour("title_accent"))
    for i, (left, right) in enumerate(lines):
        mid = top + one / 2 + i * one * 0.8
        if left:
            canvas.text((pad, mid), left, face=Face.BOLD, size=size, fill=th.colour("title_text"),
                        anchor="lm", kind="title")
        if right:
            x, anchor = (width - pad, "rm") if left else (pad, "lm")
            canvas.text((x, mid), right, face=Face.CONDENSED, size=size, fill=th.colour("title_text"),
                        anchor=anchor, kind="title")
