"""What must hold after every order of a Memoir '44 game (the soak and the properties)."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from engine.core.events import Event
from engine.memoir.board import BOARD, SEATS, other
from engine.memoir.state import MemoirState
from engine.memoir.tables import full_deck
from engine.memoir.turn import medals, shown_medals

DECK = frozenset(full_deck())


def cards_in_play(state: MemoirState) -> list[str]:
    """The card played this turn while it has not reached the discard pile yet (in step 5
    it goes there, and a reshuffle may then take it into the deck)."""
    p = state.played
    if p is None or not p.card:
        return []
    elsewhere = set(state.deck) | set(state.discard) | set(state.drawn) | set(state.hands[0]) | set(state.hands[1])
    if state.step in ("order", "move", "battle"):
        assert p.card not in elsewhere, "the card in play is also elsewhere"
    return [] if p.card in elsewhere else [p.card]


def check(state: MemoirState, events: Sequence[Event], start_units: Counter[str]) -> None:
    # figures: on the board, one unit per hex, 1..strength figures, never on impassable ground
    hexes = [u.hex for u in state.units]
    assert len(set(hexes)) == len(hexes), "two units on one hex"
    ids = [u.id for u in state.units]
    assert len(set(ids)) == len(ids)
    for u in state.units:
        assert u.hex in BOARD, u
        assert 1 <= u.figures <= u.strength, u
        assert not state.terrain(u.hex).impassable, u
        ob = state.obstacle(u.hex)
        assert ob is None or ob.may_enter(u.type) or (u.type == "artillery" and ob.name == "bunker"), u
    # medals: each kill is an enemy unit gone; shown medals are capped
    alive = Counter(u.side for u in state.units)
    for seat in SEATS:
        kills = state.kills[SEATS.index(seat)]
        assert kills <= start_units[other(seat)] - alive[other(seat)], (seat, kills)
        assert 0 <= shown_medals(state)[SEATS.index(seat)] <= state.scenario.target(seat)
    if state.outcome is None:
        for seat in SEATS:
            assert medals(state, seat) < state.scenario.target(seat)
    else:
        assert state.step == "over" and state.fight is None
    # cards: deck + hands + discard (+ the Recon pair, + the card in play) are the 60, each once
    every = list(state.deck) + list(state.discard) + list(state.drawn) + cards_in_play(state)
    for hand in state.hands:
        every += list(hand)
    assert len(every) == 60 and set(every) == DECK, Counter(every).most_common(2)
    assert not set(state.hands[0]) & set(state.hands[1]), "a card in both hands"
    # the hands stay at their size, give or take the card in play, an Ambush, Recon and Pegasus
    for seat in SEATS:
        n = len(state.hand(seat))
        assert 0 <= n <= state.scenario.hand_size(seat) + 2, (seat, n)
    # an event about a hand is private to the hand's owner
    for e in events:
        d = e.to_dict()
        if d["type"] in ("CardDrawn", "CardsDealt", "StandingSet"):
            assert d.get("private_to") == d.get("seat")
