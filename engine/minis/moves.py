"""Resolving a move step by step: movement rolls, defensive fire, Overrun, back-up.

``start_move`` records a :class:`MoveInProgress` and runs it; whenever a step needs the
defender's answer the run stops with the move still recorded (``pending`` names the
defender), and ``resume_move`` continues it after the answer.  For each step
``a → b``:

1. the movement roll(s) (M-13.3; stream first, then terrain): a failure stops the unit
   in ``a`` facing ``b`` and provokes nothing (M-6.4, M-12.6);
2. a Vehicle turns to face ``b`` (M-12.3); defensive fire at ``a``;
3. the unit (with its passengers) enters ``b``; defensive fire at ``b``;
4. Overrun: once per phase, on entering a hex with an enemy Soldier, a unit with
   Overrun disrupts one of them (Ruling: automatically, the most expensive, then the
   lowest id; not if defensive fire stopped it in that hex).

A unit stopped where it may not stay (stacking, M-6.3) moves back along its path to
the last hex where it could have stopped.  At the end a Vehicle faces the requested
direction, or the direction of its last step; one stopped by a failed roll or by
defensive fire keeps the facing toward the hex it was entering (M-6.4).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.hexgrid import Hex
from engine.minis import defensive_fire as df
from engine.minis.events import MovementRoll, Moved, OverrunEvent, UnitDisrupted
from engine.minis.movement import facing_toward, stack_ok, step
from engine.minis.state import Activation, MinisState, MoveInProgress, Phase
from engine.minis.transport import carry_along


def start_move(state: MinisState, unit_id: str, path: tuple[Hex, ...], face: int | None,
               kind: str, dice: Dice) -> tuple[MinisState, list[Event]]:
    """``path`` starts with the unit's own hex."""
    mip = MoveInProgress(unit=unit_id, path=path, face=face, kind=kind)
    state = replace(state, move=mip)
    return run_move(state, dice)


def resume_move(state: MinisState, dice: Dice) -> tuple[MinisState, list[Event]]:
    return run_move(state, dice)


def _mip(state: MinisState) -> MoveInProgress:
    assert state.move is not None
    return state.move


def _place(state: MinisState, unit_id: str, h: Hex, facing: int | None) -> MinisState:
    state = state.update_unit(unit_id, hex=h, facing=facing)
    return carry_along(state, unit_id, h)


def run_move(state: MinisState, dice: Dice) -> tuple[MinisState, list[Event]]:
    events: list[Event] = []
    while True:
        mip = _mip(state)
        mover = state.unit(mip.unit)
        if not mover.on_map:
            return finish_move(state, events, "destroyed")
        if mip.step >= len(mip.path) - 1:
            return finish_move(state, events, None)
        a, b = df.step_hexes(mip)
        card = state.cards[mover.card]
        vehicle = card.is_vehicle
        if not mip.rolled:
            st = step(state, card, a, b, bonus_left=False)
            assert st is not None, "the path was checked before the move started"
            for reason in st.rolls:
                die = dice.roll(6)
                ok = die >= 4
                events.append(MovementRoll(mover.id, a, b, reason, die, ok))
                if not ok:
                    if vehicle:
                        state = state.update_unit(mover.id, facing=facing_toward(a, b))
                    return finish_move(state, events, "movement roll")
            if vehicle:
                state = state.update_unit(mover.id, facing=facing_toward(a, b))
            state = replace(state, move=replace(_mip(state), rolled=True))
        mip = _mip(state)
        if mip.stage == df.LEAVING:
            state, more, status = df.run_stage(state, dice)
            events.extend(more)
            if status == "prompt":
                return state, events
            if status == "stopped":
                return finish_move(state, events, "defensive fire")
            mover = state.unit(mip.unit)
            state = _place(state, mover.id, b, mover.facing)
            state = replace(state, move=replace(_mip(state), stage=df.ENTERING, held=False, auto_done=False))
        state, more, status = df.run_stage(state, dice)
        events.extend(more)
        if status == "prompt":
            return state, events
        if status == "stopped":
            return finish_move(state, events, "defensive fire")
        state, more = _overrun(state, mip.unit, b)
        events.extend(more)
        mip = _mip(state)
        state = replace(state, move=replace(mip, step=mip.step + 1, stage=df.LEAVING, answered=frozenset(),
                                            entering=(), held=False, rolled=False, auto_done=False))


def _overrun(state: MinisState, unit_id: str, h: Hex) -> tuple[MinisState, list[Event]]:
    u = state.unit(unit_id)
    if not state.cards[u.card].has("Overrun") or unit_id in state.flags.overrun_used:
        return state, []
    victims = [o for o in state.units_at(h) if o.side != u.side and state.cards[o.card].is_soldier
               and not o.disrupted]
    if not victims:
        return state, []
    victim = sorted(victims, key=lambda o: (-state.cards[o.card].cost, int(o.id[2:])))[0]
    state = state.update_unit(victim.id, disrupted=True)
    state = state.with_flags(overrun_used=state.flags.overrun_used | {unit_id})
    return state, [OverrunEvent(unit_id, victim.id, h), UnitDisrupted(victim.id, "Overrun")]


def finish_move(state: MinisState, events: list[Event], stopped: str | None) -> tuple[MinisState, list[Event]]:
    mip = _mip(state)
    u = state.unit(mip.unit)
    travelled: tuple[Hex, ...]
    backed: list[Hex] = []
    if not u.on_map:
        travelled = mip.path[: mip.step + 1]
        state = replace(state, move=None)
        events.append(Moved(u.id, travelled, mip.path, u.facing, "destroyed", (), mip.df_hexes))
        return _after(state, mip, None), events
    assert u.hex is not None
    here_index = mip.path.index(u.hex, mip.step) if u.hex in mip.path[mip.step:] else mip.step
    travelled = mip.path[: here_index + 1]
    facing = u.facing
    if stopped is None and state.cards[u.card].is_vehicle:
        facing = mip.face if mip.face is not None else facing_toward(mip.path[-2], mip.path[-1])
    # M-6.3: never forced to stop where stacking breaks; back up along the path.
    i = here_index
    while i > 0 and not stack_ok(state, u, mip.path[i]):
        i -= 1
        backed.append(mip.path[i])
    end = mip.path[i]
    state = _place(state, u.id, end, facing)
    state = replace(state, move=None)
    events.append(Moved(u.id, travelled, mip.path, facing, stopped, tuple(backed), mip.df_hexes))
    return _after(state, mip, end), events


def _after(state: MinisState, mip: MoveInProgress, end: Hex | None) -> MinisState:
    """Bookkeeping once a move is over: Banzai Charge opens its attack."""
    if state.phase is not Phase.ASSAULT:
        return state
    act = state.flags.activation
    if mip.kind == "banzai" and end is not None and act is not None and act.unit == mip.unit:
        u = state.unit(mip.unit)
        if any(o.side != u.side for o in state.units_at(end)):
            return state.with_flags(activation=replace(act, banzai_hex=end))
    if mip.kind == "fade" and act is not None and act.unit == mip.unit:
        return state.with_flags(activation=replace(act, extras=act.extras | {"fade"}, moved=True))
    if act is None or act.unit != mip.unit:
        return state.with_flags(activation=Activation(mip.unit, moved=True))
    return state
