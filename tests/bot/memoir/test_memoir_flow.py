"""The asynchronous side of /memoir: timeouts with the E-19.4 defaults (a turn, the
defender's Ambush window and a flag decision), the Ambush card played from the prompt,
undo, and the log (which never shows a hand)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.local_scripts import public, replies_to
from tests.bot.memoir.scripts import ALLIES_HAND, AXIS_HAND, DRAWS, dice_line, run

OPEN = dice_line(AXIS_HAND + ALLIES_HAND + DRAWS)
TO_ASSAULT = """\
alice: /memoir play card:attack-left
alice: /memoir order units:"C6 C7 D7"
alice: /memoir move unit:C6 to:D5
alice: /memoir done
alice: /memoir battle unit:D5 target:D4
"""


async def test_a_silent_player_gets_the_e19_4_defaults(tmp_path: Path) -> None:
    script = OPEN + """\
alice: /memoir new side:allies remind:12h timeout:1d
bob: /memoir join
!wait 13h
!wait 12h
!wait 25h
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "⏰ Reminder: @alice (Allies) — turn 1: play a command card" in pub
    # E-19.4: the first playable card in deck order, ordering nothing; then Recon's discard.
    assert "⏰ Allies did not answer in time (done).\n         🃏 Allies played **Recon Left**." in pub
    assert "📣 Allies order no unit." in pub
    assert "Allies discard Attack Right (Recon: draw 2, keep 1 (E-7.3))." in pub
    assert "memoir-turn1.png" in pub
    assert "@bob (Axis) — turn 2: play a command card" in pub


async def test_reactions_fall_back_after_the_prompt_timeout(tmp_path: Path) -> None:
    script = OPEN + "alice: /memoir new side:allies timeout:1d prompt_timeout:1h\nbob: /memoir join\n" \
        + TO_ASSAULT + "!dice 6\n!wait 2h\n!wait 2h\n"
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "⏰ Axis did not answer in time (done).\n         Axis do not ambush." in pub
    assert "🎲 D5 → D4: 🏳️ → 0 hits, 1 flag." in pub
    # the default for flags that may be ignored is to ignore them all (E-19.4)
    assert "⏰ Axis did not answer in time (done).\n         D4 ignores 1 flag." in pub
    assert "— end of Allies turn 1 —" in pub


async def test_the_ambush_card_from_the_prompt_and_undo_and_log(tmp_path: Path) -> None:
    script = dice_line(["ambush", "probe-centre"] + ALLIES_HAND + DRAWS[:1]) \
        + "alice: /memoir new side:allies\nbob: /memoir join\n" + TO_ASSAULT + """\
!dice 1 1 6
bob: /memoir decide ambush
alice: /memoir decide retreat to:D6
carol: /memoir log
bob: /memoir log
bob: /memoir play card:probe-centre
bob: /memoir undo
bob: !press Undo
bob: /memoir hand
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "🪤 Axis spring an **Ambush**!\n         🃏 Axis played **Ambush**." in pub
    assert "🎲 D4 → D5: 🪖 🪖 🏳️ → 2 hits, 1 flag." in pub
    assert "D6 cannot battle: the ambushed attacker was driven back (E-6.4)." in pub
    assert ("📜 **Allies played Attack Left: ordered C6, C7, D7; C6 moved to D5; D5 battled D4 with 1 die;"
            " Axis played Ambush; 🪖 🪖 🏳️ → 2 hits, 1 flag; D5 retreats to D6**") in pub
    log = replies_to(out, "carol")
    assert '3. Allies: /memoir play card:attack-left' in log
    assert '4. Allies: /memoir order units:"C6 C7 D7"' in log
    assert "8. Axis: /memoir decide ambush → 🪤 Axis spring an **Ambush**!" in log
    assert "Probe Centre" not in log and "You draw" not in log
    # the Axis player's own log tells them their own draws, never the other hand
    assert "You draw" in replies_to(out, "bob").split("**Order log**")[1]
    assert "↩️ @bob undid:\n         • Axis: /memoir play card:probe-centre" in pub
    after_undo = out.split("@bob undid")[1]
    assert "buttons: [1: Play Probe Centre]" in after_undo  # the card is back in the hand


async def test_e19_6_an_order_that_drew_a_card_is_not_taken_back_alone(tmp_path: Path) -> None:
    """E-19.6: the Allies end their turn ordering nobody and draw Probe Left in secret;
    taking that order back alone would let them replay the turn knowing the next card,
    so the undo needs the Axis' agreement (it rolled no dice, yet it showed a secret)."""
    from tests.bot.memoir.scripts import opening

    code, out = await run(opening() + "alice: /memoir play card:probe-right\nalice: /memoir order units:none\n"
                          "alice: /memoir undo\n", tmp_path)
    assert code == 0, out
    assert "[to alice] 🃏 You draw **Probe Left**." in out
    preview = replies_to(out, "alice").rsplit("Undo would take back", 1)[1]
    assert "It needs the other side's agreement (that order showed you something secret)" in preview
    assert "Probe Left" not in public(out)
