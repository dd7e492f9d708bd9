"""Scenarios as data (E-3): our own JSON format (docs/memoir-scenarios.md), the three shipped
scenarios, and the resolution of the ``scenario`` option of a new game (a shipped name or
slug, the text of a scenario in our format, or the text of a ``.m44`` file).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from typing import Any, Mapping

from engine.core.errors import DataError, NotationError, UnknownName
from engine.core.hexgrid import Hex
from engine.memoir.board import SEATS, all_hexes, label, neighbours, parse_hex
from engine.memoir.tables import OBSTACLE_NAMES, TERRAIN_NAMES, UNIT_TYPES, badges, obstacle_rules, terrain_rules
from engine.core.documents import MAX_DEPTH, nesting_depth

FORMAT = "warroom-memoir-scenario/1"
FACES = ("countryside", "beach")
OBJECTIVE_KINDS = ("temporary", "permanent", "sudden-death")


@dataclass(frozen=True)
class UnitSpec:
    hex: Hex
    side: str
    type: str
    badge: str | None = None
    figures: int | None = None  # None: full strength


@dataclass(frozen=True)
class Objective:
    """E-17.2: a hex worth ``medals`` to ``side`` ("axis", "allies" or "both") while held
    (temporary), once taken (permanent), or winning the game at once (sudden-death)."""

    hex: Hex
    side: str
    kind: str = "temporary"
    medals: int = 1

    def counts_for(self, seat: str) -> bool:
        return self.side in (seat, "both")


@dataclass(frozen=True)
class ExtraDraw:
    """E-3.4: ``side`` draws ``cards`` more at the end of each of its first ``turns`` turns."""

    side: str
    turns: int
    cards: int


@dataclass(frozen=True)
class Airdrop:
    """E-3.5: ``units`` drops of ``type`` units, each on a hex drawn uniformly among the
    hexes within ``radius`` of ``centre``; a drop on an occupied or impassable hex is lost."""

    side: str
    type: str
    units: int
    centre: Hex
    radius: int


@dataclass(frozen=True)
class Scenario:
    name: str
    slug: str
    face: str
    top: str
    first: str
    cards: tuple[int, int]  # hand sizes (axis, allies)
    medals: tuple[int, int]  # medals to win (axis, allies)
    terrain: tuple[tuple[Hex, str], ...]  # tiles; the rest comes from the face (E-2.7)
    obstacles: tuple[tuple[Hex, str, str | None], ...]  # (hex, kind, owner) at the start
    units: tuple[UnitSpec, ...]
    objectives: tuple[Objective, ...] = ()
    extra_draws: tuple[ExtraDraw, ...] = ()
    airdrop: Airdrop | None = None
    briefing: str = ""
    source: str = "shipped"  # "shipped", "custom" or "m44"

    def hand_size(self, seat: str) -> int:
        return self.cards[SEATS.index(seat)]

    def target(self, seat: str) -> int:
        return self.medals[SEATS.index(seat)]

    @cached_property
    def terrain_map(self) -> dict[Hex, str]:
        """Every board hex → its terrain name (E-2.7 face background plus tiles)."""
        tiles = dict(self.terrain)
        out: dict[Hex, str] = {}
        for h in all_hexes():
            out[h] = tiles.get(h, background(self.face, h.r))
        return out

    @cached_property
    def hill_groups(self) -> dict[Hex, int]:
        """E-11.5: each hill hex → the id of its connected group of hill hexes."""
        tmap = self.terrain_map
        group: dict[Hex, int] = {}
        n = 0
        for h in all_hexes():
            if tmap[h] != "hill" or h in group:
                continue
            n += 1
            todo = [h]
            group[h] = n
            while todo:
                x = todo.pop()
                for y in neighbours(x):
                    if tmap[y] == "hill" and y not in group:
                        group[y] = n
                        todo.append(y)
        return group

    @cached_property
    def objective_map(self) -> dict[Hex, tuple[Objective, ...]]:
        out: dict[Hex, list[Objective]] = {}
        for o in self.objectives:
            out.setdefault(o.hex, []).append(o)
        return {h: tuple(v) for h, v in out.items()}


def background(face: str, r: int) -> str:
    """E-2.7: the printed terrain of a row on a board face (rows 0-based)."""
    if face == "beach":
        if r >= 7:
            return "ocean"
        if r >= 4:
            return "beach"
    return "clear"


# --------------------------------------------------------------------------- our format


def _slugify(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    out = "".join(ch if ch.isalnum() else "-" for ch in plain)
    return "-".join(p for p in out.split("-") if p)


def _hex(text: Any, where: str) -> Hex:
    if not isinstance(text, str):
        raise DataError(f"{where}: a hex must be a name such as \"G5\", not {text!r}.")
    try:
        return parse_hex(text)
    except NotationError as e:
        raise DataError(f"{where}: {e.message}.") from None


def _seat(value: Any, where: str, allow_both: bool = False) -> str:
    legal = SEATS + (("both",) if allow_both else ())
    v = str(value).strip().lower()
    if v not in legal:
        raise DataError(f"{where}: '{value}' is not a side.", legal=legal)
    return v


def _pair(value: Any, where: str) -> tuple[int, int]:
    if not isinstance(value, Mapping) or set(value) != set(SEATS):
        raise DataError(f"{where} must give a number for \"axis\" and for \"allies\".")
    out = []
    for s in SEATS:
        v = value[s]
        if not isinstance(v, int) or isinstance(v, bool) or v < 1 or v > 12:
            raise DataError(f"{where}.{s} must be a whole number from 1 to 12, not {v!r}.")
        out.append(v)
    return out[0], out[1]


def scenario_from_dict(doc: Mapping[str, Any], source: str = "custom") -> Scenario:
    """Validate a scenario in our format (docs/memoir-scenarios.md)."""
    if not isinstance(doc, Mapping):
        raise DataError("A scenario is a JSON object.")
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        raise DataError(f"Unknown scenario format '{fmt}'.", legal=(FORMAT,))
    known = {"format", "name", "slug", "date", "face", "top", "first", "cards", "medals", "terrain", "obstacles",
             "units", "objectives", "rules", "briefing"}
    extra = sorted(set(doc) - known)
    if extra:
        raise DataError(f"Unknown scenario field(s): {', '.join(extra)}.", legal=sorted(known))
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DataError("A scenario needs a \"name\".")
    slug = str(doc.get("slug") or _slugify(name))
    face = str(doc.get("face", "countryside")).lower()
    if face not in FACES:
        raise DataError(f"'{face}' is not a board face of the base game.", legal=FACES)
    top = _seat(doc.get("top", "axis"), "top")
    first = _seat(doc.get("first", "allies"), "first")
    cards = _pair(doc.get("cards"), "cards")
    medals = _pair(doc.get("medals"), "medals")

    tmap = terrain_rules()
    terrain: dict[Hex, str] = {}
    raw_terrain = doc.get("terrain", {})
    if not isinstance(raw_terrain, Mapping):
        raise DataError("\"terrain\" maps hex names to terrain names.")
    for k, v in raw_terrain.items():
        h = _hex(k, "terrain")
        name_t = str(v).lower()
        if name_t not in tmap:
            raise DataError(f"terrain {k}: '{v}' is not a base-game terrain.", legal=TERRAIN_NAMES)
        terrain[h] = name_t

    obstacles: dict[Hex, tuple[str, str | None]] = {}
    raw_obs = doc.get("obstacles", {})
    if not isinstance(raw_obs, Mapping):
        raise DataError("\"obstacles\" maps hex names to obstacle names.")
    for k, v in raw_obs.items():
        h = _hex(k, "obstacles")
        owner: str | None = None
        if isinstance(v, Mapping):
            kind = str(v.get("type", "")).lower()
            if v.get("owner") is not None:
                owner = _seat(v["owner"], f"obstacles {k}.owner")
        else:
            kind = str(v).lower()
        if kind not in obstacle_rules():
            raise DataError(f"obstacles {k}: '{kind}' is not a base-game obstacle.", legal=OBSTACLE_NAMES)
        if kind == "bunker" and owner is None:
            owner = top  # E-3.7: bunkers belong to the top side unless the scenario says otherwise
        obstacles[h] = (kind, owner)

    units: list[UnitSpec] = []
    seen: set[Hex] = set()
    raw_units = doc.get("units", [])
    if not isinstance(raw_units, list):
        raise DataError("\"units\" is a list of {hex, side, type}.")
    for i, u in enumerate(raw_units):
        where = f"units[{i}]"
        if not isinstance(u, Mapping):
            raise DataError(f"{where} must be an object with hex, side and type.")
        h = _hex(u.get("hex"), where)
        if h in seen:
            raise DataError(f"{where}: two units on {label(h)}.")
        seen.add(h)
        side = _seat(u.get("side"), where)
        typ = str(u.get("type", "")).lower()
        if typ not in UNIT_TYPES:
            raise DataError(f"{where}: '{typ}' is not a unit type of the base game.", legal=UNIT_TYPES)
        badge = u.get("badge")
        if badge is not None:
            badge = str(badge).lower()
            if badges().get(badge) != typ:
                legal = [b for b, t in badges().items() if t == typ]
                raise DataError(f"{where}: no badge '{badge}' for {typ}.", legal=legal or ("none",))
        figures = u.get("figures")
        if figures is not None and (not isinstance(figures, int) or isinstance(figures, bool) or figures < 1):
            raise DataError(f"{where}: figures must be a whole number of at least 1.")
        units.append(UnitSpec(h, side, typ, badge, figures))

    objectives: list[Objective] = []
    for i, o in enumerate(doc.get("objectives", []) or []):
        where = f"objectives[{i}]"
        if not isinstance(o, Mapping):
            raise DataError(f"{where} must be an object with hex and for.")
        kind = str(o.get("kind", "temporary")).lower()
        if kind not in OBJECTIVE_KINDS:
            raise DataError(f"{where}: '{kind}' is not an objective kind we support.", legal=OBJECTIVE_KINDS)
        medals_o = o.get("medals", 1)
        if not isinstance(medals_o, int) or medals_o < 0:
            raise DataError(f"{where}: medals must be a whole number.")
        objectives.append(Objective(_hex(o.get("hex"), where), _seat(o.get("for"), f"{where}.for", True),
                                    kind, medals_o))

    rules = doc.get("rules", {}) or {}
    if not isinstance(rules, Mapping):
        raise DataError("\"rules\" is an object.")
    unknown_rules = sorted(set(rules) - {"extra_draws", "airdrop"})
    if unknown_rules:
        raise DataError(f"Special rule(s) we do not support: {', '.join(unknown_rules)}.",
                        legal=("extra_draws", "airdrop"))
    extra_draws = tuple(
        ExtraDraw(_seat(e.get("side"), "extra_draws.side"), int(e.get("turns", 1)), int(e.get("cards", 1)))
        for e in rules.get("extra_draws", []))
    airdrop = None
    if "airdrop" in rules:
        a = rules["airdrop"]
        typ = str(a.get("type", "infantry"))
        if typ not in UNIT_TYPES:
            raise DataError(f"airdrop.type: '{typ}' is not a unit type.", legal=UNIT_TYPES)
        airdrop = Airdrop(_seat(a.get("side"), "airdrop.side"), typ, int(a.get("units", 4)),
                          _hex(a.get("centre", "G5"), "airdrop.centre"), int(a.get("radius", 4)))
    sc = Scenario(name=name.strip(), slug=slug, face=face, top=top, first=first, cards=cards, medals=medals,
                  terrain=tuple(sorted(terrain.items())),
                  obstacles=tuple(sorted((h, k, o) for h, (k, o) in obstacles.items())),
                  units=tuple(units), objectives=tuple(objectives), extra_draws=extra_draws, airdrop=airdrop,
                  briefing=str(doc.get("briefing", "")), source=source)
    check_scenario(sc)
    return sc


def check_scenario(sc: Scenario) -> None:
    """Placement rules every scenario must respect (whatever its source)."""
    tmap = sc.terrain_map
    obs = {h: k for h, k, _ in sc.obstacles}
    for h, kind, _ in sc.obstacles:
        if terrain_rules()[tmap[h]].impassable:
            raise DataError(f"{label(h)}: no {kind} on {tmap[h]}.")
        if kind == "sandbags" and terrain_rules()[tmap[h]].water:
            raise DataError(f"{label(h)}: sandbags only go on land hexes (E-18.3).")
    for u in sc.units:
        t = terrain_rules()[tmap[u.hex]]
        if t.impassable:
            raise DataError(f"The unit on {label(u.hex)} stands on {tmap[u.hex]}, where no unit may be.")
        o = obs.get(u.hex)
        if o is not None and not obstacle_rules()[o].may_enter(u.type) and not (
                o == "bunker" and u.type == "artillery"):
            raise DataError(f"The {u.type} on {label(u.hex)} cannot stand on a {o}.")
    for seat in SEATS:
        if not any(u.side == seat for u in sc.units) and not (sc.airdrop and sc.airdrop.side == seat):
            raise DataError(f"The {seat} have no units.")


def scenario_to_dict(sc: Scenario) -> dict[str, Any]:
    """The scenario in our format (what docs/memoir-scenarios.md describes)."""
    doc: dict[str, Any] = {
        "format": FORMAT, "name": sc.name, "slug": sc.slug, "face": sc.face, "top": sc.top, "first": sc.first,
        "cards": dict(zip(SEATS, sc.cards)), "medals": dict(zip(SEATS, sc.medals)),
        "terrain": {label(h): t for h, t in sc.terrain},
        "obstacles": {label(h): (k if o is None or k != "bunker" else {"type": k, "owner": o})
                      for h, k, o in sc.obstacles},
        "units": [],
        "objectives": [{"hex": label(o.hex), "for": o.side, "kind": o.kind, "medals": o.medals}
                       for o in sc.objectives],
        "rules": {},
        "briefing": sc.briefing,
    }
    for u in sc.units:
        d: dict[str, Any] = {"hex": label(u.hex), "side": u.side, "type": u.type}
        if u.badge:
            d["badge"] = u.badge
        if u.figures is not None:
            d["figures"] = u.figures
        doc["units"].append(d)
    if sc.extra_draws:
        doc["rules"]["extra_draws"] = [{"side": e.side, "turns": e.turns, "cards": e.cards} for e in sc.extra_draws]
    if sc.airdrop:
        a = sc.airdrop
        doc["rules"]["airdrop"] = {"side": a.side, "type": a.type, "units": a.units, "centre": label(a.centre),
                                   "radius": a.radius}
    return doc


# --------------------------------------------------------------------------- shipped


SHIPPED: tuple[str, ...] = ("pegasus-bridge", "sainte-mere-eglise", "sword-beach")


@lru_cache(maxsize=8)
def shipped(slug: str) -> Scenario:
    text = resources.files("engine.memoir").joinpath("data").joinpath("scenarios").joinpath(
        f"{slug}.json").read_text(encoding="utf-8")
    return scenario_from_dict(json.loads(text), source="shipped")


def shipped_scenarios() -> tuple[Scenario, ...]:
    return tuple(shipped(s) for s in SHIPPED)


def find_shipped(name: str) -> Scenario:
    key = _slugify(name)
    for s in SHIPPED:
        sc = shipped(s)
        if key in (s, _slugify(sc.name)) or s.startswith(key) and len(key) >= 3:
            return sc
    raise UnknownName(f"There is no shipped scenario '{name}'.",
                      legal=SHIPPED + ("the text of a scenario (our JSON format or a .m44 file)",))


def load_scenario_text(text: str, filename: str = "") -> Scenario:
    """A scenario from text: our JSON format, or a .m44 file (told apart by their keys)."""
    if nesting_depth(text) > MAX_DEPTH:
        raise DataError(f"The scenario{(' ' + filename) if filename else ''} is nested too deeply "
                        f"(more than {MAX_DEPTH} levels).")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"The scenario{(' ' + filename) if filename else ''} is not valid JSON "
                        f"(line {e.lineno}, column {e.colno}: {e.msg}).") from None
    if isinstance(doc, Mapping) and ("board" in doc or "game_info" in doc) and "format" not in doc:
        from engine.memoir.m44 import scenario_from_m44

        return scenario_from_m44(doc)
    return scenario_from_dict(doc)


def resolve(option: Any) -> Scenario:
    """The ``scenario`` option of a new game: a Scenario, a shipped name/slug, the text of a
    scenario (ours or .m44), or an already parsed document."""
    if isinstance(option, Scenario):
        return option
    if isinstance(option, Mapping):
        if "board" in option or "game_info" in option:
            from engine.memoir.m44 import scenario_from_m44

            return scenario_from_m44(option)
        return scenario_from_dict(option)
    if not isinstance(option, str) or not option.strip():
        raise UnknownName("Choose a scenario.", legal=SHIPPED)
    text = option.strip()
    if text.startswith("{"):
        return load_scenario_text(text)
    return find_shipped(text)
