"""Value types of A&A Miniatures shared by the catalogue, the maps, the rules and the
renderer: terrain, unit cards, battle maps.  All frozen.

This module holds no rules beyond the terrain facts of the M-13 table; the rules live in
files named after them (``movement.py``, ``line_of_sight.py``, ``cover.py`` …).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from engine.core.errors import IllegalOrder
from engine.core.hexgrid import Hex, Labels

AXIS = "axis"
ALLIES = "allies"
SIDES: tuple[str, str] = (AXIS, ALLIES)


def other_side(side: str) -> str:
    return ALLIES if side == AXIS else AXIS


class Terrain(enum.Enum):
    """Hex-filling terrain (M-13).  Roads, streams and bridges are links/hexsides."""

    CLEAR = "clear"
    HILL = "hill"
    FOREST = "forest"
    TOWN = "town"
    MARSH = "marsh"
    LAKE = "lake"

    @property
    def blocks_sight(self) -> bool:  # M-10.1, M-10.4
        return self in (Terrain.HILL, Terrain.FOREST, Terrain.TOWN)


class UnitType(enum.Enum):
    SOLDIER = "Soldier"
    VEHICLE = "Vehicle"


# Range bands (M-7.1) index the attack tuples: 0 short, 1 medium, 2 long.
SHORT, MEDIUM, LONG = 0, 1, 2
BAND_NAMES = ("short", "medium", "long")


Attack = tuple[int | None, int | None, int | None]


@dataclass(frozen=True)
class Ability:
    """One special ability on a card: canonical name, optional number, our own wording.

    ``vs_soldier`` / ``vs_vehicle`` hold an ability's *own* attack numbers (short,
    medium, long; ``None`` = cannot), for abilities that make an attack with dice of
    their own, e.g. Additional Hull-Mounted Cannon 12/10/8 against Vehicles.  They are
    ``None`` for every other ability (see docs/units.md)."""

    name: str
    value: int | None = None
    text: str = ""
    vs_soldier: Attack | None = None
    vs_vehicle: Attack | None = None

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name} {self.value}"


@dataclass(frozen=True)
class UnitCard:
    """A stat card (M-1.5).  Attack tuples are (short, medium, long) dice counts;
    ``None`` means the unit cannot attack that target type at that range."""

    key: str  # stable slug, e.g. "m4a1-sherman"
    name: str
    nation: str
    side: str  # AXIS or ALLIES
    type: UnitType
    subtype: str | None  # "Tank", "Artillery", "Commander", "Half-Track", …
    year: int
    cost: int  # revised card cost (the default cost set)
    speed: int
    defense_front: int
    defense_rear: int
    vs_soldier: tuple[int | None, int | None, int | None]
    vs_vehicle: tuple[int | None, int | None, int | None]
    abilities: tuple[Ability, ...] = ()
    initiative: int = 0  # commander initiative bonus (M-5.1); 0 if none
    cost_2005: int | None = None  # 2005 printed cost where known
    short_name: str = ""  # a readable name for map tokens (≤ 12 characters)
    notes: str = ""  # provenance / UNCONFIRMED remarks

    @property
    def is_vehicle(self) -> bool:
        return self.type is UnitType.VEHICLE

    @property
    def is_soldier(self) -> bool:
        return self.type is UnitType.SOLDIER

    @property
    def is_commander(self) -> bool:
        return self.subtype == "Commander"

    @property
    def is_artillery(self) -> bool:
        return self.subtype == "Artillery"

    def ability(self, name: str) -> Ability | None:
        for a in self.abilities:
            if a.name == name:
                return a
        return None

    def has(self, name: str) -> bool:
        return self.ability(name) is not None


Edge = tuple[Hex, Hex]


def edge(a: Hex, b: Hex) -> Edge:
    """The hexside between two adjacent hexes (or a road link), order-independent."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class SectionPlacement:
    """Where one section face sits in an assembled battlefield (for drawing)."""

    face: str  # e.g. "Dog-1"
    col: int  # offset column of its top-left hex
    row: int
    cols: int
    rows: int


@dataclass(frozen=True, eq=False)
class BattleMap:
    """An assembled battlefield: ``cols`` × ``rows`` full hexes in flat-top, odd-q offset
    layout (labels A1 … at the top left).  Half-hexes at the outer edge are not part of
    the map (M-3.6: impassable); seam hexes made of two halves are ordinary hexes."""

    name: str
    cols: int
    rows: int
    terrain: Mapping[Hex, Terrain]  # non-clear hexes only
    roads: frozenset[Edge] = frozenset()  # hex-to-hex road links
    streams: frozenset[Edge] = frozenset()  # hexsides with a stream
    bridges: frozenset[Edge] = frozenset()  # stream hexsides that a road crosses
    objectives: tuple[Hex, ...] = ()
    # Deployment zones by name ("west"/"east" for the two short ends, or scenario names).
    zones: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    sections: tuple[SectionPlacement, ...] = ()
    labels: Labels = Labels(flat=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "terrain", MappingProxyType(dict(self.terrain)))
        object.__setattr__(self, "zones", MappingProxyType(dict(self.zones)))
        hexes = frozenset(
            self.labels.from_offset(c, r) for c in range(self.cols) for r in range(self.rows)
        )
        object.__setattr__(self, "_hexes", hexes)
        blocking = frozenset(h for h, t in self.terrain.items() if t.blocks_sight)
        object.__setattr__(self, "_blocking", blocking)

    @property
    def hexes(self) -> frozenset[Hex]:
        return self._hexes  # type: ignore[attr-defined, no-any-return]

    @property
    def blocking(self) -> frozenset[Hex]:
        """Hexes whose terrain blocks line of sight (M-10.1)."""
        return self._blocking  # type: ignore[attr-defined, no-any-return]

    def on_map(self, h: Hex) -> bool:
        return h in self.hexes

    def terrain_at(self, h: Hex) -> Terrain:
        return self.terrain.get(h, Terrain.CLEAR)

    def road(self, a: Hex, b: Hex) -> bool:
        return edge(a, b) in self.roads

    def stream(self, a: Hex, b: Hex) -> bool:
        return edge(a, b) in self.streams

    def bridge(self, a: Hex, b: Hex) -> bool:
        return edge(a, b) in self.bridges

    def label(self, h: Hex) -> str:
        return self.labels.label(h)

    def parse_hex(self, text: str) -> Hex:
        """A label on this map, or a player error naming the map's extent."""
        h = self.labels.parse(text)
        if not self.on_map(h):
            last = self.labels.label(self.labels.from_offset(self.cols - 1, self.rows - 1))
            raise IllegalOrder(f"{text.strip().upper()} is not on the map {self.name}.",
                               legal=(f"A1 … {last}",))
        return h
