"""render.minis.board from engine states: what is drawn, where, and what is not."""

from __future__ import annotations

import math
from io import BytesIO

import pytest
from PIL import Image

from engine.minis.model import ALLIES, AXIS, Terrain
from engine.minis.state import Hit, Phase
from render.minis import board, objective_holder, png, render_board
from render.minis.base import base_layer, clear_cache, stats
from render.minis.sample import demo_state
from render.minis.theme import theme
from render_helpers import (CARDS, ascii_map, every_counter_state, hx, make_state, small_map, unit)


def _centre_of(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    p = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(p, tuple)
    return p[0], p[1], p[2]


def _close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _count_near(image: Image.Image, colour: tuple[int, ...], tol: int = 10) -> int:
    raw = image.convert("RGB").tobytes()
    return sum(1 for i in range(0, len(raw), 3) if _close(tuple(raw[i:i + 3]), colour, tol))


def test_every_terrain_type_is_drawn_with_its_fill() -> None:
    """M-13 terrain: a point near the middle of each hex (under no token) has that
    terrain's fill colour; hills, forests, towns, marshes and lakes all appear."""
    s = make_state(small_map(), [])
    out = render_board(s, legend=False, roster=False)
    th = theme()
    seen = set()
    for h in s.map.hexes:
        t = s.map.terrain_at(h)
        cx, cy = out.layout.centre(h)
        # a probe left of the centre, clear of symbols, labels, roads and the objective star
        probe = (cx - out.layout.radius * 0.3, cy - out.layout.radius * 0.05)
        if h in (hx("D5"), hx("E5"), hx("E3")) or s.map.road(h, h.neighbour(3)) or s.map.road(h, h.neighbour(0)):
            continue
        if any(h in (a, b) for a, b in s.map.roads):
            continue
        assert _close(_pixel(out.image, probe), th.terrain[t.value].fill[:3]), (s.map.label(h), t)
        seen.add(t)
    assert seen == set(Terrain)


def test_roads_streams_bridges_and_objective_are_drawn() -> None:
    s = make_state(small_map(), [])
    out = render_board(s, legend=False, roster=False)
    th, lay = theme(), out.layout
    # road: the midpoint between two road hex centres has the road colour
    a, b = lay.centre(hx("B5")), lay.centre(hx("C5"))
    assert _close(_pixel(out.image, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)), th.colour("road")[:3], 12)
    # stream: the middle of a stream hexside is blue (not the bridged one)
    m = lay.side_midpoint(hx("D2"), hx("D2").direction_to(hx("E2")))
    r, g, bl = _pixel(out.image, m)
    assert bl > r + 40 and bl > g
    # bridge: the crossing of the road over the stream shows the deck
    deck = lay.side_midpoint(hx("D5"), hx("D5").direction_to(hx("E5")))
    assert _close(_pixel(out.image, deck), th.colour("bridge_deck")[:3], 14)
    # objective: gold ring just inside the hex rim of E3
    cx, cy = lay.centre(hx("E3"))
    ring = (cx - lay.radius * (1 - theme().sizes["stream_width"] * 0.6 - theme().sizes["objective_ring"]), cy)
    assert _close(_pixel(out.image, ring), th.colour("objective")[:3], 40)


def test_every_counter_type_is_drawn_and_recorded() -> None:
    """M-8/M-9/M-15/M-6.4: face-up Disrupted and Damaged, face-down hits, passenger,
    facing wedges and a greyed unit with a pending Destroyed counter."""
    s = every_counter_state()
    out = render_board(s)
    th = theme()
    kinds = {(it.kind, it.owner) for it in out.items if it.hex is not None}
    assert ("pip-disrupted", "ax1") in kinds and ("pip-disrupted", "ax3") in kinds
    assert ("pip-damaged", "ax3") in kinds
    assert ("pip-hit", "ax12") in kinds and ("pip-hit", "al10") in kinds
    assert ("pip-passenger", "al10") in kinds
    hits = [it for it in out.items if it.kind == "pip-hit" and it.owner == "al10" and it.hex is not None]
    assert len(hits) == 2  # one black square per face-down counter (M-9.3)
    for it in out.items:
        if it.kind.startswith("pip-") and it.hex is not None:
            colour = {"pip-disrupted": "disrupted", "pip-damaged": "damaged", "pip-hit": "hit"}.get(it.kind)
            if colour:
                assert _close(_pixel(out.image, _centre_of(it.box)), th.colour(colour)[:3], 8), it
    arrows = [it for it in out.items if it.kind == "facing"]
    assert {w.hex for w in arrows} == {hx("C3"), hx("F4"), hx("G5"), hx("G3")}
    # the greyed token: its body has the destroyed grey
    tok = next(it for it in out.items if it.kind == "token" and it.owner == "ax4" and it.hex is not None)
    crop = out.image.crop(tuple(round(v) for v in tok.box))
    grey = th.colour("destroyed_body")[:3]
    share = _count_near(crop, grey) / (crop.width * crop.height)
    assert share > 0.15  # the body (the counters take the right end, the strike crosses it)
    italy = th.nation("Italy", AXIS).fill[:3]
    assert _count_near(crop, italy) == 0  # and none of its nation's colour is left
    normal = next(it for it in out.items if it.kind == "token" and it.owner == "ax5" and it.hex is not None)
    crop = out.image.crop(tuple(round(v) for v in normal.box))
    assert _count_near(crop, grey) / (crop.width * crop.height) < 0.02


@pytest.mark.parametrize("facing", range(6))
def test_m6_4_facing_arrow_points_out_through_the_faced_hexside(facing: int) -> None:
    """The arrow's tip lies outside the hex, beyond the midpoint of hexside ``facing``
    and nowhere near the other five; its base is inside the hex."""
    m = ascii_map([". . . .", ". . . .", ". . . ."])
    out = render_board(make_state(m, [unit("ax1", "tank-ax", "B2", facing=facing)]), legend=False, roster=False)
    (tip,) = [it for it in out.items if it.kind == "facing-tip"]
    tx, ty = tip.box[0], tip.box[1]
    lay = out.layout
    cx, cy = lay.centre(hx("B2"))
    assert not lay.contains(hx("B2"), tx, ty)
    assert lay.pixel_to_hex(tx, ty) == hx("B2").neighbour(facing)
    mx, my = lay.side_midpoint(hx("B2"), facing)
    # on the ray from the centre through the faced hexside's midpoint, beyond it
    along = ((tx - cx) * (mx - cx) + (ty - cy) * (my - cy)) / lay.apothem
    across = abs((tx - cx) * (my - cy) - (ty - cy) * (mx - cx)) / lay.apothem
    assert along > lay.apothem and across < 0.5
    (arrow,) = [it for it in out.items if it.kind == "facing"]
    x0, y0, x1, y1 = arrow.box
    assert any(lay.contains(hx("B2"), x, y) for x, y in ((x0, y0), (x1, y1), (x0, y1), (x1, y0)))


@pytest.mark.parametrize("facing", range(6))
def test_facing_arrow_shape_alone_tells_the_direction(facing: int) -> None:
    """Issue 18: the mark's *shape* gives the facing, not only its position.  The
    arrow's pixels (the tank's nation colour, outside its token) have one long axis
    along the facing direction (principal axis within 4°, variance along it ≥ 3× across) and more
    of their mass toward the tip (the head is wider than the shaft)."""
    m = ascii_map([". . . .", ". . . .", ". . . ."])
    out = render_board(make_state(m, [unit("ax1", "tank-ax", "B2", facing=facing)]), legend=False, roster=False,
                       hex_radius=64)
    fill = theme().nation("Germany", AXIS).fill[:3]
    token = next(it.box for it in out.items if it.kind == "token")
    cx, cy = out.layout.centre(hx("B2"))
    raw = out.image.convert("RGB")
    pts = [(x, y) for y in range(raw.height) for x in range(raw.width)
           if _close(_pixel(raw, (x, y)), fill, 3)
           and not (token[0] - 1 <= x <= token[2] + 1 and token[1] - 1 <= y <= token[3] + 1)]
    assert len(pts) > 120
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts) / n
    syy = sum((p[1] - my) ** 2 for p in pts) / n
    sxy = sum((p[0] - mx) * (p[1] - my) for p in pts) / n
    axis = 0.5 * math.atan2(2 * sxy, sxx - syy)
    tr, det = sxx + syy, sxx * syy - sxy * sxy
    big = tr / 2 + math.sqrt(max(0.0, tr * tr / 4 - det))
    small = tr / 2 - math.sqrt(max(0.0, tr * tr / 4 - det))
    sx, sy = out.layout.side_midpoint(hx("B2"), facing)
    want = math.atan2(sy - cy, sx - cx)
    diff = abs((axis - want + math.pi / 2) % math.pi - math.pi / 2)
    assert diff < math.radians(4), (math.degrees(axis), math.degrees(want))
    assert big >= 3.0 * small  # an equilateral wedge would give 1: no axis to read
    # skewness along the direction: the wide head sits beyond the middle, at the tip's end
    ux, uy = math.cos(want), math.sin(want)
    proj = [(p[0] - mx) * ux + (p[1] - my) * uy for p in pts]
    third = sum(v ** 3 for v in proj) / n
    assert third < 0  # mass on the tip side: the long thin tail points back to the centre


def test_soldiers_have_no_facing_wedge() -> None:
    m = ascii_map([". . .", ". . ."])
    out = render_board(make_state(m, [unit("ax1", "rifle-ax", "B1", facing=2)]), legend=False, roster=False)
    assert not [it for it in out.items if it.kind == "wedge"]


def test_tokens_sit_in_their_hex_axis_above_allies_and_show_the_number() -> None:
    s = every_counter_state()
    out = render_board(s)
    ids = [it for it in out.items if it.kind == "unit-id"]
    by_owner = {it.owner: it for it in ids}
    for u in s.units:
        if not u.on_map or u.carried_by:
            assert u.id not in by_owner  # passengers ride inside their transport's token
            continue
        it = by_owner[u.id]
        assert it.text == u.id[2:]  # "ax12" → "12": the cap tells the side
        assert out.layout.pixel_to_hex(*_centre_of(it.box)) == u.hex
    # in the full hex C3 the Axis bars are above the Allied ones (M-6.2 order)
    c3 = sorted((it for it in ids if it.hex == hx("C3")), key=lambda it: it.box[1])
    assert [it.owner for it in c3] == ["ax1", "ax12", "al10", "al11"]


def test_hidden_information_only_deployed_units_are_drawn() -> None:
    """Design: army lists are never drawn; undeployed and removed units do not appear
    anywhere in the image (map or roster)."""
    s = every_counter_state()
    out = render_board(s)
    texts = " ".join(it.text for it in out.items)
    assert "ax8" not in texts and "al7" not in texts
    owners = {it.owner for it in out.items}
    assert "ax8" not in owners and "al7" not in owners
    # a state in army building shows no units at all
    armies = make_state(small_map(), [unit("ax1", "rifle-ax", None), unit("al1", "rifle-al", None)],
                        phase=Phase.ARMIES)
    out = render_board(armies)
    assert not [it for it in out.items if it.kind in ("token", "unit-id", "roster")]


def test_rendering_does_not_change_the_state() -> None:
    s = every_counter_state()
    before = (s.units, s.turn, s.phase, s.active, dict(s.cards), s.map.terrain, s.map.roads)
    board(s, overlays=())
    assert (s.units, s.turn, s.phase, s.active, dict(s.cards), s.map.terrain, s.map.roads) == before


def test_title_bar_says_turn_phase_whose_move_scenario_and_objective_holder() -> None:
    s = every_counter_state()
    out = render_board(s)
    titles = [it.text for it in out.items if it.kind == "title"]
    assert titles[0] == "Turn 3 · Assault · Axis to act"
    assert " · ".join(titles[1:]) == "Standard · Small test map · Objective E3 held by Axis"
    dep = make_state(small_map(), [], phase=Phase.DEPLOYMENT, active=ALLIES)
    out = render_board(dep, title="League match 4")
    titles = [it.text for it in out.items if it.kind == "title"]
    assert titles[0] == "Deployment · Allies to deploy"
    assert "League match 4" in " ".join(titles) and "held by nobody" in " ".join(titles)


def test_m4_1_objective_holder() -> None:
    m = small_map()
    obj = hx("E3")
    assert objective_holder(make_state(m, []), obj) is None
    axis_adjacent = make_state(m, [unit("ax1", "rifle-ax", "E2"), unit("al1", "rifle-al", "G3")])
    assert objective_holder(axis_adjacent, obj) == AXIS
    on_it = make_state(m, [unit("al1", "rifle-al", "E3")])
    assert objective_holder(on_it, obj) == ALLIES  # M-1.2: the same hex is adjacent
    both = make_state(m, [unit("ax1", "rifle-ax", "E2"), unit("al1", "rifle-al", "E4")])
    assert objective_holder(both, obj) is None
    removed = make_state(m, [unit("ax1", "rifle-ax", "E2", destroyed=True), unit("al1", "rifle-al", "E4")])
    assert objective_holder(removed, obj) == ALLIES


def test_deployment_zones_shown_during_set_up_only() -> None:
    th = theme()
    m = small_map()
    probe_hex = hx("A4")

    def colour(phase: Phase, show: bool | None = None) -> tuple[int, int, int]:
        out = render_board(make_state(m, [], phase=phase), show_deployment=show, legend=False, roster=False)
        cx, cy = out.layout.centre(probe_hex)
        return _pixel(out.image, (cx - out.layout.radius * 0.3, cy))

    clear = th.terrain["clear"].fill[:3]
    assert _close(colour(Phase.ASSAULT), clear)
    assert not _close(colour(Phase.DEPLOYMENT), clear, 10)
    assert not _close(colour(Phase.ASSAULT, True), clear, 10)
    assert _close(colour(Phase.DEPLOYMENT, False), clear)


def test_roster_lists_every_deployed_unit_with_name_and_hex() -> None:
    s = every_counter_state()
    out = render_board(s)
    roster = [it.text for it in out.items if it.kind == "roster"]
    for u in s.units:
        if u.on_map:
            name = f"{u.id} {CARDS[u.card].short_name}"
            assert name in roster
    i = roster.index("al12 Bazooka")
    assert roster[i + 1] == "in al10"
    assert roster[roster.index("ax3 Panzer IV") + 1] == "F4 SE"  # M-6.4 facing 0 is SE
    assert roster[roster.index("al5 M1 Garand") + 1] == "H4"  # Soldiers have no facing


def test_every_hex_has_its_label_unless_a_full_hex_covers_it() -> None:
    s = every_counter_state()
    out = render_board(s)
    labelled = {it.hex for it in out.items if it.kind == "hex-label"}
    assert labelled == s.map.hexes - {hx("C3")}
    for it in out.items:
        if it.kind == "hex-label":
            assert it.hex is not None and it.text == s.map.label(it.hex)
    frame = [it.text for it in out.items if it.kind == "frame-column"]
    assert frame == [c for c in "ABCDEFGH" for _ in range(2)]
    assert [it.text for it in out.items if it.kind == "frame-row"] == [str(r) for r in range(1, 7)]


def test_close_up_windows_never_push_whole_maps_out_of_the_cache() -> None:
    """Every report has a close-up window of its own; drawing many of them must not
    evict the whole maps (a whole-map miss costs ~70 ms to redraw)."""
    from render.core.window import Window

    clear_cache()
    th = theme()
    maps = [ascii_map([". " * 10] * 8), ascii_map(["F " * 10] * 8)]
    whole = [base_layer(m, radius=32, zones=False, th=th) for m in maps]
    for c in range(5):  # 20 windows: more than both caches hold
        for r in range(4):
            base_layer(maps[0], radius=48, zones=False, th=th, window=Window(c, r, c + 2, r + 2))
    again = [base_layer(m, radius=32, zones=False, th=th) for m in maps]
    assert all(a is b for a, b in zip(whole, again))
    assert stats == {"hits": 2, "misses": 2}


def test_static_layer_is_cached_per_map_content() -> None:
    clear_cache()
    th = theme()
    m = small_map()
    first = base_layer(m, radius=32, zones=False, th=th)
    assert stats == {"hits": 0, "misses": 1}
    assert base_layer(m, radius=32, zones=False, th=th) is first
    # a map rebuilt with the same content (e.g. loaded from a saved game) hits too
    assert base_layer(small_map(), radius=32, zones=False, th=th) is first
    assert stats == {"hits": 2, "misses": 1}
    other = ascii_map([". .", ". ."])
    assert base_layer(other, radius=32, zones=False, th=th) is not first
    assert base_layer(m, radius=32, zones=True, th=th) is not first
    assert stats["misses"] == 3
    # the cached image is never drawn on: two boards in a row are identical
    s = every_counter_state()
    assert board(s).tobytes() == board(s).tobytes()


def test_png_bytes_keep_every_theme_colour_and_are_smaller() -> None:
    """Issue 18: a palette PNG where it keeps every colour we draw.  Every pixel drawn in
    a flat theme colour decodes to exactly that colour, every such colour in the picture
    is still there, the anti-aliased shades in between move little (mean ≤ 1/255 on
    the worst channel, none by more than 48), and the file is under half the size of the
    lossless RGB PNG — which round-trips exactly."""
    s = demo_state()
    image = board(s)
    data = png(image)
    lossless = png(image, lossless=True)
    assert data[:8] == lossless[:8] == b"\x89PNG\r\n\x1a\n"
    assert Image.open(BytesIO(lossless)).convert("RGB").tobytes() == image.tobytes()
    back = Image.open(BytesIO(data))
    assert back.mode == "P" and back.size == image.size
    assert len(data) <= len(lossless) / 2 and len(data) <= 300 * 1024
    kept = set(theme().flat_colours())
    src, dst = image.tobytes(), back.convert("RGB").tobytes()
    flat = wrong = worst = total = 0
    before: set[tuple[int, ...]] = set()
    after: set[tuple[int, ...]] = set()
    for i in range(0, len(src), 3):
        a, b = tuple(src[i:i + 3]), tuple(dst[i:i + 3])
        err = max(abs(x - y) for x, y in zip(a, b))
        total += err
        worst = max(worst, err)
        if a in kept:
            flat += 1
            wrong += a != b
            before.add(a)
        if b in kept:
            after.add(b)
    assert flat > 0.85 * len(src) / 3  # most of the picture is flat theme colour
    assert wrong == 0
    assert before <= after
    assert total / (len(src) / 3) <= 1.0 and worst <= 48


def test_demo_battle_has_thirty_units_and_twenty_counters() -> None:
    """The bench's workload (bench/render.py) is what its docstring says."""
    s = demo_state()
    on_map = [u for u in s.units if u.on_map]
    assert len(on_map) == 30
    counters = sum(u.disrupted + u.damaged + len(u.hits) for u in s.units)
    assert counters == 20
    assert any(Hit.DESTROYED in u.hits for u in s.units)


def test_title_after_the_battle_names_the_winner_and_the_reason() -> None:
    from dataclasses import replace

    from engine.core.game import Outcome

    s = replace(every_counter_state(), phase=Phase.OVER, active=None, turn=7,
                outcome=Outcome(AXIS, "it holds the objective at the end of turn 7"))
    board = render_board(s)
    items = [it for it in board.items if it.kind == "title"]
    left = " · ".join(it.text for it in items if it.box[0] < board.image.width / 4)
    # Too long for one line: wrapped, never cut off at the right edge.
    assert left.startswith("Turn 7 · Battle over · Axis won: it holds the objective")
    assert "the objective at the end of turn 7 Standard" in left.replace(" · ", " ")
    assert all(it.box[2] <= board.image.width for it in items)
    drawn = replace(s, outcome=Outcome(None, "both armies destroyed"))
    titles = [it.text for it in render_board(drawn).items if it.kind == "title"]
    assert " · ".join(titles).startswith("Turn 7 · Battle over · Drawn: both armies destroyed")
