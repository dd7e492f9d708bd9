"""/aa through the Discord adapter with real discord.py interactions (no network): the
command tree holds /aa, autocomplete of territories in reach, a casualty button, the map
image, and a purchase seen by its buyer alone."""

from __future__ import annotations

from pathlib import Path

from bot.discord_app import WarroomBot
from bot.local import stable_id
from tests.bot.aa.scripts import OPEN, TO_CASUALTIES, TO_COMBAT_MOVE
from tests.discord_harness import button, deliver, member, option, play_script, png_files, Recorder, slash

ALICE = member(stable_id("user", "alice"), "alice")
BOB = member(stable_id("user", "bob"), "bob")






async def test_move_autocomplete_offers_territories_in_reach(bot: WarroomBot, rec: Recorder,
                                                             tmp_path: Path) -> None:
    await play_script(bot, TO_COMBAT_MOVE, tmp_path)
    deliver(bot, slash("aa move", [option("units", "2 inf, 1 fig"), option("from", "Manchuria"),
                                     option("to", "", focused=True)], ALICE, autocomplete=True))
    (call,) = await rec.wait_for(1)
    assert call.kind == "autocomplete"
    values = [c["value"] for c in call.payload["data"]["choices"]]
    # Infantry reach the neighbours; the fighter (4 moves, A-9.9) much further, nearest first.
    assert values[:4] == ["62 Sea Zone", "Buryatia S.S.R.", "Kiangsu", "Suiyuan"]
    assert len(values) == 25 and "Japan" in values and "Mongolia" not in values  # neutral


async def test_a_casualty_button_answers_the_hits(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    out = await play_script(bot, TO_CASUALTIES, tmp_path)
    assert "buttons: [1: casualties 1 inf]  [2: casualties 1 fig]" in out
    deliver(bot, button('wr:/aa battle casualties units:"1 fig"', BOB))
    calls = await rec.wait_for(2)
    assert calls[-1].ephemeral and "⚠️" in calls[-1].content  # not bob's decision
    rec.calls.clear()
    deliver(bot, button('wr:/aa battle casualties units:"1 fig"', ALICE))
    calls = await rec.wait_for(3)
    said = "\n".join(c.content for c in calls)
    assert "💀 Lost in Suiyuan: 1 fig." in said


async def test_the_map_is_posted_as_an_image(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    await play_script(bot, OPEN, tmp_path)
    deliver(bot, slash("aa map", [option("region", "europe")], BOB))
    calls = await rec.wait_for(2)
    post = calls[-1]
    assert not post.ephemeral and "— europe." in post.content
    (png,) = png_files(post)
    assert 10_000 < len(png) < 1_000_000


async def test_the_running_total_is_ephemeral(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    await play_script(bot, OPEN + "alice: /aa done\n", tmp_path)
    deliver(bot, slash("aa buy", [option("units", "2 inf")], ALICE))
    calls = await rec.wait_for(1)
    assert calls[0].ephemeral and "🛒 Japan buys 2 inf: **6 IPCs**, 25 left of 31." in calls[0].content
    assert all(c.ephemeral for c in calls)
