"""Events of an Anniversary Edition game (what happened, for the bot to narrate).

Dice are reported as they were rolled, grouped by side and target number (A-10.16):
``Rolled(side="attacker", what="fighter", target=3, dice=(2, 5, 6), hits=1)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.events import Event


@dataclass(frozen=True)
class TurnStarted(Event):
    round: int
    power: str


@dataclass(frozen=True)
class PhaseStarted(Event):
    power: str
    phase: str


@dataclass(frozen=True)
class Researched(Event):
    power: str
    bought: int
    dice: tuple[int, ...]
    chart: int | None = None
    chart_dice: tuple[int, ...] = ()
    breakthrough: str | None = None


@dataclass(frozen=True)
class Purchased(Event):
    power: str
    units: str
    repairs: tuple[tuple[str, int], ...]
    cost: int
    over_capacity: int = 0  # units beyond what the power can place this turn (warning, A-8)


@dataclass(frozen=True)
class ChineseRecruits(Event):
    count: int


@dataclass(frozen=True)
class Moved(Event):
    power: str
    units: str
    path: tuple[str, ...]
    verb: str = "move"


@dataclass(frozen=True)
class Captured(Event):
    territory: str
    by: str
    previous: str | None
    controller: str  # who controls it now (a liberated territory goes back, A-10.11)
    plunder: int = 0  # IPCs taken with a capital


@dataclass(frozen=True)
class Returned(Event):
    """A territory held by an ally goes back to its original controller (A-10.12)."""

    territory: str
    to: str


@dataclass(frozen=True)
class BattleStarted(Event):
    where: str
    kind: str
    attacker: str
    attackers: str
    defenders: str


@dataclass(frozen=True)
class Rolled(Event):
    side: str
    what: str
    target: int
    dice: tuple[int, ...]
    hits: int
    round: int = 0


@dataclass(frozen=True)
class Lost(Event):
    """Units removed (or damaged) by hits, AA fire, a sinking ship, landing failure …"""

    where: str
    units: str
    why: str
    owners: tuple[str, ...] = ()
    damaged: int = 0  # battleships only damaged


@dataclass(frozen=True)
class Submerged(Event):
    where: str
    power: str
    count: int


@dataclass(frozen=True)
class Retreated(Event):
    where: str
    to: str | None
    units: str


@dataclass(frozen=True)
class BattleEnded(Event):
    where: str
    result: str  # "attacker", "defender", "draw", "retreat", "stalemate"
    taken: bool = False


@dataclass(frozen=True)
class Bombed(Event):
    territory: str
    dice: tuple[int, ...]
    damage: int  # markers placed (capped, A-10.2)
    total: int


@dataclass(frozen=True)
class RocketFired(Event):
    from_: str
    territory: str
    die: int
    damage: int
    total: int


@dataclass(frozen=True)
class Placed(Event):
    power: str
    units: str
    where: str


@dataclass(frozen=True)
class Income(Event):
    power: str
    territories: int
    objectives: tuple[int, ...]
    war_bonds: int
    total: int
    ipcs: int


@dataclass(frozen=True)
class Victory(Event):
    winner: str
    cities: int
    reason: str


@dataclass(frozen=True)
class Conceded(Event):
    power: str


@dataclass(frozen=True)
class TimedOut(Event):
    power: str
    decision: str


@dataclass(frozen=True)
class SettingChanged(Event):
    power: str
    what: str
