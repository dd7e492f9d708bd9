"""M-10 line of sight on the real battle maps, and the rulebook's line-of-sight example
rebuilt as a small map."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from engine.core.hexgrid import Labels
from engine.minis.line_of_sight import line_of_sight
from engine.minis.maps import build_configuration, load_map_text

L = Labels()

# The rulebook's example (page 19 of the English book; the Italian and Polish texts keep
# only its conclusions, the picture is ours): three Axis units west of a few hills, four
# Allied units east of them.  The hills are the only terrain.
EXAMPLE = """\
map Line of sight example
grid
  1 . . . . . . . . . .
  2 . . . . . . . . . .
  3 . . . . . . . . . .
  4 . . . . . H . . . .
  5 . . . . . . . . . .
  6 . . . H . . H . . .
  7 . . . . . . . . . .
end
zone west A1:C7
zone east H1:J7
"""
AXIS = {"MG 42": "C4", "PAK 38": "B7", "Panzer IV": "A4"}
ALLIES = {"Bazooka": "I4", "M1 Garand": "H1", "Red Devil": "H6", "Sherman": "J4"}


@pytest.mark.parametrize(
    "shooter, target, sees",
    [
        # The MG 42 sees the Bazooka and the M1 Garand; hills hide the Captain and Sherman.
        ("MG 42", "Bazooka", True),
        ("MG 42", "M1 Garand", True),
        ("MG 42", "Red Devil", False),
        ("MG 42", "Sherman", False),
        # The PAK 38 sees the Captain; hills hide the Sherman and the Bazooka.
        ("PAK 38", "Red Devil", True),
        ("PAK 38", "Sherman", False),
        ("PAK 38", "Bazooka", False),
        # The Panzer sees the Bazooka and the M1 Garand, not the Sherman or the Captain.
        ("Panzer IV", "Bazooka", True),
        ("Panzer IV", "M1 Garand", True),
        ("Panzer IV", "Sherman", False),
        ("Panzer IV", "Red Devil", False),
    ],
)
def test_m10_rulebook_line_of_sight_example(shooter: str, target: str, sees: bool) -> None:
    m = load_map_text(EXAMPLE)
    a, b = L.parse(AXIS[shooter]), L.parse(ALLIES[target])
    forward, back = line_of_sight(m, a, b), line_of_sight(m, b, a)
    assert forward.clear is sees
    assert back == forward  # M-10.3: sight works both ways
    assert bool(forward.blocked_by) is not sees
    assert all(m.terrain_at(h).blocks_sight for h in forward.blocked_by)


def test_m10_2_example_sight_runs_along_the_hill_edge() -> None:
    """MG 42 (C4) to Bazooka (I4) runs exactly along the hexside between F3 and the hill
    F4, so it is clear; the Sherman half a hex lower at J4 is behind the hill."""
    m = load_map_text(EXAMPLE)
    assert line_of_sight(m, L.parse("C4"), L.parse("I4")).blocked_by == ()
    assert line_of_sight(m, L.parse("C4"), L.parse("J4")).blocked_by == (L.parse("F4"),)
    assert line_of_sight(m, L.parse("B7"), L.parse("J4")).blocked_by == (
        L.parse("D6"), L.parse("G6"))


@pytest.mark.parametrize(
    "config, a, b, blocked, distance",
    [
        # Tiger Country: Baker-1's fire lanes; the sight line along row 3 runs on the
        # edges of the forest hexes of rows 2 and 4 and is clear (M-10.2) …
        (6, "A3", "I3", [], 8),
        (6, "B3", "H3", [], 6),
        # … but cutting across the lane into the woods is blocked.
        (6, "A3", "I4", ["E4", "G4"], 8),
        # Charlie-2 + Dog-2 end to end: an 18-hex sight line across the open ground.
        (6, "A13", "S13", [], 18),
        # Half and Half: Able-1's hill blocks the view east along row 9.
        (1, "E9", "O9", ["G9"], 10),
        # Knife Fight: the houses of Charlie-1 screen the woods.
        (2, "S5", "K4", ["L4", "O4", "P4"], 8),
        (2, "E5", "N4", ["L4"], 9),
        # Town Fight: the east-west road into the village is an open street.
        (4, "E5", "K5", [], 6),
        # Hill 107: the hills of Charlie-2 hide one end of the map from the other.
        (5, "A7", "S7", ["G7", "I7"], 18),
        # Highland: Charlie-2's hill at the objective blocks sight across it.
        (3, "E4", "O4", ["K4"], 10),
    ],
)
def test_line_of_sight_on_the_configurations(
    config: int, a: str, b: str, blocked: list[str], distance: int
) -> None:
    m = build_configuration(config)
    sight = line_of_sight(m, L.parse(a), L.parse(b))
    assert [L.label(h) for h in sight.blocked_by] == blocked
    assert sight.clear is (not blocked)
    assert sight.distance == distance


def test_seam_hexes_never_block() -> None:
    for n in range(1, 7):
        m = build_configuration(n)
        for r in range(1, 17):
            assert not m.terrain_at(L.parse(f"J{r}")).blocks_sight


cols = st.integers(0, 18)
rows = st.integers(0, 15)


@given(st.integers(1, 6), cols, rows, cols, rows)
@settings(max_examples=150, deadline=None)
def test_sight_on_real_maps_is_symmetric_and_ignores_the_end_hexes(
    n: int, c0: int, r0: int, c1: int, r1: int
) -> None:
    m = build_configuration(n)
    a, b = L.from_offset(c0, r0), L.from_offset(c1, r1)
    s = line_of_sight(m, a, b)
    assert s == line_of_sight(m, b, a)
    assert a not in s.blocked_by and b not in s.blocked_by
    assert s.distance == a.distance(b)
    assert all(m.terrain_at(h).blocks_sight and m.on_map(h) for h in s.blocked_by)
    if a.distance(b) <= 1:
        assert s.clear
