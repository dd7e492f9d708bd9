"""M-3.3 … M-3.7 and M-17.2, M-17.3: choosing ends, the map and objective, deploying.

Zones: "end" is every hex within ``depth`` (5) columns of that short end of the map
(M-3.4; the map's own "west"/"east" zones when it defines them and depth is 5);
"half" is the half of the map at that end (M-17.3: the two sections of the defender's
half); a list of labels is a custom zone.  The first side to deploy picks its end —
with ``end west|east`` or simply by deploying in one end's zone — and the other side
gets the other end.  Units may deploy in rough terrain but not where they could not
enter (M-3.4); stacking applies.  A unit already placed may be placed again until its
side says ``done``; transports may start loaded (``deploy ax5 aboard ax3``, M-3.7).
Ruling: a Vehicle deployed without ``face`` faces the enemy end (NE from the west,
SW from the east).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from engine.core.errors import DataError, IllegalOrder
from engine.core.hexgrid import Hex
from engine.minis.model import BattleMap, other_side
from engine.minis.movement import can_enter, stack_ok
from engine.minis.state import MinisState, UnitState

ENDS = ("west", "east")
DEFAULT_FACING = {"west": 1, "east": 4}  # NE, SW on a flat-top board


@lru_cache(maxsize=256)
def end_columns(m: BattleMap, end: str, depth: int) -> frozenset[Hex]:
    cols = range(depth) if end == "west" else range(m.cols - depth, m.cols)
    return frozenset(m.labels.from_offset(c, r) for c in cols for r in range(m.rows))


def end_zone(m: BattleMap, end: str, depth: int) -> frozenset[Hex]:
    if depth == 5 and end in m.zones:
        return frozenset(m.zones[end])
    return end_columns(m, end, min(depth, m.cols))


def zone_for(state: MinisState, side: str, end: str | None = None) -> frozenset[Hex]:
    """The hexes where ``side`` may deploy (given its end, for "end"/"half" zones)."""
    sc = state.scenario_def
    spec = sc.zones[side]
    m = state.map
    if isinstance(spec, tuple):
        return frozenset(m.parse_hex(label) for label in spec)
    end = end or state.ends.get(side)
    if end is None:
        return frozenset()
    if spec == "half":
        return end_columns(m, end, m.cols // 2)
    return end_zone(m, end, sc.depth)


def picks_end(state: MinisState, side: str) -> bool:
    """Does this side still have to pick its end (it deploys first, "end"/"half" zones)?"""
    sc = state.scenario_def
    return (not isinstance(sc.zones[side], tuple) and side not in state.ends
            and other_side(side) not in state.ends)


def choose_end(state: MinisState, side: str, end: str) -> MinisState:
    ends = dict(state.ends)
    ends[side] = end
    ends[other_side(side)] = "east" if end == "west" else "west"
    return replace(state, ends=ends)


def end_of_hex(state: MinisState, side: str, h: Hex) -> str | None:
    """The only end whose zone holds ``h`` for this side (None if none or both)."""
    inside = [e for e in ENDS if h in zone_for(state, side, e)]
    return inside[0] if len(inside) == 1 else None


def deploy_problem(state: MinisState, u: UnitState, h: Hex) -> str | None:
    c = state.cards[u.card]
    lab = state.map.label(h)
    if not state.map.on_map(h):
        return f"{lab} is not on the map"
    zone = zone_for(state, u.side, state.ends.get(u.side) or end_of_hex(state, u.side, h))
    if h not in zone:
        return f"{lab} is outside your deployment zone (M-3.4)"
    if not can_enter(c, state.map.terrain_at(h)):
        return f"{c.name} cannot be in {state.map.terrain_at(h).value} (M-3.4)"
    placed = state.update_unit(u.id, hex=None, carried_by=None)
    if not stack_ok(placed, u, h):
        return f"{lab} is full (stacking, M-6.2)"
    return None


def legal_deploy_hexes(state: MinisState, u: UnitState) -> list[Hex]:
    side = u.side
    if state.ends.get(side):
        zone = zone_for(state, side)
    elif isinstance(state.scenario_def.zones[side], tuple):
        zone = zone_for(state, side)
    else:
        zone = frozenset().union(*(zone_for(state, side, e) for e in ENDS))
    return sorted(h for h in zone if deploy_problem(state, u, h) is None)


def check_objective(m: BattleMap, h: Hex) -> str | None:
    """M-17.2: not next to the map edge (Ruling: not in the outer ring of full hexes)."""
    if not m.on_map(h):
        return f"{m.label(h)} is not on the map"
    col, row = m.labels.to_offset(h)
    if col in (0, m.cols - 1) or row in (0, m.rows - 1):
        return f"{m.label(h)} is next to the map edge (M-17.2)"
    return None


def objectives_for(state: MinisState) -> tuple[Hex, ...]:
    sc = state.scenario_def
    if isinstance(sc.objectives, tuple):
        out = []
        for label in sc.objectives:
            try:
                out.append(state.map.parse_hex(label))
            except IllegalOrder:
                raise DataError(f"Scenario '{sc.name}': objective {label} is not on the map "
                                f"{state.map.name}.") from None
        return tuple(out)
    return tuple(state.map.objectives)
