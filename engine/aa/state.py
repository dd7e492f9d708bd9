"""The state of an Anniversary Edition game: frozen values, never mutated.

Mappings held by a state (units, control, IPCs …) are built fresh by every change and
never written to afterwards; ``apply`` always returns a new :class:`AAState`.

Units are individual pieces with an id (``#12`` in orders).  A piece's *turn flags*
(how far it moved, whether it moved in phase 3, fought, boarded …) are reset when a
power's turn starts; the board position, owner, cargo links and battle damage are not.
Industrial complexes are not units: ``factories`` maps a territory to its damage markers,
and a factory always belongs to the territory's controller (A-10.10).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Iterator, Literal, Mapping, get_args

from engine.aa.board import ALLIES, AXIS, Board, board
from engine.aa.units import CARRIER, SURFACE_WARSHIPS, TRANSPORT, is_air, is_land, is_sea
from engine.core.game import Outcome

POWERS: tuple[str, ...] = ("Germany", "Soviet Union", "Japan", "United Kingdom", "Italy",
                           "United States", "China")
SIDE: dict[str, str] = {"Germany": AXIS, "Japan": AXIS, "Italy": AXIS, "Soviet Union": ALLIES,
                        "United Kingdom": ALLIES, "United States": ALLIES, "China": ALLIES}
CHINA, USA = "China", "United States"

# Phases; "first" is the US player's choice of who fights first.
RESEARCH, PURCHASE, FIRST, COMBAT_MOVE, COMBAT, NONCOMBAT, MOBILISE = (
    "research", "purchase", "first", "combat move", "conduct combat", "noncombat move", "mobilise")
OVER = "over"
PHASES = (RESEARCH, PURCHASE, FIRST, COMBAT_MOVE, COMBAT, NONCOMBAT, MOBILISE)

VICTORY_TARGETS = {13: "Projection of Power", 15: "Honorable Surrender", 18: "Total Victory"}


def side_of(power: str) -> str:
    return SIDE[power]


def enemies(a: str, b: str) -> bool:
    return SIDE[a] != SIDE[b]


CasualtyRule = Literal["earliest", "by-class"]  # Options.casualties
CASUALTY_RULES: tuple[CasualtyRule, ...] = get_args(CasualtyRule)


def casualty_rule(name: object) -> CasualtyRule:
    """``name`` as a casualty rule; ValueError when it is not one."""
    for rule in CASUALTY_RULES:
        if name == rule:
            return rule
    raise ValueError(f"no casualty rule {name!r}")


@dataclass(frozen=True)
class Options:
    """Chosen before play (A-4.1)."""

    setup: str = "1941"
    research: bool = True
    national_objectives: bool = True
    victory_cities: int = 15
    # How default casualties are chosen: "earliest" (games opened since
    # 2026-12-02) loses the earliest units of the order of loss the hits allow;
    # "by-class" (the default of games opened before, kept so their logs replay as
    # played) places the submarine hits first, then the aircraft hits, then the others.
    casualties: CasualtyRule = "by-class"
    # The landing rules of games opened since 2026-12-04, True there: aircraft
    # may retreat from an amphibious assault whose land units all came from the sea
    # (aircraft retreat by the normal rules), and within a type the attacker's units
    # landed from the sea take hits before those that came over land.  False in games
    # opened before (no retreat there; hits by unit number), kept so their logs replay
    # as played.
    landing_retreat: bool = False


@dataclass(frozen=True)
class Unit:
    id: int
    kind: str
    owner: str
    where: str
    aboard: int | None = None  # transport (land cargo), carrier (allied fighter), bomber (paratrooper)
    # turn flags (reset at every turn start)
    moved: int = 0  # spaces moved this turn (aircraft: phases 3 and 5 together, A-9.9)
    p3: bool = False  # moved, loaded or unloaded in phase 3 (no move in phase 5 then)
    p5: bool = False  # moved in phase 5
    stop: bool = False  # may not move again this turn (entered a hostile zone, unloaded, landed …)
    fought: bool = False
    came_from: str | None = None  # the space entered from in phase 3 (retreats, A-10.9)
    boarded: int = 0  # cargo: boarded in phase 3 or 5 of this turn
    target: str | None = None  # cargo: amphibious target; bomber: raid target; transport: unload territory
    mission: str = ""  # "bomb" (strategic raid), "para" (carries a paratrooper), "landed"
    new: bool = False  # placed this turn
    # battle state
    damage: int = 0  # hits taken by a two-hit battleship in the current battle
    submerged: bool = False

    @property
    def is_land(self) -> bool:
        return is_land(self.kind)

    @property
    def is_air(self) -> bool:
        return is_air(self.kind)

    @property
    def is_sea(self) -> bool:
        return is_sea(self.kind)

    @property
    def surface_warship(self) -> bool:
        return self.kind in SURFACE_WARSHIPS

    def reset(self) -> "Unit":
        if not (self.moved or self.p3 or self.p5 or self.stop or self.fought or self.came_from
                or self.boarded or self.target or self.mission or self.new):
            return self
        return replace(self, moved=0, p3=False, p5=False, stop=False, fought=False, came_from=None,
                       boarded=0, target=None, mission="", new=False)


@dataclass(frozen=True)
class Hits:
    """Hits one side must take (A-10.14): by class, submarine hits never on aircraft,
    aircraft hits (no friendly destroyer) never on submarines, the rest anywhere."""

    side: str  # "attacker" | "defender"
    sub: int = 0
    air: int = 0
    any: int = 0
    reason: str = "fire"  # "strike" (removed at once) | "fire" | "bombard" (casualty zone)

    @property
    def total(self) -> int:
        return self.sub + self.air + self.any


@dataclass(frozen=True)
class Battle:
    """The battle being fought (A-10.4)."""

    where: str
    kind: str  # "land" | "sea"
    attacker: str
    round: int = 0
    stage: str = "start"  # "submerge-attacker", "submerge-defender", "hits", "retreat"
    hits: tuple[Hits, ...] = ()  # casualty decisions still to take, the first now
    zone: frozenset[int] = frozenset()  # defender casualties that still fire this round
    aside: frozenset[int] = frozenset()  # defending fighters out of a submarine-only attack
    struck: frozenset[int] = frozenset()  # submarines that struck this round
    amphibious: bool = False
    defenders_fought: bool = True  # the defender had units when the battle began


@dataclass(frozen=True)
class Site:
    """A battle still to fight in this conduct-combat phase (A-10.1)."""

    where: str
    kind: str  # "raid" | "land" | "sea"
    step: int  # 1 raids, 2 amphibious assaults, 3 the rest
    after: tuple[str, ...] = ()  # sea battles that must be fought first


@dataclass(frozen=True)
class Purchase:
    units: tuple[tuple[str, int], ...] = ()
    repairs: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Settings:
    """A power's standing choices: orders of loss (A-10.14) and auto-casualties."""

    attack_order: tuple[str, ...] = ()
    defense_order: tuple[str, ...] = ()
    auto: bool = False


@dataclass(frozen=True)
class AAState:
    options: Options
    round: int
    turn_order: tuple[str, ...]
    turn: int  # index into turn_order: whose turn
    steps: tuple[tuple[str, str], ...]  # (acting power, phase) of this turn
    step: int
    units: Mapping[int, Unit]
    next_id: int
    control: Mapping[str, str]  # land territory -> controlling power
    control_start: Mapping[str, str]  # control when this turn began
    ipcs: Mapping[str, int]
    factories: Mapping[str, int]  # territory -> damage markers
    pool: Mapping[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    techs: Mapping[str, frozenset[str]] = field(default_factory=dict)
    researchers: Mapping[str, int] = field(default_factory=dict)
    settings: Mapping[str, Settings] = field(default_factory=dict)
    purchase: Purchase | None = None
    sites: tuple[Site, ...] = ()
    battle: Battle | None = None
    captured: frozenset[str] = frozenset()  # territories taken this turn
    hostile_start: frozenset[str] = frozenset()  # sea zones hostile to the turn's side at its start
    rockets: frozenset[str] = frozenset()  # rocket launch sites and targets used this turn
    placed: Mapping[str, int] = field(default_factory=dict)  # factory -> units placed this turn
    new_factories: frozenset[str] = frozenset()
    scramble: tuple[int, ...] = ()  # defending fighters whose carrier sank
    combat_started: bool = False  # a step-2/3 battle began (no more rockets)
    conceded: frozenset[str] = frozenset()
    outcome: Outcome | None = None

    # -- whose turn ------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return board()

    @property
    def power(self) -> str:
        """The power whose turn it is (the US during China's part of the US turn)."""
        return self.turn_order[self.turn]

    @property
    def actor(self) -> str:
        return self.steps[self.step][0] if self.outcome is None else ""

    @property
    def phase(self) -> str:
        return self.steps[self.step][1] if self.outcome is None else OVER

    # -- units -----------------------------------------------------------------------------

    @cached_property
    def at(self) -> dict[str, tuple[Unit, ...]]:
        """Units by space (cargo included, listed where its ship is)."""
        out: dict[str, list[Unit]] = {}
        for u in self.units.values():
            out.setdefault(u.where, []).append(u)
        return {k: tuple(sorted(v, key=lambda u: u.id)) for k, v in out.items()}

    @cached_property
    def cargo(self) -> dict[int, tuple[Unit, ...]]:
        out: dict[int, list[Unit]] = {}
        for u in self.units.values():
            if u.aboard is not None:
                out.setdefault(u.aboard, []).append(u)
        return {k: tuple(sorted(v, key=lambda u: u.id)) for k, v in out.items()}

    def units_at(self, where: str) -> tuple[Unit, ...]:
        return self.at.get(where, ())

    def unit(self, uid: int) -> Unit:
        return self.units[uid]

    def owned(self, power: str) -> Iterator[Unit]:
        return (u for u in self.units.values() if u.owner == power)

    # -- control ---------------------------------------------------------------------------

    def controller(self, territory: str) -> str | None:
        return self.control.get(territory)

    def friendly(self, territory: str, power: str) -> bool:
        c = self.control.get(territory)
        return c is not None and SIDE[c] == SIDE[power]

    def hostile(self, territory: str, power: str) -> bool:
        c = self.control.get(territory)
        return c is not None and SIDE[c] != SIDE[power]

    def friendly_at_start(self, territory: str, power: str) -> bool:
        c = self.control_start.get(territory)
        return c is not None and SIDE[c] == SIDE[power]

    def capital_held(self, power: str) -> bool:
        """Whether the power's capital is not enemy-held (A-10.12; China has none)."""
        cap = self.board.capital_of(power)
        if cap is None:
            return True
        c = self.control.get(cap)
        return c is not None and SIDE[c] == SIDE[power]

    def enemy_surface(self, zone: str, power: str) -> bool:
        """A-2.6: the zone holds an enemy surface warship (hostile)."""
        return any(u.surface_warship and SIDE[u.owner] != SIDE[power] for u in self.units_at(zone))

    def enemy_units(self, where: str, power: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units_at(where) if SIDE[u.owner] != SIDE[power])

    def has_enemy_destroyer(self, zone: str, power: str) -> bool:
        return any(u.kind == "destroyer" and SIDE[u.owner] != SIDE[power] for u in self.units_at(zone))

    def carrier_room(self, zone: str, power: str) -> int:
        """Free fighter places on friendly carriers in a zone (2 per carrier)."""
        here = self.units_at(zone)
        carriers = sum(2 for u in here if u.kind == CARRIER and SIDE[u.owner] == SIDE[power])
        fighters = sum(1 for u in here if u.kind == "fighter" and SIDE[u.owner] == SIDE[power])
        return carriers - fighters

    def transport_load(self, tid: int) -> tuple[Unit, ...]:
        return self.cargo.get(tid, ())

    def tech(self, power: str) -> frozenset[str]:
        return self.techs.get(power, frozenset())

    def pool_of(self, power: str) -> dict[str, int]:
        return dict(self.pool.get(power, ()))

    def setting(self, power: str) -> Settings:
        return self.settings.get(power, Settings())

    def victory_count(self) -> dict[str, int]:
        out = {AXIS: 0, ALLIES: 0}
        for t in self.board.victory_cities():
            c = self.control.get(t)
            if c is not None:
                out[SIDE[c]] += 1
        return out


def is_transport(u: Unit) -> bool:
    return u.kind == TRANSPORT


def with_units(state: AAState, changed: Mapping[int, Unit | None], **fields: Any) -> AAState:
    """A new state with some units replaced (``None`` removes one) and other fields set."""
    units = dict(state.units)
    for uid, u in changed.items():
        if u is None:
            units.pop(uid, None)
        else:
            units[uid] = u
    return replace(state, units=units, **fields)
