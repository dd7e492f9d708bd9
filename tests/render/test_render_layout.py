"""render.layout: hex centre ↔ pixel round trips, corners and hexsides that agree with
the engine's axial geometry (the picture must match M-10 line of sight and M-7.9
facing, which the engine computes in axial space)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.hexgrid import DIRECTIONS, Hex, Labels, hexes_crossed
from render.core.layout import SQRT3, HexLayout, board_layout, board_size

hexes = st.builds(Hex, st.integers(-40, 40), st.integers(-40, 40))
radii = st.floats(4.0, 80.0)
origins = st.tuples(st.floats(-500, 500), st.floats(-500, 500))


@given(hexes, radii, origins, st.booleans())
def test_centre_pixel_round_trip(h: Hex, radius: float, origin: tuple[float, float], flat: bool) -> None:
    layout = HexLayout(radius, origin, flat)
    x, y = layout.centre(h)
    assert layout.pixel_to_hex(x, y) == h
    q, r = layout.pixel_to_axial(x, y)
    assert math.isclose(q, h.q, abs_tol=1e-9) and math.isclose(r, h.r, abs_tol=1e-9)


@given(hexes, radii, st.floats(0, 2 * math.pi), st.floats(0.0, 0.999))
def test_points_inside_a_hex_map_back_to_it(h: Hex, radius: float, angle: float, frac: float) -> None:
    """Any point strictly inside the inscribed circle belongs to the hex."""
    layout = HexLayout(radius, (10.0, 20.0))
    cx, cy = layout.centre(h)
    d = layout.apothem * frac
    assert layout.pixel_to_hex(cx + d * math.cos(angle), cy + d * math.sin(angle)) == h


@given(hexes, st.integers(0, 5))
def test_hexside_d_is_shared_with_neighbour_d(h: Hex, d: int) -> None:
    layout = HexLayout(30.0, (0.0, 0.0))
    a = layout.side(h, d)
    b = layout.side(h.neighbour(d), (d + 3) % 6)
    assert {tuple(round(v, 9) for v in p) for p in a} == {tuple(round(v, 9) for v in p) for p in b}
    # the midpoint of the side lies halfway between the two centres
    (x1, y1), (x2, y2) = layout.centre(h), layout.centre(h.neighbour(d))
    mx, my = layout.side_midpoint(h, d)
    assert math.isclose(mx, (x1 + x2) / 2, abs_tol=1e-9) and math.isclose(my, (y1 + y2) / 2, abs_tol=1e-9)


def test_flat_top_directions_point_se_ne_n_nw_sw_s() -> None:
    """x grows with q, y grows downwards: direction 0 is SE, 2 is N, 5 is S."""
    layout = HexLayout(10.0)
    c = layout.centre(Hex(0, 0))
    expected = [(1, 1), (1, -1), (0, -1), (-1, -1), (-1, 1), (0, 1)]  # signs of (dx, dy)
    for d, (sx, sy) in enumerate(expected):
        x, y = layout.centre(Hex(0, 0) + DIRECTIONS[d])
        dx, dy = x - c[0], y - c[1]
        assert (round(dx, 9) > 0) - (round(dx, 9) < 0) == sx
        assert (round(dy, 9) > 0) - (round(dy, 9) < 0) == sy


def test_corners_form_a_regular_hexagon_of_the_radius() -> None:
    layout = HexLayout(25.0, (100.0, 100.0))
    cx, cy = layout.centre(Hex(2, -1))
    pts = layout.corners(Hex(2, -1))
    assert len(pts) == 6
    for i, (x, y) in enumerate(pts):
        assert math.isclose(math.hypot(x - cx, y - cy), 25.0)
        nx, ny = pts[(i + 1) % 6]
        assert math.isclose(math.hypot(nx - x, ny - y), 25.0)
    # flat-top: two corners on the horizontal through the centre
    assert sorted(round(y - cy, 6) for _, y in pts).count(0.0) == 2


def test_odd_q_columns_are_shifted_half_a_hex_down() -> None:
    labels = Labels()
    layout = board_layout(4, 3, 20.0, labels)
    a1, b1 = layout.centre(labels.parse("A1")), layout.centre(labels.parse("B1"))
    assert math.isclose(b1[0] - a1[0], 30.0)
    assert math.isclose(b1[1] - a1[1], 20.0 * SQRT3 / 2)


def test_board_layout_puts_the_board_box_at_the_given_corner() -> None:
    labels = Labels()
    layout = board_layout(20, 16, 32.0, labels, left=30.0, top=25.0)
    box = layout.bbox(labels.from_offset(c, r) for c in range(20) for r in range(16))
    assert math.isclose(box[0], 30.0) and math.isclose(box[1], 25.0)
    w, h = board_size(20, 16, 32.0, labels)
    assert math.isclose(box[2] - box[0], w) and math.isclose(box[3] - box[1], h)
    assert math.isclose(w, 32.0 * (1.5 * 19 + 2))
    assert math.isclose(h, 32.0 * SQRT3 * 16.5)


near = st.builds(Hex, st.integers(-8, 8), st.integers(-8, 8))


@settings(deadline=None, max_examples=60)
@given(near, near)
def test_pixel_line_crosses_the_hexes_the_engine_says(a: Hex, b: Hex) -> None:
    """M-10: every point of the drawn centre-to-centre line lies in a hex the engine
    reports as crossed (or an end hex), or runs along an edge (in two hexes at once,
    which M-10.2 does not count) — picture and rule agree."""
    layout = HexLayout(30.0)
    crossed = hexes_crossed(a, b) | {a, b}
    (x0, y0), (x1, y1) = layout.centre(a), layout.centre(b)
    n = 7 * max(1, a.distance(b))
    for i in range(n):
        t = (i + 0.5) / n
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        owner = layout.pixel_to_hex(x, y)
        holders = [h for h in (owner, *owner.neighbours()) if layout.contains(h, x, y, tolerance=1e-6)]
        assert any(h in crossed for h in holders) or len(holders) >= 2, (a, b, t, holders)
    # and the engine's crossed hexes really are under the line somewhere
    for h in crossed - {a, b}:
        assert any(layout.pixel_to_hex(x0 + (x1 - x0) * (i + 0.5) / 400, y0 + (y1 - y0) * (i + 0.5) / 400) == h
                   for i in range(400)), h


def test_contains_is_true_inside_and_false_outside() -> None:
    layout = HexLayout(10.0)
    assert layout.contains(Hex(0, 0), 0.0, 0.0)
    assert layout.contains(Hex(0, 0), 9.99, 0.0)
    assert not layout.contains(Hex(0, 0), 10.01, 0.0)
    assert not layout.contains(Hex(0, 0), 0.0, 8.7)
