"""engine.core.hexgrid: labels, distance, exact line of sight (M-10), front arc (M-7.9)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from engine.core.errors import NotationError
from engine.core.hexgrid import (
    DIRECTIONS,
    Hex,
    Labels,
    column_index,
    column_letters,
    hex_line,
    hexes_crossed,
    in_front_arc,
    line_blocked_by,
)

coords = st.integers(min_value=-12, max_value=12)
hexes = st.builds(Hex, coords, coords)


def test_column_letters_round_trip() -> None:
    assert [column_letters(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]
    for i in range(200):
        assert column_index(column_letters(i)) == i


@pytest.mark.parametrize("flat", [True, False])
def test_labels_round_trip(flat: bool) -> None:
    labels = Labels(flat=flat)
    for col in range(22):
        for row in range(18):
            h = labels.from_offset(col, row)
            assert labels.to_offset(h) == (col, row)
            assert labels.parse(labels.label(h)) == h


def test_flat_labels_shift_odd_columns_down() -> None:
    labels = Labels(flat=True)
    # A1's south-east neighbour is B1 (odd column shifted down); B1's north-east is C1.
    a1 = labels.parse("A1")
    assert labels.label(a1.neighbour(0)) == "B1"
    assert labels.label(labels.parse("B1").neighbour(1)) == "C1"
    assert labels.label(a1.neighbour(5)) == "A2"


def test_bad_label_is_a_player_error_that_says_what_is_legal() -> None:
    with pytest.raises(NotationError) as err:
        Labels().parse("7F")
    assert "F7" in str(err.value)


@given(hexes, hexes)
def test_distance_is_symmetric_and_matches_line_length(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    line = hex_line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == a.distance(b) + 1
    assert all(x.distance(y) == 1 for x, y in zip(line, line[1:]))


def test_neighbours_are_at_distance_one() -> None:
    h = Hex(3, -2)
    assert sorted(n.distance(h) for n in h.neighbours()) == [1] * 6
    assert [h.direction_to(h.neighbour(d)) for d in range(6)] == list(range(6))
    assert len(set(Hex(0, 0).ring(3))) == 18
    assert len(set(Hex(0, 0).within(2))) == 19


def test_line_along_a_hex_edge_crosses_nothing() -> None:
    # M-10.2: from (0,0) to (1,1) the segment runs along the edge between (1,0) and (0,1).
    assert hexes_crossed(Hex(0, 0), Hex(1, 1)) == frozenset()
    # Both flanking hexes block and still the line is clear (ruling M-10.2).
    assert line_blocked_by(Hex(0, 0), Hex(1, 1), {Hex(1, 0), Hex(0, 1)}) == ()


def test_straight_line_crosses_the_hexes_between() -> None:
    assert hexes_crossed(Hex(0, 0), Hex(3, 0)) == {Hex(1, 0), Hex(2, 0)}
    assert hexes_crossed(Hex(0, 0), Hex(1, 0)) == frozenset()


def test_line_along_the_edge_between_two_hexes_enters_neither() -> None:
    # (0,0)→(2,-1) runs corner to corner along the whole hexside shared by (1,0) and
    # (1,-1): M-10.2, it touches both and enters neither.
    assert hexes_crossed(Hex(0, 0), Hex(2, -1)) == frozenset()
    assert line_blocked_by(Hex(0, 0), Hex(2, -1), {Hex(1, 0), Hex(1, -1)}) == ()


def test_knight_move_enters_both_hexes_it_passes() -> None:
    # (0,0)→(3,-1): not along any edge, not through corners of (1,0), (2,-1) interiors.
    crossed = hexes_crossed(Hex(0, 0), Hex(3, -1))
    assert crossed == {Hex(1, 0), Hex(2, -1)}


@given(hexes, hexes)
def test_line_of_sight_is_symmetric(a: Hex, b: Hex) -> None:
    assert hexes_crossed(a, b) == hexes_crossed(b, a)


@given(hexes, hexes)
def test_crossed_hexes_lie_between_the_ends(a: Hex, b: Hex) -> None:
    n = a.distance(b)
    for h in hexes_crossed(a, b):
        assert h.distance(a) < n and h.distance(b) < n


def _arc(facing: int, radius: int) -> dict[int, int]:
    o = Hex(0, 0)
    widths: dict[int, int] = {}
    for h in o.within(radius):
        if in_front_arc(o, facing, h):
            widths[o.distance(h)] = widths.get(o.distance(h), 0) + 1
    return widths


@pytest.mark.parametrize("facing", range(6))
def test_front_arc_widths_m7_9(facing: int) -> None:
    assert _arc(facing, 6) == {1: 1, 2: 3, 3: 3, 4: 5, 5: 5, 6: 7}


def test_front_arc_at_distance_one_is_only_the_faced_hex() -> None:
    o = Hex(0, 0)
    for facing in range(6):
        front = [d for d in range(6) if in_front_arc(o, facing, o + DIRECTIONS[d])]
        assert front == [facing]
    assert not in_front_arc(o, 0, o)  # same hex: rear (M-7.9)
