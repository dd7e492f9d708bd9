"""Small builders for A&A test positions: an empty board of a set-up, units put where a
test wants them, a phase of a power's turn, scripted orders."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Sequence

from engine.aa.combat import plan_battles
from engine.aa.game import apply_text, new_game
from engine.aa.state import COMBAT, COMBAT_MOVE, MOBILISE, NONCOMBAT, PURCHASE, RESEARCH, AAState, Unit
from engine.core.dice import scripted_dice, seeded_dice
from engine.core.events import Event

FULL_TURN = (RESEARCH, PURCHASE, COMBAT_MOVE, COMBAT, NONCOMBAT, MOBILISE)


def fresh(setup: str = "1941", **options: Any) -> AAState:
    state, _ = new_game({"setup": setup, **options}, seeded_dice(0))
    return state


def empty(setup: str = "1941", **options: Any) -> AAState:
    """The set-up's control, IPCs and factories, but no units at all."""
    return replace(fresh(setup, **options), units={}, next_id=1)


def add(state: AAState, power: str, kind: str, where: str, n: int = 1, **fields: Any) -> AAState:
    units = dict(state.units)
    nid = state.next_id
    for _ in range(n):
        units[nid] = Unit(nid, kind, power, where, **fields)
        nid += 1
    return replace(state, units=units, next_id=nid)


def ids(state: AAState, power: str, kind: str, where: str) -> list[int]:
    return [u.id for u in state.units_at(where) if u.owner == power and u.kind == kind]


def turn(state: AAState, power: str, phase: str, phases: Sequence[str] = FULL_TURN) -> AAState:
    """``power``'s turn, at ``phase`` (the rest of its phases after it)."""
    order = state.turn_order
    idx = order.index(power) if power in order else order.index("United States")
    steps = tuple((power, p) for p in phases)
    hostile = frozenset(z for z in state.board.names if state.board.is_sea(z) and state.enemy_surface(z, power))
    return replace(state, turn=idx, steps=steps, step=[p for _, p in steps].index(phase),
                   control_start=dict(state.control), hostile_start=hostile)


def in_combat(state: AAState, power: str) -> AAState:
    """``power`` in conduct combat, with the battles its units' positions call for."""
    state = turn(state, power, COMBAT)
    return replace(state, sites=plan_battles(state))


def play(state: AAState, seat: str, *texts: str, dice: Iterable[int] = ()) -> tuple[AAState, list[Event]]:
    d = scripted_dice(dice)
    events: list[Event] = []
    for text in texts:
        state, ev = apply_text(state, seat, text, d)
        events.extend(ev)
    assert not d.remaining, f"unused scripted dice {d.remaining}"
    return state, events


def kinds_at(state: AAState, where: str, power: str | None = None) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in state.units_at(where):
        if power is None or u.owner == power:
            out[u.kind] = out.get(u.kind, 0) + 1
    return out
