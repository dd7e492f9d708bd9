"""Facts the pictures show that are derived from the state's documented fields.

Rules proper live in the engine; this module only reads.  ``objective_holder`` follows
M-4.1 and is used until the rules module offers its own function (see
``render.minis.board``: the engine's function is preferred when present).
"""

from __future__ import annotations

from engine.core.hexgrid import Hex
from engine.minis.state import MinisState, Phase, UnitState


def on_map_units(state: MinisState) -> list[UnitState]:
    """Deployed, not yet removed units; passengers are listed with their transports."""
    return [u for u in state.units if u.on_map]


def objective_holder(state: MinisState, objective: Hex) -> str | None:
    """M-4.1 (with M-1.2 adjacency, distance ≤ 1): the only side with a unit adjacent to
    the objective, else None (nobody, or contested)."""
    sides = {u.side for u in on_map_units(state) if u.hex is not None and u.hex.distance(objective) <= 1}
    return next(iter(sides)) if len(sides) == 1 else None


def contested(state: MinisState, objective: Hex) -> bool:
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
