"""M-5 Sequence of play: initiative, two movement phases, two assault phases, the
casualty phase, the end of the turn (victory check, turn counter).

Phase changes happen inside the order that ends the previous phase (``done``, or the
initiative winner's ``first``/``second``), so the dice they need (initiative) come from
that order's dice.  Start-of-phase effects: Exert Will at the start of its side's
movement phase.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.game import Outcome
from engine.minis import abilities as ab
from engine.minis.casualty import casualty_phase
from engine.minis.events import CountersCleared, FirstPlayerChosen, PhaseStarted, TurnEnded, Victory
from engine.minis.initiative import roll_initiative
from engine.minis.model import other_side
from engine.minis.state import MinisState, PhaseFlags, Phase
from engine.minis.victory import end_of_turn_winner


def begin_phase(state: MinisState, phase: Phase, active: str) -> tuple[MinisState, list[Event]]:
    state = replace(state, phase=phase, active=active, flags=PhaseFlags(), move=None, chooser=None)
    events: list[Event] = [PhaseStarted(state.turn, phase.value, active)]
    if phase is Phase.MOVEMENT:
        state, more = exert_will(state, active)
        events.extend(more)
    return state, events


def exert_will(state: MinisState, side: str) -> tuple[MinisState, list[Event]]:
    """Exert Will: at the start of your movement phase, Disrupted counters come off
    friendly Soldiers adjacent to a working Commander with it (itself included)."""
    events: list[Event] = []
    for c in state.units:
        if c.side != side or not c.on_map or c.hex is None:
            continue
        if not state.cards[c.card].has("Exert Will") or ab.is_disrupted(state, c):
            continue
        cleared = []
        for u in state.units:
            if (u.side == side and u.on_map and u.hex is not None and u.disrupted
                    and state.cards[u.card].is_soldier and u.hex.distance(c.hex) <= 1):
                cleared.append(u.id)
        for uid in cleared:
            state = state.update_unit(uid, disrupted=False)
        if cleared:
            state = replace(state, overheated=state.overheated - set(cleared))
            events.append(CountersCleared(c.id, tuple(cleared)))
    return state, events


def start_turn(state: MinisState, dice: Dice) -> tuple[MinisState, list[Event]]:
    state = replace(state, flags=PhaseFlags(), move=None)
    events: list[Event] = [PhaseStarted(state.turn, Phase.INITIATIVE.value, None)]
    state, more = roll_initiative(state, dice)
    return state, events + more


def choose_first(state: MinisState, chooser: str, first: bool) -> tuple[MinisState, list[Event]]:
    """M-5.2: the initiative winner picks the first player of this turn."""
    first_side = chooser if first else other_side(chooser)
    state = replace(state, first_player=first_side)
    state, events = begin_phase(state, Phase.MOVEMENT, first_side)
    return state, [FirstPlayerChosen(chooser, first_side, False, state.turn), *events]


def end_phase(state: MinisState, dice: Dice) -> tuple[MinisState, list[Event]]:
    """The active player is done with the current movement or assault phase."""
    first = state.first_player
    assert first is not None
    second = other_side(first)
    if state.phase is Phase.MOVEMENT:
        if state.active == first:
            return begin_phase(state, Phase.MOVEMENT, second)
        return begin_phase(state, Phase.ASSAULT, first)
    if state.phase is Phase.ASSAULT and state.active == first:
        return begin_phase(state, Phase.ASSAULT, second)
    return end_turn(state, dice)


def end_turn(state: MinisState, dice: Dice) -> tuple[MinisState, list[Event]]:
    """Casualty phase (M-16), end of turn: victory check (M-4, M-17.4), next turn."""
    state = replace(state, phase=Phase.CASUALTY, active=None, flags=PhaseFlags(), move=None)
    events: list[Event] = [PhaseStarted(state.turn, Phase.CASUALTY.value, None)]
    state, cas = casualty_phase(state)
    events.append(cas)
    events.append(TurnEnded(state.turn))
    result = end_of_turn_winner(state)
    if result is not None:
        winner, reason = result
        return finish(state, winner, reason, events)
    state = replace(state, turn=state.turn + 1, first_player=None)
    state, more = start_turn(state, dice)
    return state, events + more


def finish(state: MinisState, winner: str | None, reason: str, events: list[Event]
           ) -> tuple[MinisState, list[Event]]:
    state = replace(state, phase=Phase.OVER, active=None, chooser=None, move=None,
                    outcome=Outcome(winner, reason))
    return state, events + [Victory(winner, reason)]
