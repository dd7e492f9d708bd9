"""Movement abilities with real card values: Relocate, High Gear, Strike and Fade, Weak
Suspension, Trench Crossing, Excellent Suspension, Overrun, Bridge Demolition (M-13.6)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.minis.catalogue import load_catalogue
from engine.minis.events import BridgeDemolition, MovementRoll, OverrunEvent, UnitDisrupted
from engine.minis.model import ALLIES, AXIS, edge
from engine.minis.state import Phase

from .helpers import ascii_map, battle, hx, of_type, open_map, play

CAT = load_catalogue()
C = CAT.__getitem__

ROAD = ascii_map("""
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . . . . . . . .
""", roads=[(f"{a}2", f"{b}2") for a, b in zip("ABCDEFGHIJK", "BCDEFGHIJKL")])


def test_relocate_moves_only_in_the_assault_phase_and_then_cannot_attack() -> None:
    s = battle(open_map(), [("ax1", C("pak-38-antitank-gun"), "C5"), ("al1", C("m4a1-sherman"), "J5")])
    with pytest.raises(IllegalOrder, match="speed 0"):
        play(s, AXIS, "move ax1 C4")
    a = battle(open_map(), [("ax1", C("pak-38-antitank-gun"), "C5"), ("al1", C("m4a1-sherman"), "E5")],
               phase=Phase.ASSAULT)
    a, _ = play(a, AXIS, "move ax1 C3 via C4")
    assert a.unit("ax1").hex == hx("C3")
    with pytest.raises(IllegalOrder, match="no attack left"):
        play(a, AXIS, "attack ax1 al1")


def test_high_gear_adds_2_when_the_whole_move_is_on_the_road() -> None:
    s = battle(ROAD, [("ax1", C("sd-kfz-222"), "A2", "SE"), ("al1", C("m1-garand-rifle"), "L4")])
    s2, _ = play(s, AXIS, "move ax1 I2 via B2 C2 D2 E2 F2 G2 H2")  # 8 road hexes: 1 free + 7 = 5 + 2
    assert s2.unit("ax1").hex == hx("I2")
    with pytest.raises(IllegalOrder, match="costs more"):
        play(s, AXIS, "move ax1 J2 via B2 C2 D2 E2 F2 G2 H2 I2")
    with pytest.raises(IllegalOrder, match="costs more"):
        play(s, AXIS, "move ax1 G3 via B2 C2 D2 E2 F2 G2")  # leaves the road: speed 5 (+ road bonus)


def test_strike_and_fade_moves_after_attacking() -> None:
    s = battle(open_map(), [("ax1", C("sd-kfz-222"), "E5", "N"), ("al1", C("m1-garand-rifle"), "E4")],
               phase=Phase.ASSAULT, standing="hold")
    s, _ = play(s, AXIS, "attack ax1 al1", [1] * 7)
    with pytest.raises(IllegalOrder):
        play(s, AXIS, "move ax1 E8 via E6 E7")  # at most 2 hexes
    s, events = play(s, AXIS, "move ax1 E7 via E6")
    assert s.unit("ax1").hex == hx("E7")
    with pytest.raises(IllegalOrder):
        play(s, AXIS, "attack ax1 al1")
    plain = battle(open_map(), [("ax1", C("panzer-iv-ausf-g"), "E5", "N"), ("al1", C("m1-garand-rifle"), "E4")],
                   phase=Phase.ASSAULT)
    plain, _ = play(plain, AXIS, "attack ax1 al1", [1] * 7)
    with pytest.raises(IllegalOrder, match="cannot also move"):
        play(plain, AXIS, "move ax1 E6")


HILL = ascii_map("""
. . . . . .
. . H . . .
. . . . . .
. . . . . .
""", roads=[("C3", "C2"), ("C2", "C1")])


def test_weak_suspension_rolls_to_enter_a_hill_except_by_road() -> None:
    s = battle(HILL, [("ax1", C("type-95-ha-go"), "D2", "N"), ("al1", C("m1-garand-rifle"), "F4")])
    s2, events = play(s, AXIS, "move ax1 C2", [3])
    assert of_type(events, MovementRoll)[0].reason == "hill (Weak Suspension)" and s2.unit("ax1").hex == hx("D2")
    road = battle(HILL, [("ax1", C("type-95-ha-go"), "C3", "N"), ("al1", C("m1-garand-rifle"), "F4")])
    road, events = play(road, AXIS, "move ax1 C2")
    assert not of_type(events, MovementRoll) and road.unit("ax1").hex == hx("C2")


HILLS = ascii_map("""
. . . . .
. . . . .
. . H . .
. . H . .
. . . . .
. . . . .
""")


def test_excellent_suspension_enters_hills_as_clear() -> None:
    s = battle(HILLS, [("al1", C("m4a3e8-sherman-easy-eight"), "C5", "N"), ("ax1", C("mauser-kar-98k"), "E6")],
               active=ALLIES)
    s, _ = play(s, ALLIES, "move al1 C1 via C4 C3 C2")  # four hexes, two of them hills
    assert s.unit("al1").hex == hx("C1")
    plain = battle(HILLS, [("al1", C("m4a1-sherman"), "C5", "N"), ("ax1", C("mauser-kar-98k"), "E6")],
                   active=ALLIES)
    with pytest.raises(IllegalOrder, match="costs more than its speed 4"):
        play(plain, ALLIES, "move al1 C1 via C4 C3 C2")  # 1 + 2 + 2 + 1


STREAM = ascii_map("""
. . . .
. . . .
. . . .
""", streams=[("B1", "B2"), ("B2", "B3")])


def test_trench_crossing_crosses_streams_without_a_roll() -> None:
    s = battle(STREAM, [("al1", C("renault-r-35"), "B1", "S"), ("ax1", C("mauser-kar-98k"), "D3")], active=ALLIES)
    s, events = play(s, ALLIES, "move al1 B3 via B2")
    assert not of_type(events, MovementRoll) and s.unit("al1").hex == hx("B3")


def test_overrun_disrupts_one_enemy_soldier_in_a_hex_it_enters_once_per_phase() -> None:
    s = battle(open_map(), [("ax1", C("tiger-i"), "E7", "N"), ("al1", C("m1-garand-rifle"), "E6"),
                            ("al2", C("m1-garand-rifle"), "E5"), ("al3", C("bazooka"), "E6")], standing="hold")
    s, events = play(s, AXIS, "move ax1 E5 via E6")
    # The most expensive Soldier in E6 (both cost 4: the lower id) is disrupted at once.
    assert of_type(events, OverrunEvent) == [OverrunEvent("ax1", "al1", hx("E6"))]
    assert s.unit("al1").disrupted and not s.unit("al3").disrupted and not s.unit("al2").disrupted
    assert of_type(events, UnitDisrupted) == [UnitDisrupted("al1", "Overrun")]


def test_overrun_does_not_happen_where_defensive_fire_stopped_the_tank() -> None:
    s = battle(open_map(), [("ax1", C("tiger-i"), "E7", "N"), ("al1", C("bazooka"), "E6"),
                            ("al2", C("m1-garand-rifle"), "D6")])
    s, _ = play(s, AXIS, "move ax1 E6")
    s, _ = play(s, ALLIES, "hold")
    s, events = play(s, ALLIES, "fire al1 entering", [6] * 10)  # Close Assault 10 in its own hex
    assert s.unit("ax1").disrupted and not of_type(events, OverrunEvent) and not s.unit("al1").disrupted


BRIDGE = ascii_map("""
. . . . .
. . . . .
. . . . .
""", roads=[("A2", "B2"), ("C2", "D2")], bridges=[("B2", "C2")])


def test_bridge_demolition_destroys_a_bridge_on_4_or_more_and_the_crossing_becomes_a_stream() -> None:
    s = battle(BRIDGE, [("al1", C("royal-engineers"), "B2"), ("ax1", C("m4a1-sherman"), "D2", "N"),
                        ("ax2", C("mauser-kar-98k"), "E3")], phase=Phase.ASSAULT, active=ALLIES, first=AXIS)
    with pytest.raises(IllegalOrder, match="no Bridge Demolition"):
        play(battle(BRIDGE, [("al1", C("m1-garand-rifle"), "B2"), ("ax2", C("mauser-kar-98k"), "E3")],
                    phase=Phase.ASSAULT, active=ALLIES), ALLIES, "demolish al1")
    failed, events = play(s, ALLIES, "demolish al1", [3])
    assert events == (BridgeDemolition("al1", (hx("B2"), hx("C2")), 3, False),)
    assert failed.destroyed_bridges == frozenset()
    s, events = play(s, ALLIES, "demolish al1", [4])
    assert s.destroyed_bridges == frozenset({edge(hx("B2"), hx("C2"))})
    with pytest.raises(IllegalOrder, match="already acted"):
        play(s, ALLIES, "demolish al1")
    # Now the Sherman must roll to cross the stream, and gets no road there.
    s, _ = play(s, ALLIES, "done", [6, 6, 1, 1])  # end of turn; the Axis win the initiative
    s, _ = play(s, AXIS, "first")
    s, events = play(s, AXIS, "move ax1 B3 via C2 B2", [4])  # the first hex is still road (bonus)
    assert [(r.leaving, r.entering, r.reason) for r in of_type(events, MovementRoll)] == [(hx("C2"), hx("B2"), "stream")]


def test_bridge_demolition_only_in_the_assault_phase() -> None:
    s = battle(BRIDGE, [("al1", C("royal-engineers"), "B2"), ("ax2", C("mauser-kar-98k"), "E3")], active=ALLIES)
    with pytest.raises(IllegalOrder, match="assault phase"):
        play(s, ALLIES, "demolish al1")
