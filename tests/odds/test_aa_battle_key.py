"""AABattle.key: the same question, however typed, has one key (Discord remembers replies
by it, bot.commands.odds); any difference in a battle gives another."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.odds.aa import AABattle

BASE: dict[str, Any] = {"attacker": "3 inf, 1 art, 2 tank, 1 fig", "defender": "4 inf, 1 aa"}


def test_armies_in_any_order_and_spelling_are_one_question() -> None:
    a = AABattle.parse("3 inf, 1 art, 2 tank, 1 fig", "4 inf, 1 aa")
    b = AABattle.parse("1 fighter, 2 armor, 1 artillery, 3 infantry", "1 aagun, 4 infantry")
    assert a.key() == b.key() and hash(a.key()) == hash(b.key())
    # A battle built by code, its armies' units in another order: the same key.
    c = replace(a, attacker=dict(reversed(list(a.attacker.items()))), defender=dict(reversed(list(a.defender.items()))))
    assert list(c.attacker) != list(a.attacker) and c.key() == a.key()


@pytest.mark.parametrize("change", [
    {"attacker": "3 inf, 1 art, 2 tank, 2 fig"},
    {"defender": "5 inf, 1 aa"},
    {"mode": "amphibious", "bombard": "1 bat"},
    {"ool_attacker": "art, inf, tank, fig"},
    {"ool_defender": "aa, inf"},
    {"rounds": 2},
    {"retreat_below": 2},
    {"retreat_left": 2},
    {"keep_land_unit": 1},
    {"tech_attacker": "jets"},
    {"tech_defender": "radar"},
    {"low_luck": True},
    {"retreat_after": 1},
    {"retreat_chance": 40},
    {"retreat_chance": 40.5},
    {"rules": "1942se"},
    {"wave2": "2 tank"},
])  # fmt: skip
def test_every_option_makes_another_question(change: dict[str, Any]) -> None:
    plain = AABattle.parse(BASE["attacker"], BASE["defender"])
    other = AABattle.parse(**{**BASE, **change})
    assert other != plain and other.key() != plain.key()


def test_a_decimal_win_chance_is_another_question() -> None:
    at = [AABattle.parse(**BASE, retreat_chance=x).key() for x in (40, 40.0, 40.5)]
    assert at[0] == at[1] != at[2]
