"""M-5 Sequence of play and initiative; M-5.6 hits take effect in the casualty phase."""

from __future__ import annotations

import pytest

from engine.core.dice import scripted_dice
from engine.core.errors import IllegalOrder, NotYourTurn
from engine.minis.events import Attacked, FirstPlayerChosen, InitiativeRolled, PhaseStarted
from engine.minis.game import pending
from engine.minis.initiative import initiative_bonus, roll_initiative
from engine.minis.model import ALLIES, AXIS
from engine.minis.state import Hit, Phase

from .helpers import (
    GARAND, HAUPTSTURM, KAR98, LIEUTENANT, PANZER, RED_DEVIL, SHERMAN, battle, of_type, open_map, play,
)


def _commanders(**changes: dict) -> object:
    return battle(open_map(), [("ax1", HAUPTSTURM, "B2"), ("ax2", KAR98, "B3"),
                               ("al1", RED_DEVIL, "J2"), ("al2", LIEUTENANT, "J3")],
                  phase=Phase.CASUALTY, **changes)


def test_m5_1_m14_4_best_commander_bonus_only_and_not_when_disrupted() -> None:
    s = _commanders()
    assert initiative_bonus(s, AXIS) == 3
    assert initiative_bonus(s, ALLIES) == 2  # two +2 commanders do not add up (M-14.4)
    s = _commanders(al1={"disrupted": True}, al2={"disrupted": True})
    assert initiative_bonus(s, ALLIES) == 0
    # Ruling: Fanatic ignores the Disrupted counter, so the Hauptsturmführer still commands.
    s = _commanders(ax1={"disrupted": True})
    assert initiative_bonus(s, AXIS) == 3


def test_m5_1_higher_total_wins_then_higher_bonus_then_both_roll_again() -> None:
    s = _commanders()
    s2, events = roll_initiative(s, scripted_dice([2, 3, 4, 2]))  # 5+3 = 8 vs 6+2 = 8
    assert events == [InitiativeRolled(1, (2, 3), (4, 2), 3, 2, AXIS)]
    assert s2.phase is Phase.INITIATIVE and s2.chooser == AXIS
    s2, events = roll_initiative(s, scripted_dice([1, 1, 6, 1]))  # 2+3 = 5 vs 7+2 = 9
    assert events[-1].winner == ALLIES
    no_cmd = battle(open_map(), [("ax1", KAR98, "B2"), ("al1", GARAND, "J2")], phase=Phase.CASUALTY)
    s2, events = roll_initiative(no_cmd, scripted_dice([3, 3, 4, 2, 1, 1, 2, 2]))
    assert [e.winner for e in events] == [None, ALLIES]


def test_m5_2_the_winner_chooses_the_first_player_of_the_turn() -> None:
    s = _commanders()
    s, _ = roll_initiative(s, scripted_dice([6, 6, 1, 1]))
    (p,) = pending(s)
    assert (p.player, p.choices) == (AXIS, ("first", "second"))
    with pytest.raises(NotYourTurn):
        play(s, ALLIES, "first")
    s, events = play(s, AXIS, "second")
    assert s.first_player == ALLIES and s.phase is Phase.MOVEMENT and s.active == ALLIES
    assert of_type(events, PhaseStarted)[0] == PhaseStarted(1, "movement", ALLIES)
    assert of_type(events, FirstPlayerChosen) == [FirstPlayerChosen(AXIS, ALLIES, False, 1)]


def test_m5_phases_run_movement_movement_assault_assault_casualty_then_next_turn() -> None:
    """M-5, and M-5.3: a player may move none of their units and end the phase."""
    s = battle(open_map(), [("ax1", KAR98, "B2"), ("al1", GARAND, "J2")], first=ALLIES, active=ALLIES)
    seen = []
    for side in (ALLIES, AXIS, ALLIES):
        s, events = play(s, side, "done")
        seen += [(e.phase, e.active) for e in of_type(events, PhaseStarted)]
    with pytest.raises(NotYourTurn):
        play(s, ALLIES, "done")
    s, events = play(s, AXIS, "done", [1, 1, 6, 6])  # casualty, end of turn 1, initiative of turn 2
    seen += [(e.phase, e.active) for e in of_type(events, PhaseStarted)]
    assert seen == [("movement", AXIS), ("assault", ALLIES), ("assault", AXIS),
                    ("casualty", None), ("initiative", None)]
    assert s.turn == 2 and s.chooser == ALLIES


def test_m5_4_an_activated_unit_moves_or_attacks_not_both() -> None:
    s = battle(open_map(), [("ax1", KAR98, "D5"), ("al1", GARAND, "F5")], phase=Phase.ASSAULT)
    s1, _ = play(s, AXIS, "move ax1 D4")
    with pytest.raises(IllegalOrder, match="no attack left"):
        play(s1, AXIS, "attack ax1 al1")
    s2, _ = play(s, AXIS, "attack ax1 al1", [1] * 6)
    with pytest.raises(IllegalOrder, match="cannot also move"):
        play(s2, AXIS, "move ax1 D4")
    with pytest.raises(IllegalOrder, match="no attack left"):
        play(s2, AXIS, "attack ax1 al1")


def test_m5_6_a_unit_destroyed_in_the_first_assault_phase_still_attacks_in_the_second() -> None:
    s = battle(open_map(), [("ax1", PANZER, "D5", "SE"), ("al1", SHERMAN, "E5", "SW"),
                            ("ax2", KAR98, "A1"), ("al2", GARAND, "L10")],
               phase=Phase.ASSAULT, first=AXIS, active=AXIS)
    s, events = play(s, AXIS, "attack ax1 al1", [6] * 15)  # 15 successes vs 5: three hits
    assert s.unit("al1").hits == (Hit.DISRUPTED, Hit.DAMAGED, Hit.DESTROYED) and s.unit("al1").on_map
    s, _ = play(s, AXIS, "done")
    s, events = play(s, ALLIES, "attack al1 ax1", [6] * 13)
    assert of_type(events, Attacked)[0].modifier == 0  # face-down counters change nothing yet
    s, events = play(s, ALLIES, "done", [6, 6, 1, 1])
    assert s.unit("al1").destroyed and not s.unit("al1").on_map
