"""Hypothesis properties over positions reached by random legal play:

* every order ``legal_orders`` yields is accepted by ``apply`` (never raises);
* ``format_order`` → ``parse_order`` round-trips every such order;
* ``apply`` never changes its input; a bad order changes nothing and raises a PlayerError;
* invariants hold after every order (IPCs never negative, units appear only by placement
  and vanish only by reported losses, …); snapshots round-trip through JSON."""

from __future__ import annotations

import json
import random
from functools import lru_cache
from itertools import islice

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.aa.codec import dump_state, load_state
from engine.aa.game import RULES, apply, new_game, pending, timeout
from engine.aa.legal import legal_orders
from engine.aa.orders import format_order, parse_order
from engine.aa.randomplay import TIMEOUT, random_order
from engine.aa.state import POWERS, AAState
from engine.core.dice import seeded_dice
from engine.core.errors import PlayerError

from .invariants import Ledger, check


@lru_cache(maxsize=64)
def position(seed: int, steps: int) -> AAState:
    rng = random.Random(seed)
    state, _ = new_game({"setup": "1941" if seed % 2 else "1942", "casualties": "earliest" if seed % 3 else "by-class"},
                        seeded_dice(seed))
    ledger = Ledger()
    for n in range(steps):
        if state.outcome is not None:
            break
        seat, order = random_order(state, rng)
        before = state
        d = seeded_dice(f"{seed}/{n}")
        state, events = timeout(state, "done", d) if order == TIMEOUT else apply(state, order, d)  # type: ignore[arg-type]
        check(before, state, events, ledger)
    return state


POSITIONS = st.tuples(st.integers(0, 30), st.integers(0, 500))


@settings(max_examples=30, deadline=None)
@given(where=POSITIONS, pick=st.randoms(use_true_random=False))
def test_legal_orders_are_accepted_and_round_trip(where: tuple[int, int], pick: random.Random) -> None:
    state = position(*where)
    snapshot = dump_state(state)
    seats = [p.player for p in pending(state)] + [pick.choice(POWERS)]
    for seat in seats:
        orders = list(islice(legal_orders(state, seat), 60))
        for order in pick.sample(orders, min(8, len(orders))):
            text = format_order(order)
            assert parse_order(state, seat, text) == order, text
            assert RULES.canonical(state, seat, text) == text
            new, events = apply(state, order, seeded_dice(text))
            check(state, new, events, None)
    assert dump_state(state) == snapshot  # apply never changed its input


@settings(max_examples=30, deadline=None)
@given(where=POSITIONS, text=st.sampled_from([
    "", "move", "move 2 inf", "move 99 inf: Germany -> Poland", "move 1 inf: Germany -> Atlantis",
    "buy 500 battleship", "buy 3 zeppelin", "place 1 inf: Germany", "casualties 9 bat", "retreat Mars",
    "research -1 chart 3", "battle Germany", "load 1 tank: Germany -> 40 Sea Zone", "unload 1 inf: 5 -> Norway",
    "land 1 fig: 1 Sea Zone -> Brazil", "rocket Germany -> Japan", "submerge 9", "first Italy", "auto maybe",
    "ool inf, inf", "done now", "move #99999: Germany -> Poland", "continue", "bomb 1 inf: Germany -> Poland",
]), seat=st.sampled_from(POWERS))
def test_bad_orders_raise_a_player_error_and_change_nothing(where: tuple[int, int], text: str, seat: str) -> None:
    state = position(*where)
    snapshot = dump_state(state)
    try:
        RULES.apply_text(state, seat, text, seeded_dice(0))
    except PlayerError as err:
        assert err.text()
    assert dump_state(state) == snapshot


@settings(max_examples=25, deadline=None)
@given(where=POSITIONS)
def test_snapshots_round_trip_through_json(where: tuple[int, int]) -> None:
    state = position(*where)
    data = json.loads(json.dumps(RULES.dump_state(state)))
    assert load_state(data) == state
    assert RULES.load_state(data) == state
