"""What a phase report shows, read from the engine's events: the overlays (paths, attack
arrows), the units removed in it, the points where the action was (for the close-up) and
the title naming the phase.

The overlay types stay independent of the event classes; this adapter is the one place
that knows both.  Events may be the engine's objects or their ``to_dict()`` form from the
order log.

Where things were: the state given is the one *after* the events.  Walking the events
backwards from it undoes every move (``Moved``: the unit was at the path's first hex
before), so each attack is drawn from the hex its attacker fired from — also when it
moved afterwards (Strike and Fade) — at the hex its target was in.  Defensive fire
(M-12.2) is drawn to the hex where the mover was fired on.  Units removed in the events
(the casualty phase, M-16.3, or at once) keep their last hex in the state and are drawn
there as ghosts, so the arrows that removed them point at something.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, Union

from engine.core.events import Event
from engine.core.hexgrid import Hex
from engine.minis import events as E
from engine.minis.state import MinisState, Phase
from render.minis import facts
from render.minis.overlays import AttackLine, MovedPath, Overlay
from render.minis.theme import theme

EventLike = Union[Event, Mapping[str, Any]]


def attack_result(e: E.Attacked) -> str:
    """A few words for the label on an attack line."""
    if e.effect == "counters":
        n = len(e.counters)
        return f"{n} hit" if n == 1 else f"{n} hits"
    if e.effect == "none":
        return "cover" if e.covered else "miss"
    return e.effect  # "disrupted", "stopped", "destroyed"


# ---------------------------------------------------------------------------- events back
@lru_cache(maxsize=None)
def _event_classes() -> dict[str, type[Event]]:
    return {name: cls for name, cls in vars(E).items()
            if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event}


@lru_cache(maxsize=None)
def _hints(name: str) -> dict[str, Any]:
    return typing.get_type_hints(_event_classes()[name], vars(E))


def _coerce(value: Any, hint: Any) -> Any:
    if value is None:
        return None
    if hint is Hex:
        return value if isinstance(value, Hex) else Hex(int(value[0]), int(value[1]))
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _coerce(value, inner[0]) if len(inner) == 1 else value
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(v, args[0]) for v in value)
        return tuple(_coerce(v, a) for v, a in zip(value, args))
    return value


def event_from_dict(d: Mapping[str, Any]) -> Event | None:
    """A Minis event back from its ``to_dict()`` form (None for an unknown type)."""
    cls = _event_classes().get(str(d.get("type")))
    if cls is None:
        return None
    hints = _hints(cls.__name__)
    fields = {f.name: _coerce(d[f.name], hints.get(f.name)) for f in dataclasses.fields(cls) if f.name in d}
    try:
        return cls(**fields)
    except TypeError:
        return None


def read_events(events: Iterable[EventLike]) -> list[Event]:
    out: list[Event] = []
    for e in events:
        if isinstance(e, Mapping):
            back = event_from_dict(e)
            if back is not None:
                out.append(back)
        else:
            out.append(e)
    return out


# ---------------------------------------------------------------------------- the story
@dataclass(frozen=True)
class PhaseStory:
    """What the events of a phase report show on the map."""

    overlays: tuple[Overlay, ...]
    removed: tuple[str, ...]  # units removed from the map in these events (drawn as ghosts)
    focus: Mapping[Hex, float]  # where the action was, with weights (moves 1, attacks 2)
    title: str | None  # the phases reported, e.g. "Turn 3 · Assault (Allies) · Casualties"


def story(state: MinisState, events: Iterable[EventLike]) -> PhaseStory:
    evs = read_events(events)
    pos: dict[str, Hex] = {u.id: u.hex for u in state.units if u.hex is not None}
    fired_from: dict[int, Hex | None] = {}
    fired_at: dict[int, Hex | None] = {}
    for i in range(len(evs) - 1, -1, -1):
        e = evs[i]
        if isinstance(e, E.Attacked):
            fired_from[i] = pos.get(e.attacker)
            fired_at[i] = pos.get(e.target)
        elif isinstance(e, E.Moved) and e.path:
            pos[e.unit] = e.path[0]
        elif isinstance(e, E.Dismounted) and e.transport in pos:
            pos[e.unit] = pos[e.transport]
        elif isinstance(e, E.Deployed):
            pos.pop(e.unit, None)
    df_at: dict[tuple[str, str], Hex] = {}
    overlays: list[Overlay] = []
    focus: dict[Hex, float] = {}
    removed: list[str] = []

    def note(h: Hex | None, w: float) -> None:
        if h is not None and state.map.on_map(h):
            focus[h] = max(focus.get(h, 0.0), w)

    for i, e in enumerate(evs):
        if isinstance(e, E.DefensiveFireEvent):
            df_at[(e.defender, e.mover)] = e.at
        elif isinstance(e, E.Moved) and e.path:
            path = tuple(e.path)
            # keep only adjacent steps (a move backed up along its path, M-6.3, repeats hexes)
            steps = [path[0]]
            for h in path[1:]:
                if h != steps[-1] and h.distance(steps[-1]) == 1:
                    steps.append(h)
            fire = tuple(h for h in e.defensive_fire_at if h in steps)
            overlays.append(MovedPath(e.unit, tuple(steps), fire, stopped=e.stopped is not None))
            for h in steps:
                note(h, 1.0)
            for h in fire:
                note(h, 2.0)
            if e.stopped == "destroyed":
                removed.append(e.unit)
        elif isinstance(e, E.Attacked):
            defensive = e.kind == "defensive"
            src = fired_from.get(i)
            dst = df_at.get((e.attacker, e.target)) if defensive else None
            dst = dst or fired_at.get(i)
            if src is not None and dst is not None:
                overlays.append(AttackLine(src, dst, attack_result(e), defensive=defensive))
                note(src, 2.0)
                note(dst, 2.0)
        elif isinstance(e, E.Casualties):
            removed.extend(e.destroyed)
        elif isinstance(e, E.UnitDestroyed):
            removed.append(e.unit)
    ghosts = []
    for uid in dict.fromkeys(removed):
        u = next((x for x in state.units if x.id == uid), None)
        if u is not None and u.destroyed and u.carried_by is None and u.hex is not None:
            ghosts.append(uid)
            note(u.hex, 1.0)
    return PhaseStory(tuple(overlays), tuple(ghosts), focus, title_for(evs))


def overlays_from_events(state: MinisState, events: Iterable[EventLike]) -> list[Overlay]:
    """MovedPath for every move (defensive-fire points and stops included) and an
    AttackLine for every attack, in event order, each attack from where its attacker
    fired (see the module docstring)."""
    return list(story(state, events).overlays)


def title_for(events: Iterable[EventLike]) -> str | None:
    """The phases the events report, for a picture's title: "Turn 3 · Assault (Allies) ·
    Casualties", "Deployment (Axis)"; None when no phase started in them (the set-up)."""
    th = theme()
    started = [e for e in read_events(events) if isinstance(e, E.PhaseStarted)]
    if not started:
        return None
    parts: list[str] = []
    turn: int | None = None
    for p in started:
        try:
            phase = Phase(p.phase)
        except ValueError:
            continue
        if phase not in (Phase.ARMIES, Phase.DEPLOYMENT) and p.turn != turn:
            parts.append(f"Turn {p.turn}")
            turn = p.turn
        name = facts.PHASE_NAMES.get(phase, phase.value.title())
        if p.active and p.active in th.sides:
            name += f" ({th.sides[p.active].name})"
        parts.append(name)
    return " · ".join(parts) if parts else None
