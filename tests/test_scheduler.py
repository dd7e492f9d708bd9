"""Asynchronous play: reminders once per wait, timeouts through the engine's timeout hook,
logged as their own rows, decided on the game as it is when they fire."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.app import App
from bot.clock import ManualClock
from bot.scheduler import tick
from tests.toygame.harness import ALICE, CHANNEL, Posts, start


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    application = await App.start(tmp_path / "t.db", seed=1, clock=ManualClock())
    yield application
    await application.close()


def clock(app: App) -> ManualClock:
    assert isinstance(app.clock, ManualClock)
    return app.clock


async def test_reminder_after_the_delay_and_only_once(app: App) -> None:
    await start(app, remind_after="24h")
    posts = Posts()
    clock(app).advance(timedelta(hours=23))
    assert await tick(app, posts) == 0
    clock(app).advance(timedelta(hours=2))
    assert await tick(app, posts) == 1
    (channel, msg), = posts.sent
    assert channel == CHANNEL
    assert msg.text == "⏰ Reminder: <@1> (Red) — your turn: /race roll, /race pass or /race boost"
    assert msg.mentions == (1,)
    clock(app).advance(timedelta(hours=30))
    assert await tick(app, posts) == 0  # one reminder per waiting period
    await app.sessions.act(CHANNEL, ALICE, "pass")  # now blue waits: a new period
    clock(app).advance(timedelta(hours=25))
    assert await tick(app, posts) == 1
    assert posts.sent[-1][1].mentions == (2,)


async def test_timeout_applies_the_engine_hook_as_its_own_logged_row(app: App) -> None:
    await start(app, timeout_after="3d", remind_after="off")
    clock(app).advance(timedelta(days=2))
    assert await tick(app, Posts()) == 0
    clock(app).advance(timedelta(days=1, minutes=1))
    posts = Posts()
    assert await tick(app, posts) == 1
    game = await app.repo.live_game(CHANNEL)
    assert game is not None and game.snapshot["turn"] == 1  # red's turn passed
    last = (await app.repo.orders(game.id))[-1]
    assert (last.kind, last.seat, last.text, last.actor_id) == ("timeout", "", "done", None)
    # The channel is told whose time ran out (and they are pinged), then what happened.
    assert posts.sent[0][1].text.startswith("⏰ Time is up for Red (<@1>)")
    assert posts.sent[0][1].mentions == (1,)
    assert "red passes." in posts.sent[1][1].text


async def test_a_forfeit_ends_the_game_for_the_other_team(app: App) -> None:
    await start(app, timeout_after="1d", timeout_policy="forfeit", remind_after="off")
    clock(app).advance(timedelta(days=1, minutes=1))
    posts = Posts()
    assert await tick(app, posts) == 1
    game = await app.repo.last_game(CHANNEL)
    assert game is not None and game.status == "finished"
    assert game.result == {"winner": "blue", "reason": "red did not answer in time"}
    assert posts.sent[0][1].text == "⏰ Forfeit: red did not answer in time. 🏆 Blue win the game."


async def test_a_stale_tick_does_nothing(app: App) -> None:
    """The scheduler read the games list, then the player acted before the timeout was
    applied: the timeout must not hit the player who waits now (issue 9, item 3)."""
    await start(app, timeout_after="1d", remind_after="off")
    clock(app).advance(timedelta(days=2))
    stale = await app.repo.live_games()
    await app.sessions.act(CHANNEL, ALICE, "pass")  # red answered; blue just started waiting

    async def old_list() -> list[object]:
        return list(stale)

    app.repo.live_games = old_list  # type: ignore[method-assign]
    assert await tick(app, Posts()) == 0
    game = await app.repo.game(stale[0].id)
    assert game.snapshot["turn"] == 1 and (await app.repo.orders(game.id))[-1].text == "pass"


async def test_nothing_happens_without_a_timeout_setting(app: App) -> None:
    await start(app, remind_after="off")
    clock(app).advance(timedelta(days=365))
    assert await tick(app, Posts()) == 0  # games never expire on their own
    assert (await app.repo.live_game(CHANNEL)) is not None
