"""League commands through real discord.py interactions (tests/discord_harness.py): a
league created, joined and started in a channel, its match thread created through
Discord's API with the game opened and pinged there, a report's "Confirm"/"Dispute"
buttons, and the result of a game conceded in the thread posted to the league channel."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any, Callable

import pytest

from bot.discord_app import BotPoster, WarroomBot
from bot.league import store
from tests.discord_harness import (
    APP_ID,
    CHANNEL_ID,
    GUILD_ID,
    Call,
    Recorder,
    button,
    deliver,
    member,
    option,
    png_files,
    slash,
)

ORG = member(700000000000002001, "Org", permissions=16)  # Manage Channels: a server moderator
ALICE = member(700000000000002002, "Alice")
BOB = member(700000000000002003, "Bob")
_threads = itertools.count(880000000000000001)


@pytest.fixture
def threads(rec: Recorder, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Discord's answer to "start a thread": a public thread in the league channel."""
    made: list[dict[str, Any]] = []
    plain = rec.http_request

    async def http(http_client: Any, route: Any, **kw: Any) -> Any:
        if route.method == "POST" and route.path.endswith("/threads"):
            await plain(http_client, route, **kw)
            rec.calls[-1].path = route.url.split("/v10", 1)[-1]
            data = {"id": str(next(_threads)), "guild_id": str(GUILD_ID), "parent_id": str(CHANNEL_ID),
                    "owner_id": str(APP_ID), "name": kw["json"]["name"], "type": 11, "last_message_id": None,
                    "rate_limit_per_user": 0, "message_count": 0, "member_count": 0, "flags": 0,
                    "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "locked": False,
                                        "archive_timestamp": "2026-01-01T00:00:00+00:00"}}
            made.append(data)
            return data
        answer = await plain(http_client, route, **kw)
        rec.calls[-1].path = route.url.split("/v10", 1)[-1]  # which channel: /channels/ID/messages
        return answer

    import discord

    async def request(client: Any, route: Any, **kw: Any) -> Any:
        return await http(client, route, **kw)

    monkeypatch.setattr(discord.http.HTTPClient, "request", request)
    return made


async def _until(rec: Recorder, found: Callable[[Call], bool], timeout: float = 15.0) -> Call:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        for call in rec.calls:
            if found(call):
                await asyncio.sleep(0.05)
                return call
        await asyncio.sleep(0.01)
    raise AssertionError(f"not found in {[c.content for c in rec.calls]}")


async def test_a_league_over_discord(bot: WarroomBot, rec: Recorder, threads: list[dict[str, Any]]) -> None:
    bot.app.poster = BotPoster(bot)  # what setup_hook does when the bot logs in
    deliver(bot, slash("league create", [option("name", "Cup"), option("game", "race"),
                                           option("format", "swiss"), option("rounds", 1),
                                           option("settings", "target=3")], ORG))
    call = await _until(rec, lambda c: "created the league **Cup**" in c.content)
    assert not call.ephemeral and [b["custom_id"] for b in call.buttons] == ["wr:/league join name:Cup"]
    deliver(bot, button("wr:/league join name:Cup", ALICE))
    await _until(rec, lambda c: "joins **Cup** (1 player)" in c.content)
    deliver(bot, slash("league join", [option("name", "Cup")], BOB))
    await _until(rec, lambda c: "joins **Cup** (2 players)" in c.content)

    deliver(bot, slash("league start", [option("name", "Cup")], ALICE))
    call = await _until(rec, lambda c: "Only a moderator of Cup" in c.content)
    assert call.ephemeral
    deliver(bot, slash("league start", [option("name", "Cup")], ORG))
    await _until(rec, lambda c: "Play your game here" in c.content)
    (thread,) = threads
    assert thread["name"] == "Round 1 · Alice vs Bob"
    tid = thread["id"]
    in_thread = [c for c in rec.calls if c.path == f"/channels/{tid}/messages"]
    texts = [c.content for c in in_thread]
    assert texts[0].startswith("⚔️ <@700000000000002002> opened a **Dice race** game.")
    assert any("<@700000000000002003> joins as **Blue**. Every seat is taken" in t for t in texts)
    last = in_thread[-1]
    assert "<t:" in last.content and ":F> (<t:" in last.content and ":R>)" in last.content
    assert sorted(last.payload["allowed_mentions"]["users"]) == [700000000000002002, 700000000000002003]
    found = await store.match(bot.app.repo, GUILD_ID, "Cup", 1, 1)
    assert found is not None and found["thread"] == int(tid)

    # A report with its buttons; the opponent disputes (nothing changes).
    deliver(bot, slash("league report", [option("name", "Cup"), option("opponent", "<@700000000000002003>"),
                                           option("result", "win")], ALICE))
    call = await _until(rec, lambda c: "reports a **win**" in c.content)
    assert [(b["label"], b["custom_id"]) for b in call.buttons] == [
        ("Confirm", "wr:/league confirm name:Cup round:1 board:1"),
        ("Dispute", "wr:/league dispute name:Cup round:1 board:1")]
    deliver(bot, button("wr:/league dispute name:Cup round:1 board:1", BOB))
    await _until(rec, lambda c: "disputes the reported result" in c.content)

    # Bob concedes in the thread: the result reaches the league channel.
    deliver(bot, slash("race concede", [option("confirm", True)], BOB, channel_id=int(tid)))
    call = await _until(rec, lambda c: "**1-0** (concession)" in c.content)
    assert call.path == f"/channels/{CHANNEL_ID}/messages"
    assert "Cup is over" in call.content
    assert [name for name, _ in call.files] == ["final-standings.png"] and png_files(call)

    deliver(bot, slash("league standings", [option("name", "Cup")], BOB))
    call = await _until(rec, lambda c: "1  Alice" in c.content)
    assert [name for name, _ in call.files] == ["standings.png"] and png_files(call)


async def test_results_and_the_next_round_over_discord(bot: WarroomBot, rec: Recorder,
                                                       threads: list[dict[str, Any]]) -> None:
    bot.app.poster = BotPoster(bot)
    players = [member(700000000000003000 + k, name) for k, name in enumerate(("Ann", "Ben", "Cat", "Dan"))]
    deliver(bot, slash("league create", [option("name", "Ladder"), option("game", "race"),
                                           option("format", "swiss"), option("rounds", 2)], ORG))
    await _until(rec, lambda c: "created the league **Ladder**" in c.content)
    for k, p in enumerate(players, 1):
        deliver(bot, slash("league join", [option("name", "Ladder")], p))
        await _until(rec, lambda c, k=k: f"joins **Ladder** ({k} player" in c.content)  # type: ignore[misc]
    deliver(bot, slash("league start", [option("name", "Ladder")], ORG))
    await _until(rec, lambda c: len(threads) == 2 and c.content.startswith("⚔️ **Ladder**, round 1")
                 and "Dan" not in c.content and "<@700000000000003003>" in c.content)
    assert [t["name"] for t in threads] == ["Round 1 · Ann vs Cat", "Round 1 · Dan vs Ben"]

    deliver(bot, slash("league result", [option("name", "Ladder"), option("round", 1), option("board", 1),
                                           option("result", "1F-0F")], ORG))
    call = await _until(rec, lambda c: "**1F-0F**" in c.content)
    assert not call.ephemeral
    await _until(rec, lambda c: "This game ends here: a league moderator set the result" in c.content)
    deliver(bot, slash("league next", [option("name", "Ladder")], players[1]))
    call = await _until(rec, lambda c: "still waiting for 1 result: board 2 Dan vs Ben" in c.content)
    assert call.ephemeral
    deliver(bot, slash("league next", [option("name", "Ladder"), option("force", True)], ORG))
    await _until(rec, lambda c: "paired round 2 of **Ladder**" in c.content)
    await _until(rec, lambda c: len(threads) == 4 and c.content.startswith("⚔️ **Ladder**, round 2")
                 and c is rec.calls[-1])
    league = (await store.load(bot.app.repo, GUILD_ID, "Ladder")).league
    assert len(league.paired) == 2 and league.round(1).board(2).result is None  # forced: still open
