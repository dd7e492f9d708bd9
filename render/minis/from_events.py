"""Overlays for what just happened, built from the engine's events.

The overlay types stay independent of the event classes; this adapter is the one place
that knows both, so the bot can write ``board(state, overlays=overlays_from_events(
state, events))`` after a phase.  Hexes of attackers and targets are read from
``state`` (the state after the events: units stay on the map until the casualty phase,
M-5.6), except defensive fire, whose target was in the hex the event names (M-12.2).
"""

from __future__ import annotations

from typing import Iterable

from engine.core.events import Event
from engine.core.hexgrid import Hex
from engine.minis.events import Attacked, DefensiveFireEvent, Moved
from engine.minis.state import MinisState
from render.overlays import AttackLine, MovedPath, Overlay


def attack_result(e: Attacked) -> str:
    """A few words for the label on an attack line."""
    if e.effect == "counters":
        n = len(e.counters)
        return f"{n} hit" if n == 1 else f"{n} hits"
    if e.effect == "none":
        return "cover" if e.covered else "miss"
    return e.effect  # "disrupted", "stopped", "destroyed"


def _hex_of(state: MinisState, unit_id: str) -> Hex | None:
    for u in state.units:
        if u.id == unit_id:
            return u.hex
    return None


def overlays_from_events(state: MinisState, events: Iterable[Event]) -> list[Overlay]:
    """MovedPath for every move (defensive-fire points and stops included) and an
    AttackLine for every attack, in event order."""
    evs = list(events)
    fire_at: dict[tuple[str, str], Hex] = {}
    for e in evs:
        if isinstance(e, DefensiveFireEvent):
            fire_at[(e.defender, e.mover)] = e.at
    out: list[Overlay] = []
    for e in evs:
        if isinstance(e, Moved) and e.path:
            path = tuple(e.path)
            # keep only adjacent steps (a move backed up along its path, M-6.3, repeats hexes)
            steps = [path[0]]
            for h in path[1:]:
                if h != steps[-1] and h.distance(steps[-1]) == 1:
                    steps.append(h)
            out.append(MovedPath(e.unit, tuple(steps), tuple(h for h in e.defensive_fire_at if h in steps),
                                 stopped=e.stopped is not None))
        elif isinstance(e, Attacked):
            src = _hex_of(state, e.attacker)
            defensive = e.kind == "defensive"
            dst = fire_at.get((e.attacker, e.target)) if defensive else None
            dst = dst or _hex_of(state, e.target)
            if src is not None and dst is not None:
                out.append(AttackLine(src, dst, attack_result(e), defensive=defensive))
    return out
