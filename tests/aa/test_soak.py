"""Soak: random legal games from both set-ups, every invariant after every order, then
an exact replay from the order log (canonical texts and recorded dice; timeouts logged
as their own rows).

At least 200 games last 3 rounds or more.  Each game runs to a victory or to its round
limit; the victory target is a set-up option (A-3.2) and the soak mixes the book's 13
with lower ones so that some games end in a victory-city win (the random player prefers
attacking, engine.aa.randomplay).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from engine.aa.codec import dump_state, load_state
from engine.aa.events import Victory
from engine.aa.game import apply, apply_text, new_game, timeout
from engine.aa.orders import format_order
from engine.aa.randomplay import TIMEOUT, random_order
from engine.core.dice import replay_dice, seeded_dice

from .invariants import Ledger, check

GAMES = 210
LONG_GAMES = 20  # played on to a victory


def options_for(seed: int) -> dict[str, Any]:
    rng = random.Random(f"options/{seed}")
    setup = "1941" if seed % 2 == 0 else "1942"
    if seed < LONG_GAMES:
        target = 14 if setup == "1941" else rng.choice([11, 12])
    else:
        target = rng.choice([15, 18] if setup == "1941" else [13, 15, 18])
    # both casualty rules and both rules of aircraft retreating from a landing
    # the bot's new games' and the older games' (replayed)
    return {"setup": setup, "victory_cities": target, "research": rng.random() < 0.8,
            "national_objectives": rng.random() < 0.8, "casualties": "earliest" if seed % 3 else "by-class",
            "landing_retreat": seed % 4 != 0}


def play_one(seed: int, seen: Counter[str]) -> int:
    rng = random.Random(seed)
    options = options_for(seed)
    rounds = 8 if seed < LONG_GAMES else 3
    d0 = seeded_dice(f"{seed}/start")
    state, _ = new_game(options, d0)
    start_dice = tuple(d0.rolled)
    log: list[tuple[str, str, tuple[Any, ...]]] = []
    ledger = Ledger()
    n = 0
    while state.outcome is None and state.round <= rounds:
        assert n < 20000, f"game {seed} does not end"
        seat, order = random_order(state, rng)
        dice = seeded_dice(f"{seed}/{n}")
        before = state
        if order == TIMEOUT:
            state, events = timeout(state, "done", dice)
            log.append((seat, TIMEOUT, tuple(dice.rolled)))
            seen["timeout"] += 1
        else:
            assert not isinstance(order, str)
            text = format_order(order)
            state, events = apply(before, order, dice)
            log.append((seat, text, tuple(dice.rolled)))
            seen[type(order).__name__] += 1
        check(before, state, events, ledger)
        for e in events:
            seen[type(e).__name__] += 1
            if isinstance(e, Victory):
                seen["victory"] += 1
                seen["victory " + options["setup"]] += 1
        n += 1
    final = dump_state(state)
    json.dumps(final)
    assert load_state(final) == state
    replayed, _ = new_game(options, replay_dice(start_dice))
    for seat, text, rolled in log:
        if text == TIMEOUT:
            replayed, _ = timeout(replayed, "done", replay_dice(rolled))
        else:
            replayed, _ = apply_text(replayed, seat, text, replay_dice(rolled))
    assert dump_state(replayed) == final, f"game {seed}: the replay differs"
    return state.round - 1 if state.outcome is None else state.round


def test_soak_random_games_keep_every_invariant_and_replay_exactly() -> None:
    seen: Counter[str] = Counter()
    rounds = [play_one(seed, seen) for seed in range(GAMES)]
    assert sum(1 for r in rounds if r >= 3) >= 200
    assert seen["victory 1941"] > 0 and seen["victory 1942"] > 0, "a set-up never reached a victory-city win"
    for kind in ("Research", "Buy", "First", "Move", "Load", "Unload", "Fight", "Casualties", "Continue",
                 "Retreat", "Submerge", "Place", "Done", "Auto", "LossOrder", "timeout"):
        assert seen[kind] > 0, f"the soak never issued {kind}"
    for event in ("Captured", "Bombed", "Researched", "ChineseRecruits", "Lost", "Income", "Submerged",
                  "Retreated", "Placed"):
        assert seen[event] > 0, f"the soak never produced {event}"
