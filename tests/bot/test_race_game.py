"""Issue 10, item 10: the platform proven with a second game.

The dice race (tests/toygame) plugs in through the public interfaces only — an engine
(`GameRules`), a front, a render module and a command group on the generic lifecycle —
and is played end to end here: through the local channel (new, join, a hidden secret,
a timeout, buttons, undo alone and with agreement, log, status, reports with images,
the win) and through the Discord harness (a slash command, a button, ephemeral
replies). The twin-game secrecy check for it is in tests/bot/test_secrecy.py.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tests.toygame  # noqa: F401  (registers /race)
from bot.discord_app import WarroomBot
from bot.local import stable_id
from tests.bot.minis_scripts import run
from tests.discord_harness import Recorder, button, deliver, member, option, play_script, png_files, slash

ROOT = Path(__file__).resolve().parents[2]

GAME = """\
!dice 1
alice: /race new target:8 side:red timeout:1h policy:done
bob: /race join
alice: /race secret number:3
!wait 2h
!dice 5
alice: !press roll
bob: /race pass
bob: /race undo
bob: !press Undo
!dice 2
bob: /race pass
alice: /race roll
bob: /race roll
bob: /race undo
alice: /race undo
alice: !press Ask to undo
bob: !press Agree
bob: /race roll
carol: /race log
alice: /race boost
bob: /race status
"""


def block(out: str, start: str) -> str:
    """The output block (one message) that starts with ``start``."""
    blocks = re.split(r"\n(?=\[)", out)
    found = [b for b in blocks if b.startswith(start)]
    assert found, f"no block starting {start!r} in:\n{out}"
    return found[0]


async def test_a_whole_race_through_the_local_channel(tmp_path: Path) -> None:
    code, out = await run(GAME, tmp_path)
    assert code == 0, out
    assert "@alice opened a **Dice race** game.\n         First to 8 wins." in out
    # The secret is the holder's alone; the channel learns only that one was chosen.
    assert "[to alice] Your secret number is 3." in out and "[#table] red chose a secret number." in out
    # Bob did not choose within the hour: the timeout hook answers for him, and says so.
    assert "[#table] ⏰ Time is up for Blue (@bob)" in out
    assert "[#table] blue chose a secret number." in out
    # A button runs the same command as typing it.
    assert "[#table] 🎲 red rolls 5: 5." in out
    # Bob takes back his own dice-free pass alone, after a preview …
    assert "[to bob] Undo would take back 1 order:\n         • Blue: /race pass" in out
    assert "↩️ @bob undid:\n         • Blue: /race pass\n[" in out  # no dice, no word about dice
    # … but his roll (it rolled a die) needs Alice's agreement; asked and agreed.
    assert "It needs the other side's agreement (that order rolled dice)" in out
    assert ("↩️ Undone with @bob's agreement:\n         • Blue: /race roll (1 die)\n"
            "         The dice those orders rolled stay with the side that rolled them") in out
    # The undone roll's die stays with Blue: rolled again, it is the same die (issue 9 §2).
    first, again = re.findall(r"^\[#table\] 🎲 blue rolls (\d): \1\.", out, re.M)
    assert first == again
    # The first round's report carries the board image.
    report = block(out, "[#table] 📜 **After round 1**")
    assert "🎲 red rolls 5: 5." in report
    images = sorted((tmp_path / "img").glob("*-race.png"))
    assert len(images) >= 2 and all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    # The log: the undone orders are gone, the secret order shows no number, newest page first.
    log = block(out, "[to carol] **Order log**")
    assert "Red: /race secret number:? → red chose a secret number." in log
    assert "⏰ timeout (done) → blue chose a secret number." in log
    assert log.count("Blue: /race roll → 🎲 blue rolls") == 1 and log.count("Blue: /race pass") == 1
    assert "↩️ 1 order taken back by @bob" in log and "↩️ 1 order taken back by @alice" in log
    # The win, and a status that names the winner and the final position.
    assert "[#table] 🚀 red boosts by its secret 3: 10." in out and "🏆 red wins with 10!" in out
    status = block(out, "[#table] **Dice race** — status finished.")
    assert "🏁 Over: Red — red reached 8" in status and "Final position" in status


async def test_the_race_through_discord_interactions(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    """A slash command and a button, as discord.py delivers them (no network)."""
    alice, bob = member(stable_id("user", "alice"), "alice"), member(stable_id("user", "bob"), "bob")
    await play_script(bot, "!dice 1\nalice: /race new target:20 side:red\nbob: /race join\n"
                           "alice: /race secret number:2\n", tmp_path)
    # Bob's secret is an ephemeral reply; the channel hears only that he chose.
    deliver(bot, slash("race secret", [option("number", 3)], bob))
    calls = await rec.wait_for(3)
    private = [c for c in calls if c.ephemeral]
    assert private and private[0].content == "Your secret number is 3."
    assert all("3" not in c.content for c in calls if not c.ephemeral and "chose" in c.content)
    prompt = next(c for c in calls if c.buttons)
    assert [b["custom_id"] for b in prompt.buttons] == ["wr:/race roll", "wr:/race pass"]
    # Alice presses "roll": the button runs /race roll.
    rec.calls.clear()
    bot.app.dice.queue([6])
    deliver(bot, button("wr:/race roll", alice))
    calls = await rec.wait_for(2)
    assert any("🎲 red rolls 6: 6." in c.content for c in calls)
    # The board, as an image attachment.
    rec.calls.clear()
    deliver(bot, slash("race board", [], bob))
    (call,) = await rec.wait_for(1)
    (png,) = png_files(call)
    assert png.startswith(b"\x89PNG")


CORE = ["bot/session.py", "bot/lifecycle.py", "bot/present.py", "bot/front.py", "bot/games.py",
        "bot/scheduler.py", "bot/undo.py", "bot/app.py", "bot/context.py", "bot/dice_service.py",
        "bot/local.py", "bot/discord_app.py", *[str(p.relative_to(ROOT)) for p in (ROOT / "engine" / "core").glob("*.py")],
        *[str(p.relative_to(ROOT)) for p in (ROOT / "bot" / "storage").glob("*.py")]]


def test_the_core_imports_no_game() -> None:
    """If a piece of the core needed a Minis import to work, the core would not be done."""
    games = ("minis", "memoir", "aa")
    for name in CORE:
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for module in modules:
                parts = module.split(".")
                assert not any(g in parts[:2] for g in games), f"{name} imports {module}"


async def test_a_secret_given_by_someone_elses_order_reaches_its_owner_by_dm(tmp_path: Path) -> None:
    """A timeout chose Blue's secret number: Bob (who asked for direct messages) is told
    it privately; Carol (who did not) would only see it with the game's own look-ups."""
    code, out = await run("bob: /settings dm turns:on\n!dice 1\n"
                          "alice: /race new target:8 side:red timeout:1h policy:done\nbob: /race join\n"
                          "alice: /race secret number:3\n!wait 2h\n", tmp_path)
    assert code == 0, out
    assert "[dm to bob] Your secret number is 1." in out
    assert out.count("Your secret number is 1.") == 1  # nobody else, and not in public
