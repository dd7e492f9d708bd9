"""Unit tokens on the map.

A token is a bar: a *cap* in the side's colour (near-black for the Axis, off-white for
the Allies) holding the type symbol, then a *body* in the nation's colour with the
unit's number (``ax3`` → "3"; the cap tells Axis from Allies), then small counters:

- passenger marker (white disc with the passenger's nation colour) on a transport;
- face-up Disrupted (yellow square) and Damaged (red square) counters (M-8);
- one black square per face-down hit placed this assault phase (M-9.3);
- a unit with a face-down Destroyed counter is drawn grey with a red strike until the
  casualty phase removes it (M-16.3).

A Vehicle also gets a facing wedge on the hexside it faces (M-6.4), drawn under the
tokens.  A hex holds at most 2 units per side and 1 Vehicle (M-6.2): up to four bars,
Axis above Allies.  With one to three bars the hex label stays visible above them; a
full hex covers it (the roster lists every unit's hex).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex
from engine.minis.model import AXIS, UnitCard
from engine.minis.state import Hit, MinisState, UnitState
from render.canvas import Canvas, premultiplied_reduce
from render.fonts import Face, font
from render.layout import HexLayout
from render.minis.symbols import draw_symbol, symbol_for
from render.theme import RGB, RGBA, NationStyle, Theme, rgb, text_on

PIP_ORDER = ("passenger", "disrupted", "damaged", "hit")
MAX_BAR_WIDTH = 1.48  # × R: wider bars could touch a neighbouring hex's bars


@dataclass(frozen=True)
class TokenLook:
    """What one unit's token shows (derived from the documented state fields only)."""

    unit: UnitState
    card: UnitCard
    nation: NationStyle
    symbol: str
    label: str
    pips: tuple[str, ...]
    passenger_fill: RGBA | None
    greyed: bool


def unit_number(unit: UnitState, th: Theme) -> str:
    """The token text: the id without its side prefix when it has one ("ax3" → "3")."""
    prefix = th.sides[unit.side].id_prefix if unit.side in th.sides else ""
    m = re.fullmatch(re.escape(prefix) + r"(\d+)", unit.id) if prefix else None
    return m.group(1) if m else unit.id


def look(state: MinisState, unit: UnitState, th: Theme) -> TokenLook:
    card = state.card(unit)
    pips: list[str] = []
    passenger_fill: RGBA | None = None
    aboard = state.passengers(unit.id)
    if aboard:
        p = aboard[0]
        pips.append("passenger")
        passenger_fill = th.nation(state.card(p).nation, p.side).fill
    if unit.disrupted:
        pips.append("disrupted")
    if unit.damaged:
        pips.append("damaged")
    pips.extend("hit" for _ in unit.hits)
    return TokenLook(unit, card, th.nation(card.nation, unit.side), symbol_for(card, th),
                     unit_number(unit, th), tuple(pips), passenger_fill, Hit.DESTROYED in unit.hits)


def stack_order(units: Sequence[UnitState]) -> list[UnitState]:
    """Axis first, then Allies; by unit number within a side."""
    def key(u: UnitState) -> tuple[int, int, str]:
        digits = re.findall(r"\d+", u.id)
        return (0 if u.side == AXIS else 1, int(digits[-1]) if digits else 0, u.id)

    return sorted(units, key=key)


def bar_scale(n: int, th: Theme) -> float:
    """Bars are larger ("roomy") when a hex holds one or two units, compact with three
    or four (the stacking maximum, M-6.2)."""
    return th.sizes["roomy_scale"] if n <= 2 else 1.0


def slot_offsets(n: int, th: Theme) -> list[float]:
    """Vertical offsets (× R) of the bar centres for ``n`` units in one hex."""
    gap = th.sizes["bar_gap"]
    if n <= 2:
        bh = th.sizes["bar_height"] * th.sizes["roomy_scale"]
        shift = th.sizes["roomy_shift"]
        inner = (bh + gap) / 2
        return [shift] if n == 1 else [shift - inner, shift + inner]
    bh = th.sizes["bar_height"]
    inner = (bh + gap) / 2
    outer = inner + bh + gap
    table = {1: [0.0], 2: [-inner, inner], 3: [-inner, inner, outer], 4: [-outer, -inner, inner, outer]}
    if n in table:
        return table[n]
    # More than the stacking limit (only in hand-made states): keep going downwards.
    return [-outer + i * (bh + gap) for i in range(n)]


@dataclass(frozen=True)
class BarGeometry:
    width: int
    height: int
    cap: int
    pad: int
    font_size: int
    pip: int
    pip_gap: int
    pip_cols: int


_geometry_cache: dict[tuple[int, str, int, float, float], BarGeometry] = {}


def bar_geometry(label: str, n_pips: int, R: float, th: Theme, scale: float = 1.0) -> BarGeometry:
    """Sizes of one bar for hex radius ``R``; ``scale`` enlarges the bar's contents
    (roomy hexes) but never its maximum width, which is bound to the hex."""
    key = (id(th), label, n_pips, R, scale)
    hit = _geometry_cache.get(key)
    if hit is None:
        if len(_geometry_cache) > 4096:
            _geometry_cache.clear()
        hit = _geometry_cache[key] = _bar_geometry(label, n_pips, R, th, scale)
    return hit


def _bar_geometry(label: str, n_pips: int, R: float, th: Theme, scale: float) -> BarGeometry:
    S = R * scale
    height = round(th.size("bar_height", S))
    cap = round(th.size("cap_width", S))
    size = round(th.size("unit_font", S))
    pad = max(1, round(S * 0.05))
    pip = max(3, round(th.size("pip", S)))
    gap = max(1, round(th.size("pip_gap", S)))
    cols = math.ceil(n_pips / 2)
    text_w = math.ceil(font(Face.CONDENSED_BOLD, size).getlength(label))
    pips_w = cols * pip + max(0, cols - 1) * gap + (pad if cols else 0)
    need = cap + pad + text_w + pad + pips_w
    lo, hi = min(round(th.size("bar_width", S)), math.floor(MAX_BAR_WIDTH * R)), math.floor(MAX_BAR_WIDTH * R)
    if need > hi and cols:
        # Squeeze the counters (never the number) to stay within the hex's reach.
        spare = hi - (cap + 2 * pad + text_w + pad)
        pip = max(3, (spare - (cols - 1) * gap) // cols)
        pips_w = cols * pip + (cols - 1) * gap + pad
        need = cap + pad + text_w + pad + pips_w
    return BarGeometry(max(lo, min(hi, need)), height, cap, pad, size, pip, gap, cols)


@lru_cache(maxsize=512)
def bar_sprite(width: int, height: int, cap: int, body: RGBA, cap_fill: RGBA, symbol: str,
               symbol_colour: RGBA, outline: RGBA, strike: RGBA | None, radius: float) -> Image.Image:
    """The bar without its text and counters, anti-aliased (drawn 4× and reduced)."""
    k = 4
    W, H = width * k, height * k
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = radius * k
    ow = max(1, round(k * 1.0))
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=r, fill=outline)
    d.rounded_rectangle((ow, ow, W - 1 - ow, H - 1 - ow), radius=max(0.0, r - ow), fill=body)
    # the cap: rounded on the left only (overdraw the right half square)
    cw = cap * k
    d.rounded_rectangle((ow, ow, cw, H - 1 - ow), radius=max(0.0, r - ow), fill=cap_fill)
    d.rectangle((cw - r, ow, cw, H - 1 - ow), fill=cap_fill)
    d.line((cw, ow, cw, H - 1 - ow), fill=outline, width=ow)
    m = H * 0.2
    draw_symbol(d, (cw * 0.18, m, cw * 0.86, H - m), symbol, symbol_colour, width=max(1.0, H * 0.075))
    if strike is not None:
        d.line((0, H - 1, W - 1, 0), fill=strike, width=max(2, round(H * 0.12)))
    return premultiplied_reduce(img, k)


@lru_cache(maxsize=64)
def disc_sprite(diameter: int, fill: RGBA, ring: RGBA, dot: RGBA | None) -> Image.Image:
    k = 4
    D = diameter * k
    img = Image.new("RGBA", (D, D), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, D - 1, D - 1), fill=ring)
    e = max(1, round(D * 0.14))
    d.ellipse((e, e, D - 1 - e, D - 1 - e), fill=fill)
    if dot is not None:
        c = D * 0.3
        d.ellipse((c, c, D - 1 - c, D - 1 - c), fill=dot)
    return premultiplied_reduce(img, k)


def draw_wedge(canvas: Canvas, layout: HexLayout, h: Hex, facing: int, fill: RGBA, outline: RGBA,
               th: Theme) -> None:
    """M-6.4 facing: an arrowhead on the faced hexside, pointing out of the hex."""
    R = layout.radius
    mx, my = layout.side_midpoint(h, facing)
    cx, cy = layout.centre(h)
    ux, uy = (mx - cx) / layout.apothem, (my - cy) / layout.apothem
    vx, vy = -uy, ux
    depth = th.size("wedge_depth", R)
    half = th.size("wedge_half", R)
    base = (mx - ux * depth * 0.4, my - uy * depth * 0.4)
    tip = (mx + ux * depth * 0.6, my + uy * depth * 0.6)
    pts = [(base[0] + vx * half, base[1] + vy * half), tip, (base[0] - vx * half, base[1] - vy * half)]
    sprite, (ox, oy) = _wedge_sprite(tuple((round(x - cx, 2), round(y - cy, 2)) for x, y in pts), fill, outline,
                                     max(1.0, R * 0.05))
    canvas.paste(sprite, (round(cx) + ox, round(cy) + oy))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    canvas.mark("wedge", (min(xs), min(ys), max(xs), max(ys)), hex=h)


@lru_cache(maxsize=256)
def _wedge_sprite(points: tuple[tuple[float, float], ...], fill: RGBA, outline: RGBA,
                  width: float) -> tuple[Image.Image, tuple[int, int]]:
    k = 4
    pad = int(width) + 2
    x0 = math.floor(min(p[0] for p in points)) - pad
    y0 = math.floor(min(p[1] for p in points)) - pad
    x1 = math.ceil(max(p[0] for p in points)) + pad
    y1 = math.ceil(max(p[1] for p in points)) + pad
    img = Image.new("RGBA", ((x1 - x0) * k, (y1 - y0) * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pts = [((x - x0) * k, (y - y0) * k) for x, y in points]
    d.polygon(pts, fill=fill)
    d.line(pts + [pts[0]], fill=outline, width=max(1, round(width * k)), joint="curve")
    return premultiplied_reduce(img, k), (x0, y0)


def draw_hex_units(canvas: Canvas, layout: HexLayout, h: Hex, looks: Sequence[TokenLook], th: Theme) -> None:
    """The bars of one hex (already in stacking order)."""
    R = layout.radius
    cx, cy = layout.centre(h)
    scale = bar_scale(len(looks), th)
    for offset, lk in zip(slot_offsets(len(looks), th), looks):
        draw_bar(canvas, (cx, cy + offset * R), lk, R, th, hex=h, scale=scale)


def draw_bar(canvas: Canvas, centre: tuple[float, float], lk: TokenLook, R: float, th: Theme, *,
             hex: Hex | None = None, kind: str = "unit-id", tier: str = "hex",
             scale: float = 1.0) -> tuple[int, int, int, int]:
    g = bar_geometry(lk.label, len(lk.pips), R, th, scale)
    x0 = round(centre[0] - g.width / 2)
    y0 = round(centre[1] - g.height / 2)
    side = th.sides[lk.unit.side]
    if lk.greyed:
        body, cap_fill, sym = th.colour("destroyed_body"), th.colour("destroyed_cap"), th.colour("destroyed_text")
        text_colour: RGB = rgb(th.colour("destroyed_text"))
        strike: RGBA | None = th.colour("destroyed_mark")
    else:
        body, cap_fill, sym = lk.nation.fill, side.cap, side.cap_symbol
        text_colour = text_on(lk.nation.fill)
        strike = None
    sprite = bar_sprite(g.width, g.height, g.cap, body, cap_fill, lk.symbol, sym, th.colour("outline"), strike,
                        th.size("bar_radius", R * scale))
    canvas.paste(sprite, (x0, y0))
    owner = lk.unit.id
    canvas.mark("token", (x0, y0, x0 + g.width, y0 + g.height), hex=hex, owner=owner)
    # the number, left-aligned after the cap, vertically centred on its cap height
    pips_w = g.pip_cols * g.pip + max(0, g.pip_cols - 1) * g.pip_gap + (g.pad if g.pip_cols else 0)
    text_left = x0 + g.cap + g.pad
    text_right = x0 + g.width - pips_w - g.pad
    tw = font(Face.CONDENSED_BOLD, g.font_size).getlength(lk.label)
    tx = text_left + max(0.0, (text_right - text_left - tw) / 2)
    cap_h = g.font_size * 0.73
    baseline = y0 + g.height / 2 + cap_h / 2
    if lk.label:
        canvas.text((tx, baseline), lk.label, face=Face.CONDENSED_BOLD, size=g.font_size,
                    fill=text_colour, anchor="ls", kind=kind, tier=tier, hex=hex, owner=owner)
    # counters: columns of two, from the right end inwards
    if lk.pips:
        right = x0 + g.width - g.pad
        rows_top = (y0 + (g.height - (2 * g.pip + g.pip_gap)) / 2) if len(lk.pips) > 1 else y0 + (g.height - g.pip) / 2
        for i, pip in enumerate(lk.pips):
            col, row = divmod(i, 2)
            px1 = right - col * (g.pip + g.pip_gap)
            px0 = px1 - g.pip
            py0 = round(rows_top + row * (g.pip + g.pip_gap))
            _draw_pip(canvas, pip, (px0, py0, px1, py0 + g.pip), lk, th)
            canvas.mark(f"pip-{pip}", (px0, py0, px1, py0 + g.pip), hex=hex, owner=owner)
    return x0, y0, x0 + g.width, y0 + g.height


def _draw_pip(canvas: Canvas, pip: str, box: tuple[int, int, int, int], lk: TokenLook, th: Theme) -> None:
    x0, y0, x1, y1 = box
    d = canvas.draw
    if pip == "passenger":
        fill = lk.passenger_fill or th.colour("passenger_dark")
        canvas.paste(disc_sprite(x1 - x0, th.colour("passenger"), th.colour("passenger_dark"), fill), (x0, y0))
    elif pip == "disrupted":
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=th.colour("disrupted"), outline=th.colour("disrupted_dark"))
    elif pip == "damaged":
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=th.colour("damaged"), outline=th.colour("damaged_dark"))
    elif pip == "hit":
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=th.colour("hit"), outline=th.colour("hit_edge"))
    else:
        raise ValueError(pip)
