"""``legal_orders(state, player)``: a lazy view of the orders ``apply`` accepts now.

Army building is open-ended, so it offers the current list plus one more affordable
card, minus its last card, and ``ready`` when the list is legal.  Every other phase is
listed in full: deployment hexes (with each facing for Vehicles), every reachable hex
of every unit that may move (default path; each facing for Vehicles), turns, attacks
(with ``cannon`` and ``ap`` variants), transport, demolition, defensive-fire answers,
``done``; then standing orders and ``concede``, and for the "system" seat the timeouts
that apply.
"""

from __future__ import annotations

from typing import Iterator

from engine.core.errors import IllegalOrder
from engine.minis import abilities as ab
from engine.minis import defensive_fire as df
from engine.minis.army import army_problems
from engine.minis.battle import attack_targets, bridges_at, move_kind
from engine.minis.deployment import check_objective, legal_deploy_hexes, picks_end
from engine.minis.movement import reachable
from engine.minis.orders import (
    SYSTEM, ArmyList, Attack, Board, ChooseEnd, ChooseFirst, ChooseMap, ChooseObjective, Concede,
    Deploy, DeployAboard, Demolish, Dismount, Done, Face, Fire, Hold, Move, Order, Ready, Standing,
    Timeout,
)
from engine.minis.state import STANDING_ORDERS, MinisState, Phase, UnitState
from engine.minis.transport import board_problem, can_carry


def legal_orders(state: MinisState, player: str) -> Iterator[Order]:
    if state.phase is Phase.OVER:
        return
    if player == SYSTEM:
        yield from _timeouts(state)
        return
    p = state.phase
    if p is Phase.ARMIES:
        yield from _army_orders(state, player)
    elif state.chooser is not None:
        if state.chooser == player:
            yield ChooseFirst(player, True)
            yield ChooseFirst(player, False)
    elif p is Phase.DEPLOYMENT:
        if state.active == player:
            yield from _deployment_orders(state, player)
    elif state.move is not None:
        if state.active != player:
            for uid, where in df.ask_choices(state):
                yield Fire(player, uid, where)
            yield Hold(player)
    elif state.active == player and p in (Phase.MOVEMENT, Phase.ASSAULT):
        for u in state.units:
            if u.side == player and u.on_map:
                yield from unit_orders(state, player, u)
        yield Done(player)
    for u in state.units:
        if u.side == player and not u.destroyed and p is not Phase.ARMIES:
            for policy in STANDING_ORDERS:
                if policy != state.standing_order(u.id):
                    yield Standing(player, u.id, policy)
    yield Concede(player)


def _timeouts(state: MinisState) -> Iterator[Order]:
    from engine.minis.game import pending

    if not pending(state):
        return
    if state.move is not None:
        yield Timeout(SYSTEM, "hold")
    yield Timeout(SYSTEM, "done")
    yield Timeout(SYSTEM, "forfeit")


def _army_orders(state: MinisState, player: str) -> Iterator[Order]:
    current = state.armies.get(player, ())
    sc = state.scenario_def
    if player not in state.ready and current and not army_problems(state.cards, sc, player, current):
        yield Ready(player)
    for key in sorted(state.cards):
        longer = current + (key,)
        if not army_problems(state.cards, sc, player, longer):
            yield ArmyList(player, longer)
    if current:
        yield ArmyList(player, current[:-1])


def _deployment_orders(state: MinisState, player: str) -> Iterator[Order]:
    sc = state.scenario_def
    mine = [u for u in state.units if u.side == player and not u.destroyed]
    if sc.attacker is not None and player == sc.defender and not state.map_locked:
        if sc.map == "chosen":
            for n in range(1, 7):
                yield ChooseMap(player, n)
        if sc.objectives == "chosen":
            for h in sorted(state.map.hexes):
                if check_objective(state.map, h) is None:
                    yield ChooseObjective(player, h)
    if picks_end(state, player):
        yield ChooseEnd(player, "west")
        yield ChooseEnd(player, "east")
    for u in mine:
        if u.hex is not None:
            continue
        c = state.cards[u.card]
        for h in legal_deploy_hexes(state, u):
            yield Deploy(player, u.id, h)
            if c.is_vehicle:
                for d in range(6):
                    yield Deploy(player, u.id, h, d)
        for t in mine:
            if t.hex is not None and t.carried_by is None and can_carry(state.cards[t.card], c) is None \
                    and len(state.passengers(t.id)) < ab.capacity(state.cards[t.card]) and not state.passengers(u.id):
                yield DeployAboard(player, u.id, t.id)
    if all(u.hex is not None for u in mine):
        yield Done(player)


def unit_orders(state: MinisState, player: str, u: UnitState) -> Iterator[Order]:
    """The orders for one unit of the active player in a movement or assault phase."""
    c = state.cards[u.card]
    phase = state.phase
    # Moving.
    try:
        kind = move_kind(state, u)
    except IllegalOrder:
        kind = None
    if kind is not None:
        speed_kind = "fade" if kind == "fade" else "move"
        for h, path in sorted(reachable(state, u, kind=speed_kind).items()):
            yield Move(player, u.id, path)
            if c.is_vehicle:
                for d in range(6):
                    yield Move(player, u.id, path, d)
    # Turning (uses the move / the activation).
    if (c.is_vehicle and u.carried_by is None and u.id not in state.flags.acted
            and u.id not in state.flags.attacked and not ab.is_disrupted(state, u)):
        for d in range(6):
            yield Face(player, u.id, d)
    # Attacking.
    if phase is Phase.ASSAULT:
        ap_ok = c.has("Armor-Piercing Rounds") and ab.once_key(u, "Armor-Piercing Rounds") not in state.used_once
        for tid, cannon in attack_targets(state, u):
            yield Attack(player, u.id, tid, cannon)
            if ap_ok and state.cards[state.unit(tid).card].is_vehicle:
                yield Attack(player, u.id, tid, cannon, True)
        if (c.has("Bridge Demolition") and u.id not in state.flags.acted and u.carried_by is None
                and u.hex is not None):
            across = bridges_at(state, u.hex)
            for h in across:
                yield Demolish(player, u.id, h if len(across) > 1 else None)
    # Transport (movement phase).
    if phase is Phase.MOVEMENT and u.id not in state.flags.acted and not ab.is_disrupted(state, u):
        if u.carried_by is not None:
            yield Dismount(player, u.id)
        elif c.is_soldier and u.hex is not None:
            for carrier in state.units_at(u.hex):
                if carrier.side == player and board_problem(state, u, carrier) is None:
                    yield Board(player, u.id, carrier.id)
