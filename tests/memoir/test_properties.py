"""Hypothesis properties over positions reached by random legal play: legal orders never
raise; notation round-trips; snapshots round-trip; hidden hands never reach another
seat's view (twin games that differ only in a secret look the same) or its events."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import islice

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.core.dice import seeded_dice
from engine.core.errors import PlayerError
from engine.core.game import PUBLIC, Viewer, visible_events
from engine.memoir import legal
from engine.memoir.game import RULES, apply, new_game
from engine.memoir.orders import format_order, parse_order
from engine.memoir.randomplay import random_order
from engine.memoir.scenario import SHIPPED
from engine.memoir.state import MemoirState

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LEGAL_CAP = 400  # the order step can offer thousands of unit sets; look at the first ones


def _play(seed: int, steps: int) -> tuple[MemoirState, list[dict[str, object]]]:
    rng = random.Random(seed)
    state, events = new_game({"scenario": SHIPPED[seed % 3], "ambush": "ask"}, seeded_dice(seed))
    log = [e.to_dict() for e in events]
    for n in range(steps):
        if state.over:
            break
        _, order = random_order(state, rng)
        state, more = apply(state, order, seeded_dice(f"{seed}/{n}"))
        log += [e.to_dict() for e in more]
    return state, log


positions = st.builds(_play, st.integers(0, 10_000), st.integers(0, 160))


@SETTINGS
@given(positions, st.randoms(use_true_random=False))
def test_legal_orders_never_raise(played: tuple[MemoirState, list[dict[str, object]]], rnd: random.Random) -> None:
    state, _ = played
    for seat in RULES.seats:
        orders = list(islice(legal.legal_orders(state, seat), LEGAL_CAP))
        if state.over:
            assert orders == []
            continue
        assert orders, f"no legal order for {seat}"
        for order in rnd.sample(orders, min(6, len(orders))):
            apply(state, order, seeded_dice(rnd.random()))


@SETTINGS
@given(positions)
def test_every_legal_order_round_trips_through_its_text(played: tuple[MemoirState, list[dict[str, object]]]) -> None:
    state, _ = played
    for seat in RULES.seats:
        for order in islice(legal.legal_orders(state, seat), LEGAL_CAP):
            text = format_order(order)
            assert parse_order(state, seat, text) == order, text
            assert RULES.canonical(state, seat, text) == text


@SETTINGS
@given(positions)
def test_snapshots_round_trip(played: tuple[MemoirState, list[dict[str, object]]]) -> None:
    state, _ = played
    data = json.loads(json.dumps(RULES.dump_state(state)))
    assert RULES.load_state(data) == state


@SETTINGS
@given(positions, st.randoms(use_true_random=False))
def test_twins_differing_in_a_hidden_hand_look_the_same_to_the_other_seat(
        played: tuple[MemoirState, list[dict[str, object]]], rnd: random.Random) -> None:
    state, _ = played
    for seat, watcher in (("axis", "allies"), ("allies", "axis")):
        hand = list(state.hand(seat))
        deck = list(state.deck)
        # swap the secret hand with cards of the (secret) deck
        k = min(len(hand), len(deck))
        picks = rnd.sample(range(len(deck)), k)
        for i, j in enumerate(picks):
            hand[i], deck[j] = deck[j], hand[i]
        hands = (tuple(hand), state.hands[1]) if seat == "axis" else (state.hands[0], tuple(hand))
        twin = replace(state, hands=hands, deck=tuple(deck))
        if sorted(hand) != sorted(state.hand(seat)):
            assert twin != state  # the twins really differ in a secret
        for viewer in (Viewer.of([watcher]), PUBLIC):
            assert RULES.view(twin, viewer) == RULES.view(state, viewer)


@SETTINGS
@given(positions)
def test_hidden_cards_never_appear_in_events_another_seat_sees(
        played: tuple[MemoirState, list[dict[str, object]]]) -> None:
    _, log = played
    for watcher in ("axis", "allies"):
        for e in visible_events(RULES, log, Viewer.of([watcher])):
            if e["type"] in ("CardDrawn", "CardsDealt") and e.get("seat") != watcher:
                assert e.get("card") is None and e.get("cards") is None, e
            if e["type"] == "StandingSet":
                assert e["seat"] == watcher
    for e in visible_events(RULES, log, PUBLIC):
        assert "private_to" not in e


@SETTINGS
@given(positions, st.text(max_size=30))
def test_garbage_text_is_refused_cleanly(played: tuple[MemoirState, list[dict[str, object]]], text: str) -> None:
    state, _ = played
    for seat in RULES.seats:
        try:
            order = parse_order(state, seat, text)
        except PlayerError:
            continue
        try:
            apply(state, order, seeded_dice(0))
        except PlayerError:
            pass
