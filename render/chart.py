"""A small horizontal bar chart of outcome probabilities, as PNG bytes (Pillow only).

Made for Discord's ~550 px wide image previews: a title, optional subtitle, then
sections, each a heading and one bar per outcome with its label and percentage.  Drawn
in the shipped DejaVu Sans (:mod:`render.core.fonts`): Pillow's own default font has no
em dash, multiplication sign or accented letters, and drew a box for each (the
subtitle of every battle with an option: "… — attacker retreats when …")."""

from __future__ import annotations

from io import BytesIO
from typing import Sequence

from engine.odds.report import percent
from PIL import Image, ImageDraw, ImageFont
from render.core.fonts import Face, font as face_font, wrap_text

Color = tuple[int, int, int]
Bar = tuple[str, float]
Section = tuple[str, Sequence[Bar]]

BACKGROUND = (255, 255, 255)
TEXT = (32, 34, 37)
MUTED = (96, 101, 110)
TRACK = (233, 235, 238)
ATTACKER, DEFENDER = (67, 110, 238), (219, 68, 55)
PALETTE: list[Color] = [(67, 110, 238), (219, 68, 55), (120, 124, 130), (15, 157, 88), (244, 160, 0), (142, 68, 173)]


def _font(size: int, face: Face = Face.SANS) -> ImageFont.FreeTypeFont:
    return face_font(face, size)


def bar_chart(
    title: str,
    sections: Sequence[Section],
    *,
    subtitle: str = "",
    section_colors: Sequence[Color | None] = (),
    width: int = 550,
) -> bytes:
    """PNG bytes of the chart.  Values are probabilities (0..1); each bar is drawn in
    proportion to its value (a full track is 100%).  A section drawn in one colour
    takes it from ``section_colors`` (same position); otherwise its bars go through the
    palette (blue, red, grey, green, …)."""
    pad, row, gap = 16, 24, 10
    title_font, head_font, font = _font(20, Face.BOLD), _font(15), _font(14)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    labels = [label for _, bars in sections for label, _ in bars]
    label_w = max([probe.textlength(t, font=font) for t in labels] + [40.0])
    label_w = min(label_w, width * 0.4)
    value_w = probe.textlength("100.0%", font=font) + 8
    sub_lines = _subtitle_lines(probe, subtitle, 14, width - 2 * pad)
    height = pad + 26 + 20 * len(sub_lines)
    for _, bars in sections:
        height += 22 + row * len(bars) + gap
    height += pad - gap
    img = Image.new("RGB", (width, int(height)), BACKGROUND)
    draw = ImageDraw.Draw(img)
    y = pad
    draw.text((pad, y), title, font=title_font, fill=TEXT)
    y += 26
    for line in sub_lines:
        draw.text((pad, y), line, font=font, fill=MUTED)
        y += 20
    x0 = pad + label_w + 8
    x1 = width - pad - value_w
    for s, (heading, bars) in enumerate(sections):
        draw.text((pad, y + 2), heading, font=head_font, fill=MUTED)
        y += 22
        for k, (label, value) in enumerate(bars):
            fixed = section_colors[s] if s < len(section_colors) else None
            color = fixed if fixed is not None else PALETTE[k % len(PALETTE)]
            v = min(max(float(value), 0.0), 1.0)
            draw.text((pad, y + 4), _fit(draw, label, font, label_w), font=font, fill=TEXT)
            draw.rectangle((x0, y + 5, x1, y + row - 5), fill=TRACK)
            if v > 0:
                draw.rectangle((x0, y + 5, max(x0 + 1, x0 + (x1 - x0) * v), y + row - 5), fill=color)
            draw.text((x1 + 8, y + 4), percent(v), font=font, fill=TEXT)
            y += row
        y += gap
    out = BytesIO()
    img.save(out, format="PNG", optimize=False)
    return out.getvalue()


SUBTITLE_LINES = 3  # a longer subtitle is cut at the end of the last line


def _subtitle_lines(draw: ImageDraw.ImageDraw, text: str, size: int, room: float) -> list[str]:
    """The subtitle word-wrapped to ``room`` pixels: the battle and every option it was
    asked with stay readable at a phone's preview width, not cut after the first line."""
    font = _font(size)
    lines = wrap_text(text, Face.SANS, size, room)
    if len(lines) > SUBTITLE_LINES:
        lines = lines[: SUBTITLE_LINES - 1] + [" ".join(lines[SUBTITLE_LINES - 1 :])]
    return [_fit(draw, line, font, room) for line in lines]


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, room: float) -> str:
    if draw.textlength(text, font=font) <= room:
        return text
    while text and draw.textlength(text + "...", font=font) > room:
        text = text[:-1]
    return text + "..."
