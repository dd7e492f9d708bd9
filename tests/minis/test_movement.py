"""M-6 Movement and M-13 Terrain: speed, stacking, backing up, facing, terrain costs,
minimum move, movement rolls, streams, roads and the road bonus."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.minis.events import Faced, MovementRoll, Moved
from engine.minis.model import ALLIES, AXIS
from engine.minis.movement import reachable
from engine.minis.state import Phase

from .helpers import (
    GARAND, KAR98, PANZER, SHERMAN, ascii_map, battle, hx, make_card, of_type, open_map, play,
)

CHURCHILL = make_card("churchill-crocodile", side=ALLIES, vehicle=True, subtype="Tank", cost=35, speed=2,
                      defense=(7, 6), vs_s=(10, 5, 4), vs_v=(13, 11, 9),
                      abilities=[("Superior Armor", 2), "Hull-Mounted Flamethrower"])


def labels(hexes: object) -> set[str]:
    from .helpers import L
    return {L.label(h) for h in hexes}  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- M-6


def test_m6_1_a_unit_moves_up_to_its_speed_and_a_longer_move_says_what_is_reachable() -> None:
    s = battle(open_map(), [("al1", SHERMAN, "E5"), ("ax1", KAR98, "A1")], active=ALLIES)
    s2, events = play(s, ALLIES, "move al1 E1")  # 4 hexes north
    assert s2.unit("al1").hex == hx("E1")
    assert of_type(events, Moved)[0].path == tuple(hx(x) for x in ("E5", "E4", "E3", "E2", "E1"))
    with pytest.raises(IllegalOrder) as err:
        play(s, ALLIES, "move al1 E10 via E6 E7 E8 E9")
    assert "costs more than its speed 4" in err.value.message
    assert "E9" in err.value.legal and "E10" not in err.value.legal
    assert len(reachable(s, s.unit("al1"))) == 60  # every hex within 4 (61 − its own)


def test_m6_1_each_unit_moves_once_per_phase_and_again_in_the_assault_phase() -> None:
    s = battle(open_map(), [("ax1", KAR98, "C5"), ("al1", GARAND, "J5")])
    s, _ = play(s, AXIS, "move ax1 C4")
    with pytest.raises(IllegalOrder, match="already moved"):
        play(s, AXIS, "move ax1 C3")
    s, _ = play(s, AXIS, "done")
    s, _ = play(s, ALLIES, "done")
    s, _ = play(s, AXIS, "move ax1 C3")  # the assault phase: a second move (M-6.1)
    assert s.unit("ax1").hex == hx("C3")


def test_m6_2_two_friendly_units_per_hex_one_vehicle_in_all_and_passing_through_is_free() -> None:
    s = battle(open_map(), [("ax1", KAR98, "C3"), ("ax2", KAR98, "C3"), ("ax3", KAR98, "C4"),
                            ("ax4", PANZER, "C5", "N"), ("al1", SHERMAN, "E3"), ("al2", GARAND, "E4")],
               standing="hold")
    with pytest.raises(IllegalOrder, match="stacking"):
        play(s, AXIS, "move ax3 C3")
    s2, _ = play(s, AXIS, "move ax4 C2 via C4 C3")  # through two crowded hexes
    assert s2.unit("ax4").hex == hx("C2")
    with pytest.raises(IllegalOrder, match="stacking"):
        play(s, AXIS, "move ax4 E3 via D4")  # a second Vehicle, even an enemy one
    s3, _ = play(s, AXIS, "move ax3 D4")
    s3, _ = play(s3, AXIS, "done")
    s3, _ = play(s3, ALLIES, "move al2 D4")  # a Soldier may join an enemy Soldier and stay
    assert s3.unit("al2").hex == s3.unit("ax3").hex == hx("D4")


def test_m6_2_option_three_friendly_units() -> None:
    s = battle(open_map(), [("ax1", KAR98, "C3"), ("ax2", KAR98, "C3"), ("ax3", KAR98, "C4"),
                            ("al1", GARAND, "J5")], stacking=3)
    s, _ = play(s, AXIS, "move ax3 C3")
    assert len(s.units_at(hx("C3"))) == 3


FOREST_AHEAD = ascii_map("""
. . . . . . .
. . . . . . .
. . F . . . .
. . . . . . .
. . . . . . .
. . . . . . .
""")


def test_m6_3_a_unit_stopped_where_it_may_not_stay_backs_up_along_its_path() -> None:
    # The Sherman drives through C4 (where a Panzer stands) towards the forest C3; the
    # failed movement roll stops it in C4, which already holds a Vehicle: back to C5.
    s = battle(FOREST_AHEAD, [("al1", SHERMAN, "C5", "N"), ("al2", SHERMAN, "C4", "N"), ("ax1", KAR98, "G6")],
               active=ALLIES)
    s, events = play(s, ALLIES, "move al1 C3 via C4", [3])
    assert of_type(events, MovementRoll)[0].success is False
    (mv,) = of_type(events, Moved)
    assert mv.stopped == "movement roll" and mv.backed_up == (hx("C5"),)
    assert s.unit("al1").hex == hx("C5")
    assert s.unit("al1").facing == hx("C4").direction_to(hx("C3"))  # M-6.4: facing the hex it tried


def test_m6_4_facing_after_a_move_is_asked_for_or_the_last_step() -> None:
    s = battle(open_map(), [("al1", SHERMAN, "E5", "N"), ("ax1", KAR98, "A1")], active=ALLIES)
    s2, events = play(s, ALLIES, "move al1 F6 face S")
    assert s2.unit("al1").facing == 5 and of_type(events, Moved)[0].facing == 5
    s3, _ = play(s, ALLIES, "move al1 E7")
    assert s3.unit("al1").facing == 5  # the direction of its last step (south)
    with pytest.raises(IllegalOrder, match="only Vehicles have a facing"):
        play(battle(open_map(), [("al1", GARAND, "E5")], active=ALLIES), ALLIES, "move al1 E4 face N")


def test_m6_4_turning_in_place_is_the_units_move_and_not_when_disrupted_or_after_attacking() -> None:
    s = battle(open_map(), [("al1", SHERMAN, "E5", "N"), ("ax1", KAR98, "E3")], active=ALLIES)
    s2, events = play(s, ALLIES, "face al1 SE")
    assert events == (Faced("al1", 0),) and s2.unit("al1").facing == 0
    with pytest.raises(IllegalOrder, match="already moved"):
        play(s2, ALLIES, "move al1 E4")
    with pytest.raises(IllegalOrder, match="disrupted"):
        play(battle(open_map(), [("al1", SHERMAN, "E5")], active=ALLIES, al1={"disrupted": True}),
             ALLIES, "face al1 S")
    s4 = battle(open_map(), [("al1", SHERMAN, "E5", "N"), ("ax1", KAR98, "E3")], active=ALLIES,
                phase=Phase.ASSAULT)
    s4, _ = play(s4, ALLIES, "attack al1 ax1", [1] * 9)
    with pytest.raises(IllegalOrder, match="cannot change facing"):
        play(s4, ALLIES, "face al1 S")


def test_m6_5_disrupted_units_cannot_move_and_damaged_vehicles_lose_one_speed() -> None:
    s = battle(open_map(), [("al1", SHERMAN, "E5"), ("al2", GARAND, "G5"), ("ax1", KAR98, "A1")],
               active=ALLIES, al1={"damaged": True}, al2={"disrupted": True})
    with pytest.raises(IllegalOrder, match="disrupted and cannot move"):
        play(s, ALLIES, "move al2 G4")
    assert max(s.unit("al1").hex.distance(h) for h in reachable(s, s.unit("al1"))) == 3


# --------------------------------------------------------------------------- M-13


HILLS = ascii_map("""
. . . . . . .
. . H . . . .
. . H . . . .
. . . . . . .
. . . . . . .
""")


def test_m13_1_vehicles_pay_double_for_hill_and_cannot_enter_with_one_hex_left() -> None:
    s = battle(HILLS, [("ax1", PANZER, "C5", "N"), ("al1", GARAND, "G5")])
    s2, _ = play(s, AXIS, "move ax1 C3 via C4")  # 1 + 2 = 3
    assert s2.unit("ax1").hex == hx("C3")
    with pytest.raises(IllegalOrder, match="costs more than its speed 3"):
        play(s, AXIS, "move ax1 C2 via C4 C3")  # 1 + 2 + 2
    s3 = battle(HILLS, [("ax1", KAR98, "C4"), ("al1", GARAND, "G5")])
    s3, _ = play(s3, AXIS, "move ax1 C3")  # Soldiers: normal cost
    assert s3.unit("ax1").hex == hx("C3")


def test_m13_2_minimum_move_lets_a_speed_1_vehicle_enter_a_hill_in_the_movement_phase_only() -> None:
    s = battle(HILLS, [("al1", CHURCHILL, "C4", "N"), ("ax1", KAR98, "G5")], active=ALLIES,
               al1={"damaged": True})  # speed 2 − 1
    s2, _ = play(s, ALLIES, "move al1 C3")
    assert s2.unit("al1").hex == hx("C3")
    with pytest.raises(IllegalOrder):
        play(s, ALLIES, "move al1 C2 via C3")
    s3 = battle(HILLS, [("al1", CHURCHILL, "C4", "N"), ("ax1", KAR98, "G5")], active=ALLIES,
                phase=Phase.ASSAULT, al1={"damaged": True})
    with pytest.raises(IllegalOrder, match="costs more"):
        play(s3, ALLIES, "move al1 C3")


def test_m13_3_a_vehicle_entering_forest_rolls_4_or_more_and_stops_on_a_failure() -> None:
    s = battle(FOREST_AHEAD, [("al1", SHERMAN, "C5", "N"), ("ax1", KAR98, "G6")], active=ALLIES)
    s2, events = play(s, ALLIES, "move al1 C3 via C4", [4])
    assert of_type(events, MovementRoll) == [MovementRoll("al1", hx("C4"), hx("C3"), "forest", 4, True)]
    assert s2.unit("al1").hex == hx("C3")
    s3, events = play(s, ALLIES, "move al1 C3 via C4", [3])
    assert s3.unit("al1").hex == hx("C4") and of_type(events, Moved)[0].stopped == "movement roll"
    s4 = battle(FOREST_AHEAD, [("al1", GARAND, "C4"), ("ax1", KAR98, "G6")], active=ALLIES)
    s4, events = play(s4, ALLIES, "move al1 C3")  # Soldiers enter forest freely
    assert s4.unit("al1").hex == hx("C3") and not of_type(events, MovementRoll)


STREAM = ascii_map("""
. . . . . .
. . F . . .
. . . . . .
. . . . . .
""", streams=[("C2", "C3"), ("D2", "D3")])


def test_m13_3_m13_4_crossing_a_stream_into_forest_needs_both_rolls() -> None:
    s = battle(STREAM, [("al1", SHERMAN, "C3", "N"), ("ax1", KAR98, "F4")], active=ALLIES)
    s2, events = play(s, ALLIES, "move al1 C2", [5, 4])
    assert [(r.reason, r.die) for r in of_type(events, MovementRoll)] == [("stream", 5), ("forest", 4)]
    assert s2.unit("al1").hex == hx("C2")
    s3, events = play(s, ALLIES, "move al1 C2", [2])  # the first roll fails: no second roll
    assert [r.reason for r in of_type(events, MovementRoll)] == ["stream"]
    assert s3.unit("al1").hex == hx("C3")


def test_m13_4_soldiers_roll_to_cross_a_stream_too() -> None:
    s = battle(STREAM, [("al1", GARAND, "D3"), ("ax1", KAR98, "F4")], active=ALLIES)
    s2, events = play(s, ALLIES, "move al1 D2", [1])
    assert s2.unit("al1").hex == hx("D3") and of_type(events, MovementRoll)[0].reason == "stream"


ROADS = ascii_map("""
. . . . . . . . . .
. F F F . L . . . .
. . . . . . . . . .
. . . . . . . . . .
""", roads=[("A2", "B2"), ("B2", "C2"), ("C2", "D2"), ("D2", "E2"), ("E2", "F2"), ("F2", "G2"),
            ("G2", "H2")])


def test_m13_5_along_a_road_every_hex_costs_1_without_rolls_and_the_first_is_free_for_vehicles() -> None:
    s = battle(ROADS, [("al1", SHERMAN, "A2", "SE"), ("ax1", KAR98, "J4")], active=ALLIES)
    s2, events = play(s, ALLIES, "move al1 F2 via B2 C2 D2 E2")  # 5 road hexes with speed 4
    assert s2.unit("al1").hex == hx("F2") and not of_type(events, MovementRoll)
    with pytest.raises(IllegalOrder, match="costs more"):
        play(s, ALLIES, "move al1 G2 via B2 C2 D2 E2 F2")
    s3 = battle(ROADS, [("al1", GARAND, "A2"), ("ax1", KAR98, "J4")], active=ALLIES)
    with pytest.raises(IllegalOrder):
        play(s3, ALLIES, "move al1 C2 via B2")  # no road bonus for Soldiers


def test_m13_5_road_bonus_need_not_start_on_the_road() -> None:
    s = battle(ROADS, [("al1", SHERMAN, "A3", "N"), ("ax1", KAR98, "J4")], active=ALLIES)
    s, _ = play(s, ALLIES, "move al1 E2 via A2 B2 C2 D2")  # 1 + free + 1 + 1 + 1
    assert s.unit("al1").hex == hx("E2")


def test_m13_5_impassable_terrain_may_be_entered_and_left_only_along_the_road() -> None:
    s = battle(ROADS, [("al1", SHERMAN, "E2", "NE"), ("ax1", KAR98, "J4")], active=ALLIES)
    s2, _ = play(s, ALLIES, "move al1 F2")  # the lake, by road
    assert s2.unit("al1").hex == hx("F2")
    s2, _ = play(s2, ALLIES, "done")
    s2, _ = play(s2, AXIS, "done")
    with pytest.raises(IllegalOrder, match="cannot go from F2"):
        play(s2, ALLIES, "move al1 F3")
    s2, _ = play(s2, ALLIES, "move al1 G2")
    assert s2.unit("al1").hex == hx("G2")
    s3 = battle(ROADS, [("al1", SHERMAN, "F3", "N"), ("ax1", KAR98, "J4")], active=ALLIES)
    with pytest.raises(IllegalOrder, match="lake"):
        play(s3, ALLIES, "move al1 F2")  # off the road: a lake is impassable


def test_m13_marsh_stops_vehicles_but_not_soldiers_and_nobody_enters_a_lake() -> None:
    m = ascii_map("""
    . . . .
    . M L .
    . . . .
    """)
    s = battle(m, [("al1", SHERMAN, "A2", "SE"), ("al2", GARAND, "A3"), ("ax1", KAR98, "D3")], active=ALLIES)
    with pytest.raises(IllegalOrder, match="marsh"):
        play(s, ALLIES, "move al1 B2")
    s2, _ = play(s, ALLIES, "move al2 B2")
    assert s2.unit("al2").hex == hx("B2")
    assert hx("C2") not in reachable(s2, s2.unit("al2"))


def test_m3_6_units_never_leave_the_map() -> None:
    s = battle(open_map(), [("al1", GARAND, "A1"), ("ax1", KAR98, "J4")], active=ALLIES)
    assert all(s.map.on_map(h) for h in reachable(s, s.unit("al1")))
    assert len(reachable(s, s.unit("al1"))) == 2  # A2 and B1 only


def test_default_path_avoids_movement_rolls_and_via_forces_one() -> None:
    s = battle(FOREST_AHEAD, [("al1", SHERMAN, "C4", "N"), ("ax1", KAR98, "G6")], active=ALLIES)
    s2, events = play(s, ALLIES, "move al1 C2")  # around the forest C3, no roll
    assert not of_type(events, MovementRoll) and hx("C3") not in of_type(events, Moved)[0].path
    s3, events = play(s, ALLIES, "move al1 C2 via C3", [6])
    assert of_type(events, Moved)[0].path == (hx("C4"), hx("C3"), hx("C2"))


def test_a_path_that_repeats_the_destination_is_taken_as_written() -> None:
    """Issue 9: "to:E3 path:'E4 E3'" used to append E3 again and re-route; the route the
    player wrote is the route taken, and an impossible one is refused, never re-routed."""
    s = battle(open_map(), [("al1", SHERMAN, "E5"), ("ax1", KAR98, "A1")], active=ALLIES)
    _, events = play(s, ALLIES, "move al1 E3 via E4 E3")
    assert of_type(events, Moved)[0].path == tuple(hx(x) for x in ("E5", "E4", "E3"))
    _, events = play(s, ALLIES, "move al1 E3 via F4 F3 E3")
    assert of_type(events, Moved)[0].path[1:3] == (hx("F4"), hx("F3"))
    with pytest.raises(IllegalOrder):
        play(s, ALLIES, "move al1 E3 via H1 E3")  # H1 is not next to E5: not a route


def test_moving_to_the_hex_a_unit_stands_on_says_it_is_already_there() -> None:
    s = battle(open_map(), [("al1", SHERMAN, "E5"), ("ax1", KAR98, "A1")], active=ALLIES)
    with pytest.raises(IllegalOrder, match="already in E5"):
        play(s, ALLIES, "move al1 E5")
