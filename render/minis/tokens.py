"""Unit tokens on the map.

A token is a bar: a *cap* in the side's colour (near-black for the Axis, off-white for
the Allies) holding the type symbol, then a *body* in the nation's colour with the
unit's number (``ax3`` → "3"; the cap tells Axis from Allies), then counters, squares in
columns of two:

- passenger marker (white disc with the passenger's nation colour) on a transport;
- face-up Disrupted (yellow) and Damaged (red) counters (M-8);
- one black square per face-down hit placed this assault phase (M-9.3) — when a hex is
  too crowded for all of them at a readable size, the hits become one *stack* (two
  offset black squares; the close-up and the roster show every counter);
- a unit with a face-down Destroyed counter is drawn grey with a red strike until the
  casualty phase removes it (M-16.3); a unit removed in the phase shown is a pale
  "ghost" with a red cross, so the attacks that removed it point at something.

A Vehicle also gets a facing arrow (M-6.4): from under its token out of the hex through
the faced hexside, drawn under the tokens.  A hex holds at most 2 units per side and 1
Vehicle (M-6.2): up to four bars, Axis above Allies.  With one or two units the bars are
larger ("roomy") when their counters still fit at a readable size; a full hex covers its
label (the roster lists every unit's hex).

Counter sizes are chosen for the phone: the board passes the smallest counter side in
pixels that stays readable once the image is shown 550 px wide
(:mod:`render.core.legibility`), and the bars are laid out to respect it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex
from engine.minis.model import AXIS, UnitCard
from engine.minis.state import Hit, MinisState, UnitState
from render.core.canvas import Canvas, premultiplied_reduce
from render.core.colour import RGB, RGBA, rgb, text_on
from render.core.fonts import Face, text_width
from render.core.layout import HexLayout
from render.minis.symbols import draw_symbol, symbol_for
from render.minis.theme import MinisTheme, NationStyle

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
    ghost: bool = False  # removed from the map in the phase shown
    stacked_hits: int = 0  # >0: the face-down hits drawn as one stack of that many

    def with_stacked_hits(self) -> TokenLook:
        hits = sum(1 for p in self.pips if p == "hit")
        if hits < 2:
            return self
        return replace(self, pips=tuple(p for p in self.pips if p != "hit") + ("hit",), stacked_hits=hits)


def unit_number(unit: UnitState, th: MinisTheme) -> str:
    """The token text: the id without its side prefix when it has one ("ax3" → "3")."""
    prefix = th.sides[unit.side].id_prefix if unit.side in th.sides else ""
    m = re.fullmatch(re.escape(prefix) + r"(\d+)", unit.id) if prefix else None
    return m.group(1) if m else unit.id


def look(state: MinisState, unit: UnitState, th: MinisTheme, *, ghost: bool = False) -> TokenLook:
    card = state.card(unit)
    pips: list[str] = []
    passenger_fill: RGBA | None = None
    aboard = state.passengers(unit.id)
    if aboard and not ghost:
        p = aboard[0]
        pips.append("passenger")
        passenger_fill = th.nation(state.card(p).nation, p.side).fill
    if not ghost:
        if unit.disrupted:
            pips.append("disrupted")
        if unit.damaged:
            pips.append("damaged")
        pips.extend("hit" for _ in unit.hits)
    return TokenLook(unit, card, th.nation(card.nation, unit.side), symbol_for(card, th),
                     unit_number(unit, th), tuple(pips), passenger_fill, Hit.DESTROYED in unit.hits, ghost)


def stack_order(units: Sequence[UnitState]) -> list[UnitState]:
    """Axis first, then Allies; by unit number within a side."""
    def key(u: UnitState) -> tuple[int, int, str]:
        digits = re.findall(r"\d+", u.id)
        return (0 if u.side == AXIS else 1, int(digits[-1]) if digits else 0, u.id)

    return sorted(units, key=key)


def slot_offsets(n: int, th: MinisTheme, *, roomy: bool) -> list[float]:
    """Vertical offsets (× R) of the bar centres for ``n`` units in one hex."""
    gap = th.sizes["bar_gap"]
    if roomy and n <= 2:
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
    pip_rows: int

    @property
    def pips_width(self) -> int:
        return self.pip_cols * self.pip + max(0, self.pip_cols - 1) * self.pip_gap + (self.pad if self.pip_cols else 0)


_geometry_cache: dict[tuple[int, str, int, float, float, float | None], BarGeometry] = {}


def bar_geometry(label: str, n_pips: int, R: float, th: MinisTheme, scale: float = 1.0, *,
                 max_width: float | None = -1.0) -> BarGeometry:
    """Sizes of one bar for hex radius ``R``; ``scale`` enlarges the bar's contents
    (roomy hexes).  On the map a bar is at most ``MAX_BAR_WIDTH × R`` wide (the default
    ``max_width=-1``), and its counters shrink to fit; ``max_width=None`` lets it grow
    (roster chips)."""
    limit = math.floor(MAX_BAR_WIDTH * R) if max_width == -1.0 else max_width
    key = (id(th), label, n_pips, R, scale, limit)
    hit = _geometry_cache.get(key)
    if hit is None:
        if len(_geometry_cache) > 4096:
            _geometry_cache.clear()
        hit = _geometry_cache[key] = _bar_geometry(label, n_pips, R, th, scale, limit)
    return hit


def _bar_geometry(label: str, n_pips: int, R: float, th: MinisTheme, scale: float,
                  limit: float | None) -> BarGeometry:
    S = R * scale
    height = round(th.size("bar_height", S))
    cap = round(th.size("cap_width", S))
    size = round(th.size("unit_font", S))
    pad = max(1, round(th.size("bar_pad", S)))
    gap = max(1, round(th.size("pip_gap", S)))
    pip = max(3, round(th.size("pip", S)))
    rows = 2 if n_pips > 1 and 2 * pip + gap <= height else 1
    pip = min(pip, height - 2) if rows == 1 else pip
    cols = math.ceil(n_pips / rows)
    text_w = math.ceil(text_width(Face.CONDENSED_BOLD, size, label))
    pips_w = cols * pip + max(0, cols - 1) * gap + (pad if cols else 0)
    need = cap + pad + text_w + pad + pips_w
    lo = round(th.size("bar_width", R))  # roomy bars grow with their contents only
    if limit is not None:
        lo = min(lo, int(limit))
        if need > limit and cols:
            # Squeeze the counters (never the number) to stay within the hex's reach.
            spare = int(limit) - (cap + 2 * pad + text_w + pad)
            pip = max(1, (spare - (cols - 1) * gap) // cols)
            pips_w = cols * pip + (cols - 1) * gap + pad
            need = cap + pad + text_w + pad + pips_w
        width = max(lo, min(int(limit), need))
    else:
        width = max(lo, need)
    return BarGeometry(width, height, cap, pad, size, pip, gap, cols, rows)


@dataclass(frozen=True)
class HexTokens:
    """How the bars of one hex are drawn: roomy or compact, and each unit's look (with
    its hits stacked when the hex is too crowded for every counter)."""

    roomy: bool
    looks: tuple[TokenLook, ...]


def arrange(looks: Sequence[TokenLook], R: float, th: MinisTheme, min_pip: int) -> HexTokens:
    """Roomy bars when the hex holds one or two units and every counter still gets at
    least ``min_pip`` pixels; else compact bars, with a unit's hits stacked when its
    counters would otherwise get less."""
    if len(looks) <= 2:
        roomy = th.sizes["roomy_scale"]
        if all(not lk.pips or bar_geometry(lk.label, len(lk.pips), R, th, roomy).pip >= min_pip for lk in looks):
            return HexTokens(True, tuple(looks))
    out = []
    for lk in looks:
        if lk.pips and bar_geometry(lk.label, len(lk.pips), R, th).pip < min_pip:
            lk = lk.with_stacked_hits()
        out.append(lk)
    return HexTokens(False, tuple(out))


@lru_cache(maxsize=512)
def bar_sprite(width: int, height: int, cap: int, body: RGBA, cap_fill: RGBA, symbol: str,
               symbol_colour: RGBA, outline: RGBA, strike: RGBA | None, radius: float,
               cross: bool = False) -> Image.Image:
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
    m = H * 0.18
    draw_symbol(d, (cw * 0.14, m, cw * 0.88, H - m), symbol, symbol_colour, width=max(1.0, H * 0.075))
    if strike is not None:
        d.line((0, H - 1, W - 1, 0), fill=strike, width=max(2, round(H * 0.12)))
        if cross:
            d.line((0, 0, W - 1, H - 1), fill=strike, width=max(2, round(H * 0.12)))
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


# ---------------------------------------------------------------------------- facing
def facing_points(layout: HexLayout, h: Hex, facing: int, th: MinisTheme) -> list[tuple[float, float]]:
    """The outline of a facing arrow (M-6.4): a shaft from under the token to the faced
    hexside and an arrowhead beyond it, pointing away from the hex centre.  Its shape has
    one axis and one tip, so no two facings look alike."""
    R = layout.radius
    cx, cy = layout.centre(h)
    mx, my = layout.side_midpoint(h, facing)
    ux, uy = (mx - cx) / layout.apothem, (my - cy) / layout.apothem
    vx, vy = -uy, ux
    tail, tip = th.size("facing_tail", R), th.size("facing_tip", R)
    head, half, shaft = th.size("facing_head", R), th.size("facing_half", R), th.size("facing_shaft", R) / 2

    def at(along: float, across: float) -> tuple[float, float]:
        return cx + ux * along + vx * across, cy + uy * along + vy * across

    neck = tip - head
    return [at(tail, -shaft), at(neck, -shaft), at(neck, -half), at(tip, 0.0), at(neck, half), at(neck, shaft),
            at(tail, shaft)]


def draw_facing(canvas: Canvas, layout: HexLayout, h: Hex, facing: int, fill: RGBA, outline: RGBA,
                th: MinisTheme) -> None:
    pts = facing_points(layout, h, facing, th)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    box = (min(xs), min(ys), max(xs), max(ys))
    cx, cy = layout.centre(h)
    sprite, (ox, oy) = _facing_sprite(tuple((round(x - cx, 2), round(y - cy, 2)) for x, y in pts), fill, outline,
                                      max(1.0, layout.radius * 0.045))
    canvas.paste(sprite, (round(cx) + ox, round(cy) + oy))
    canvas.mark("facing", box, hex=h)
    tip = pts[3]
    canvas.mark("facing-tip", (tip[0], tip[1], tip[0], tip[1]), hex=h)


@lru_cache(maxsize=256)
def _facing_sprite(points: tuple[tuple[float, float], ...], fill: RGBA, outline: RGBA,
                   width: float) -> tuple[Image.Image, tuple[int, int]]:
    """The arrow relative to its hex centre, anti-aliased (drawn 4× and reduced)."""
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


# ---------------------------------------------------------------------------- bars
def draw_hex_units(canvas: Canvas, layout: HexLayout, h: Hex, tokens: HexTokens, th: MinisTheme) -> None:
    """The bars of one hex (already in stacking order)."""
    R = layout.radius
    cx, cy = layout.centre(h)
    scale = th.sizes["roomy_scale"] if tokens.roomy else 1.0
    for offset, lk in zip(slot_offsets(len(tokens.looks), th, roomy=tokens.roomy), tokens.looks):
        draw_bar(canvas, (cx, cy + offset * R), lk, R, th, hex=h, scale=scale)


def draw_bar(canvas: Canvas, centre: tuple[float, float], lk: TokenLook, R: float, th: MinisTheme, *,
             hex: Hex | None = None, kind: str = "unit-id", tier: str = "hex", scale: float = 1.0,
             max_width: float | None = -1.0) -> tuple[int, int, int, int]:
    g = bar_geometry(lk.label, len(lk.pips), R, th, scale, max_width=max_width)
    x0 = round(centre[0] - g.width / 2)
    y0 = round(centre[1] - g.height / 2)
    side = th.sides[lk.unit.side]
    if lk.ghost:
        body, cap_fill, sym = th.colour("ghost_body"), th.colour("ghost_cap"), th.colour("ghost_text")
        text_colour: RGB = rgb(th.colour("ghost_text"))
        strike: RGBA | None = th.colour("destroyed_mark")
    elif lk.greyed:
        body, cap_fill, sym = th.colour("destroyed_body"), th.colour("destroyed_cap"), th.colour("destroyed_text")
        text_colour = rgb(th.colour("destroyed_text"))
        strike = th.colour("destroyed_mark")
    else:
        body, cap_fill, sym = lk.nation.fill, side.cap, side.cap_symbol
        text_colour = text_on(lk.nation.fill)
        strike = None
    sprite = bar_sprite(g.width, g.height, g.cap, body, cap_fill, lk.symbol, sym, th.colour("outline"), strike,
                        th.size("bar_radius", R * scale), lk.ghost)
    canvas.paste(sprite, (x0, y0))
    owner = lk.unit.id
    canvas.mark("ghost" if lk.ghost else "token", (x0, y0, x0 + g.width, y0 + g.height), hex=hex, owner=owner)
    # the number, left-aligned after the cap, vertically centred on its cap height
    text_left = x0 + g.cap + g.pad
    text_right = x0 + g.width - g.pips_width - g.pad
    tw = text_width(Face.CONDENSED_BOLD, g.font_size, lk.label)
    tx = text_left + max(0.0, (text_right - text_left - tw) / 2)
    cap_h = g.font_size * 0.73
    baseline = y0 + g.height / 2 + cap_h / 2
    if lk.label:
        canvas.text((tx, baseline), lk.label, face=Face.CONDENSED_BOLD, size=g.font_size,
                    fill=text_colour, anchor="ls", kind=kind, tier=tier, hex=hex, owner=owner)
    # counters: columns of g.pip_rows, from the right end inwards
    if lk.pips:
        right = x0 + g.width - g.pad
        block = g.pip_rows * g.pip + (g.pip_rows - 1) * g.pip_gap
        rows_top = y0 + (g.height - block) / 2 if len(lk.pips) > 1 else y0 + (g.height - g.pip) / 2
        for i, pip in enumerate(lk.pips):
            col, row = divmod(i, g.pip_rows)
            px1 = right - col * (g.pip + g.pip_gap)
            px0 = px1 - g.pip
            py0 = round(rows_top + row * (g.pip + g.pip_gap))
            stack = lk.stacked_hits if pip == "hit" and i == len(lk.pips) - 1 else 0
            _draw_pip(canvas, pip, (px0, py0, px1, py0 + g.pip), lk, th, stack)
            canvas.mark(f"pip-{pip}", (px0, py0, px1, py0 + g.pip), hex=hex, owner=owner, tier=tier,
                        text=str(stack) if stack else "")
    return x0, y0, x0 + g.width, y0 + g.height


def _draw_pip(canvas: Canvas, pip: str, box: tuple[int, int, int, int], lk: TokenLook, th: MinisTheme,
              stack: int = 0) -> None:
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
        if stack > 1:
            # a stack: a square behind (top left) peeking out from the front one (bottom right)
            s = max(2, round((x1 - x0) * 0.72))
            d.rectangle((x0, y0, x0 + s - 1, y0 + s - 1), fill=th.colour("hit"), outline=th.colour("hit_edge"))
            d.rectangle((x1 - s, y1 - s, x1 - 1, y1 - 1), fill=th.colour("hit"), outline=th.colour("hit_edge"))
        else:
            d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=th.colour("hit"), outline=th.colour("hit_edge"))
    else:
        raise ValueError(pip)
