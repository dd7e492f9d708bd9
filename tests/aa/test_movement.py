"""A-9 combat move, A-11 non-combat move and landing, A-14.6 transports, A-2.10 canals."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.aa.events import Captured, Lost
from engine.aa.game import apply_text, pending
from engine.aa.state import COMBAT, COMBAT_MOVE, MOBILISE, NONCOMBAT, AAState
from engine.core.dice import scripted_dice
from engine.core.errors import IllegalOrder

from .helpers import add, empty, ids, kinds_at, play, turn

G = "Germany"


def refused(state: AAState, seat: str, text: str, match: str) -> None:
    with pytest.raises(IllegalOrder, match=match):
        apply_text(state, seat, text, scripted_dice([]))


def cm(state: AAState, power: str = G) -> AAState:
    return turn(state, power, COMBAT_MOVE)


def nc(state: AAState, power: str = G) -> AAState:
    return turn(state, power, NONCOMBAT)


def test_a9_2_land_units_end_the_combat_move_in_a_hostile_territory() -> None:
    state = cm(add(empty(), G, "infantry", "Poland", 2))
    refused(state, G, "move 1 inf: Poland -> Germany", "hostile territory")
    state, events = play(state, G, "move 2 inf: Poland -> East Poland")
    assert kinds_at(state, "East Poland", G) == {"infantry": 2}
    assert all(u.p3 and u.came_from == "Poland" for u in state.units_at("East Poland"))
    refused(state, G, "move 1 inf: East Poland -> Belorussia", "already moved")


def test_a9_4_units_stop_on_entering_a_hostile_territory() -> None:
    state = cm(add(empty(), G, "tank", "Poland"))
    state = add(state, "Soviet Union", "infantry", "East Poland")
    refused(state, G, "move 1 tank: Poland -> East Poland -> Belorussia", "blitzes only through")


def test_a9_15_a_tank_blitzes_through_an_empty_hostile_territory() -> None:
    state = cm(add(empty(), G, "tank", "Poland"))
    state, events = play(state, G, "move 1 tank: Poland -> Belorussia")  # the path is found
    assert any(isinstance(e, Captured) and e.territory in ("East Poland", "Baltic States") for e in events)
    blitzed = next(e.territory for e in events if isinstance(e, Captured))
    assert state.control[blitzed] == G and blitzed in state.captured
    # an AA gun alone stops a blitz
    state2 = add(cm(add(empty(), G, "tank", "Poland")), "Soviet Union", "aa gun", "East Poland")
    state2 = replace(state2, control={**state2.control, "Baltic States": G})
    refused(state2, G, "move 1 tank: Poland -> East Poland -> Belorussia", "blitzes only")


def test_a9_15_a_blitz_may_come_back_to_its_start() -> None:
    state = cm(add(empty(), G, "tank", "Poland"))
    state, _ = play(state, G, "move 1 tank: Poland -> East Poland -> Poland")
    assert state.control["East Poland"] == G and kinds_at(state, "Poland", G) == {"tank": 1}


def test_a7_6_mechanised_infantry_move_two_with_tanks() -> None:
    state = cm(add(add(empty(), G, "tank", "Poland"), G, "infantry", "Poland", 2))
    refused(state, G, "move 1 tank, 1 inf: Poland -> East Poland -> Belorussia", "moves 1")
    state = replace(state, techs={**state.techs, G: frozenset({"mechanised infantry"})})
    refused(state, G, "move 1 tank, 2 inf: Poland -> East Poland -> Belorussia", "moves 1")
    state, _ = play(state, G, "move 1 tank, 1 inf: Poland -> East Poland -> Belorussia")
    assert kinds_at(state, "Belorussia", G) == {"infantry": 1, "tank": 1}


def test_a2_4_neutrals_are_never_entered_or_overflown() -> None:
    state = cm(add(empty(), G, "bomber", "France"))
    refused(state, G, "move 1 bom: France -> Spain", "neutral")


def test_a9_9_air_range_and_a9_11_no_suicide_runs() -> None:
    state = cm(add(empty(), G, "fighter", "Germany"))
    # Archangel is 4+ away: a fighter could not come back to land
    refused(state, G, "move 1 fig: Germany -> Archangel", "landing|movement left")
    state, _ = play(state, G, "move 1 fig: Germany -> Poland -> East Poland")
    assert state.units_at("East Poland")[0].moved == 2


def test_a9_9_a_fighter_may_use_its_full_move_when_a_carrier_can_catch_it() -> None:
    state = cm(add(add(empty(), G, "fighter", "Norway"), G, "carrier", "5 Sea Zone"))
    state = add(state, "United Kingdom", "destroyer", "2 Sea Zone")
    state, _ = play(state, G, "move 1 fig: Norway -> 3 Sea Zone -> 2 Sea Zone")
    assert ids(state, G, "fighter", "2 Sea Zone")


def test_a9_11_moving_the_carrier_away_in_the_combat_move_may_strand_a_fighter() -> None:
    state = cm(add(add(empty(), G, "fighter", "5 Sea Zone"), G, "carrier", "5 Sea Zone"))
    state = add(state, "United Kingdom", "transport", "2 Sea Zone")
    state = add(state, "United Kingdom", "destroyer", "12 Sea Zone")
    state, _ = play(state, G, "move 1 fig: 5 Sea Zone -> 6 Sea Zone -> 3 Sea Zone -> 2 Sea Zone")
    refused(state, G, "move 1 car: 5 Sea Zone -> 6 Sea Zone -> 7 Sea Zone", "No possible landing")


def test_a9_14_submarines_pass_hostile_zones_but_stop_at_destroyers() -> None:
    state = cm(add(empty(), G, "submarine", "5 Sea Zone"))
    state = add(state, "United Kingdom", "cruiser", "6 Sea Zone")
    surface = add(state, G, "cruiser", "5 Sea Zone")
    refused(surface, G, f"move #{ids(surface, G, 'cruiser', '5 Sea Zone')[0]}: 5 Sea Zone -> 6 Sea Zone -> 3 Sea Zone",
            "must stop")
    state, _ = play(state, G, "move 1 sub: 5 Sea Zone -> 6 Sea Zone -> 7 Sea Zone")
    assert ids(state, G, "submarine", "7 Sea Zone")
    blocked = add(cm(add(empty(), G, "submarine", "5 Sea Zone")), "United Kingdom", "destroyer", "6 Sea Zone")
    refused(blocked, G, "move 1 sub: 5 Sea Zone -> 6 Sea Zone -> 7 Sea Zone", "destroyer")


def test_a2_10_canals_need_both_territories_since_the_turn_began() -> None:
    state = cm(add(empty(), "Italy", "cruiser", "15 Sea Zone"), "Italy")
    state = add(state, "United Kingdom", "destroyer", "34 Sea Zone")
    refused(state, "Italy", "move 1 cru: 15 Sea Zone -> 34 Sea Zone", "Suez")
    control = {**state.control, "Egypt": "Italy", "Trans-Jordan": "Germany"}
    opened = replace(state, control=control, control_start=control)
    state, _ = play(opened, "Italy", "move 1 cru: 15 Sea Zone -> 34 Sea Zone")
    assert ids(state, "Italy", "cruiser", "34 Sea Zone")
    # taken only this turn: still shut
    late = replace(state, control=control, control_start={**control, "Egypt": "United Kingdom"})
    late = add(late, "Italy", "destroyer", "15 Sea Zone")
    refused(late, "Italy", "move 1 des: 15 Sea Zone -> 34 Sea Zone", "Suez")


def test_a14_6_transport_capacity_loading_and_a9_12_amphibious_assault() -> None:
    state = nc(add(add(empty(), G, "transport", "5 Sea Zone"), G, "infantry", "Germany", 2))
    state = add(state, G, "tank", "Germany", 2)
    refused(state, G, "load 2 tank: Germany -> 5 Sea Zone", "Not enough room")
    state, _ = play(state, G, "load 1 tank, 1 inf: Germany -> 5 Sea Zone")
    t = ids(state, G, "transport", "5 Sea Zone")[0]
    assert sorted(u.kind for u in state.transport_load(t)) == ["infantry", "tank"]
    refused(state, G, "load 1 inf: Germany -> 5 Sea Zone", "Not enough room")
    state, _ = play(state, G, f"move #{t}: 5 Sea Zone -> 6 Sea Zone")  # cargo sails with it
    assert {u.where for u in state.transport_load(t)} == {"6 Sea Zone"}
    # next turn: sail back and assault Karelia
    nxt = cm(replace(state, units={k: u.reset() for k, u in state.units.items()}))
    nxt, _ = play(nxt, G, f"move #{t}: 6 Sea Zone -> 5 Sea Zone")
    refused(nxt, G, "unload 1 tank: 5 Sea Zone -> Finland", "friendly")
    nxt, _ = play(nxt, G, "unload 1 tank, 1 inf: 5 Sea Zone -> Karelia S.S.R.")
    assert all(u.target == "Karelia S.S.R." for u in nxt.transport_load(t))
    assert nxt.units[t].stop
    refused(nxt, G, f"move #{t}: 5 Sea Zone -> 6 Sea Zone", "stopped")
    nxt, events = play(nxt, G, "done")  # Karelia is empty: taken without dice
    assert nxt.control["Karelia S.S.R."] == G and kinds_at(nxt, "Karelia S.S.R.", G) == {"infantry": 1, "tank": 1}


def test_a9_16_cargo_loaded_in_the_combat_move_must_assault() -> None:
    state = cm(add(add(empty(), G, "transport", "5 Sea Zone"), G, "infantry", "Germany"))
    state, _ = play(state, G, "load 1 inf: Germany -> 5 Sea Zone")
    refused(state, G, "done", "must land by amphibious assault")


def test_a14_6_allied_cargo_boards_on_its_turn_and_leaves_on_a_later_one() -> None:
    state = nc(add(add(empty(), "United Kingdom", "transport", "2 Sea Zone"), "United States", "infantry",
                   "United Kingdom"), "United States")
    state, _ = play(state, "United States", "load 1 inf: United Kingdom -> 2 Sea Zone")
    refused(state, "United States", "unload 1 inf: 2 Sea Zone -> United Kingdom", "later turn")
    later = nc(replace(state, units={k: u.reset() for k, u in state.units.items()}), "United States")
    later, _ = play(later, "United States", "unload 1 inf: 2 Sea Zone -> United Kingdom")
    assert kinds_at(later, "United Kingdom", "United States") == {"infantry": 1}


def test_a11_2_non_combat_land_moves_stay_in_friendly_territory() -> None:
    state = nc(add(add(empty(), G, "infantry", "Poland"), G, "aa gun", "Germany"))
    refused(state, G, "move 1 inf: Poland -> East Poland", "friendly")
    state, _ = play(state, G, "move 1 aa: Germany -> Poland")  # AA guns move only now
    assert kinds_at(state, "Poland", G) == {"infantry": 1, "aa gun": 1}
    refused(cm(add(empty(), G, "aa gun", "Germany")), G, "move 1 aa: Germany -> Poland", "non-combat")


def test_a11_4_aircraft_land_only_where_friendly_since_the_turn_began() -> None:
    state = add(empty(), G, "fighter", "East Poland", moved=1, p3=True, fought=True)
    state = replace(state, control={**state.control, "East Poland": G}, captured=frozenset({"East Poland"}))
    state = nc(state)
    state = replace(state, control_start={**state.control, "East Poland": "Soviet Union"})
    refused(state, G, "move 1 fig: East Poland -> Belorussia", "friendly since")
    state, _ = play(state, G, "move 1 fig: East Poland -> Poland")
    assert ids(state, G, "fighter", "Poland")


def test_a11_4_aircraft_with_no_landing_are_lost_at_the_end_of_the_phase() -> None:
    state = add(empty(), G, "bomber", "Ukraine", moved=4, p3=True, fought=True)
    state = nc(add(state, G, "fighter", "6 Sea Zone", moved=3, p3=True, fought=True))
    state, events = play(state, G, "done")
    lost = [e for e in events if isinstance(e, Lost)]
    assert {e.units for e in lost} == {"1 fig", "1 bom"}
    assert not any(u.is_air for u in state.units.values())


def test_a11_4_a_fighter_may_wait_for_a_carrier_bought_this_turn() -> None:
    state = add(empty(), G, "fighter", "5 Sea Zone", moved=2, p3=True, fought=True)
    state = replace(nc(state), pool={G: (("carrier", 1),)})
    state, _ = play(state, G, "done")
    assert state.phase == MOBILISE and ids(state, G, "fighter", "5 Sea Zone")
    state, _ = play(state, G, "place 1 car: Germany -> 5 Sea Zone")
    assert ids(state, G, "fighter", "5 Sea Zone") and state.power == "Soviet Union"


def test_a11_6_defending_fighters_whose_carrier_sank_land_nearby() -> None:
    state = add(empty(), "United Kingdom", "carrier", "2 Sea Zone")
    c = ids(state, "United Kingdom", "carrier", "2 Sea Zone")[0]
    state = add(state, "United Kingdom", "fighter", "2 Sea Zone", 1, aboard=c)
    state = add(state, G, "battleship", "2 Sea Zone", 2, p3=True, moved=2, came_from="3 Sea Zone")
    state = replace(turn(state, G, COMBAT), sites=())
    from engine.aa.combat import plan_battles
    state = replace(state, sites=plan_battles(state),
                    settings={"United Kingdom": replace(state.setting("United Kingdom"), defense_order=("carrier",))})
    # one battleship hits; the carrier is chosen; the defence misses; Germany withdraws
    state, events = play(state, G, "battle 2 Sea Zone", dice=[1, 6, 6, 6])
    assert pending(state)[0].player == "United Kingdom"
    state, _ = play(state, "United Kingdom", "casualties 1 car")
    state, _ = play(state, G, "retreat 3 Sea Zone")
    assert ids(state, "United Kingdom", "carrier", "2 Sea Zone") == []
    waiting = pending(state)
    assert waiting[0].player == "United Kingdom" and waiting[0].reaction
    f = ids(state, "United Kingdom", "fighter", "2 Sea Zone")[0]
    assert set(waiting[0].choices) == {f"land #{f}: 2 Sea Zone -> {t}" for t in ("Greenland", "Iceland",
                                                                                 "United Kingdom")}
    refused(state, "United Kingdom", f"land #{f}: 2 Sea Zone -> Eire", "neutral|only")
    state, _ = play(state, "United Kingdom", f"land #{f}: 2 Sea Zone -> Iceland")
    assert state.phase == NONCOMBAT and ids(state, "United Kingdom", "fighter", "Iceland") == [f]


def test_a9_13_allied_fighters_ride_a_moving_carrier_own_fighters_take_off() -> None:
    state = add(empty(), "United Kingdom", "carrier", "2 Sea Zone")
    c = ids(state, "United Kingdom", "carrier", "2 Sea Zone")[0]
    state = add(state, "United States", "fighter", "2 Sea Zone", aboard=c)
    state = add(state, "United Kingdom", "fighter", "2 Sea Zone", aboard=c)
    state = nc(state, "United Kingdom")
    state, _ = play(state, "United Kingdom", f"move #{c}: 2 Sea Zone -> 3 Sea Zone")
    assert kinds_at(state, "3 Sea Zone") == {"carrier": 1, "fighter": 1}
    assert kinds_at(state, "3 Sea Zone", "United States") == {"fighter": 1}
    uk_fighter = ids(state, "United Kingdom", "fighter", "2 Sea Zone")
    assert uk_fighter and state.units[uk_fighter[0]].aboard is None
    state, events = play(state, "United Kingdom", "done")  # the UK fighter never landed: lost
    assert any(isinstance(e, Lost) and e.units == "1 fig" for e in events)


def test_reachable_keeps_china_in_its_area_and_everyone_out_of_neutrals() -> None:
    """A-2.4 and A-5.6: the reach offered for a move never enters a neutral, and Chinese
    units (aircraft included) stay in China's area."""
    from engine.aa.movement import reachable

    s = empty("1941")
    s = add(s, "China", "fighter", "Yunnan")
    s = add(s, G, "tank", "Germany")
    s = cm(s)
    area = set(s.board.china_movement)
    got = reachable(s, "China", "Yunnan")
    assert got and set(got) <= area
    tanks = reachable(s, G, "Germany", ["tank"])
    assert "Switzerland" not in tanks and "Poland" in tanks
    assert tanks.index("Poland") < tanks.index("East Poland")  # nearest first
    assert reachable(s, G, "Germany", ["infantry"]) == []
