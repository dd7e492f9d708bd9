"""Several processes on one database: scheduled work (reminders, timeouts) is claimed in
the database, so it is done once whichever process sees it first; a process told which
games are its own (its shards) leaves the others alone.  Runs on SQLite here and on
PostgreSQL in the suite's second pass (WARROOM_TEST_BACKEND=postgresql)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.app import App
from bot.clock import ManualClock
from bot.scheduler import CLAIM_TTL, tick
from tests.toygame.harness import CHANNEL, Posts, start


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    """Two bot processes (two Apps, two connections) on the same database and clock time."""
    one = await App.start(tmp_path / "shared.db", seed=1, clock=ManualClock())
    other = await App.start(tmp_path / "shared.db", seed=2, clock=ManualClock())
    yield one, other
    await one.close()
    await other.close()


def advance(apps: tuple[App, App], delta: timedelta) -> None:
    for app in apps:
        assert isinstance(app.clock, ManualClock)
        app.clock.advance(delta)


async def test_a_reminder_seen_by_two_processes_is_sent_once(two: tuple[App, App]) -> None:
    one, other = two
    await start(one, remind_after="1h", timeout_after="off")
    advance(two, timedelta(hours=2))
    posts_one, posts_other = Posts(), Posts()
    done = await asyncio.gather(tick(one, posts_one), tick(other, posts_other))
    assert sorted(done) == [0, 1]
    assert len(posts_one.sent) + len(posts_other.sent) == 1
    # Later ticks of either process do not remind again in the same waiting period.
    advance(two, CLAIM_TTL * 2)
    assert await tick(one, Posts()) == 0 and await tick(other, Posts()) == 0


async def test_a_timeout_seen_by_two_processes_fires_once(two: tuple[App, App]) -> None:
    one, other = two
    await start(one, timeout_after="1d", remind_after="off")
    advance(two, timedelta(days=1, minutes=1))
    posts_one, posts_other = Posts(), Posts()
    done = await asyncio.gather(tick(one, posts_one), tick(other, posts_other))
    assert sorted(done) == [0, 1]
    game = await other.repo.live_game(CHANNEL)
    assert game is not None
    log = await other.repo.orders(game.id)
    assert [o.kind for o in log].count("timeout") == 1
    # One process announced it (whose time ran out, the narration, the ping of who waits now).
    assert sorted([len(posts_one.sent), len(posts_other.sent)]) == [0, 3]
    sent = [text for _, text in ((c, m.text) for c, m in posts_one.sent + posts_other.sent)]
    assert sent[0].startswith("⏰ Time is up for Red") and sent[1] == "red passes."


async def test_a_claim_left_by_a_dead_process_expires(two: tuple[App, App]) -> None:
    """A process claimed the timeout and died before applying it: once the claim expires
    the other process applies it."""
    one, other = two
    await start(one, timeout_after="1d", remind_after="off")
    advance(two, timedelta(days=1, minutes=1))
    game = await one.repo.live_game(CHANNEL)
    assert game is not None
    assert await one.repo.claim(f"tick:{game.id}:v{game.version}", "a-dead-process",
                                now=one.clock.now(), ttl=CLAIM_TTL)
    assert await tick(other, Posts()) == 0  # still claimed by the dead process
    advance(two, CLAIM_TTL + timedelta(seconds=1))
    assert await tick(other, Posts()) == 1


async def test_a_process_ticks_only_the_games_it_owns(two: tuple[App, App]) -> None:
    one, other = two
    await start(one, timeout_after="1d", remind_after="off")
    advance(two, timedelta(days=2))
    assert await tick(one, Posts(), owns=lambda game: False) == 0
    assert await tick(other, Posts(), owns=lambda game: game.channel_id == CHANNEL) == 1
