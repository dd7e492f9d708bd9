"""The standings image, measured the way every picture is (render/core/legibility.py):
Discord shows an image at most about 550 px wide, so every text's cap height (font size
× the font's cap-height ratio), scaled to that width, must be at least 7 px (the
"panel" threshold), and no two texts may overlap."""

from __future__ import annotations

from datetime import timedelta

from PIL import Image

from bot.league.export import standings_image
from bot.league.model import League, Result
from bot.league.ops import drop_player, next_round, record_result, start
from render.core.canvas import Drawn, boxes_overlap
from render.core.legibility import TEXT_MIN, problems, smallest
from render.league import DISPLAY_WIDTH, INK, MUTED, render_table
from tests.league.helpers import ORGANISER, T0, new_league


def ink(image: Image.Image, item: Drawn) -> tuple[int, int, int]:
    """The darkest colour inside a text's ink box: the colour it was drawn in."""
    box = tuple(round(v) for v in item.box)
    colours = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return min((c for _, c in colours), key=sum)


def big_league() -> League:
    names = [f"Generalfeldmarschall number {k} of the Eastern Front" if k % 3 == 0 else f"p{k}"
             for k in range(1, 17)]
    league = start(new_league(names, name="The Long Autumn League of 1944", rounds=4), by=ORGANISER, now=T0)
    for r in range(1, 5):
        rnd = league.current
        assert rnd is not None
        for p in rnd.open_pairings:
            league = record_result(league, r, p.board, [Result.FIRST_WINS, Result.DRAW, Result.SECOND_WINS][p.board % 3])
        if r == 2:
            league = drop_player(league, 5, by=ORGANISER)
        if r < 4:
            league = next_round(league, now=T0 + timedelta(days=7 * r))
    return league


def test_sixteen_players_six_tiebreaks_read_at_550_px() -> None:
    league = big_league()
    out = standings_image(league)
    assert out.image.width == DISPLAY_WIDTH  # long names are shortened, not the text
    cells = [it for it in out.items if it.kind == "cell"]
    assert len(cells) == 16 * 9  # place, name, points and six tiebreaks per player
    assert problems(out.items, out.image.width) == []
    assert smallest(out.items, out.image.width) >= TEXT_MIN["panel"] == 7.0
    assert any(it.text.endswith("…") for it in cells)  # a long name was cut to fit
    boxes = [it.box for it in out.items]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not boxes_overlap(a, b), (a, b)
    assert all(0 <= it.box[0] and it.box[2] <= out.image.width for it in out.items)
    # The dropped player's row is greyed.
    dropped = league.name_of(5)
    assert [ink(out.image, it) for it in cells if it.text == dropped] == [MUTED]
    assert ink(out.image, next(it for it in cells if it.text == league.name_of(1))) == INK
    assert Image.open(__import__("io").BytesIO(out.png())).size == out.image.size


def test_widest_realistic_table_still_reads() -> None:
    """Three-digit places, a name column at its minimum, all six tiebreaks with the
    widest plausible values (quarter points in a long season): the table may grow past
    550 px, but shown scaled down every text still has a 7 px cap height."""
    header = ["#", "Player", "Pts", "H2H", "W", "Buch", "Med", "Cum", "OppC"]
    rows = [[str(k), "Oberstgruppenführer Longname", "12.25", "11.75", "12", "123.75", "101.25",
             "123.25", "1234.75"] for k in range(195, 201)]
    out = render_table("Season 12 — standings", header, rows, subtitle="minis · swiss", legend="x")
    assert out.image.width > DISPLAY_WIDTH
    assert problems(out.items, out.image.width) == [], out.image.width


def test_legend_wraps_at_the_image_width() -> None:
    from render.core.fonts import text_width, wrap_text
    from render.league import PAD, SUBTITLE

    legend = " ".join(["Buchholz cut one, then Sonneborn-Berger, then wins"] * 6)
    out = render_table("T", ["#", "Name"], [["1", "a"]], legend=legend)
    lines = [it.text for it in out.items if it.kind == "legend"]
    assert lines == wrap_text(legend, *SUBTITLE, out.image.width - 2 * PAD)
    assert len(lines) > 1 and " ".join(lines) == legend
    assert all(text_width(*SUBTITLE, line) <= out.image.width - 2 * PAD for line in lines)
    assert wrap_text("   ", *SUBTITLE, 100) == []
    assert wrap_text("Generalfeldmarschall x", *SUBTITLE, 10) == ["Generalfeldmarschall", "x"]
