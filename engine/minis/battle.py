"""Orders of the movement and assault phases (M-5.3, M-5.4), and the defender's
answers to defensive fire (M-12.8).

Movement phase: each unit moves once (``move``), or turns (``face``), boards or
dismounts — all of these use its move.  Assault phase: each unit is activated once and
either moves or attacks (M-5.4); abilities add actions inside that activation (Double
Shot, All Guns Blazing, Additional Hull-Mounted Cannon, Strike and Fade, Banzai
Charge), which are lost as soon as another unit acts.  Relocate units either move or
attack.  Bridge Demolition replaces the move or attack.  Units aboard a Fighting
Platform may attack while the carrier has not moved; the carrier cannot move after its
passenger attacked (Ruling).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.dice import Dice
from engine.core.errors import IllegalOrder, NotYourTurn
from engine.core.events import Event
from engine.core.hexgrid import Hex
from engine.minis import abilities as ab
from engine.minis import defensive_fire as df
from engine.minis.attacks import armor_piercing_problem, attack_kind_for, perform, plan_attack
from engine.minis.events import (
    Boarded, BridgeDemolition, DefensiveFireHeld, Dismounted, Faced,
)
from engine.minis.model import edge, other_side
from engine.minis.movement import base_speed, label_key, path_problem, reachable
from engine.minis.moves import finish_move, resume_move, start_move
from engine.minis.orders import Attack, Board, Demolish, Dismount, Done, Face, Fire, Hold, Move
from engine.minis.sequence import end_phase
from engine.minis.state import Activation, MinisState, Phase, UnitState
from engine.minis.transport import board, board_problem, dismount

Result = tuple[MinisState, list[Event]]


# --------------------------------------------------------------------------- guards


def my_phase(state: MinisState, player: str, what: str) -> None:
    if state.phase not in (Phase.MOVEMENT, Phase.ASSAULT):
        raise IllegalOrder(f"'{what}' is for movement and assault phases; it is the {state.phase.value} phase.")
    if state.move is not None:
        who = other_side(state.active) if state.active else "other side"
        raise NotYourTurn(f"Waiting for the {who} to answer defensive fire.")
    if state.active != player:
        raise NotYourTurn(f"It is the {state.active} player's {state.phase.value} phase.")


def own(state: MinisState, player: str, unit_id: str) -> UnitState:
    u = state.unit(unit_id)
    if u.side != player:
        raise IllegalOrder(f"{unit_id} is not yours.")
    if not u.on_map:
        raise IllegalOrder(f"{unit_id} is not on the map.")
    return u


def _close_activation(state: MinisState, unit_id: str) -> MinisState:
    act = state.flags.activation
    if act is not None and act.unit != unit_id:
        return state.with_flags(activation=None)
    return state


# --------------------------------------------------------------------------- moving


def move_kind(state: MinisState, u: UnitState) -> str:
    """"move", "fade" (Strike and Fade after attacking) or "banzai"; raises if the unit
    may not move now."""
    c = state.cards[u.card]
    if u.carried_by is not None:
        raise IllegalOrder(f"{u.id} is aboard {u.carried_by}; it moves with it (M-15.3).")
    if ab.is_disrupted(state, u):
        raise IllegalOrder(f"{u.id} is disrupted and cannot move (M-8.1).")
    act = state.flags.activation
    if state.phase is Phase.ASSAULT and act is not None and act.unit == u.id and not act.moved:
        if c.has("Strike and Fade") and "fade" not in act.extras and (act.attacks or act.extras):
            return "fade"
        raise IllegalOrder(f"{u.id} attacked this phase; it cannot also move (M-5.4).")
    if u.id in state.flags.acted:
        raise IllegalOrder(f"{u.id} has already {'moved' if state.phase is Phase.MOVEMENT else 'acted'} this phase.")
    if state.phase is Phase.MOVEMENT and c.has("Command Dependent") and not ab.commander_present(state, u):
        raise IllegalOrder(f"{u.id} is Command Dependent: no friendly Commander adjacent at the start of its move.")
    if any(p.id in state.flags.attacked for p in state.passengers(u.id)):
        raise IllegalOrder(f"{u.id}'s passenger attacked from it this phase; it cannot move now (Fighting Platform).")
    if (state.phase is Phase.ASSAULT and c.is_soldier and not c.is_artillery
            and ab.command_effect(state, u, "Banzai Charge")):
        return "banzai"
    return "move"


def move(state: MinisState, o: Move, dice: Dice) -> Result:
    my_phase(state, o.player, "move")
    u = own(state, o.player, o.unit)
    kind = move_kind(state, u)
    c = state.cards[u.card]
    if o.facing is not None and not c.is_vehicle:
        raise IllegalOrder(f"{u.id} is a Soldier: only Vehicles have a facing (M-6.4).")
    speed_kind = "fade" if kind == "fade" else "move"
    if base_speed(state, u, kind=speed_kind) <= 0 and not ab.value(c, "High Gear"):
        raise IllegalOrder(f"{u.id} cannot move in this phase (speed 0).")
    why = path_problem(state, u, o.path, kind=speed_kind)
    if why:
        dests = reachable(state, u, kind=speed_kind)
        legal = sorted((state.map.label(h) for h in dests), key=label_key)
        raise IllegalOrder(f"{u.id} cannot move to {state.map.label(o.destination)}: {why}.", legal=legal)
    assert u.hex is not None
    state = _close_activation(state, u.id)
    flags = state.flags
    state = state.with_flags(acted=flags.acted | {u.id}, moved=flags.moved | {u.id})
    if state.phase is Phase.ASSAULT and kind != "fade":
        state = state.with_flags(activation=Activation(u.id, moved=True))
    return start_move(state, u.id, (u.hex,) + o.path, o.facing, kind, dice)


def face(state: MinisState, o: Face, dice: Dice) -> Result:
    my_phase(state, o.player, "face")
    u = own(state, o.player, o.unit)
    if not state.cards[u.card].is_vehicle:
        raise IllegalOrder(f"{u.id} is a Soldier: only Vehicles have a facing (M-6.4).")
    if ab.is_disrupted(state, u):
        raise IllegalOrder(f"{u.id} is disrupted and cannot change facing (M-6.4).")
    if u.id in state.flags.attacked:
        raise IllegalOrder(f"{u.id} attacked this phase and cannot change facing (M-6.4).")
    if u.id in state.flags.acted:
        raise IllegalOrder(f"{u.id} has already used its {'move' if state.phase is Phase.MOVEMENT else 'activation'}.")
    if u.carried_by is not None:
        raise IllegalOrder(f"{u.id} is aboard a transport.")
    state = _close_activation(state, u.id)
    state = state.with_flags(acted=state.flags.acted | {u.id})
    if state.phase is Phase.ASSAULT:
        state = state.with_flags(activation=Activation(u.id, moved=True))
    state = state.update_unit(u.id, facing=o.facing)
    return state, [Faced(u.id, o.facing)]


# --------------------------------------------------------------------------- attacking


def _check_cannon(state: MinisState, u: UnitState, t: UnitState) -> None:
    """cannon:true asks for the Additional Hull-Mounted Cannon's extra attack: say plainly
    when the unit has none, or when the target is not a Vehicle."""
    card, target = state.cards[u.card], state.cards[t.card]
    plain = [text for text in _targets_text(state, u) if " cannon" not in text]
    if not card.has("Additional Hull-Mounted Cannon"):
        raise IllegalOrder(f"{u.id} {card.name} has no Additional Hull-Mounted Cannon, so cannon:true "
                           "does not apply to it; attack without it.", legal=plain)
    if not target.is_vehicle:
        raise IllegalOrder(f"The hull-mounted cannon only fires at Vehicles, and {t.id} {target.name} "
                           "is not one; attack it without cannon:true.", legal=plain)


def attack(state: MinisState, o: Attack, dice: Dice) -> Result:
    my_phase(state, o.player, "attack")
    if state.phase is not Phase.ASSAULT:
        raise IllegalOrder("Attacks are made in your assault phase (M-5.4).")
    u = own(state, o.player, o.unit)
    t = state.unit(o.target)
    if t.side == u.side:
        raise IllegalOrder(f"{t.id} is one of yours.")
    if o.cannon:
        _check_cannon(state, u, t)
    kind = attack_kind_for(state, u, t, cannon=o.cannon)
    if kind is None:
        raise IllegalOrder(f"{u.id} has no attack left against {t.id} this phase (M-5.4).",
                           legal=_targets_text(state, u))
    plan = plan_attack(state, u, t, kind=kind)
    if isinstance(plan, str):
        raise IllegalOrder(f"{u.id} cannot attack {t.id}: {plan}.", legal=_targets_text(state, u))
    if o.ap:
        problem = armor_piercing_problem(state, u, t)
        if problem:
            raise IllegalOrder(problem)
        state = replace(state, used_once=state.used_once | {ab.once_key(u, "Armor-Piercing Rounds")})
    state = _close_activation(state, u.id)
    act = state.flags.activation
    if act is None or act.unit != u.id:
        act = Activation(u.id)
    if kind in ("normal", "banzai"):
        act = replace(act, attacks=act.attacks + 1)
    else:
        act = replace(act, extras=act.extras | {kind})
    flags = state.flags
    state = state.with_flags(activation=act, acted=flags.acted | {u.id}, attacked=flags.attacked | {u.id})
    state, events, _ = perform(state, plan, dice, ap=o.ap)
    return state, events


def attack_targets(state: MinisState, u: UnitState) -> list[tuple[str, bool]]:
    """(target id, cannon) pairs this unit could attack now."""
    out: list[tuple[str, bool]] = []
    for t in state.units:
        if t.side == u.side or not t.on_map:
            continue
        for cannon in (False, True):
            kind = attack_kind_for(state, u, t, cannon=cannon)
            if kind is None:
                continue
            if not isinstance(plan_attack(state, u, t, kind=kind), str):
                out.append((t.id, cannon))
    return out


def _targets_text(state: MinisState, u: UnitState) -> list[str]:
    return [f"attack {u.id} {t}" + (" cannon" if c else "") for t, c in attack_targets(state, u)]


# --------------------------------------------------------------------------- transport


def board_order(state: MinisState, o: Board, dice: Dice) -> Result:
    my_phase(state, o.player, "board")
    if state.phase is not Phase.MOVEMENT:
        raise IllegalOrder("Boarding takes a unit's movement-phase move (M-15.2).")
    u = own(state, o.player, o.unit)
    t = own(state, o.player, o.transport)
    if u.id in state.flags.acted:
        raise IllegalOrder(f"{u.id} has already used its move.")
    if ab.is_disrupted(state, u):
        raise IllegalOrder(f"{u.id} is disrupted and cannot move (M-8.1).")
    why = board_problem(state, u, t)
    if why:
        raise IllegalOrder(f"{u.id} cannot board {t.id}: {why}.")
    state = _close_activation(state, u.id)
    state = state.with_flags(acted=state.flags.acted | {u.id})
    state = board(state, u.id, t.id)
    assert t.hex is not None
    return state, [Boarded(u.id, t.id, t.hex)]


def dismount_order(state: MinisState, o: Dismount, dice: Dice) -> Result:
    my_phase(state, o.player, "dismount")
    if state.phase is not Phase.MOVEMENT:
        raise IllegalOrder("Dismounting takes a unit's movement-phase move (M-15.2).")
    u = own(state, o.player, o.unit)
    if u.carried_by is None:
        raise IllegalOrder(f"{u.id} is not aboard a transport.")
    if u.id in state.flags.acted:
        raise IllegalOrder(f"{u.id} boarded this phase; it dismounts in a later movement phase (M-15.2).")
    if ab.is_disrupted(state, u):
        raise IllegalOrder(f"{u.id} is disrupted and cannot move (M-8.1).")
    transport = u.carried_by
    state = state.with_flags(acted=state.flags.acted | {u.id})
    state, h, displaced = dismount(state, u.id)
    return state, [Dismounted(u.id, transport, h, displaced)]


# --------------------------------------------------------------------------- bridges


def bridges_at(state: MinisState, h: Hex) -> list[Hex]:
    """The hexes across the intact bridges of hex ``h``."""
    return sorted(n for n in h.neighbours()
                  if edge(h, n) in state.map.bridges and edge(h, n) not in state.destroyed_bridges)


def demolish(state: MinisState, o: Demolish, dice: Dice) -> Result:
    my_phase(state, o.player, "demolish")
    if state.phase is not Phase.ASSAULT:
        raise IllegalOrder("Bridge Demolition is used in your assault phase (M-13.6).")
    u = own(state, o.player, o.unit)
    if not state.cards[u.card].has("Bridge Demolition"):
        raise IllegalOrder(f"{u.id} has no Bridge Demolition.")
    if u.id in state.flags.acted:
        raise IllegalOrder(f"{u.id} has already acted this phase; demolition replaces its move or attack.")
    if u.carried_by is not None:
        raise IllegalOrder(f"{u.id} is aboard a transport.")
    assert u.hex is not None
    across = bridges_at(state, u.hex)
    if not across:
        raise IllegalOrder(f"There is no bridge in {state.map.label(u.hex)}.")
    if o.across is None:
        if len(across) > 1:
            raise IllegalOrder("Several bridges here: name the hex across the one to blow.",
                               legal=[f"demolish {u.id} {state.map.label(h)}" for h in across])
        target = across[0]
    else:
        if o.across not in across:
            raise IllegalOrder(f"No bridge between {state.map.label(u.hex)} and {state.map.label(o.across)}.",
                               legal=[f"demolish {u.id} {state.map.label(h)}" for h in across])
        target = o.across
    state = _close_activation(state, u.id)
    state = state.with_flags(acted=state.flags.acted | {u.id})
    die = dice.roll(6)
    ok = die >= 4
    if ok:
        state = replace(state, destroyed_bridges=state.destroyed_bridges | {edge(u.hex, target)})
    return state, [BridgeDemolition(u.id, (u.hex, target), die, ok)]


# --------------------------------------------------------------------------- phase end


def phase_done(state: MinisState, o: Done, dice: Dice) -> Result:
    my_phase(state, o.player, "done")
    return end_phase(state, dice)


# --------------------------------------------------------------------------- defensive fire


def _answering(state: MinisState, player: str) -> None:
    if state.move is None:
        raise IllegalOrder("There is no defensive fire to answer now.")
    if state.active == player:
        raise NotYourTurn("The non-moving player answers defensive fire.")


def fire(state: MinisState, o: Fire, dice: Dice) -> Result:
    _answering(state, o.player)
    choices = df.ask_choices(state)
    if (o.unit, o.where) not in choices:
        raise IllegalOrder(f"{o.unit} cannot fire at the {o.where} hex now.",
                           legal=[f"fire {u} {w}" for u, w in choices] + ["hold"])
    mip = state.move
    assert mip is not None
    if mip.stage == df.LEAVING and o.where == df.ENTERING:
        state = replace(state, move=replace(mip, entering=mip.entering + (o.unit,)))
        state, events = resume_move(state, dice)
        return state, events
    state, events, stopped = df.fire(state, o.unit, o.where, dice, standing=None)
    if stopped:
        state, more = finish_move(state, [], "defensive fire")
        return state, events + more
    state, more = resume_move(state, dice)
    return state, events + more


def hold(state: MinisState, o: Hold, dice: Dice) -> Result:
    _answering(state, o.player)
    mip = state.move
    assert mip is not None
    mover = state.unit(mip.unit)
    at = mover.hex
    assert at is not None
    state = replace(state, move=replace(mip, held=True))
    state, events = resume_move(state, dice)
    return state, [DefensiveFireHeld(o.player, mip.unit, at)] + events


def timeout_hold(state: MinisState, dice: Dice) -> Result:
    """A prompt left unanswered: every unit still asked passes for the rest of this step."""
    mip = state.move
    assert mip is not None
    passed = {u for u, _ in df.ask_choices(state)}
    mover = state.unit(mip.unit)
    assert mover.hex is not None
    side = other_side(mover.side)
    state = replace(state, move=replace(mip, held=True, answered=mip.answered | passed))
    state, events = resume_move(state, dice)
    return state, [DefensiveFireHeld(side, mip.unit, mover.hex)] + events
