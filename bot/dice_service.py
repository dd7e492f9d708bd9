"""The one dice service: every die in Warroom comes from here.

Game dice are *bound to seats*.  Each game has a secret key drawn from the operating
system when it is created, and each seat of the game its own stream of dice derived from
that key (``engine.core.dice.stream_die``: die number *i* of a seat's stream is a pure
function of the key, the game's public id, the seat and *i*).  The game row remembers how
many dice of each stream the orders in effect have used (``dice_positions``); an order
takes the next dice of its own seat's stream and the position moves on only when the
order is stored.  So:

- a refused order (illegal, or beaten by someone else's change) stored nothing: trying
  again sees exactly the same dice — failing cannot fish for new results;
- an undone order gives its positions back to *its* seat: that seat's next order rolls
  the very same dice — never handed to the other seat, never skipped;
- nothing about dice lives in the process: any process derives the same dice.

The creation of a game rolls from the ``setup`` stream, a timeout from the ``system``
stream.  The ``setup`` stream is keyed by the seed itself; every other stream by the
seed mixed with the players' entropy (:func:`stream_key`, docs/fair-dice.md).  The local
channel's ``!dice`` directive queues exact results that the next dice rolled take
instead (scripts and tests only; unreachable from Discord).  Quick rolls (``/roll``) come
from the channel's seed of the day (bot/roll_ledger.py); ``warroom roll`` uses a
generator of its own.
"""

from __future__ import annotations

import hashlib
import os
import random
import secrets
from collections import deque
from typing import Any, Iterable, Mapping

from engine.core.dice import RecordingDice, play_key, rng_dice, stream_die
from engine.core.errors import DiceExhausted

SETUP, SYSTEM = "setup", "system"
# The game option that marks a provably fair game and holds its players' entropy
# (``{"v": 1, "entropy": {seat: sha256 hex}}``; docs/fair-dice.md).
FAIR = "fair_dice"
# The export's ``scheme`` of a game from before fair dice: every stream keyed by the seed.
SEED_ONLY = "warroom-seed-only"


def new_fair(entropy: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``fair_dice`` option of a new game (every game created since fair dice)."""
    return {"v": 1, "entropy": dict(entropy or {})}


def fair_entropy(options: Mapping[str, Any]) -> dict[str, str] | None:
    """The players' entropy digests of a fair game (None: a game from before fair dice,
    whose every stream is keyed by the seed itself)."""
    fair = options.get(FAIR)
    if not isinstance(fair, Mapping):
        return None
    return {str(k): str(v) for k, v in dict(fair.get("entropy") or {}).items()}


def stream_key(seed: bytes, uid: str, options: Mapping[str, Any], stream: str) -> bytes:
    """The key of one of a game's streams: the seed for ``setup`` (rolled at creation,
    before anyone joined) and for games from before fair dice; the play key (the seed
    mixed with the players' entropy, :func:`engine.core.dice.play_key`) otherwise."""
    entropy = fair_entropy(options)
    if entropy is None or (stream or SETUP) == SETUP:
        return seed
    return play_key(seed, uid, entropy)


def stream_label(uid: str, seat: str) -> str:
    """The label of a seat's dice stream in a game (docs/fair-dice.md)."""
    return f"{uid}/{seat or SETUP}"


class SeatRoller:
    """The dice one seat rolls during one change of a game: scripted values first (local
    only), then the seat's stream from its current position.  :meth:`order` gives a fresh
    recording source per order; :attr:`position` is where the stream stands after them."""

    def __init__(self, service: "DiceService", key: bytes, label: str, position: int) -> None:
        self._service = service
        self._key = key
        self._label = label
        self.position = position
        self._taken: list[int] = []

    def _draw(self, sides: int) -> int:
        scripted = self._service._scripted
        if scripted:
            value = scripted.popleft()
            self._taken.append(value)
            if not 1 <= value <= sides:
                raise DiceExhausted(f"scripted die {value} cannot come from a d{sides}")
        else:
            value = stream_die(self._key, self._label, self.position, sides)
        self.position += 1
        return value

    def order(self) -> RecordingDice:
        return RecordingDice(self._draw)

    def give_back(self) -> None:
        """The change was not stored: scripted values go back to the front of the queue
        (stream positions are simply not saved)."""
        self._service._scripted.extendleft(reversed(self._taken))
        self._taken = []


class DiceService:
    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._made = 0
        self._quick = self._new_rng("quick")
        self._scripted: deque[int] = deque()

    def _new_rng(self, key: str) -> random.Random:
        if self._seed is None:
            return random.Random(int.from_bytes(os.urandom(32), "big"))
        return random.Random(f"warroom:{self._seed}:{key}")

    # -- a new game -----------------------------------------------------------------
    def new_secret(self) -> tuple[str, bytes]:
        """A public game id and a secret dice key: from the operating system, or (local
        scripts and tests given ``--seed``) derived from the seed, so runs repeat."""
        if self._seed is None:
            return secrets.token_hex(8), secrets.token_bytes(32)
        self._made += 1
        digest = hashlib.sha256(f"warroom:{self._seed}:game:{self._made}".encode()).digest()
        return digest[:8].hex(), hashlib.sha256(b"key" + digest).digest()

    def roll_seed(self, channel_id: int, day: str) -> bytes:
        """The secret seed of a channel's quick rolls for one UTC day (bot/roll_ledger.py):
        from the operating system, or derived from ``--seed`` so scripts repeat."""
        if self._seed is None:
            return secrets.token_bytes(32)
        return hashlib.sha256(f"warroom:{self._seed}:roll:{channel_id}:{day}".encode()).digest()

    # -- local channel and tests only ------------------------------------------------
    def queue(self, values: Iterable[int]) -> None:
        """Queue exact results for the next dice rolled (the ``!dice`` directive)."""
        self._scripted.extend(values)

    @property
    def queued(self) -> tuple[int, ...]:
        return tuple(self._scripted)

    # -- everyone ----------------------------------------------------------------------
    def roller(self, key: bytes, uid: str, seat: str, position: int) -> SeatRoller:
        return SeatRoller(self, key, stream_label(uid, seat), position)

    def quick(self) -> RecordingDice:
        """Dice for commands outside any game (``/roll``): scripted values first."""
        rng = self._quick
        scripted = tuple(self._scripted)
        self._scripted.clear()
        return rng_dice(rng, scripted)

    def give_back_quick(self, dice: RecordingDice) -> None:
        """Scripted values a quick command did not use stay queued."""
        self._scripted.extendleft(reversed([v for v in dice.remaining if isinstance(v, int)]))
