"""The dice race: a tiny but complete game on the engine contract (engine/core/game.py).

Seats ``red`` and ``blue``.  First each seat picks a secret number 1–3 (``secret N``;
only its owner sees it).  Then they alternate, the first player rolled at creation:
``roll`` adds a d6 to your score, ``pass`` does nothing, ``boost`` adds your secret number
once and reveals it.  Every round (both seats acted) ends with a ``RoundEnded`` event.
The first to reach the target wins.  On a timeout the waiting seat passes (or picks 1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping, Sequence

from engine.core.dice import Dice
from engine.core.errors import IllegalOrder, NotationError, NotYourTurn
from engine.core.events import Event
from engine.core.game import BaseRules, Outcome, Pending, Viewer

SEATS = ("red", "blue")


@dataclass(frozen=True)
class Race:
    scores: tuple[int, int] = (0, 0)
    turn: int = 0  # index of the seat to act
    target: int = 10
    secrets: tuple[int, int] = (0, 0)  # 0 = not chosen yet
    boosted: tuple[bool, bool] = (False, False)
    round: int = 1
    moves: int = 0  # orders in this round


@dataclass(frozen=True)
class Order:
    seat: str
    verb: str  # secret | roll | pass | boost
    number: int = 0


@dataclass(frozen=True)
class SecretChosen(Event):
    seat: str
    number: int
    private_to: str


@dataclass(frozen=True)
class Ready(Event):
    seat: str


@dataclass(frozen=True)
class Rolled(Event):
    seat: str
    value: int
    score: int


@dataclass(frozen=True)
class Passed(Event):
    seat: str


@dataclass(frozen=True)
class Boosted(Event):
    seat: str
    number: int
    score: int


@dataclass(frozen=True)
class RoundEnded(Event):
    round: int
    scores: tuple[int, int]


@dataclass(frozen=True)
class Won(Event):
    seat: str
    score: int


class RaceRules(BaseRules):
    kind = "race"
    title = "Dice race"
    seats = SEATS
    # Fixed at the start: stored apart from the rest of the snapshot (exercises
    # GameRules.snapshot_parts through every race test, migration included).
    snapshot_parts = ("target",)

    def new_game(self, options: Mapping[str, Any], dice: Dice) -> tuple[Race, Sequence[Event]]:
        target = options.get("target", 10)
        if not isinstance(target, int) or not 1 <= target <= 100:
            raise NotationError("The target must be a whole number from 1 to 100.", legal=("target:10",))
        first = dice.roll(2) - 1  # who starts is rolled, so creation consumes a die
        return Race(turn=first, target=target), ()

    def parse_order(self, state: Race, seat: str, text: str) -> Order:
        words = text.lower().split()
        if seat not in SEATS:
            raise NotationError(f"'{seat}' is not a seat.", legal=SEATS)
        if words[:1] == ["secret"] and len(words) == 2 and words[1] in ("1", "2", "3"):
            return Order(seat, "secret", int(words[1]))
        if len(words) == 1 and words[0] in ("roll", "pass", "boost"):
            return Order(seat, words[0])
        raise NotationError(f"'{text[:30]}' is not an order.", legal=("secret 2", "roll", "pass", "boost"))

    def format_order(self, state: Race, order: Order) -> str:
        return f"secret {order.number}" if order.verb == "secret" else order.verb

    def legal_orders(self, state: Race, seat: str) -> Iterator[Order]:
        i = SEATS.index(seat)
        if self.outcome(state):
            return
        if 0 in state.secrets:
            if not state.secrets[i]:
                yield from (Order(seat, "secret", n) for n in (1, 2, 3))
            return
        if state.turn == i:
            yield Order(seat, "roll")
            yield Order(seat, "pass")
            if not state.boosted[i]:
                yield Order(seat, "boost")

    def apply(self, state: Race, order: Order, dice: Dice) -> tuple[Race, Sequence[Event]]:
        if self.outcome(state):
            raise IllegalOrder("The race is over.")
        i = SEATS.index(order.seat)
        if order.verb == "secret":
            if state.secrets[i]:
                raise IllegalOrder("You already chose your secret number.")
            secrets = list(state.secrets)
            secrets[i] = order.number
            return (replace(state, secrets=(secrets[0], secrets[1])),
                    (SecretChosen(order.seat, order.number, private_to=order.seat), Ready(order.seat)))
        if 0 in state.secrets:
            raise IllegalOrder("Both players must choose their secret number first.", legal=("secret 2",))
        if state.turn != i:
            raise NotYourTurn(f"It is {SEATS[state.turn]}'s turn.")
        scores = list(state.scores)
        events: list[Event] = []
        boosted = list(state.boosted)
        if order.verb == "roll":
            value = dice.roll(6)
            scores[i] += value
            events.append(Rolled(order.seat, value, scores[i]))
        elif order.verb == "boost":
            if boosted[i]:
                raise IllegalOrder("You already used your boost.", legal=("roll", "pass"))
            boosted[i] = True
            scores[i] += state.secrets[i]
            events.append(Boosted(order.seat, state.secrets[i], scores[i]))
        else:
            events.append(Passed(order.seat))
        return self._next(state, scores, boosted, events, i)

    def _next(self, state: Race, scores: list[int], boosted: list[bool], events: list[Event],
              i: int) -> tuple[Race, Sequence[Event]]:
        new = replace(state, scores=(scores[0], scores[1]), boosted=(boosted[0], boosted[1]),
                      turn=1 - state.turn, moves=state.moves + 1)
        if scores[i] >= state.target:
            events.append(Won(SEATS[i], scores[i]))
        elif new.moves == 2:
            events.append(RoundEnded(state.round, new.scores))
            new = replace(new, round=state.round + 1, moves=0)
        return new, tuple(events)

    def pending(self, state: Race) -> Sequence[Pending]:
        if self.outcome(state):
            return ()
        if 0 in state.secrets:
            return tuple(Pending(s, "choose your secret number") for s, n in zip(SEATS, state.secrets) if not n)
        return (Pending(SEATS[state.turn], "roll, pass or boost", ("roll", "pass")),)

    def outcome(self, state: Race) -> Outcome | None:
        for i, score in enumerate(state.scores):
            if score >= state.target:
                return Outcome(SEATS[i], f"{SEATS[i]} reached {state.target}")
        return None

    def timeout(self, state: Race, policy: str, dice: Dice) -> tuple[Race, Sequence[Event]]:
        """The waiting seat picks 1 (secret) or passes."""
        if 0 in state.secrets:
            events: list[Event] = []
            for seat, n in zip(SEATS, state.secrets):
                if not n:
                    state, more = self.apply(state, Order(seat, "secret", 1), dice)
                    events.extend(more)
            return state, tuple(events)
        return self.apply(state, Order(SEATS[state.turn], "pass"), dice)

    def view(self, state: Race, viewer: Viewer) -> Race:
        """A seat's secret number is hidden from everyone else until it boosts."""
        secrets = tuple(n if viewer.holds(s) or state.boosted[i] else (-1 if n else 0)
                        for i, (s, n) in enumerate(zip(SEATS, state.secrets)))
        return replace(state, secrets=(secrets[0], secrets[1]))

    def order_view(self, seat: str, text: str, viewer: Viewer) -> str | None:
        return text if not text.startswith("secret") or viewer.holds(seat) else "secret ?"

    def dump_state(self, state: Race) -> dict[str, Any]:
        return {"scores": list(state.scores), "turn": state.turn, "target": state.target,
                "secrets": list(state.secrets), "boosted": list(state.boosted),
                "round": state.round, "moves": state.moves}

    def load_state(self, data: Mapping[str, Any]) -> Race:
        s, b, c = data["scores"], data.get("boosted", [False, False]), data.get("secrets", [0, 0])
        return Race((s[0], s[1]), data["turn"], data["target"], (c[0], c[1]), (b[0], b[1]),
                    data.get("round", 1), data.get("moves", 0))


RULES = RaceRules()
