"""Worked examples for spec rules that had no test citing them: income and objectives
(A-13), sea-zone hostility (A-2.6, A-9.6, A-11.3), sides (A-1.5), China (A-4.3, A-5.1,
A-5.9, A-5.10), allied factories (A-12.3), overflights (A-9.8), combat moves before
battles (A-9.3), ships sharing a zone with enemy warships (A-9.7), where units may stand
(A-14.1).  Every die is scripted and every expectation exact."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.aa.combat import plan_battles
from engine.aa.economy import objective_met, objectives, production
from engine.aa.events import BattleStarted, Income, Rolled
from engine.aa.game import apply_text
from engine.aa.state import COMBAT, COMBAT_MOVE, MOBILISE, NONCOMBAT, AAState
from engine.core.dice import scripted_dice
from engine.core.errors import IllegalOrder

from .helpers import add, empty, fresh, kinds_at, play, turn

G, R, UK, US, I, C = "Germany", "Soviet Union", "United Kingdom", "United States", "Italy", "China"


def refused(state: AAState, seat: str, text: str, match: str) -> None:
    before = state
    with pytest.raises(IllegalOrder, match=match):
        apply_text(state, seat, text, scripted_dice([]))
    assert state == before


def owned(state: AAState, **control: str) -> AAState:
    return replace(state, control={**state.control, **{k.replace("_", " "): v for k, v in control.items()}})


def test_a13_1_income_is_the_value_of_the_territories_controlled_in_phase_7() -> None:
    s = owned(empty("1941", national_objectives=False), Ukraine=G)
    ukraine = s.board.space("Ukraine").ipc
    assert ukraine > 0 and production(s, G) == 31 + ukraine
    s = turn(s, G, NONCOMBAT)
    s, events = play(s, G, "done")
    income = next(e for e in events if isinstance(e, Income))
    assert (income.power, income.territories, income.total) == (G, 31 + ukraine, 31 + ukraine)
    assert s.ipcs[G] == 31 + 31 + ukraine


def test_a13_2_no_income_and_no_objective_bonus_while_the_capital_is_enemy_held() -> None:
    s = replace(empty("1941"), control={**empty("1941").control, "Germany": R, "Karelia S.S.R.": G})
    assert objective_met(s, objectives()[2])  # it would pay 5 with Berlin in German hands
    s = turn(replace(s, ipcs={**s.ipcs, G: 0}), G, NONCOMBAT, phases=(NONCOMBAT,))
    s, events = play(s, G, "done")
    income = next(e for e in events if isinstance(e, Income) and e.power == G)
    assert (income.total, income.objectives, s.ipcs[G]) == (0, (), 0)


def test_a13_3_an_objective_pays_its_power_when_an_ally_holds_the_territory() -> None:
    """"Allies control" means any Allied power: the US France objective is met by a
    British-held France (A-13.3); "originally Japanese" excludes Manchuria (A-13.4)."""
    us_france, uk_japanese = objectives()[10], objectives()[13]
    assert (us_france["power"], uk_japanese["power"]) == (US, UK)
    s = fresh("1941")
    assert not objective_met(s, us_france)
    assert objective_met(owned(s, France=UK), us_france)
    assert not objective_met(owned(s, Manchuria=C), uk_japanese)
    assert objective_met(owned(s, Okinawa=US), uk_japanese)


def test_a2_6_enemy_submarines_and_transports_alone_never_make_a_zone_hostile() -> None:
    s = add(add(empty(), UK, "submarine", "5 Sea Zone"), UK, "transport", "5 Sea Zone")
    assert not s.enemy_surface("5 Sea Zone", G)
    s = add(s, UK, "destroyer", "5 Sea Zone")
    assert s.enemy_surface("5 Sea Zone", G) and not s.enemy_surface("5 Sea Zone", US)


def test_a11_3_ships_end_the_non_combat_move_only_in_friendly_zones() -> None:
    """A-11.3 (with A-2.6, A-9.6): a zone with only an enemy submarine is friendly enough
    to end in; one with an enemy destroyer is not."""
    s = add(empty(), G, "cruiser", "6 Sea Zone", 2)
    s = add(add(s, UK, "submarine", "7 Sea Zone"), UK, "destroyer", "3 Sea Zone")
    s = turn(s, G, NONCOMBAT)
    refused(s, G, "move 1 cru: 6 Sea Zone -> 3 Sea Zone", "hostile|friendly")
    s, _ = play(s, G, "move 1 cru: 6 Sea Zone -> 7 Sea Zone")
    assert kinds_at(s, "7 Sea Zone", G) == {"cruiser": 1}


def test_a1_5_units_in_an_allys_territory_never_make_a_battle() -> None:
    s = add(owned(empty(), East_Poland=I), G, "infantry", "Poland", 2)
    s = turn(s, G, COMBAT_MOVE)
    refused(s, G, "move 2 inf: Poland -> East Poland", "hostile|friendly")  # no combat move into it
    s = add(s, I, "infantry", "East Poland")
    s = add(s, G, "tank", "East Poland", p3=True, moved=1, came_from="Poland")
    assert [x.where for x in plan_battles(s)] == []


def test_a4_3_a5_1_china_has_no_income_and_buys_nothing() -> None:
    s = fresh("1941")
    assert sum(s.board.space(t).ipc for t, p in s.control.items() if p == C) == 7
    assert s.ipcs.get(C, 0) == 0 and C not in s.turn_order  # its turn lives in the US turn


def test_a5_9_china_starts_with_the_flying_tigers_fighter_only() -> None:
    for setup in ("1941", "1942"):
        s = fresh(setup)
        air = [u.kind for u in s.units.values() if u.owner == C and u.is_air]
        assert air == ["fighter"], setup


def test_a5_10_an_ally_taking_a_chinese_territory_returns_it_to_china() -> None:
    """A-5.10 and the A-5.2 ruling: the ally never takes control; China does."""
    s = owned(empty(), Yunnan="Japan")
    s = add(s, UK, "infantry", "Yunnan", p3=True, moved=1, came_from="Burma")
    s = turn(s, UK, COMBAT)
    s = replace(s, sites=plan_battles(s))
    s, _ = play(s, UK, "battle Yunnan")
    assert s.control["Yunnan"] == C


def test_a12_3_never_place_at_an_allys_factory() -> None:
    s = turn(replace(empty(), pool={G: (("infantry", 1),)}), G, MOBILISE)
    refused(s, G, "place 1 inf: Italy", "cannot mobilise at Italy")
    s, _ = play(s, G, "place 1 inf: Germany")
    assert kinds_at(s, "Germany", G) == {"infantry": 1}


def test_a9_8_aa_guns_never_fire_at_overflying_aircraft() -> None:
    s = add(empty(), G, "fighter", "Poland")
    s = add(add(s, R, "aa gun", "East Poland"), R, "infantry", "Belorussia")
    s = turn(s, G, COMBAT_MOVE)
    s, _ = play(s, G, "move 1 fig: Poland -> East Poland -> Belorussia")
    s, events = play(s, G, "done", dice=[1, 6])  # the one battle starts by itself
    assert [(e.side, e.what, tuple(e.dice)) for e in events if isinstance(e, Rolled)] == [
        ("attacker", "fighter", (1,)), ("defender", "infantry", (6,))]
    assert kinds_at(s, "East Poland", R) == {"aa gun": 1}


def test_a14_1_ships_stay_at_sea_and_land_units_on_land() -> None:
    s = add(add(empty(), G, "battleship", "5 Sea Zone"), G, "infantry", "Germany")
    s = turn(s, G, NONCOMBAT)
    refused(s, G, "move 1 bat: 5 Sea Zone -> Germany", r"Ships stay at sea \(A-14.1\)")
    refused(s, G, "move 1 inf: Germany -> 5 Sea Zone", "only by loading a transport")


def test_a11_5_a_transport_that_moved_in_the_combat_move_stays_put_in_phase_5() -> None:
    s = add(add(empty(), G, "transport", "6 Sea Zone", p3=True, moved=1), G, "transport", "6 Sea Zone")
    s = turn(s, G, NONCOMBAT)
    refused(s, G, "move 2 tra: 6 Sea Zone -> 7 Sea Zone", "Only 1 of your 2 tra")
    s, _ = play(s, G, "move 1 tra: 6 Sea Zone -> 7 Sea Zone")
    assert kinds_at(s, "7 Sea Zone", G) == {"transport": 1} and kinds_at(s, "6 Sea Zone", G) == {"transport": 1}


def test_a5_7_china_captures_its_original_territories() -> None:
    s = owned(empty(), Manchuria="Japan")
    s = add(s, C, "infantry", "Manchuria", p3=True, moved=1, came_from="Suiyuan")
    s = turn(s, C, COMBAT)
    s = replace(s, sites=plan_battles(s))
    s, _ = play(s, C, "battle Manchuria")
    assert s.control["Manchuria"] == C


def test_a2_8_a9_10_an_island_and_its_sea_zone_are_two_spaces() -> None:
    b = empty().board
    (zone,) = b.adj["Iwo Jima"]
    far = b.distances("Iwo Jima")
    assert far[zone] == 1
    assert {far[n] for n in b.adj[zone] if b.is_sea(n)} == {2}


def test_a9_3_every_combat_move_comes_before_any_battle_and_nothing_moves_in_combat() -> None:
    """A-9.3: moves are only made in the combat move; once it is done the battles follow,
    and no unit may move (or join a battle) while they are fought."""
    s = add(add(empty(), G, "infantry", "Poland", 3), G, "infantry", "Bulgaria Romania", 2)
    s = add(add(s, R, "infantry", "East Poland"), R, "infantry", "Ukraine")
    s = turn(s, G, COMBAT_MOVE)
    s, first = play(s, G, "move 2 inf: Poland -> East Poland")
    s, second = play(s, G, "move 2 inf: Bulgaria Romania -> Ukraine")
    assert not [e for e in first + second if isinstance(e, (BattleStarted, Rolled))]  # no battle yet
    s, _ = play(s, G, "done")
    assert s.phase == COMBAT
    refused(s, G, "move 1 inf: Poland -> East Poland", "move only in the combat and non-combat moves")
    refused(s, G, "move 1 inf: East Poland -> Belorussia", "move only in the combat and non-combat moves")


def test_a9_7_ships_sharing_a_zone_with_enemy_warships_may_stay_and_fight_or_leave() -> None:
    """A-9.7: a German cruiser starts its turn beside a British destroyer.  Staying means
    a battle there (the ruling); leaving means none, and a ship that moved in the combat
    move cannot move again in the non-combat move."""
    s = turn(add(add(empty(), G, "cruiser", "5 Sea Zone"), UK, "destroyer", "5 Sea Zone"), G, COMBAT_MOVE)
    stay, events = play(s, G, "done", dice=[1, 6])  # cruiser hits on 1 (≤3), destroyer misses
    assert [e.where for e in events if isinstance(e, BattleStarted)] == ["5 Sea Zone"]
    assert kinds_at(stay, "5 Sea Zone") == {"cruiser": 1} and stay.phase == NONCOMBAT
    left, _ = play(s, G, "move 1 cru: 5 Sea Zone -> 6 Sea Zone")
    left, events = play(left, G, "done")
    assert not [e for e in events if isinstance(e, BattleStarted)]
    assert (kinds_at(left, "5 Sea Zone"), kinds_at(left, "6 Sea Zone")) == ({"destroyer": 1}, {"cruiser": 1})
    refused(left, G, "move 1 cru: 6 Sea Zone -> 5 Sea Zone", "moved, loaded or unloaded in the combat move")
    # ... or leave to fight elsewhere: the battle is where it went, not where it started.
    away, _ = play(add(s, UK, "destroyer", "6 Sea Zone"), G, "move 1 cru: 5 Sea Zone -> 6 Sea Zone")
    away, events = play(away, G, "done", dice=[1, 6])
    assert [e.where for e in events if isinstance(e, BattleStarted)] == ["6 Sea Zone"]
    assert kinds_at(away, "5 Sea Zone") == {"destroyer": 1}
