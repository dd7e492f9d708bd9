"""The static layer of a battle map: frame, terrain, roads, streams, bridges, grid,
(optionally) deployment zones, hex labels and the frame's column letters and row
numbers.  It depends only on the map (and on the window shown, for a close-up), so it is
drawn once and cached (:class:`render.core.cache.LayerCache`); a phase image copies it
and draws units, counters and overlays on top.

Cache key: the map's content (name, size, terrain, links, objectives, zones), the hex
radius, the window and whether zones are shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, Mapping

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex
from engine.minis.model import BattleMap
from engine.minis.state import MinisState
from render.core.cache import LayerCache
from render.core.canvas import Canvas, Drawn, premultiplied_reduce
from render.core.fonts import Face
from render.core.frame import FrameSizes, draw_coordinates, draw_hex_label, framed, hex_label_baseline
from render.core.layout import HexLayout
from render.core.window import Window
from render.minis import facts
from render.minis import terrain as T
from render.minis.theme import MinisTheme


@dataclass(frozen=True)
class BaseLayer:
    image: Image.Image  # RGB: the frame with the map inside; never drawn on (copy it)
    items: tuple[Drawn, ...]
    layout: HexLayout  # hex geometry in this image's pixels
    map_box: tuple[float, float, float, float]  # bounding box of the hexes
    hexes: frozenset[Hex]  # the hexes drawn (the whole map, or a window of it)
    frame: FrameSizes
    # Per hex: the box (1 px around its label) and what the map shows there without the
    # label, to uncover what a label hid when it moves.  Only these patches are kept, not
    # a second copy of the whole image (a cached whole map is half the size).
    unlabelled: Mapping[Hex, tuple[tuple[int, int, int, int], Image.Image]]


def fingerprint(m: object) -> Hashable:
    assert isinstance(m, BattleMap)
    return (
        m.name, m.cols, m.rows, m.labels.flat,
        tuple(sorted((h, t.value) for h, t in m.terrain.items())),
        tuple(sorted(m.roads)), tuple(sorted(m.streams)), tuple(sorted(m.bridges)),
        tuple(m.objectives),
        tuple(sorted((k, tuple(sorted(v))) for k, v in m.zones.items())),
    )


CACHE: LayerCache[BaseLayer] = LayerCache(12)  # whole maps (~9 MB each, ~70 ms to draw)
# Close-up windows, kept apart: every report has a window of its own, seldom seen again,
# and in one shared LRU the windows of many games pushed the few whole maps out.
WINDOWS: LayerCache[BaseLayer] = LayerCache(8)
stats = CACHE.stats


def clear_cache() -> None:
    CACHE.clear()
    WINDOWS.clear()


def base_layer(m: BattleMap, *, radius: float, zones: bool, th: MinisTheme, window: Window | None = None) -> BaseLayer:
    """The cached static layer of ``m`` (or of a window of it)."""
    return (CACHE if window is None else WINDOWS).get(
        m, fingerprint, (radius, zones, window, id(th)),
        lambda: _draw_base(m, radius=radius, zones=zones, th=th, window=window))


def zone_colours(th: MinisTheme, name: str) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    key = name if f"zone_{name}" in th.colours else "other"
    return th.colour(f"zone_{key}"), th.colour(f"zone_edge_{key}")


def _draw_base(m: BattleMap, *, radius: float, zones: bool, th: MinisTheme, window: Window | None) -> BaseLayer:
    R = radius
    shown = window.hexes(m.labels, m.hexes) if window is not None else m.hexes
    fb = framed(shown, R, th, flat=m.labels.flat)
    layout = fb.layout
    drawn = sorted(shown)

    # A window is drawn at the close-up radius (1.5x the whole map's): one step less of
    # supersampling gives it the same smoothness for half the pixels (a cold close-up
    # ~15 -> ~12 ms; every report has a window of its own).
    k = th.supersample if window is None else max(1, th.supersample - 1)
    big = Image.new("RGB", (fb.width * k, fb.height * k), th.colour("frame")[:3])
    d = ImageDraw.Draw(big, "RGBA")
    bl = layout.scaled(k)
    for h in drawn:
        T.draw_fill(d, bl, h, m.terrain_at(h), th)
    for h in drawn:
        T.draw_symbol(d, bl, h, m.terrain_at(h), th)
    if zones:
        for name, zone in sorted(m.zones.items()):
            fill, edge = zone_colours(th, name)
            T.draw_zone(d, bl, frozenset(zone) & m.hexes, fill, edge, th)
    grid_w = max(1, round(th.size("grid_width", bl.radius)))
    for h in drawn:
        pts = bl.corners(h)
        d.line(pts + [pts[0]], fill=th.colour("grid"), width=grid_w)
    T.draw_roads(d, bl, m, th)
    T.draw_streams(d, bl, m, th)
    T.draw_bridges(d, bl, m, th)
    if window is not None:
        _mask_outside(big, bl, shown, th)
    image = big.reduce(k) if k > 1 else big
    unlabelled = image.copy()

    canvas = Canvas(image)
    for h in sorted(shown):
        draw_hex_label(canvas, layout, h, m.label(h), th.terrain[m.terrain_at(h).value].label, th)
    draw_coordinates(canvas, layout, m.labels, shown, fb.frame, th)
    patches = {}
    for it in canvas.items:
        if it.kind == "hex-label" and it.hex is not None:
            box = _label_box(it.box)
            patches[it.hex] = (box, unlabelled.crop(box))
    return BaseLayer(image, tuple(canvas.items), layout, layout.bbox(shown), frozenset(shown), fb.frame, patches)


def _label_box(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    return math.floor(box[0]) - 1, math.floor(box[1]) - 1, math.ceil(box[2]) + 1, math.ceil(box[3]) + 1


def _mask_outside(big: Image.Image, layout: HexLayout, shown: frozenset[Hex], th: MinisTheme) -> None:
    """Paint the frame colour over everything outside the window's hexes: roads, streams
    and zones are drawn for the whole map and leave the window at its edge."""
    # A bilevel mask: Pillow copies through it without blending (~10x faster than an "L"
    # mask of the same 0/255 values, and the same pixels).
    mask = Image.new("1", big.size, 1)
    md = ImageDraw.Draw(mask)
    for h in shown:
        md.polygon(layout.corners(h), fill=0)
    big.paste(th.colour("frame")[:3], (0, 0, big.width, big.height), mask)


def move_hex_label(canvas: Canvas, base: BaseLayer, dy: int, m: BattleMap, layout: HexLayout, h: Hex,
                   th: MinisTheme, *, right_of: float | None = None, left_of: float | None = None) -> None:
    """Uncover the label of ``h`` (the base layer is drawn ``dy`` lower on the canvas) and
    draw it again beside a mark crossing it: left-aligned at ``right_of`` or right-aligned
    at ``left_of``."""
    (x0, y0, _, _), patch = base.unlabelled[h]
    canvas.image.paste(patch, (x0, y0 + dy))
    style = th.terrain[m.terrain_at(h).value]
    x = right_of if right_of is not None else left_of
    assert x is not None
    canvas.text((x, hex_label_baseline(layout, h, th)), m.label(h), face=Face.CONDENSED_BOLD,
                size=round(th.size("hex_label_font", layout.radius)), fill=style.label,
                anchor="ls" if right_of is not None else "rs", kind="hex-label", tier="hex", hex=h)


def redraw_hex_label(canvas: Canvas, m: BattleMap, layout: HexLayout, h: Hex, th: MinisTheme) -> None:
    """The label of ``h`` drawn again with a halo in the terrain colour, to stay readable
    over a marker drawn across it."""
    style = th.terrain[m.terrain_at(h).value]
    draw_hex_label(canvas, layout, h, m.label(h), style.label, th, halo=style.fill)


def draw_dynamic_terrain(canvas: Canvas, layout: HexLayout, state: MinisState, th: MinisTheme,
                         hexes: frozenset[Hex]) -> None:
    """What can change during a battle: the objective marker(s) (the scenario may choose
    them, M-17.2) and bridges demolished by Bridge Demolition (M-13.6)."""
    R = layout.radius
    for h in facts.objectives(state):
        if h in hexes:
            sprite, (ox, oy) = _objective_sprite(R, th)
            cx, cy = layout.centre(h)
            canvas.paste(sprite, (round(cx) + ox, round(cy) + oy))
            canvas.mark("objective", layout.bbox([h]), hex=h)
    for a, b in sorted(facts.demolished_bridges(state)):
        if a in hexes or b in hexes:
            _broken_bridge(canvas, layout, a, b, th)
            canvas.mark("broken-bridge", layout.bbox([a, b]), hex=a)


_objective_sprites: dict[tuple[float, int], tuple[Image.Image, tuple[int, int]]] = {}


def _objective_sprite(R: float, th: MinisTheme) -> tuple[Image.Image, tuple[int, int]]:
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


def _broken_bridge(canvas: Canvas, layout: HexLayout, a: Hex, b: Hex, th: MinisTheme) -> None:
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
