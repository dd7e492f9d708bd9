"""Rules look-ups on a position (what `warroom memoir los|battles|moves|retreat` print, and
what the bot's look-up commands will call).  Each returns plain JSON-ready data."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core.errors import IllegalOrder, UnknownName
from engine.core.hexgrid import Hex
from engine.memoir import combat
from engine.memoir.board import SEATS, hex_key, label
from engine.memoir.movement import paths, retreat_steps
from engine.memoir.scenario import Scenario
from engine.memoir.state import Acting, MemoirState
from engine.memoir.turn import start_state


def position(sc: Scenario) -> MemoirState:
    """The scenario's starting position (units as placed; no cards, no airdrop)."""
    return start_state(sc)


def los(state: MemoirState, a: Hex, b: Hex) -> dict[str, Any]:
    """E-11: ``{"clear": bool, "blocked_by": [hexes]}`` between two hexes."""
    clear, blockers = combat.sight(state, a, b)
    return {"clear": clear, "blocked_by": [label(h) for h in blockers]}


def battles(state: MemoirState, side: str) -> list[dict[str, Any]]:
    """Every battle ``side`` could fight if all its units were ordered and none moved
    (close-assault obligation, artillery, terrain and battle-out reductions applied; no
    card bonus)."""
    if side not in SEATS:
        raise UnknownName(f"'{side}' is not a side.", legal=SEATS)
    out: list[dict[str, Any]] = []
    for u in sorted((u for u in state.units if u.side == side), key=lambda u: hex_key(u.hex)):
        if not combat.may_battle(state, u, Acting(u.id)):
            continue
        for t, n in combat.targets(state, u):
            out.append({"attacker": u.where, "target": t.where, "dice": n})
    return out


def _unit(state: MemoirState, h: Hex) -> Any:
    u = state.by_hex.get(h)
    if u is None:
        raise IllegalOrder(f"There is no unit on {label(h)}.",
                           legal=tuple(x.where for x in sorted(state.units, key=lambda x: hex_key(x.hex))))
    return u


def moves(state: MemoirState, h: Hex) -> dict[str, Any]:
    """``{"reachable": [...], "must_stop": [...]}``: where the unit could move this turn if
    ordered by a plain section card, and which of those hexes end its move."""
    u = _unit(state, h)
    reach = paths(state, u, u.rule.move)
    return {"reachable": [label(x) for x in sorted(reach.paths, key=hex_key)],
            "must_stop": [label(x) for x in sorted(reach.must_stop, key=hex_key)]}


def retreat(state: MemoirState, h: Hex, hexes: int) -> dict[str, Any]:
    """``{"steps": {"1": [...], …}, "figures_lost": n}``: the hexes reachable after each
    step of a retreat of ``hexes`` (any unit blocks; toward the unit's own baseline), and
    the fewest figures the unit would lose."""
    if hexes < 1:
        raise IllegalOrder("A retreat is at least 1 hex.", legal=("1", "2", "3"))
    u = _unit(state, h)
    steps = retreat_steps(state, u, hexes)
    made = 0
    for i, hs in enumerate(steps):
        if hs:
            made = i + 1
    return {"steps": {str(i + 1): [label(x) for x in hs] for i, hs in enumerate(steps)},
            "figures_lost": hexes - made}


def with_unit_moved(state: MemoirState, unit_id: str, h: Hex) -> MemoirState:
    """A test helper: the same position with one unit elsewhere."""
    return replace(state, units=tuple(replace(u, hex=h) if u.id == unit_id else u for u in state.units))
