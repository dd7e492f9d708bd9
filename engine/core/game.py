"""The contract every game engine offers (python-chess style), and the registry of kinds.

A game is ``state + orders``.  State values are immutable; ``apply`` checks an order,
returns a *new* state and the events, and raises a :class:`~engine.core.errors.PlayerError`
without side effects when the order is illegal.  The bot is generic over this contract,
so Miniatures, Memoir '44 and A&A Anniversary plug in the same way.

What a game kind provides (:class:`GameRules`):

- seats, and the team each seat belongs to (A&A: Germany and Italy are the Axis team; a
  player may hold several seats, a team may be several players);
- ``new_game(options, dice)``;
- orders as values with a canonical text: ``parse_order(state, seat, text)`` and
  ``format_order(state, order)`` (the order log stores the canonical text, so a replay
  never depends on today's defaults), ``legal_orders(state, seat)``, and
  ``apply(state, order, dice)``;
- ``pending(state)`` (who must decide what) and ``outcome(state)`` (a winning team or a
  draw, with the reason);
- ``timeout(state, policy, dice)``: what happens when whoever is waited for does not
  answer in time (the scheduler calls it; it is logged as its own row, not as an order
  of a pretend "system" seat);
- the per-seat view — the one place privacy is decided: ``view(state, viewer)`` is the
  state as a viewer may know it, ``event_view(event, viewer)`` an event as the viewer
  may see it (or None), ``order_view(seat, text, viewer)`` an order's text as the viewer
  may see it (or None).  Every public surface of the bot asks these;
- ``dump_state``/``load_state`` (JSON).

:class:`BaseRules` gives the defaults most games want (events carrying ``private_to``
are seen only by that seat; every order text is public; the state is public).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Protocol, Sequence, TypeVar

from engine.core.dice import Dice
from engine.core.errors import UnknownName
from engine.core.events import Event

S = TypeVar("S")
EventDict = Mapping[str, Any]


@dataclass(frozen=True)
class Pending:
    """A decision the game is waiting for: whose (a seat), and what (short text)."""

    player: str
    decision: str
    # Canonical order texts that answer it directly (the bot may offer them as buttons).
    choices: tuple[str, ...] = ()
    # True for a reaction in the middle of someone else's action (defensive fire, an
    # ambush): the game's reaction timeout applies instead of the turn timeout.
    reaction: bool = False


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: ``winner`` is the winning *team* (for two-seat games a
    seat name), None for a draw; ``reason`` says why, in words."""

    winner: str | None
    reason: str

    @property
    def draw(self) -> bool:
        return self.winner is None


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the seats they hold.  No seats = a spectator, i.e. the public
    (what the whole channel, the log and every image may show)."""

    seats: frozenset[str] = frozenset()

    @classmethod
    def of(cls, seats: Iterable[str]) -> "Viewer":
        return cls(frozenset(seats))

    def holds(self, seat: str | None) -> bool:
        return seat is not None and seat in self.seats

    @property
    def public(self) -> bool:
        return not self.seats


PUBLIC = Viewer()

# The policies every game's timeout hook understands; a game may add its own.
TIMEOUT_POLICIES = ("done", "forfeit")


class GameRules(Protocol[S]):
    """One game kind."""

    kind: str
    title: str
    seats: tuple[str, ...]
    timeout_policies: tuple[str, ...]
    reaction_policy: str
    # Top-level keys of ``dump_state`` that almost never change (a map, unit cards):
    # storage keeps them apart and writes them only when they change.  ``dump_state``
    # should hand back the very same object for an unchanged part (then it is not even
    # serialised to be compared).
    snapshot_parts: tuple[str, ...]

    def team(self, seat: str) -> str: ...

    def teams(self) -> tuple[str, ...]: ...

    def new_game(self, options: Mapping[str, Any], dice: Dice) -> tuple[S, Sequence[Event]]: ...

    def parse_order(self, state: S, seat: str, text: str) -> Any: ...

    def format_order(self, state: S, order: Any) -> str: ...

    def legal_orders(self, state: S, seat: str) -> Iterable[Any]: ...

    def apply(self, state: S, order: Any, dice: Dice) -> tuple[S, Sequence[Event]]: ...

    def apply_text(self, state: S, seat: str, text: str, dice: Dice) -> tuple[S, Sequence[Event]]: ...

    def canonical(self, state: S, seat: str, text: str) -> str: ...

    def pending(self, state: S) -> Sequence[Pending]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def timeout(self, state: S, policy: str, dice: Dice) -> tuple[S, Sequence[Event]]: ...

    def view(self, state: S, viewer: Viewer) -> S: ...

    def event_view(self, event: EventDict, viewer: Viewer) -> EventDict | None: ...

    def order_view(self, seat: str, text: str, viewer: Viewer) -> str | None: ...

    def dump_state(self, state: S) -> dict[str, Any]: ...

    def load_state(self, data: Mapping[str, Any]) -> S: ...


class BaseRules:
    """Defaults for :class:`GameRules`; a game overrides what differs.

    ``apply_text`` and ``canonical`` are built from ``parse_order``/``format_order``/
    ``apply``; ``team`` is the seat itself; the state and every order text are public;
    an event with ``private_to`` is seen by that seat alone."""

    kind: str = ""
    title: str = ""
    seats: tuple[str, ...] = ()
    timeout_policies: tuple[str, ...] = TIMEOUT_POLICIES
    # The policy applied when a *reaction* (Pending.reaction) is not answered in time.
    reaction_policy: str = "done"
    snapshot_parts: tuple[str, ...] = ()

    def team(self, seat: str) -> str:
        return seat

    def teams(self) -> tuple[str, ...]:
        """The sides, in seat order (each once)."""
        return tuple(dict.fromkeys(self.team(seat) for seat in self.seats))

    def parse_order(self, state: Any, seat: str, text: str) -> Any:
        raise NotImplementedError

    def format_order(self, state: Any, order: Any) -> str:
        raise NotImplementedError

    def apply(self, state: Any, order: Any, dice: Dice) -> tuple[Any, Sequence[Event]]:
        raise NotImplementedError

    def apply_text(self, state: Any, seat: str, text: str, dice: Dice) -> tuple[Any, Sequence[Event]]:
        return self.apply(state, self.parse_order(state, seat, text), dice)

    def canonical(self, state: Any, seat: str, text: str) -> str:
        """The text the log stores for this order (parse, then print back)."""
        return self.format_order(state, self.parse_order(state, seat, text))

    def view(self, state: Any, viewer: Viewer) -> Any:
        return state

    def event_view(self, event: EventDict, viewer: Viewer) -> EventDict | None:
        owner = event.get("private_to")
        if owner is None or viewer.holds(str(owner)):
            return event
        return None

    def order_view(self, seat: str, text: str, viewer: Viewer) -> str | None:
        return text


def visible_events(rules: GameRules[Any], events: Iterable[EventDict], viewer: Viewer) -> list[EventDict]:
    """The events a viewer may see, as they may see them."""
    out: list[EventDict] = []
    for event in events:
        shown = rules.event_view(event, viewer)
        if shown is not None:
            out.append(shown)
    return out


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
