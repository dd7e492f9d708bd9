"""Random legal play, for the soak test and the benchmark (not for the bot).

:func:`random_order` picks, for whoever must decide now, an order ``apply`` accepts.
It keeps games short and cheap — small random armies, phases often ended early, one
random unit considered at a time — but reaches every kind of order: army lists,
the toss, Assault choices, deployment (aboard transports too), moves, turns, attacks
(with the cannon and Armor-Piercing Rounds), transport, demolition, defensive-fire
answers, standing orders and timeouts.  Randomness comes only from the caller's
``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from engine.minis import abilities as ab
from engine.minis import defensive_fire as df
from engine.minis.army import army_problems
from engine.minis.deployment import check_objective, legal_deploy_hexes, picks_end
from engine.minis.game import pending
from engine.minis.legal import unit_orders
from engine.minis.orders import (
    SYSTEM, ArmyList, ChooseEnd, ChooseFirst, ChooseMap, ChooseObjective, Deploy, DeployAboard, Done,
    Fire, Hold, Order, Ready, Standing, Timeout,
)
from engine.minis.state import STANDING_ORDERS, MinisState, Phase
from engine.minis.transport import can_carry


@dataclass(frozen=True)
class Policy:
    max_units: int = 4  # army size
    p_done: float = 0.3  # chance to end a phase instead of acting
    p_standing: float = 0.02
    p_timeout: float = 0.01
    p_choose_map: float = 0.5  # Assault defender picks a map/objective


def random_army(state: MinisState, side: str, rng: random.Random, max_units: int) -> tuple[str, ...]:
    """A legal list of 1…max_units cards for ``side`` under the scenario's limits."""
    sc = state.scenario_def
    pool = sorted(k for k, c in state.cards.items() if c.side == side)
    keys: list[str] = []
    target = rng.randint(1, max_units)
    for _ in range(target * 4):
        if len(keys) >= target:
            break
        k = rng.choice(pool)
        if not army_problems(state.cards, sc, side, tuple(keys + [k])):
            keys.append(k)
    if not keys:
        cheapest = min(pool, key=lambda k: state.cards[k].cost)
        keys = [cheapest]
    return tuple(keys)


def random_order(state: MinisState, rng: random.Random, policy: Policy = Policy()) -> tuple[str, Order]:
    """(seat, order) for one of the seats the game waits for."""
    waiting = pending(state)
    if not waiting:
        raise ValueError("the game is over")
    p = rng.choice(waiting)
    player = p.player
    if state.phase is not Phase.ARMIES and rng.random() < policy.p_timeout:
        return SYSTEM, Timeout(SYSTEM, "hold" if state.move is not None else "done")
    if state.phase is Phase.ARMIES:
        if player in state.armies and not army_problems(state.cards, state.scenario_def, player,
                                                        state.armies[player]):
            return player, Ready(player)
        return player, ArmyList(player, random_army(state, player, rng, policy.max_units))
    if rng.random() < policy.p_standing:
        mine = [u for u in state.units if u.side == player and not u.destroyed]
        if mine:
            u = rng.choice(mine)
            policies = [o for o in STANDING_ORDERS if o != state.standing_order(u.id)]
            return player, Standing(player, u.id, rng.choice(policies))
    if state.chooser is not None:
        return player, ChooseFirst(player, rng.random() < 0.5)
    if state.phase is Phase.DEPLOYMENT:
        return player, _deployment(state, player, rng, policy)
    if state.move is not None:
        answers: list[Order] = [Fire(player, u, w) for u, w in df.ask_choices(state)]
        answers.append(Hold(player))
        return player, rng.choice(answers)
    if rng.random() < policy.p_done:
        return player, Done(player)
    units = [u for u in state.units if u.side == player and u.on_map]
    rng.shuffle(units)
    for u in units[:4]:
        orders = list(unit_orders(state, player, u))
        if orders:
            return player, rng.choice(orders)
    return player, Done(player)


def _deployment(state: MinisState, player: str, rng: random.Random, policy: Policy) -> Order:
    sc = state.scenario_def
    if sc.attacker is not None and player == sc.defender and not state.map_locked \
            and rng.random() < policy.p_choose_map:
        if sc.map == "chosen" and rng.random() < 0.5:
            return ChooseMap(player, rng.randint(1, 6))
        if sc.objectives == "chosen":
            hexes = sorted(h for h in state.map.hexes if check_objective(state.map, h) is None)
            return ChooseObjective(player, rng.choice(hexes))
    if picks_end(state, player) and rng.random() < 0.3:
        return ChooseEnd(player, rng.choice(("west", "east")))
    todo = [u for u in state.units if u.side == player and u.hex is None and not u.destroyed]
    if not todo:
        return Done(player)
    u = todo[0]
    c = state.cards[u.card]
    if c.is_soldier and rng.random() < 0.5:
        for t in state.units:
            if (t.side == player and t.hex is not None and t.carried_by is None
                    and can_carry(state.cards[t.card], c) is None
                    and len(state.passengers(t.id)) < ab.capacity(state.cards[t.card])):
                return DeployAboard(player, u.id, t.id)
    hexes = legal_deploy_hexes(state, u)
    if not hexes:
        return Done(player)  # nowhere to stand: a timeout would drop it; "done" is refused
    facing = rng.randrange(6) if c.is_vehicle and rng.random() < 0.5 else None
    return Deploy(player, u.id, rng.choice(hexes), facing)
