"""The contract every game engine offers (python-chess style), and the registry of kinds.

A game is ``state + orders``.  State values are immutable; ``apply`` checks the order,
returns a *new* state and the events, and raises a :class:`~engine.core.errors.PlayerError`
without side effects when the order is illegal.  The bot's session is generic over this
protocol, so Miniatures, Memoir '44 and A&A Anniversary plug in the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol, Sequence, TypeVar

from engine.core.dice import Dice
from engine.core.errors import UnknownName
from engine.core.events import Event

S = TypeVar("S")


@dataclass(frozen=True)
class Pending:
    """A decision the game is waiting for: whose, and what (short text)."""

    player: str
    decision: str
    # Order texts that answer it directly (the bot may offer them as buttons).
    choices: tuple[str, ...] = ()
    # True for a reaction in the middle of someone else's action (defensive fire).
    reaction: bool = False


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended; ``winner`` is a seat name or None for a draw."""

    winner: str | None
    reason: str


class GameRules(Protocol[S]):
    """One game kind.  Orders travel as text (``parse_order``/``format_order``)."""

    kind: str
    title: str
    seats: tuple[str, ...]

    def new_game(self, options: Mapping[str, Any], dice: Dice) -> tuple[S, Sequence[Event]]: ...

    def apply_text(
        self, state: S, player: str, text: str, dice: Dice
    ) -> tuple[S, Sequence[Event]]: ...

    def pending(self, state: S) -> Sequence[Pending]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def dump_state(self, state: S) -> dict[str, Any]: ...

    def load_state(self, data: Mapping[str, Any]) -> S: ...


_KINDS: dict[str, GameRules[Any]] = {}


def register(rules: GameRules[Any]) -> GameRules[Any]:
    _KINDS[rules.kind] = rules
    return rules


def rules_for(kind: str) -> GameRules[Any]:
    try:
        return _KINDS[kind]
    except KeyError:
        raise UnknownName(f"No game kind '{kind}'.", legal=sorted(_KINDS)) from None


def kinds() -> tuple[str, ...]:
    return tuple(sorted(_KINDS))
