"""A&A Miniatures engine speed: random legal games played to the end.

The games are the soak test's (engine.minis.randomplay: real catalogue, random
configuration, small armies, phases ended often); every order goes through the full
``apply`` with recorded dice.  CPU time of this process only.
"""

from __future__ import annotations

import random
import time
from typing import Iterable

from engine.core.dice import seeded_dice
from engine.minis.game import apply, new_game
from engine.minis.randomplay import random_order
from engine.minis.state import Phase

GAMES = 40


def _play(seed: int) -> int:
    rng = random.Random(seed)
    scenario = "assault" if seed % 3 == 0 else "standard"
    state, _ = new_game({"scenario": scenario, "map": "random" if scenario == "standard" else "defender"},
                        seeded_dice(seed))
    orders = 0
    while state.phase is not Phase.OVER:
        _, order = random_order(state, rng)
        state, _ = apply(state, order, seeded_dice(f"{seed}/{orders}"))
        orders += 1
    return orders


def figures() -> Iterable[tuple[str, object]]:
    _play(-1)  # warm the caches (catalogue, maps, step tables)
    start = time.process_time()
    orders = sum(_play(seed) for seed in range(GAMES))
    spent = time.process_time() - start
    yield "minis-random-games-per-second", round(GAMES / spent, 1)
    yield "minis-orders-per-second", round(orders / spent)
