"""Phone readability, measured: Discord shows an image about 550 px wide in a chat
(never wider than the image itself).  For every text drawn we compute its cap height
(font size × the font's cap-height ratio) at that display width and require:

- ≥ 7.0 px for the frame, title bar, legend, roster and stat cards ("panel" text);
- ≥ 5.0 px inside map hexes (hex labels, unit numbers, overlay labels).

Why two thresholds: a 20-column map drawn 550 px wide leaves a hex about 33 px wide,
and a full hex (M-6.2: four units) needs four readable unit numbers stacked in it;
5 px cap height (≈ 7 px type) is the most that fits, and on a phone's 2–3× pixel
density it is 10–15 device pixels tall.  Everything a player reads as a sentence —
names, hexes, turn, phase — is in the panel tier.
"""

from __future__ import annotations

from render.core.canvas import Drawn
from render.core.fonts import Face, cap_ratio
from render.minis import render_board
from render.minis.card import render_card
from render.minis.sample import demo_cards, demo_state
from render.minis.overlays import AttackLine, MovedPath, SightCheck
from render_helpers import every_counter_state, hx

DISCORD_WIDTH = 550
PANEL_MIN_CAP = 7.0
HEX_MIN_CAP = 5.0


def displayed_cap(item: Drawn, image_width: int) -> float:
    assert item.face is not None
    scale = min(1.0, DISCORD_WIDTH / image_width)
    return item.size * cap_ratio(item.face) * scale


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
    # the full hex really is in the picture (so the smallest unit numbers were measured)
    k9 = [it for it in out.items if it.kind == "unit-id" and it.hex == hx("K9")]
    assert len(k9) == 4


def test_small_map_is_not_scaled_down() -> None:
    out = render_board(every_counter_state())
    assert out.image.width < DISCORD_WIDTH
    smallest_hex, smallest_panel = _check(out.items, out.image.width)
    assert smallest_hex >= HEX_MIN_CAP and smallest_panel >= PANEL_MIN_CAP


def test_stat_cards_are_readable_550_px_wide() -> None:
    for c in demo_cards().values():
        image, items = render_card(c)
        texts = [it for it in items if it.face is not None and it.text]
        assert len(texts) > 10
        smallest = min(displayed_cap(it, image.width) for it in texts)
        assert smallest >= PANEL_MIN_CAP, (c.key, smallest)
