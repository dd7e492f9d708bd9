"""/verify and /race log export:true through the Discord adapter (real discord.py
interactions, no network): the export arrives as an ephemeral JSON file, /verify answers
in public after a deferral."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from bot.discord_app import WarroomBot
from bot.local import LocalChannel, LocalSession, stable_id
from bot.verify import verify_export
from tests.discord_harness import CHANNEL_ID, Recorder, member, option, slash
from tests.test_fair_dice import OPEN, starter

ALICE = member(stable_id("user", "alice"), "alice")


async def _script(client: WarroomBot, script: str, tmp_path: Path) -> str:
    out = io.StringIO()
    session = LocalSession(client.app, LocalChannel(out, tmp_path / "files"))
    session.channel.names[CHANNEL_ID] = "table"
    session.channel.current_channel = CHANNEL_ID
    for line in script.splitlines():
        await session.run_line(line)
    assert session.ok, out.getvalue()
    return out.getvalue()


def _dispatch(client: WarroomBot, payload: dict[str, Any]) -> None:
    client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]


async def test_export_and_verify_over_discord(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    first, second = starter(11)  # the bot fixture's dice service is seeded with 11
    out = await _script(bot, OPEN + f"{second}: /race roll\n{first}: /race roll\n" * 20, tmp_path)
    assert "🔓 The game is over" in out
    _dispatch(bot, slash("race log", [option("export", True)], ALICE))
    (call,) = await rec.wait_for(1)
    assert call.kind == "message" and call.ephemeral and "📦 The log of game" in call.content
    ((name, raw),) = call.files
    data = json.loads(raw)
    assert name == f"race-{data['game']['uid']}.json" and data["seed"]
    total = sum(len(r["dice"]) for r in data["orders"])
    assert verify_export(data).ok and total > 2
    rec.calls.clear()
    _dispatch(bot, slash("verify", [], ALICE))
    calls = await rec.wait_for(2)
    assert calls[0].kind == "defer" and not calls[0].ephemeral
    assert not calls[1].ephemeral
    assert calls[1].content == (f"Game `{data['game']['uid']}` (race): ✅ all {total} dice match the revealed"
                                " seed and its commitment. Replaying its orders with these dice rebuilds its"
                                " final position.")
