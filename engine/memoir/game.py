"""The public API of the Memoir '44 engine, registered as the game kind "memoir".

* ``new_game(options, dice)``: ``options["scenario"]`` is a shipped scenario
  ("pegasus-bridge", "sainte-mere-eglise", "sword-beach"), the text of a scenario in our
  format (docs/memoir-scenarios.md) or the text of a ``.m44`` file; ``options["ambush"]``
  the Ambush standing setting ("ask", "pass", "ambush"; one for both seats or
  ``{"axis": …, "allies": …}``; also ``ambush_axis`` / ``ambush_allies``).
* ``parse_order`` / ``format_order`` (engine/memoir/orders.py), ``legal_orders``,
  ``apply``, ``pending``, ``outcome``, ``timeout`` ("done": E-19.4 defaults, "forfeit").
* The per-seat view, the one place privacy is decided: ``view`` hides the hands of seats
  the viewer does not hold (each card becomes "?"), the order of the deck from everyone,
  the Recon pair from all but its drawer, and others' Ambush settings; ``event_view``
  redacts card draws and deals for others (they see that a card was drawn) and hides
  others' standing settings; ``order_view`` hides others' ``standing`` orders.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator, Mapping, Sequence

from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.game import BaseRules, EventDict, Outcome, Pending, Viewer, register
from engine.memoir import legal, turn
from engine.memoir.board import SEATS
from engine.memoir.codec import dump_state, load_state
from engine.memoir.orders import SYSTEM, Order, Timeout, format_order, parse_order
from engine.memoir.state import MemoirState

HIDDEN = "?"


def new_game(options: Mapping[str, Any], dice: Dice) -> tuple[MemoirState, list[Event]]:
    return turn.new_game(options, dice)


def apply(state: MemoirState, order: Order, dice: Dice) -> tuple[MemoirState, list[Event]]:
    return turn.apply(state, order, dice)


def apply_text(state: MemoirState, seat: str, text: str, dice: Dice) -> tuple[MemoirState, list[Event]]:
    return turn.apply(state, parse_order(state, seat, text), dice)


def view(state: MemoirState, viewer: Viewer) -> MemoirState:
    hands = tuple(h if viewer.holds(s) else (HIDDEN,) * len(h) for s, h in zip(SEATS, state.hands))
    drawn = state.drawn if viewer.holds(state.active) else (HIDDEN,) * len(state.drawn)
    standing = tuple(v if viewer.holds(s) else HIDDEN for s, v in zip(SEATS, state.standing))
    return replace(state, hands=(hands[0], hands[1]), deck=(HIDDEN,) * len(state.deck), drawn=drawn,
                   standing=(standing[0], standing[1]))


def event_view(event: EventDict, viewer: Viewer) -> EventDict | None:
    owner = event.get("private_to")
    if owner is None or viewer.holds(str(owner)):
        return event
    kind = event.get("type")
    if kind == "CardDrawn":
        return {"type": "CardDrawn", "seat": event.get("seat"), "card": None}
    if kind == "CardsDealt":
        return {"type": "CardsDealt", "seat": event.get("seat"), "cards": None,
                "count": len(event.get("cards") or ())}
    return None


def order_view(seat: str, text: str, viewer: Viewer) -> str | None:
    if text.strip().lower().startswith("standing") and not viewer.holds(seat):
        return None
    return text


class MemoirRules(BaseRules):
    kind = "memoir"
    title = "Memoir '44"
    seats: tuple[str, ...] = SEATS
    timeout_policies: tuple[str, ...] = ("done", "forfeit")

    def new_game(self, options: Mapping[str, Any], dice: Dice) -> tuple[MemoirState, Sequence[Event]]:
        return new_game(options, dice)

    def parse_order(self, state: MemoirState, seat: str, text: str) -> Order:
        return parse_order(state, seat, text)

    def format_order(self, state: MemoirState, order: Order) -> str:
        return format_order(order)

    def legal_orders(self, state: MemoirState, seat: str) -> Iterator[Order]:
        return legal.legal_orders(state, seat)

    def apply(self, state: MemoirState, order: Order, dice: Dice) -> tuple[MemoirState, Sequence[Event]]:
        return apply(state, order, dice)

    def pending(self, state: MemoirState) -> Sequence[Pending]:
        return legal.pending(state)

    def outcome(self, state: MemoirState) -> Outcome | None:
        return state.outcome

    def timeout(self, state: MemoirState, policy: str, dice: Dice) -> tuple[MemoirState, Sequence[Event]]:
        return apply(state, Timeout(SYSTEM, policy), dice)

    def view(self, state: MemoirState, viewer: Viewer) -> MemoirState:
        return view(state, viewer)

    def event_view(self, event: EventDict, viewer: Viewer) -> EventDict | None:
        return event_view(event, viewer)

    def order_view(self, seat: str, text: str, viewer: Viewer) -> str | None:
        return order_view(seat, text, viewer)

    def dump_state(self, state: MemoirState) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> MemoirState:
        return load_state(data)


RULES = MemoirRules()
register(RULES)
