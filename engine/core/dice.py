"""The injected dice source.

Rules never call ``random``; they receive a :class:`Dice` and call ``roll``.  Every die
rolled is recorded in order (``rolled``), so a game replays exactly from its order log
(:func:`replay_dice`) and tests script the dice (:func:`scripted_dice`).  Queued values
(the local channel's ``!dice`` directive, or dice carried over after an undo) are used
before any fresh draw.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Callable, Iterable, Protocol

from engine.core.errors import DiceExhausted


class Dice(Protocol):
    """What the rules see."""

    def roll(self, sides: int = 6) -> int: ...

    def roll_many(self, count: int, sides: int = 6) -> tuple[int, ...]: ...


class RecordingDice:
    """Dice that take queued values first, then ``draw(sides)``, and record each result."""

    def __init__(
        self,
        draw: Callable[[int], int] | None,
        queued: Iterable[int] = (),
        *,
        what: str = "dice",
    ) -> None:
        self._draw = draw
        self._queue: deque[int] = deque(queued)
        self._what = what
        self.rolled: list[int] = []

    def roll(self, sides: int = 6) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        if self._queue:
            value = self._queue.popleft()
            if not 1 <= value <= sides:
                raise DiceExhausted(f"{self._what}: queued {value} cannot come from a d{sides}")
        elif self._draw is not None:
            value = self._draw(sides)
        else:
            raise DiceExhausted(f"{self._what} ran out after {len(self.rolled)} dice")
        self.rolled.append(value)
        return value

    def roll_many(self, count: int, sides: int = 6) -> tuple[int, ...]:
        return tuple(self.roll(sides) for _ in range(count))

    @property
    def remaining(self) -> tuple[int, ...]:
        """Queued values not consumed yet."""
        return tuple(self._queue)


def seeded_dice(seed: int | str | bytes, queued: Iterable[int] = ()) -> RecordingDice:
    """Fresh dice from a private ``random.Random(seed)``: deterministic for a given seed."""
    rng = random.Random(seed)
    return RecordingDice(lambda sides: rng.randint(1, sides), queued)


def rng_dice(rng: random.Random, queued: Iterable[int] = ()) -> RecordingDice:
    """Dice drawn from a caller-owned generator (the bot's per-game generator)."""
    return RecordingDice(lambda sides: rng.randint(1, sides), queued)


def scripted_dice(values: Iterable[int]) -> RecordingDice:
    """Exactly these values, then an error: for tests."""
    return RecordingDice(None, values, what="scripted dice")


def replay_dice(values: Iterable[int]) -> RecordingDice:
    """The dice an order consumed when it was first applied: replay never rolls again."""
    return RecordingDice(None, values, what="replayed dice")
