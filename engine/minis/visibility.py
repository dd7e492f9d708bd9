"""Hidden information (M-2.5): army lists are secret until deployment.

A unit becomes public when it is placed on the map (or once deployment is over, when
every surviving unit is on the map anyway).  Anything shown to both players — map
images, unit lists, events without ``private_to`` — must go through
:func:`public_units`; a player's own view adds their own undeployed units.
"""

from __future__ import annotations

from engine.minis.state import MinisState, Phase, UnitState

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
