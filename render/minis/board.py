"""The battle map image of one A&A Miniatures state.

``render_board`` composes: title bar, the cached static layer (frame, terrain, grid,
labels), overlays that lie under the tokens, facing wedges, unit tokens with their
counters, overlay labels, legend and roster.  It reads only the documented fields of
``MinisState``/``UnitState`` (plus ``card``, ``units_at``, ``passengers``) and never
changes the state.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

from PIL import Image

from engine.core.hexgrid import Hex
from engine.minis.state import MinisState, Phase
from render.canvas import Canvas, Drawn, boxes_overlap
from render.layout import HexLayout
from render.minis import facts, panels
from render.minis.base import base_layer, draw_dynamic_terrain, draw_hex_label
from render.minis.overlay_draw import draw_overlays_over, draw_overlays_under
from render.minis.tokens import TokenLook, draw_hex_units, draw_wedge, look, stack_order
from render.overlays import Overlay
from render.theme import Theme, theme


@dataclass(frozen=True)
class BoardImage:
    """A finished board: the image, what was drawn where (for tests and tools), and the
    hex layout in the image's pixels (title bar included)."""

    image: Image.Image
    items: tuple[Drawn, ...]
    layout: HexLayout
    map_box: tuple[float, float, float, float]


def render_board(state: MinisState, *, overlays: Sequence[Overlay] = (), title: str | None = None,
                 show_deployment: bool | None = None, legend: bool = True, roster: bool = True,
                 hex_radius: float | None = None, th: Theme | None = None) -> BoardImage:
    th = th or theme()
    R = float(hex_radius or th.hex_radius_px)
    zones = (state.phase in (Phase.ARMIES, Phase.DEPLOYMENT)) if show_deployment is None else show_deployment
    base = base_layer(state.map, radius=R, zones=zones, th=th)
    width = base.image.width

    # Who is where (hidden information: only deployed units, never army lists).
    units = [u for u in facts.on_map_units(state) if u.carried_by is None and u.hex is not None]
    by_hex: dict[Hex, list[TokenLook]] = defaultdict(list)
    looks: list[TokenLook] = []
    for u in stack_order(units):
        lk = look(state, u, th)
        assert u.hex is not None
        by_hex[u.hex].append(lk)
        looks.append(lk)

    left, right = panels.title_texts(state, title, th)
    lines = panels.title_lines(left, right, width, R, th)
    title_h = panels.title_height(lines, R, th)
    items = panels.legend_items(state, looks, zones, R, th, overlays) if legend else []
    legend_h = panels.legend_height(items, width, R, th) if legend else 0
    entries = panels.roster_entries(state, th) if roster else {}
    roster_h = panels.roster_height(entries, width, R, th) if roster else 0
    height = title_h + base.image.height + legend_h + roster_h

    image = Image.new("RGB", (width, height), th.colour("panel")[:3])
    image.paste(base.image, (0, title_h))
    layout = base.layout.shifted(0, title_h)
    # Items of the static layer, moved below the title bar; hex labels that a full hex
    # of tokens paints over are dropped from the record (they are not visible).
    full = {h for h, ls in by_hex.items() if len(ls) >= 4}
    kept = [it.moved(0, title_h) for it in base.items if not (it.kind == "hex-label" and it.hex in full)]
    canvas = Canvas(image, kept)

    panels.draw_title(canvas, width, title_h, lines, R, th)
    draw_dynamic_terrain(canvas, layout, state, th)
    draw_overlays_under(canvas, layout, state, overlays, th)
    for h, ls in by_hex.items():
        for lk in ls:
            if lk.card.is_vehicle and lk.unit.facing is not None:
                side = th.sides[lk.unit.side]
                draw_wedge(canvas, layout, h, lk.unit.facing, lk.nation.fill if not lk.greyed
                           else th.colour("destroyed_body"), side.cap if lk.unit.side in th.sides
                           else th.colour("outline"), th)
    _relabel_under_wedges(canvas, state, layout, th)
    for h in sorted(by_hex):
        draw_hex_units(canvas, layout, h, by_hex[h], th)
    draw_overlays_over(canvas, layout, state, overlays, th)
    top = title_h + base.image.height
    if legend:
        panels.draw_legend(canvas, top, width, items, R, th)
    if roster:
        panels.draw_roster(canvas, top + legend_h, width, entries, R, th)
    x0, y0, x1, y1 = base.map_box
    return BoardImage(image, tuple(canvas.items), layout, (x0, y0 + title_h, x1, y1 + title_h))


def _relabel_under_wedges(canvas: Canvas, state: MinisState, layout: HexLayout, th: Theme) -> None:
    """A facing wedge straddles its hexside and may cross the label of its own hex (N)
    or of the neighbour (S): draw those labels again on top, with a halo."""
    wedges = [it for it in canvas.items if it.kind == "wedge"]
    if not wedges:
        return
    near = {n for w in wedges if w.hex is not None for n in (w.hex, *w.hex.neighbours())}
    redo = []
    for i, it in enumerate(canvas.items):
        if it.kind == "hex-label" and it.hex in near and any(boxes_overlap(it.box, w.box) for w in wedges):
            redo.append(i)
    for i in reversed(redo):
        h = canvas.items.pop(i).hex
        assert h is not None
        draw_hex_label(canvas, state.map, layout, h, th, halo=True)


def board(state: MinisState, *, overlays: Sequence[Overlay] = (), title: str | None = None,
          show_deployment: bool | None = None, legend: bool = True, roster: bool = True,
          hex_radius: float | None = None) -> Image.Image:
    """The battle map of ``state`` as an RGB image (see :func:`render_board`).

    - ``overlays``: paths, attack lines, line-of-sight checks, reachable hexes, range
      bands (:mod:`render.overlays`);
    - ``title``: replaces the scenario/map text on the right of the title bar;
    - ``show_deployment``: draw the deployment zones (default: during army choice and
      deployment only);
    - ``legend`` / ``roster``: the panels under the map;
    - ``hex_radius``: hex size in pixels (default from the theme).
    """
    return render_board(state, overlays=overlays, title=title, show_deployment=show_deployment,
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
