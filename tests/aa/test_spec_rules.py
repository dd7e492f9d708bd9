"""Worked examples for spec rules that had no test citing them: income and objectives
(A-13), sea-zone hostility (A-2.6, A-9.6, A-11.3), sides (A-1.5), China (A-4.3, A-5.1,
A-5.9, A-5.10), allied factories (A-12.3), overflights (A-9.8), combat moves before
battles (A-9.3), ships sharing a zone with enemy warships (A-9.7), where units may stand
(A-14.1), friendly and hostile land (A-2.3), unlimited pieces (A-4.7), no IPC transfers
(A-8.3), emptied and shared spaces (A-9.5), Chinese placement (A-12.7), AA guns' owners
(A-14.3) and the powers' colours on the map (A-1.6).  Every die is scripted and every
expectation exact."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine.aa.combat import plan_battles
from engine.aa.economy import objective_met, objectives, production
from engine.aa.events import BattleEnded, BattleStarted, Captured, Income, Lost, Placed, Purchased, Rolled
from engine.aa.game import apply_text
from engine.aa.state import COMBAT, COMBAT_MOVE, MOBILISE, NONCOMBAT, POWERS, PURCHASE, AAState
from engine.core.dice import scripted_dice
from engine.core.errors import IllegalOrder
from render.aa.world import colour, theme

from .helpers import add, empty, fresh, in_combat, kinds_at, play, turn

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
    # The US turn ends: income goes to the US only, China's 7 IPCs of territory pay nobody.
    us_before = s.ipcs[US]
    s, events = play(turn(s, US, NONCOMBAT), US, "done")
    incomes = [(e.power, e.territories, e.total) for e in events if isinstance(e, Income)]
    assert [(p, t) for p, t, _ in incomes] == [(US, 40)] and s.ipcs.get(C, 0) == 0  # 40: the US's own
    assert s.ipcs[US] == us_before + incomes[0][2]


def test_a5_9_china_starts_with_the_flying_tigers_fighter_only() -> None:
    for setup in ("1941", "1942"):
        s = fresh(setup)
        air = [u.kind for u in s.units.values() if u.owner == C and u.is_air]
        assert air == ["fighter"], setup


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


@pytest.mark.parametrize("power, where, came_from, owner", [
    pytest.param(C, "Manchuria", "Suiyuan", C, id="a5_7-china-takes-its-original-territory"),
    pytest.param(UK, "Yunnan", "Burma", C, id="a5_10-an-ally-liberates-it-for-china"),  # and ruling
])
def test_a5_7_a5_10_who_controls_a_chinese_territory_taken_from_japan(power: str, where: str, came_from: str,
                                                                       owner: str) -> None:
    """A-5.7: China captures its original territories; A-5.10 (with the A-5.2 ruling): an
    ally taking a Chinese territory never controls it, China does."""
    s = add(owned(empty(), **{where: "Japan"}), power, "infantry", where, p3=True, moved=1, came_from=came_from)
    s, _ = play(in_combat(s, power), power, f"battle {where}")
    assert s.control[where] == owner


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


def test_a2_3_land_is_friendly_hostile_or_neutral() -> None:
    """A-2.3: held by one's own side (Italy's Balkans, for Germany), by the other side
    (the Soviet Belorussia) or by nobody (Spain).  Non-combat moves end only on friendly
    land; combat moves go only into hostile land; neutral land is neither (A-2.4)."""
    s = empty()
    assert (s.friendly("Balkans", G), s.hostile("Balkans", G)) == (True, False)
    assert (s.friendly("Balkans", UK), s.hostile("Balkans", UK)) == (False, True)
    assert (s.friendly("Spain", G), s.hostile("Spain", G), s.friendly("Spain", UK), s.hostile("Spain", UK)) == (
        False, False, False, False)
    s = add(add(s, G, "infantry", "Germany"), G, "infantry", "Poland")
    refused(turn(s, G, NONCOMBAT), G, "move 1 inf: Poland -> East Poland", "hostile|friendly")
    refused(turn(s, G, COMBAT_MOVE), G, "move 1 inf: Germany -> Balkans", "hostile|friendly")
    moved, _ = play(turn(s, G, NONCOMBAT), G, "move 1 inf: Germany -> Balkans")
    assert kinds_at(moved, "Balkans", G) == {"infantry": 1}
    attacked, _ = play(turn(s, G, COMBAT_MOVE), G, "move 1 inf: Poland -> East Poland")
    assert kinds_at(attacked, "East Poland", G) == {"infantry": 1}


def test_a4_7_the_boxs_piece_counts_never_limit_a_purchase() -> None:
    """A-4.7: 900 infantry (far more than any box holds) are bought and paid for."""
    s = turn(replace(empty(), ipcs={**empty().ipcs, G: 3000}), G, PURCHASE)
    s, _ = play(s, G, "buy 900 inf")
    s, events = play(s, G, "done")
    assert s.pool_of(G) == {"infantry": 900} and s.ipcs[G] == 3000 - 900 * 3
    assert [(e.units, e.cost) for e in events if isinstance(e, Purchased)] == [("900 inf", 2700)]


def test_a8_3_no_power_lends_or_gives_ipcs_to_another() -> None:
    """A-8.3: a transfer is refused by name, and a purchase is paid from the buyer's own
    IPCs only — Italy's 10 never top up Germany's 31 (and stay Italy's)."""
    s = turn(empty(), G, PURCHASE)
    assert (s.ipcs[G], s.ipcs[I]) == (31, 10)
    for text in ("give 10 Italy", "lend 5 ipcs to Italy", "transfer 10 Italy", "pay Italy 5"):
        refused(s, G, text, r"never lent or given to another power, allies included \(A-8.3\)")
    refused(s, G, "buy 11 inf", r"That costs 33 IPCs; Germany has 31 \(A-8.1\)")
    s, _ = play(s, G, "buy 10 inf", "done")
    assert (s.ipcs[G], s.ipcs[I]) == (1, 10)


def test_a9_5_an_emptied_territory_stays_the_movers_until_an_enemy_takes_it() -> None:
    s = add(add(empty(), G, "infantry", "Poland"), R, "infantry", "East Poland")
    s, _ = play(turn(s, G, NONCOMBAT), G, "move 1 inf: Poland -> Germany")
    assert kinds_at(s, "Poland") == {} and s.control["Poland"] == G
    s, events = play(s, G, "done")  # the German turn ends with Poland still German (and paying)
    assert s.control["Poland"] == G and s.actor == R
    assert [e.territories for e in events if isinstance(e, Income)] == [31]  # Poland still counted
    s, _ = play(turn(s, R, COMBAT_MOVE), R, "move 1 inf: East Poland -> Poland")
    s, events = play(s, R, "done")  # no defender: the Soviet infantry takes it without a die
    assert [(e.territory, e.by) for e in events if isinstance(e, Captured)] == [("Poland", R)]
    assert s.control["Poland"] == R


def test_a9_5_allies_share_territories_and_carriers() -> None:
    """A-9.5 (consent implied): German infantry stand in Italy's Balkans, which stays
    Italian; German fighters land on an Italian carrier."""
    s = add(add(add(empty(), G, "infantry", "Germany"), G, "fighter", "Germany", 2), I, "infantry", "Balkans")
    s = add(s, I, "carrier", "14 Sea Zone")
    s = turn(s, G, NONCOMBAT)
    s, _ = play(s, G, "move 1 inf: Germany -> Balkans", "move 2 fig: Germany -> 14 Sea Zone")
    assert kinds_at(s, "Balkans", G) == {"infantry": 1} and kinds_at(s, "Balkans", I) == {"infantry": 1}
    assert s.control["Balkans"] == I
    assert kinds_at(s, "14 Sea Zone", G) == {"fighter": 2} and kinds_at(s, "14 Sea Zone", I) == {"carrier": 1}
    s, _ = play(s, G, "done")  # the fighters end the turn on the carrier, not lost
    assert kinds_at(s, "14 Sea Zone", G) == {"fighter": 2}


def test_a12_7_china_places_in_its_territories_with_no_factory() -> None:
    """A-12.7 sends Chinese placement to A-5.5: Kiangsu, taken from Japan this very turn,
    takes two infantry without a factory; Hupeh, with two Chinese and three American units,
    takes any number (other powers' units do not count, nor the ones just placed there);
    Yunnan, which held three Chinese units, takes none."""
    s = add(empty(), C, "infantry", "Kiangsu", 1, p3=True, moved=1, came_from="Hupeh")
    s = add(add(s, C, "infantry", "Hupeh", 2), US, "infantry", "Hupeh", 3)
    s = add(s, C, "infantry", "Yunnan", 3)
    s = replace(s, pool={C: (("infantry", 9),)})
    assert "Kiangsu" not in s.factories and "Hupeh" not in s.factories
    s, _ = play(in_combat(s, C), C, "battle Kiangsu", "done")
    assert s.control["Kiangsu"] == C and "Kiangsu" in s.captured and s.phase == MOBILISE
    refused(s, C, "place 1 inf: Yunnan", r"fewer than three Chinese units when placement began \(A-5.5\)")
    refused(s, C, "place 1 tank: Hupeh", "Your pool holds 0 tank")
    s, _ = play(s, C, "place 4 inf: Hupeh", "place 3 inf: Hupeh")
    s, events = play(s, C, "place 2 inf: Kiangsu")
    assert [(e.units, e.where) for e in events if isinstance(e, Placed)] == [("2 inf", "Kiangsu")]
    assert kinds_at(s, "Hupeh", C) == {"infantry": 9} and kinds_at(s, "Kiangsu", C) == {"infantry": 3}
    assert s.pool_of(C) == {}


def test_a12_7_a_chinese_refusal_names_the_placements_that_are_legal() -> None:
    s = turn(replace(add(empty(), C, "infantry", "Yunnan", 3), pool={C: (("infantry", 2),)}), C, MOBILISE)
    with pytest.raises(IllegalOrder) as refusal:
        apply_text(s, C, "place 2 inf: Yunnan", scripted_dice([]))
    assert refusal.value.legal == tuple(f"place 2 inf: {t}" for t in (
        "Chinghai", "Fukien", "Hupeh", "Ningxia", "Sikang", "Suiyuan"))
    with pytest.raises(IllegalOrder) as refusal:
        apply_text(s, C, "done", scripted_dice([]))  # all of it must be placed
    assert refusal.value.legal[:2] == ("place 2 inf: Chinghai", "place 2 inf: Fukien")


def test_a14_3_an_aa_gun_in_an_allys_territory_keeps_its_owner() -> None:
    s = turn(add(empty(), G, "aa gun", "Germany"), G, NONCOMBAT)
    s, _ = play(s, G, "move 1 aa: Germany -> Balkans")
    assert [(u.kind, u.owner) for u in s.units_at("Balkans")] == [("aa gun", G)]
    assert s.control["Balkans"] == I
    s, _ = play(s, G, "done")
    assert [(u.kind, u.owner) for u in s.units_at("Balkans")] == [("aa gun", G)]


def test_a14_3_an_aa_gun_is_never_a_casualty_it_changes_hands() -> None:
    """Two German hits against a Soviet infantry and AA gun: the infantry dies, the gun
    takes no hit and passes to Germany with the territory (A-10.10)."""
    s = add(add(add(empty(), R, "infantry", "East Poland"), R, "aa gun", "East Poland"), G, "infantry", "Poland", 3)
    s, _ = play(turn(s, G, COMBAT_MOVE), G, "move 3 inf: Poland -> East Poland")
    s, events = play(s, G, "done", dice=[1, 1, 6, 6])  # attackers 1 1 6: two hits; defender 6: none
    assert [e.units for e in events if isinstance(e, Lost)] == ["1 inf"]
    assert [(e.result, e.taken) for e in events if isinstance(e, BattleEnded)] == [("attacker", True)]
    assert sorted((u.kind, u.owner) for u in s.units_at("East Poland")) == [
        ("aa gun", G), ("infantry", G), ("infantry", G), ("infantry", G)]


def test_a1_6_each_power_has_its_own_colour_on_the_map() -> None:
    """A-1.6: the world map's theme gives the seven powers seven different colours, none
    of them the neutral one; Germany is a grey, the Soviet Union a reddish brown, Japan an
    orange, the United Kingdom a tan, Italy a brown, the United States a green.  China is
    drawn in violet rather than a second green, so it never looks like the United States."""
    th = theme()
    shades = {p: "#%02x%02x%02x" % colour(p)[:3] for p in POWERS}
    assert shades == {"Germany": "#585854", "Soviet Union": "#a43c2c", "Japan": "#e09c20",
                      "United Kingdom": "#b0905c", "Italy": "#6c4c30", "United States": "#4c7034",
                      "China": "#8068a8"}
    assert len(set(shades.values())) == 7 and th.colour("neutral") not in {colour(p) for p in POWERS}
    assert colour("Spain") == th.colour("neutral")  # a neutral is drawn in the neutral colour


def test_docs_aa_rules_explains_the_rules_cited_here() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "aa-rules.md").read_text(encoding="utf-8")
    cited = ("A-1.2", "A-1.6", "A-2.3", "A-2.5", "A-4.1", "A-4.7", "A-7.4", "A-8.3", "A-9.3", "A-9.5", "A-9.7",
             "A-10.16", "A-12.7", "A-14.3")
    assert [n for n in cited if not re.search(re.escape(n) + r"(?!\d)", text)] == []


def test_a2_5_surface_warships_are_the_battleship_carrier_cruiser_and_destroyer() -> None:
    """A-2.5: a transport is a surface ship but no warship, a submarine a warship but not
    on the surface; only the four surface warships make a zone hostile (A-2.6)."""
    from engine.aa.units import SURFACE_WARSHIPS

    assert SURFACE_WARSHIPS == {"battleship", "carrier", "cruiser", "destroyer"}
    for kind in ("battleship", "carrier", "cruiser", "destroyer", "submarine", "transport"):
        s = add(empty(), UK, kind, "5 Sea Zone")
        assert s.enemy_surface("5 Sea Zone", G) == (kind in SURFACE_WARSHIPS), kind


def test_a4_1_options_are_fixed_at_creation_with_the_ruling_defaults() -> None:
    """A-4.1 ruling: 15 victory cities, research and national objectives on, unless the
    game is created otherwise; a bad value is refused, naming the legal ones."""
    from engine.aa.game import game_options, new_game
    from engine.core.errors import DataError, UnknownName

    s, _ = new_game({}, scripted_dice([]))
    assert (s.options.setup, s.options.victory_cities, s.options.research, s.options.national_objectives) == (
        "1941", 15, True, True)
    s, _ = new_game({"setup": "1942", "victory_cities": 18, "research": False, "national_objectives": False},
                    scripted_dice([]))
    assert (s.options.setup, s.options.victory_cities, s.options.research, s.options.national_objectives) == (
        "1942", 18, False, False)
    with pytest.raises(UnknownName, match="1941"):
        game_options({"setup": "1943"})
    with pytest.raises(DataError, match="between 1 and 18"):
        game_options({"victory_cities": 19})
    with pytest.raises(DataError, match="true or false"):
        game_options({"research": "maybe"})


def test_a7_4_no_research_while_the_capital_is_enemy_held_and_breakthroughs_are_not_shared() -> None:
    from engine.aa.state import RESEARCH

    s = turn(fresh("1941"), G, RESEARCH)
    lost = replace(s, control={**s.control, "Germany": R})
    refused(lost, G, "research 1 chart 1", "cannot research now")
    s, _ = play(s, G, "research 1 chart 1", dice=[6, 2])  # a six: one breakthrough, on die 2
    assert s.tech(G) and all(not s.tech(p) for p in (I, "Japan", R, UK, US))  # Germany's alone


def test_a10_16_every_die_comes_from_the_recorded_source_grouped_by_side_and_target() -> None:
    """A-10.16 ruling: the engine rolls every die (players never submit any) and reports
    them in rolled order, grouped by side and target number."""
    s = add(add(empty(), G, "infantry", "Poland", 2), G, "fighter", "Poland")
    s = add(s, R, "infantry", "East Poland", 2)
    s = turn(s, G, COMBAT_MOVE)
    s, _ = play(s, G, "move 2 inf, 1 fig: Poland -> East Poland")
    dice = [2, 1, 3, 6, 6]  # attacker inf ≤1: 2 1 · fighter ≤3: 3 · defender inf ≤2: 6 6
    s, events = play(s, G, "done", dice=dice)
    rolled = [(e.side, e.what, e.target, e.dice, e.hits) for e in events if isinstance(e, Rolled)]
    assert rolled[:3] == [("attacker", "infantry", 1, (2, 1), 1), ("attacker", "fighter", 3, (3,), 1),
                          ("defender", "infantry", 2, (6, 6), 0)]
    assert [d for r in rolled for d in r[3]] == dice[:sum(len(r[3]) for r in rolled)]
    from engine.core.errors import PlayerError

    with pytest.raises(PlayerError, match="Unknown order 'roll'"):  # no order submits dice
        apply_text(s, G, "roll 6 6", scripted_dice([]))
