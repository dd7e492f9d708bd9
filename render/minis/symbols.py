"""Unit type symbols (simplified NATO-style frames) drawn inside a token's cap.

Soldiers (a frame with a sign inside, except commanders):

- ``rifle``: crossed diagonals (the infantry sign);
- ``machine-gun``: crossed diagonals with a burst (a disc) where they cross;
- ``anti-tank``: an inverted V (the anti-armour sign);
- ``mortar``: a tube rising from its base plate (arrow over a ring);
- ``gun``: a towed gun, a barrel over two wheels;
- ``engineer``: a bridge (a beam on three legs);
- ``commander``: a star, no frame.

Vehicles:

- ``tank``: a track oval; ``armoured-car``: the oval with a slash (reconnaissance);
- ``sp-gun``: the oval filled (a gun on tracks: assault guns, howitzers);
- ``transport``: a frame on two wheels (half-tracks, trucks, cars).

Which symbol a card gets is read from its facts (M-1.5: type, subtype, attack dice,
abilities) by :func:`symbol_for`; ``theme.json`` ("symbols": subtype → symbol) may
override by subtype.
"""

from __future__ import annotations

from PIL import ImageDraw

from engine.minis.model import UnitCard
from render.core.colour import RGBA
from render.minis.terrain import star
from render.minis.theme import MinisTheme

SOLDIER_SYMBOLS = ("rifle", "machine-gun", "anti-tank", "mortar", "gun", "engineer", "commander")
VEHICLE_SYMBOLS = ("tank", "armoured-car", "sp-gun", "transport")
SYMBOLS = SOLDIER_SYMBOLS + VEHICLE_SYMBOLS
SYMBOL_NAMES = {
    "rifle": "Rifles", "machine-gun": "Machine gun", "anti-tank": "Anti-tank", "mortar": "Mortar",
    "gun": "Towed gun", "engineer": "Engineers", "commander": "Commander", "tank": "Tank",
    "armoured-car": "Armoured car", "sp-gun": "Self-propelled gun", "transport": "Transport",
}

# Abilities that mark a kind of weapon (names as on the cards, see docs/units.md).
_MORTAR_ABILITIES = ("Indirect Fire", "Inaccurate", "Shrapnel")
_MG_ABILITIES = ("Double Shot", "Suppressive Fire", "Overheat")
_TRANSPORT_ABILITIES = ("Gun Transport", "Transport")


def _dice(v: int | None) -> int:
    return v or 0


def symbol_for(card: UnitCard, th: MinisTheme) -> str:
    """The symbol of ``card``, from its facts (M-1.5):

    - a subtype listed in the theme's "symbols" decides (Commander, Half-Track, …);
    - Soldiers: a mortar fires indirectly or inaccurately with shrapnel, or hits harder
      at medium than at short range; Soldier–Artillery is a towed gun; Bridge
      Demolition marks engineers; more dice against Vehicles than against Soldiers at
      short range is an anti-tank team; Double Shot, Suppressive Fire or Overheat, or an
      attack on Soldiers at long range, a machine gun; anything else rifles;
    - Vehicles: a howitzer (Fixed Howitzer) or Vehicle–Artillery is a self-propelled
      gun, an armoured car is one, a transport carries Soldiers; anything else a tank.
    """
    sub = (card.subtype or "").strip().lower()
    if sub in th.symbols:
        return th.symbols[sub]
    if card.is_vehicle:
        if card.has("Fixed Howitzer") or card.is_artillery:
            return "sp-gun"
        if "armored car" in sub or "armoured car" in sub:
            return "armoured-car"
        if any(card.has(a) for a in _TRANSPORT_ABILITIES) and _dice(card.vs_vehicle[0]) <= 4:
            return "transport"
        return "tank"
    if card.is_commander:
        return "commander"
    if (any(card.has(a) for a in _MORTAR_ABILITIES)
            or _dice(card.vs_soldier[1]) > _dice(card.vs_soldier[0]) > 0):
        return "mortar"
    if card.is_artillery:
        return "gun"
    if card.has("Bridge Demolition"):
        return "engineer"
    if _dice(card.vs_vehicle[0]) > _dice(card.vs_soldier[0]):
        return "anti-tank"
    if any(card.has(a) for a in _MG_ABILITIES) or _dice(card.vs_soldier[2]) > 0:
        return "machine-gun"
    return "rifle"


def draw_symbol(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], kind: str,
                colour: RGBA, width: float) -> None:
    """Draw symbol ``kind`` filling ``box`` (x0, y0, x1, y1) with lines ``width`` px wide."""
    x0, y0, x1, y1 = box
    w = max(1, round(width))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    bw, bh = x1 - x0, y1 - y0
    if kind == "commander":
        r = min(bw, bh) / 2
        d.polygon(star((cx, cy + r * 0.08), r * 1.05, r * 0.45), fill=colour)
        return
    if kind == "transport":
        # the frame sits higher to leave room for the wheels
        fy1 = y0 + bh * 0.68
        d.rectangle((x0, y0 + bh * 0.08, x1, fy1), outline=colour, width=w)
        wr = bh * 0.15
        for wx in (x0 + bw * 0.27, x1 - bw * 0.27):
            d.ellipse((wx - wr, y1 - 2 * wr, wx + wr, y1), fill=colour)
        return
    fy0, fy1 = y0 + bh * 0.12, y1 - bh * 0.12
    d.rectangle((x0, fy0, x1, fy1), outline=colour, width=w)
    fh = fy1 - fy0
    if kind in ("rifle", "machine-gun"):
        d.line((x0, fy0, x1, fy1), fill=colour, width=w)
        d.line((x0, fy1, x1, fy0), fill=colour, width=w)
        if kind == "machine-gun":
            # a burst at the crossing
            r = fh * 0.38
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    elif kind == "anti-tank":
        d.line((x0 + w / 2, fy1, cx, fy0 + w / 2), fill=colour, width=round(w * 1.5))
        d.line((cx, fy0 + w / 2, x1 - w / 2, fy1), fill=colour, width=round(w * 1.5))
    elif kind == "mortar":
        # a tube (arrow) rising from its base plate (ring)
        r = fh * 0.17
        base = fy1 - w - r
        d.ellipse((cx - r, base - r, cx + r, base + r), outline=colour, width=max(1, w))
        top = fy0 + w
        a = fh * 0.3
        d.line((cx, base - r, cx, top + a), fill=colour, width=w)
        d.polygon([(cx, top), (cx - a, top + a), (cx + a, top + a)], fill=colour)
    elif kind == "gun":
        # a towed gun: a barrel over two wheels
        r = fh * 0.2
        wy = fy1 - w - r
        for wx in (cx - bw * 0.22, cx + bw * 0.22):
            d.ellipse((wx - r, wy - r, wx + r, wy + r), fill=colour)
        d.line((x0 + bw * 0.12, wy - r * 0.2, x1 - bw * 0.08, fy0 + w + fh * 0.1), fill=colour, width=round(w * 1.4))
    elif kind == "engineer":
        beam = fy0 + fh * 0.34
        left, right = x0 + bw * 0.2, x1 - bw * 0.2
        d.line((left, beam, right, beam), fill=colour, width=w)
        for lx in (left, cx, right):
            d.line((lx, beam, lx, fy1 - fh * 0.2), fill=colour, width=w)
    elif kind in ("tank", "armoured-car", "sp-gun"):
        ix, iy = bw * 0.18, fh * (0.17 if kind == "sp-gun" else 0.24)
        oval = (x0 + ix, fy0 + iy, x1 - ix, fy1 - iy)
        rr = (fh - 2 * iy) / 2
        if kind == "sp-gun":
            # a gun on tracks: the oval filled
            d.rounded_rectangle(oval, radius=rr, fill=colour)
        else:
            d.rounded_rectangle(oval, radius=rr, outline=colour, width=w)
        if kind == "armoured-car":
            d.line((x0, fy1, x1, fy0), fill=colour, width=round(w * 1.5))
    else:
        raise ValueError(f"unknown symbol {kind!r}")
