"""Invariants every reachable battle state keeps (checked after each order in the soak)."""

from __future__ import annotations

from engine.core.events import Event
from engine.minis import abilities as ab
from engine.minis.events import ArmyListed, StandingOrderSet
from engine.minis.game import pending
from engine.minis.model import SIDES
from engine.minis.movement import may_stand, stacking_legal
from engine.minis.state import Hit, MinisState, Phase

PRIVATE_EVENTS = (ArmyListed, StandingOrderSet)


def check(state: MinisState, events: tuple[Event, ...] = ()) -> None:
    m = state.map
    # M-6.2 stacking (a unit in the middle of its move may pass through a full hex), and
    # no unit where it may not be (off the map, lake, marsh for Vehicles).
    moving = state.move.unit if state.move is not None else None
    settled = state if moving is None else state.update_unit(moving, hex=None)
    for h in {u.hex for u in settled.units if u.on_map and u.carried_by is None}:
        assert h is not None and m.on_map(h), f"a unit off the map at {h}"
        assert stacking_legal(settled, h), f"stacking broken in {m.label(h)}"
    for u in state.units:
        c = state.cards[u.card]
        if u.on_map and u.carried_by is None:
            assert u.hex is not None and may_stand(state, c, u.hex), f"{u.id} may not stand in {m.label(u.hex)}"
        # Counters (M-9): nothing after Destroyed, Damaged only on Vehicles and once,
        # destroyed units keep none, Soldiers are never damaged.
        if Hit.DESTROYED in u.hits:
            assert u.hits.index(Hit.DESTROYED) == len(u.hits) - 1, f"{u.id} counters after Destroyed: {u.hits}"
        assert u.hits.count(Hit.DAMAGED) <= 1 and u.hits.count(Hit.DISRUPTED) <= 1, f"{u.id}: {u.hits}"
        if c.is_soldier:
            assert Hit.DAMAGED not in u.hits and not u.damaged, f"{u.id} is a damaged Soldier"
        if u.destroyed:
            assert not u.hits and not u.disrupted and u.carried_by is None, f"{u.id} destroyed with counters"
        if c.is_vehicle and u.on_map:
            assert u.facing is not None and 0 <= u.facing < 6, f"{u.id} has no facing"
        # Passengers stay with their transport (M-15).
        if u.carried_by is not None:
            t = state.unit(u.carried_by)
            assert t.side == u.side and t.on_map and not u.destroyed, f"{u.id} aboard a missing {t.id}"
            assert u.hex == t.hex, f"{u.id} is not where its transport {t.id} is"
            assert ab.is_transport(state.cards[t.card]), f"{u.id} aboard a non-transport"
    for t in state.units:
        assert len(state.passengers(t.id)) <= ab.capacity(state.cards[t.card]), f"{t.id} over capacity"
    # Exactly one decision owner (two only while both build their armies), or game over.
    waiting = pending(state)
    if state.phase is Phase.OVER:
        assert waiting == [] and state.outcome is not None
    elif state.phase is Phase.ARMIES:
        assert 1 <= len(waiting) <= 2 and len({p.player for p in waiting}) == len(waiting)
    else:
        assert len(waiting) == 1 and waiting[0].player in SIDES, waiting
    # Hidden information: only army lists and standing orders are private.
    for e in events:
        if getattr(e, "private_to", None) is not None:
            assert isinstance(e, PRIVATE_EVENTS), e
