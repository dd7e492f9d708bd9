"""E-2 (board, sections) and E-11 (line of sight with the edge rule)."""

from __future__ import annotations

from itertools import product

import pytest

from engine.core.errors import NotationError
from engine.memoir import lookups
from engine.memoir.board import (
    all_hexes, backward, doubled_column, label, neighbours, parse_hex, sections_of,
)
from engine.memoir.sight import segment
from engine.memoir.turn import start_state

from .helpers import scenario


def H(name: str):  # noqa: N802 - a hex by name
    return parse_hex(name)


def test_e2_1_board_has_113_hexes_in_rows_of_13_and_12() -> None:
    hexes = all_hexes()
    assert len(hexes) == 113
    per_row = [sum(1 for h in hexes if h.r == r) for r in range(9)]
    assert per_row == [13, 12, 13, 12, 13, 12, 13, 12, 13]
    assert label(hexes[0]) == "A1" and label(hexes[12]) == "M1" and label(hexes[13]) == "A2"
    assert label(hexes[24]) == "L2" and label(hexes[-1]) == "M9"


def test_e2_1_a2_touches_a1_b1_a3_b3() -> None:
    assert sorted(label(n) for n in neighbours(H("A2"))) == ["A1", "A3", "B1", "B2", "B3"]
    assert sorted(label(n) for n in neighbours(H("G5"))) == ["F4", "F5", "F6", "G4", "G6", "H5"]


def test_e2_2_names_and_off_board_hexes() -> None:
    assert doubled_column(H("G5")) == 12 and H("G5").r == 4
    assert label(H("g5")) == "G5"
    for bad in ("M2", "N1", "A10", "A0", "5G"):
        with pytest.raises(NotationError):
            parse_hex(bad)


def test_e2_3_distance_matches_the_doubled_column_formula() -> None:
    for a, b in product(all_hexes()[::7], all_hexes()[::5]):
        dr = abs(a.r - b.r)
        dc = abs(doubled_column(a) - doubled_column(b))
        assert a.distance(b) == dr + max(0, (dc - dr) // 2)


def test_e2_4_e2_5_sections_and_the_eight_straddling_hexes() -> None:
    both = sorted((label(h) for h in all_hexes() if len(sections_of(h, "allies", "axis")) == 2),
                  key=lambda n: (n[0], n[1:]))
    assert both == ["D2", "D4", "D6", "D8", "I2", "I4", "I6", "I8"]
    assert sections_of(H("D1"), "allies", "axis") == {"left"}
    assert sections_of(H("E1"), "allies", "axis") == {"centre"}
    assert sections_of(H("D2"), "allies", "axis") == {"left", "centre"}
    assert sections_of(H("I9"), "allies", "axis") == {"centre"}
    assert sections_of(H("J9"), "allies", "axis") == {"right"}
    count = {s: sum(1 for h in all_hexes() if s in sections_of(h, "allies", "axis")) for s in ("left", "centre", "right")}
    assert count == {"left": 36, "centre": 49, "right": 36}


def test_e2_6_the_top_seat_has_left_and_right_swapped() -> None:
    assert sections_of(H("A1"), "axis", "axis") == {"right"}
    assert sections_of(H("M5"), "axis", "axis") == {"left"}
    assert sections_of(H("G5"), "axis", "axis") == {"centre"}
    assert sections_of(H("I4"), "axis", "axis") == {"left", "centre"}


def test_e2_8_backward_is_toward_the_own_baseline() -> None:
    assert [label(h) for h in backward(H("G5"), "axis", "axis")] == ["F4", "G4"]
    assert [label(h) for h in backward(H("G5"), "allies", "axis")] == ["F6", "G6"]
    assert [label(h) for h in backward(H("A2"), "axis", "axis")] == ["A1", "B1"]
    assert [label(h) for h in backward(H("A3"), "allies", "axis")] == ["A4"]
    assert backward(H("C1"), "axis", "axis") == ()


# --------------------------------------------------------------------------- E-11


def los(units: str, a: str, b: str, **kw: object) -> dict[str, object]:
    state = start_state(scenario(units, **kw))  # type: ignore[arg-type]
    return lookups.los(state, H(a), H(b))


ENDS = "allies infantry G7, axis infantry G5"


def test_e11_2_segment_along_an_edge_touches_one_hex_on_each_side() -> None:
    seg = segment(H("G5"), H("G7"))
    assert seg.crossed == frozenset()
    assert {label(h) for h in seg.left | seg.right} == {"F6", "G6"}
    assert {label(h) for h in seg.left} != {label(h) for h in seg.right}
    assert {label(h) for h in segment(H("G5"), H("J5")).crossed} == {"H5", "I5"}


def test_e11_4_edge_rule_one_side_obstructed_is_clear() -> None:
    assert los(ENDS, "G7", "G5", terrain={"F6": "forest"}) == {"clear": True, "blocked_by": []}
    assert los(ENDS, "G7", "G5", terrain={"G6": "town"}) == {"clear": True, "blocked_by": []}
    assert los(ENDS + ", axis infantry F6", "G7", "G5") == {"clear": True, "blocked_by": []}


def test_e11_4_edge_rule_both_sides_obstructed_blocks() -> None:
    assert los(ENDS, "G7", "G5", terrain={"F6": "forest", "G6": "town"}) == {"clear": False,
                                                                              "blocked_by": ["F6", "G6"]}
    assert los(ENDS + ", allies armor G6", "G5", "G7", terrain={"F6": "hedgerow"}) == {
        "clear": False, "blocked_by": ["F6", "G6"]}


def test_e11_3_units_and_blocking_terrain_between_block() -> None:
    assert los("allies infantry G5, axis infantry J5, axis infantry H5", "G5", "J5") == {
        "clear": False, "blocked_by": ["H5"]}
    for t in ("forest", "town", "hedgerow", "hill"):
        assert los("allies infantry G5, axis infantry J5", "G5", "J5", terrain={"I5": t}) == {
            "clear": False, "blocked_by": ["I5"]}, t
    assert los("allies infantry G5, axis infantry J5", "G5", "J5",
               obstacles={"I5": {"type": "bunker", "owner": "axis"}}) == {"clear": False, "blocked_by": ["I5"]}


def test_e11_6_open_terrain_and_low_obstacles_never_block() -> None:
    for t in ("clear", "river", "bridge", "pond"):
        assert los("allies infantry G5, axis infantry J5", "G5", "J5", terrain={"H5": t})["clear"], t
    for o in ("wire", "sandbags", "hedgehog"):
        assert los("allies infantry G5, axis infantry J5", "G5", "J5", obstacles={"H5": o})["clear"], o
    assert los("allies infantry C6, axis infantry C9", "C6", "C9", face="beach")["clear"]


def test_e11_1_the_end_hexes_never_block() -> None:
    assert los("allies infantry G5, axis infantry J5", "G5", "J5", terrain={"G5": "forest", "J5": "town"})["clear"]


def test_e11_5_hills_block_unless_both_ends_stand_on_the_same_hill_group() -> None:
    ridge = {"G5": "hill", "H5": "hill", "I5": "hill"}
    assert los("allies infantry G5, axis infantry I5", "G5", "I5", terrain=ridge)["clear"]
    assert los("allies infantry F5, axis infantry I5", "F5", "I5", terrain=ridge) == {
        "clear": False, "blocked_by": ["G5", "H5"]}
    assert los("allies infantry G5, axis infantry I5, axis infantry H5", "G5", "I5", terrain=ridge) == {
        "clear": False, "blocked_by": ["H5"]}
    # two separate hills: the one between blocks
    assert los("allies infantry G5, axis infantry J5", "G5", "J5",
               terrain={"G5": "hill", "H5": "hill", "J5": "hill"}) == {"clear": False, "blocked_by": ["H5"]}
