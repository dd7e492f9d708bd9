"""M-12 Defensive fire, as a decision of the non-moving player in the middle of a move.

A step ``a → b`` provokes an enemy unit adjacent to both hexes (its own hex counts,
M-12.1); Soldiers never provoke Vehicles (Overlapping Fire lifts that).  A provoked
unit that is not disrupted and has not used its one defensive fire this phase
(Suppressive Fire: any number) may attack the mover in ``a`` (the hex it is leaving)
or in ``b`` (the hex it enters) — at range 0 or 1 — with the mover facing ``b``
(M-12.3).  If the successes reach the defense and no cover roll saves it (M-11.3) the
mover stops there and is disrupted at once (M-12.4).

Resolution order for one step (M-12.5): the movement roll first — a failed roll
provokes nothing (M-12.6); then every attack at the leaving hex, one at a time; then,
if the mover was not stopped, it enters ``b`` and the attacks at the entering hex
follow.  Within a stage, units with a standing order fire first (by unit id), then the
defender is asked about the others (``fire al5 leaving``, ``fire al5 entering`` — which
only marks the choice during the leaving stage — or ``hold``, ending the stage).

Standing orders (M-12.8): ``ask`` (prompt), ``hold`` (never), ``first`` (fire at the
first unit that provokes it), ``vehicles`` (fire at the first Vehicle that provokes it).
Ruling: an automatic fire picks the hex where the mover has no cover, then the one
where its defense is lower, then the leaving hex.  Ruling: a unit fires at most once
per provoking step, even with Suppressive Fire.  Double Shot fires its two attacks at
the chosen hex; the second is not rolled once the mover is stopped.  Blast attacks
every unit in that hex (M-12.7); only the mover is stopped, the others hit are
disrupted at once.  Hull-Mounted Flamethrower: three 6s at short range destroy the
mover at once.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.hexgrid import Hex
from engine.minis import abilities as ab
from engine.minis.attacks import Plan, perform, plan_attack
from engine.minis.cover import cover_ignored_by, in_cover_terrain
from engine.minis.events import DefensiveFireEvent
from engine.minis.movement import facing_toward
from engine.minis.state import MinisState, MoveInProgress, UnitState

LEAVING, ENTERING = "leaving", "entering"


def _mip(state: MinisState) -> MoveInProgress:
    assert state.move is not None
    return state.move


def step_hexes(mip: MoveInProgress) -> tuple[Hex, Hex]:
    return mip.path[mip.step], mip.path[mip.step + 1]


def may_fire_at_all(state: MinisState, d: UnitState, mover: UnitState) -> bool:
    """Is ``d`` able to make defensive fire against ``mover`` this phase (ignoring where)?"""
    if d.side == mover.side or not d.on_map or d.hex is None:
        return False
    if ab.is_disrupted(state, d):
        return False  # M-8.1, M-12.2
    dc, mc = state.cards[d.card], state.cards[mover.card]
    if d.id in state.flags.df_fired and not dc.has("Suppressive Fire"):
        return False  # M-12.2: one per phase
    if mc.is_soldier and dc.is_vehicle and not dc.has("Overlapping Fire"):
        return False  # M-12.1
    if d.carried_by is not None:
        carrier = state.unit(d.carried_by)
        if not state.cards[carrier.card].has("Fighting Platform") or dc.is_artillery:
            return False
    return True


def provoked(state: MinisState, mover: UnitState, a: Hex, b: Hex) -> list[UnitState]:
    """Enemy units the step a → b provokes and that could answer it (M-12.1, M-12.2)."""
    out = []
    for d in state.units:
        if d.hex is None or d.hex.distance(a) > 1 or d.hex.distance(b) > 1:
            continue
        if may_fire_at_all(state, d, mover):
            out.append(d)
    return sorted(out, key=lambda u: int(u.id[2:]))


def at_hex(state: MinisState, mover_id: str, x: Hex, facing: int | None) -> MinisState:
    """The state with the mover placed in ``x`` (and its passengers), facing as given."""
    state = state.update_unit(mover_id, hex=x, facing=facing)
    for p in state.passengers(mover_id):
        state = state.update_unit(p.id, hex=x)
    return state


def plan_at(state: MinisState, d: UnitState, mover_id: str, x: Hex, facing: int | None) -> Plan | None:
    placed = at_hex(state, mover_id, x, facing)
    p = plan_attack(placed, placed.unit(d.id), placed.unit(mover_id), kind="defensive")
    return None if isinstance(p, str) else p


def _facing(state: MinisState, mover: UnitState, a: Hex, b: Hex) -> int | None:
    return facing_toward(a, b) if state.cards[mover.card].is_vehicle else None


def options_for(state: MinisState, d: UnitState) -> dict[str, Plan]:
    """Where ``d`` could fire at the current mover in the current step: {where: plan}."""
    mip = _mip(state)
    a, b = step_hexes(mip)
    mover = state.unit(mip.unit)
    f = _facing(state, mover, a, b)
    out: dict[str, Plan] = {}
    for where, x in ((LEAVING, a), (ENTERING, b)):
        p = plan_at(state, d, mip.unit, x, f)
        if p is not None:
            out[where] = p
    return out


def auto_choice(state: MinisState, d: UnitState, plans: dict[str, Plan]) -> str | None:
    """Ruling: the hex without cover first, then the lower defense, then leaving."""
    if not plans:
        return None
    mip = _mip(state)
    a, b = step_hexes(mip)
    mover = state.unit(mip.unit)

    def score(where: str) -> tuple[int, int, int]:
        x = a if where == LEAVING else b
        placed = at_hex(state, mover.id, x, mover.facing)
        p = plans[where]
        covered = in_cover_terrain(placed, placed.unit(mover.id)) and cover_ignored_by(
            placed, d, hand_to_hand=p.hand_to_hand, band=p.band) is None
        return (1 if covered else 0, p.defense, 0 if where == LEAVING else 1)

    return min(plans, key=score)


def wants(state: MinisState, d: UnitState, mover: UnitState) -> bool:
    """Does the standing order of ``d`` fire at this mover automatically?"""
    policy = state.standing_order(d.id)
    if policy == "first":
        return True
    if policy == "vehicles":
        return state.cards[mover.card].is_vehicle
    return False


def fire(state: MinisState, d_id: str, where: str, dice: Dice, *, standing: str | None
         ) -> tuple[MinisState, list[Event], bool]:
    """One defensive fire by ``d_id`` at the current mover, in its current hex (the caller
    has placed it in the leaving or the entering hex).  Returns (state, events, stopped)."""
    mip = _mip(state)
    mover_id = mip.unit
    events: list[Event] = []
    d = state.unit(d_id)
    shots = 2 if state.cards[d.card].has("Double Shot") else 1
    stopped = False
    x = state.unit(mover_id).hex
    assert x is not None
    for shot in range(shots):
        mover = state.unit(mover_id)
        if not mover.on_map:
            break
        if shot and ab.is_disrupted(state, state.unit(d_id)):
            break  # Overheat disrupted it on the first shot: no more defensive fire (M-8.1, M-12.2)
        p = plan_attack(state, state.unit(d_id), mover, kind="defensive")
        if isinstance(p, str):
            break
        state, more, result = perform(state, p, dice)
        events.extend(more)
        if result.effective:
            stopped = True
            break
    state = state.with_flags(df_fired=state.flags.df_fired | {d_id})
    mip = _mip(state)
    state = replace(state, move=replace(mip, answered=mip.answered | {d_id},
                                        df_hexes=mip.df_hexes + (x,)))
    events.insert(0, DefensiveFireEvent(d_id, mover_id, x, where, stopped, standing))
    return state, events, stopped


def ask_choices(state: MinisState) -> list[tuple[str, str]]:
    """(unit, where) pairs the defender may answer with now."""
    mip = _mip(state)
    a, b = step_hexes(mip)
    mover = state.unit(mip.unit)
    out: list[tuple[str, str]] = []
    for d in provoked(state, mover, a, b):
        if d.id in mip.answered or d.id in mip.entering:
            continue
        if state.standing_order(d.id) != "ask":
            continue
        plans = options_for(state, d)
        if mip.stage == LEAVING:
            for where in (LEAVING, ENTERING):
                if where in plans:
                    out.append((d.id, where))
        elif ENTERING in plans:
            out.append((d.id, ENTERING))
    return out


def run_stage(state: MinisState, dice: Dice) -> tuple[MinisState, list[Event], str]:
    """Resolve the current stage as far as possible.  Returns "stopped", "prompt" (the
    defender must answer) or "continue" (the stage is over, the mover goes on)."""
    events: list[Event] = []
    mip = _mip(state)
    a, b = step_hexes(mip)
    if not mip.auto_done:
        mover = state.unit(mip.unit)
        for d in provoked(state, mover, a, b):
            if d.id in _mip(state).answered or not wants(state, d, mover):
                continue
            d = state.unit(d.id)
            if not may_fire_at_all(state, d, state.unit(mip.unit)):
                continue
            choice = auto_choice(state, d, options_for(state, d))
            if choice != mip.stage:
                continue
            state, more, stopped = fire(state, d.id, choice, dice, standing=state.standing_order(d.id))
            events.extend(more)
            if stopped:
                return state, events, "stopped"
        if mip.stage == ENTERING:
            for d_id in _mip(state).entering:
                d = state.unit(d_id)
                if d.id in _mip(state).answered or not may_fire_at_all(state, d, state.unit(mip.unit)):
                    continue
                if ENTERING not in options_for(state, d):
                    continue
                state, more, stopped = fire(state, d_id, ENTERING, dice, standing=None)
                events.extend(more)
                if stopped:
                    return state, events, "stopped"
        state = replace(state, move=replace(_mip(state), auto_done=True))
    if _mip(state).held:
        return state, events, "continue"
    if ask_choices(state):
        return state, events, "prompt"
    return state, events, "continue"
