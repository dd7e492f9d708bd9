"""The text around the map: the title bar (turn, phase, whose move, scenario, objective
holder), a small legend and the roster (every deployed unit: token, id, short name,
hex).  All of it at "panel" size, which stays readable when Discord shows the image
about 550 px wide (see tests/render/test_legibility.py).

Hidden information: only units on the map (and passengers aboard them) are listed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from PIL import ImageDraw

from engine.minis.model import ALLIES, AXIS, SIDES
from engine.minis.state import MinisState, Phase, UnitState
from render.canvas import Canvas
from render.fonts import Face, font
from render.minis import facts
from render.minis.symbols import SYMBOLS
from render.minis.terrain import star
from render.overlays import AttackLine, MovedPath, Overlay, RangeBands, Reachable, SightCheck
from render.minis.tokens import (TokenLook, bar_geometry, bar_sprite, disc_sprite, draw_bar, look,
                                 stack_order)
from render.theme import RGBA, Theme

SYMBOL_NAMES = {"infantry": "Infantry", "armour": "Armour", "artillery": "Artillery",
                "commander": "Commander", "transport": "Transport"}


# ---------------------------------------------------------------------------- title bar
def title_texts(state: MinisState, title: str | None, th: Theme) -> tuple[str, str]:
    """(left, right) texts of the title bar."""
    phase = facts.PHASE_NAMES.get(state.phase, state.phase.value.title())
    parts = []
    if state.phase not in (Phase.ARMIES, Phase.DEPLOYMENT):
        parts.append(f"Turn {state.turn}")
    parts.append(phase)
    active = state.active
    if active is not None and active in th.sides and state.phase in facts.PHASE_VERBS:
        parts.append(f"{th.sides[active].name} {facts.PHASE_VERBS[state.phase]}")
    names = {k: v.name for k, v in th.sides.items()}
    over = facts.outcome_text(state, names)
    if over is not None:
        parts.append(over)
    left = " · ".join(parts)
    right_parts = [title] if title else [state.scenario.replace("_", " ").title(), state.map.name]
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


def _pack(text: str, measure: Callable[[str], float], room: float) -> list[str]:
    """Lines of at most ``room`` pixels: parts split at " · ", an overlong part at spaces."""
    pieces: list[str] = []
    for part in text.split(" · "):
        if measure(part) <= room:
            pieces.append(part)
            continue
        line = ""
        for word in part.split(" "):
            trial = f"{line} {word}" if line else word
            if line and measure(trial) > room:
                pieces.append(line)
                line = word
            else:
                line = trial
        pieces.append(line)
    lines: list[str] = []
    current = ""
    for piece in pieces:
        trial = f"{current} · {piece}" if current else piece
        if current and measure(trial) > room:
            lines.append(current)
            current = piece
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def title_lines(left: str, right: str, width: int, R: float, th: Theme) -> list[tuple[str, str]]:
    """The title bar's lines as (left, right) pairs: one line when both fit, else the
    left text (wrapped if it is too long, e.g. with the battle's outcome) and the right
    parts (split at " · ") packed onto following lines."""
    size = round(th.size("title_font", R))
    pad = th.size("panel_pad", R)
    bold, cond = font(Face.BOLD, size), font(Face.CONDENSED, size)
    if bold.getlength(left) + cond.getlength(right) + 3 * pad <= width:
        return [(left, right)]
    room = width - 2 * pad
    lines: list[tuple[str, str]] = [(text, "") for text in _pack(left, bold.getlength, room)]
    lines += [("", text) for text in _pack(right, cond.getlength, room)]
    return lines


def title_height(lines: Sequence[tuple[str, str]], R: float, th: Theme) -> int:
    one = th.size("title_height", R)
    return round(one + (len(lines) - 1) * one * 0.8)


def draw_title(canvas: Canvas, width: int, height: int, lines: Sequence[tuple[str, str]], R: float,
               th: Theme) -> None:
    size = round(th.size("title_font", R))
    pad = th.size("panel_pad", R)
    one = th.size("title_height", R)
    canvas.draw.rectangle((0, 0, width, height), fill=th.colour("title_bar"))
    canvas.draw.rectangle((0, height - max(1, round(R * 0.06)), width, height), fill=th.colour("title_accent"))
    for i, (left, right) in enumerate(lines):
        mid = one / 2 + i * one * 0.8
        if left:
            canvas.text((pad, mid), left, face=Face.BOLD, size=size, fill=th.colour("title_text"),
                        anchor="lm", kind="title")
        if right:
            x, anchor = (width - pad, "rm") if left else (pad, "lm")
            canvas.text((x, mid), right, face=Face.CONDENSED, size=size, fill=th.colour("title_text"),
                        anchor=anchor, kind="title")


# ---------------------------------------------------------------------------- legend
Icon = Callable[[Canvas, tuple[int, int, int, int]], None]


@dataclass(frozen=True)
class LegendItem:
    icon: Icon
    icon_width: int
    text: str


def legend_items(state: MinisState, looks: Sequence[TokenLook], zones: bool, R: float,
                 th: Theme, overlays: Sequence[Overlay] = ()) -> list[LegendItem]:
    size = round(th.size("panel_font", R))
    h = round(size * 1.05)
    items: list[LegendItem] = []
    # sides and nations in play
    seen: dict[str, list[str]] = {AXIS: [], ALLIES: []}
    for lk in looks:
        names = seen.setdefault(lk.unit.side, [])
        if lk.nation.name not in names:
            names.append(lk.nation.name)
    for side in SIDES:
        style = th.sides[side]
        for lk in looks:
            if lk.unit.side == side:
                sample = lk
                break
        else:
            continue
        nations = ", ".join(seen.get(side, []))
        items.append(LegendItem(_chip_icon(sample, R, th), round(h * 1.6),
                                f"{style.name} {style.id_prefix}#: {nations}"))
    for sym in SYMBOLS:
        items.append(LegendItem(_symbol_icon(sym, th), h, SYMBOL_NAMES[sym]))
    items.append(LegendItem(_pip_icon("disrupted", th), h, "Disrupted"))
    items.append(LegendItem(_pip_icon("damaged", th), h, "Damaged"))
    items.append(LegendItem(_pip_icon("hit", th), h, "Pending hit"))
    items.append(LegendItem(_greyed_icon(R, th), round(h * 1.3), "Destroyed"))
    items.append(LegendItem(_pip_icon("passenger", th), h, "Passenger"))
    items.append(LegendItem(_wedge_icon(th), h, "Facing"))
    if facts.objectives(state):
        items.append(LegendItem(_objective_icon(th), h, "Objective"))
    if zones:
        from render.minis.base import zone_colours

        owners = facts.zone_sides(state)
        for name in sorted(state.map.zones):
            fill, edge = zone_colours(th, name)
            who = owners.get(name)
            label = f"{name.title()} zone" + (f": {th.sides[who].name}" if who is not None and who in th.sides else "")
            items.append(LegendItem(_zone_icon(fill, edge, th), h, label))
    items.extend(_overlay_items(overlays, h, th))
    return items


def _overlay_items(overlays: Sequence[Overlay], h: int, th: Theme) -> list[LegendItem]:
    """Legend entries for the overlays shown (once per kind)."""
    out: list[LegendItem] = []
    kinds = {type(ov) for ov in overlays}
    if MovedPath in kinds:
        out.append(LegendItem(_line_icon(th.colour("path"), th.colour("path_casing")), round(h * 1.4), "Moved"))
        if any(isinstance(ov, MovedPath) and ov.fire_points for ov in overlays):
            out.append(LegendItem(_swatch_icon(th.colour("fire"), th.colour("fire_dark")), h, "Defensive fire"))
    if AttackLine in kinds:
        out.append(LegendItem(_line_icon(th.colour("attack"), th.colour("attack_casing")), round(h * 1.4), "Attack"))
    checks = [ov for ov in overlays if isinstance(ov, SightCheck)]
    if any(c.clear for c in checks):
        out.append(LegendItem(_line_icon(th.colour("los_clear"), th.colour("path_casing")), round(h * 1.4),
                              "Sight clear"))
    if any(not c.clear for c in checks):
        out.append(LegendItem(_line_icon(th.colour("los_blocked"), th.colour("path_casing")), round(h * 1.4),
                              "Sight blocked"))
        out.append(LegendItem(_swatch_icon(th.colour("los_block_fill"), th.colour("los_blocked")), h,
                              "Blocks sight"))
    if Reachable in kinds:
        out.append(LegendItem(_swatch_icon(th.colour("reach_fill"), th.colour("reach_edge")), h, "Reachable"))
    if RangeBands in kinds:
        for band, label in (("short", "Short 0–1"), ("medium", "Medium 2–4"), ("long", "Long 5–8")):
            out.append(LegendItem(_swatch_icon(th.colour(f"band_{band}"), th.colour(f"band_edge_{band}")), h, label))
    return out


def _line_icon(colour: RGBA, casing: RGBA) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        y = (y0 + y1) // 2
        canvas.draw.line((x0, y, x1, y), fill=casing, width=max(3, (y1 - y0) // 3))
        canvas.draw.line((x0 + 1, y, x1 - 1, y), fill=colour, width=max(1, (y1 - y0) // 5))
    return icon


def _swatch_icon(fill: RGBA, edge: RGBA) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        canvas.draw.rectangle(box, fill=(223, 228, 197))
        canvas.draw.rectangle(box, fill=fill, outline=edge, width=2)
    return icon


def _flow(items: Sequence[LegendItem], width: int, R: float,
          th: Theme) -> list[list[tuple[LegendItem, int]]]:
    size = round(th.size("panel_font", R))
    f = font(Face.CONDENSED, size)
    pad = th.size("panel_pad", R)
    gap_icon = round(size * 0.35)
    gap_item = round(size * 1.0)
    rows: list[list[tuple[LegendItem, int]]] = [[]]
    x = pad
    for it in items:
        w = it.icon_width + gap_icon + math.ceil(f.getlength(it.text))
        if rows[-1] and x + w > width - pad:
            rows.append([])
            x = pad
        rows[-1].append((it, round(x)))
        x += w + gap_item
    return rows


def legend_height(items: Sequence[LegendItem], width: int, R: float, th: Theme) -> int:
    rows = _flow(items, width, R, th)
    return round(len(rows) * th.size("panel_line", R) + th.size("panel_pad", R))


def draw_legend(canvas: Canvas, top: int, width: int, items: Sequence[LegendItem], R: float, th: Theme) -> None:
    size = round(th.size("panel_font", R))
    line = th.size("panel_line", R)
    gap_icon = round(size * 0.35)
    y = top + th.size("panel_pad", R) / 2
    for row in _flow(items, width, R, th):
        mid = y + line / 2
        for it, x in row:
            ih = round(size * 1.05)
            box = (x, round(mid - ih / 2), x + it.icon_width, round(mid - ih / 2) + ih)
            it.icon(canvas, box)
            canvas.mark("legend-icon", box)
            canvas.text((x + it.icon_width + gap_icon, mid), it.text, face=Face.CONDENSED, size=size,
                        fill=th.colour("panel_text"), anchor="lm", kind="legend")
        y += line


def _chip_icon(sample: TokenLook, R: float, th: Theme) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        side = th.sides[sample.unit.side]
        h = y1 - y0
        cap = round(h * 0.95)
        sprite = bar_sprite(x1 - x0, h, cap, sample.nation.fill, side.cap, "infantry", side.cap_symbol,
                            th.colour("outline"), None, h * 0.22)
        canvas.paste(sprite, (x0, y0))
    return icon


def _symbol_icon(sym: str, th: Theme) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        h = y1 - y0
        sprite = bar_sprite(x1 - x0, h, x1 - x0, th.colour("panel"), th.sides[ALLIES].cap, sym,
                            th.sides[ALLIES].cap_symbol, th.colour("outline"), None, h * 0.22)
        canvas.paste(sprite, (x0, y0))
    return icon


def _pip_icon(kind: str, th: Theme) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        s = round((y1 - y0) * 0.62)
        px, py = x0 + (x1 - x0 - s) // 2, y0 + (y1 - y0 - s) // 2
        d = canvas.draw
        if kind == "passenger":
            canvas.paste(disc_sprite(s, th.colour("passenger"), th.colour("passenger_dark"),
                                     th.sides[AXIS].fill), (px, py))
        elif kind == "disrupted":
            d.rectangle((px, py, px + s - 1, py + s - 1), fill=th.colour("disrupted"),
                        outline=th.colour("disrupted_dark"))
        elif kind == "damaged":
            d.rectangle((px, py, px + s - 1, py + s - 1), fill=th.colour("damaged"),
                        outline=th.colour("damaged_dark"))
        else:
            d.rectangle((px, py, px + s - 1, py + s - 1), fill=th.colour("hit"), outline=th.colour("hit_edge"))
    return icon


def _greyed_icon(R: float, th: Theme) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        h = y1 - y0
        sprite = bar_sprite(x1 - x0, h, round(h * 0.8), th.colour("destroyed_body"), th.colour("destroyed_cap"),
                            "infantry", th.colour("destroyed_text"), th.colour("outline"),
                            th.colour("destroyed_mark"), h * 0.22)
        canvas.paste(sprite, (x0, y0))
    return icon


def _wedge_icon(th: Theme) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        cx = (x0 + x1) / 2
        pts = [(x0 + 1, y1 - 2), (cx, y0 + 1), (x1 - 1, y1 - 2)]
        canvas.draw.polygon(pts, fill=th.sides[AXIS].fill, outline=th.sides[AXIS].cap)
    return icon


def _objective_icon(th: Theme) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        r = (y1 - y0) / 2
        canvas.draw.polygon(star(((x0 + x1) / 2, (y0 + y1) / 2 + r * 0.08), r, r * 0.42),
                            fill=th.colour("objective"), outline=th.colour("objective_dark"))
    return icon


def _zone_icon(fill: RGBA, edge: RGBA, th: Theme) -> Icon:
    def icon(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
        canvas.draw.rectangle(box, fill=th.terrain["clear"].fill)
        canvas.draw.rectangle(box, fill=fill, outline=edge, width=2)
    return icon


# ---------------------------------------------------------------------------- roster
@dataclass(frozen=True)
class RosterEntry:
    look: TokenLook
    name: str
    where: str


def roster_entries(state: MinisState, th: Theme) -> dict[str, list[RosterEntry]]:
    """Per side, every deployed unit in id order; a passenger right after its transport."""
    out: dict[str, list[RosterEntry]] = {s: [] for s in SIDES}
    top = [u for u in facts.on_map_units(state) if u.carried_by is None]
    for u in stack_order(top):
        out.setdefault(u.side, []).append(_entry(state, u, state.map.label(u.hex) if u.hex else "", th))
        for p in stack_order(list(state.passengers(u.id))):
            if p.on_map or p.hex is None:
                out.setdefault(p.side, []).append(_entry(state, p, f"in {u.id}", th))
    return out


def _entry(state: MinisState, u: UnitState, where: str, th: Theme) -> RosterEntry:
    card = state.card(u)
    name = card.short_name or card.name
    return RosterEntry(look(state, u, th), f"{u.id} {name}", where)


def _roster_metrics(entries: dict[str, list[RosterEntry]], width: int, R: float,
                    th: Theme) -> tuple[int, int, float, float]:
    """(columns, column width, chip radius, line height)."""
    size = round(th.size("panel_font", R))
    f = font(Face.CONDENSED, size)
    chip_R = R * th.sizes["panel_font"] / th.sizes["unit_font"]
    pad = th.size("panel_pad", R)
    widest = 0.0
    for es in entries.values():
        for e in es:
            g = bar_geometry(e.look.label, len(e.look.pips), chip_R, th)
            widest = max(widest, g.width + size * 0.5 + f.getlength(e.name) + size * 0.8
                         + font(Face.CONDENSED_BOLD, size).getlength(e.where))
    col_w = math.ceil(widest + size)
    cols = max(1, int((width - 2 * pad) // max(1, col_w)))
    line = max(th.size("panel_line", R), th.size("bar_height", chip_R) + R * 0.12)
    return cols, col_w, chip_R, line


def roster_height(entries: dict[str, list[RosterEntry]], width: int, R: float, th: Theme) -> int:
    if not any(entries.values()):
        return 0
    cols, _, _, line = _roster_metrics(entries, width, R, th)
    rows = 0
    for es in entries.values():
        if es:
            rows += 1 + math.ceil(len(es) / cols)
    return round(rows * line + th.size("panel_pad", R))


def draw_roster(canvas: Canvas, top: int, width: int, entries: dict[str, list[RosterEntry]], R: float,
                th: Theme) -> None:
    if not any(entries.values()):
        return
    cols, col_w, chip_R, line = _roster_metrics(entries, width, R, th)
    size = round(th.size("panel_font", R))
    pad = th.size("panel_pad", R)
    col_w = max(col_w, int((width - 2 * pad) // cols))
    y = top + pad / 2
    d: ImageDraw.ImageDraw = canvas.draw
    for side in SIDES:
        es = entries.get(side, [])
        if not es:
            continue
        style = th.sides[side]
        mid = y + line / 2
        d.line((pad, round(y + line - 2), width - pad, round(y + line - 2)), fill=th.colour("panel_dim"), width=1)
        canvas.text((pad, mid), f"{style.name} units", face=Face.BOLD, size=size, fill=th.colour("panel_text"),
                    anchor="lm", kind="roster-head")
        y += line
        per_col = math.ceil(len(es) / cols)
        for i, e in enumerate(es):
            col, row = divmod(i, per_col)
            x = pad + col * col_w
            mid = y + row * line + line / 2
            g = bar_geometry(e.look.label, len(e.look.pips), chip_R, th)
            draw_bar(canvas, (x + g.width / 2, mid), e.look, chip_R, th, kind="roster-chip", tier="panel")
            tx = x + g.width + size * 0.5
            canvas.text((tx, mid), e.name, face=Face.CONDENSED, size=size, fill=th.colour("panel_text"),
                        anchor="lm", kind="roster")
            canvas.text((x + col_w - size * 0.6, mid), e.where, face=Face.CONDENSED_BOLD, size=size,
                        fill=th.colour("panel_dim"), anchor="rm", kind="roster")
        y += per_col * line
