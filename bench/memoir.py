"""Memoir '44 engine speed: random legal games of the three shipped scenarios, played
to a victory (engine.memoir.randomplay); every order goes through the full ``apply``
with recorded dice.  CPU time of this process only."""

from __future__ import annotations

import random
import time
from typing import Iterable

from engine.core.dice import seeded_dice
from engine.memoir.game import apply, new_game
from engine.memoir.randomplay import random_order
from engine.memoir.scenario import SHIPPED

GAMES = 60


def _play(seed: int) -> int:
    rng = random.Random(seed)
    state, _ = new_game({"scenario": SHIPPED[seed % len(SHIPPED)]}, seeded_dice(seed))
    orders = 0
    while not state.over:
        _, order = random_order(state, rng)
        state, _ = apply(state, order, seeded_dice(f"{seed}/{orders}"))
        orders += 1
    return orders


def figures() -> Iterable[tuple[str, object]]:
    _play(-1)  # warm the caches (tables, scenarios, sight)
    start = time.process_time()
    orders = sum(_play(seed) for seed in range(GAMES))
    spent = time.process_time() - start
    yield "memoir-random-games-per-second", round(GAMES / spent, 1)
    yield "memoir-orders-per-second", round(orders / spent)
