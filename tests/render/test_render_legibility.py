"""Phone readability, measured (render.core.legibility): Discord shows an image about
550 px wide in a chat (never wider than the image itself).  For every text drawn we
compute its cap height (font size × the font's cap-height ratio) at that display width,
and for every counter its side, and require:

- text: ≥ 7.0 px for the frame, title bar, legend, roster, stat cards and the roll
  picture ("panel" text); ≥ 5.0 px inside the hexes of an overview map (hex labels, unit
  numbers, result labels); ≥ 7.0 px for everything on a close-up;
- counters (the squares on tokens): ≥ 3.0 px on an overview map, ≥ 6.0 px on a close-up;
- facing arrows: ≥ 8 px long on an overview, ≥ 16 px on a close-up.

Why two tiers: a 20-column map drawn 550 px wide leaves a hex about 33 px wide, and a
full hex (M-6.2: four units) needs four readable unit numbers stacked in it; 5 px cap
height (≈ 7 px type) and 3 px counters (6–9 device pixels on a phone's 2–3× screen, enough
to tell a yellow, red, black or white square apart) are the most that fits.  The close-up
that accompanies each phase map is made to be read: same thresholds as the panels for its
text, twice the overview's for counters.
"""

from __future__ import annotations

from render.core.canvas import Drawn
from render.core.fonts import Face, cap_ratio
from render.core.legibility import (CLOSE_COUNTER_MIN, COUNTER_MIN, TEXT_MIN, problems, shown_cap, shown_side,
                                    smallest)
from render.minis import closeup, render_board, zoom
from render.minis.card import render_card
from render.minis.overlays import AttackLine, MovedPath, SightCheck
from render.minis.sample import demo_cards, demo_state
from render_helpers import every_counter_state, hx

DISCORD_WIDTH = 550
PANEL_MIN_CAP = TEXT_MIN["panel"]
HEX_MIN_CAP = TEXT_MIN["hex"]


def displayed_cap(item: Drawn, image_width: int) -> float:
    return shown_cap(item, image_width)


def _check(items: tuple[Drawn, ...], width: int) -> tuple[float, float]:
    texts = [it for it in items if it.face is not None and it.text]
    assert texts
    hex_caps = [displayed_cap(it, width) for it in texts if it.tier == "hex"]
    panel_caps = [displayed_cap(it, width) for it in texts if it.tier == "panel"]
    assert len(hex_caps) + len(panel_caps) == len(texts), "every text belongs to a tier"
    return min(hex_caps), min(panel_caps)


def test_cap_ratio_of_the_shipped_fonts_is_measured() -> None:
    for face in Face:
        assert 0.70 <= cap_ratio(face) <= 0.76


def test_demo_battle_is_readable_550_px_wide() -> None:
    """The demo battle: 20 × 16 hexes like the standard configurations, a full hex with
    two-digit ids and counters, roster and legend."""
    s = demo_state()
    out = render_board(s, overlays=[
        MovedPath("ax1", (hx("O8"), hx("N8"), hx("M9"), hx("L9")), fire_points=(hx("M9"),)),
        AttackLine(hx("I7"), hx("M8"), "3 hits"),
        SightCheck.on(s.map, hx("I7"), hx("O10")),
    ])
    smallest_hex, smallest_panel = _check(out.items, out.image.width)
    assert smallest_hex >= HEX_MIN_CAP, smallest_hex
    assert smallest_panel >= PANEL_MIN_CAP, smallest_panel
    assert problems(out.items, out.image.width) == []
    # the full hex really is in the picture (so the smallest unit numbers were measured)
    k9 = [it for it in out.items if it.kind == "unit-id" and it.hex == hx("K9")]
    assert len(k9) == 4


def test_counters_are_measured_and_large_enough_550_px_wide() -> None:
    """Issue 18: counters big enough to tell apart on a phone — every counter of the
    demo battle (20 of them, full hexes included) at least 3 px once shown 550 px wide,
    the roster's chips too; and the measure is real: the same counters drawn the old
    way (0.15 R squares, squeezed further in full hexes) would fail it."""
    s = demo_state()
    out = render_board(s)
    counters = [it for it in out.items if it.kind.startswith("pip-")]
    on_map = [it for it in counters if it.tier == "hex"]
    assert len(on_map) >= 18  # 20 counters, a few hits stacked in crowded hexes
    assert smallest(on_map, out.image.width, text=False) >= COUNTER_MIN
    chips = [it for it in counters if it.tier == "panel"]
    assert len(chips) >= 20 and smallest(chips, out.image.width, text=False) >= COUNTER_MIN
    old_side = round(0.15 * 32)  # the previous counter size on this map
    assert old_side * DISCORD_WIDTH / out.image.width < COUNTER_MIN


def test_small_map_is_not_scaled_down() -> None:
    out = render_board(every_counter_state())
    assert out.image.width < DISCORD_WIDTH
    smallest_hex, smallest_panel = _check(out.items, out.image.width)
    assert smallest_hex >= HEX_MIN_CAP and smallest_panel >= PANEL_MIN_CAP
    assert problems(out.items, out.image.width) == []


def test_a_closeup_of_the_demo_battle_reads_at_close_up_sizes() -> None:
    """The close-up tier: hex labels and unit numbers ≥ 7 px, counters ≥ 6 px, facing
    arrows ≥ 16 px, on the crowded middle of the demo battle."""
    s = demo_state()
    out = zoom(s, "K9")
    assert out.close
    assert problems(out.items, out.image.width, close=True) == []
    counters = [it for it in out.items if it.kind.startswith("pip-") and it.tier == "hex"]
    assert counters and min(shown_side(it, out.image.width) for it in counters) >= CLOSE_COUNTER_MIN
    labels = [it for it in out.items if it.kind == "hex-label"]
    assert labels and min(shown_cap(it, out.image.width) for it in labels) >= PANEL_MIN_CAP
    assert closeup(s, []) is None  # no events, no action: no close-up


def test_stat_cards_are_readable_550_px_wide() -> None:
    for c in demo_cards().values():
        image, items = render_card(c)
        texts = [it for it in items if it.face is not None and it.text]
        assert len(texts) > 10
        smallest_cap = min(displayed_cap(it, image.width) for it in texts)
        assert smallest_cap >= PANEL_MIN_CAP, (c.key, smallest_cap)
