"""Issue 18 on the example battle (examples/minis-standard.txt, replayed from its order log
and cut into the bot's 38 phase reports): titles that name the phase reported, attack
arrows from where units fired, result labels that cover no token, close-ups of the
action, zooms, and the replay."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from PIL import Image

from engine.core.errors import PlayerError
from engine.minis.events import Attacked, Moved
from engine.minis.state import Phase
from render.core.canvas import boxes_overlap
from render.core.legibility import problems
from render.minis import action_window, phase_images, replay, story, title_for, zoom
from render.minis.phase import CLOSE_MAX, CLOSE_MIN
from render.minis.overlays import AttackLine
from render.minis.replay import MAX_BYTES, replay_board
from render.minis.sample import Report, example_battle
from render_helpers import every_counter_state, hx

TOKENS = ("token", "ghost", "unit-id", "pip-passenger", "pip-disrupted", "pip-damaged", "pip-hit")


@pytest.fixture(scope="module")
def reports() -> tuple[Report, ...]:
    return example_battle()


@pytest.fixture(scope="module")
def images(reports: tuple[Report, ...]) -> dict[str, object]:
    return {r.name: phase_images(r.state, r.events) for r in reports}


def by_name(reports: tuple[Report, ...], name: str) -> Report:
    return next(r for r in reports if r.name == name)


def test_the_example_battle_is_the_bots_38_phase_reports(reports: tuple[Report, ...]) -> None:
    names = [r.name for r in reports]
    assert len(names) == 38
    assert names[:4] == ["setup", "turn1-deployment-allies", "turn1-deployment-axis", "turn1-initiative"]
    assert names[-1] == "turn7-assault-allies"
    assert reports[-1].state.phase is Phase.OVER and reports[-1].state.outcome is not None


def test_titles_name_the_phase_reported_not_the_state_after(reports: tuple[Report, ...], images: dict) -> None:
    """The image of turn 3's Allied assault (whose state is already turn 4's initiative)
    says "Turn 3 · Assault (Allies) · Casualties"; every report's title agrees with the
    name the bot gives its image."""
    r = by_name(reports, "turn3-assault-allies")
    assert (r.state.turn, r.state.phase) == (4, Phase.INITIATIVE)
    assert title_for(r.events) == "Turn 3 · Assault (Allies) · Casualties"
    assert title_for([e.to_dict() for e in r.events]) == title_for(r.events)  # the order-log form
    for rep in reports:
        title = title_for(rep.events)
        board = images[rep.name].board  # type: ignore[attr-defined]
        left = [it.text for it in board.items if it.kind == "title"][0]
        m = re.fullmatch(r"turn(\d+)-(\w+?)(?:-(axis|allies))?", rep.name)
        if m is None:
            assert rep.name == "setup" and title is None
            continue
        turn, phase, side = m.groups()
        expect = f"{phase.title()} ({side.title()})" if side else phase.title()
        if phase != "deployment":
            expect = f"Turn {turn} · {expect}"
        assert title is not None and title.startswith(expect), (rep.name, title)
        assert left.startswith(expect), (rep.name, left)
        assert "to act" not in left and "to decide" not in left  # nothing from the state after


def test_attacks_are_drawn_from_where_the_attackers_fired() -> None:
    """A unit that fires and then moves (Strike and Fade) is drawn firing from its first
    hex; its path runs from there to where it is now."""
    s = every_counter_state()  # ax3 (a Panzer) ends in F4
    moved = Moved("ax3", (hx("D4"), hx("E4"), hx("F4")), (hx("D4"), hx("E4"), hx("F4")), 0, None)
    fired = Attacked(attacker="ax3", target="al3", kind="normal", range=3, band="medium", dice=(6, 5, 1),
                     modifier=0, successes=2, defense=5, front=True, hits=0, covered=False, counters=(),
                     effect="none")
    st = story(s, [fired, moved])
    attack = next(o for o in st.overlays if isinstance(o, AttackLine))
    assert attack.source == hx("D4") and attack.target == hx("G3")
    # the same events the other way round: it moved, then fired from F4
    st = story(s, [moved, fired])
    attack = next(o for o in st.overlays if isinstance(o, AttackLine))
    assert attack.source == hx("F4")
    assert story(s, [e.to_dict() for e in (fired, moved)]).overlays == story(s, [fired, moved]).overlays


def test_arrows_of_a_casualty_phase_point_at_the_removed_units(reports: tuple[Report, ...], images: dict) -> None:
    """Turn 3's Allied assault destroys the Panzer (K7) and the riflemen in K5; after the
    casualty phase the map shows them as ghosts where the arrows end."""
    r = by_name(reports, "turn3-assault-allies")
    st = story(r.state, r.events)
    assert set(st.removed) == {"ax1", "ax4"}
    ends = {o.target for o in st.overlays if isinstance(o, AttackLine)}
    assert ends == {hx("K7"), hx("K5")}
    board = images[r.name].board  # type: ignore[attr-defined]
    ghosts = {it.owner: it.hex for it in board.items if it.kind == "ghost"}
    assert ghosts == {"ax1": hx("K7"), "ax4": hx("K5")}
    legend = [it.text for it in board.items if it.kind == "legend"]
    assert "Removed" in legend
    roster = " ".join(it.text for it in board.items if it.kind == "roster")
    assert "ax1" not in roster and "ax4" not in roster  # gone from the roster all the same


def test_result_labels_cover_no_token(images: dict) -> None:
    """On every phase map and close-up of the battle, no result label (nor burst) covers a
    token, a unit number or a counter, and none covers another label."""
    checked = 0
    for name, imgs in images.items():
        for out in (imgs.board, imgs.closeup):  # type: ignore[attr-defined]
            if out is None:
                continue
            labels = [it for it in out.items if it.kind in ("overlay-label", "overlay-fire")]
            marks = [it for it in out.items if it.kind in TOKENS]
            for lab in labels:
                checked += 1
                hit = [m for m in marks if boxes_overlap(lab.box, m.box)]
                assert not hit, (name, lab.text, [(m.kind, m.owner) for m in hit])
            for i, a in enumerate(labels):
                for b in labels[i + 1:]:
                    assert not boxes_overlap(a.box, b.box), (name, a.text, b.text)
    assert checked >= 40


def test_every_phase_image_of_the_battle_reads_on_a_phone(images: dict) -> None:
    for name, imgs in images.items():
        board = imgs.board  # type: ignore[attr-defined]
        assert problems(board.items, board.image.width) == [], name
        close = imgs.closeup  # type: ignore[attr-defined]
        if close is not None:
            assert problems(close.items, close.image.width, close=True) == [], name


def test_closeups_frame_the_action_with_a_margin(reports: tuple[Report, ...], images: dict) -> None:
    """A close-up accompanies every report in which something moved or fired; it holds
    every hex where that happened with a hex of margin (inside the map), and stays
    between the minimum and maximum sizes."""
    labels = reports[0].state.map.labels
    shown = 0
    for rep in reports:
        st = story(rep.state, rep.events)
        close = images[rep.name].closeup  # type: ignore[attr-defined]
        if not st.focus:
            assert close is None, rep.name
            continue
        shown += 1
        assert close is not None and close.window is not None
        w = close.window
        assert CLOSE_MIN[0] <= w.cols <= CLOSE_MAX[0] and CLOSE_MIN[1] <= w.rows <= CLOSE_MAX[1]
        m = rep.state.map
        for h in st.focus:
            c, r = labels.to_offset(h)
            assert w.holds(c, r), (rep.name, m.label(h))
            assert (w.c0 < c or c == 0) and (c < w.c1 or c == m.cols - 1), (rep.name, m.label(h))
            assert (w.r0 < r or r == 0) and (r < w.r1 or r == m.rows - 1), (rep.name, m.label(h))
        title = " · ".join(it.text for it in close.items if it.kind == "title")
        assert f"Close-up {w.name(labels)}" in title
        assert {it.hex for it in close.items if it.kind == "hex-label"} <= close.hexes
        assert action_window(rep.state, rep.events) == w
    acted = sum(1 for rep in reports if any(isinstance(e, (Moved, Attacked)) for e in rep.events))
    assert shown == acted >= 20


def test_zoom_on_any_hex_stays_on_the_map(reports: tuple[Report, ...]) -> None:
    s = reports[20].state
    before = (s.units, s.turn, s.phase)
    out = zoom(s, "F7")
    assert out.window is not None and (out.window.cols, out.window.rows) == (9, 7)
    c, r = s.map.labels.to_offset(hx("F7"))
    assert (out.window.c0, out.window.r0, out.window.c1, out.window.r1) == (c - 4, r - 3, c + 4, r + 3)
    assert hx("F7") in out.hexes and problems(out.items, out.image.width, close=True) == []
    corner = zoom(s, "a1")
    assert corner.window is not None and (corner.window.c0, corner.window.r0) == (0, 0)
    last = zoom(s, "S16")
    assert last.window is not None and (last.window.c1, last.window.r1) == (s.map.cols - 1, s.map.rows - 1)
    for bad in ("Z99", "7F", ""):
        with pytest.raises(PlayerError):
            zoom(s, bad)
    assert (s.units, s.turn, s.phase) == before


def test_replay_of_the_example_battle_is_one_animation_under_8_mb(reports: tuple[Report, ...]) -> None:
    """Issue 18: one frame per phase report, the phase named on each, under Discord's
    8 MB attachment limit (measured: about 1.2 MB)."""
    frames = [(title_for(r.events) or "Set-up", r.state, r.events) for r in reports]
    data = replay(frames)
    assert len(data) < MAX_BYTES
    anim = Image.open(BytesIO(data))
    assert anim.format == "GIF" and anim.n_frames == len(frames) == 38
    assert anim.info.get("loop") == 0
    # the frames are the named boards: the first decodes to the first board
    first = replay_board(*frames[0][1:], frames[0][0])
    assert [it.text for it in first.items if it.kind == "title"][0] == "Set-up"
    anim.seek(0)
    decoded = anim.convert("RGB").crop((0, 0, first.image.width, first.image.height))
    diff = sum(1 for a, b in zip(decoded.tobytes(), first.image.tobytes()) if abs(a - b) > 48)
    assert diff < 0.001 * len(first.image.tobytes())
    for name, state, events in frames[1:4]:
        titles = [it.text for it in replay_board(state, events, name).items if it.kind == "title"]
        assert titles[0] == name


def test_a_replay_of_pictures_names_each_frame() -> None:
    a = Image.new("RGB", (300, 200), (200, 30, 30))
    b = Image.new("RGB", (320, 180), (30, 30, 200))
    data = replay([("Turn 1 · Movement (Axis)", a), ("Turn 1 · Assault (Axis)", b)])
    anim = Image.open(BytesIO(data))
    assert anim.n_frames == 2 and anim.size[0] == 320 and anim.size[1] > 200
    anim.seek(1)
    band = anim.size[1] - 200  # the caption over the taller picture
    px = anim.convert("RGB").getpixel((10, band + 50))
    assert isinstance(px, tuple) and px[2] > 150 and px[0] < 60  # the second picture, under its caption
    with pytest.raises(ValueError):
        replay([])


def test_every_replay_frame_reads_on_a_phone(reports: tuple[Report, ...]) -> None:
    """The replay's frames (smaller hexes, no legend or roster) pass the same 550-px
    legibility measures as the phase images, each titled with its phase."""
    for r in reports:
        name = title_for(r.events) or "Set-up"
        frame = replay_board(r.state, r.events, name)
        assert problems(frame.items, frame.image.width) == [], r.name
        assert [it.text for it in frame.items if it.kind == "title"][0] == name
