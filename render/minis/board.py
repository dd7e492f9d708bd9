"""The battle map image of one A&A Miniatures state — the whole map, or a window of it
(a close-up).

``render_board`` composes: title bar, the cached static layer (frame, terrain, grid,
labels), overlays that lie under the tokens, facing arrows, unit tokens with their
counters (and ghosts of units removed in the phase shown), overlay labels, legend and
roster.  It reads only the documented fields of ``MinisState``/``UnitState`` (plus
``card``, ``units_at``, ``passengers``) and never changes the state.

Sizes are chosen for a phone: knowing the image's width, the board makes every counter
at least as large as :mod:`render.core.legibility` requires once the image is shown
550 px wide (3 px on an overview, 6 px on a close-up), and a close-up's panels are sized
for that width too.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

from PIL import Image

from engine.core.hexgrid import Hex
from engine.minis.state import MinisState, Phase, UnitState
from render.core import legibility
from render.core.canvas import Canvas, Drawn, box_of, boxes_overlap
from render.core.layout import HexLayout, Point
from render.core.legend import draw_legend, legend_height
from render.core.roster import draw_roster, roster_height
from render.core.title import draw_title, title_height, title_lines
from render.core.window import Window
from render.minis import facts, panels
from render.minis.base import BaseLayer, base_layer, draw_dynamic_terrain, move_hex_label, redraw_hex_label
from render.minis.overlay_draw import draw_overlays_over, draw_overlays_under
from render.minis.overlays import AttackLine, MovedPath, Overlay, RangeBands, Reachable, SightCheck
from render.minis.theme import MinisTheme, theme
from render.minis.tokens import (HexTokens, TokenLook, arrange, draw_facing, draw_hex_units, facing_points, look,
                                 stack_order)

CLOSE_PANEL_CAP = 8.4  # px: the cap height of a close-up's panel text once shown 550 px wide


@dataclass(frozen=True)
class BoardImage:
    """A finished board: the image, what was drawn where (for tests and tools), the hex
    layout in the image's pixels (title bar included), the box of the hexes shown, the
    window (None for the whole map) and whether it is a close-up."""

    image: Image.Image
    items: tuple[Drawn, ...]
    layout: HexLayout
    map_box: tuple[float, float, float, float]
    window: Window | None = None
    close: bool = False
    hexes: frozenset[Hex] = frozenset()


def min_counter_px(width: int, close: bool) -> int:
    """The smallest counter side (px) that stays readable once an image ``width`` wide
    is shown 550 px wide."""
    need = legibility.CLOSE_COUNTER_MIN if close else legibility.COUNTER_MIN
    return math.ceil(need / legibility.display_scale(width) - 1e-9)


def panel_unit(R: float, width: int, close: bool, th: MinisTheme) -> float:
    """The unit of the panels: the hex radius on an overview; on a close-up, the size
    that gives panel text a cap height of ``CLOSE_PANEL_CAP`` on the phone."""
    if not close:
        return R
    cap_per_unit = th.sizes["panel_font"] * 0.73 * legibility.display_scale(width)
    return min(R, CLOSE_PANEL_CAP / cap_per_unit)


def _touches(ov: Overlay, hexes: frozenset[Hex]) -> bool:
    if isinstance(ov, MovedPath):
        return any(h in hexes for h in ov.hexes)
    if isinstance(ov, (AttackLine, SightCheck)):
        return ov.source in hexes or ov.target in hexes
    if isinstance(ov, Reachable):
        return bool(ov.hexes & hexes)
    if isinstance(ov, RangeBands):
        return any(ov.band(h) is not None for h in hexes)
    return True


def render_board(state: MinisState, *, overlays: Sequence[Overlay] = (), title: str | None = None,
                 heading: str | None = None, show_deployment: bool | None = None, legend: bool = True,
                 roster: bool = True, hex_radius: float | None = None, window: Window | None = None,
                 removed: Iterable[str] = (), close: bool = False, th: MinisTheme | None = None) -> BoardImage:
    """The picture of ``state`` (see :func:`board` for the options).  ``window`` draws
    only those columns and rows; ``removed`` names units removed in the phase shown
    (drawn as ghosts in their last hex); ``close`` sizes everything for a close-up."""
    th = th or theme()
    R = float(hex_radius or th.unit_px)
    zones = (state.phase in (Phase.ARMIES, Phase.DEPLOYMENT)) if show_deployment is None else show_deployment
    base = base_layer(state.map, radius=R, zones=zones, th=th, window=window)
    width = base.image.width
    shown = base.hexes
    if window is not None:
        overlays = [ov for ov in overlays if _touches(ov, shown)]
    P = panel_unit(R, width, close, th)
    min_pip = min_counter_px(width, close)

    # Who is where (hidden information: only deployed units, never army lists).
    units = [u for u in facts.on_map_units(state) if u.carried_by is None and u.hex in shown]
    gone = set(removed)
    ghosts: list[UnitState] = [u for u in state.units if u.id in gone and u.destroyed and u.carried_by is None
                               and u.hex in shown]
    by_hex: dict[Hex, list[TokenLook]] = defaultdict(list)
    for u in stack_order(units + ghosts):
        assert u.hex is not None
        by_hex[u.hex].append(look(state, u, th, ghost=u in ghosts))
    tokens: dict[Hex, HexTokens] = {h: arrange(ls, R, th, min_pip) for h, ls in by_hex.items()}
    looks = [lk for t in tokens.values() for lk in t.looks]
    facing = [lk for lk in looks if lk.card.is_vehicle and lk.unit.facing is not None and not lk.ghost]

    left, right = panels.title_texts(state, title, th, heading=heading,
                                     extra=f"Close-up {window.name(state.map.labels)}" if window is not None else None)
    lines = title_lines(left, right, width, P, th)
    title_h = title_height(lines, P, th)
    what = panels.Shown(looks, shown, zones, overlays, bool(facing), any(lk.stacked_hits for lk in looks))
    items = panels.legend_items(state, what, P, th) if legend else []
    legend_h = legend_height(items, width, P, th) if legend else 0
    sections = panels.roster_sections(state, P, th) if roster else []
    chip_h = panels.roster_chip_height(P, th)
    roster_h = roster_height(sections, width, P, th, chip_height=chip_h) if roster else 0
    height = title_h + base.image.height + legend_h + roster_h

    image = Image.new("RGB", (width, height), th.colour("panel")[:3])
    image.paste(base.image, (0, title_h))
    layout = base.layout.shifted(0, title_h)
    # Items of the static layer, moved below the title bar; hex labels that a full hex
    # of tokens paints over are dropped from the record (they are not visible).
    full = {h for h, t in tokens.items() if len(t.looks) >= 4}
    kept = [it.moved(0, title_h) for it in base.items if not (it.kind == "hex-label" and it.hex in full)]
    canvas = Canvas(image, kept)
    x0, y0, x1, y1 = base.map_box
    map_box = (x0, y0 + title_h, x1, y1 + title_h)

    draw_title(canvas, width, title_h, lines, P, th)
    draw_dynamic_terrain(canvas, layout, state, th, shown)
    draw_overlays_under(canvas, layout, state, overlays, th)
    arrows = []
    for lk in facing:
        assert lk.unit.hex is not None and lk.unit.facing is not None
        arrows.append((lk, facing_points(layout, lk.unit.hex, lk.unit.facing, th)))
    halo = _move_labels_off_arrows(canvas, base, title_h, state, layout,
                                   [((lk.unit.hex, lk.unit.facing), pts) for lk, pts in arrows
                                    if lk.unit.hex is not None and lk.unit.facing is not None], th)
    for lk, _ in arrows:
        side = th.sides.get(lk.unit.side)
        assert lk.unit.hex is not None and lk.unit.facing is not None
        fill = lk.nation.fill if not lk.greyed else th.colour("destroyed_body")
        draw_facing(canvas, layout, lk.unit.hex, lk.unit.facing, fill,
                    side.cap if side is not None else th.colour("outline"), th)
    for h in halo:
        redraw_hex_label(canvas, state.map, layout, h, th)
    for h in sorted(tokens):
        draw_hex_units(canvas, layout, h, tokens[h], th)
    draw_overlays_over(canvas, layout, state, overlays, th, map_box)
    top = title_h + base.image.height
    if legend:
        draw_legend(canvas, top, width, items, P, th)
    if roster:
        draw_roster(canvas, top + legend_h, width, sections, P, th, chip_height=chip_h)
    return BoardImage(image, tuple(canvas.items), layout, map_box, window, close, shown)


def _segments_cross(p: Point, q: Point, a: Point, b: Point) -> bool:
    def orient(u: Point, v: Point, w: Point) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])

    return (orient(p, q, a) * orient(p, q, b) < 0) and (orient(a, b, p) * orient(a, b, q) < 0)


def _polygon_meets_box(pts: Sequence[Point], box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    if any(x0 < x < x1 and y0 < y < y1 for x, y in pts):
        return True
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    edges = list(zip(pts, [*pts[1:], *pts[:1]]))
    sides = list(zip(corners, corners[1:] + corners[:1]))
    return any(_segments_cross(p, q, a, b) for p, q in edges for a, b in sides)


def _x_span(pts: Sequence[Point], y0: float, y1: float) -> tuple[float, float]:
    """The horizontal extent of a polygon within the band y0 ≤ y ≤ y1."""
    xs = [x for x, y in pts if y0 <= y <= y1]
    for (ax, ay), (bx, by) in zip(pts, [*pts[1:], *pts[:1]]):
        for y in (y0, y1):
            if ay != by and min(ay, by) <= y <= max(ay, by):
                xs.append(ax + (bx - ax) * (y - ay) / (by - ay))
    return (min(xs), max(xs)) if xs else (0.0, 0.0)


def _move_labels_off_arrows(canvas: Canvas, base: BaseLayer, dy: int, state: MinisState, layout: HexLayout,
                            arrows: Sequence[tuple[tuple[Hex, int], Sequence[Point]]],
                            th: MinisTheme) -> list[Hex]:
    """A facing arrow pointing N crosses its own hex's label, one pointing S its
    neighbour's: such a label moves beside the arrow (still at the top of its hex).
    Returns the hexes whose label found no room beside it (drawn again over the arrow,
    with a halo)."""
    if not arrows:
        return []
    boxes = [box_of(pts, 0) for _, pts in arrows]
    gap = layout.radius * 0.06
    halo: list[Hex] = []
    moves: list[tuple[Drawn, float | None, float | None]] = []

    def roomy_enough(h: Hex, xs: tuple[float, float], ys: tuple[float, float]) -> bool:
        # inside the hex grown by a quarter: a moved label may reach a little past its rim
        cx, cy = layout.centre(h)
        return all(layout.contains(h, cx + (x - cx) * 0.8, cy + (y - cy) * 0.8) for x in xs for y in ys)

    near = {h for (h, _), _ in arrows} | {h.neighbour(d) for (h, d), _ in arrows}
    shapes = [pts for _, pts in arrows]
    for it in canvas.items:
        if it.kind != "hex-label" or it.hex not in near:
            continue
        hit = [pts for bx, pts in zip(boxes, shapes) if boxes_overlap(it.box, bx) and _polygon_meets_box(pts, it.box)]
        if not hit:
            continue
        w = it.box[2] - it.box[0]
        y0, y1 = it.box[1], it.box[3]
        spans = [_x_span(pts, y0, y1) for pts in hit]
        right = max(b for _, b in spans) + gap
        left = min(a for a, _ in spans) - gap
        if roomy_enough(it.hex, (right, right + w), (y0, y1)):
            moves.append((it, right, None))
        elif roomy_enough(it.hex, (left - w, left), (y0, y1)):
            moves.append((it, None, left))
        else:
            halo.append(it.hex)
    gone = {id(it) for it, _, _ in moves} | {id(it) for it in canvas.items if it.kind == "hex-label" and it.hex in halo}
    canvas.items[:] = [it for it in canvas.items if id(it) not in gone]
    for it, right_of, left_of in moves:
        assert it.hex is not None
        move_hex_label(canvas, base, dy, state.map, layout, it.hex, th, right_of=right_of, left_of=left_of)
    return halo


def board(state: MinisState, *, overlays: Sequence[Overlay] = (), title: str | None = None,
          heading: str | None = None, show_deployment: bool | None = None, legend: bool = True,
          roster: bool = True, hex_radius: float | None = None) -> Image.Image:
    """The battle map of ``state`` as an RGB image (see :func:`render_board`).

    - ``overlays``: paths, attack lines, line-of-sight checks, reachable hexes, range
      bands (:mod:`render.minis.overlays`);
    - ``title``: replaces the scenario/map text on the right of the title bar;
    - ``heading``: what is shown, on the left of the title bar (e.g. ``title_for(events)``);
      default: the state's turn, phase and whose move;
    - ``show_deployment``: draw the deployment zones (default: during army choice and
      deployment only);
    - ``legend`` / ``roster``: the panels under the map;
    - ``hex_radius``: hex size in pixels (default from the theme).
    """
    return render_board(state, overlays=overlays, title=title, heading=heading, show_deployment=show_deployment,
                        legend=legend, roster=roster, hex_radius=hex_radius).image


def overlapping(items: Iterable[Drawn], kinds: Iterable[str]) -> list[tuple[Drawn, Drawn]]:
    """Pairs of recorded items of the given kinds whose boxes overlap (for tests)."""
    chosen = [it for it in items if it.kind in set(kinds)]
    out = []
    for i, a in enumerate(chosen):
        for b in chosen[i + 1:]:
            if boxes_overlap(a.box, b.box):
                out.append((a, b))
    return out
