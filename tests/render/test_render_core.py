"""The generic pieces (render.core) on their own: a pointy-top board shaped like Memoir
'44's (rows of 13 and 12 hexes, E-2.1) drawn with the frame, labels, title bar, legend and
roster and nothing of Minis; windows for close-ups; the layer cache; the palette encoder;
captions and animations; and the rule that nothing generic imports a game."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Hashable

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex, Labels
from render.core.anim import animate, with_caption
from render.core.cache import LayerCache
from render.core.canvas import Canvas
from render.core.colour import RGB, aligned
from render.core.encode import palette_conflicts, palette_for, png, to_palette
from render.core.frame import draw_coordinates, draw_hex_label, framed
from render.core.layout import HexLayout, offset_hexes
from render.core.legend import LegendItem, draw_legend, legend_height, swatch_icon
from render.core.legibility import problems
from render.core.roster import RosterEntry, RosterSection, draw_roster, roster_height
from render.core.theme import core_theme
from render.core.title import draw_title, title_height, title_lines
from render.core.window import Window, window_around, window_centred
from render_helpers import imported_modules

POINTY = Labels(flat=False)
CORE = Path(__file__).resolve().parents[2] / "render" / "core"


def memoir_board() -> frozenset[Hex]:
    return offset_hexes(13, 9, POINTY, short_shifted=True)


def test_e2_1_the_memoir_board_has_rows_of_13_and_12_hexes() -> None:
    board = memoir_board()
    assert len(board) == 113
    for r in range(9):
        row = sorted(POINTY.to_offset(h)[0] for h in board if POINTY.to_offset(h)[1] == r)
        assert row == list(range(13 if r % 2 == 0 else 12)), r
    # A2 touches A1, B1, A3 and B3 (E-2.1) besides B2, and the layout puts them one hex apart
    a2 = POINTY.parse("A2")
    assert {POINTY.label(n) for n in a2.neighbours() if n in board} == {"A1", "B1", "B2", "A3", "B3"}
    layout = HexLayout(20.0, flat=False)
    for n in ("A1", "B1", "A3", "B3"):
        (x0, y0), (x1, y1) = layout.centre(a2), layout.centre(POINTY.parse(n))
        assert abs(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 - 20.0 * 3 ** 0.5) < 1e-9


def draw_toy_board(hexes: frozenset[Hex], labels: Labels, R: float) -> tuple[Image.Image, Canvas, HexLayout]:
    """A board drawn with the generic pieces only: title, frame, hex labels, legend,
    roster."""
    th = core_theme()
    fb = framed(hexes, R, th, flat=labels.flat)
    lines = title_lines("Turn 2 · Section battle", "Pegasus Bridge · Allies 3 medals, Axis 1", fb.width, R, th)
    title_h = title_height(lines, R, th)
    items = [LegendItem(swatch_icon((96, 140, 76, 255), (48, 88, 40, 255)), 20, "Forest"),
             LegendItem(swatch_icon((220, 192, 136, 255), (168, 136, 76, 255)), 20, "Hill")]
    legend_h = legend_height(items, fb.width, R, th)
    sections = [RosterSection("Allied units", [RosterEntry(None, 0, "Infantry ×4", "B3"),
                                               RosterEntry(None, 0, "Armour ×3", "F4")])]
    roster_h = roster_height(sections, fb.width, R, th)
    image = Image.new("RGB", (fb.width, title_h + fb.height + legend_h + roster_h), th.colour("panel")[:3])
    canvas = Canvas(image)
    draw_title(canvas, fb.width, title_h, lines, R, th)
    layout = fb.layout.shifted(0, title_h)
    d = ImageDraw.Draw(image)
    for h in hexes:
        d.polygon(layout.corners(h), fill=(224, 228, 196), outline=(0, 0, 0))
        draw_hex_label(canvas, layout, h, labels.label(h), (92, 100, 80), th)
    draw_coordinates(canvas, layout, labels, hexes, fb.frame, th)
    draw_legend(canvas, title_h + fb.height, fb.width, items, R, th)
    draw_roster(canvas, title_h + fb.height + legend_h, fb.width, sections, R, th)
    return image, canvas, layout


def test_a_pointy_board_gets_its_frame_labels_and_panels() -> None:
    board = memoir_board()
    image, canvas, layout = draw_toy_board(board, POINTY, 30.0)
    columns = [it.text for it in canvas.items if it.kind == "frame-column"]
    assert sorted(set(columns)) == list("ABCDEFGHIJKLM") and len(columns) == 26
    assert [it.text for it in canvas.items if it.kind == "frame-row"] == [str(r) for r in range(1, 10)]
    labels = [it for it in canvas.items if it.kind == "hex-label"]
    assert len(labels) == 113
    for it in labels:
        assert it.hex is not None and it.text == POINTY.label(it.hex)
        # each label sits inside its own hex, centred, in its upper half
        hx, hy = layout.centre(it.hex)
        x0, y0, x1, y1 = it.box
        assert abs((x0 + x1) / 2 - hx) < 2 and y1 < hy
        assert all(layout.contains(it.hex, x, y) for x in (x0, x1) for y in (y0, y1))
    assert {it.kind for it in canvas.items} >= {"title", "legend", "legend-icon", "roster", "roster-head"}
    assert problems(canvas.items, image.width) == []


def test_a_flat_window_shows_its_own_columns_and_rows() -> None:
    labels = Labels()
    board = offset_hexes(19, 16, labels)
    w = Window(4, 2, 9, 7)
    shown = w.hexes(labels, board)
    assert len(shown) == 36
    _, canvas, _ = draw_toy_board(shown, labels, 40.0)
    assert sorted({it.text for it in canvas.items if it.kind == "frame-column"}) == list("EFGHIJ")
    assert [it.text for it in canvas.items if it.kind == "frame-row"] == ["3", "4", "5", "6", "7", "8"]
    assert w.name(labels) == "E3–J8"


def test_window_around_the_action_has_a_margin_and_stays_on_the_board() -> None:
    labels = Labels()
    board = offset_hexes(19, 16, labels)
    at = labels.parse
    w = window_around([at("J8"), at("K9")], labels, board, margin=1, min_cols=6, min_rows=5)
    assert w is not None and (w.cols, w.rows) == (6, 5)
    assert w.holds(*labels.to_offset(at("I7"))) and w.holds(*labels.to_offset(at("L10")))
    corner = window_around([at("A1")], labels, board, margin=1, min_cols=6, min_rows=5)
    assert corner == Window(0, 0, 5, 4)
    far = window_around([at("S16")], labels, board, margin=1, min_cols=6, min_rows=5)
    assert far == Window(13, 11, 18, 15)
    big = window_around({at("B2"): 1.0, at("R14"): 1.0, at("Q15"): 2.0, at("R15"): 2.0}, labels, board,
                        margin=1, max_cols=8, max_rows=6)
    assert big is not None and (big.cols, big.rows) == (8, 6)
    for h in ("R14", "Q15", "R15"):  # the heavier end wins
        assert big.holds(*labels.to_offset(at(h)))
    assert window_around([], labels, board) is None
    assert window_centred(at("J8"), labels, board, cols=9, rows=7) == Window(5, 4, 13, 10)


def test_the_layer_cache_keys_on_content_and_keeps_its_size() -> None:
    class Board:
        def __init__(self, name: str) -> None:
            self.name = name

    def fp(b: object) -> Hashable:
        assert isinstance(b, Board)
        return b.name

    cache: LayerCache[list[int]] = LayerCache(size=2)
    drawn: list[str] = []

    def draw(tag: str) -> list[int]:
        drawn.append(tag)
        return [len(drawn)]

    a = cache.get(Board("x"), fp, 1, lambda: draw("x1"))
    assert cache.get(Board("x"), fp, 1, lambda: draw("again")) is a  # same content, another object
    cache.get(Board("x"), fp, 2, lambda: draw("x2"))
    cache.get(Board("y"), fp, 1, lambda: draw("y1"))
    assert drawn == ["x1", "x2", "y1"] and cache.stats == {"hits": 1, "misses": 3}
    cache.get(Board("x"), fp, 1, lambda: draw("x1 again"))  # evicted (size 2)
    assert drawn[-1] == "x1 again"


def test_long_titles_wrap_inside_the_width() -> None:
    th = core_theme()
    lines = title_lines("Turn 7 · Battle over · Allies won: they control the objective at the end of turn 7",
                        "Standard · Town Fight · Objective K5 held by Allies", 400, 32, th)
    assert len(lines) >= 3 and all(bool(left) != bool(right) for left, right in lines)
    image = Image.new("RGB", (400, title_height(lines, 32, th)))
    canvas = Canvas(image)
    draw_title(canvas, 400, image.height, lines, 32, th)
    assert all(0 <= it.box[0] and it.box[2] <= 400 for it in canvas.items)


def test_palette_png_of_few_colours_is_lossless() -> None:
    image = Image.new("RGB", (64, 32), (10, 20, 30))
    ImageDraw.Draw(image).rectangle((8, 8, 40, 20), fill=(251, 3, 77))
    data = png(image)
    back = Image.open(BytesIO(data))
    assert back.mode == "P" and back.convert("RGB").tobytes() == image.tobytes()


def test_the_palette_keeps_aligned_colours_and_white_exactly() -> None:
    """Kept colours map to themselves even among thousands of anti-aliased shades: an
    aligned colour is its own cache point; white is protected from octree entries."""
    keep: list[RGB] = [(224, 228, 196), (96, 140, 76), (16, 16, 16), (255, 255, 255), (184, 36, 32)]
    assert all(aligned(c) for c in keep)
    image = Image.new("RGB", (300, 200), keep[0])
    d = ImageDraw.Draw(image)
    for x in range(300):  # a gradient: hundreds of shades, some next to the kept colours
        d.line((x, 0, x, 140), fill=(200 + x % 56, 180 + x % 72, 60 + x // 2))
    for i in range(60):
        d.line((0, i * 2, 300, 140 - i * 2), fill=(250 - i % 5, 251, 253 - i % 3), width=2)
        d.ellipse((i * 4, i, i * 4 + 30, i + 30), fill=(96 + i % 7, 140 - i % 5, 76 + i % 3))
    for k, c in enumerate(keep):
        d.rectangle((10 + k * 50, 150, 40 + k * 50, 190), fill=c)
    assert image.getcolors(256) is None  # too many for a lossless palette
    p = to_palette(image, keep).convert("RGB")
    for k, c in enumerate(keep):
        assert p.getpixel((25 + k * 50, 170)) == c
    pal = palette_for(image, keep)
    assert pal[:len(keep)] == keep and len(pal) <= 256
    assert palette_conflicts(keep) == []
    assert palette_conflicts([(21, 24, 27), (23, 25, 27)])  # two near colours cannot both stay exact


def test_captions_and_animations() -> None:
    frame, canvas = with_caption(Image.new("RGB", (600, 300), (0, 90, 0)), "Turn 2 · Assault (Axis)")
    assert frame.height > 300 and [it.text for it in canvas.items if it.kind == "title"] == ["Turn 2 · Assault (Axis)"]
    assert problems(canvas.items, frame.width) == []
    data = animate([("one", Image.new("RGB", (100, 80), (200, 0, 0))),
                    ("two", Image.new("RGB", (100, 80), (0, 0, 200)))], seconds=1.0, last_seconds=3.0)
    anim = Image.open(BytesIO(data))
    assert anim.n_frames == 2
    anim.seek(0)
    assert anim.info["duration"] == 1000
    anim.seek(1)
    assert anim.info["duration"] == 3000
    webp = animate([("one", Image.new("RGB", (50, 40), (1, 2, 3))), ("two", Image.new("RGB", (50, 40), (9, 9, 9)))],
                   fmt="webp")
    assert Image.open(BytesIO(webp)).n_frames == 2


def test_nothing_generic_imports_a_game() -> None:
    """Issue 10 item 6: render/core knows no game — no engine.<game> or render.<game>
    import — so Memoir '44 and A&A renderers can build on it."""
    seen = 0
    for file, name in imported_modules(CORE):
        parts = name.split(".")
        assert name != ".", file
        if parts[0] in ("engine", "render"):
            assert parts[1:2] == ["core"], (file, name)
        seen += 1
    assert seen > 50
