"""The dice race's front: narration, decisions, buttons, reports (one per round, with the
board image).  It only ever sees events and states as a viewer may see them."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.front import BaseFront, EventDict, Report
from bot.context import Attachment
from engine.core.game import Pending
from tests.toygame.engine import Race
from tests.toygame.render import board_png


class RaceFront(BaseFront):
    kind = "race"
    group = "race"
    title = "Dice race"
    noun = "game"

    def narrate(self, events: Sequence[EventDict], state: Any) -> list[str]:
        out: list[str] = []
        for e in events:
            t = e["type"]
            if t == "SecretChosen":
                out.append(f"Your secret number is {e['number']}.")
            elif t == "Ready":
                out.append(f"{e['seat']} chose a secret number.")
            elif t == "Rolled":
                out.append(f"🎲 {e['seat']} rolls {e['value']}: {e['score']}.")
            elif t == "Passed":
                out.append(f"{e['seat']} passes.")
            elif t == "Boosted":
                out.append(f"🚀 {e['seat']} boosts by its secret {e['number']}: {e['score']}.")
            elif t == "RoundEnded":
                out.append(f"— end of round {e['round']} —")
            elif t == "Won":
                out.append(f"🏆 {e['seat']} wins with {e['score']}!")
        return out

    def slash(self, order: str) -> str | None:
        words = order.split()
        if words[:1] == ["secret"] and len(words) == 2:
            return f"/race secret number:{words[1]}"
        if len(words) == 1 and words[0] in ("roll", "pass", "boost"):
            return f"/race {words[0]}"
        return None

    def decision(self, state: Any, pending: Pending) -> str:
        if pending.decision.startswith("choose"):
            return "choose your secret number: /race secret number:1|2|3"
        return "your turn: /race roll, /race pass or /race boost"

    def phase_start(self, event: EventDict) -> bool:
        return event.get("type") == "RoundEnded"

    def report(self, state: Any, events: Sequence[EventDict], *, over: bool) -> Report:
        assert isinstance(state, Race)
        title = "Final" if over else f"After round {state.round - 1}"
        image = Attachment("race.png", board_png(state, title))
        return Report(f"📜 **{title}**", tuple(self.narrate(events, state)), (image,))

    def opened(self, state: Any, options: Mapping[str, Any]) -> list[str]:
        assert isinstance(state, Race)
        return [f"First to {state.target} wins."]

    def status(self, state: Any) -> list[str]:
        assert isinstance(state, Race)
        return [f"Round {state.round}: red {state.scores[0]}, blue {state.scores[1]}"
                f" (target {state.target})."]


FRONT = RaceFront()
