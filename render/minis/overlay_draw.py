"""Drawing the overlays of :mod:`render.overlays` on a board.

Shading and lines go *under* the unit tokens (so ids stay readable); defensive-fire
bursts and the small result labels go *over* them.  Lines are anti-aliased on a
supersampled layer covering just the lines' area.
"""

from __future__ import annotations

import math
from typing import Sequence

from engine.core.hexgrid import Hex
from engine.minis.state import MinisState
from render.core.canvas import AALayer, Box, Canvas, boxes_overlap
from render.core.canvas import box_of as _box_of
from render.core.colour import RGBA
from render.core.fonts import Face, text_width
from render.core.layout import HexLayout, Point
from render.minis.base import redraw_hex_label
from render.minis.overlays import AttackLine, MovedPath, Overlay, RangeBands, Reachable, SightCheck
from render.minis.theme import MinisTheme as Theme


def _region_edges(layout: HexLayout, region: frozenset[Hex]) -> list[tuple[Point, Point]]:
    """Hexsides between a hex of ``region`` and a hex outside it."""
    out = []
    for h in sorted(region):
        for d in range(6):
            if h.neighbour(d) not in region:
                out.append(layout.side(h, d))
    return out


# ---------------------------------------------------------------------------- under
def draw_overlays_under(canvas: Canvas, layout: HexLayout, state: MinisState, overlays: Sequence[Overlay],
                        th: Theme) -> None:
    if not overlays:
        return
    R = layout.radius
    on_map = state.map.hexes
    d = canvas.draw
    # 1. shaded regions
    for ov in overlays:
        if isinstance(ov, RangeBands):
            names = ("short", "medium", "long")
            bands: dict[int, set[Hex]] = {0: set(), 1: set(), 2: set()}
            for h in on_map:
                b = ov.band(h)
                if b is not None:
                    bands[b].add(h)
            for b, hexes in bands.items():
                for h in hexes:
                    d.polygon(layout.corners(h), fill=th.colour(f"band_{names[b]}"))
            cumulative: set[Hex] = set()
            edges: list[tuple[list[tuple[Point, Point]], RGBA]] = []
            for b in (0, 1, 2):
                cumulative |= bands[b]
                edges.append((_region_edges(layout, frozenset(cumulative)), th.colour(f"band_edge_{names[b]}")))
            _draw_edges(canvas, edges, R * 0.07)
            canvas.mark("overlay-range", layout.bbox(cumulative or {ov.centre}))
        elif isinstance(ov, Reachable):
            reach = frozenset(ov.hexes) & on_map
            for h in reach:
                d.polygon(layout.corners(h), fill=th.colour("reach_fill"))
            if reach:
                _draw_edges(canvas, [(_region_edges(layout, reach), th.colour("reach_edge"))], R * 0.08)
                canvas.mark("overlay-reach", layout.bbox(reach))
        elif isinstance(ov, SightCheck):
            for h in ov.blocking:
                d.polygon(layout.corners(h), fill=th.colour("los_block_fill"))
            if ov.blocking:
                _draw_edges(canvas, [(_region_edges(layout, frozenset(ov.blocking)), th.colour("los_blocked"))],
                            R * 0.08)
    # 2. lines
    for ov in overlays:
        if isinstance(ov, MovedPath):
            _draw_path(canvas, layout, ov, th)
        elif isinstance(ov, AttackLine):
            _draw_attack(canvas, layout, ov, th)
        elif isinstance(ov, SightCheck):
            _draw_sight(canvas, layout, ov, th)


def _draw_edges(canvas: Canvas, groups: Sequence[tuple[list[tuple[Point, Point]], RGBA]], width: float) -> None:
    pts = [p for segs, _ in groups for seg in segs for p in seg]
    if not pts:
        return
    layer = AALayer(canvas, _box_of(pts, width * 2))
    for segs, colour in groups:
        for a, b in segs:
            layer.line([a, b], colour, width)
    layer.commit()


def _arrowhead(tip: Point, frm: Point, size: float) -> list[Point]:
    ang = math.atan2(tip[1] - frm[1], tip[0] - frm[0])
    left = (tip[0] - size * math.cos(ang - 0.45), tip[1] - size * math.sin(ang - 0.45))
    right = (tip[0] - size * math.cos(ang + 0.45), tip[1] - size * math.sin(ang + 0.45))
    return [tip, left, right]


def _toward(a: Point, b: Point, dist: float) -> Point:
    length = math.dist(a, b)
    if length == 0:
        return a
    return a[0] + (b[0] - a[0]) * dist / length, a[1] + (b[1] - a[1]) * dist / length


def _draw_path(canvas: Canvas, layout: HexLayout, ov: MovedPath, th: Theme) -> None:
    R = layout.radius
    w = th.size("overlay_line", R)
    pts = [layout.centre(h) for h in ov.hexes]
    layer = AALayer(canvas, _box_of(pts, R))
    if len(pts) > 1:
        end = _toward(pts[-1], pts[-2], R * 0.62)  # stop short of the tokens in the last hex
        line = pts[:-1] + [end]
        layer.line(line, th.colour("path_casing"), w + R * 0.08)
        layer.line(line, th.colour("path"), w)
        head = _arrowhead(_toward(pts[-1], pts[-2], R * 0.45), pts[-2], R * 0.36)
        layer.polygon(head, th.colour("path"), th.colour("path_casing"), R * 0.04)
    r = R * 0.14
    x, y = pts[0]
    layer.draw.ellipse([*layer.p((x - r, y - r)), *layer.p((x + r, y + r))], fill=th.colour("path"),
                       outline=th.colour("path_casing"), width=max(1, round(R * 0.04 * layer.k)))
    if ov.stopped:
        sx, sy = _toward(pts[-1], pts[-2], R * 0.45) if len(pts) > 1 else (x, y + R * 0.5)
        s = R * 0.16
        layer.line([(sx - s, sy - s), (sx + s, sy + s)], th.colour("fire_dark"), R * 0.08)
        layer.line([(sx - s, sy + s), (sx + s, sy - s)], th.colour("fire_dark"), R * 0.08)
    layer.commit()
    canvas.mark("overlay-path", _box_of(pts, r), owner=ov.unit)


def _draw_attack(canvas: Canvas, layout: HexLayout, ov: AttackLine, th: Theme) -> None:
    R = layout.radius
    w = th.size("overlay_line", R)
    a, b = layout.centre(ov.source), layout.centre(ov.target)
    layer = AALayer(canvas, _box_of([a, b], R))
    if ov.source == ov.target:
        r = R * 0.55
        layer.draw.ellipse([*layer.p((a[0] - r, a[1] - r)), *layer.p((a[0] + r, a[1] + r))],
                           outline=th.colour("attack"), width=max(1, round(w * layer.k)))
    else:
        start = _toward(a, b, R * 0.35)
        end = _toward(b, a, R * 0.7)
        if ov.defensive:
            layer.dashed(start, end, th.colour("attack"), w, R * 0.35, R * 0.2)
        else:
            layer.line([start, end], th.colour("attack_casing"), w + R * 0.07)
            layer.line([start, end], th.colour("attack"), w)
        head = _arrowhead(_toward(b, a, R * 0.5), a, R * 0.38)
        layer.polygon(head, th.colour("attack"), th.colour("attack_casing"), R * 0.04)
    layer.commit()
    canvas.mark("overlay-attack", _box_of([a, b], 0))


def _draw_sight(canvas: Canvas, layout: HexLayout, ov: SightCheck, th: Theme) -> None:
    R = layout.radius
    a, b = layout.centre(ov.source), layout.centre(ov.target)
    colour = th.colour("los_clear") if ov.clear else th.colour("los_blocked")
    layer = AALayer(canvas, _box_of([a, b], R))
    # exactly centre to centre (M-10.1), thin so the geometry is visible
    layer.line([a, b], th.colour("path_casing"), R * 0.11)
    layer.line([a, b], colour, R * 0.06)
    for x, y in (a, b):
        r = R * 0.1
        layer.draw.ellipse([*layer.p((x - r, y - r)), *layer.p((x + r, y + r))], fill=colour)
    layer.commit()
    canvas.mark("overlay-sight", _box_of([a, b], 0))


# ---------------------------------------------------------------------------- over
def draw_overlays_over(canvas: Canvas, layout: HexLayout, state: MinisState, overlays: Sequence[Overlay],
                       th: Theme, bounds: Box) -> None:
    """Bursts and result labels, each where it covers no token, counter or other label
    and stays inside ``bounds`` (the map's box)."""
    if not overlays:
        return
    for ov in overlays:
        if isinstance(ov, MovedPath):
            for fh in ov.fire_points:
                _burst(canvas, layout, state, ov, fh, th)
    for ov in overlays:
        if isinstance(ov, AttackLine) and ov.result:
            a, b = layout.centre(ov.source), layout.centre(ov.target)
            if ov.source == ov.target:
                b = (a[0], a[1] - layout.radius * 1.8)
            _label(canvas, _along(a, b, layout.radius), ov.result, th, layout.radius, kind="overlay-label",
                   bounds=bounds)
        elif isinstance(ov, SightCheck):
            a, b = layout.centre(ov.source), layout.centre(ov.target)
            text = "sight clear" if ov.clear else "sight blocked: " + ", ".join(state.map.label(h) for h in ov.blocking)
            _label(canvas, _along(a, b, layout.radius), text, th, layout.radius, kind="overlay-label",
                   bounds=bounds)


def _along(a: Point, b: Point, R: float) -> list[Point]:
    """Candidate label positions on and beside the segment a–b (middle first), then
    around its two ends."""
    length = math.dist(a, b) or 1.0
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    out = []
    for t in (0.5, 0.38, 0.62, 0.27, 0.73, 0.16, 0.84):
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        for off in (0.0, 0.45, -0.45, 0.9, -0.9, 1.35, -1.35):
            out.append((x + nx * off * R, y + ny * off * R))
    for end in (b, a):
        for k in range(12):
            ang = k * math.pi / 6
            for r in (1.0, 1.5):
                out.append((end[0] + math.cos(ang) * r * R, end[1] + math.sin(ang) * r * R))
    return out


# What an overlay label or burst must never cover; hex labels and facing arrows it may
# cover when nothing else is free (hex labels are then hidden).
_KEEP_CLEAR = frozenset(("token", "ghost", "unit-id", "pip-passenger", "pip-disrupted", "pip-damaged", "pip-hit",
                         "overlay-label", "overlay-fire", "frame-column", "frame-row"))
_AVOID = frozenset(("hex-label", "facing", "objective"))

def _burst(canvas: Canvas, layout: HexLayout, state: MinisState, ov: MovedPath, fh: Hex, th: Theme) -> None:
    """A defensive-fire burst on the path where the unit drew fire (M-12), placed on
    the path near the fire hex where it covers no unit number or counter."""
    R = layout.radius
    c = layout.centre(fh)
    idx = ov.hexes.index(fh) if fh in ov.hexes else -1
    if idx > 0:
        other = layout.centre(ov.hexes[idx - 1])
    elif idx == 0 and len(ov.hexes) > 1:
        other = layout.centre(ov.hexes[1])
    else:
        other = (c[0], c[1] + R * 1.7)
    outer, inner = R * 0.3, R * 0.14
    length = math.dist(c, other) or 1.0
    nx, ny = -(other[1] - c[1]) / length, (other[0] - c[0]) / length
    candidates = [(x + nx * off * R, y + ny * off * R)
                  for x, y in (_toward(c, other, R * f) for f in (0.87, 0.75, 1.0, 0.62, 0.5))
                  for off in (0.0, 0.3, -0.3)]
    spots = [(p, (p[0] - outer, p[1] - outer, p[0] + outer, p[1] + outer)) for p in candidates]
    region = _box_of([c for _, bx in spots for c in ((bx[0], bx[1]), (bx[2], bx[3]))], 1)
    near = [it for it in canvas.items if (it.kind in _KEEP_CLEAR or it.kind in _AVOID)
            and boxes_overlap(region, it.box)]

    def score(spot: tuple[Point, tuple[float, float, float, float]]) -> tuple[int, int]:
        hard = sum(1 for it in near if it.kind in _KEEP_CLEAR and boxes_overlap(spot[1], it.box))
        soft = sum(1 for it in near if it.kind in _AVOID and boxes_overlap(spot[1], it.box))
        return hard, soft

    p, box = min(spots, key=score)
    pts = []
    for i in range(16):
        r = outer if i % 2 == 0 else inner
        ang = i * math.pi / 8
        pts.append((p[0] + r * math.cos(ang), p[1] + r * math.sin(ang)))
    layer = AALayer(canvas, _box_of(pts, 2))
    layer.polygon(pts, th.colour("fire"), th.colour("fire_dark"), R * 0.04)
    layer.commit()
    canvas.mark("overlay-fire", box, hex=fh, owner=ov.unit)
    # a hex label under the burst is drawn again on top of it, with a halo
    under = [i for i, it in enumerate(canvas.items) if it.kind == "hex-label" and boxes_overlap(box, it.box)]
    for i in reversed(under):
        h = canvas.items.pop(i).hex
        assert h is not None
        redraw_hex_label(canvas, state.map, layout, h, th)


def _label(canvas: Canvas, candidates: Sequence[Point], text: str, th: Theme, R: float, *, kind: str,
           bounds: Box) -> None:
    """A result label in a dark box, at the first candidate position inside ``bounds``
    that covers no token, counter or other label (else the one covering least); hex
    labels under the box are hidden and dropped from the record."""
    size = round(th.size("overlay_font", R))
    w = text_width(Face.CONDENSED_BOLD, size, text)
    cap = size * 0.73
    pad = R * 0.12
    W, H = canvas.image.size

    def box_at(c: Point) -> tuple[float, float, float, float]:
        return (c[0] - w / 2 - pad, c[1] - cap / 2 - pad, c[0] + w / 2 + pad, c[1] + cap / 2 + pad)

    lo_x, lo_y = max(0.0, bounds[0]), max(0.0, bounds[1])
    hi_x, hi_y = min(float(W), bounds[2]), min(float(H), bounds[3])
    region = (min(c[0] for c in candidates) - w, min(c[1] for c in candidates) - cap - 2 * pad,
              max(c[0] for c in candidates) + w, max(c[1] for c in candidates) + cap + 2 * pad)
    near = [it for it in canvas.items if (it.kind in _KEEP_CLEAR or it.kind in _AVOID)
            and boxes_overlap(region, it.box)]

    def score(c: Point) -> tuple[int, int, int]:
        bx = box_at(c)
        outside = int(bx[0] < lo_x or bx[1] < lo_y or bx[2] > hi_x or bx[3] > hi_y)
        hard = soft = 0
        for it in near:
            if boxes_overlap(bx, it.box):
                if it.kind in _KEEP_CLEAR:
                    hard += 1
                else:
                    soft += 1
        return outside, hard, soft

    best = candidates[0]
    best_score = score(best)
    for c in candidates[1:]:
        if best_score == (0, 0, 0):
            break
        sc = score(c)
        if sc < best_score:
            best, best_score = c, sc
    box = box_at(best)
    canvas.draw.rounded_rectangle(box, radius=R * 0.1, fill=th.colour("label_box"))
    canvas.items[:] = [it for it in canvas.items if not (it.kind == "hex-label" and boxes_overlap(box, it.box))]
    canvas.text((best[0], best[1] + cap / 2), text, face=Face.CONDENSED_BOLD, size=size,
                fill=th.colour("label_text"), anchor="ms", kind=kind, tier="hex")
