"""A tiny two-seat dice race used to test the generic pipeline (session, storage,
undo, replay, scheduler) independently of any real game.

Seats "red" and "blue" alternate.  ``roll`` adds a d6 to your score; ``pass`` does
nothing; ``timeout done`` (system) passes for whoever is waiting.  First to 10 wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from engine.core.dice import Dice
from engine.core.errors import IllegalOrder, NotationError, NotYourTurn
from engine.core.events import Event
from engine.core.game import Outcome, Pending, register


@dataclass(frozen=True)
class Race:
    scores: tuple[int, int] = (0, 0)
    turn: int = 0  # index of the seat to act
    target: int = 10


@dataclass(frozen=True)
class Rolled(Event):
    seat: str
    value: int
    score: int


class RaceRules:
    kind = "race"
    title = "Dice race (test game)"
    seats = ("red", "blue")

    def new_game(self, options: Mapping[str, Any], dice: Dice) -> tuple[Race, Sequence[Event]]:
        first = dice.roll(2) - 1  # who starts is rolled, so creation consumes a die
        return Race(turn=first, target=int(options.get("target", 10))), ()

    def apply_text(self, state: Race, player: str, text: str, dice: Dice) -> tuple[Race, Sequence[Event]]:
        words = text.split()
        if self.outcome(state):
            raise IllegalOrder("The race is over.")
        waiting = self.seats[state.turn]
        if player == "system":
            if words != ["timeout", "done"] and words != ["timeout", "hold"]:
                raise NotationError(f"unknown system order {text}")
            return replace(state, turn=1 - state.turn), ()
        if player != waiting:
            raise NotYourTurn(f"It is {waiting}'s turn.")
        if words == ["pass"]:
            return replace(state, turn=1 - state.turn), ()
        if words != ["roll"]:
            raise NotationError(f"'{text}' is not an order.", legal=("roll", "pass"))
        value = dice.roll(6)
        scores = list(state.scores)
        scores[state.turn] += value
        new = replace(state, scores=(scores[0], scores[1]), turn=1 - state.turn)
        return new, (Rolled(player, value, scores[state.turn]),)

    def pending(self, state: Race) -> Sequence[Pending]:
        if self.outcome(state):
            return ()
        return (Pending(self.seats[state.turn], "roll or pass", ("roll", "pass")),)

    def outcome(self, state: Race) -> Outcome | None:
        for i, score in enumerate(state.scores):
            if score >= state.target:
                return Outcome(self.seats[i], f"reached {state.target}")
        return None

    def dump_state(self, state: Race) -> dict[str, Any]:
        return {"scores": list(state.scores), "turn": state.turn, "target": state.target}

    def load_state(self, data: Mapping[str, Any]) -> Race:
        return Race(tuple(data["scores"]), data["turn"], data["target"])  # type: ignore[arg-type]


RULES = register(RaceRules())
