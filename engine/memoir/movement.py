"""Movement (E-9, E-18) and retreat paths (E-14).

A move is a path of adjacent empty hexes.  :func:`paths` walks every legal path up to an
allowance (at most 3 hexes, so at most a few hundred paths) and keeps the shortest per
destination; :func:`check_path` checks one given path.  ``free`` (Behind Enemy Lines,
E-6.6) ignores terrain movement restrictions but not impassable hexes.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.hexgrid import Hex
from engine.memoir.board import backward, hex_key, label, neighbours
from engine.memoir.state import MemoirState, Unit


@dataclass(frozen=True)
class Reach:
    """Where a unit may go: destination → shortest legal path (hexes entered, in order)."""

    paths: dict[Hex, tuple[Hex, ...]]
    must_stop: frozenset[Hex]  # destinations whose terrain ends the move


def can_enter(state: MemoirState, unit: Unit, h: Hex) -> bool:
    """E-9.1, E-18: never an occupied hex, impassable terrain, or an obstacle closed to the type."""
    if h in state.by_hex:
        return False
    if state.terrain(h).impassable:
        return False
    ob = state.obstacle(h)
    return ob is None or ob.may_enter(unit.type)


def ends_move(state: MemoirState, h: Hex) -> bool:
    if state.terrain(h).ends_move:
        return True
    ob = state.obstacle(h)
    return ob is not None and ob.ends_move


def can_leave(state: MemoirState, unit: Unit) -> bool:
    ob = state.obstacle(unit.hex)
    return ob is None or unit.type not in ob.cannot_leave


def paths(state: MemoirState, unit: Unit, allowance: int, free: bool = False) -> Reach:
    """Every destination ``unit`` may reach with at most ``allowance`` hexes."""
    best: dict[Hex, tuple[Hex, ...]] = {}
    if allowance <= 0 or not can_leave(state, unit):
        return Reach({}, frozenset())
    start = unit.hex
    if not free and state.terrain(start).leave_moves_one:
        allowance = 1  # E-18: a unit leaving a hedgerow moves only 1 hex

    def walk(h: Hex, path: tuple[Hex, ...], cap: int) -> None:
        for n in neighbours(h):
            if n == start or n in path or not can_enter(state, unit, n):
                continue
            t = state.terrain(n)
            if not free and t.first_hex_only and path:
                continue  # E-18 hedgerow: only as the first hex of a move
            new_cap = cap if free or not t.move_cap else (min(cap, t.move_cap) if cap else t.move_cap)
            new_path = path + (n,)
            if new_cap and len(new_path) > new_cap:
                continue  # E-18 beach: a move entering a beach hex is at most 2 hexes long
            old = best.get(n)
            if old is None or len(new_path) < len(old) or (
                    len(new_path) == len(old) and [hex_key(x) for x in new_path] < [hex_key(x) for x in old]):
                best[n] = new_path
            if len(new_path) < allowance and (free or not ends_move(state, n)):
                walk(n, new_path, new_cap)

    walk(start, (), 0)
    stops = frozenset(h for h in best if ends_move(state, h))
    return Reach(best, stops)


def check_path(state: MemoirState, unit: Unit, path: tuple[Hex, ...], allowance: int, free: bool = False) -> str | None:
    """Why ``path`` is not a legal move (None if it is)."""
    if not path:
        return "a move needs at least one hex"
    if not can_leave(state, unit):
        return f"{unit.type} in a bunker cannot leave it (E-18)"
    limit = allowance
    if not free and state.terrain(unit.hex).leave_moves_one:
        limit = min(limit, 1)
    if len(path) > limit:
        return f"it may move at most {limit} hex{'es' if limit != 1 else ''} now"
    cap = 0
    prev = unit.hex
    for i, h in enumerate(path):
        if h.distance(prev) != 1:
            return f"{label(h)} is not next to {label(prev)}"
        if h == unit.hex or h in path[:i]:
            return f"the path enters {label(h)} twice"
        if h in state.by_hex:
            return f"{label(h)} is occupied (no unit may enter or pass through another, E-9.1)"
        t = state.terrain(h)
        if t.impassable:
            return f"{label(h)} is {state.terrain_name(h)}: impassable"
        ob = state.obstacle(h)
        if ob is not None and not ob.may_enter(unit.type):
            return f"{unit.type} cannot enter the {state.obstacle_name(h)} on {label(h)}"
        if not free:
            if t.first_hex_only and i > 0:
                return f"a hedgerow ({label(h)}) may only be the first hex of a move"
            if t.move_cap:
                cap = min(cap, t.move_cap) if cap else t.move_cap
            if cap and len(path) > cap:
                return f"a move that enters a beach hex is at most {cap} hexes long (E-18)"
            if ends_move(state, h) and i < len(path) - 1:
                return f"entering {label(h)} ends the move"
        prev = h
    return None


# --------------------------------------------------------------------------- retreat


def retreat_blocked(state: MemoirState, unit: Unit, h: Hex) -> bool:
    """E-14.3/E-14.4: may the retreating unit not step into ``h``?"""
    if h in state.by_hex:
        return True
    t = state.terrain(h)
    if t.impassable or t.no_retreat_into:
        return True
    ob = state.obstacle(h)
    return ob is not None and not ob.may_enter(unit.type)


def retreat_ends(state: MemoirState, unit: Unit, flags: int) -> dict[Hex, int]:
    """Every place a retreat of ``flags`` flags may end → the figures it loses (E-14.5).

    Each step goes to one of the two hexes one row nearer the unit's own baseline; a
    step that cannot be made costs a figure, and then no further step is possible.
    French Resistance (E-8.4, ruling) moves 1 to 3 hexes per flag, its owner's choice, and
    loses a figure only for a flag on which not even 1 hex can be retreated."""
    if flags <= 0:
        return {unit.hex: 0}
    if not can_leave(state, unit):
        return {unit.hex: flags}  # E-14.7: artillery in a bunker
    per_flag = unit.rule.retreat_per_flag
    out: dict[Hex, int] = {}
    frontier = {unit.hex}
    for flag in range(flags):
        nxt: set[Hex] = set()
        for h in frontier:
            reach: set[Hex] = set()
            edge = {h}
            for _ in range(per_flag):
                edge = {b for x in edge for b in backward(x, unit.side, state.top)
                        if not retreat_blocked(state, unit, b)}
                if not edge:
                    break
                reach |= edge
            if not reach:
                out[h] = min(out.get(h, flags), flags - flag)
            nxt |= reach
        frontier = nxt
        if not frontier:
            break
    for h in frontier:
        out[h] = 0
    return out


def retreat_steps(state: MemoirState, unit: Unit, flags: int) -> list[list[Hex]]:
    """The hexes reachable after each step of a retreat (for the look-up)."""
    out: list[list[Hex]] = []
    frontier = {unit.hex} if can_leave(state, unit) else set()
    for _ in range(flags):
        nxt: set[Hex] = set()
        for h in frontier:
            nxt.update(b for b in backward(h, unit.side, state.top) if not retreat_blocked(state, unit, b))
        out.append(sorted(nxt, key=hex_key))
        frontier = nxt
    return out
