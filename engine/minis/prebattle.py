"""Orders before the first turn: army lists (M-2), the coin toss and the deployment
order (M-3.3), the Assault defender's choices (M-17.2, M-17.3), deployment (M-3.4 …
M-3.7).

Army lists are secret: the ``army`` order's event is private to its side (M-2.5).
When both sides are ready the lists are locked — unit ids are given in list order,
Axis "ax1…", Allies "al1…" — and only the number of units is announced.  The coin toss
is one die: 1–3 Axis wins, 4–6 Allies win.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from engine.core.dice import Dice
from engine.core.errors import IllegalOrder, NotYourTurn
from engine.core.events import Event
from engine.minis import abilities as ab
from engine.minis.army import army_cost, army_problems
from engine.minis.deployment import (
    DEFAULT_FACING, check_objective, choose_end, deploy_problem, end_of_hex, legal_deploy_hexes,
    objectives_for, picks_end,
)
from engine.minis.events import (
    ArmiesLocked, ArmyListed, ArmyReady, CoinToss, Deployed, DeploymentDone, EndChosen,
    FirstPlayerChosen, MapChosen, ObjectiveChosen, PhaseStarted,
)
from engine.minis.model import AXIS, BattleMap, SIDES, other_side
from engine.minis.orders import (
    ArmyList, ChooseEnd, ChooseFirst, ChooseMap, ChooseObjective, Deploy, DeployAboard, Done, Ready,
)
from engine.minis.sequence import start_turn
from engine.minis.state import MinisState, Phase, UnitState
from engine.minis.transport import can_carry

Result = tuple[MinisState, list[Event]]

# Set by game.py: builds a configuration map (kept injectable so this module does not
# import the map data package directly).
build_configuration: Callable[[int], BattleMap] | None = None


def _need_phase(state: MinisState, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        raise IllegalOrder(f"'{what}' is for the {phase.value} phase; it is the {state.phase.value} phase now.")


# --------------------------------------------------------------------------- armies


def army(state: MinisState, o: ArmyList, dice: Dice) -> Result:
    _need_phase(state, Phase.ARMIES, "army")
    side = o.player
    for k in o.cards:
        if k not in state.cards:
            raise IllegalOrder(f"Unknown card '{k}'.", legal=sorted(state.cards))
    if len(o.cards) > 15:
        raise IllegalOrder(f"{len(o.cards)} units: an army has at most 15 (M-2.1).")
    armies = dict(state.armies)
    armies[side] = o.cards
    state = replace(state, armies=armies, ready=state.ready - {side})
    problems = tuple(army_problems(state.cards, state.scenario_def, side, o.cards))
    return state, [ArmyListed(side, o.cards, army_cost(state.cards, o.cards), problems, private_to=side)]


def ready(state: MinisState, o: Ready, dice: Dice) -> Result:
    _need_phase(state, Phase.ARMIES, "ready")
    side = o.player
    if side in state.ready:
        raise IllegalOrder("You are already ready.")
    keys = state.armies.get(side, ())
    problems = army_problems(state.cards, state.scenario_def, side, keys)
    if problems:
        raise IllegalOrder("Your army is not legal: " + "; ".join(problems) + ".",
                           legal=("army <units>",))
    state = replace(state, ready=state.ready | {side})
    events: list[Event] = [ArmyReady(side, True)]
    if state.ready == frozenset(SIDES):
        state, more = lock_armies(state, dice)
        events.extend(more)
    return state, events


def lock_armies(state: MinisState, dice: Dice) -> Result:
    """M-2.5: both lists are final; the units come into being (off the map)."""
    units: list[UnitState] = []
    for side, prefix in ((AXIS, "ax"), (other_side(AXIS), "al")):
        for i, key in enumerate(state.armies.get(side, ()), start=1):
            units.append(UnitState(id=f"{prefix}{i}", card=key, side=side))
    state = replace(state, units=tuple(units), phase=Phase.DEPLOYMENT)
    events: list[Event] = [ArmiesLocked(tuple((s, len(state.armies.get(s, ()))) for s in SIDES))]
    sc = state.scenario_def
    if sc.first == "coin":
        die = dice.roll(6)
        winner = AXIS if die <= 3 else other_side(AXIS)
        state = replace(state, chooser=winner, active=winner)
        events.append(CoinToss(die, winner))
        return state, events
    state = replace(state, first_player=sc.first, active=sc.first, chooser=None)
    events.append(PhaseStarted(state.turn, Phase.DEPLOYMENT.value, sc.first))
    return state, events


def choose_deployment_order(state: MinisState, o: ChooseFirst, dice: Dice) -> Result:
    if state.chooser != o.player:
        raise NotYourTurn(f"The {state.chooser} choose who deploys first.")
    first = o.player if o.first else other_side(o.player)
    state = replace(state, chooser=None, first_player=first, active=first)
    return state, [FirstPlayerChosen(o.player, first, True, state.turn),
                   PhaseStarted(state.turn, Phase.DEPLOYMENT.value, first)]


# --------------------------------------------------------------------------- assault choices


def _defender_setup(state: MinisState, player: str, what: str) -> None:
    _need_phase(state, Phase.DEPLOYMENT, what)
    sc = state.scenario_def
    if sc.attacker is None or player != sc.defender:
        raise IllegalOrder(f"Only the defender of an Assault scenario may choose the {what} (M-17.2).")
    if state.chooser is not None or state.active != player:
        raise NotYourTurn(f"It is not your deployment (the {state.active} deploy now).")
    if state.map_locked:
        raise IllegalOrder(f"The {what} is fixed once you have deployed a unit.")


def choose_map(state: MinisState, o: ChooseMap, dice: Dice) -> Result:
    _defender_setup(state, o.player, "map")
    if state.scenario_def.map != "chosen":
        raise IllegalOrder("This scenario's map is fixed.")
    if not 1 <= o.configuration <= 6:
        raise IllegalOrder(f"There is no configuration {o.configuration}.", legal=[str(i) for i in range(1, 7)])
    assert build_configuration is not None
    m = build_configuration(o.configuration)
    state = replace(state, map=m)
    if state.scenario_def.objectives in ("map", "chosen"):
        state = replace(state, objectives=tuple(h for h in m.objectives if check_objective(m, h) is None)
                        or tuple(m.objectives))
    return state, [MapChosen(o.player, o.configuration, m.name)]


def choose_objective(state: MinisState, o: ChooseObjective, dice: Dice) -> Result:
    _defender_setup(state, o.player, "objective")
    if state.scenario_def.objectives != "chosen":
        raise IllegalOrder("This scenario's objective is fixed.")
    why = check_objective(state.map, o.hex)
    if why:
        raise IllegalOrder(why + ".")
    return replace(state, objectives=(o.hex,)), [ObjectiveChosen(o.player, o.hex)]


def choose_end_order(state: MinisState, o: ChooseEnd, dice: Dice) -> Result:
    _need_phase(state, Phase.DEPLOYMENT, "end")
    if state.chooser is not None or state.active != o.player:
        raise NotYourTurn("Only the side deploying first picks its end, before deploying.")
    if not picks_end(state, o.player):
        raise IllegalOrder("Your end is already fixed (the side that deploys first picks, M-3.4).")
    return choose_end(state, o.player, o.end), [EndChosen(o.player, o.end)]


# --------------------------------------------------------------------------- deployment


def _deploying(state: MinisState, player: str, what: str) -> None:
    _need_phase(state, Phase.DEPLOYMENT, what)
    if state.chooser is not None:
        raise NotYourTurn(f"Waiting for the {state.chooser} to choose who deploys first.",
                          legal=("first", "second") if state.chooser == player else ())
    if state.active != player:
        raise NotYourTurn(f"The {state.active} are deploying now.")


def _own_unit(state: MinisState, player: str, unit_id: str) -> UnitState:
    u = state.unit(unit_id)
    if u.side != player:
        raise IllegalOrder(f"{unit_id} is not yours.")
    return u


def deploy(state: MinisState, o: Deploy, dice: Dice) -> Result:
    _deploying(state, o.player, "deploy")
    u = _own_unit(state, o.player, o.unit)
    c = state.cards[u.card]
    if o.facing is not None and not c.is_vehicle:
        raise IllegalOrder(f"{u.id} is a Soldier: only Vehicles have a facing (M-6.4).")
    why = deploy_problem(state, u, o.hex)
    if why:
        legal = [state.map.label(h) for h in legal_deploy_hexes(state, u)]
        raise IllegalOrder(f"{u.id} cannot deploy in {state.map.label(o.hex)}: {why}.", legal=legal)
    events: list[Event] = []
    if picks_end(state, o.player) and not isinstance(state.scenario_def.zones[o.player], tuple):
        end = end_of_hex(state, o.player, o.hex)
        if end is None:
            raise IllegalOrder(f"{state.map.label(o.hex)} lies in both ends' zones: pick one with 'end west' or 'end east'.",
                               legal=("end west", "end east"))
        state = choose_end(state, o.player, end)
        events.append(EndChosen(o.player, end))
    facing = None
    if c.is_vehicle:
        facing = o.facing if o.facing is not None else DEFAULT_FACING[state.ends.get(o.player, "west")]
    state = state.update_unit(u.id, hex=o.hex, facing=facing, carried_by=None)
    for p in state.passengers(u.id):
        state = state.update_unit(p.id, hex=o.hex)
    state = replace(state, map_locked=True)
    events.append(Deployed(u.id, u.card, u.side, o.hex, facing))
    return state, events


def deploy_aboard(state: MinisState, o: DeployAboard, dice: Dice) -> Result:
    _deploying(state, o.player, "deploy")
    u = _own_unit(state, o.player, o.unit)
    t = _own_unit(state, o.player, o.transport)
    if t.hex is None or t.carried_by is not None:
        raise IllegalOrder(f"Deploy the transport {t.id} first.")
    why = can_carry(state.cards[t.card], state.cards[u.card])
    if why:
        raise IllegalOrder(f"{u.id} cannot start aboard {t.id}: {why}.")
    others = [p for p in state.passengers(t.id) if p.id != u.id]
    if len(others) >= ab.capacity(state.cards[t.card]):
        raise IllegalOrder(f"{t.id} is full.")
    if state.passengers(u.id):
        raise IllegalOrder(f"{u.id} carries a unit itself.")
    state = state.update_unit(u.id, hex=t.hex, carried_by=t.id, facing=None)
    state = replace(state, map_locked=True)
    assert t.hex is not None
    return state, [Deployed(u.id, u.card, u.side, t.hex, None, aboard=t.id)]


def deployment_done(state: MinisState, o: Done, dice: Dice, *, drop_missing: bool = False) -> Result:
    _deploying(state, o.player, "done")
    side = o.player
    missing = [u for u in state.side_units(side) if u.hex is None and not u.destroyed]
    if missing and not drop_missing:
        raise IllegalOrder("Deploy every unit first.", legal=[u.id for u in missing])
    for u in missing:
        state = state.update_unit(u.id, destroyed=True)
    state = replace(state, deploy_done=state.deploy_done | {side}, map_locked=True)
    events: list[Event] = [DeploymentDone(side, tuple(u.id for u in missing))]
    other = other_side(side)
    if other not in state.deploy_done:
        state = replace(state, active=other)
        events.append(PhaseStarted(state.turn, Phase.DEPLOYMENT.value, other))
        return state, events
    if not state.objectives:
        state = replace(state, objectives=objectives_for(state))
    state, more = start_turn(state, dice)
    return state, events + more
