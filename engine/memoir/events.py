"""What happened, for the bot to narrate.  Hexes are names ("G5"); cards are card kinds
("probe-left").  Events about a hand carry ``private_to`` (the owner): the per-seat
view (``MemoirRules.event_view``) shows others a redacted copy (a card was drawn) or
nothing (a standing setting)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.events import Event


@dataclass(frozen=True)
class GameStarted(Event):
    scenario: str
    top: str
    first: str
    medals: tuple[int, int]  # to win (axis, allies)


@dataclass(frozen=True)
class CardsDealt(Event):
    seat: str
    cards: tuple[str, ...]
    private_to: str


@dataclass(frozen=True)
class Airdropped(Event):
    """E-3.5: one drop: ``unit`` landed on ``hex``, or was lost (``unit`` None)."""

    hex: str
    unit: str | None
    why: str = ""


@dataclass(frozen=True)
class CardPlayed(Event):
    seat: str
    card: str
    effect: str  # what it does (the copied card for Counter-Attack)
    sections: tuple[str, ...]  # as named from the player's side
    fallback: bool = False


@dataclass(frozen=True)
class CardDice(Event):
    """Dice a card rolls for itself (Their Finest Hour, Medics & Mechanics)."""

    seat: str
    card: str
    faces: tuple[str, ...]


@dataclass(frozen=True)
class UnitsOrdered(Event):
    seat: str
    units: tuple[str, ...]  # hexes


@dataclass(frozen=True)
class Targeted(Event):
    seat: str
    card: str
    hexes: tuple[str, ...]


@dataclass(frozen=True)
class Moved(Event):
    unit: str
    path: tuple[str, ...]  # from, then every hex entered


@dataclass(frozen=True)
class ObstacleChanged(Event):
    hex: str
    obstacle: str
    placed: bool  # True: placed (Dig In), False: removed
    why: str


@dataclass(frozen=True)
class BattleDeclared(Event):
    attacker: str  # hex
    target: str  # hex
    dice: int
    close: bool
    overrun: bool = False


@dataclass(frozen=True)
class AmbushAnswered(Event):
    seat: str
    ambush: bool  # True: Ambush played; False: passed


@dataclass(frozen=True)
class Rolled(Event):
    """Battle dice (E-13): who rolled against whom, every face, the hits and flags."""

    side: str
    why: str  # "battle", "overrun", "ambush", "air-power", "barrage"
    attacker: str | None  # hex, None for Air Power / Barrage
    target: str
    faces: tuple[str, ...]
    hits: int
    flags: int


@dataclass(frozen=True)
class FiguresLost(Event):
    unit: str
    hex: str
    lost: int
    left: int
    why: str  # "hits", "retreat"


@dataclass(frozen=True)
class Eliminated(Event):
    unit: str
    hex: str
    medal_to: str


@dataclass(frozen=True)
class FlagsIgnored(Event):
    unit: str
    hex: str
    ignored: int


@dataclass(frozen=True)
class Retreated(Event):
    unit: str
    path: tuple[str, ...]
    lost: int


@dataclass(frozen=True)
class BattleCancelled(Event):
    attacker: str
    why: str


@dataclass(frozen=True)
class TookGround(Event):
    unit: str
    frm: str
    to: str


@dataclass(frozen=True)
class Healed(Event):
    unit: str
    hex: str
    figures: int
    now: int


@dataclass(frozen=True)
class MedalsChanged(Event):
    axis: int
    allies: int


@dataclass(frozen=True)
class CardDrawn(Event):
    seat: str
    card: str | None
    private_to: str


@dataclass(frozen=True)
class CardDiscarded(Event):
    seat: str
    card: str
    why: str


@dataclass(frozen=True)
class DeckShuffled(Event):
    cards: int
    why: str


@dataclass(frozen=True)
class StepClosed(Event):
    seat: str
    step: str  # "move" or "battle"


@dataclass(frozen=True)
class TurnEnded(Event):
    seat: str
    turn: int


@dataclass(frozen=True)
class StandingSet(Event):
    seat: str
    setting: str
    private_to: str


@dataclass(frozen=True)
class Conceded(Event):
    seat: str


@dataclass(frozen=True)
class TimedOut(Event):
    seat: str
    policy: str


@dataclass(frozen=True)
class Victory(Event):
    winner: str
    reason: str
    medals: tuple[int, int]
