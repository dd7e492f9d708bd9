"""The rest of /memoir: the private Ambush standing setting, clearing wire, and the
generic lifecycle on a Memoir game (settings, replace, concede, abort)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.local_scripts import public, replies_to
from tests.bot.memoir.scripts import opening, run


async def test_standing_pass_and_clearing_wire(tmp_path: Path) -> None:
    script = opening() + """\
bob: /memoir decide standing setting:pass
alice: /memoir play card:attack-left
alice: /memoir order units:"C6 C7"
alice: /memoir move unit:C6 to:D5
alice: /memoir move unit:C7 to:D6
alice: /memoir clear-wire unit:D5
carol: /memoir log
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    # The setting is private: only bob is told, and the log hides it from others.
    assert "[to bob] Your Ambush standing setting is now **pass**." in out
    assert "decide standing" not in pub and "decide standing" not in replies_to(out, "carol")
    assert "Standing setting" not in pub
    assert "Allies: /memoir play card:attack-left" in replies_to(out, "carol")
    assert "🧱 Wire removed from D5 (cleared instead of battling)." in pub
    assert "📜 **Allies played Attack Left: ordered C6, C7; C6 moved to D5; C7 moved to D6; wire removed from D5**" in pub


async def test_standing_pass_answers_the_ambush_window(tmp_path: Path) -> None:
    script = opening() + """\
bob: /memoir decide standing setting:pass
alice: /memoir play card:attack-left
alice: /memoir order units:C6
alice: /memoir move unit:C6 to:D5
!dice 2
alice: /memoir battle unit:D5 target:D4
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "Ambush?" not in pub  # bob's standing setting answered the window (E-19.3)
    assert "🎲 D5 → D4: 🪖 → 1 hit, 0 flags." in pub


async def test_settings_replace_concede_and_abort(tmp_path: Path) -> None:
    script = opening() + """\
alice: /memoir settings remind:6h
!moderator mod
mod: /memoir replace side:axis user:@dave
dave: /memoir hand
bob: /memoir hand
alice: /memoir concede
alice: /memoir concede confirm:true
!channel #other
alice: /memoir new scenario:sword-beach
alice: /memoir abort confirm:true
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "changed the settings. Reminder after 6h" in pub
    assert "@dave now plays **Axis** (set by @mod)." in pub
    assert "**Your hand** (Axis, 2 cards)" in replies_to(out, "dave")
    assert "Only a player of this game has a hand" in replies_to(out, "bob")
    assert "🏳️ Allies concede (@alice). 🏆 Axis win the game." in pub
    assert "[#other] The game was aborted by @alice." in pub
