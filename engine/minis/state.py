"""The immutable state of one A&A Miniatures battle.

Readers (the renderer, the bot) rely on the fields documented in the first block of
:class:`MinisState` and on :class:`UnitState`; those keep their names and meanings.
The rules add the bookkeeping below them (army lists, per-phase flags, the move in
progress waiting for a defensive-fire answer, standing orders …).  Nothing here holds
a random generator, a clock or a handle: a state is plain data, dumped and loaded by
``codec.py``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping

from engine.core.errors import UnknownName
from engine.core.game import Outcome
from engine.core.hexgrid import Hex
from engine.minis.model import BattleMap, Edge, UnitCard
from engine.minis.scenario import Scenario


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


# Standing orders for defensive fire (M-12.8).
STANDING_ORDERS: tuple[str, ...] = ("ask", "hold", "first", "vehicles")


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


@dataclass(frozen=True)
class Activation:
    """The assault-phase activation in progress (M-5.4): extra actions granted by
    abilities happen inside it and are lost as soon as another unit acts."""

    unit: str
    attacks: int = 0  # normal attacks made (Double Shot allows two)
    extras: frozenset[str] = frozenset()  # "guns" (All Guns Blazing), "cannon", "fade"
    moved: bool = False
    banzai_hex: Hex | None = None  # Banzai Charge: the enemy hex it charged into


@dataclass(frozen=True)
class PhaseFlags:
    """What happened in the current movement or assault phase; reset when a phase starts."""

    acted: frozenset[str] = frozenset()  # used its move (movement) or its activation (assault)
    moved: frozenset[str] = frozenset()  # left its hex this phase (Fighting Platform, road bonus)
    attacked: frozenset[str] = frozenset()  # attacked this phase (cannot turn afterwards, M-6.4)
    df_fired: frozenset[str] = frozenset()  # made defensive fire this phase (M-12.2)
    overrun_used: frozenset[str] = frozenset()  # Overrun: once per phase
    activation: Activation | None = None


@dataclass(frozen=True)
class MoveInProgress:
    """A move stopped half-way for the non-moving player's defensive-fire answer (M-12.8).

    ``path`` runs from the start hex to the destination; the step being resolved goes
    from ``path[step]`` to ``path[step + 1]``.  ``stage`` is "leaving" (the defender may
    fire at the hex the unit is leaving) or "entering" (at the hex it has entered)."""

    unit: str
    path: tuple[Hex, ...]
    step: int = 0
    stage: str = "leaving"
    face: int | None = None  # requested final facing
    kind: str = "move"  # "move", "fade" (Strike and Fade), "banzai"
    answered: frozenset[str] = frozenset()  # defenders that fired (or passed on a timeout) this step
    entering: tuple[str, ...] = ()  # defenders that chose the entering hex (M-12.5 order)
    held: bool = False  # the defender answered "hold" for the current stage
    rolled: bool = False  # the movement roll(s) of this step were made and passed
    auto_done: bool = False  # standing orders of this stage were resolved
    df_hexes: tuple[Hex, ...] = ()  # where defensive fire happened so far (for the event)


@dataclass(frozen=True)
class GameOptions:
    """The options of new_game that are not part of the scenario."""

    stacking: int = 2  # friendly units per hex (M-6.2); 3 = the 2008 update
    default_standing: str = "ask"  # standing order of units without one (M-12.8)
    cost_set: str = "revised"


@dataclass(frozen=True, eq=False)
class MinisState:
    # --- read by the renderer and the bot ------------------------------------------------
    map: BattleMap
    cards: Mapping[str, UnitCard]  # every card this battle uses (custom cards included)
    units: tuple[UnitState, ...] = ()
    turn: int = 1
    phase: Phase = Phase.ARMIES
    active: str | None = None  # side whose phase or decision it is
    first_player: str | None = None  # for this turn (M-5.2) or for deployment (M-3.3)
    scenario: str = "standard"
    extra: Mapping[str, object] = field(default_factory=dict)
    # --- rules bookkeeping -----------------------------------------------------------------
    setup: Scenario | None = None  # the scenario bound to sides (M-3, M-17, M-18)
    options: GameOptions = GameOptions()
    armies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # secret lists (M-2.5)
    ready: frozenset[str] = frozenset()
    chooser: str | None = None  # who must answer "first"/"second" now (toss or initiative)
    deploy_done: frozenset[str] = frozenset()
    ends: Mapping[str, str] = field(default_factory=dict)  # side -> deployment zone name
    objectives: tuple[Hex, ...] = ()
    map_locked: bool = False  # Assault: the defender may change the map until it deploys
    flags: PhaseFlags = PhaseFlags()
    move: MoveInProgress | None = None
    standing: Mapping[str, str] = field(default_factory=dict)
    destroyed_bridges: frozenset[Edge] = frozenset()
    used_once: frozenset[str] = frozenset()  # "ax3:Armor-Piercing Rounds", …
    overheated: frozenset[str] = frozenset()  # Overheat counters that survive one casualty phase
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        for name in ("cards", "extra", "armies", "ends", "standing"):
            value = getattr(self, name)
            if not isinstance(value, MappingProxyType):
                object.__setattr__(self, name, MappingProxyType(dict(value)))
        object.__setattr__(self, "_index", {u.id: i for i, u in enumerate(self.units)})

    @property
    def scenario_def(self) -> Scenario:
        if self.setup is None:
            raise ValueError("this state has no scenario")
        return self.setup

    # --- look-ups ------------------------------------------------------------------------------
    def unit(self, unit_id: str) -> UnitState:
        key = unit_id.strip().lower()
        index: dict[str, int] = self._index  # type: ignore[attr-defined]
        if key in index:
            return self.units[index[key]]
        raise UnknownName(f"There is no unit '{unit_id}'.", legal=[u.id for u in self.units])

    def card(self, unit: UnitState) -> UnitCard:
        return self.cards[unit.card]

    def units_at(self, h: Hex) -> tuple[UnitState, ...]:
        """Units on the map in a hex, passengers excluded."""
        return tuple(u for u in self.units if u.hex == h and u.on_map and u.carried_by is None)

    def passengers(self, transport_id: str) -> tuple[UnitState, ...]:
        return tuple(u for u in self.units if u.carried_by == transport_id and not u.destroyed)

    def side_units(self, side: str) -> tuple[UnitState, ...]:
        return tuple(u for u in self.units if u.side == side)

    def standing_order(self, unit_id: str) -> str:
        return self.standing.get(unit_id, self.options.default_standing)

    # --- functional updates --------------------------------------------------------------------
    def with_units(self, *changed: UnitState) -> MinisState:
        """A copy with these units replaced (matched by id)."""
        index: dict[str, int] = self._index  # type: ignore[attr-defined]
        units = list(self.units)
        for u in changed:
            units[index[u.id]] = u
        return replace(self, units=tuple(units))

    def update_unit(self, unit_id: str, **changes: Any) -> MinisState:
        return self.with_units(replace(self.unit(unit_id), **changes))

    def with_flags(self, **changes: Any) -> MinisState:
        return replace(self, flags=replace(self.flags, **changes))

