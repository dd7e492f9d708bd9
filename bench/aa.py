"""A&A Anniversary engine speed (``python -m bench aa``).

- ``aa-random-rounds-per-second``: full game rounds (all six powers and China) of random
  legal play from both set-ups (engine.aa.randomplay: the attacking random player of the
  soak test), every order through the full ``apply`` with recorded dice; CPU time of
  this process only, the random player's choices included.
- ``aa-orders-per-second``: the orders of the same games.
"""

from __future__ import annotations

import random
import time
from typing import Iterable

from engine.aa.game import apply, new_game, timeout
from engine.aa.randomplay import TIMEOUT, random_order
from engine.core.dice import seeded_dice

GAMES = 12
ROUNDS = 4


def _play(seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    state, _ = new_game({"setup": "1941" if seed % 2 == 0 else "1942"}, seeded_dice(seed))
    orders = 0
    while state.outcome is None and state.round <= ROUNDS:
        _, order = random_order(state, rng)
        dice = seeded_dice(f"{seed}/{orders}")
        if order == TIMEOUT:
            state, _ = timeout(state, "done", dice)
        else:
            state, _ = apply(state, order, dice)  # type: ignore[arg-type]
        orders += 1
    return (state.round - 1 if state.outcome is None else state.round), orders


def figures() -> Iterable[tuple[str, object]]:
    _play(-1)  # warm the caches (board distances, profiles)
    start = time.process_time()
    rounds = orders = 0
    for seed in range(GAMES):
        r, n = _play(seed)
        rounds += r
        orders += n
    spent = time.process_time() - start
    yield "aa-random-rounds-per-second", round(rounds / spent, 1)
    yield "aa-orders-per-second", round(orders / spent)
