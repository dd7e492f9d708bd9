"""The Discord adapter, driven through real discord.py Interaction objects (no network)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.discord_app import WarroomBot
from tests.discord_harness import (
    deliver,
    CHANNEL_ID,
    Recorder,
    button,
    member,
    option,
    png_files,
    slash,
)


ALICE = member(1001, "Alice")




async def test_roll_answers_a_slash_interaction_with_text(bot: WarroomBot, rec: Recorder) -> None:
    bot.app.dice.queue([6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1])
    deliver(bot, slash("roll", [option("dice", "11d6>=4")], ALICE))
    (call,) = await rec.wait_for(1)
    assert call.kind == "message" and not call.ephemeral
    assert call.content == "**11d6>=4** → 6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1 → **6 successes**"


async def test_roll_with_image_attaches_a_png(bot: WarroomBot, rec: Recorder) -> None:
    bot.app.dice.queue([2, 5])
    deliver(bot, slash("roll", [option("dice", "2d6"), option("image", True)], ALICE))
    (call,) = await rec.wait_for(1)
    assert "2d6 (2, 5) = `7`" in call.content
    (png,) = png_files(call)
    assert len(png) > 200
    assert call.data["attachments"][0]["filename"] == "roll.png"


async def test_bad_expression_is_an_ephemeral_error(bot: WarroomBot, rec: Recorder) -> None:
    deliver(bot, slash("roll", [option("dice", "3dx")], ALICE))
    (call,) = await rec.wait_for(1)
    assert call.ephemeral and "Can't roll '3dx'" in call.content


async def test_help_is_ephemeral_and_lists_roll(bot: WarroomBot, rec: Recorder) -> None:
    deliver(bot, slash("help", [], ALICE))
    (call,) = await rec.wait_for(1)
    assert call.ephemeral and "/roll" in call.content
    assert "`/minis` new · join · army" in call.content
    # Every game's section is in the overview, which stays one message however many games.
    assert all(f"`/{g}`" in call.content for g in ("minis", "memoir", "aa")) and len(call.content) <= 2000


async def test_long_answers_are_split_under_discords_limit(bot: WarroomBot, rec: Recorder) -> None:
    deliver(bot, slash("help", [option("game", "minis")], ALICE))
    calls = await rec.wait_for(2)
    assert len(calls) >= 2 and all(c.ephemeral for c in calls)
    assert all(len(c.content) <= 2000 for c in calls)
    text = "\n".join(c.content for c in calls)
    assert "`/minis new " in text and "`/minis abort [confirm:…]` — " in text


async def test_button_runs_its_command_as_the_presser(bot: WarroomBot, rec: Recorder) -> None:
    bot.app.dice.queue([3, 4])
    deliver(bot, button("wr:/roll dice:2d6", member(1002, "Bob")))
    (call,) = await rec.wait_for(1)
    assert call.kind == "message" and "2d6 (3, 4) = `7`" in call.content


async def test_every_registered_command_becomes_a_slash_command(bot: WarroomBot) -> None:
    from bot.commands.base import REGISTRY

    names = {c.qualified_name for c in bot.tree.walk_commands()}
    for path in REGISTRY:
        assert " ".join(path) in names
    # Discord's own limits on the generated definitions (names, descriptions, options).
    for cmd in bot.tree.get_commands():
        body = cmd.to_dict(bot.tree)
        assert 1 <= len(body["description"]) <= 100


async def test_deferred_command_can_answer_privately(bot: WarroomBot, rec: Recorder) -> None:
    from bot.commands.base import REGISTRY, Command
    from bot.context import Ctx
    from bot.discord_app import build_tree

    async def slow(ctx: Ctx) -> None:
        await ctx.reply("secret", ephemeral=True)
        await ctx.reply("for all")

    REGISTRY[("slowtest",)] = Command(("slowtest",), "test", (), slow, defer=True)
    try:
        bot.tree.clear_commands(guild=None)
        build_tree(bot, bot.tree)
        deliver(bot, slash("slowtest", [], ALICE, channel_id=CHANNEL_ID))
        calls = await rec.wait_for(4)
    finally:
        del REGISTRY[("slowtest",)]
    kinds = [c.kind for c in calls]
    assert kinds == ["defer", "delete-original", "followup", "followup"]
    assert calls[2].ephemeral and calls[2].content == "secret"
    assert not calls[3].ephemeral and calls[3].content == "for all"


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """Objects the test's settle_heap froze given back to the cycle collector (the rest
    of the session is not the bot's start-up)."""
    import gc

    yield
    gc.unfreeze()


async def test_odds_kernels_failing_to_compile_ahead_are_logged(caplog: pytest.LogCaptureFixture,
                                                                unfrozen: None) -> None:
    # The bot compiles the odds kernels in a worker thread as it starts (odds.warm); if
    # that fails (an unwritable numba cache, say) the reason is logged, not lost with
    # the task, and the first battle needing them compiles them itself.
    import asyncio
    import logging

    from bot.discord_app import _warmed

    def broken() -> None:
        raise OSError("numba cache not writable")

    task = asyncio.create_task(asyncio.to_thread(broken))
    with pytest.raises(OSError):
        await task
    with caplog.at_level(logging.WARNING, logger="warroom.discord"):
        _warmed(task)
    assert "odds kernels not compiled ahead" in caplog.text and "numba cache not writable" in caplog.text
    caplog.clear()
    ok = asyncio.create_task(asyncio.sleep(0))
    await ok
    _warmed(ok)
    assert not caplog.text


async def test_start_up_is_kept_out_of_full_collections_once_warm(unfrozen: None) -> None:
    # Once the odds kernels are warm (or failed to be), start-up is done: what it built
    # moves to the cycle collector's permanent generation (bot.memory.settle_heap), so
    # the full collections during battles no longer walk it; a warm-up cancelled with
    # the bot's close leaves the collector as it was.
    import asyncio
    import gc

    from bot.discord_app import _warmed

    cancelled = asyncio.create_task(asyncio.sleep(10))
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    _warmed(cancelled)
    assert gc.get_freeze_count() == 0
    ok = asyncio.create_task(asyncio.sleep(0))
    await ok
    before = len(gc.get_objects())
    _warmed(ok)
    assert gc.get_freeze_count() > before // 2
    assert len(gc.get_objects()) < before // 10
