"""Facts the pictures show, read from the state.

Rules proper live in the engine; this module only reads.  Objective control is the
rules' own ``engine.minis.victory.controller`` (M-4.1) when it is available, else the
same rule computed here from the documented fields.  A few rules-bookkeeping fields
(the scenario's objectives, which end each side deploys from, demolished bridges, the
outcome) are read with ``getattr`` so that a state without them still renders.
"""

from __future__ import annotations

from typing import Callable, Mapping

from engine.core.hexgrid import Hex
from engine.minis.state import MinisState, Phase, UnitState


def on_map_units(state: MinisState) -> list[UnitState]:
    """Deployed, not yet removed units; passengers are listed with their transports."""
    return [u for u in state.units if u.on_map]


def _own_holder(state: MinisState, objective: Hex) -> str | None:
    sides = {u.side for u in on_map_units(state) if u.hex is not None and u.hex.distance(objective) <= 1}
    return next(iter(sides)) if len(sides) == 1 else None


def _rules_holder() -> Callable[[MinisState, Hex], str | None]:
    try:
        from engine.minis.victory import controller
    except ImportError:  # pragma: no cover - only without the rules module
        return _own_holder
    return controller


def objective_holder(state: MinisState, objective: Hex) -> str | None:
    """M-4.1 (with M-1.2 adjacency, distance ≤ 1): the only side with a unit adjacent to
    the objective, else None (nobody, or contested)."""
    return _rules_holder()(state, objective)


def objectives(state: MinisState) -> tuple[Hex, ...]:
    """The battle's objectives: the scenario's (M-17.2 lets the defender choose one)
    when the rules recorded them, else the map's."""
    chosen = getattr(state, "objectives", None)
    if isinstance(chosen, tuple) and chosen:
        return tuple(h for h in chosen if isinstance(h, Hex))
    return tuple(state.map.objectives)


def zone_sides(state: MinisState) -> dict[str, str]:
    """Deployment zone name → the side deploying there, when the ends are chosen."""
    ends = getattr(state, "ends", None)
    if not isinstance(ends, Mapping):
        return {}
    return {str(zone): str(side) for side, zone in ends.items()}


def demolished_bridges(state: MinisState) -> frozenset[tuple[Hex, Hex]]:
    """Bridges destroyed by Bridge Demolition (M-13.6)."""
    gone = getattr(state, "destroyed_bridges", None)
    if not isinstance(gone, frozenset):
        return frozenset()
    return frozenset(e for e in gone if e in state.map.bridges)


def outcome_text(state: MinisState, side_names: Mapping[str, str]) -> str | None:
    """"Axis won: …" / "Drawn: …" once the battle is over."""
    out = getattr(state, "outcome", None)
    if out is None:
        return None
    winner = getattr(out, "winner", None)
    reason = str(getattr(out, "reason", "") or "")
    head = f"{side_names.get(winner, str(winner))} won" if winner else "Drawn"
    return f"{head}: {reason}" if reason else head


def contested(state: MinisState, objective: Hex) -> bool:
    """More than one side has a unit adjacent to the objective."""
    sides = {u.side for u in on_map_units(state) if u.hex is not None and u.hex.distance(objective) <= 1}
    return len(sides) > 1


PHASE_NAMES = {
    Phase.ARMIES: "Choosing armies",
    Phase.DEPLOYMENT: "Deployment",
    Phase.INITIATIVE: "Initiative",
    Phase.MOVEMENT: "Movement",
    Phase.ASSAULT: "Assault",
    Phase.CASUALTY: "Casualties",
    Phase.OVER: "Battle over",
}

PHASE_VERBS = {
    Phase.DEPLOYMENT: "to deploy",
    Phase.MOVEMENT: "to move",
    Phase.ASSAULT: "to act",
    Phase.INITIATIVE: "to decide",
    Phase.CASUALTY: "to resolve",
    Phase.ARMIES: "to choose",
}
