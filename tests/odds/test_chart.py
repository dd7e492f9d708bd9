"""render.chart: a readable PNG bar chart at Discord's preview width."""

from __future__ import annotations

from io import BytesIO

from PIL import Image, ImageDraw

from render.chart import ATTACKER, bar_chart


def test_chart_is_a_png_of_the_requested_width_with_bars_drawn() -> None:
    png = bar_chart(
        "A&A battle odds",
        [("Outcome", [("Attacker wins", 0.75), ("Defender holds", 0.25)]), ("Left", [("3 left", 1.0)])],
        subtitle="3 inf attack 2 inf",
        section_colors=(None, ATTACKER),
    )
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(BytesIO(png)).convert("RGB")
    assert img.width == 550
    assert 150 < img.height < 400
    colours = {c for _, c in img.getcolors(maxcolors=100_000) or []}
    assert ATTACKER in colours  # the full bar of the second section
    assert (219, 68, 55) in colours  # the palette's second colour, "Defender holds"


def test_bar_length_follows_the_value() -> None:
    def blue_width(value: float) -> int:
        img = Image.open(BytesIO(bar_chart("t", [("s", [("x", value)])], section_colors=(ATTACKER,))))
        img = img.convert("RGB")
        row = [img.getpixel((x, y)) for y in range(img.height) for x in range(img.width)]
        return sum(1 for p in row if p == ATTACKER)

    assert 0 < blue_width(0.25) < blue_width(0.5) < blue_width(1.0)
    assert blue_width(0.0) == 0


def test_long_labels_are_cut_not_overflowing() -> None:
    png = bar_chart("t", [("s", [("a very long label " * 10, 0.5)])])
    assert Image.open(BytesIO(png)).width == 550


def test_every_character_of_the_reports_has_a_glyph_in_the_chart_font() -> None:
    # Pillow's default font drew a box for the em dash of every subtitle with an option
    # ("… — attacker retreats when …"), for × and for accented letters.
    from engine.odds.aa import AABattle, aa_odds
    from engine.odds.memoir import MemoirRoll, memoir_odds
    from engine.odds.minis import MinisAttack, minis_odds
    from engine.odds.report import aa_lines, memoir_lines, minis_lines
    from render.chart import _font

    texts = aa_lines(aa_odds(AABattle.parse("6 inf, 2 tank, 1 fig", "5 inf, 1 aa", retreat_chance=30, low_luck=True,
                                            rules="1942se", wave2="2 tank")))
    texts += aa_lines(aa_odds(AABattle.parse("2 sub, 1 des", "1 cru, 1 car, 2 fig", mode="sea", retreat_after=1)))
    texts += minis_lines(minis_odds(MinisAttack(dice=5, defense=2, heavy_armor=True, overheat=True, attacks=2)))
    texts += memoir_lines(memoir_odds(MemoirRoll(dice=3, target="infantry", figures=4, retreat_room=1)))
    chars = {c for text in texts for c in text if not c.isspace()} | set("×üé")
    assert "—" in chars
    for size in (14, 15, 20):
        font = _font(size)
        box = bytes(font.getmask("\U0010ffff"))  # what a missing glyph draws
        missing = sorted(c for c in chars if bytes(font.getmask(c)) == box)
        assert not missing, f"no glyph at {size} px for {missing}"


def test_a_long_subtitle_wraps_instead_of_losing_the_options() -> None:
    from render.chart import SUBTITLE_LINES, _subtitle_lines

    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    battle = "6 inf, 2 tiger attack 8 inf, 1 sherman, 1 t-34 (land battle)"
    options = " — Global-1940 house rules profiles — attacker retreats when its chance to win falls below 30%"
    lines = _subtitle_lines(probe, battle + options, 14, 518)
    assert len(lines) == 3 and " ".join(lines) == battle + options  # every word kept, in order
    assert _subtitle_lines(probe, battle, 14, 518) == [battle]
    one = Image.open(BytesIO(bar_chart("t", [("s", [("x", 0.5)])], subtitle=battle)))
    two = Image.open(BytesIO(bar_chart("t", [("s", [("x", 0.5)])], subtitle=battle + options)))
    assert two.height == one.height + 2 * 20
    # Past SUBTITLE_LINES lines the last is cut, never the image made taller.
    many = _subtitle_lines(probe, (battle + options) * 4, 14, 518)
    assert len(many) == SUBTITLE_LINES and many[-1].endswith("...")
