"""Terrain of an A&A Miniatures battle map (M-13): hex fills with symbols kept near the
rim (the middle of a hex belongs to unit tokens), roads through hex centres, streams
along hexsides, bridges where a road crosses a stream, the objective marker and
deployment zones.  Drawn once per map on a supersampled image (see ``base.py``).
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from engine.core.hexgrid import Hex
from engine.minis.model import BattleMap, Terrain
from render.core.layout import HexLayout, Point
from render.core.colour import RGBA, mix
from render.minis.theme import MinisTheme as Theme

# Directions (as angles in degrees, y down) of the rim positions used for symbols;
# the top of the hex (around 270°) is left free for the hex label.
_RIM_ANGLES = (150.0, 200.0, 250.0 + 40.0, 340.0, 30.0)


def _rim(layout: HexLayout, h: Hex, angle_deg: float, frac: float) -> Point:
    cx, cy = layout.centre(h)
    a = math.radians(angle_deg)
    return cx + math.cos(a) * layout.radius * frac, cy + math.sin(a) * layout.radius * frac


def draw_fill(d: ImageDraw.ImageDraw, layout: HexLayout, h: Hex, terrain: Terrain, th: Theme) -> None:
    d.polygon(layout.corners(h), fill=th.terrain[terrain.value].fill)


def draw_symbol(d: ImageDraw.ImageDraw, layout: HexLayout, h: Hex, terrain: Terrain, th: Theme) -> None:
    """The symbol of ``terrain`` in hex ``h`` (nothing for clear)."""
    style = th.terrain[terrain.value]
    R = layout.radius
    cx, cy = layout.centre(h)
    if terrain is Terrain.FOREST:
        # Tree crowns around the rim: a dark crown with a lighter highlight.
        light = mix(style.fill, (255, 255, 255, 255), 0.25)
        for ang, frac, size in ((150, 0.66, 0.17), (205, 0.70, 0.15), (335, 0.70, 0.15),
                                (30, 0.66, 0.17), (90, 0.70, 0.16), (120, 0.45, 0.12), (60, 0.45, 0.12)):
            x, y = _rim(layout, h, ang, frac)
            r = R * size
            d.ellipse((x - r, y - r, x + r, y + r), fill=style.detail)
            d.ellipse((x - r * 0.55, y - r * 0.75, x + r * 0.15, y - r * 0.05), fill=light)
    elif terrain is Terrain.HILL:
        # Contour lines: two rounded rings inside the hex rim.
        w = max(1, round(R * 0.045))
        for inset in (0.13, 0.27):
            pts = layout.corners(h, inset=R * inset)
            d.line(pts + [pts[0]], fill=style.detail, width=w, joint="curve")
        x, y = cx, cy + R * 0.02
        d.ellipse((x - R * 0.05, y - R * 0.05, x + R * 0.05, y + R * 0.05), fill=style.detail)
    elif terrain is Terrain.TOWN:
        # Blocks of houses around the rim: walls, a darker roof ridge, a shadow side.
        roof = mix(style.detail, (150, 62, 48, 255), 0.6)
        wall = mix(style.fill, (255, 255, 255, 255), 0.35)
        lw = max(1, round(R * 0.025))
        for ang, frac, bwf, bhf in ((155, 0.60, 0.34, 0.22), (212, 0.62, 0.26, 0.26), (328, 0.62, 0.26, 0.26),
                                    (25, 0.60, 0.34, 0.22), (90, 0.68, 0.40, 0.2)):
            x, y = _rim(layout, h, ang, frac)
            bw, bh = R * bwf / 2, R * bhf / 2
            d.rectangle((x - bw, y - bh, x + bw, y + bh), fill=wall, outline=style.detail, width=lw)
            d.rectangle((x - bw, y - bh, x + bw, y - bh * 0.1), fill=roof, outline=style.detail, width=lw)
            d.line((x, y - bh, x, y + bh), fill=style.detail, width=lw)
    elif terrain is Terrain.MARSH:
        water = (110, 160, 200, 255)
        w = max(1, round(R * 0.035))
        for ang, frac in ((150, 0.62), (210, 0.62), (330, 0.62), (30, 0.62), (90, 0.66)):
            x, y = _rim(layout, h, ang, frac)
            # a tuft of reeds …
            for dx, top in ((-0.07, 0.16), (0.0, 0.21), (0.07, 0.16)):
                d.line((x + dx * R * 0.5, y, x + dx * R, y - top * R), fill=style.detail, width=w)
            # … standing in water
            d.line((x - 0.13 * R, y + 0.04 * R, x + 0.13 * R, y + 0.04 * R), fill=water, width=w)
    elif terrain is Terrain.LAKE:
        w = max(1, round(R * 0.04))
        for ang, frac in ((160, 0.6), (200, 0.62), (340, 0.6), (20, 0.62), (90, 0.62), (120, 0.4), (60, 0.4)):
            x, y = _rim(layout, h, ang, frac)
            r = R * 0.09
            d.arc((x - 2 * r, y - r, x, y + r), 200, 340, fill=style.detail, width=w)
            d.arc((x, y - r, x + 2 * r, y + r), 200, 340, fill=style.detail, width=w)


def draw_roads(d: ImageDraw.ImageDraw, layout: HexLayout, m: BattleMap, th: Theme) -> None:
    """Roads as links between hex centres (M-13.5), a casing then the road surface,
    with round joins at the centres."""
    R = layout.radius
    core = th.size("road_width", R)
    casing = core + 2 * th.size("road_casing", R)
    ends: set[Hex] = set()
    for layer_width, colour in ((casing, th.colour("road_casing")), (core, th.colour("road"))):
        for a, b in sorted(m.roads):
            d.line((layout.centre(a), layout.centre(b)), fill=colour, width=max(1, round(layer_width)))
            ends.update((a, b))
        for h in ends:
            x, y = layout.centre(h)
            r = layer_width / 2
            d.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def draw_streams(d: ImageDraw.ImageDraw, layout: HexLayout, m: BattleMap, th: Theme) -> None:
    """Streams along hexsides (M-13.4): a blue band with a lighter middle."""
    R = layout.radius
    w = th.size("stream_width", R)
    for a, b in sorted(m.streams):
        p, q = layout.side(a, a.direction_to(b))
        for width, colour in ((w, th.colour("stream")), (w * 0.35, th.colour("stream_light"))):
            d.line((p, q), fill=colour, width=max(1, round(width)))
            r = width / 2
            for x, y in (p, q):
                d.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def draw_bridges(d: ImageDraw.ImageDraw, layout: HexLayout, m: BattleMap, th: Theme) -> None:
    """A bridge deck across each bridged hexside, along the road that crosses it."""
    R = layout.radius
    length = th.size("bridge_length", R)
    width = th.size("bridge_width", R)
    rail = max(1, round(R * 0.05))
    for a, b in sorted(m.bridges):
        (ax, ay), (bx, by) = layout.centre(a), layout.centre(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        ux, uy = (bx - ax), (by - ay)
        n = math.hypot(ux, uy)
        ux, uy = ux / n, uy / n
        vx, vy = -uy, ux
        hl, hw = length / 2, width / 2
        deck = [(mx - ux * hl - vx * hw, my - uy * hl - vy * hw), (mx + ux * hl - vx * hw, my + uy * hl - vy * hw),
                (mx + ux * hl + vx * hw, my + uy * hl + vy * hw), (mx - ux * hl + vx * hw, my - uy * hl + vy * hw)]
        d.polygon(deck, fill=th.colour("bridge_deck"))
        d.line((deck[0], deck[1]), fill=th.colour("bridge_rail"), width=rail)
        d.line((deck[3], deck[2]), fill=th.colour("bridge_rail"), width=rail)


def draw_objective(d: ImageDraw.ImageDraw, layout: HexLayout, h: Hex, th: Theme) -> None:
    """The objective marker: a gold ring just inside the hex rim and a star below the
    unit area."""
    R = layout.radius
    ring = th.size("objective_ring", R)
    dark = th.colour("objective_dark")
    gold = th.colour("objective")
    # inside the rim, clear of a stream on the hexside
    outer = layout.corners(h, inset=th.size("stream_width", R) * 0.6 + ring)
    d.line(outer + [outer[0]], fill=dark, width=max(1, round(ring * 1.6)), joint="curve")
    d.line(outer + [outer[0]], fill=gold, width=max(1, round(ring)), joint="curve")
    cx, cy = layout.centre(h)
    star_centre = (cx, cy + R * 0.62)
    d.polygon(star(star_centre, R * 0.2, R * 0.085), fill=gold, outline=dark, width=max(1, round(R * 0.03)))


def star(centre: Point, outer: float, inner: float, points: int = 5) -> list[Point]:
    cx, cy = centre
    out: list[Point] = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / points
        out.append((cx + math.cos(a) * r, cy + math.sin(a) * r))
    return out


def draw_zone(d: ImageDraw.ImageDraw, layout: HexLayout, hexes: frozenset[Hex], fill: RGBA,
              edge: RGBA, th: Theme) -> None:
    """A deployment zone: tinted hexes and a line along the zone's boundary."""
    R = layout.radius
    for h in hexes:
        d.polygon(layout.corners(h), fill=fill)
    w = max(1, round(R * 0.08))
    for h in hexes:
        for direction in range(6):
            if h.neighbour(direction) not in hexes:
                p, q = layout.side(h, direction)
                d.line((p, q), fill=edge, width=w)
