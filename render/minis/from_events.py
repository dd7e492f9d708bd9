"""Overlays for what just happened, built from the engine's events.

The overlay types stay independent of the event classes; this adapter is the one place
that knows both, so the bot can write ``board(state, overlays=overlays_from_events(
state, events))`` after a phase.  Hexes of attackers and targets are read from
``state`` (the state after the events: units stay on the map until the casualty phase,
M-5.6), except defensive fire, whose target was in the hex the event names (M-12.2).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

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


def _hexes(value: Any) -> tuple[Hex, ...]:
    return tuple(_hex(v) for v in value or ())


def _hex(value: Any) -> Hex:
    return value if isinstance(value, Hex) else Hex(int(value[0]), int(value[1]))


def _from_dict(d: Mapping[str, Any]) -> Event | None:
    """An event back from its ``to_dict()`` form (as stored in the order log), for the
    kinds this module uses; None for the others."""
    kind = d.get("type")
    fields = {k: v for k, v in d.items() if k != "type"}
    if kind == "Moved":
        for key in ("path", "planned", "backed_up", "defensive_fire_at"):
            if key in fields:
                fields[key] = _hexes(fields[key])
        return Moved(**fields)
    if kind == "DefensiveFireEvent":
        fields["at"] = _hex(fields["at"])
        return DefensiveFireEvent(**fields)
    if kind == "Attacked":
        for key in ("dice", "counters", "special"):
            if key in fields:
                fields[key] = tuple(fields[key])
        return Attacked(**fields)
    return None


def overlays_from_events(state: MinisState, events: Iterable[Event | Mapping[str, Any]]) -> list[Overlay]:
    """MovedPath for every move (defensive-fire points and stops included) and an
    AttackLine for every attack, in event order.  Events may be the engine's objects
    or their ``to_dict()`` form from the order log."""
    evs: list[Event] = []
    for e in events:
        if isinstance(e, Mapping):
            back = _from_dict(e)
            if back is not None:
                evs.append(back)
        else:
            evs.append(e)
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
