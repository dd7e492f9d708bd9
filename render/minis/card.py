"""A unit's stat card as an image (M-1.5): name, cost, nation, type/subtype, year,
speed, defense (front/rear), attack dice vs Soldiers and vs Vehicles at short, medium
and long range (M-7.1), commander initiative, abilities with our own wording.

Axis cards are grey and Allied cards green (M-1.4); the token as it appears on the map
sits in the header.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engine.minis.model import AXIS, BAND_NAMES, UnitCard
from engine.minis.state import UnitState
from render.core.canvas import Canvas, Drawn
from render.core.colour import RGB
from render.core.fonts import Face, font, wrap_text
from render.minis.symbols import symbol_for
from render.minis.theme import theme
from render.minis.tokens import TokenLook, bar_geometry, draw_bar

WIDTH = 640
RANGES = ("0–1", "2–4", "5–8")  # M-7.1 bands
CARD_COLOURS = {
    AXIS: {"paper": (222, 224, 226), "head": (52, 57, 63), "rule": (150, 155, 160), "cell": (240, 241, 242)},
    "allies": {"paper": (221, 231, 212), "head": (50, 77, 44), "rule": (140, 160, 128), "cell": (238, 244, 233)},
}
INK: RGB = (24, 26, 28)
DIM: RGB = (88, 92, 96)


def wrap(text: str, face: Face, size: int, width: float) -> list[str]:
    """Greedy word wrap to ``width`` pixels, paragraph by paragraph (an empty paragraph
    stays an empty line)."""
    return [line for para in text.split("\n") for line in (wrap_text(para, face, size, width) or [""])]


def _dice(v: int | None) -> str:
    return "—" if v is None or v == 0 else str(v)


def card(unit_card: UnitCard, *, scale: float = 1.0) -> Image.Image:
    """The stat card of ``unit_card`` (``scale`` enlarges everything)."""
    return render_card(unit_card, scale=scale)[0].copy()


def render_card(unit_card: UnitCard, *, scale: float = 1.0) -> tuple[Image.Image, tuple[Drawn, ...]]:
    """The card image (shared, do not draw on it) and what was drawn where."""
    return _card(unit_card, scale)


@lru_cache(maxsize=128)
def _card(c: UnitCard, scale: float) -> tuple[Image.Image, tuple[Drawn, ...]]:
    th = theme()
    s = scale
    W = round(WIDTH * s)
    pad = round(18 * s)
    colours = CARD_COLOURS.get(c.side, CARD_COLOURS["allies"])
    body_size = round(19 * s)
    small = round(16 * s)
    ability_lines: list[tuple[str, str]] = []
    text_w = W - 2 * pad
    for a in c.abilities:
        head = str(a)
        body = a.text
        own = [(label, getattr(a, attr, None)) for label, attr in (("vs Soldiers", "vs_soldier"),
                                                                   ("vs Vehicles", "vs_vehicle"))]
        dice = "; ".join(f"{label} {'/'.join(_dice(v) for v in vals)}" for label, vals in own
                         if vals and "/".join(_dice(v) for v in vals) not in body)
        if dice:
            body = f"{body} ({dice})" if body else dice
        lines = wrap(f"{head}: {body}" if body else head, Face.CONDENSED, body_size, text_w)
        for i, ln in enumerate(lines):
            ability_lines.append((ln, head if i == 0 else ""))
    if not ability_lines:
        ability_lines = [("No special abilities.", "")]
    line_h = round(body_size * 1.3)
    head_h = round(92 * s)
    stats_h = round(62 * s)
    table_h = round(3 * 38 * s)
    abil_h = round(30 * s) + line_h * len(ability_lines)
    foot_h = round(30 * s)
    H = head_h + stats_h + table_h + abil_h + foot_h + pad

    image = Image.new("RGB", (W, H), colours["paper"])
    cv = Canvas(image)
    d = cv.draw
    # header: token, name, cost
    d.rectangle((0, 0, W, head_h), fill=colours["head"])
    nation = th.nation(c.nation, c.side)
    lk = TokenLook(UnitState("", c.key, c.side), c, nation, symbol_for(c, th), "", (), None, False)
    token_R = 64 * s
    g = bar_geometry("", 0, token_R, th)
    draw_bar(cv, (pad + g.width / 2, head_h / 2), lk, token_R, th, kind="card-token", tier="panel")
    name_x = pad + g.width + round(14 * s)
    cost_w = round(84 * s)
    title_size = round(30 * s)
    while title_size > round(18 * s) and font(Face.BOLD, title_size).getlength(c.name) > W - name_x - cost_w - pad:
        title_size -= 1
    cv.text((name_x, head_h * 0.42), c.name, face=Face.BOLD, size=title_size, fill=(255, 255, 255), anchor="lm",
            kind="card-name")
    sub = " – ".join(p for p in (c.type.value, c.subtype) if p)
    cv.text((name_x, head_h * 0.78), f"{nation.name} · {sub} · {c.year}", face=Face.CONDENSED, size=small,
            fill=(225, 228, 230), anchor="lm", kind="card-sub")
    cx, cy, r = W - pad - cost_w / 2, head_h / 2, 30 * s
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=th.colour("objective"), outline=(40, 30, 0), width=max(1, round(2 * s)))
    cv.text((cx, cy - 4 * s), str(c.cost), face=Face.BOLD, size=round(24 * s), fill=INK, anchor="mm",
            kind="card-cost")
    cv.text((cx, cy + 16 * s), "cost", face=Face.CONDENSED, size=round(12 * s), fill=INK, anchor="mm",
            kind="card-cost-label")

    # stats row
    y = head_h
    defense = str(c.defense_front) if c.defense_front == c.defense_rear else f"{c.defense_front}/{c.defense_rear}"
    stats = [("Speed", str(c.speed)), ("Defense", defense)]
    if c.defense_front != c.defense_rear:
        stats[1] = ("Defense front/rear", defense)
    if c.initiative:
        stats.append(("Initiative", f"+{c.initiative}"))
    col_w = (W - 2 * pad) / max(3, len(stats))
    for i, (label, value) in enumerate(stats):
        x = pad + i * col_w
        cv.text((x, y + stats_h * 0.36), label, face=Face.CONDENSED, size=small, fill=DIM, anchor="lm",
                kind="card-label")
        cv.text((x, y + stats_h * 0.74), value, face=Face.BOLD, size=round(24 * s), fill=INK, anchor="lm",
                kind="card-value")
    y += stats_h
    d.line((pad, y, W - pad, y), fill=colours["rule"], width=max(1, round(s)))

    # attack table (M-7.2): rows target type, columns range band
    row_h = table_h / 3
    first = round(190 * s)
    cell_w = (W - 2 * pad - first) / 3
    for j, band in enumerate(BAND_NAMES):
        x = pad + first + j * cell_w + cell_w / 2
        cv.text((x, y + row_h * 0.55), f"{band} {RANGES[j]}", face=Face.CONDENSED, size=small, fill=DIM,
                anchor="mm", kind="card-label")
    for i, (label, values) in enumerate((("Attack vs Soldiers", c.vs_soldier), ("Attack vs Vehicles", c.vs_vehicle))):
        ry = y + row_h * (i + 1)
        cv.text((pad, ry + row_h / 2), label, face=Face.CONDENSED_BOLD, size=body_size, fill=INK, anchor="lm",
                kind="card-label")
        for j, v in enumerate(values):
            x0 = pad + first + j * cell_w
            d.rounded_rectangle((x0 + 4 * s, ry + 4 * s, x0 + cell_w - 4 * s, ry + row_h - 4 * s), radius=6 * s,
                                fill=colours["cell"], outline=colours["rule"])
            cv.text((x0 + cell_w / 2, ry + row_h / 2), _dice(v), face=Face.BOLD, size=round(22 * s), fill=INK,
                    anchor="mm", kind="card-value")
    y += table_h
    d.line((pad, y, W - pad, y), fill=colours["rule"], width=max(1, round(s)))

    # abilities
    y += round(14 * s)
    for text, head in ability_lines:
        if head and text.startswith(head):
            hw = cv.text((pad, y), head, face=Face.CONDENSED_BOLD, size=body_size, fill=INK, anchor="la",
                         kind="card-ability")
            rest = text[len(head):]
            if rest:
                cv.text((hw[2] + 1, y), rest, face=Face.CONDENSED, size=body_size, fill=INK, anchor="la",
                        kind="card-ability")
        else:
            cv.text((pad, y), text, face=Face.CONDENSED, size=body_size, fill=INK, anchor="la", kind="card-ability")
        y += line_h
    # footer
    foot = f"{c.key}"
    if c.cost_2005 is not None and c.cost_2005 != c.cost:
        foot += f" · 2005 cost {c.cost_2005}"
    cv.text((pad, H - pad / 2 - foot_h / 2), foot, face=Face.CONDENSED, size=round(13 * s), fill=DIM, anchor="lm",
            kind="card-foot")
    return image, tuple(cv.items)
