"""Soak: 510 random legal games of the three shipped scenarios (170 each), played to a
victory with the invariants checked after every order, then replayed from the order
log (canonical texts + recorded dice) to the same final state.  Every 20th order also
checks that ``apply`` left its input state untouched."""

from __future__ import annotations

import random
from collections import Counter

from engine.core.dice import replay_dice, seeded_dice
from engine.memoir.codec import dump_state
from engine.memoir.game import apply, apply_text, new_game
from engine.memoir.orders import format_order
from engine.memoir.randomplay import random_order
from engine.memoir.scenario import SHIPPED
from engine.memoir.tables import card_kinds

from .invariants import check

GAMES = 510


def play_one(seed: int, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    options = {"scenario": SHIPPED[seed % 3], "ambush": rng.choice(["ask", "ask", "pass", "ambush"])}
    d0 = seeded_dice(f"{seed}/start")
    state, started = new_game(options, d0)
    for e in started:
        seen[type(e).__name__] += 1
    start_dice = tuple(d0.rolled)
    start_units = Counter(u.side for u in state.units)
    log: list[tuple[str, str, tuple[object, ...]]] = []
    n = 0
    while not state.over:
        assert n < 4000, f"game {seed} does not end"
        seat, order = random_order(state, rng)
        text = format_order(order)
        dice = seeded_dice(f"{seed}/{n}")
        before = dump_state(state) if n % 20 == 0 else None
        new, events = apply(state, order, dice)
        if before is not None:
            assert dump_state(state) == before, f"game {seed}: apply changed its input"
        state = new
        check(state, events, start_units)
        log.append((seat, text, tuple(dice.rolled)))
        seen[type(order).__name__] += 1
        for e in events:
            name = type(e).__name__
            seen[name] += 1
            if name == "CardPlayed":
                seen["effect " + e.to_dict()["effect"]] += 1
            if name == "Rolled":
                seen["rolled " + e.to_dict()["why"]] += 1
        n += 1
    assert state.outcome is not None
    seen["winner " + str(state.outcome.winner)] += 1
    final = dump_state(state)
    replayed, _ = new_game(options, replay_dice(start_dice))
    for seat, text, rolled in log:
        replayed, _ = apply_text(replayed, seat, text, replay_dice(rolled))  # type: ignore[arg-type]
    assert dump_state(replayed) == final, f"game {seed}: the replay differs"


def test_soak_510_random_games_keep_every_invariant_and_replay_exactly() -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        play_one(seed, seen)
    assert seen["Victory"] == GAMES and seen["winner axis"] > 0 and seen["winner allies"] > 0
    for kind in ("Play", "OrderUnits", "Target", "Move", "Battle", "ClearWire", "Done", "Ambush", "Pass", "Ignore",
                 "Retreat", "TakeGround", "Hold", "Discard", "Standing", "Timeout"):
        assert seen[kind] > 0, f"the soak never issued {kind}"
    for event in ("Airdropped", "Eliminated", "Retreated", "FlagsIgnored", "TookGround", "Healed", "DeckShuffled",
                  "BattleCancelled", "ObstacleChanged", "MedalsChanged"):
        assert seen[event] > 0, f"the soak never produced {event}"
    for kind in card_kinds():
        if kind not in ("ambush", "counter-attack"):
            assert seen["effect " + kind] > 0, f"no card ever had the effect of {kind}"
    assert seen["effect ambush"] > 0
    for why in ("battle", "overrun", "ambush", "air-power", "barrage"):
        assert seen["rolled " + why] > 0, f"no {why} dice were ever rolled"
