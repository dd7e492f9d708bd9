"""The Memoir '44 board (E-2): 13 × 9 pointy-top hexes with their terrain, obstacles,
section lines, hex labels, units (type, side, figures left, badge), medal objectives and
who holds them, and — from the events of the turn shown — arrows for moves, battles and
retreats, the dice rolled with their faces, the card played and the medals per side.

Drawn from a state *as the viewer may see it* (the public view for everything the
channel sees): the hands are never drawn, only their sizes.  Readable at 550 px wide
(tests/test_memoir_render.py measures it with render.core.legibility).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Hashable, Mapping, Sequence

from PIL import Image

from engine.core.errors import PlayerError
from engine.core.hexgrid import Hex
from engine.memoir.board import LABELS, SEATS, all_hexes, doubled_column, label, parse_hex
from engine.memoir.scenario import Scenario
from engine.memoir.state import MemoirState, Unit
from engine.memoir.tables import card_kinds
from engine.memoir.turn import shown_medals
from render.core.cache import LayerCache
from render.core.canvas import Canvas, Drawn
from render.core.colour import RGBA
from render.core.encode import png
from render.core.fonts import Face, text_width
from render.core.frame import FramedBoard, draw_coordinates, draw_hex_label, framed
from render.core.layout import HexLayout
from render.core.legend import LegendItem, draw_legend, hex_icon, icon_height, legend_height, swatch_icon
from render.core.theme import Theme, base_fields, load_theme_data
from render.core.title import draw_title, title_height, title_lines

EventDict = Mapping[str, Any]
TYPE_LETTER = {"infantry": "I", "armor": "A", "artillery": "G"}
BADGE_MARK = {"special-forces": "SF", "elite": "E", "resistance": "R"}
FACE_TEXT = {"infantry": "Inf", "armor": "Tank", "grenade": "Gren", "star": "★", "flag": "Flag"}
SIDE_NAME = {"axis": "Axis", "allies": "Allies"}


@lru_cache(maxsize=1)
def theme() -> Theme:
    return Theme(**base_fields(load_theme_data("render.memoir"), name="memoir"))


@lru_cache(maxsize=1)
def frame() -> FramedBoard:
    th = theme()
    return framed(all_hexes(), th.unit_px, th, flat=False)


def _c(name: str) -> RGBA:
    return theme().colour(name)


# --------------------------------------------------------------------------- terrain


def _hexagon(layout: HexLayout, h: Hex, inset: float = 0.0) -> list[tuple[float, float]]:
    return layout.corners(h, inset=inset)


def draw_terrain(d: Any, layout: HexLayout, h: Hex, kind: str) -> None:
    """Fill ``h`` with its terrain and symbol (kept low in the hex: the middle is for
    units, the top for the hex label)."""
    R = layout.radius
    cx, cy = layout.centre(h)
    base = "river" if kind == "bridge" else kind
    d.polygon(_hexagon(layout, h), fill=_c(base if base in theme().colours else "clear"))
    low = cy + R * 0.58
    if kind == "forest":
        for dx in (-0.42, 0.0, 0.42):
            r = R * 0.17
            x, y = cx + dx * R, low - (R * 0.06 if dx == 0 else 0)
            d.ellipse((x - r, y - r, x + r, y + r), fill=_c("tree"))
    elif kind == "hill":
        d.arc((cx - R * 0.7, cy - R * 0.1, cx + R * 0.7, cy + R * 1.0), 200, 340, fill=_c("contour"),
              width=max(2, round(R * 0.07)))
    elif kind == "town":
        for dx in (-0.3, 0.3):
            x = cx + dx * R
            w = R * 0.16
            d.rectangle((x - w, low - w * 0.6, x + w, low + w), fill=(236, 232, 224, 255))
            d.polygon([(x - w * 1.3, low - w * 0.6), (x + w * 1.3, low - w * 0.6), (x, low - w * 1.8)],
                      fill=_c("roof"))
    elif kind in ("river", "ocean", "pond"):
        for k in (-0.25, 0.25):
            y = low + k * R * 0.5
            d.line([(cx - R * 0.45, y), (cx - R * 0.15, y - R * 0.08), (cx + R * 0.15, y),
                    (cx + R * 0.45, y - R * 0.08)], fill=(220, 236, 248, 255), width=max(1, round(R * 0.05)))
    elif kind == "bridge":
        d.rectangle((cx - R * 0.55, cy - R * 0.2, cx + R * 0.55, cy + R * 0.62), fill=_c("bridge"))
        d.line([(cx - R * 0.55, cy - R * 0.2), (cx + R * 0.55, cy - R * 0.2)], fill=(60, 40, 20, 255), width=2)
        d.line([(cx - R * 0.55, cy + R * 0.62), (cx + R * 0.55, cy + R * 0.62)], fill=(60, 40, 20, 255), width=2)
    elif kind == "hedgerow":
        for dx in (-0.45, -0.15, 0.15, 0.45):
            r = R * 0.1
            d.ellipse((cx + dx * R - r, low - r, cx + dx * R + r, low + r), fill=_c("tree"))
    elif kind == "beach":
        for dx, dy in ((-0.3, 0.0), (0.0, 0.12), (0.3, 0.0)):
            r = R * 0.04
            d.ellipse((cx + dx * R - r, low + dy * R - r, cx + dx * R + r, low + dy * R + r), fill=(196, 168, 100, 255))


def _section_xs(layout: HexLayout) -> list[float]:
    xs = []
    for c in (7, 17):
        h = next(h for h in all_hexes() if doubled_column(h) == c)
        xs.append(layout.centre(h)[0])
    return xs


def _fingerprint(sc: object) -> Hashable:
    assert isinstance(sc, Scenario)
    return (sc.face, tuple(sorted((label(h), t) for h, t in sc.terrain)))


_STATIC: LayerCache[tuple[Image.Image, tuple[Drawn, ...]]] = LayerCache(8)


def static_layer(sc: Scenario) -> tuple[Image.Image, tuple[Drawn, ...]]:
    """Terrain, grid, section lines, coordinates and hex labels of a scenario's board:
    drawn once per board content and reused by every image of it."""
    def draw() -> tuple[Image.Image, tuple[Drawn, ...]]:
        th = theme()
        fb = frame()
        canvas = Canvas(Image.new("RGB", (fb.width, fb.height), th.colour("frame")[:3]))
        layout = fb.layout
        tmap = sc.terrain_map
        for h in all_hexes():
            draw_terrain(canvas.draw, layout, h, tmap[h])
        grid = th.colour("outline")
        for h in all_hexes():
            canvas.draw.polygon(_hexagon(layout, h), outline=grid, width=max(1, round(layout.radius * 0.04)))
        top = layout.bbox(all_hexes())[1]
        bottom = layout.bbox(all_hexes())[3]
        for x in _section_xs(layout):
            y = top
            dash = layout.radius * 0.35
            while y < bottom:
                canvas.draw.line([(x, y), (x, min(bottom, y + dash))], fill=_c("section_line"),
                                 width=max(2, round(layout.radius * 0.07)))
                y += dash * 1.8
        draw_coordinates(canvas, layout, LABELS, all_hexes(), fb.frame, th)
        for h in all_hexes():
            draw_hex_label(canvas, layout, h, label(h), (24, 24, 24, 255), th, halo=(250, 250, 246, 255))
        return canvas.image, tuple(canvas.items)

    return _STATIC.get(sc, _fingerprint, "board", draw)


# --------------------------------------------------------------------------- pieces


def _obstacle(canvas: Canvas, layout: HexLayout, h: Hex, kind: str, owner: str | None) -> None:
    R = layout.radius
    cx, cy = layout.centre(h)
    d = canvas.draw
    w = max(2, round(R * 0.08))
    if kind == "sandbags":
        d.arc((cx - R * 0.75, cy - R * 0.75, cx + R * 0.75, cy + R * 0.75), 20, 160, fill=_c("sandbags"),
              width=round(R * 0.16))
    elif kind == "wire":
        for k in range(4):
            x = cx - R * 0.6 + k * R * 0.4
            d.line([(x - R * 0.12, cy + R * 0.32), (x + R * 0.12, cy + R * 0.62)], fill=_c("wire"), width=w)
            d.line([(x + R * 0.12, cy + R * 0.32), (x - R * 0.12, cy + R * 0.62)], fill=_c("wire"), width=w)
        d.line([(cx - R * 0.7, cy + R * 0.47), (cx + R * 0.7, cy + R * 0.47)], fill=_c("wire"), width=max(1, w // 2))
    elif kind == "hedgehog":
        for dx in (-0.35, 0.35):
            x, y, s = cx + dx * R, cy + R * 0.6, R * 0.14
            d.line([(x - s, y - s), (x + s, y + s)], fill=_c("hedgehog"), width=w)
            d.line([(x + s, y - s), (x - s, y + s)], fill=_c("hedgehog"), width=w)
    elif kind == "bunker":
        d.polygon(_hexagon(layout, h, inset=R * 0.12), outline=_c(owner or "axis"), width=round(R * 0.12))
        d.rectangle((cx - R * 0.5, cy + R * 0.42, cx + R * 0.5, cy + R * 0.72), fill=_c("bunker"),
                    outline=_c("token_edge"))


def _objectives(canvas: Canvas, layout: HexLayout, s: MemoirState) -> None:
    R = layout.radius
    for o in s.scenario.objectives:
        cx, cy = layout.centre(o.hex)
        u = s.by_hex.get(o.hex)
        holder = u.side if u is not None and o.counts_for(u.side) else None
        if holder is None:
            holder = next((side for h, side in s.taken if h == o.hex), None)
        x, y, r = cx + R * 0.62, cy + R * 0.02, R * 0.24
        d = canvas.draw
        d.ellipse((x - r, y - r, x + r, y + r), fill=_c("medal"), outline=_c(holder) if holder else _c("token_edge"),
                  width=max(2, round(R * 0.09)) if holder else 1)
        canvas.text((x, y), str(o.medals), face=Face.BOLD, size=round(R * 0.36), fill=(24, 24, 24, 255),
                    anchor="mm", kind="medal", tier="hex", hex=o.hex)


def _unit(canvas: Canvas, layout: HexLayout, u: Unit) -> None:
    th = theme()
    R = layout.radius
    cx, cy = layout.centre(u.hex)
    cy += R * 0.12
    r = th.size("token_radius", R)
    canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_c(u.side), outline=_c("token_edge"),
                        width=max(2, round(R * 0.06)))
    text = f"{TYPE_LETTER.get(u.type, '?')}{u.figures}"
    canvas.text((cx, cy), text, face=Face.BOLD, size=round(th.size("token_font", R)),
                fill=_c(f"{u.side}_text"), anchor="mm", kind="unit", tier="hex", hex=u.hex, owner=u.side)
    if u.badge:
        bx, by = cx - r * 1.0, cy + r * 0.85
        canvas.text((bx, by), BADGE_MARK.get(u.badge, "★"), face=Face.CONDENSED_BOLD,
                    size=round(th.size("badge_font", R)), fill=(250, 220, 40, 255), anchor="mm", kind="badge",
                    tier="hex", hex=u.hex, stroke=2, stroke_fill=(16, 16, 16, 255))


def _arrow(canvas: Canvas, pts: Sequence[tuple[float, float]], colour: RGBA, width: int, *,
           dashed: bool = False) -> None:
    if len(pts) < 2:
        return
    d = canvas.draw
    for a, b in zip(pts, pts[1:]):
        if dashed:
            n = max(1, int(math.dist(a, b) / (width * 3)))
            for i in range(0, n, 2):
                p = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
                q = (a[0] + (b[0] - a[0]) * (i + 1) / n, a[1] + (b[1] - a[1]) * (i + 1) / n)
                d.line([p, q], fill=colour, width=width)
        else:
            d.line([a, b], fill=colour, width=width, joint="curve")
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    size = width * 3.2
    tip = (x1, y1)
    left = (x1 - size * math.cos(ang - 0.45), y1 - size * math.sin(ang - 0.45))
    right = (x1 - size * math.cos(ang + 0.45), y1 - size * math.sin(ang + 0.45))
    d.polygon([tip, left, right], fill=colour)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    canvas.mark("arrow", (min(xs), min(ys), max(xs), max(ys)))


def _hexes(names: Sequence[str]) -> list[Hex]:
    out = []
    for n in names:
        try:
            out.append(parse_hex(str(n)))
        except PlayerError:
            continue
    return out


def _overlays(canvas: Canvas, layout: HexLayout, events: Sequence[EventDict]) -> None:
    R = layout.radius
    w = max(3, round(theme().size("arrow_width", R)))
    for e in events:
        t = e.get("type")
        if t == "Moved":
            pts = [layout.centre(h) for h in _hexes(e["path"])]
            _arrow(canvas, _shorten(pts, R * 0.5), _c("move_arrow"), w)
        elif t == "BattleDeclared":
            pts = [layout.centre(h) for h in _hexes([e["attacker"], e["target"]])]
            _arrow(canvas, _shorten(pts, R * 0.45, start=R * 0.45), _c("battle_arrow"), w)
        elif t == "Retreated":
            pts = [layout.centre(h) for h in _hexes(e["path"])]
            _arrow(canvas, _shorten(pts, R * 0.5), _c("retreat_arrow"), w, dashed=True)
        elif t == "Eliminated":
            for h in _hexes([e["hex"]]):
                cx, cy = layout.centre(h)
                s = R * 0.32
                for a, b in (((cx - s, cy - s), (cx + s, cy + s)), ((cx + s, cy - s), (cx - s, cy + s))):
                    canvas.draw.line([a, b], fill=_c("battle_arrow"), width=w + 2)
                canvas.mark("eliminated", (cx - s, cy - s, cx + s, cy + s), hex=h)
        elif t == "Targeted":
            for h in _hexes(e["hexes"]):
                canvas.draw.polygon(_hexagon(layout, h, inset=R * 0.08), outline=_c("battle_arrow"),
                                    width=round(R * 0.1))


def _shorten(pts: list[tuple[float, float]], end: float, start: float = 0.0) -> list[tuple[float, float]]:
    if len(pts) < 2:
        return pts
    out = list(pts)
    (x0, y0), (x1, y1) = out[-2], out[-1]
    dist = math.dist((x0, y0), (x1, y1)) or 1.0
    out[-1] = (x1 - (x1 - x0) * end / dist, y1 - (y1 - y0) * end / dist)
    if start:
        (a0, b0), (a1, b1) = out[0], out[1]
        dist = math.dist((a0, b0), (a1, b1)) or 1.0
        out[0] = (a0 + (a1 - a0) * start / dist, b0 + (b1 - b0) * start / dist)
    return out


# --------------------------------------------------------------------------- panels


@dataclass(frozen=True)
class DiceRow:
    label: str
    faces: tuple[str, ...]


def dice_rows(events: Sequence[EventDict]) -> list[DiceRow]:
    out = []
    for e in events:
        if e.get("type") == "Rolled":
            who = e.get("attacker") or str(e.get("why", "")).replace("-", " ").title()
            out.append(DiceRow(f"{who}→{e['target']}:", tuple(e["faces"])))
        elif e.get("type") == "CardDice":
            out.append(DiceRow(f"{card_kinds()[str(e['card'])].name}:", tuple(e["faces"])))
    return out


def _info_lines(s: MemoirState, events: Sequence[EventDict]) -> list[str]:
    a, b = shown_medals(s)
    sc = s.scenario
    lines = [f"Medals  Axis {a}/{sc.medals[0]}  ·  Allies {b}/{sc.medals[1]}",
             "Cards  " + "  ·  ".join(f"{SIDE_NAME[seat]} {len(s.hands[i])} in hand" for i, seat in enumerate(SEATS))
             + f"  ·  deck {len(s.deck)}  ·  discards {len(s.discard)}"]
    played = [e for e in events if e.get("type") == "CardPlayed"]
    if played:
        p = played[-1]
        name = card_kinds()[str(p["card"])].name
        lines.append(f"Card played  {SIDE_NAME.get(str(p['seat']), p['seat'])}: {name}")
    return lines


def _legend_items(s: MemoirState, unit: float, th: Theme) -> list[LegendItem]:
    ih = icon_height(unit, th)
    items: list[LegendItem] = []
    seen = sorted(set(s.scenario.terrain_map.values()), key=lambda k: list(theme().colours).index(k)
                  if k in theme().colours else 99)
    for kind in seen:
        def drawer(d: Any, layout: HexLayout, h: Hex, kind: str = kind) -> None:
            draw_terrain(d, layout, h, kind)
        items.append(LegendItem(hex_icon(f"memoir-{kind}", drawer, flat=False), ih, kind))
    for side in SEATS:
        items.append(LegendItem(swatch_icon(_c(side), _c("token_edge")), ih, SIDE_NAME[side]))
    items.append(LegendItem(swatch_icon(_c("medal"), _c("token_edge")), ih, "medal objective"))
    obstacles = sorted({k for _, k, _ in s.obstacles})
    for k in obstacles:
        items.append(LegendItem(swatch_icon(_c(k), _c("token_edge")), ih, k))
    items.append(LegendItem(swatch_icon(_c("move_arrow"), _c("move_arrow")), ih, "move"))
    items.append(LegendItem(swatch_icon(_c("battle_arrow"), _c("battle_arrow")), ih, "battle"))
    items.append(LegendItem(swatch_icon(_c("retreat_arrow"), _c("retreat_arrow")), ih, "retreat"))
    items.append(LegendItem(swatch_icon(_c("section_line"), _c("section_line")), ih, "section line"))
    items.append(LegendItem(swatch_icon(_c("battle_arrow"), _c("token_edge")), ih, "✕ eliminated"))
    text = "I infantry · A armor · G artillery · number = figures · SF/E/R badge"
    items.append(LegendItem(swatch_icon(_c("axis"), _c("token_edge")), ih, text))
    return items


def board(state: MemoirState, *, events: Sequence[EventDict] = (), title: str | None = None,
          right: str | None = None) -> Canvas:
    """The whole picture as a :class:`Canvas` (image + every text and mark recorded);
    ``title`` and ``right`` are the title bar's two ends (default: the scenario, the turn)."""
    th = theme()
    fb = frame()
    unit = float(th.unit_px)
    width = fb.width
    s = state
    if right is None:
        right = f"turn {s.turn}" if not s.over else "game over"
    tl = title_lines(title or s.scenario.name, right, width, unit, th)
    th_h = title_height(tl, unit, th)
    panel_font = round(th.size("panel_font", unit))
    line_h = round(th.size("panel_line", unit))
    info = _info_lines(s, events)
    rows = dice_rows(events)
    die_h = round(panel_font * 1.35)
    dice_h = len(rows) * (die_h + 6)
    items = _legend_items(s, unit, th)
    leg_h = legend_height(items, width, unit, th)
    pad = round(th.size("panel_pad", unit))
    height = th_h + fb.height + pad + len(info) * line_h + dice_h + pad + leg_h
    image = Image.new("RGB", (width, height), th.colour("panel")[:3])
    static, drawn = static_layer(s.scenario)
    image.paste(static, (0, th_h))
    layout = fb.layout.shifted(0, th_h)
    canvas = Canvas(image, (it.moved(0, th_h) for it in drawn))
    draw_title(canvas, width, th_h, tl, unit, th)
    for h, kind, owner in s.obstacles:
        _obstacle(canvas, layout, h, kind, owner)
    _overlays(canvas, layout, [e for e in events if e.get("type") in ("Targeted", "Retreated", "Eliminated")])
    for u in s.units:
        _unit(canvas, layout, u)
    _objectives(canvas, layout, s)  # over the tokens: who holds a medal hex must show
    _overlays(canvas, layout, [e for e in events if e.get("type") in ("Moved", "BattleDeclared")])
    y = th_h + fb.height + pad
    for text in info:
        canvas.text((pad, y + line_h / 2), text, face=Face.CONDENSED, size=panel_font, fill=th.colour("panel_text"),
                    anchor="lm", kind="info")
        y += line_h
    for row in rows:
        x = pad
        canvas.text((x, y + die_h / 2), row.label, face=Face.CONDENSED_BOLD, size=panel_font,
                    fill=th.colour("panel_text"), anchor="lm", kind="dice-label")
        x += round(text_width(Face.CONDENSED_BOLD, panel_font, row.label)) + pad
        for f in row.faces:
            txt = FACE_TEXT.get(f, f)
            w = round(text_width(Face.CONDENSED_BOLD, panel_font, txt)) + pad
            canvas.draw.rounded_rectangle((x, y, x + w, y + die_h), radius=6, fill=_c("die"), outline=_c("die_edge"),
                                          width=2)
            colour = (200, 32, 32, 255) if f in ("star", "grenade") or f == "flag" else (24, 24, 24, 255)
            canvas.text((x + w / 2, y + die_h / 2), txt, face=Face.CONDENSED_BOLD, size=panel_font, fill=colour,
                        anchor="mm", kind="die")
            x += w + 6
        y += die_h + 6
    draw_legend(canvas, y + pad, width, items, unit, th)
    return canvas


def board_png(state: MemoirState, *, events: Sequence[EventDict] = (), title: str | None = None,
              right: str | None = None) -> bytes:
    canvas = board(state, events=events, title=title, right=right)
    return png(canvas.image, keep=theme().flat_colours())
