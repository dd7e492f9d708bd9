"""The static layer of a battle map: frame, terrain, roads, streams, bridges, grid,
objective, (optionally) deployment zones, hex labels and the frame's column letters
and row numbers.  It depends only on the map, so it is drawn once per map and cached;
a phase image copies it and draws units, counters and overlays on top.

Cache key: the map's content (name, size, terrain, links, objectives, zones), found
through a weak per-object memo, so a map rebuilt from a saved game hits the cache too.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Hashable

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex, column_letters
from engine.minis.model import BattleMap
from engine.minis.state import MinisState
from render.canvas import Canvas, Drawn, premultiplied_reduce
from render.fonts import Face, cap_ratio
from render.layout import HexLayout, board_layout, board_size
from render.minis import facts
from render.minis import terrain as T
from render.theme import Theme


@dataclass(frozen=True)
class BaseLayer:
    image: Image.Image  # RGB: the frame with the map inside; never drawn on (copy it)
    items: tuple[Drawn, ...]
    layout: HexLayout  # hex geometry in this image's pixels
    map_box: tuple[float, float, float, float]  # bounding box of the hexes


@dataclass(frozen=True)
class Frame:
    """Pixel sizes of the frame around the map for hex radius R."""

    left: int
    right: int
    top: int
    bottom: int

    @classmethod
    def of(cls, th: Theme, R: float) -> Frame:
        return cls(round(th.size("frame_left", R)), round(th.size("frame_right", R)),
                   round(th.size("frame_top", R)), round(th.size("frame_bottom", R)))


def fingerprint(m: BattleMap) -> Hashable:
    return (
        m.name, m.cols, m.rows, m.labels.flat,
        tuple(sorted((h, t.value) for h, t in m.terrain.items())),
        tuple(sorted(m.roads)), tuple(sorted(m.streams)), tuple(sorted(m.bridges)),
        tuple(m.objectives),
        tuple(sorted((k, tuple(sorted(v))) for k, v in m.zones.items())),
    )


_memo: weakref.WeakKeyDictionary[BattleMap, Hashable] = weakref.WeakKeyDictionary()
_cache: OrderedDict[Hashable, BaseLayer] = OrderedDict()
_lock = threading.Lock()
CACHE_SIZE = 16
stats = {"hits": 0, "misses": 0}


def clear_cache() -> None:
    with _lock:
        _cache.clear()
        _memo.clear()
        stats["hits"] = stats["misses"] = 0


def base_layer(m: BattleMap, *, radius: float, zones: bool, th: Theme) -> BaseLayer:
    """The cached static layer of ``m`` (drawn on a miss)."""
    with _lock:
        fp = _memo.get(m)
        if fp is None:
            fp = fingerprint(m)
            _memo[m] = fp
        key = (fp, radius, zones, id(th))
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            stats["hits"] += 1
            return hit
        stats["misses"] += 1
    layer = _draw_base(m, radius=radius, zones=zones, th=th)
    with _lock:
        _cache[key] = layer
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return layer


def zone_colours(th: Theme, name: str) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    key = name if f"zone_{name}" in th.colours else "other"
    return th.colour(f"zone_{key}"), th.colour(f"zone_edge_{key}")


def _draw_base(m: BattleMap, *, radius: float, zones: bool, th: Theme) -> BaseLayer:
    R = radius
    fr = Frame.of(th, R)
    mw, mh = board_size(m.cols, m.rows, R, m.labels)
    width = round(fr.left + mw + fr.right)
    height = round(fr.top + mh + fr.bottom)
    layout = board_layout(m.cols, m.rows, R, m.labels, left=fr.left, top=fr.top)
    hexes = sorted(m.hexes)

    k = th.supersample
    big = Image.new("RGB", (width * k, height * k), th.colour("frame")[:3])
    d = ImageDraw.Draw(big, "RGBA")
    bl = layout.scaled(k)
    for h in hexes:
        T.draw_fill(d, bl, h, m.terrain_at(h), th)
    for h in hexes:
        T.draw_symbol(d, bl, h, m.terrain_at(h), th)
    if zones:
        for name, zone in sorted(m.zones.items()):
            fill, edge = zone_colours(th, name)
            T.draw_zone(d, bl, frozenset(zone) & m.hexes, fill, edge, th)
    grid_w = max(1, round(th.size("grid_width", bl.radius)))
    for h in hexes:
        pts = bl.corners(h)
        d.line(pts + [pts[0]], fill=th.colour("grid"), width=grid_w)
    T.draw_roads(d, bl, m, th)
    T.draw_streams(d, bl, m, th)
    T.draw_bridges(d, bl, m, th)
    image = big.reduce(k) if k > 1 else big

    canvas = Canvas(image)
    _labels(canvas, m, layout, th)
    _frame_text(canvas, m, layout, fr, th, width, height)
    box = layout.bbox(m.hexes)
    return BaseLayer(image, tuple(canvas.items), layout, box)


def _labels(canvas: Canvas, m: BattleMap, layout: HexLayout, th: Theme) -> None:
    """A small coordinate label at the top of every hex."""
    for h in sorted(m.hexes):
        draw_hex_label(canvas, m, layout, h, th)


def draw_hex_label(canvas: Canvas, m: BattleMap, layout: HexLayout, h: Hex, th: Theme, *,
                   halo: bool = False) -> None:
    """The label of ``h``; with ``halo`` outlined in the terrain colour, to stay readable
    over a facing wedge drawn across it."""
    R = layout.radius
    size = round(th.size("hex_label_font", R))
    cx, cy = layout.centre(h)
    style = th.terrain[m.terrain_at(h).value]
    baseline = cy - layout.apothem + th.size("hex_label_top", R) + size * cap_ratio(Face.CONDENSED_BOLD)
    canvas.text((cx, baseline), m.label(h), face=Face.CONDENSED_BOLD,
                size=size, fill=style.label, anchor="ms", kind="hex-label", tier="hex", hex=h,
                stroke=max(1, round(R * 0.05)) if halo else 0, stroke_fill=style.fill if halo else None)


def _frame_text(canvas: Canvas, m: BattleMap, layout: HexLayout, fr: Frame, th: Theme,
                width: int, height: int) -> None:
    """Column letters above and below the map, row numbers on the left."""
    R = layout.radius
    size = round(th.size("frame_font", R))
    colour = th.colour("frame_text")
    x0, y0, x1, y1 = layout.bbox(m.hexes)
    for c in range(m.cols):
        x, _ = layout.centre(m.labels.from_offset(c, 0))
        letters = column_letters(c)
        canvas.text((x, y0 - fr.top / 2), letters, face=Face.BOLD, size=size, fill=colour, anchor="mm",
                    kind="frame-column")
        canvas.text((x, y1 + fr.bottom / 2), letters, face=Face.BOLD, size=size, fill=colour, anchor="mm",
                    kind="frame-column")
    for r in range(m.rows):
        _, y = layout.centre(m.labels.from_offset(0, r))
        canvas.text((fr.left / 2, y), str(r + 1), face=Face.BOLD, size=size, fill=colour, anchor="mm",
                    kind="frame-row")


def draw_dynamic_terrain(canvas: Canvas, layout: HexLayout, state: MinisState, th: Theme) -> None:
    """What can change during a battle: the objective marker(s) (the scenario may choose
    them, M-17.2) and bridges demolished by Bridge Demolition (M-13.6)."""
    R = layout.radius
    for h in facts.objectives(state):
        if state.map.on_map(h):
            sprite, (ox, oy) = _objective_sprite(R, th)
            cx, cy = layout.centre(h)
            canvas.paste(sprite, (round(cx) + ox, round(cy) + oy))
            canvas.mark("objective", layout.bbox([h]), hex=h)
    for a, b in sorted(facts.demolished_bridges(state)):
        _broken_bridge(canvas, layout, a, b, th)
        canvas.mark("broken-bridge", layout.bbox([a, b]), hex=a)


_objective_sprites: dict[tuple[float, int], tuple[Image.Image, tuple[int, int]]] = {}


def _objective_sprite(R: float, th: Theme) -> tuple[Image.Image, tuple[int, int]]:
    """The objective marker of a hex of radius R, anti-aliased, with its offset from the
    hex centre (cached per radius and theme)."""
    key = (R, id(th))
    hit = _objective_sprites.get(key)
    if hit is None:
        k = th.supersample + 1
        size = int(2 * R + 4)
        big = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
        local = HexLayout(R * k, (size * k / 2, size * k / 2))
        T.draw_objective(ImageDraw.Draw(big), local, Hex(0, 0), th)
        hit = _objective_sprites[key] = (premultiplied_reduce(big, k), (-(size // 2), -(size // 2)))
    return hit


def _broken_bridge(canvas: Canvas, layout: HexLayout, a: Hex, b: Hex, th: Theme) -> None:
    """The stream drawn again across the middle of the deck: the road is cut."""
    R = layout.radius
    p, q = layout.side(a, a.direction_to(b))
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    ux, uy = (q[0] - p[0]) / R, (q[1] - p[1]) / R
    half = th.size("bridge_width", R) * 0.9
    seg = [(mx - ux * half, my - uy * half), (mx + ux * half, my + uy * half)]
    w = th.size("stream_width", R) * 1.6
    canvas.draw.line(seg, fill=th.colour("stream"), width=max(1, round(w)))
    canvas.draw.line(seg, fill=th.colour("stream_light"), width=max(1, round(w * 0.3)))
