"""/verify and /race log export:true through the Discord adapter (real discord.py
interactions, no network): the export arrives as an ephemeral JSON file, /verify answers
in public after a deferral."""

from __future__ import annotations

import json
from pathlib import Path

from bot.discord_app import WarroomBot
from bot.local import stable_id
from bot.verify import verify_export
from tests.discord_harness import Recorder, deliver, member, option, play_script, slash
from tests.fair_dice_helpers import OPEN, starter

ALICE = member(stable_id("user", "alice"), "alice")


async def test_export_and_verify_over_discord(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    first, second = starter(11)  # the bot fixture's dice service is seeded with 11
    out = await play_script(bot, OPEN + f"{second}: /race roll\n{first}: /race roll\n" * 20, tmp_path, files="files")
    assert "🔓 The game is over" in out
    deliver(bot, slash("race log", [option("export", True)], ALICE))
    (call,) = await rec.wait_for(1)
    assert call.kind == "message" and call.ephemeral and "📦 The log of game" in call.content
    ((name, raw),) = call.files
    data = json.loads(raw)
    assert name == f"race-{data['game']['uid']}.json" and data["seed"]
    total = sum(len(r["dice"]) for r in data["orders"])
    assert verify_export(data).ok and total > 2
    rec.calls.clear()
    deliver(bot, slash("verify", [], ALICE))
    calls = await rec.wait_for(2)
    assert calls[0].kind == "defer" and not calls[0].ephemeral
    assert not calls[1].ephemeral
    assert calls[1].content == (f"Game `{data['game']['uid']}` (race): ✅ all {total} dice match the revealed"
                                " seed and its commitment. Replaying its orders with these dice rebuilds its"
                                " final position.")
