"""Hypothesis properties over states reached by random play: every legal order applies
without error, orders print and parse back to themselves, and snapshots round-trip."""

from __future__ import annotations

import json
import random
from functools import lru_cache

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.core.dice import seeded_dice
from engine.core.errors import PlayerError
from engine.minis.codec import dump_state, load_state
from engine.minis.game import apply, legal_orders, new_game, pending
from engine.minis.orders import SYSTEM, format_order, parse_order
from engine.minis.randomplay import Policy, random_order
from engine.minis.state import MinisState, Phase

from .invariants import check

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=256)
def reached(seed: int, steps: int, prompt: bool = False) -> MinisState:
    """The state after ``steps`` random orders of game ``seed`` (or the end of the game);
    with ``prompt``, play on to the next defensive-fire prompt if there is one."""
    rng = random.Random(seed)
    scenario = "assault" if seed % 3 == 0 else "standard"
    state, _ = new_game({"scenario": scenario, "map": "random" if scenario == "standard" else "defender",
                         "stacking": 2 + seed % 2}, seeded_dice(seed))
    for n in range(steps + (400 if prompt else 0)):
        if state.phase is Phase.OVER or (prompt and n >= steps and state.move is not None):
            break
        _, order = random_order(state, rng, Policy(max_units=6, p_done=0.08))
        state, _ = apply(state, order, seeded_dice(f"{seed}/{n}"))
    return state


states = st.builds(reached, st.integers(0, 60), st.integers(0, 120), st.booleans())


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_legal_orders_never_raise(state: MinisState, rnd: random.Random) -> None:
    seats = [p.player for p in pending(state)] + [SYSTEM]
    for seat in seats:
        orders = list(legal_orders(state, seat))
        for order in rnd.sample(orders, min(len(orders), 25)):
            new, events = apply(state, order, seeded_dice(rnd.random()))
            check(new, events)


@SETTINGS
@given(states)
def test_format_then_parse_gives_the_same_order(state: MinisState) -> None:
    for seat in [p.player for p in pending(state)] + [SYSTEM]:
        for order in legal_orders(state, seat):
            assert parse_order(state, seat, format_order(order, state)) == order


@SETTINGS
@given(states)
def test_dump_and_load_round_trip(state: MinisState) -> None:
    data = dump_state(state)
    again = load_state(json.loads(json.dumps(data)))
    assert dump_state(again) == data
    for name in ("units", "turn", "phase", "active", "first_player", "armies", "ready", "chooser", "ends",
                 "objectives", "flags", "move", "standing", "destroyed_bridges", "used_once", "overheated",
                 "outcome", "options", "setup"):
        assert getattr(again, name) == getattr(state, name), name
    assert dict(again.cards) == dict(state.cards)
    assert (again.map.terrain, again.map.roads, again.map.zones) == (state.map.terrain, state.map.roads, state.map.zones)


@SETTINGS
@given(states, st.text(max_size=30))
def test_any_text_is_an_order_or_a_player_error(state: MinisState, text: str) -> None:
    for seat in ("axis", "allies"):
        try:
            parse_order(state, seat, text)
        except PlayerError:
            pass


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_an_order_from_the_wrong_seat_is_refused_before_any_die_is_rolled(state: MinisState, rnd: random.Random) -> None:
    from dataclasses import replace as dc_replace

    from engine.minis.model import other_side
    from engine.minis.orders import ArmyList, Concede, Timeout

    waiting = {p.player for p in pending(state)}
    if len(waiting) != 1:
        return
    (seat,) = waiting
    # Everyone may concede, and edit their own army list until both are final.
    orders = [o for o in legal_orders(state, seat) if not isinstance(o, (Concede, Timeout, ArmyList))]
    for order in rnd.sample(orders, min(len(orders), 15)):
        wrong = dc_replace(order, player=other_side(seat))
        dice = seeded_dice(0)
        try:
            apply(state, wrong, dice)
        except PlayerError:
            assert dice.rolled == []
        else:
            raise AssertionError(f"{wrong} was accepted from the wrong seat")
