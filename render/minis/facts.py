"""Facts the pictures show, read from the state.

Rules proper live in the engine; this module only reads.  Objective control is the
rules' own ``engine.minis.victory`` (M-4.1).
"""

from __future__ import annotations

from typing import Mapping

from engine.core.hexgrid import Hex
from engine.minis import victory
from engine.minis.state import MinisState, Phase, UnitState


def on_map_units(state: MinisState) -> list[UnitState]:
    """Deployed, not yet removed units; passengers are listed with their transports."""
    return [u for u in state.units if u.on_map]


def objective_holder(state: MinisState, objective: Hex) -> str | None:
    """M-4.1 (with M-1.2 adjacency, distance ≤ 1): the only side with a unit adjacent to
    the objective, else None (nobody, or contested)."""
    return victory.controller(state, objective)


def objectives(state: MinisState) -> tuple[Hex, ...]:
    """The battle's objectives: the scenario's (M-17.2 lets the defender choose one),
    else the map's (a state built by hand)."""
    return state.objectives or tuple(state.map.objectives)


def zone_sides(state: MinisState) -> dict[str, str]:
    """Deployment zone name → the side deploying there, once the ends are chosen."""
    return {zone: side for side, zone in state.ends.items()}


def demolished_bridges(state: MinisState) -> frozenset[tuple[Hex, Hex]]:
    """Bridges destroyed by Bridge Demolition (M-13.6)."""
    return frozenset(e for e in state.destroyed_bridges if e in state.map.bridges)


def outcome_text(state: MinisState, side_names: Mapping[str, str]) -> str | None:
    """"Axis won: …" / "Drawn: …" once the battle is over."""
    out = state.outcome
    if out is None:
        return None
    head = f"{side_names.get(out.winner, str(out.winner))} won" if out.winner else "Drawn"
    return f"{head}: {out.reason}" if out.reason else head


def contested(state: MinisState, objective: Hex) -> bool:
    """More than one side has a unit adjacent to the objective."""
    return len(victory.sides_near(state, objective)) > 1


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
