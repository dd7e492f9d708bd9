"""Scale-out on the Discord side: a process running some shards of a deployment
(`warroom run --shards 0,1 --shard-count 4`), and the late defer that keeps a slow
command from missing Discord's three-second limit (real Interaction objects, no network)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import AsyncIterator

import discord
import pytest

import bot.discord_app as discord_app
from bot.app import App
from bot.cli import main
from bot.commands.base import REGISTRY, Command
from bot.config import Config
from bot.context import Ctx
from bot.discord_app import ShardedWarroomBot, WarroomBot, build_tree, shard_of
from bot.storage.repository import GameRecord
from tests.discord_harness import CHANNEL_ID, GUILD_ID, Recorder, deliver, member, slash, start_offline

ALICE = member(1001, "Alice")


@pytest.fixture
async def sharded(tmp_path: Path) -> AsyncIterator[ShardedWarroomBot]:
    app = await App.start(tmp_path / "bot.db", seed=11)
    client = ShardedWarroomBot(Config(None, None, str(tmp_path / "bot.db"), "INFO"), app=app, sync=False,
                               shard_ids=[0, 1], shard_count=4)
    await start_offline(client)
    yield client
    await app.close()




def _game(guild_id: int | None) -> GameRecord:
    from datetime import datetime, timezone

    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    return GameRecord(id=1, channel_id=1, guild_id=guild_id, kind="race", status="active", host_id=1,
                      options={}, seats={}, version=1, snapshot={}, created_at=now, updated_at=now)


async def test_a_sharded_process_runs_its_shards_and_answers_commands(sharded: ShardedWarroomBot,
                                                                       rec: Recorder) -> None:
    assert isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_ids, sharded.shard_count) == ([0, 1], 4)
    sharded.app.dice.queue([6, 1])
    deliver(sharded, slash("roll", [{"name": "dice", "type": 3, "value": "2d6>=4"}], ALICE))
    (call,) = await rec.wait_for(1)
    assert call.content == "**2d6>=4** → 6, 1 → **1 success**"


async def test_a_sharded_process_ticks_only_its_shards_guilds(sharded: ShardedWarroomBot) -> None:
    # Discord's rule: shard = (guild id >> 22) % shard count; direct messages: shard 0.
    guild_on = {shard: next(g << 22 for g in range(1, 100) if g % 4 == shard) for shard in range(4)}
    assert [shard_of(guild_on[s], 4) for s in range(4)] == [0, 1, 2, 3]
    assert [sharded.owns(_game(guild_on[s])) for s in range(4)] == [True, True, False, False]
    assert sharded.owns(_game(None))
    assert shard_of(GUILD_ID, 1) == 0


@pytest.mark.parametrize("argv, message", [
    (["--shards", "0,4", "--shard-count", "4"], "shard 4 does not exist: with --shard-count 4 the shards are 0 to 3"),
    (["--shards", "0,1"], "--shards and --shard-count go together"),
    (["--shards", "0,x", "--shard-count", "4"], "shard numbers separated by commas"),
    (["--shards", "1,1", "--shard-count", "4"], "lists a shard twice"),
    (["--shards", "0,1", "--shard-count", "4"], "--shards needs DISCORD_TOKEN"),
])
def test_bad_shard_options_are_refused_clearly(argv: list[str], message: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("DISCORD_TOKEN", "WARROOM_SHARDS", "WARROOM_SHARD_COUNT"):
        monkeypatch.delenv(name, raising=False)
    assert main(["run", "--env-file", str(tmp_path / "none.env"), *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_bad_shard_count_in_the_environment_is_refused_clearly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("WARROOM_SHARDS", "0,1")
    monkeypatch.setenv("WARROOM_SHARD_COUNT", "four")
    assert main(["run", "--env-file", str(tmp_path / "none.env")]) == 2
    assert "WARROOM_SHARD_COUNT must be a number of shards (e.g. 4), not 'four'" in capsys.readouterr().err


async def test_a_command_that_has_not_answered_in_time_is_deferred(bot: WarroomBot, rec: Recorder,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Not marked as slow, but slow this time (a busy machine): the interaction is
    acknowledged before Discord's limit and the answer follows."""
    monkeypatch.setattr(discord_app, "DEFER_AFTER_S", 0.05)

    async def sometimes_slow(ctx: Ctx) -> None:
        await asyncio.sleep(0.3)
        await ctx.reply("late but there")

    async def quick(ctx: Ctx) -> None:
        await ctx.reply("at once")

    REGISTRY[("slowish",)] = Command(("slowish",), "test", (), sometimes_slow)
    REGISTRY[("quick",)] = Command(("quick",), "test", (), quick)
    try:
        bot.tree.clear_commands(guild=None)
        build_tree(bot, bot.tree)
        deliver(bot, slash("slowish", [], ALICE, channel_id=CHANNEL_ID))
        calls = await rec.wait_for(2)
        assert [c.kind for c in calls] == ["defer", "followup"]
        assert calls[1].content == "late but there" and not calls[0].ephemeral
        rec.calls.clear()
        deliver(bot, slash("quick", [], ALICE, channel_id=CHANNEL_ID))
        calls = await rec.wait_for(1)
        await asyncio.sleep(0.1)  # past the deadline: no stray defer follows an answer
        assert [c.kind for c in rec.calls] == ["message"] and calls[0].content == "at once"
    finally:
        del REGISTRY[("slowish",)]
        del REGISTRY[("quick",)]
