"""M-2 Army building: lists, points, unit count, side, historical limits, year, secrecy."""

from __future__ import annotations

import pytest

from engine.core.dice import scripted_dice
from engine.core.errors import IllegalOrder, UnknownName
from engine.minis.army import army_cost, army_problems, parse_army_text
from engine.minis.catalogue import load_catalogue
from engine.minis.events import ArmiesLocked, ArmyListed, ArmyReady, CoinToss, is_private
from engine.minis.game import apply_text, new_game, pending
from engine.minis.model import ALLIES, AXIS
from engine.minis.scenario import builtin_document, resolve_scenario
from engine.minis.state import Phase
from engine.minis.visibility import public_units, visible_units

from .helpers import of_type, play

CAT = load_catalogue()
STD = resolve_scenario(builtin_document("standard"), {"map": 1})


def test_m2_list_text_names_cards_by_part_of_their_name_with_counts_in_order() -> None:
    keys = parse_army_text(CAT, "sherman, 2 garand, bazooka")
    assert keys == ("m4a1-sherman", "m1-garand-rifle", "m1-garand-rifle", "bazooka")
    assert parse_army_text(CAT, "3x mauser; pak 38") == ("mauser-kar-98k",) * 3 + ("pak-38-antitank-gun",)


def test_m2_unknown_or_ambiguous_names_are_player_errors_listing_candidates() -> None:
    with pytest.raises(UnknownName):
        parse_army_text(CAT, "king tiger")
    with pytest.raises(UnknownName) as err:
        parse_army_text(CAT, "sherman sherman")  # not a unique card
    assert err.value.legal


def test_m2_1_standard_army_at_most_100_points_and_15_units() -> None:
    tiger_pair = ("tiger-i", "tiger-i")  # 2 × 56 = 112
    assert army_cost(CAT, tiger_pair) == 112
    assert any("112 points, more than 100" in p for p in army_problems(CAT, STD, AXIS, tiger_pair))
    assert army_problems(CAT, STD, AXIS, ("tiger-i", "panzer-iv-ausf-g", "mauser-kar-98k")) == []  # 82
    sixteen = ("mauser-kar-98k",) * 16
    assert any("16 units, more than 15" in p for p in army_problems(CAT, STD, AXIS, sixteen))
    assert army_problems(CAT, STD, AXIS, ("mauser-kar-98k",) * 15) == []  # 45 points


def test_m1_4_units_only_join_their_own_side_and_an_army_is_not_empty() -> None:
    problems = army_problems(CAT, STD, AXIS, ("m4a1-sherman",))
    assert problems == ["M4A1 Sherman fights for the allies, not the axis (M-1.4)"]
    assert army_problems(CAT, STD, AXIS, ()) == ["the army has no units"]


def test_m2_2_m17_1_assault_limits_are_120_for_the_attacker_and_80_for_the_defender() -> None:
    sc = resolve_scenario(builtin_document("assault"), {"map": 1, "attacker": ALLIES})
    assert (sc.armies[ALLIES].points, sc.armies[AXIS].points) == (120, 80)
    assert sc.armies[AXIS].units == sc.armies[ALLIES].units == 15
    axis_90 = ("tiger-i", "ss-hauptsturmfuhrer") + ("mauser-kar-98k",) * 9  # 56 + 7 + 27
    assert army_cost(CAT, axis_90) == 90
    assert army_problems(CAT, sc, AXIS, axis_90) == ["90 points, more than 80 (M-2.1, M-2.2)"]


@pytest.mark.parametrize("keys, legal", [
    (("tiger-i", "carro-armato-m13-40", "fucile-modello-1891"), True),  # Germany + Italy
    (("m4a1-sherman", "inspiring-lieutenant", "mas-7-5mm-rifle"), True),  # USA + UK + France
    (("t-34-76", "commissar", "mosin-nagant-1891-30"), True),  # Soviets only
    (("t-34-76", "m1-garand-rifle"), False),  # Soviet with US
    (("imperial-sergeant", "mauser-kar-98k"), False),  # Japan with Germany
    (("kuomintang-mg-team", "m1-garand-rifle"), False),  # China is in no group: alone
])
def test_m2_3_historical_limits_group_nations(keys: tuple[str, ...], legal: bool) -> None:
    hist = resolve_scenario(builtin_document("standard"), {"map": 1, "historical": True})
    side = CAT[keys[0]].side
    problems = army_problems(CAT, hist, side, keys)
    assert (problems == []) is legal
    if not legal:
        assert problems[0].startswith("historical limits (M-2.3)")
    assert army_problems(CAT, STD, side, keys) == []  # not checked unless turned on


def test_m2_4_year_restriction_keeps_units_of_that_year_or_earlier() -> None:
    y1941 = resolve_scenario(builtin_document("standard"), {"map": 1, "year": 1941})
    assert army_problems(CAT, y1941, AXIS, ("pak-38-antitank-gun", "mauser-kar-98k")) == []  # 1941, 1939
    assert army_problems(CAT, y1941, AXIS, ("tiger-i",)) == ["Tiger I (1942) is later than 1941 (M-2.4)"]


def _game() -> object:
    state, _ = new_game({"scenario": "standard", "map": 1}, scripted_dice([]))
    return state


def test_m2_5_army_lists_are_secret_until_deployment() -> None:
    s = _game()
    assert s.phase is Phase.ARMIES and {p.player for p in pending(s)} == {AXIS, ALLIES}
    s, events = play(s, AXIS, "army tiger, 2 mauser")
    (listed,) = of_type(events, ArmyListed)
    assert listed.private_to == AXIS and is_private(listed)
    assert listed.cards == ("tiger-i", "mauser-kar-98k", "mauser-kar-98k") and listed.cost == 62
    s, events = play(s, AXIS, "ready")
    assert events == (ArmyReady(AXIS, True),) and not any(is_private(e) for e in events)
    assert public_units(s) == ()
    s, _ = play(s, ALLIES, "army sherman, 2 garand")
    s, events = play(s, ALLIES, "ready", [2])
    assert of_type(events, ArmiesLocked) == [ArmiesLocked(((AXIS, 3), (ALLIES, 3)))]  # sizes only
    assert of_type(events, CoinToss) == [CoinToss(2, AXIS)]  # 1–3: the Axis win the toss
    # Unit ids follow list order; nobody sees undeployed enemy units.
    assert [u.id for u in s.units] == ["ax1", "ax2", "ax3", "al1", "al2", "al3"]
    assert s.unit("ax1").card == "tiger-i" and s.unit("al1").card == "m4a1-sherman"
    assert public_units(s) == ()
    assert [u.id for u in visible_units(s, ALLIES)] == ["al1", "al2", "al3"]
    with pytest.raises(UnknownName):
        apply_text(s, ALLIES, "standing ax1 hold", scripted_dice([]))


def test_m2_5_lists_can_be_edited_until_ready_but_not_after_both_are_locked() -> None:
    s = _game()
    s, _ = play(s, AXIS, "army tiger")
    s, _ = play(s, AXIS, "ready")
    s, _ = play(s, AXIS, "army 2 mauser")  # editing withdraws "ready"
    assert AXIS not in s.ready and s.armies[AXIS] == ("mauser-kar-98k", "mauser-kar-98k")
    with pytest.raises(IllegalOrder, match="not legal"):
        play(s, ALLIES, "ready")  # an empty list
    s, _ = play(s, AXIS, "ready")
    s, _ = play(s, ALLIES, "army sherman")
    s, _ = play(s, ALLIES, "ready", [6])
    assert s.phase is Phase.DEPLOYMENT
    with pytest.raises(IllegalOrder, match="armies phase"):
        play(s, ALLIES, "army 2 sherman")


def test_m2_over_budget_list_can_be_entered_but_not_readied() -> None:
    s = _game()
    s, events = play(s, AXIS, "army 2 tiger")
    assert of_type(events, ArmyListed)[0].problems == ("112 points, more than 100 (M-2.1, M-2.2)",)
    with pytest.raises(IllegalOrder, match="112 points"):
        play(s, AXIS, "ready")


def test_cost_set_2005_uses_the_printed_costs() -> None:
    s, _ = new_game({"scenario": "standard", "map": 1, "cost_set": "2005"}, scripted_dice([]))
    assert s.cards["panzer-iv-ausf-g"].cost == 30 and s.cards["m4a1-sherman"].cost == 21
    s, events = play(s, AXIS, "army panzer iv")
    assert of_type(events, ArmyListed)[0].cost == 30


def test_custom_cards_join_the_catalogue_and_bad_ones_are_refused() -> None:
    text = ('{"format": "warroom-minis-units", "version": 1, "cards": [{"key": "my-rifle", "name": "My Rifle",'
            ' "nation": "Germany", "side": "axis", "type": "Soldier", "subtype": null, "year": 1940, "cost": 2,'
            ' "speed": 1, "defense": [4, 4], "vs_soldier": [6, 4, null], "vs_vehicle": [1, null, null],'
            ' "abilities": []}]}')
    s, _ = new_game({"scenario": "standard", "map": 1, "custom_cards": text}, scripted_dice([]))
    s, events = play(s, AXIS, "army 3 my rifle")
    assert of_type(events, ArmyListed)[0].cost == 6
    from engine.core.errors import DataError
    with pytest.raises(DataError):
        new_game({"scenario": "standard", "map": 1, "custom_cards": text.replace('"cost": 2', '"cost": -2')},
                 scripted_dice([]))
