"""The text around an A&A Miniatures map, built on the generic pieces
(:mod:`render.core.title`, :mod:`render.core.legend`, :mod:`render.core.roster`):

- the title bar: what is shown (turn, phase, side — from the phase reported when the
  bot gives its events, else from the state), then the scenario, the map and each
  objective's holder;
- the legend: only what the picture shows — the sides and nations, the unit types, the
  counters and marks, the terrain in view, the zones and overlays;
- the roster: every deployed unit with its token, id, short name and hex.

All of it at panel size, readable when Discord shows the image 550 px wide
(:mod:`render.core.legibility`).  Hidden information: only units on the map (and
passengers aboard them) are listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from PIL import ImageDraw

from engine.core.hexgrid import Hex
from engine.minis.model import ALLIES, AXIS, SIDES, Terrain
from engine.minis.state import MinisState, Phase, UnitState
from render.core.canvas import Canvas
from render.core.layout import HexLayout
from render.core.legend import Icon, IconBox, LegendItem, hex_icon, icon_height, line_icon, swatch_icon
from render.core.roster import RosterEntry, RosterSection
from render.minis import facts
from render.minis.base import zone_colours
from render.minis import terrain as T
from render.minis.overlays import AttackLine, MovedPath, Overlay, RangeBands, Reachable, SightCheck
from render.minis.symbols import SYMBOL_NAMES, SYMBOLS
from render.minis.theme import MinisTheme
from render.minis.tokens import TokenLook, bar_geometry, bar_sprite, disc_sprite, draw_bar, look, stack_order


# ---------------------------------------------------------------------------- title bar
def state_heading(state: MinisState, th: MinisTheme) -> str:
    """Turn, phase and whose move, from the state."""
    phase = facts.PHASE_NAMES.get(state.phase, state.phase.value.title())
    parts = []
    if state.phase not in (Phase.ARMIES, Phase.DEPLOYMENT):
        parts.append(f"Turn {state.turn}")
    parts.append(phase)
    active = state.active
    if active is not None and active in th.sides and state.phase in facts.PHASE_VERBS:
        parts.append(f"{th.sides[active].name} {facts.PHASE_VERBS[state.phase]}")
    return " · ".join(parts)


def title_texts(state: MinisState, title: str | None, th: MinisTheme, *, heading: str | None = None,
                extra: str | None = None) -> tuple[str, str]:
    """(left, right) texts of the title bar.  ``heading`` names what is shown (the phase
    reported); without it the state's turn, phase and whose move are used.  ``title``
    replaces the scenario and map; ``extra`` is added after them (e.g. "Close-up F4–L9")."""
    parts = [heading or state_heading(state, th)]
    names = {k: v.name for k, v in th.sides.items()}
    over = facts.outcome_text(state, names)
    if over is not None:
        parts.append(over)
    left = " · ".join(parts)
    right_parts = [title] if title else [state.scenario.replace("_", " ").title(), state.map.name]
    if extra:
        right_parts.append(extra)
    for obj in facts.objectives(state):
        who = facts.objective_holder(state, obj)
        if who is not None and who in th.sides:
            status = f"held by {th.sides[who].name}"
        elif facts.contested(state, obj):
            status = "contested"
        else:
            status = "held by nobody"
        right_parts.append(f"Objective {state.map.label(obj)} {status}")
    return left, " · ".join(p for p in right_parts if p)


# ---------------------------------------------------------------------------- legend
TERRAIN_NAMES = {Terrain.FOREST: "Forest", Terrain.HILL: "Hill", Terrain.TOWN: "Town", Terrain.MARSH: "Marsh",
                 Terrain.LAKE: "Lake"}


@dataclass(frozen=True)
class Shown:
    """What a picture shows, for its legend."""

    looks: Sequence[TokenLook]
    hexes: frozenset[Hex]
    zones: bool
    overlays: Sequence[Overlay]
    facing: bool
    stacked: bool


def legend_items(state: MinisState, shown: Shown, unit: float, th: MinisTheme) -> list[LegendItem]:
    h = icon_height(unit, th)
    items: list[LegendItem] = []
    looks = [lk for lk in shown.looks if not lk.ghost]
    # sides and nations in play
    for side in SIDES:
        mine = [lk for lk in looks if lk.unit.side == side]
        if not mine:
            continue
        nations = ", ".join(dict.fromkeys(lk.nation.name for lk in mine))
        style = th.sides[side]
        items.append(LegendItem(_chip_icon(mine[0], th), round(h * 1.6), f"{style.name} {style.id_prefix}#: {nations}"))
    symbols = {lk.symbol for lk in shown.looks}
    for sym in SYMBOLS:
        if sym in symbols:
            items.append(LegendItem(_symbol_icon(sym, th), h, SYMBOL_NAMES[sym]))
    pips = {p for lk in looks for p in lk.pips}
    if "disrupted" in pips:
        items.append(LegendItem(_pip_icon("disrupted", th), h, "Disrupted"))
    if "damaged" in pips:
        items.append(LegendItem(_pip_icon("damaged", th), h, "Damaged"))
    if "hit" in pips:
        items.append(LegendItem(_pip_icon("hit", th), h, "Pending hit"))
    if shown.stacked:
        items.append(LegendItem(_pip_icon("stack", th), h, "Hits (stack)"))
    if any(lk.greyed for lk in looks):
        items.append(LegendItem(_greyed_icon(th), round(h * 1.3), "Destroyed"))
    if any(lk.ghost for lk in shown.looks):
        items.append(LegendItem(_greyed_icon(th, ghost=True), round(h * 1.3), "Removed"))
    if "passenger" in pips:
        items.append(LegendItem(_pip_icon("passenger", th), h, "Passenger"))
    if shown.facing:
        items.append(LegendItem(_facing_icon(th), round(h * 1.2), "Facing"))
    if any(o in shown.hexes for o in facts.objectives(state)):
        items.append(LegendItem(_objective_icon(th), h, "Objective"))
    items.extend(terrain_items(state, shown.hexes, h, th))
    if shown.zones:
        owners = facts.zone_sides(state)
        for name in sorted(state.map.zones):
            fill, edge = zone_colours(th, name)
            who = owners.get(name)
            label = f"{name.title()} zone" + (f": {th.sides[who].name}" if who is not None and who in th.sides else "")
            items.append(LegendItem(swatch_icon(fill, edge, th.terrain["clear"].fill), h, label))
    items.extend(_overlay_items(shown.overlays, h, th))
    return items


def terrain_items(state: MinisState, hexes: frozenset[Hex], h: int, th: MinisTheme) -> list[LegendItem]:
    """One entry per terrain type in view (M-13), then roads, streams and bridges."""
    m = state.map
    present = {m.terrain_at(x) for x in hexes}
    out = []
    for t in (Terrain.FOREST, Terrain.HILL, Terrain.TOWN, Terrain.MARSH, Terrain.LAKE):
        if t in present:
            out.append(LegendItem(_terrain_icon(t, th), round(h * 1.2), TERRAIN_NAMES[t]))

    def touches(links: Iterable[tuple[Hex, Hex]]) -> bool:
        return any(a in hexes or b in hexes for a, b in links)

    if touches(m.roads):
        out.append(LegendItem(line_icon(th.colour("road"), th.colour("road_casing")), round(h * 1.4), "Road"))
    if touches(m.streams):
        out.append(LegendItem(line_icon(th.colour("stream_light"), th.colour("stream")), round(h * 1.4), "Stream"))
    if touches(m.bridges):
        out.append(LegendItem(swatch_icon(th.colour("bridge_deck"), th.colour("bridge_rail")), round(h * 1.2),
                              "Bridge"))
    if touches(facts.demolished_bridges(state)):
        out.append(LegendItem(_broken_bridge_icon(th), round(h * 1.2), "Bridge destroyed"))
    return out


def _overlay_items(overlays: Sequence[Overlay], h: int, th: MinisTheme) -> list[LegendItem]:
    """Legend entries for the overlays shown (once per kind)."""
    out: list[LegendItem] = []
    kinds = {type(ov) for ov in overlays}
    if MovedPath in kinds:
        out.append(LegendItem(line_icon(th.colour("path"), th.colour("path_casing")), round(h * 1.4), "Moved"))
        if any(isinstance(ov, MovedPath) and ov.fire_points for ov in overlays):
            out.append(LegendItem(swatch_icon(th.colour("fire"), th.colour("fire_dark")), h, "Defensive fire"))
    if AttackLine in kinds:
        out.append(LegendItem(line_icon(th.colour("attack"), th.colour("attack_casing")), round(h * 1.4), "Attack"))
    checks = [ov for ov in overlays if isinstance(ov, SightCheck)]
    if any(c.clear for c in checks):
        out.append(LegendItem(line_icon(th.colour("los_clear"), th.colour("path_casing")), round(h * 1.4),
                              "Sight clear"))
    if any(not c.clear for c in checks):
        out.append(LegendItem(line_icon(th.colour("los_blocked"), th.colour("path_casing")), round(h * 1.4),
                              "Sight blocked"))
        out.append(LegendItem(swatch_icon(th.colour("los_block_fill"), th.colour("los_blocked"),
                                          th.terrain["clear"].fill), h, "Blocks sight"))
    if Reachable in kinds:
        out.append(LegendItem(swatch_icon(th.colour("reach_fill"), th.colour("reach_edge"), th.terrain["clear"].fill),
                              h, "Reachable"))
    if RangeBands in kinds:
        for band, label in (("short", "Short 0–1"), ("medium", "Medium 2–4"), ("long", "Long 5–8")):
            out.append(LegendItem(swatch_icon(th.colour(f"band_{band}"), th.colour(f"band_edge_{band}"),
                                              th.terrain["clear"].fill), h, label))
    return out


def _terrain_icon(t: Terrain, th: MinisTheme) -> Icon:
    def draw(d: ImageDraw.ImageDraw, layout: HexLayout, h: Hex) -> None:
        T.draw_fill(d, layout, h, t, th)
        T.draw_symbol(d, layout, h, t, th)
        pts = layout.corners(h)
        d.line(pts + [pts[0]], fill=th.colour("outline"), width=max(1, round(layout.radius * 0.06)))
    return hex_icon(f"minis-terrain-{t.value}-{id(th)}", draw)


def _broken_bridge_icon(th: MinisTheme) -> Icon:
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        canvas.draw.rectangle(box, fill=th.colour("bridge_deck"), outline=th.colour("bridge_rail"), width=2)
        cx = (x0 + x1) // 2
        canvas.draw.line((cx, y0, cx, y1), fill=th.colour("stream"), width=max(2, (x1 - x0) // 4))
    return icon


def _chip_icon(sample: TokenLook, th: MinisTheme) -> Icon:
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        side = th.sides[sample.unit.side]
        h = y1 - y0
        sprite = bar_sprite(x1 - x0, h, round(h * 0.95), sample.nation.fill, side.cap, "rifle", side.cap_symbol,
                            th.colour("outline"), None, h * 0.22)
        canvas.paste(sprite, (x0, y0))
    return icon


def _symbol_icon(sym: str, th: MinisTheme) -> Icon:
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        h = y1 - y0
        sprite = bar_sprite(x1 - x0, h, x1 - x0, th.colour("panel"), th.sides[ALLIES].cap, sym,
                            th.sides[ALLIES].cap_symbol, th.colour("outline"), None, h * 0.22)
        canvas.paste(sprite, (x0, y0))
    return icon


def _pip_icon(kind: str, th: MinisTheme) -> Icon:
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        s = round((y1 - y0) * 0.62)
        px, py = x0 + (x1 - x0 - s) // 2, y0 + (y1 - y0 - s) // 2
        d = canvas.draw
        if kind == "passenger":
            canvas.paste(disc_sprite(s, th.colour("passenger"), th.colour("passenger_dark"),
                                     th.sides[AXIS].fill), (px, py))
        elif kind in ("disrupted", "damaged"):
            d.rectangle((px, py, px + s - 1, py + s - 1), fill=th.colour(kind), outline=th.colour(f"{kind}_dark"))
        elif kind == "stack":
            b = max(2, round(s * 0.72))
            d.rectangle((px, py, px + b - 1, py + b - 1), fill=th.colour("hit"), outline=th.colour("hit_edge"))
            d.rectangle((px + s - b, py + s - b, px + s - 1, py + s - 1), fill=th.colour("hit"),
                        outline=th.colour("hit_edge"))
        else:
            d.rectangle((px, py, px + s - 1, py + s - 1), fill=th.colour("hit"), outline=th.colour("hit_edge"))
    return icon


def _greyed_icon(th: MinisTheme, *, ghost: bool = False) -> Icon:
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        h = y1 - y0
        pre = "ghost" if ghost else "destroyed"
        sprite = bar_sprite(x1 - x0, h, round(h * 0.8), th.colour(f"{pre}_body"), th.colour(f"{pre}_cap"),
                            "rifle", th.colour(f"{pre}_text"), th.colour("outline"),
                            th.colour("destroyed_mark"), h * 0.22, ghost)
        canvas.paste(sprite, (x0, y0))
    return icon


def _facing_icon(th: MinisTheme) -> Icon:
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        cy = (y0 + y1) / 2
        h = y1 - y0
        shaft, half = h * 0.12, h * 0.42
        neck = x1 - h * 0.55
        pts = [(x0 + 1, cy - shaft), (neck, cy - shaft), (neck, cy - half), (x1 - 1, cy), (neck, cy + half),
               (neck, cy + shaft), (x0 + 1, cy + shaft)]
        canvas.draw.polygon(pts, fill=th.sides[AXIS].fill, outline=th.sides[AXIS].cap)
    return icon


def _objective_icon(th: MinisTheme) -> Icon:
    def icon(canvas: Canvas, box: IconBox) -> None:
        x0, y0, x1, y1 = box
        r = (y1 - y0) / 2
        canvas.draw.polygon(T.star(((x0 + x1) / 2, (y0 + y1) / 2 + r * 0.08), r, r * 0.42),
                            fill=th.colour("objective"), outline=th.colour("objective_dark"))
    return icon


# ---------------------------------------------------------------------------- roster
def chip_radius(unit: float, th: MinisTheme) -> float:
    """The hex radius whose tokens have unit numbers at panel size."""
    return unit * th.sizes["panel_font"] / th.sizes["unit_font"]


def roster_sections(state: MinisState, unit: float, th: MinisTheme) -> list[RosterSection]:
    """Per side, every deployed unit in id order with its hex (and a Vehicle's facing,
    "K7 SE"); a passenger right after its transport.  Chips show every counter (no hex
    limits the bar's width here)."""
    chip_R = chip_radius(unit, th)
    out: dict[str, list[RosterEntry]] = {s: [] for s in SIDES}
    top = [u for u in facts.on_map_units(state) if u.carried_by is None]

    def entry(u: UnitState, where: str) -> RosterEntry:
        lk = look(state, u, th)
        card = state.card(u)
        g = bar_geometry(lk.label, len(lk.pips), chip_R, th, max_width=None)

        def chip(canvas: Canvas, centre: tuple[float, float]) -> None:
            draw_bar(canvas, centre, lk, chip_R, th, kind="roster-chip", tier="panel", max_width=None)

        return RosterEntry(chip, g.width, f"{u.id} {card.short_name or card.name}", where)

    for u in stack_order(top):
        where = state.map.label(u.hex) if u.hex else ""
        if u.facing is not None and state.card(u).is_vehicle:
            where += f" {state.map.labels.direction_name(u.facing)}"  # M-6.4, readable even in a crowd
        out.setdefault(u.side, []).append(entry(u, where))
        for p in stack_order(list(state.passengers(u.id))):
            if p.on_map or p.hex is None:
                out.setdefault(p.side, []).append(entry(p, f"in {u.id}"))
    return [RosterSection(f"{th.sides[s].name} units", out[s]) for s in SIDES if out.get(s)]


def roster_chip_height(unit: float, th: MinisTheme) -> float:
    return th.size("bar_height", chip_radius(unit, th))

