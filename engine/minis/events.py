"""What happened in a battle, as frozen events the bot narrates.

Events that reveal secret information (army lists before deployment, standing orders)
carry ``private_to`` — the side that may see them; :func:`is_private` tells the bot to
send those only to their owner.  Hexes are axial ``Hex`` values (``to_dict`` turns them
into ``[q, r]``); unit ids are the short ids players type.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.events import Event
from engine.core.hexgrid import Hex


def is_private(event: Event) -> bool:
    return getattr(event, "private_to", None) is not None


# --------------------------------------------------------------------------- before battle


@dataclass(frozen=True)
class ArmyListed(Event):
    side: str
    cards: tuple[str, ...]
    cost: int
    problems: tuple[str, ...]  # why the list cannot be readied yet (empty when valid)
    private_to: str


@dataclass(frozen=True)
class ArmyReady(Event):
    side: str
    ready: bool


@dataclass(frozen=True)
class ArmiesLocked(Event):
    """Both armies are final (M-2.5); only the number of units is told, the lists stay
    secret until each unit is deployed."""

    units: tuple[tuple[str, int], ...]  # (side, number of units)


@dataclass(frozen=True)
class CoinToss(Event):
    die: int
    winner: str


@dataclass(frozen=True)
class FirstPlayerChosen(Event):
    chooser: str
    first: str
    deployment: bool  # True for the deployment order (M-3.3), False for a turn (M-5.2)
    turn: int


@dataclass(frozen=True)
class MapChosen(Event):
    side: str | None
    configuration: int | None
    name: str
    die: int | None = None  # when rolled (M-3.2)


@dataclass(frozen=True)
class ObjectiveChosen(Event):
    side: str
    hex: Hex


@dataclass(frozen=True)
class EndChosen(Event):
    side: str
    end: str


@dataclass(frozen=True)
class Deployed(Event):
    unit: str
    card: str
    side: str
    hex: Hex
    facing: int | None
    aboard: str | None = None


@dataclass(frozen=True)
class DeploymentDone(Event):
    side: str
    left_out: tuple[str, ...] = ()  # undeployed units dropped by a timeout


# --------------------------------------------------------------------------- sequence


@dataclass(frozen=True)
class PhaseStarted(Event):
    turn: int
    phase: str
    active: str | None


@dataclass(frozen=True)
class InitiativeRolled(Event):
    turn: int
    axis_dice: tuple[int, int]
    allies_dice: tuple[int, int]
    axis_bonus: int
    allies_bonus: int
    winner: str | None  # None: a full tie, both roll again (M-5.1)


@dataclass(frozen=True)
class TurnEnded(Event):
    turn: int


@dataclass(frozen=True)
class Victory(Event):
    winner: str | None
    reason: str


@dataclass(frozen=True)
class Conceded(Event):
    side: str


@dataclass(frozen=True)
class TimedOut(Event):
    side: str
    policy: str


@dataclass(frozen=True)
class StandingOrderSet(Event):
    unit: str
    policy: str
    private_to: str


# --------------------------------------------------------------------------- movement


@dataclass(frozen=True)
class MovementRoll(Event):
    unit: str
    leaving: Hex
    entering: Hex
    reason: str  # "stream", "forest", "hill (Weak Suspension)"
    die: int
    success: bool


@dataclass(frozen=True)
class Moved(Event):
    unit: str
    path: tuple[Hex, ...]  # hexes it actually went through, start first
    planned: tuple[Hex, ...]  # the ordered path, start first
    facing: int | None
    stopped: str | None  # None, "movement roll", "defensive fire", "destroyed"
    backed_up: tuple[Hex, ...] = ()  # M-6.3: hexes it moved back through
    defensive_fire_at: tuple[Hex, ...] = ()


@dataclass(frozen=True)
class Faced(Event):
    unit: str
    facing: int


@dataclass(frozen=True)
class Boarded(Event):
    unit: str
    transport: str
    hex: Hex


@dataclass(frozen=True)
class Dismounted(Event):
    unit: str
    transport: str
    hex: Hex
    displaced: bool = False  # M-15.4: put in the nearest legal hex


@dataclass(frozen=True)
class OverrunEvent(Event):
    unit: str
    victim: str
    hex: Hex


@dataclass(frozen=True)
class BridgeDemolition(Event):
    unit: str
    bridge: tuple[Hex, Hex]
    die: int
    success: bool


# --------------------------------------------------------------------------- attacks


@dataclass(frozen=True)
class CoverRoll(Event):
    unit: str
    die: int | None  # None when no die was rolled (automatic result)
    modifier: int
    needed: int
    success: bool
    automatic: str | None = None  # "Forest Camouflage", "Tall Silhouette"


@dataclass(frozen=True)
class Attacked(Event):
    attacker: str
    target: str
    kind: str  # "normal", "guns" (All Guns Blazing), "cannon", "banzai", "defensive"
    range: int
    band: str
    dice: tuple[int, ...]  # natural die faces, in the order rolled
    modifier: int  # added to each die
    successes: int
    defense: int
    front: bool | None  # Vehicles with two defenses: which one was used
    hits: int  # by the hit table, before cover (M-7.5)
    covered: bool  # a successful cover roll limited or negated it
    counters: tuple[str, ...]  # face-down counters placed (assault phases)
    effect: str  # "none", "counters", "disrupted", "stopped", "destroyed"
    indirect: str | None = None  # the spotter when fired by Indirect Fire
    special: tuple[str, ...] = ()  # abilities that changed the attack


@dataclass(frozen=True)
class DefensiveFireEvent(Event):
    defender: str
    mover: str
    at: Hex
    where: str  # "leaving" / "entering"
    stopped: bool
    standing: str | None  # the standing order that fired it, None if answered


@dataclass(frozen=True)
class DefensiveFireHeld(Event):
    side: str
    mover: str
    at: Hex


@dataclass(frozen=True)
class UnitDisrupted(Event):
    unit: str
    reason: str  # "defensive fire", "Overrun", "Overheat", "Blast"


@dataclass(frozen=True)
class HeavyArmorIgnored(Event):
    """Heavy Armor: the first Damaged counter the unit would receive is not received."""

    unit: str


@dataclass(frozen=True)
class UnitDestroyed(Event):
    unit: str
    reason: str


@dataclass(frozen=True)
class CountersCleared(Event):
    """Exert Will (or similar) removed face-up Disrupted counters."""

    by: str
    units: tuple[str, ...]


# --------------------------------------------------------------------------- casualty phase


@dataclass(frozen=True)
class Casualties(Event):
    turn: int
    recovered: tuple[str, ...]  # face-up Disrupted counters removed (M-16 step 1)
    destroyed: tuple[str, ...]  # removed from the map, passengers included (step 3)
    damaged: tuple[str, ...]  # became damaged (step 4)
    disrupted: tuple[str, ...]  # became disrupted (step 5)
    ignored: tuple[str, ...] = ()  # kept for old logs: Heavy Armor now acts when hit
