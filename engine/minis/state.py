"""The immutable state of one A&A Miniatures battle.

Readers (the renderer, the bot) rely on the fields documented here; the rules may add
fields, but these keep their names and meanings.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from engine.core.errors import UnknownName
from engine.core.hexgrid import Hex
from engine.minis.model import BattleMap, UnitCard


class Phase(enum.Enum):
    ARMIES = "armies"  # both players build their armies in secret (M-2.5)
    DEPLOYMENT = "deployment"  # M-3.3 … M-3.5
    INITIATIVE = "initiative"  # M-5.1, M-5.2
    MOVEMENT = "movement"  # M-5.3 (first player, then second)
    ASSAULT = "assault"  # M-5.4 (first player, then second)
    CASUALTY = "casualty"  # M-16
    OVER = "over"


class Hit(enum.Enum):
    """A face-down hit counter placed in an assault phase (M-9)."""

    DISRUPTED = "disrupted"
    DAMAGED = "damaged"
    DESTROYED = "destroyed"


@dataclass(frozen=True)
class UnitState:
    id: str  # short id players type: "ax3" (Axis unit 3), "al7" (Allied unit 7)
    card: str  # key into MinisState.cards
    side: str  # AXIS or ALLIES
    hex: Hex | None = None  # None until deployed; a passenger keeps its transport's hex
    facing: int | None = None  # Vehicles: direction index of the hexside faced (M-6.4)
    disrupted: bool = False  # face-up Disrupted counter
    damaged: bool = False  # face-up Damaged counter (Vehicles, permanent)
    hits: tuple[Hit, ...] = ()  # face-down counters from the current turn (M-9.3)
    carried_by: str | None = None  # id of the transport it is aboard (M-15)
    destroyed: bool = False  # removed in a casualty phase; kept for the record, off the map

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.destroyed

    @property
    def pending_destroyed(self) -> bool:
        return Hit.DESTROYED in self.hits


@dataclass(frozen=True, eq=False)
class MinisState:
    map: BattleMap
    cards: Mapping[str, UnitCard]  # every card this battle uses (custom cards included)
    units: tuple[UnitState, ...] = ()
    turn: int = 1
    phase: Phase = Phase.ARMIES
    active: str | None = None  # side whose phase or decision it is
    first_player: str | None = None  # for this turn (M-5.2) or for deployment (M-3.3)
    scenario: str = "standard"
    extra: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", MappingProxyType(dict(self.cards)))
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def unit(self, unit_id: str) -> UnitState:
        key = unit_id.strip().lower()
        for u in self.units:
            if u.id == key:
                return u
        raise UnknownName(f"There is no unit '{unit_id}'.", legal=[u.id for u in self.units])

    def card(self, unit: UnitState) -> UnitCard:
        return self.cards[unit.card]

    def units_at(self, h: Hex) -> tuple[UnitState, ...]:
        """Units on the map in a hex, passengers excluded."""
        return tuple(u for u in self.units if u.hex == h and u.on_map and u.carried_by is None)

    def passengers(self, transport_id: str) -> tuple[UnitState, ...]:
        return tuple(u for u in self.units if u.carried_by == transport_id and not u.destroyed)
