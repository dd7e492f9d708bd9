"""The twin-game secrecy test for hands: two games that differ only in one card of the
Allies' hand (never played) look byte-identical to everyone but the Allies player — every
public message, every image, the log, the status, and all the Axis player is told."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.local_scripts import blocks
from tests.bot.memoir.scripts import ALLIES_HAND, GAME, opening, run

TAIL = """\
carol: /memoir log
bob: /memoir log
carol: /memoir board
bob: /memoir hand
carol: /memoir status
"""


def seen_by_others(out: str, tmp: Path) -> tuple[str, list[bytes]]:
    """What anyone but alice saw (text with image paths made relative), and the bytes of
    every image they saw."""
    shown = [b for b in blocks(out) if not b.startswith("[to alice]") and not b.startswith("[dm to alice]")]
    images = [Path(p).read_bytes() for b in shown for p in re.findall(r"\[image\] (\S+)", b)]
    text = "\n".join(shown).replace(str(tmp), "TMP")
    return text, images


async def test_twin_games_differing_in_a_hand_look_the_same(tmp_path: Path) -> None:
    twin_hand = [c if c != "counter-attack" else "firefight" for c in ALLIES_HAND]
    assert twin_hand != ALLIES_HAND
    body = GAME.split("bob: /memoir join\n", 1)[1] + TAIL
    results = []
    for name, hand in (("a", ALLIES_HAND), ("b", twin_hand)):
        folder = tmp_path / name
        folder.mkdir()
        code, out = await run(opening(allies=hand) + body, folder)
        assert code == 0, out
        results.append((out, seen_by_others(out, folder)))
    (out_a, (text_a, images_a)), (out_b, (text_b, images_b)) = results
    # The secret really differs: alice's own hand shows it.
    assert "**Counter-Attack**" in out_a and "**Firefight**" not in out_a
    assert "**Firefight**" in out_b
    # Everyone else sees exactly the same, images included.
    assert text_a == text_b
    assert len(images_a) >= 7  # five turn reports, the board on request, bob's hand
    assert images_a == images_b
    assert "Firefight" not in text_b and "Counter-Attack" not in text_a
