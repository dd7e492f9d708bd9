"""A league as plain frozen values: its settings, its players, the rounds paired so far
with their pairings, byes and results.

Nothing here knows Discord, the database or the clock: times are ``datetime`` values
handed in by the caller.  The operations that change a league live in
:mod:`bot.league.ops` and return new values.

Conventions every other module relies on:

- A player is a Discord user id (``int``) with the display name they signed up with.
- In a pairing, ``players[0]`` plays ``sides[0]`` and ``players[1]`` plays ``sides[1]``;
  a result such as ``"1-0"`` reads in that order (the first listed player won).
- ``league.sides`` are the two sides (teams) of the game kind, e.g. ``("axis",
  "allies")``; ``sides[0]`` plays the role of White for side balance.
- Points and tiebreaks are :class:`~fractions.Fraction` values (exact).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from bot.league.errors import LeagueNotationError, UnknownLeagueName


class Format(enum.Enum):
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"


class Status(enum.Enum):
    SIGNUP = "signup"  # players may join and leave
    RUNNING = "running"  # started: rounds are paired one after another


class Result(enum.Enum):
    """A pairing's result, read as ``players[0]``–``players[1]``."""

    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "1/2-1/2"
    FIRST_WINS_BY_FORFEIT = "1F-0F"
    SECOND_WINS_BY_FORFEIT = "0F-1F"
    DOUBLE_FORFEIT = "0F-0F"

    @property
    def played(self) -> bool:
        """Decided in a game (won, lost, drawn or conceded) rather than by forfeit."""
        return self in (Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW)

    def outcome(self, index: int) -> Outcome:
        """What this result is for ``players[index]``."""
        return _OUTCOMES[self][index]

    def swapped(self) -> Result:
        """The same result read from the other player's side."""
        return _SWAPPED[self]


class Outcome(enum.Enum):
    """One player's share of a result (or of a round without a game)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit win"
    FORFEIT_LOSS = "forfeit loss"


_OUTCOMES: dict[Result, tuple[Outcome, Outcome]] = {
    Result.FIRST_WINS: (Outcome.WIN, Outcome.LOSS),
    Result.SECOND_WINS: (Outcome.LOSS, Outcome.WIN),
    Result.DRAW: (Outcome.DRAW, Outcome.DRAW),
    Result.FIRST_WINS_BY_FORFEIT: (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    Result.SECOND_WINS_BY_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    Result.DOUBLE_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
}
_SWAPPED = {
    Result.FIRST_WINS: Result.SECOND_WINS,
    Result.SECOND_WINS: Result.FIRST_WINS,
    Result.DRAW: Result.DRAW,
    Result.FIRST_WINS_BY_FORFEIT: Result.SECOND_WINS_BY_FORFEIT,
    Result.SECOND_WINS_BY_FORFEIT: Result.FIRST_WINS_BY_FORFEIT,
    Result.DOUBLE_FORFEIT: Result.DOUBLE_FORFEIT,
}
RESULT_TEXTS = tuple(r.value for r in Result)


def parse_result(text: str) -> Result:
    """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` (also ``½-½``, ``0.5-0.5``), ``"1F-0F"``,
    ``"0F-1F"``, ``"0F-0F"`` (case does not matter)."""
    t = re.sub(r"\s+", "", text).upper().replace("½", "1/2").replace("0.5", "1/2")
    t = t.replace("–", "-").replace("—", "-")
    for r in Result:
        if r.value.upper() == t:
            return r
    raise LeagueNotationError(f"'{text}' is not a result.", legal=RESULT_TEXTS)


@dataclass(frozen=True)
class Scoring:
    """Points for each kind of round.  Defaults: win 1, draw 1/2, loss 0, forfeit win 1,
    forfeit loss 0, the pairing bye 1, a half-point bye 1/2."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)
    bye: Fraction = Fraction(1)
    half_bye: Fraction = Fraction(1, 2)

    def points(self, outcome: Outcome) -> Fraction:
        return {
            Outcome.WIN: self.win,
            Outcome.DRAW: self.draw,
            Outcome.LOSS: self.loss,
            Outcome.FORFEIT_WIN: self.forfeit_win,
            Outcome.FORFEIT_LOSS: self.forfeit_loss,
        }[outcome]

    def bye_points(self, bye: Bye) -> Fraction:
        return self.half_bye if bye.half else self.bye

    def items(self) -> Iterator[tuple[str, Fraction]]:
        for name in SCORING_KEYS:
            yield name, getattr(self, name)

    def text(self) -> str:
        """The canonical text, which :func:`parse_scoring` reads back."""
        return ",".join(f"{k}={v}" for k, v in self.items())


SCORING_KEYS = ("win", "draw", "loss", "forfeit_win", "forfeit_loss", "bye", "half_bye")
_SCORING_EXAMPLE = "win=1,draw=1/2,loss=0,forfeit_win=1,forfeit_loss=0,bye=1,half_bye=1/2"


def parse_scoring(text: str) -> Scoring:
    """``"win=3,draw=1,loss=0,bye=1/2"`` → a :class:`Scoring`; keys left out keep their
    defaults.  Values are whole numbers, fractions (``1/2``) or decimals (``0.5``),
    never negative."""
    values: dict[str, Fraction] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, sep, raw = part.partition("=")
        key = key.strip().lower().replace("-", "_").replace(" ", "_")
        if not sep or key not in SCORING_KEYS:
            raise LeagueNotationError(f"'{part}' is not a scoring entry.", legal=(_SCORING_EXAMPLE,))
        try:
            value = Fraction(raw.strip())
        except (ValueError, ZeroDivisionError):
            raise LeagueNotationError(f"'{raw.strip()}' is not a number of points.",
                                      legal=("1", "1/2", "0.5", "3")) from None
        if value < 0:
            raise LeagueNotationError(f"Points cannot be negative ('{part}').", legal=(_SCORING_EXAMPLE,))
        values[key] = value
    return Scoring(**values)


class Tiebreak(enum.Enum):
    """The tiebreaks, by the names the JSON export uses.  What each computes (and how
    unplayed rounds count) is in docs/league.md and :mod:`bot.league.standings`."""

    HEAD_TO_HEAD = "head_to_head"
    WINS = "wins"
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    CUMULATIVE = "cumulative"
    OPPONENTS_CUMULATIVE = "opponents_cumulative"


DEFAULT_TIEBREAKS: tuple[Tiebreak, ...] = tuple(Tiebreak)
TIEBREAK_NAMES = tuple(t.value for t in Tiebreak)


def parse_tiebreaks(text: str) -> tuple[Tiebreak, ...]:
    """``"buchholz, wins, head_to_head"`` → those tiebreaks in that order (each once)."""
    out: list[Tiebreak] = []
    for part in (p.strip().lower().replace("-", "_").replace(" ", "_") for p in text.split(",")):
        if not part:
            continue
        try:
            tb = Tiebreak(part)
        except ValueError:
            raise LeagueNotationError(f"'{part}' is not a tiebreak.", legal=TIEBREAK_NAMES) from None
        if tb in out:
            raise LeagueNotationError(f"The tiebreak '{part}' is listed twice.", legal=TIEBREAK_NAMES)
        out.append(tb)
    return tuple(out)


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    dropped: bool = False


@dataclass(frozen=True)
class Pairing:
    """One game of a round: ``players[i]`` plays ``sides[i]``.  ``how`` says how the
    result came about: "game", "concession", "timeout", "report", "moderator", "drop"
    (empty while there is no result)."""

    board: int
    players: tuple[int, int]
    sides: tuple[str, str]
    result: Result | None = None
    how: str = ""

    def index(self, player: int) -> int:
        """0 or 1: the position of ``player`` in this pairing."""
        if player == self.players[0]:
            return 0
        if player == self.players[1]:
            return 1
        raise ValueError(f"player {player} is not in this pairing")

    def opponent(self, player: int) -> int:
        return self.players[1 - self.index(player)]

    def side_of(self, player: int) -> str:
        return self.sides[self.index(player)]

    def has(self, player: int) -> bool:
        return player in self.players


@dataclass(frozen=True)
class Bye:
    """A round without a game: the pairing bye (``scoring.bye`` points) or a half-point
    bye set by a moderator (``scoring.half_bye`` points)."""

    player: int
    half: bool = False


@dataclass(frozen=True)
class Round:
    number: int
    pairings: tuple[Pairing, ...]
    bye: Bye | None
    started: datetime
    deadline: datetime

    @property
    def complete(self) -> bool:
        """Every pairing has a result."""
        return all(p.result is not None for p in self.pairings)

    @property
    def open_pairings(self) -> tuple[Pairing, ...]:
        return tuple(p for p in self.pairings if p.result is None)

    def pairing_of(self, player: int) -> Pairing | None:
        for p in self.pairings:
            if p.has(player):
                return p
        return None

    def board(self, board: int) -> Pairing:
        for p in self.pairings:
            if p.board == board:
                return p
        raise UnknownLeagueName(f"Round {self.number} has no board {board}.",
                                legal=tuple(str(p.board) for p in self.pairings))

    def players(self) -> frozenset[int]:
        ids = {pid for p in self.pairings for pid in p.players}
        if self.bye is not None:
            ids.add(self.bye.player)
        return frozenset(ids)


def _frozen_mapping(values: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(values))


@dataclass(frozen=True)
class League:
    """A league (one season).  ``rounds`` is the number of rounds it will have (for a
    Swiss league as asked, or settled at the start; for round-robin settled at the
    start from the number of players); ``paired`` holds the rounds paired so far."""

    name: str
    kind: str  # the game kind, e.g. "minis"
    format: Format
    sides: tuple[str, str]
    organiser: int
    rounds: int | None = None
    double: bool = False  # round-robin played twice, sides swapped the second time
    deadline: timedelta = timedelta(days=7)
    scoring: Scoring = Scoring()
    tiebreaks: tuple[Tiebreak, ...] = DEFAULT_TIEBREAKS
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    moderators: tuple[int, ...] = ()
    status: Status = Status.SIGNUP
    players: tuple[Player, ...] = ()  # sign-up order; from the start on, seeding order
    paired: tuple[Round, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.settings, MappingProxyType):
            object.__setattr__(self, "settings", _frozen_mapping(self.settings))

    # -- looking things up --------------------------------------------------------
    def player(self, player_id: int) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise UnknownLeagueName(f"That player is not in the league {self.name}.",
                                legal=tuple(p.name for p in self.players))

    def has_player(self, player_id: int) -> bool:
        return any(p.id == player_id for p in self.players)

    def name_of(self, player_id: int) -> str:
        return self.player(player_id).name

    def seed(self, player_id: int) -> int:
        """0-based position in ``players`` (sign-up order, then seeding order)."""
        for i, p in enumerate(self.players):
            if p.id == player_id:
                return i
        raise UnknownLeagueName(f"That player is not in the league {self.name}.")

    def round(self, number: int) -> Round:
        for r in self.paired:
            if r.number == number:
                return r
        raise UnknownLeagueName(f"The league {self.name} has no round {number} yet.",
                                legal=tuple(str(r.number) for r in self.paired))

    @property
    def current(self) -> Round | None:
        return self.paired[-1] if self.paired else None

    @property
    def active_players(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if not p.dropped)

    @property
    def finished(self) -> bool:
        """Started, every round paired and every result in."""
        return (self.status is Status.RUNNING and self.rounds is not None
                and len(self.paired) == self.rounds and all(r.complete for r in self.paired))


def frac_text(value: Fraction) -> str:
    """``2``, ``2.5``, ``0.25`` or ``1/3``: exact and short."""
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:  # a terminating decimal
        text = f"{float(value):.6f}".rstrip("0").rstrip(".")
        return text
    return f"{value.numerator}/{value.denominator}"


def frac_float(value: Fraction | int) -> float:
    return float(value)


__all__ = [
    "Bye", "DEFAULT_TIEBREAKS", "Format", "League", "Outcome", "Pairing", "Player",
    "RESULT_TEXTS", "Result", "Round", "SCORING_KEYS", "Scoring", "Status", "TIEBREAK_NAMES",
    "Tiebreak", "frac_float", "frac_text", "parse_result", "parse_scoring", "parse_tiebreaks",
]
