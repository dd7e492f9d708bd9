"""A-7 research, A-8 purchase and repair, A-12 mobilisation, with exact dice and IPCs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.aa.combat import plan_battles
from engine.aa.events import Income, Purchased, Researched, Rolled
from engine.aa.game import apply_text, pending
from engine.aa.state import COMBAT, COMBAT_MOVE, MOBILISE, PURCHASE, RESEARCH, AAState
from engine.aa.units import cost_of, move_of
from engine.core.dice import scripted_dice
from engine.core.errors import IllegalOrder

from .helpers import add, empty, fresh, ids, kinds_at, play, turn

G = "Germany"


def refused(state: AAState, seat: str, text: str, match: str) -> None:
    with pytest.raises(IllegalOrder, match=match):
        apply_text(state, seat, text, scripted_dice([]))


def techs(state: AAState, power: str, *names: str) -> AAState:
    return replace(state, techs={**state.techs, power: frozenset(names)})


# ---------------------------------------------------------------------------


def test_a7_1_a_six_gives_one_breakthrough_and_spends_every_researcher() -> None:
    state = fresh("1941")
    refused(state, G, "research 2", "Name the chart")
    refused(state, G, "research 7 chart 1", "cost 35")
    state, events = play(state, G, "research 2 chart 1", dice=[3, 6, 1])
    assert Researched(G, 2, (3, 6), 1, (1,), "advanced artillery") in events
    assert state.tech(G) == {"advanced artillery"} and state.researchers[G] == 0 and state.ipcs[G] == 21
    assert state.phase == PURCHASE


def test_a7_2_without_a_six_researchers_stay_for_later() -> None:
    state, events = play(fresh("1941"), G, "research 1 chart 2", dice=[5])
    assert state.researchers[G] == 1 and state.tech(G) == frozenset()
    later = turn(state, G, RESEARCH)
    later, events = play(later, G, "research 0 chart 2", dice=[6, 2])
    assert Researched(G, 0, (6,), 2, (2,), "jet fighters") in events


def test_a7_3_a_breakthrough_already_owned_is_rolled_again() -> None:
    state = techs(fresh("1941"), G, "super submarines", "jet fighters")
    state, events = play(state, G, "research 1 chart 2", dice=[6, 1, 2, 1, 4])
    assert Researched(G, 1, (6,), 2, (1, 2, 1, 4), "radar") in events


def test_a7_optional_rule_off_skips_research() -> None:
    state = fresh("1941", research=False)
    assert state.phase == PURCHASE


def test_a7_effects_on_movement_costs_and_production() -> None:
    assert move_of("fighter", frozenset({"long-range aircraft"})) == 6
    assert move_of("bomber", frozenset({"long-range aircraft"})) == 8
    assert cost_of("battleship", frozenset({"improved shipyards"})) == 17
    assert cost_of("transport", frozenset({"improved shipyards"})) == 6
    state = turn(techs(empty(), G, "increased factory production"), G, MOBILISE)
    state = replace(state, pool={G: (("infantry", 13),)})
    state, _ = play(state, G, "place 12 inf: Germany")
    assert kinds_at(state, "Germany", G) == {"infantry": 12}  # 10 + 2
    assert state.pool_of(G) == {"infantry": 1} and state.power == "Soviet Union"  # waits


def test_a7_jets_and_super_submarines_use_the_calculators_profiles() -> None:
    state = add(empty(), G, "fighter", "Ukraine", p3=True, came_from="Poland")
    state = add(state, "Soviet Union", "infantry", "Ukraine")
    state = turn(techs(state, G, "jet fighters"), G, COMBAT)
    state, events = play(replace(state, sites=plan_battles(state)), G, "battle Ukraine", dice=[4, 6])
    assert [(e.what, e.target) for e in events if isinstance(e, Rolled)] == [("fighter", 4), ("infantry", 2)]


def test_a7_war_bonds_pay_a_die_of_ipcs() -> None:
    state = turn(techs(fresh("1941", national_objectives=False), G, "war bonds"), G, MOBILISE)
    state, events = play(state, G, "done", dice=[4])
    income = next(e for e in events if isinstance(e, Income))
    assert (income.territories, income.war_bonds, income.total) == (31, 4, 35)


def test_a7_6_paratroopers_ride_bombers_and_die_with_them() -> None:
    state = add(add(empty(), G, "bomber", "Germany"), G, "infantry", "Germany")
    state = add(state, "Soviet Union", "aa gun", "East Poland")
    state = turn(techs(state, G, "paratroopers"), G, COMBAT_MOVE)
    refused(state, G, "para 1 inf: Germany -> Poland -> East Poland -> Belorussia", "first hostile")
    state, _ = play(state, G, "para 1 inf: Germany -> Poland -> East Poland")
    inf = state.units[ids(state, G, "infantry", "East Poland")[0]]
    assert inf.aboard == ids(state, G, "bomber", "East Poland")[0]
    state, events = play(state, G, "done", dice=[1])  # AA fire downs the bomber: the infantry is lost
    assert kinds_at(state, "East Poland", G) == {} and state.control["East Poland"] == "Soviet Union"


# ---------------------------------------------------------------------------


def test_a8_1_purchases_are_limited_by_ipcs_and_may_be_replaced() -> None:
    state = turn(fresh("1941"), G, PURCHASE)
    refused(state, G, "buy 11 inf", "costs 33")
    state, _ = play(state, G, "buy 10 inf")
    state, _ = play(state, G, "buy 2 tank, 1 fig")
    state, events = play(state, G, "done")
    assert Purchased(G, "2 tank, 1 fig", (), 20, 0) in events
    assert state.ipcs[G] == 11 and state.pool_of(G) == {"tank": 2, "fighter": 1}


def test_a8_warns_when_the_pool_exceeds_placement_capacity() -> None:
    state = turn(replace(fresh("1941"), ipcs={**fresh("1941").ipcs, G: 60}), G, PURCHASE)
    state, events = play(state, G, "buy 20 inf", "done")
    assert next(e for e in events if isinstance(e, Purchased)).over_capacity == 10


def test_a8_2_repairs_act_at_once_and_cost_less_with_increased_factory_production() -> None:
    state = turn(replace(fresh("1941"), factories={**fresh("1941").factories, G: 5}), G, PURCHASE)
    refused(state, G, "buy 1 inf; repair Germany 6", "5 damage")
    refused(state, G, "buy 1 inf; repair Russia 1", "no industrial complex")
    state2, _ = play(state, G, "buy 1 inf; repair Germany 5", "done")
    assert state2.factories[G] == 0 and state2.ipcs[G] == 31 - 3 - 5
    ifp = techs(state, G, "increased factory production")
    ifp, _ = play(ifp, G, "buy nothing; repair Germany 5", "done")
    assert ifp.ipcs[G] == 31 - 3  # 5 markers at half price, the odd one costs 1


# ---------------------------------------------------------------------------


def mob(state: AAState, pool: dict[str, int], power: str = G) -> AAState:
    return replace(turn(state, power, MOBILISE), pool={power: tuple(pool.items())})


def test_a12_2_each_factory_places_up_to_its_value_minus_damage() -> None:
    state = mob(replace(empty(), factories={**empty().factories, "Karelia S.S.R.": 1}), {"infantry": 3},
                "Soviet Union")
    refused(state, "Soviet Union", "place 2 inf: Karelia S.S.R.", "1 more")
    state, _ = play(state, "Soviet Union", "place 1 inf: Karelia S.S.R.", "place 2 inf: Russia")
    assert state.power == "Japan"


def test_a12_4_ships_go_next_to_the_factory_and_fighters_onto_own_carriers() -> None:
    state = mob(empty(), {"carrier": 1, "fighter": 2, "infantry": 1, "destroyer": 1})
    refused(state, G, "place 1 des: Germany", "sea zone next")
    refused(state, G, "place 1 des: Germany -> 6 Sea Zone", "not next")
    refused(state, G, "place 1 fig: Germany -> 5 Sea Zone", "own carriers")
    refused(state, G, "place 1 inf: Germany -> 5 Sea Zone", "territory")
    state, _ = play(state, G, "place 1 car, 2 fig: Germany -> 5 Sea Zone", "place 1 des: Germany -> 5 Sea Zone")
    assert kinds_at(state, "5 Sea Zone", G) == {"fighter": 2, "destroyer": 1, "carrier": 1}
    assert state.phase == MOBILISE
    refused(state, G, "done", "Everything placeable")
    state, _ = play(state, G, "place 1 inf: Germany")
    assert state.power == "Soviet Union"


def test_a12_1_no_placement_at_a_factory_taken_this_turn_a12_5_new_factories() -> None:
    state = empty()
    state = replace(state, control={**state.control, "Karelia S.S.R.": G, "Ukraine": G},
                    captured=frozenset({"Karelia S.S.R."}))
    state = mob(state, {"infantry": 2, "factory": 1})
    state = replace(state, control_start={**state.control, "Karelia S.S.R.": "Soviet Union"})
    refused(state, G, "place 1 inf: Karelia S.S.R.", "cannot mobilise")
    refused(state, G, "place 1 factory: Karelia S.S.R.", "industrial complex goes")
    refused(state, G, "place 1 factory: Gibraltar", "industrial complex goes")
    state, _ = play(state, G, "place 1 factory: Ukraine")
    assert "Ukraine" in state.factories and state.factories["Ukraine"] == 0
    refused(state, G, "place 1 inf: Ukraine", "cannot mobilise")  # usable from the next turn
    state, _ = play(state, G, "place 2 inf: Germany")
    assert state.power == "Soviet Union"


def test_a12_6_damage_at_capacity_stops_placement() -> None:
    state = mob(replace(empty(), factories={**empty().factories, G: 10}), {"infantry": 1})
    assert state.phase == MOBILISE and not pending(state)[0].choices == ()
    refused(state, G, "place 1 inf: Germany", "0 more")
