"""The snapshot codec's memos: a state after an order reuses the map and card documents
of the state before (nothing rebuilt), and a snapshot loaded again — in a render worker,
after another process's change — reuses the map and cards loaded from an equal document.
Equal content shares, different content never does."""

from __future__ import annotations

import copy
import json
import pickle
import random

from engine.core.dice import seeded_dice
from engine.minis.codec import dump_state, load_state
from engine.minis.game import apply, new_game
from engine.minis.randomplay import Policy, random_order
from engine.minis.state import MinisState


def _states(seed: int, orders: int) -> list[MinisState]:
    dice = seeded_dice(seed)
    state, _ = new_game({}, dice)
    rng = random.Random(seed)
    out = [state]
    for _ in range(orders):
        _, order = random_order(state, rng, Policy(p_timeout=0.0, p_standing=0.0, max_units=3))
        state, _ = apply(state, order, dice)
        out.append(state)
    return out


def _played(seed: int, orders: int) -> MinisState:
    return _states(seed, orders)[-1]


def test_an_unchanged_map_and_card_set_dump_to_the_same_documents() -> None:
    *_, before, after = _states(3, 6)
    a, b = dump_state(before), dump_state(after)
    assert before.map is after.map and before.cards is after.cards
    assert a["map"] is b["map"] and a["cards"] is b["cards"]
    assert a["units"] is not b["units"]


def test_equal_documents_load_to_the_same_map_and_cards_and_round_trip() -> None:
    state = _played(5, 6)
    doc = json.loads(json.dumps(dump_state(state)))
    other = pickle.loads(pickle.dumps(doc))  # as a render worker receives it
    one, two = load_state(doc), load_state(copy.deepcopy(other))
    assert one.map is two.map and one.cards is two.cards
    # the document as dumped (shared sub-objects, its own key order) is the same content
    assert load_state(dump_state(state)).map is one.map
    assert dump_state(one) == dump_state(two) == dump_state(state)  # BattleMap compares by identity
    changed = copy.deepcopy(doc)
    changed["cards"][0]["cost"] += 1
    three = load_state(changed)
    assert three.cards is not one.cards and three.map is one.map
    key = changed["cards"][0]["key"]
    assert three.cards[key].cost == one.cards[key].cost + 1
