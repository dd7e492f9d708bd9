"""Who controls what: capture, liberation, capitals (A-5.2, A-5.8, A-10.10 – A-10.12).

A captured territory's income, victory city, factory (damage kept) and the enemy's AA
guns in it pass to the new controller.  Taking a territory whose original controller is
an ally liberates it for that ally, unless the ally's capital is enemy-held (then the
liberator keeps it until the capital is freed); Chinese territories always go back to
China, and Kwangtung taken by China goes to the United Kingdom.  Taking an enemy capital
takes all the IPCs its owner holds, and the owner loses its researchers and its
mobilisation pool.  When a capital is freed, every original territory of its owner held
by an ally goes back to it.
"""

from __future__ import annotations

from dataclasses import replace

from engine.aa.events import Captured, Returned
from engine.aa.state import CHINA, SIDE, AAState
from engine.aa.units import AA_GUN
from engine.core.events import Event


def new_controller(state: AAState, territory: str, taker: str) -> str:
    """Who controls ``territory`` once ``taker`` takes it (A-10.11, A-5.2, A-5.8)."""
    b = state.board
    orig = b.space(territory).original
    if taker == CHINA and territory in b.china_passes_to:
        return b.china_passes_to[territory]
    if orig is None or orig == taker or SIDE[orig] != SIDE[taker]:
        return taker
    if b.space(territory).capital_of == orig:
        return orig  # a freed capital always goes back to its owner
    if orig == CHINA:
        return CHINA
    return orig if state.capital_held(orig) else taker


def capture(state: AAState, territory: str, taker: str) -> tuple[AAState, list[Event]]:
    """``taker`` takes ``territory`` (battle won, blitz, empty territory entered)."""
    b = state.board
    previous = state.control.get(territory)
    ctrl = new_controller(state, territory, taker)
    control = dict(state.control)
    control[territory] = ctrl
    ipcs = dict(state.ipcs)
    plunder = 0
    events: list[Event] = []
    capital_of = b.space(territory).capital_of
    fields: dict[str, object] = {}
    if capital_of is not None and previous is not None and SIDE[capital_of] != SIDE[taker] \
            and previous == capital_of:
        # the captor takes the owner's IPCs; the owner loses researchers and pool.
        plunder = ipcs.get(capital_of, 0)
        ipcs[capital_of] = 0
        ipcs[taker] = ipcs.get(taker, 0) + plunder
        researchers = dict(state.researchers)
        researchers[capital_of] = 0
        pool = dict(state.pool)
        pool.pop(capital_of, None)
        fields.update(researchers=researchers, pool=pool)
    changed = {}
    for u in state.units_at(territory):
        if u.kind == AA_GUN and SIDE[u.owner] != SIDE[taker]:
            changed[u.id] = replace(u, owner=ctrl, stop=True)
    units = dict(state.units)
    units.update(changed)
    new = replace(state, control=control, ipcs=ipcs, units=units,
                  captured=state.captured | {territory}, **fields)  # type: ignore[arg-type]
    events.append(Captured(territory, taker, previous, ctrl, plunder))
    if capital_of is not None and ctrl == capital_of and previous is not None \
            and SIDE[previous] != SIDE[capital_of]:
        new, more = return_originals(new, capital_of)
        events.extend(more)
    return new, events


def return_originals(state: AAState, power: str) -> tuple[AAState, list[Event]]:
    """A-10.12: the power's capital is free: its original territories held by allies go
    back to it (with their factories).  Also the end-of-turn re-check of A-10.11."""
    if not state.capital_held(power):
        return state, []
    control = dict(state.control)
    events: list[Event] = []
    for t, c in state.control.items():
        orig = state.board.space(t).original
        if orig == power and c != power and SIDE[c] == SIDE[power]:
            if c == CHINA and t in state.board.china_passes_to:
                continue
            control[t] = power
            events.append(Returned(t, power))
    if not events:
        return state, []
    return replace(state, control=control), events


def recheck_liberations(state: AAState) -> tuple[AAState, list[Event]]:
    """End of a turn (A-10.11 ruling): territories kept by a liberator go back to every
    ally whose capital is free again."""
    events: list[Event] = []
    for power in state.board.power_names:
        if power == CHINA:
            continue
        state, more = return_originals(state, power)
        events.extend(more)
    return state, events
