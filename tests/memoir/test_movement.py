"""E-9 movement and the terrain movement rules of E-18, worked through the turn."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.memoir import lookups
from engine.memoir.board import parse_hex
from engine.memoir.turn import battle_targets, start_state

from .helpers import at, do, ordered, run, scenario

FAR = "axis infantry A1"  # an enemy far away, so the game has two sides


def moves(units: str, unit: str, **kw: object) -> dict[str, list[str]]:
    return lookups.moves(start_state(scenario(units, **kw)), parse_hex(unit))  # type: ignore[arg-type]


def test_e9_1_e8_infantry_reaches_every_hex_within_2_not_through_units() -> None:
    assert len(moves(FAR + ", allies infantry G5", "G5")["reachable"]) == 18
    # a ring of units around G5 except F4: only F4 and its open neighbours
    ring = "allies infantry F5, allies infantry H5, allies infantry F6, allies infantry G6, axis infantry G4"
    out = moves(FAR + ", allies infantry G5, " + ring, "G5")
    assert out == {"reachable": ["E4", "F3", "F4", "G3"], "must_stop": []}


def test_e8_armor_moves_3_and_artillery_1() -> None:
    assert len(moves(FAR + ", allies armor G5", "G5")["reachable"]) == 36
    assert moves(FAR + ", allies artillery G5", "G5")["reachable"] == ["F4", "F5", "F6", "G4", "G6", "H5"]


def test_e18_forest_town_wire_end_the_move() -> None:
    out = moves(FAR + ", allies armor G5", "G5", terrain={"G4": "forest", "F5": "town"}, obstacles={"H5": "wire"})
    assert out["must_stop"] == ["F5", "G4", "H5"]
    st = ordered(FAR + ", allies armor G5", "G5", terrain={"G4": "forest"})
    with pytest.raises(IllegalOrder, match="entering G4 ends the move"):
        do(st, "allies", "move G5 G2 via G4 G3")
    st, _ = do(st, "allies", "move G5 G4")
    assert at(st, "G4") is not None


def test_e18_river_impassable_bridge_passable() -> None:
    out = moves(FAR + ", allies infantry G5", "G5",
                terrain={"F4": "river", "G4": "river", "F5": "river", "H5": "bridge"})
    assert "F4" not in out["reachable"] and "G4" not in out["reachable"] and "H5" in out["reachable"]
    assert "G3" not in out["reachable"] and "H4" in out["reachable"]


def test_e18_hedgerow_only_as_first_hex_and_leaving_one_moves_one() -> None:
    out = moves(FAR + ", allies armor G5", "G5", terrain={"G4": "hedgerow", "G3": "hedgerow"})
    assert "G4" in out["reachable"] and "G3" not in out["reachable"]
    assert len(moves(FAR + ", allies armor G5", "G5", terrain={"G5": "hedgerow"})["reachable"]) == 6


def test_e18_bunker_and_hedgehog_closed_to_armor_and_artillery() -> None:
    obstacles = {"G4": {"type": "bunker", "owner": "axis"}, "H5": "hedgehog"}
    armor = moves(FAR + ", allies armor G5", "G5", obstacles=obstacles)["reachable"]
    assert "G4" not in armor and "H5" not in armor
    inf = moves(FAR + ", allies infantry G5", "G5", obstacles=obstacles)["reachable"]
    assert "G4" in inf and "H5" in inf


def test_e18_beach_caps_a_move_at_2_and_the_ocean_ends_it() -> None:
    # beach face: rows 5-7 beach, rows 8-9 ocean (E-2.7); a unit starting in the ocean
    # moves out normally, under the beach cap (E-18.2)
    out = moves(FAR + ", allies armor G8", "G8", face="beach")
    assert max(parse_hex(h).distance(parse_hex("G8")) for h in out["reachable"]) == 2
    assert "G6" in out["reachable"] and "G5" not in out["reachable"]
    assert out["must_stop"] == ["F8", "G9", "H8", "H9"]  # the ocean hexes next to it
    # from row 4 (countryside) an armor moves 3, but only 2 once it enters the beach
    row4 = moves(FAR + ", allies armor G3", "G3", face="beach")["reachable"]
    assert "G5" in row4 and "G6" not in row4 and "G1" in row4


def test_e9_5_infantry_moving_two_cannot_battle_special_forces_can() -> None:
    """E-9.5, E-8.2: Special Forces move 2 and still battle."""
    units = "axis infantry H3, allies infantry G6, allies infantry:special-forces I6"
    st = ordered(units, "G6 I6")
    st = run(st, "allies", "move G6 G4 via G5", "move I6 H4 via I5")
    assert battle_targets(st, at(st, "G4")) == []  # type: ignore[arg-type]
    assert [(t.where, n) for t, n in battle_targets(st, at(st, "H4"))] == [("H3", 3)]  # type: ignore[arg-type]


def test_e9_5_artillery_that_moved_cannot_battle_and_forest_entry_bars_battle() -> None:
    units = "axis infantry G2, allies artillery G6, allies infantry F5"
    st = ordered(units, "G6 F5", terrain={"F4": "forest"})
    st = run(st, "allies", "move G6 G5", "move F5 F4")
    assert battle_targets(st, at(st, "G5")) == []  # type: ignore[arg-type]
    assert battle_targets(st, at(st, "F4")) == []  # type: ignore[arg-type]
    # no ordered unit may battle: the battle step closes by itself and the turn ends (E-4.8)
    assert st.active == "axis" and st.step == "play"


def test_e18_armor_entering_wire_removes_it_and_wire_ends_infantry_move() -> None:
    st = ordered(FAR + ", allies armor G6, allies infantry E6", "G6 E6", obstacles={"G5": "wire", "E5": "wire"})
    st, events = do(st, "allies", "move G6 G5")
    assert st.obstacle_name(parse_hex("G5")) is None
    assert any(type(e).__name__ == "ObstacleChanged" for e in events)
    with pytest.raises(IllegalOrder, match="entering E5 ends the move"):
        do(st, "allies", "move E6 E4 via E5")


def test_e4_3_only_ordered_units_move_and_each_once() -> None:
    st = ordered(FAR + ", allies infantry G6, allies infantry C6", "G6")
    with pytest.raises(IllegalOrder, match="not ordered"):
        do(st, "allies", "move C6 C5")
    st, _ = do(st, "allies", "move G6 G5")
    # G6's move was its only one and nothing is in range: both steps closed, the turn passed (E-4.8)
    assert (st.step, st.active) == ("play", "axis")


def test_e9_1_a_move_may_not_pass_through_a_unit() -> None:
    st = ordered(FAR + ", allies infantry G6, allies infantry G5", "G6")
    with pytest.raises(IllegalOrder, match="occupied"):
        do(st, "allies", "move G6 G4 via G5")
