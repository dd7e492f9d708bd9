"""M-16 Casualty phase (both players at once).

1. Remove face-up Disrupted counters (except an Overheat counter, which survives its
   first casualty phase).
2. Flip the face-down counters.
3. Units with a Destroyed counter leave the map, with any Soldier aboard (M-15.3).
4. A Vehicle with a Damaged counter becomes damaged (Heavy Armor already refused its
   first Damaged counter when it was hit: attacks.place_counters).
5. Units with a Disrupted counter become disrupted.
"""

from __future__ import annotations

from dataclasses import replace

from engine.minis.events import Casualties
from engine.minis.state import Hit, MinisState


def casualty_phase(state: MinisState) -> tuple[MinisState, Casualties]:
    recovered: list[str] = []
    destroyed: list[str] = []
    damaged: list[str] = []
    disrupted: list[str] = []
    overheated = set(state.overheated)
    # Step 1.
    for u in state.units:
        if u.disrupted and not u.destroyed:
            if u.id in overheated:
                overheated.discard(u.id)
                continue
            state = state.update_unit(u.id, disrupted=False)
            recovered.append(u.id)
    # Steps 2 and 3.
    for u in state.units:
        if u.destroyed or not u.pending_destroyed:
            continue
        state = state.update_unit(u.id, destroyed=True, hits=(), carried_by=None)
        destroyed.append(u.id)
        for p in state.passengers(u.id):
            state = state.update_unit(p.id, destroyed=True, hits=())
            destroyed.append(p.id)
    # Steps 4 and 5.
    for u in state.units:
        if u.destroyed or not u.hits:
            continue
        changes: dict[str, object] = {"hits": ()}
        if Hit.DAMAGED in u.hits:
            changes["damaged"] = True
            damaged.append(u.id)
        if Hit.DISRUPTED in u.hits:
            changes["disrupted"] = True
            disrupted.append(u.id)
        state = state.update_unit(u.id, **changes)
    # Destroyed units keep no counters.
    for u in state.units:
        if u.destroyed and (u.disrupted or u.hits):
            state = state.update_unit(u.id, disrupted=False, hits=())
    state = replace(state, overheated=frozenset(overheated))
    recovered = [u for u in recovered if u not in destroyed]  # a destroyed unit recovers nothing
    return state, Casualties(state.turn, tuple(recovered), tuple(destroyed), tuple(damaged),
                             tuple(disrupted))
