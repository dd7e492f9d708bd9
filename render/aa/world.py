"""The world map of A&A Anniversary: our own schematic drawing, not traced from any
published board.

Every space sits where ``positions.json`` puts it (map cells; land placed by hand by
approximate geography, sea zones by a force layout — see gen_positions.py).  A land
territory is a rounded box in its controller's colour, with its name, IPC value, a star
for a victory city (a double edge for a capital), a factory marker with its damage, and
a badge per power and unit kind with the count.  A sea zone is a blue disc with its
number and the same badges.  Connections are thin lines; battles are ringed red; moves
are arrows in the mover's colour.

:func:`map_png` draws the world or a regional zoom (``REGIONS``, each at most 22 cells
wide so every text reads at 550 px); :func:`report_png` the map after a phase, with the
phase's battles and moves.  Pure: the state is only read.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping, Sequence

from PIL import Image

from engine.aa.board import board
from engine.aa.state import POWERS, AAState
from engine.aa.units import KINDS, SHORT
from render.core.canvas import Canvas, boxes_overlap
from render.core.colour import RGBA, rgb, text_on
from render.core.encode import png
from render.core.fonts import Face, text_width, wrap_text
from render.core.theme import Theme, base_fields, load_theme_data
from render.core.title import draw_title, title_height, title_lines

# name -> (x0, y0, x1, y1) in map cells
REGIONS: dict[str, tuple[float, float, float, float]] = {
    "world": (-1.5, -1.5, 79.5, 35.0),
    "europe": (19.0, -0.5, 41.0, 17.5),
    "atlantic": (8.0, -0.5, 30.0, 20.0),
    "americas": (-1.0, 0.0, 21.0, 30.0),
    "africa": (20.0, 15.0, 42.0, 33.5),
    "asia": (40.0, -0.5, 62.0, 23.5),
    "pacific": (56.5, 7.5, 78.5, 34.5),
}
MAX_REGION_CELLS = 22.0
WORLD_CELL_PX = 24
REGION_WIDTH = 1100
LABELS = {"Czechoslovakia Hungary": "Czech. Hungary", "French Indo-China Thailand": "Indo-China",
          "Evenki National Okrug": "Evenki", "Northern South America": "N. South America",
          "Central United States": "Central US", "Eastern United States": "Eastern US",
          "Western United States": "Western US", "Union of South Africa": "South Africa",
          "French Equatorial Africa": "Fr. Equatorial Africa", "Anglo-Egypt Sudan": "Anglo-Egypt Sudan",
          "Northwestern Europe": "NW Europe", "Buryatia S.S.R.": "Buryatia", "Karelia S.S.R.": "Karelia",
          "Kazakh S.S.R.": "Kazakh", "Yakut S.S.R.": "Yakut", "Stanovoj Chrebet": "Stanovoj",
          "French Madagascar": "Madagascar", "Philippine Islands": "Philippines",
          "Hawaiian Islands": "Hawaii", "Bulgaria Romania": "Bulgaria Romania"}


@dataclass(frozen=True)
class AATheme(Theme):
    pass


@lru_cache(maxsize=None)
def theme() -> AATheme:
    data = load_theme_data("render.aa")
    return AATheme(**base_fields(data, name="aa"))


@lru_cache(maxsize=None)
def positions() -> Mapping[str, tuple[float, float]]:
    raw = json.loads((resources.files("render.aa") / "positions.json").read_text("utf-8"))
    return {k: (float(v[0]), float(v[1])) for k, v in raw.items()}


def colour(name: str) -> RGBA:
    th = theme()
    return th.colour(name) if name in th.colours else th.colour("neutral")


def tint(c: RGBA, t: float = 0.55) -> tuple[int, int, int]:
    """A lighter fill of a power's colour (aligned to multiples of 4)."""
    return tuple(int((v + (255 - v) * t)) // 4 * 4 for v in c[:3])  # type: ignore[return-value]


@dataclass(frozen=True)
class Overlay:
    """What a report adds to the map: the battles fought and the moves made."""

    battles: tuple[str, ...] = ()
    moves: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (power, path)


def overlay_from(events: Iterable[Mapping[str, Any]]) -> Overlay:
    battles: list[str] = []
    moves: list[tuple[str, tuple[str, ...]]] = []
    for e in events:
        if e.get("type") == "BattleStarted" and e["where"] not in battles:
            battles.append(str(e["where"]))
        elif e.get("type") == "Moved":
            moves.append((str(e["power"]), tuple(str(p) for p in e["path"])))
    return Overlay(tuple(battles), tuple(moves))


class _Map:
    def __init__(self, state: AAState, region: str, cell: float, title: str) -> None:
        if region not in REGIONS:
            raise KeyError(region)
        self.state = state
        self.th = theme()
        self.region = region
        self.close = region != "world"
        x0, y0, x1, y1 = REGIONS[region]
        self.view = (x0, y0, x1, y1)
        self.cell = cell
        self.width = round((x1 - x0) * cell)
        left = title or "Axis & Allies Anniversary"
        right = f"Round {state.round} · {state.actor}: {state.phase}"
        self.lines = title_lines(left, right, self.width, cell, self.th)
        self.top = title_height(self.lines, cell, self.th)
        self.height = self.top + round((y1 - y0) * cell)
        self.canvas = Canvas(Image.new("RGB", (self.width, self.height), rgb(self.th.colour("ocean"))))

    def px(self, name: str) -> tuple[float, float]:
        x, y = positions()[name]
        return (x - self.view[0]) * self.cell, self.top + (y - self.view[1]) * self.cell

    def visible(self, name: str, margin: float = 2.0) -> bool:
        x, y = positions()[name]
        x0, y0, x1, y1 = self.view
        return x0 - margin <= x <= x1 + margin and y0 - margin <= y <= y1 + margin

    def size(self, key: str) -> float:
        return self.th.size(key, self.cell)

    # ------------------------------------------------------------------ layers

    def links(self) -> None:
        b = board()
        c = self.th.colour("link")
        for a, z in b.connections:
            if abs(positions()[a][0] - positions()[z][0]) > 40 or not (self.visible(a) or self.visible(z)):
                continue
            self.canvas.draw.line([self.px(a), self.px(z)], fill=c, width=max(1, round(self.cell * 0.05)))

    def seas(self) -> None:
        b = board()
        r = self.size("sea_r")
        for name in b.names:
            if not b.is_sea(name) or not self.visible(name):
                continue
            x, y = self.px(name)
            self.canvas.draw.ellipse((x - r, y - r, x + r, y + r), fill=self.th.colour("sea"),
                                     outline=self.th.colour("sea_edge"), width=max(1, round(self.cell * 0.05)))
            number = str(b.space(name).number or "")
            self.canvas.text((x, y), number, face=Face.CONDENSED_BOLD, size=round(self.size("sea_font")),
                             fill=self.th.colour("sea_text"), anchor="mm", kind="sea-number", tier="hex", owner=name)

    def land_box(self, name: str) -> tuple[float, float, float, float]:
        """A land territory's box: its base size, taller when its name and badges need it."""
        w, h = self.size("land_w"), self.size("land_h")
        name_size = round(self.size("name_font"))
        lines = self.name_lines(name)
        rows = self.badge_rows(name, w - self.cell * 0.16)
        inner = (len(lines) * name_size * 1.1 + len(rows) * self.badge_line()
                 + self.size("ipc_font") * 1.2 + self.cell * 0.2)
        x, y = self.px(name)
        return (x - w / 2, y - h / 2, x + w / 2, y - h / 2 + max(h, inner))

    def name_lines(self, name: str) -> list[str]:
        if not self.close:
            return []
        return wrap_text(LABELS.get(name, name), Face.CONDENSED_BOLD, round(self.size("name_font")),
                    self.size("land_w") * 0.96)[:2]

    def sea_badges(self) -> None:
        """Each sea zone's badges where they cover no territory, disc or other badges:
        below the disc if there is room, else above, right, left …"""
        b = board()
        r = self.size("sea_r")
        taken: list[tuple[float, float, float, float]] = [
            self.land_box(n) for n in b.names if b.is_land(n) and self.visible(n)]
        taken += [(px - r, py - r, px + r, py + r) for n in b.names if b.is_sea(n) and self.visible(n)
                  for px, py in [self.px(n)]]
        line_h = self.badge_line()
        for name in b.names:
            if not b.is_sea(name) or not self.visible(name):
                continue
            rows = self.badge_rows(name, 2.6 * self.cell)
            if not rows:
                continue
            bw = max(sum(wdt + 2 for _, _, wdt in row) for row in rows)
            bh = len(rows) * line_h
            x, y = self.px(name)
            gap = self.cell * 0.08
            spots = [(x - bw / 2, y + r + gap), (x - bw / 2, y - r - gap - bh), (x + r + gap, y - bh / 2),
                     (x - r - gap - bw, y - bh / 2), (x + r * 0.7, y + r * 0.7), (x - r * 0.7 - bw, y + r * 0.7),
                     (x + r * 0.7, y - r * 0.7 - bh), (x - r * 0.7 - bw, y - r * 0.7 - bh)]
            for k in (1.6, 2.4, 3.2):  # then further out, all round the disc
                for i in range(12):
                    a = i * math.pi / 6
                    cx, cy = x + math.cos(a) * r * k, y + math.sin(a) * r * k
                    spots.append((cx - bw / 2, cy - bh / 2))
            own = (x - r, y - r, x + r, y + r)

            def free(left: float, top: float) -> bool:
                block = (left, top, left + bw, top + bh)
                return not any(boxes_overlap(block, t) for t in taken if t != own)

            left, top = next((spot for spot in spots if free(*spot)), spots[0])
            taken.append((left, top, left + bw, top + bh))
            self.draw_badges(rows, left, top, name)

    def lands(self) -> None:
        b = board()
        w = self.size("land_w")
        cities = set(b.victory_cities())
        capitals = set(b.capitals().values())
        name_size = round(self.size("name_font"))
        for name in b.names:
            if not b.is_land(name) or not self.visible(name):
                continue
            s = b.space(name)
            owner = self.state.controller(name)
            base = colour(owner) if owner else self.th.colour("neutral")
            fill = tint(base) if owner else rgb(base)
            x, y = self.px(name)
            lines = self.name_lines(name)
            rows = self.badge_rows(name, w - self.cell * 0.16)
            box = self.land_box(name)
            edge = self.th.colour("land_edge")
            self.canvas.draw.rounded_rectangle(box, radius=self.cell * 0.3, fill=fill, outline=edge,
                                               width=max(1, round(self.cell * (0.1 if name in capitals else 0.04))))
            ink = text_on(fill)
            ty = box[1] + self.cell * 0.08
            for line in lines:
                self.canvas.text((x, ty), line, face=Face.CONDENSED_BOLD, size=name_size,
                                 fill=ink, anchor="mt", kind="name", tier="hex", owner=name)
                ty += name_size * 1.1
            self.draw_badges(rows, box[0] + self.cell * 0.08, ty + self.cell * 0.04, name)
            marks = []
            if s.ipc:
                marks.append(f"{s.ipc} IPC" if self.close else str(s.ipc))
            if name in self.state.factories:
                d = self.state.factories[name]
                marks.append("IC" + (f"−{d}" if d else ""))
            if marks:
                self.canvas.text((box[0] + self.cell * 0.12, box[3] - self.cell * 0.08), " · ".join(marks),
                                 face=Face.CONDENSED_BOLD, size=round(self.size("ipc_font")), fill=ink,
                                 anchor="ld", kind="ipc", tier="hex", owner=name)
            if name in cities:
                star(self.canvas, (box[2] - self.cell * 0.32, box[3] - self.cell * 0.32), self.cell * 0.26,
                     self.th.colour("victory"), edge)

    def badge_line(self) -> float:
        return round(self.size("badge_font")) * 1.25

    def badge_rows(self, where: str, room: float) -> list[list[tuple[str, str, float]]]:
        groups: dict[tuple[str, str], int] = {}
        for u in self.state.units_at(where):
            groups[(u.owner, u.kind)] = groups.get((u.owner, u.kind), 0) + 1
        size = round(self.size("badge_font"))
        pad = self.cell * 0.07
        order = {k: i for i, k in enumerate(KINDS)}
        rows: list[list[tuple[str, str, float]]] = []
        used = room + 1
        for (owner, kind), n in sorted(groups.items(), key=lambda g: (POWERS.index(g[0][0]), order[g[0][1]])):
            label = f"{n} {SHORT[kind]}" if self.close else f"{n}{SHORT[kind][0]}"
            wdt = text_width(Face.CONDENSED_BOLD, size, label) + 2 * pad
            if used + wdt > room:
                rows.append([])
                used = 0.0
            rows[-1].append((owner, label, wdt))
            used += wdt + 2
        return rows

    def draw_badges(self, rows: list[list[tuple[str, str, float]]], left: float, top: float, where: str) -> None:
        size = round(self.size("badge_font"))
        pad = self.cell * 0.07
        line_h = self.badge_line()
        y = top
        for row in rows:
            x = left
            for owner, label, wdt in row:
                c = colour(owner)
                self.canvas.draw.rounded_rectangle((x, y, x + wdt, y + line_h - 2), radius=self.cell * 0.12, fill=c)
                self.canvas.text((x + pad, y + (line_h - 2) / 2), label, face=Face.CONDENSED_BOLD, size=size,
                                 fill=text_on(c), anchor="lm", kind="badge", tier="hex", owner=where)
                x += wdt + 2
            y += line_h

    def badges(self, where: str, left: float, top: float, room: float) -> None:
        self.draw_badges(self.badge_rows(where, room), left, top, where)

    def battles(self, where: Sequence[str]) -> None:
        c = self.th.colour("battle")
        for name in where:
            if name not in positions() or not self.visible(name):
                continue
            x, y = self.px(name)
            r = self.cell * 1.6
            self.canvas.draw.ellipse((x - r, y - r, x + r, y + r), outline=c, width=max(2, round(self.cell * 0.12)))
            self.canvas.mark("battle", (x - r, y - r, x + r, y + r), text=name)

    def arrows(self, moves: Sequence[tuple[str, tuple[str, ...]]]) -> None:
        for power, path in moves:
            pts = [self.px(p) for p in path if p in positions()]
            if len(pts) < 2 or any(abs(positions()[a][0] - positions()[z][0]) > 40 for a, z in zip(path, path[1:])):
                continue
            (sx, sy), (nx, ny) = pts[0], pts[1]
            seg = math.dist(pts[0], pts[1]) or 1.0
            cut = min(self.cell * 1.0, seg * 0.4)  # start at the edge of the box, not on its text
            pts[0] = (sx + (nx - sx) * cut / seg, sy + (ny - sy) * cut / seg)
            c = colour(power)[:3] + (200,)  # see-through: names and badges under it stay readable
            width = max(2, round(self.cell * 0.12))
            self.canvas.draw.line(pts, fill=(0, 0, 0, 110), width=width + 2, joint="curve")
            self.canvas.draw.line(pts, fill=c, width=width, joint="curve")
            (ax, ay), (bx, by) = pts[-2], pts[-1]
            ang = math.atan2(by - ay, bx - ax)
            tip = (bx - math.cos(ang) * self.cell * 0.5, by - math.sin(ang) * self.cell * 0.5)
            s = self.cell * 0.45
            head = [tip, (tip[0] - s * math.cos(ang - 0.45), tip[1] - s * math.sin(ang - 0.45)),
                    (tip[0] - s * math.cos(ang + 0.45), tip[1] - s * math.sin(ang + 0.45))]
            self.canvas.draw.polygon(head, fill=c, outline=(0, 0, 0, 160))
            self.canvas.mark("arrow", (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)), text=power)

    def finish(self) -> Image.Image:
        draw_title(self.canvas, self.width, self.top, self.lines, self.cell, self.th)
        return self.canvas.image


def star(canvas: Canvas, centre: tuple[float, float], r: float, fill: RGBA, edge: RGBA) -> None:
    cx, cy = centre
    pts = []
    for i in range(10):
        ang = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(ang), cy + rr * math.sin(ang)))
    canvas.draw.polygon(pts, fill=fill, outline=edge)
    canvas.mark("victory-city", (cx - r, cy - r, cx + r, cy + r))


def draw_map(state: AAState, *, region: str = "world", overlay: Overlay = Overlay(), title: str = "",
             width: int | None = None) -> Canvas:
    """The map as a recorded canvas (tests measure it)."""
    x0, _, x1, _ = REGIONS[region]
    cells = x1 - x0
    cell = WORLD_CELL_PX if region == "world" else (width or REGION_WIDTH) / cells
    if width is not None and region == "world":
        cell = width / cells
    m = _Map(state, region, cell, title)
    m.links()
    m.seas()
    m.lands()
    m.arrows(overlay.moves)
    m.sea_badges()
    m.battles(overlay.battles)
    m.finish()
    return m.canvas


def map_png(state: AAState, *, region: str = "world", overlay: Overlay = Overlay(), title: str = "") -> bytes:
    canvas = draw_map(state, region=region, overlay=overlay, title=title)
    return png(canvas.image, keep=theme().flat_colours())


def action_spaces(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The spaces a phase's events happened in (moves, battles, captures, placements)."""
    out: list[str] = []
    for e in events:
        kind = e.get("type")
        if kind == "Moved":
            out += [str(p) for p in e["path"]]
        elif kind in ("BattleStarted", "Placed"):
            out.append(str(e["where"]))
        elif kind in ("Captured", "Bombed", "RocketFired"):
            out.append(str(e["territory"]))
    return [p for p in out if p in positions()]


def report_region(events: Iterable[Mapping[str, Any]]) -> str:
    """The regional zoom that shows most of a phase's action (readable on a phone), or
    the world when nothing happened on the map."""
    spaces = action_spaces(events)
    if not spaces:
        return "world"

    def inside(region: str) -> int:
        x0, y0, x1, y1 = REGIONS[region]
        return sum(1 for p in spaces if x0 <= positions()[p][0] <= x1 and y0 <= positions()[p][1] <= y1)

    best = max((r for r in REGIONS if r != "world"), key=inside)
    return best if inside(best) == len(spaces) else "world"


def report_png(state: AAState, events: Sequence[Mapping[str, Any]], *, title: str = "") -> bytes:
    """The map after a phase, its battles ringed and its moves drawn as arrows: zoomed on
    the region of the action when it all fits in one, else the whole world."""
    return map_png(state, region=report_region(events), overlay=overlay_from(events), title=title)
