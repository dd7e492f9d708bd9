"""The rules tables, loaded once from ``engine/memoir/data``: terrain and obstacles (E-18),
units and the battle die (E-8, E-13.1), the 60 command cards (E-5, E-6)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

UNIT_TYPES: tuple[str, str, str] = ("infantry", "armor", "artillery")


def _load(name: str) -> Any:
    return json.loads(resources.files("engine.memoir").joinpath("data").joinpath(name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class TerrainRule:
    """One terrain or obstacle kind (E-18)."""

    name: str
    reduction: Mapping[str, int]
    blocks_sight: bool = False
    ends_move: bool = False
    no_battle_on_entry: bool = False
    first_hex_only: bool = False
    leave_moves_one: bool = False
    only_from_below: bool = False
    impassable: bool = False
    water: bool = False
    move_cap: int = 0
    no_battle_from: bool = False
    no_retreat_into: bool = False
    battle_out: Mapping[str, int] = field(default_factory=dict)
    # obstacles
    owner_only: bool = False
    enter: tuple[str, ...] = ()  # unit types that may enter (empty = all)
    cannot_leave: tuple[str, ...] = ()
    ignore_flags: int = 0
    ignore_for: str = ""  # "owner", "occupant", "infantry"
    battle_on_entry: bool = False
    removed_on_leave: bool = False
    removed_by: tuple[str, ...] = ()
    clearable_by: tuple[str, ...] = ()

    def may_enter(self, unit_type: str) -> bool:
        return not self.enter or unit_type in self.enter


def _rule(name: str, raw: Mapping[str, Any]) -> TerrainRule:
    data = dict(raw)
    for key in ("enter", "cannot_leave", "removed_by", "clearable_by"):
        if key in data:
            data[key] = tuple(data[key])
    return TerrainRule(name=name, **data)


@lru_cache(maxsize=1)
def terrain_rules() -> dict[str, TerrainRule]:
    raw = _load("terrain.json")
    return {k: _rule(k, v) for k, v in raw["terrain"].items()}


@lru_cache(maxsize=1)
def obstacle_rules() -> dict[str, TerrainRule]:
    raw = _load("terrain.json")
    return {k: _rule(k, v) for k, v in raw["obstacles"].items()}


TERRAIN_NAMES: tuple[str, ...] = tuple(terrain_rules())
OBSTACLE_NAMES: tuple[str, ...] = tuple(obstacle_rules())


@dataclass(frozen=True)
class UnitRule:
    type: str
    figures: int
    move: int
    move_and_battle: int  # the farthest it may move and still battle (-1: never after moving)
    dice: tuple[int, ...]
    needs_sight: bool
    take_ground: bool
    overrun: bool
    battle_on_entry: bool = False  # may battle after entering terrain that forbids it (E-8.4)
    retreat_per_flag: int = 1  # hexes it may retreat per flag, chosen 1..n (E-8.4)

    @property
    def range(self) -> int:
        return len(self.dice)


@lru_cache(maxsize=1)
def _units_raw() -> Any:
    return _load("units.json")


@lru_cache(maxsize=8)
def unit_rule(unit_type: str, badge: str | None = None) -> UnitRule:
    raw = _units_raw()
    base = dict(raw["units"][unit_type])
    if badge is not None:
        extra = raw["badges"][badge]
        base.update({k: v for k, v in extra.items() if k not in ("type", "about")})
    return UnitRule(type=unit_type, figures=base["figures"], move=base["move"],
                    move_and_battle=base["move_and_battle"], dice=tuple(base["dice"]),
                    needs_sight=base["needs_sight"], take_ground=base["take_ground"], overrun=base["overrun"],
                    battle_on_entry=base.get("battle_on_entry", False),
                    retreat_per_flag=base.get("retreat_per_flag", 1))


@lru_cache(maxsize=1)
def badges() -> dict[str, str]:
    """Badge name → the unit type it applies to."""
    return {k: v["type"] for k, v in _units_raw()["badges"].items()}


@lru_cache(maxsize=1)
def die_faces() -> tuple[str, ...]:
    """E-13.1: ``die_faces()[roll - 1]`` is the face a d6 roll shows."""
    return tuple(_units_raw()["die"]["faces"])


@dataclass(frozen=True)
class CardKind:
    """One kind of command card (there may be several copies)."""

    id: str
    name: str
    type: str  # "section" or "tactic"
    count: int
    raw: Mapping[str, Any]

    @property
    def sections(self) -> tuple[str, ...]:
        return tuple(self.raw.get("sections", ()))

    @property
    def limit(self) -> int | str | None:
        value = self.raw.get("limit")
        return value if isinstance(value, (int, str)) else None

    def get(self, key: str, default: Any = None) -> Any:
        return self.raw.get(key, default)


@lru_cache(maxsize=1)
def card_kinds() -> dict[str, CardKind]:
    out: dict[str, CardKind] = {}
    for c in _load("cards.json")["cards"]:
        out[c["id"]] = CardKind(id=c["id"], name=c["name"], type=c["type"], count=c["count"], raw=c)
    return out


@lru_cache(maxsize=1)
def full_deck() -> tuple[str, ...]:
    """The 60 card ids in a fixed order: ``<kind>`` for a single copy, ``<kind>#n`` for copies."""
    out: list[str] = []
    for kind in card_kinds().values():
        for n in range(1, kind.count + 1):
            out.append(kind.id if kind.count == 1 else f"{kind.id}#{n}")
    return tuple(out)


def kind_of(card_id: str) -> str:
    """The card kind of a card id (``probe-left#3`` → ``probe-left``)."""
    return card_id.split("#", 1)[0]


CARD_ALIASES: dict[str, str] = {"center": "centre", "medics": "medics-and-mechanics", "move-out!": "move-out",
                                "dfhq": "direct-from-hq", "bel": "behind-enemy-lines", "tfh": "their-finest-hour"}


def card_key(text: str) -> str:
    """Normalise a card name as a player writes it ("Probe Center", "probe-centre",
    "Medics & Mechanics") to a kind id, or return the normalised text if unknown."""
    t = text.strip().lower().replace("&", "and").replace("!", "").replace("_", "-")
    t = "-".join(t.split())
    t = t.replace("center", "centre")
    return CARD_ALIASES.get(t, t)
