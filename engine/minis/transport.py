"""M-15 Transport (and M-3.7 starting aboard).

A Vehicle with Transport, Exposed Transport or Gun Transport carries one Soldier —
never Artillery (Gun Transport lifts that limit), Motorcycle or Cavalry.  A Soldier in
the transport's hex boards with its movement-phase move; a Soldier that starts the
movement phase aboard dismounts with its move into the transport's hex (Ruling M-15.2).
Aboard, it moves with the transport, cannot move, attack or be attacked on its own and
does not count for stacking (M-15.3) — except: Exposed Transport lets it be attacked,
Fighting Platform lets a non-Artillery passenger attack (and fire defensively) when the
carrier has not moved that phase.  If dismounting would break stacking, the Soldier is
put in the nearest hex where it may stand (Ruling M-15.4: the engine chooses for the
opponent — the nearest legal hex, ties broken by hex order).
"""

from __future__ import annotations

from engine.core.hexgrid import Hex
from engine.minis import abilities as ab
from engine.minis.model import UnitCard
from engine.minis.movement import may_stand, stack_ok
from engine.minis.state import MinisState, UnitState

NEVER_CARRIED = ("Motorcycle", "Cavalry")


def can_carry(transport: UnitCard, soldier: UnitCard) -> str | None:
    """Why ``transport`` cannot carry ``soldier`` (None if it can)."""
    if not ab.is_transport(transport):
        return f"{transport.name} is not a transport"
    if not soldier.is_soldier:
        return "only Soldiers ride a transport"
    if soldier.subtype in NEVER_CARRIED:
        return f"a {soldier.subtype} unit cannot ride a transport (M-15.1)"
    if soldier.is_artillery and not transport.has("Gun Transport"):
        return "Artillery needs Gun Transport (M-15.1)"
    return None


def board_problem(state: MinisState, soldier: UnitState, transport: UnitState) -> str | None:
    if transport.side != soldier.side:
        return "it is not a friendly transport"
    if not transport.on_map or not soldier.on_map:
        return "both units must be on the map"
    if soldier.carried_by is not None:
        return "it is already aboard"
    if transport.carried_by is not None:
        return "the transport is aboard something else"
    if soldier.hex != transport.hex:
        return "it must be in the transport's hex (M-15.2)"
    why = can_carry(state.cards[transport.card], state.cards[soldier.card])
    if why:
        return why
    if len(state.passengers(transport.id)) >= ab.capacity(state.cards[transport.card]):
        return "the transport is full"
    return None


def board(state: MinisState, soldier_id: str, transport_id: str) -> MinisState:
    t = state.unit(transport_id)
    return state.update_unit(soldier_id, carried_by=transport_id, hex=t.hex, facing=None)


def dismount_hex(state: MinisState, soldier: UnitState) -> tuple[Hex, bool]:
    """Where a dismounting Soldier ends up: the transport's hex, or the nearest legal
    hex if that would break stacking (M-15.4).  Returns (hex, displaced)."""
    assert soldier.hex is not None
    free = state.update_unit(soldier.id, carried_by=None)
    me = free.unit(soldier.id)
    c = state.cards[soldier.card]
    if stack_ok(free, me, soldier.hex):
        return soldier.hex, False
    for radius in range(1, max(state.map.cols, state.map.rows) + 1):
        ring = sorted(soldier.hex.ring(radius))
        for h in ring:
            if may_stand(free, c, h) and stack_ok(free, me, h):
                return h, True
    return soldier.hex, False  # a full map: stays with the transport's hex


def dismount(state: MinisState, soldier_id: str) -> tuple[MinisState, Hex, bool]:
    s = state.unit(soldier_id)
    h, displaced = dismount_hex(state, s)
    return state.update_unit(soldier_id, carried_by=None, hex=h), h, displaced


def carry_along(state: MinisState, transport_id: str, h: Hex) -> MinisState:
    """Passengers stay in their transport's hex."""
    for p in state.passengers(transport_id):
        state = state.update_unit(p.id, hex=h)
    return state
