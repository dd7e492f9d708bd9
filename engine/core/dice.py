"""The injected dice source.

Rules never call ``random``; they receive a :class:`Dice` and call ``roll(sides)``.
Every die rolled is recorded in order as a :class:`Die` — its value *and* how many sides
it had (a d6, a d12, a card drawn from a deck of N is a die of N sides) — so a game
replays exactly from its order log (:func:`replay_dice`, which checks the sides) and
tests script the dice (:func:`scripted_dice`).

Fresh dice come from a *draw* function.  The bot's games draw from a keyed stream
(:func:`stream_die`): die number ``i`` of a stream is a pure function of the game's
secret key, the stream's label and ``i``, so the same position always gives the same
die (docs/fair-dice.md).  Shuffles are built from dice (:func:`shuffled`), so they are
recorded and replayed like any roll.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence, TypeVar

from engine.core.errors import DiceExhausted

T = TypeVar("T")


@dataclass(frozen=True)
class Die:
    """One recorded die: its result and its number of sides."""

    value: int
    sides: int

    def to_json(self) -> list[int]:
        return [self.value, self.sides]

    @classmethod
    def from_json(cls, raw: Any) -> "Die":
        """``[value, sides]``; a bare number is a d6 (order logs written before dice
        knew their kind held only d6 results)."""
        if isinstance(raw, (list, tuple)) and len(raw) == 2:
            return cls(int(raw[0]), int(raw[1]))
        return cls(int(raw), 6)


def dice_json(dice: Iterable[Die]) -> list[list[int]]:
    return [d.to_json() for d in dice]


def dice_from_json(raw: Iterable[Any]) -> tuple[Die, ...]:
    return tuple(Die.from_json(r) for r in raw)


class Dice(Protocol):
    """What the rules see."""

    def roll(self, sides: int = 6) -> int: ...

    def roll_many(self, count: int, sides: int = 6) -> tuple[int, ...]: ...


def shuffled(dice: Dice, items: Sequence[T]) -> tuple[T, ...]:
    """A uniform shuffle (Fisher–Yates) built from dice: for ``k`` from the length down to
    2, one die of ``k`` sides picks which of the first ``k`` items goes to place ``k``."""
    out = list(items)
    for k in range(len(out), 1, -1):
        j = dice.roll(k) - 1
        out[k - 1], out[j] = out[j], out[k - 1]
    return tuple(out)


def draw_index(dice: Dice, count: int) -> int:
    """Which of ``count`` things (0-based): one die of ``count`` sides."""
    return dice.roll(count) - 1


class RecordingDice:
    """Dice that take queued values first, then ``draw(sides)``, and record each die.

    A queued :class:`Die` (replay, carried dice) must have the sides asked for; a queued
    bare number (a script's ``!dice``) only has to fit on the die."""

    def __init__(
        self,
        draw: Callable[[int], int] | None,
        queued: Iterable[int | Die] = (),
        *,
        what: str = "dice",
    ) -> None:
        self._draw = draw
        self._queue: deque[int | Die] = deque(queued)
        self._what = what
        self.rolled: list[Die] = []
        self.drawn = 0  # how many dice came from ``draw`` (not from the queue)

    def roll(self, sides: int = 6) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        if self._queue:
            queued = self._queue.popleft()
            if isinstance(queued, Die):
                if queued.sides != sides:
                    raise DiceExhausted(
                        f"{self._what}: the next recorded die is a d{queued.sides}, "
                        f"but a d{sides} was asked for")
                value = queued.value
            else:
                value = queued
            if not 1 <= value <= sides:
                raise DiceExhausted(f"{self._what}: queued {value} cannot come from a d{sides}")
        elif self._draw is not None:
            value = self._draw(sides)
            self.drawn += 1
        else:
            raise DiceExhausted(f"{self._what} ran out after {len(self.rolled)} dice")
        self.rolled.append(Die(value, sides))
        return value

    def roll_many(self, count: int, sides: int = 6) -> tuple[int, ...]:
        return tuple(self.roll(sides) for _ in range(count))

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.rolled)

    @property
    def remaining(self) -> tuple[int | Die, ...]:
        """Queued values not consumed yet."""
        return tuple(self._queue)


# --------------------------------------------------------------------------- keyed streams


def stream_die(key: bytes, label: str, index: int, sides: int) -> int:
    """Die number ``index`` (0-based) of the stream ``label`` under ``key``: 1..sides.

    ``HMAC-SHA256(key, "label|index|attempt")``; its first 8 bytes, big-endian, are a
    number x below 2^64.  If x falls in the incomplete last block of 2^64 mod sides values
    the attempt is rejected and the next attempt is tried (so every face is exactly
    equally likely); otherwise the die is ``1 + x mod sides``."""
    if sides < 1:
        raise ValueError(f"a die needs at least one side, not {sides}")
    limit = (1 << 64) - ((1 << 64) % sides)
    attempt = 0
    while True:
        digest = hmac.digest(key, f"{label}|{index}|{attempt}".encode(), "sha256")
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            return 1 + x % sides
        attempt += 1


# The fair-dice scheme (docs/fair-dice.md): the game's secret seed is committed to by its
# SHA-256 at creation; the dice of the ``setup`` stream (rolled at creation, before anyone
# joined) are keyed by the seed itself, every other stream by the *play key*, an HMAC of
# the seed over the game id and the players' entropy contributions.
FAIR_SCHEME = "warroom-fair-dice-v1"


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def entropy_digest(text: str) -> str:
    """What a player's contribution adds: the SHA-256 (hex) of the text as given, without
    leading or trailing spaces, in UTF-8."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def play_key(seed: bytes, uid: str, entropy: Mapping[str, str]) -> bytes:
    """The key of every stream but ``setup``: ``HMAC-SHA256(seed, "warroom-fair-dice-v1|"
    + uid + "|" + "seat=digest,…")`` over the contributions' digests sorted by seat name."""
    mix = ",".join(f"{seat}={digest}" for seat, digest in sorted(entropy.items()))
    return hmac.digest(seed, f"{FAIR_SCHEME}|{uid}|{mix}".encode(), "sha256")


def stream_dice(key: bytes, label: str, start: int = 0,
                queued: Iterable[int | Die] = ()) -> RecordingDice:
    """Dice drawn from the keyed stream ``label`` from position ``start`` on (queued
    values, if any, come first and take the positions they fill)."""
    queue = tuple(queued)
    position = [start + len(queue)]  # every queued value is used before any draw

    def draw(sides: int) -> int:
        value = stream_die(key, label, position[0], sides)
        position[0] += 1
        return value

    return RecordingDice(draw, queue)


def seeded_dice(seed: int | str | bytes, queued: Iterable[int] = ()) -> RecordingDice:
    """Fresh dice from a private ``random.Random(seed)``: deterministic for a given seed."""
    rng = random.Random(seed)
    return RecordingDice(lambda sides: rng.randint(1, sides), queued)


def rng_dice(rng: random.Random, queued: Iterable[int] = ()) -> RecordingDice:
    """Dice drawn from a caller-owned generator."""
    return RecordingDice(lambda sides: rng.randint(1, sides), queued)


def scripted_dice(values: Iterable[int]) -> RecordingDice:
    """Exactly these values, then an error: for tests."""
    return RecordingDice(None, values, what="scripted dice")


def replay_dice(values: Iterable[Die | int]) -> RecordingDice:
    """The dice an order consumed when it was first applied: replay never rolls again,
    and a recorded die must be asked for with the same number of sides."""
    return RecordingDice(None, values, what="replayed dice")
