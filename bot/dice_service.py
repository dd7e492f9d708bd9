"""The one dice service: every die in Warroom comes from here.

Each game gets its own generator, seeded from the operating system (or, for local
scripts and tests, from ``--seed`` and the game id).  Each order gets an
:class:`OrderDice` whose values come, in this order, from: results queued by the local
channel's ``!dice`` directive (never reachable from Discord), dice carried over from
undone orders, dice handed back by an order that failed (so that retrying sees exactly
the dice the failed attempt saw: no re-roll fishing), then fresh dice.  Everything an order consumed is stored with it, so replay never rolls again.
"""

from __future__ import annotations

import os
import random
from collections import deque
from dataclasses import dataclass
from typing import Iterable, Sequence

from engine.core.dice import RecordingDice, rng_dice


@dataclass
class OrderDice:
    """The dice lent to one order, and where each queued value came from."""

    dice: RecordingDice
    game_id: int | None
    scripted: tuple[int, ...]
    given_back: tuple[int, ...]
    carry: tuple[int, ...]

    @property
    def rolled(self) -> tuple[int, ...]:
        return self.dice.values

    @property
    def carry_left(self) -> tuple[int, ...]:
        """The carried-over dice this order did not use: still carried if it is applied."""
        return self._unused()[2]

    def _unused(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        used = len(self.dice.rolled)
        parts = []
        for part in (self.scripted, self.carry, self.given_back):
            take = min(used, len(part))
            parts.append(part[take:])
            used -= take
        return parts[0], parts[2], parts[1]


class DiceService:
    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._games: dict[int, random.Random] = {}
        self._quick = self._new_rng("quick")
        self._scripted: deque[int] = deque()
        self._given_back: dict[int, deque[int]] = {}

    def _new_rng(self, key: str) -> random.Random:
        if self._seed is None:
            return random.Random(int.from_bytes(os.urandom(32), "big"))
        return random.Random(f"warroom:{self._seed}:{key}")

    # -- local channel and tests only ------------------------------------------------
    def queue(self, values: Iterable[int]) -> None:
        """Queue exact results for the next dice rolled (the ``!dice`` directive)."""
        self._scripted.extend(values)

    @property
    def queued(self) -> tuple[int, ...]:
        return tuple(self._scripted)

    # -- everyone ----------------------------------------------------------------------
    def for_game(self, game_id: int, carry: Sequence[int] = ()) -> OrderDice:
        rng = self._games.get(game_id)
        if rng is None:
            rng = self._games[game_id] = self._new_rng(f"game:{game_id}")
        scripted = tuple(self._scripted)
        self._scripted.clear()
        back = tuple(self._given_back.pop(game_id, ()))
        carried = tuple(carry)
        return OrderDice(rng_dice(rng, (*scripted, *carried, *back)), game_id, scripted, back, carried)

    def quick(self) -> OrderDice:
        """Dice for commands outside any game (``/roll``)."""
        scripted = tuple(self._scripted)
        self._scripted.clear()
        return OrderDice(rng_dice(self._quick, scripted), None, scripted, (), ())

    def settle(self, order: OrderDice, *, applied: bool) -> tuple[int, ...]:
        """After an order: put unused queued values back where they came from and
        return the carry-over that remains.  A failed order leaves every queue as it
        found it, and the fresh dice it rolled wait for that game's next order, so
        retrying cannot fish for new results."""
        if applied:
            scripted, back, carry = order._unused()
        else:
            scripted, carry = order.scripted, order.carry
            prefix = len(order.scripted) + len(order.given_back) + len(order.carry)
            back = order.given_back + order.rolled[prefix:]
        self._scripted.extendleft(reversed(scripted))
        if order.game_id is not None and back:
            self._given_back[order.game_id] = deque(back)
        return carry
