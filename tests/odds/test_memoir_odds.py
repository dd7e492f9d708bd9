"""Memoir '44 battle dice (E-13, E-14.5) against hand counts."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from engine.core.errors import IllegalOrder, UnknownName
from engine.odds.memoir import MemoirRoll, memoir_odds, target_type


def test_hit_faces_per_target_e_13_1() -> None:
    assert memoir_odds(MemoirRoll(1, "infantry")).hits == (F(1, 2), F(1, 2))
    assert memoir_odds(MemoirRoll(1, "armor")).hits == (F(2, 3), F(1, 3))
    assert memoir_odds(MemoirRoll(1, "artillery")).hits == (F(5, 6), F(1, 6))
    assert memoir_odds(MemoirRoll(2, "armor")).hits == (F(4, 9), F(4, 9), F(1, 9))
    assert memoir_odds(MemoirRoll(2, "infantry")).flags == (F(25, 36), F(10, 36), F(1, 36))


def test_eliminate_with_open_retreat() -> None:
    assert memoir_odds(MemoirRoll(1, "infantry", figures=1)).eliminate == F(1, 2)
    assert memoir_odds(MemoirRoll(3, "infantry", figures=4)).eliminate == 0


def test_blocked_retreat_costs_a_figure_per_flag_e_14_5() -> None:
    assert memoir_odds(MemoirRoll(1, "infantry", figures=1, blocked=True)).eliminate == F(2, 3)
    # 2 dice vs 2 figures: two hits 1/4; a hit and a flag 1/6; two flags 1/36
    assert memoir_odds(MemoirRoll(2, "infantry", figures=2, blocked=True)).eliminate == F(4, 9)


def test_partial_retreat_room() -> None:
    # one hex of room: the second flag costs a figure
    # 2 dice vs 2 figures: (hits, flags) = (0,0) 1/9, (0,1) 1/9, (0,2) 1/36 (one figure
    # lost for the missing hex), (1,0) 1/3, (1,1) 1/6, (2,0) 1/4 (eliminated).
    odds = memoir_odds(MemoirRoll(2, "infantry", figures=2, retreat_room=1))
    assert odds.eliminate == F(1, 4)
    assert odds.figures_lost == (F(2, 9), F(19, 36), F(1, 4))
    assert odds.retreat == {0: F(1, 9) + F(1, 3), 1: F(1, 9) + F(1, 36) + F(1, 6)}


def test_ignored_flags() -> None:
    assert memoir_odds(MemoirRoll(1, "infantry", figures=1, blocked=True, ignore_flags=1)).eliminate == F(1, 2)


def test_hits_come_before_flags_e_13_4() -> None:
    odds = memoir_odds(MemoirRoll(2, "infantry", figures=1))
    assert odds.eliminate == F(3, 4)
    assert odds.retreat is not None
    # the unit survives only with no hit: then it retreats one hex per flag
    assert sum(odds.retreat.values()) == 1 - odds.eliminate
    assert odds.retreat[1] == 2 * F(1, 6) * F(1, 3)
    assert odds.retreat[2] == F(1, 36)


def test_names_and_errors() -> None:
    assert target_type("Armour") == "armor" and target_type("inf") == "infantry"
    with pytest.raises(UnknownName):
        target_type("cavalry")
    with pytest.raises(IllegalOrder):
        memoir_odds(MemoirRoll(0, "infantry"))
    with pytest.raises(IllegalOrder):
        memoir_odds(MemoirRoll(2, "infantry", figures=9))


@pytest.mark.parametrize("roll", [
    MemoirRoll(dice=3, target="infantry", blocked=True),
    MemoirRoll(dice=3, target="infantry", retreat_room=1),
    MemoirRoll(dice=3, target="infantry", ignore_flags=1),
])  # fmt: skip
def test_retreat_options_without_figures_are_refused_not_dropped(roll: MemoirRoll) -> None:
    # They change only the figures the unit loses: without its figures they would change
    # nothing, so the roll is refused with a legal example (as every option that would).
    with pytest.raises(IllegalOrder) as err:
        memoir_odds(roll)
    assert "give its figures too" in err.value.text()
    assert "Legal: /odds memoir … figures:4." in err.value.text()


def test_blocked_and_a_retreat_room_together_are_refused() -> None:
    with pytest.raises(IllegalOrder) as err:
        memoir_odds(MemoirRoll(dice=3, target="infantry", figures=4, blocked=True, retreat_room=2))
    assert "/odds memoir … retreat_room:0" in err.value.text()
    assert "/odds memoir … blocked:false retreat_room:2" in err.value.text()
    # Blocked is a retreat room of 0: the two agree.
    both = memoir_odds(MemoirRoll(dice=3, target="infantry", figures=2, blocked=True, retreat_room=0))
    assert both.eliminate == memoir_odds(MemoirRoll(dice=3, target="infantry", figures=2, blocked=True)).eliminate > 0
