"""M-4 Winning (Standard), M-17.4 (Assault) and the victory rules of custom scenarios.

* Control (M-4.1): a side controls an objective if it is the only side with a unit
  adjacent to it (same hex included, M-1.2).  Ruling: passengers count, as they are on
  the map.  With several objectives (custom scenarios), a side "controls the
  objectives" when it controls more of them than the other side.
* Points (M-4.3, Ruling M-4.4): the cost of every unit on the map, damaged, disrupted
  and aboard included; destroyed units count nothing.
* Ruling (annihilation): a side with no unit left on the map at the end of a turn
  loses at once; if neither has any, the game is drawn.
"""

from __future__ import annotations

from engine.core.hexgrid import Hex
from engine.minis.model import SIDES, other_side
from engine.minis.state import MinisState


def sides_near(state: MinisState, objective: Hex) -> frozenset[str]:
    """The sides with a unit adjacent to the objective (M-1.2: distance 0 or 1)."""
    return frozenset(u.side for u in state.units
                     if u.on_map and u.hex is not None and u.hex.distance(objective) <= 1)


def controller(state: MinisState, objective: Hex) -> str | None:
    """M-4.1: the only side with a unit adjacent to the objective, else nobody."""
    near = sides_near(state, objective)
    return next(iter(near)) if len(near) == 1 else None


def controls_objectives(state: MinisState) -> str | None:
    if not state.objectives:
        return None
    counts = {s: 0 for s in SIDES}
    for h in state.objectives:
        c = controller(state, h)
        if c is not None:
            counts[c] += 1
    a, b = counts[SIDES[0]], counts[SIDES[1]]
    if a == b:
        return None
    return SIDES[0] if a > b else SIDES[1]


def points_on_map(state: MinisState, side: str) -> int:
    return sum(state.cards[u.card].cost for u in state.units if u.side == side and u.on_map)


def end_of_turn_winner(state: MinisState) -> tuple[str | None, str] | None:
    """Who wins at the end of the current turn, with the reason; None to play on.
    ``(None, reason)`` is a draw."""
    sc = state.scenario_def
    alive = {s: any(u.on_map for u in state.units if u.side == s) for s in SIDES}
    if not alive[SIDES[0]] and not alive[SIDES[1]]:
        return None, "no units left on either side"
    for s in SIDES:
        if not alive[s]:
            return other_side(s), f"the {s} have no units left on the map"
    v = sc.victory
    turn = state.turn
    if v.rule == "hold":
        assert v.side is not None
        if turn < v.turn:
            return None
        if controls_objectives(state) == v.side:
            return v.side, f"the {v.side} control the objective at the end of turn {turn} (M-17.4)"
        return other_side(v.side), f"the {v.side} do not control the objective at the end of turn {turn} (M-17.4)"
    if turn >= v.from_turn:
        c = controls_objectives(state)
        if c is not None:
            return c, f"the {c} control the objective at the end of turn {turn} (M-4.2)"
    if v.points_turn is not None and turn >= v.points_turn:
        pa, pb = points_on_map(state, SIDES[0]), points_on_map(state, SIDES[1])
        if pa != pb:
            w = SIDES[0] if pa > pb else SIDES[1]
            return w, f"{w} ahead on points {max(pa, pb)} to {min(pa, pb)} at the end of turn {turn} (M-4.3)"
    if v.last_turn is not None and turn >= v.last_turn:
        return None, f"nobody won by the end of turn {turn}, the last turn"
    return None
