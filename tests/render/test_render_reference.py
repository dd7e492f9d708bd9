"""Reference images: a few small pictures compared with committed PNGs within a small
tolerance (mean absolute difference per channel, and the share of clearly different
pixels), so a change of font hinting or zlib passes but a moved token, a wrong colour
or a missing counter does not.

Between them they draw every terrain type (clear, forest, hill, town, marsh, lake),
roads, a stream, a bridge and a demolished one, the objective, both deployment zones,
every counter (face-up Disrupted and Damaged, face-down hits, a pending Destroyed,
a passenger), facing wedges, every overlay and a stat card.  The example image of
docs/rendering.md (docs/example-board.png, docs/example-closeup.png) is checked the same
way.

When a change to the pictures is intended, regenerate and review them:

    WARROOM_REGEN_REFERENCE=1 .venv/bin/python -m pytest tests/render/test_render_reference.py
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine.minis.model import edge
from engine.minis.state import Phase
from render.minis import board, card
from render.minis.example import example_board, example_closeup
from render.minis.sample import demo_cards
from render.minis.overlays import AttackLine, MovedPath, RangeBands, Reachable, SightCheck
from render_helpers import every_counter_state, hx, make_state, small_map, unit

REFERENCE = Path(__file__).parent / "reference"
REGENERATE = os.environ.get("WARROOM_REGEN_REFERENCE") == "1"
MAX_MEAN_DIFF = 0.5  # per channel, out of 255
MAX_CHANGED_SHARE = 0.0005  # pixels whose channels are off by more than 16 on average


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, share of pixels off by more than 16 on
    average over their channels)."""
    assert a.size == b.size, (a.size, b.size)
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    hist = diff.histogram()
    total = a.width * a.height
    mean = sum(i * n for ch in range(3) for i, n in enumerate(hist[ch * 256:(ch + 1) * 256])) / (3 * total)
    strong = diff.convert("L").point(lambda v: 255 if v > 16 else 0)
    changed = strong.histogram()[255] / total
    return mean, changed


def _overlay_state() -> object:
    s = make_state(small_map(), [
        unit("ax1", "tank-ax", "C4", facing=0),
        unit("ax2", "rifle-ax", "B3"),
        unit("al1", "rifle-al", "G4"),
        unit("al2", "tank-al", "F2", facing=4, disrupted=True),
    ], phase=Phase.DEPLOYMENT)
    return replace(s, destroyed_bridges=frozenset({edge(hx("D5"), hx("E5"))}), ends={"axis": "west",
                                                                                     "allies": "east"})


CASES = {
    "every-counter": lambda: board(every_counter_state()),
    "overlays": lambda: board(_overlay_state(), show_deployment=True, overlays=[  # type: ignore[arg-type]
        MovedPath("ax1", (hx("A4"), hx("B4"), hx("C4")), fire_points=(hx("B4"),)),
        AttackLine(hx("C4"), hx("F2"), "2 hits"),
        AttackLine(hx("G4"), hx("F4"), "miss", defensive=True),
        SightCheck(hx("B3"), hx("G4"), (hx("D4"),)),
        Reachable(frozenset(hx("F2").within(1)) - {hx("F1"), hx("F2")}, "al2"),
        RangeBands(hx("G4"), unit="al1"),
    ]),
    "card": lambda: card(demo_cards()["m4a3e8-sherman"]),
}


DOCS = Path(__file__).resolve().parents[2] / "docs"
DOCS_EXAMPLES = {"docs-example": (example_board, DOCS / "example-board.png"),
                 "docs-closeup": (example_closeup, DOCS / "example-closeup.png")}


@pytest.mark.parametrize("name", sorted(CASES) + sorted(DOCS_EXAMPLES))
def test_matches_reference(name: str) -> None:
    """The small references, and the example images of the docs (kept up to date)."""
    if name in DOCS_EXAMPLES:
        make, path = DOCS_EXAMPLES[name]
        image = make()
    else:
        image, path = CASES[name](), REFERENCE / f"{name}.png"
    if REGENERATE or not path.exists():
        assert REGENERATE, f"missing reference {path}: regenerate with WARROOM_REGEN_REFERENCE=1"
        image.save(path, format="PNG", optimize=True)
    ref = Image.open(path)
    mean, changed = difference(image, ref)
    assert mean <= MAX_MEAN_DIFF and changed <= MAX_CHANGED_SHARE, (name, mean, changed)


def within(image: Image.Image, ref: Image.Image) -> bool:
    mean, changed = difference(image, ref)
    return mean <= MAX_MEAN_DIFF and changed <= MAX_CHANGED_SHARE


def test_the_comparison_fails_on_a_moved_token_or_a_changed_colour() -> None:
    """The tolerance is small enough to catch real changes."""
    ref = Image.open(REFERENCE / "every-counter.png")
    s = every_counter_state()
    assert within(board(s), ref)
    moved = replace(s, units=tuple(replace(u, hex=hx("A1")) if u.id == "ax5" else u for u in s.units))
    assert not within(board(moved), ref)
    recoloured = replace(s, units=tuple(replace(u, card="rifle-it") if u.id == "ax1" else u for u in s.units))
    assert not within(board(recoloured), ref)
