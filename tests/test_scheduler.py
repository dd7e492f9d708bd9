"""Asynchronous play: reminders once per wait, timeouts applied as logged system orders."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.app import App
from bot.clock import ManualClock
from bot.context import Actor, Message
from bot.scheduler import tick
from bot.storage.repository import NewOrder
from tests import toygame  # noqa: F401

ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")


class Posts:
    def __init__(self) -> None:
        self.sent: list[tuple[int, Message]] = []

    async def reply(self, message: Message) -> None:
        raise AssertionError("the scheduler never replies")

    async def post(self, channel_id: int, message: Message) -> None:
        self.sent.append((channel_id, message))


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    application = await App.start(tmp_path / "t.db", seed=1, clock=ManualClock())
    yield application
    await application.close()


async def _start(app: App, **options: str) -> None:
    app.dice.queue([1])
    await app.sessions.create(kind="race", channel_id=5, guild_id=None, host=ALICE,
                              options={"target": 10, **options}, seats={"red": ALICE, "blue": BOB})
    await app.sessions.update_game(5, status="active", record=NewOrder(kind="seat", seat="", text="start"))


async def test_reminder_after_the_delay_and_only_once(app: App) -> None:
    await _start(app, remind_after="24h")
    posts = Posts()
    clock = app.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(hours=23))
    assert await tick(app, posts) == 0
    clock.advance(timedelta(hours=2))
    assert await tick(app, posts) == 1
    (channel, msg), = posts.sent
    assert channel == 5 and msg.text == "⏰ Reminder: <@1> (red) — your turn: roll or pass"
    assert msg.mentions == (1,)
    clock.advance(timedelta(hours=30))
    assert await tick(app, posts) == 0  # one reminder per waiting period
    await app.sessions.act(5, ALICE, "pass")  # now blue waits: a new period
    clock.advance(timedelta(hours=25))
    assert await tick(app, posts) == 1
    assert posts.sent[-1][1].mentions == (2,)


async def test_timeout_applies_the_policy_as_a_logged_order(app: App) -> None:
    await _start(app, timeout_after="3d", remind_after="off")
    clock = app.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(days=2))
    assert await tick(app, Posts()) == 0
    clock.advance(timedelta(days=1, minutes=1))
    assert await tick(app, Posts()) == 1
    game = await app.repo.live_game(5)
    assert game is not None and game.snapshot["turn"] == 1  # red's turn passed
    last = (await app.repo.orders(game.id))[-1]
    assert (last.seat, last.text, last.actor_id) == ("system", "timeout done", None)


async def test_nothing_happens_without_a_timeout_setting(app: App) -> None:
    await _start(app, remind_after="off")
    assert isinstance(app.clock, ManualClock)
    app.clock.advance(timedelta(days=365))
    assert await tick(app, Posts()) == 0  # games never expire on their own
    assert (await app.repo.live_game(5)) is not None
