"""Hidden information (M-2.5): army lists are secret until deployment.

A unit becomes public when it is placed on the map (or once deployment is over, when
every surviving unit is on the map anyway).  :func:`see` is the per-seat view the rules
offer the bot (``MinisRules.view``): every public surface — map images, unit lists,
status, autocomplete, odds — works on it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import AbstractSet

from engine.minis.state import MinisState, Phase, UnitState

# Orders whose text is their seat's secret (army lists, standing orders).
PRIVATE_VERBS = ("army", "standing")

_BEFORE_BATTLE = (Phase.ARMIES, Phase.DEPLOYMENT)


def is_public(state: MinisState, unit: UnitState) -> bool:
    if unit.hex is not None or unit.destroyed:
        return True
    return state.phase not in _BEFORE_BATTLE


def public_units(state: MinisState) -> tuple[UnitState, ...]:
    """The units anyone may see: deployed ones (before the battle), all of them after."""
    return tuple(u for u in state.units if is_public(state, u))


def visible_units(state: MinisState, seat: str) -> tuple[UnitState, ...]:
    """What ``seat`` may see: the public units plus its own undeployed ones."""
    return tuple(u for u in state.units if u.side == seat or is_public(state, u))


def see(state: MinisState, seats: AbstractSet[str]) -> MinisState:
    """The state as someone holding ``seats`` may know it (no seats: the public).  Units
    they may not see, the army lists and the standing orders of other seats are left
    out; everything else is as it is."""
    if seats >= {"axis", "allies"}:
        return state
    units = tuple(u for u in state.units if u.side in seats or is_public(state, u))
    own = {u.id for u in units if u.side in seats}
    return replace(state, units=units,
                   armies={s: cards for s, cards in state.armies.items() if s in seats},
                   standing={u: p for u, p in state.standing.items() if u in own})
