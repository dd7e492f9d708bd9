"""render.chart: a readable PNG bar chart at Discord's preview width."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

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
