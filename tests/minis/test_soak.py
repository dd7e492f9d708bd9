"""Soak: 500 random legal games from the real catalogue on random configurations,
played to the end with the invariants checked after every order, then replayed from
the order log (texts + recorded dice) to the same final state.

To stay near a minute of CPU the games use small armies (1–4 units), end phases
often (engine.minis.randomplay.Policy), and mix Standard and Assault scenarios.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from engine.core.dice import replay_dice, seeded_dice
from engine.minis.codec import dump_state
from engine.minis.events import Attacked, DefensiveFireEvent, MovementRoll, Victory
from engine.minis.game import apply, apply_text, new_game
from engine.minis.orders import format_order
from engine.minis.randomplay import random_order
from engine.minis.state import Phase

from .invariants import check

GAMES = 500


def play_one(seed: int, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    scenario = rng.choice(["standard", "standard", "assault"])
    options = {"scenario": scenario, "map": "random" if scenario == "standard" else rng.choice(["defender", 3]),
               "attacker": rng.choice(["axis", "allies"]) if scenario == "assault" else None,
               "stacking": rng.choice([2, 2, 3]), "standing": rng.choice(["ask", "ask", "first", "hold", "vehicles"])}
    d0 = seeded_dice(f"{seed}/start")
    state, _ = new_game(options, d0)
    start_dice = tuple(d0.rolled)
    log: list[tuple[str, str, tuple[int, ...]]] = []
    n = 0
    while state.phase is not Phase.OVER:
        assert n < 5000, f"game {seed} does not end"
        seat, order = random_order(state, rng)
        text = format_order(order, state)
        dice = seeded_dice(f"{seed}/{n}")
        state, events = apply(state, order, dice)
        check(state, events)
        log.append((seat, text, tuple(dice.rolled)))
        seen[type(order).__name__] += 1
        for e in events:
            seen[type(e).__name__] += 1
            if isinstance(e, Victory):
                seen["reason: " + e.reason.split("(")[-1]] += 1
        n += 1
    final = dump_state(state)
    json.dumps(final)
    replayed, _ = new_game(options, replay_dice(start_dice))
    for seat, text, rolled in log:
        replayed, _ = apply_text(replayed, seat, text, replay_dice(rolled))
    assert dump_state(replayed) == final, f"game {seed}: the replay differs"


def test_soak_500_random_games_keep_every_invariant_and_replay_exactly() -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        play_one(seed, seen)
    # The soak must have reached the interesting parts of the rules.
    for kind in ("ArmyList", "Ready", "ChooseFirst", "Deploy", "DeployAboard", "Move", "Face", "Attack", "Board",
                 "Dismount", "Fire", "Hold", "Standing", "Timeout", "Done", "ChooseMap", "ChooseObjective"):
        assert seen[kind] > 0, f"the soak never issued {kind}"
    for event in (Attacked, DefensiveFireEvent, MovementRoll, Victory):
        assert seen[event.__name__] > 0, f"the soak never produced {event.__name__}"
    assert seen["Victory"] == GAMES
    assert seen["reason: M-4.2)"] > 0 and seen["reason: M-4.3)"] > 0 and seen["reason: M-17.4)"] > 0
