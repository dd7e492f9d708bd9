"""The theme (colours as data), nation colours that stay apart, readable token text,
the shipped fonts, and render's import boundary (engine + Pillow, never Discord)."""

from __future__ import annotations

import itertools
import sys
from importlib import resources
from pathlib import Path

import pytest

from engine.minis.catalogue import load_catalogue
from engine.minis.model import ALLIES, AXIS
from render.core.fonts import Face, font
from render.core.colour import aligned, contrast, luminance, parse_colour, text_on
from render.core.encode import palette_conflicts
from render.core.theme import core_theme
from render.minis.theme import theme
from render_helpers import imported_modules

RENDER = Path(__file__).resolve().parents[2] / "render"


def test_colours_parse_with_and_without_alpha() -> None:
    assert parse_colour("#102030") == (16, 32, 48, 255)
    assert parse_colour("#10203040") == (16, 32, 48, 64)
    with pytest.raises(ValueError):
        parse_colour("red")


def test_every_catalogue_nation_has_its_own_colour_on_its_side() -> None:
    """Each nation of the unit catalogue maps to a theme nation of the same side (no
    fallback colour)."""
    th = theme()
    for card in load_catalogue().values():
        style = th.nation(card.nation, card.side)
        assert style.key in th.nations, card.nation
        assert style.side == card.side, card.nation


def test_nation_aliases_of_the_card_list() -> None:
    th = theme()
    assert th.nation("NZ  New Zealand", ALLIES).name == "New Zealand"
    assert th.nation("SA South Africa", ALLIES).name == "South Africa"
    assert th.nation("Nationalist China", ALLIES).name == "China"
    assert th.nation("united states", ALLIES).name == "USA"
    unknown = th.nation("Ruritania", AXIS)
    assert unknown.fill == th.sides[AXIS].fill and unknown.name == "Ruritania"


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a[:3], b[:3])) ** 0.5


def test_nations_are_distinguishable() -> None:
    """Nation fills differ clearly: RGB distance ≥ 40 within a side, ≥ 55 across sides,
    ≥ 70 between the major nations of opposite sides (they meet most often)."""
    th = theme()
    for a, b in itertools.combinations(th.nations.values(), 2):
        need = 40 if a.side == b.side else 55
        assert _distance(a.fill, b.fill) >= need, (a.name, b.name)
    majors = ["germany", "italy", "japan", "usa", "uk", "ussr", "france", "china"]
    for a, b in itertools.product(majors, majors):
        na, nb = th.nations[a], th.nations[b]
        if na.side != nb.side:
            assert _distance(na.fill, nb.fill) >= 70, (a, b)


def test_side_caps_tell_axis_from_allies() -> None:
    th = theme()
    assert luminance(th.sides[AXIS].cap) < 0.05 < 0.8 < luminance(th.sides[ALLIES].cap)
    for side in th.sides.values():
        assert contrast(side.cap, side.cap_symbol) >= 7


def test_token_numbers_contrast_with_every_nation_fill() -> None:
    """WCAG AA (≥ 4.5:1) for the unit number on its token."""
    th = theme()
    for n in th.nations.values():
        assert contrast(n.fill, text_on(n.fill)) >= 4.5, n.name


def test_terrain_labels_are_readable_on_their_fills() -> None:
    th = theme()
    for name, t in th.terrain.items():
        assert contrast(t.fill, t.label) >= 3.0, name


def test_fonts_are_shipped_with_their_licence() -> None:
    files = resources.files("render.core") / "fonts"
    for face in Face:
        assert (files / face.value).is_file()
        assert font(face, 20).getlength("Panzer") > 0
    licence = (files / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream" in licence


def test_render_imports_only_engine_pillow_and_the_standard_library() -> None:
    """Style habit 1: render/ may import engine/ and Pillow, never discord (nor bot)."""
    allowed_roots = {"engine", "render", "PIL", "__future__"}
    stdlib = set(sys.stdlib_module_names)
    seen = 0
    for file, name in imported_modules(RENDER):
        root = name.split(".")[0]
        assert root in allowed_roots or root in stdlib, (file, name)
        seen += 1
    assert seen > 100


def test_theme_colours_stay_exact_in_a_palette_png() -> None:
    """Every opaque colour of the Minis theme (and of the core defaults) has channels
    that are multiples of 4 (or 255), and no two of them compete for one palette slot:
    the palette encoder then keeps each exactly (render.core.encode)."""
    for th, at_least in ((theme(), 80), (core_theme(), 8)):
        flat = th.flat_colours()
        assert len(flat) >= at_least
        assert [c for c in flat if not aligned(c)] == []
        assert palette_conflicts(flat) == []
