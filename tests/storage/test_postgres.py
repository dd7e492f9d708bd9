"""What is particular to the PostgreSQL backend (a real server, tests/storage/pg_server.py):
migrations run once and concurrently-starting processes do not trip over each other, the
order log is append-only at the SQL level, a newer schema is refused, and a restarted
server is reconnected to without help."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from typing import Any

import asyncpg
import pytest

from bot.storage import describe, open_repository
from bot.storage.postgres import DatabaseUnavailable, PostgresRepository, migrations
from bot.storage.repository import NewGame, NewOrder, SchemaTooNew
from tests.storage import pg_server

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)


def test_addresses_pick_the_backend() -> None:
    assert describe("postgresql://u@h/db") == ("postgresql", "postgresql://u@h/db")
    assert describe("postgres://u@h/db")[0] == "postgresql"


async def test_processes_starting_together_migrate_once() -> None:
    address = pg_server.fresh_database()
    repos = [PostgresRepository(address) for _ in range(3)]
    await asyncio.gather(*(r.open() for r in repos))
    try:
        assert [await r.schema_version() for r in repos] == [len(migrations())] * 3
        again = await open_repository(address)
        assert await again.schema_version() == len(migrations())
        await again.close()
    finally:
        for r in repos:
            await r.close()


async def test_the_order_log_refuses_update_and_delete() -> None:
    address = pg_server.fresh_database()
    repo = await open_repository(address)
    await repo.remember_player(1, "a", NOW)
    await repo.create_game(NewGame(channel_id=1, guild_id=None, kind="race", host_id=1, options={},
                                   seats={}, snapshot={}, first=NewOrder(kind="new", seat="", text="{}"),
                                   uid="u", dice_key=b"k"), now=NOW)
    await repo.close()
    conn = await asyncpg.connect(address)
    try:
        with pytest.raises(asyncpg.PostgresError, match="append-only"):
            await conn.execute("UPDATE orders SET text = 'cheat'")
        with pytest.raises(asyncpg.PostgresError, match="append-only"):
            await conn.execute("DELETE FROM orders")
    finally:
        await conn.close()


async def test_a_newer_schema_is_refused_with_a_clear_message() -> None:
    address = pg_server.fresh_database()
    conn = await asyncpg.connect(address)
    await conn.execute("CREATE TABLE warroom_schema (version INTEGER NOT NULL); INSERT INTO warroom_schema VALUES (99)")
    await conn.close()
    with pytest.raises(SchemaTooNew, match="schema version 99, but this Warroom knows only up to"):
        await open_repository(address)


async def test_an_unreachable_server_is_a_clear_error() -> None:
    srv = pg_server.server()
    with pytest.raises(DatabaseUnavailable, match="cannot reach the database"):
        await open_repository(f"postgresql://{srv.user}:secret@127.0.0.1:1/none")


async def test_the_database_restarting_mid_burst(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Orders keep coming while the server restarts: each is applied (and acknowledged)
    or refused with a player error, none is lost or applied twice, and the bot goes on
    by itself once the server is back."""
    import bot.app
    from bot.app import App
    from bot.clock import ManualClock
    from engine.core.errors import PlayerError
    from tests.toygame.harness import ALICE, BOB, CHANNEL, start

    monkeypatch.setattr(bot.app, "open_repository", open_repository)  # this database, whatever the pass
    app = await App.start(pg_server.fresh_database(), seed=3, clock=ManualClock())
    try:
        await start(app, target=100)
        acked: list[int] = []
        refused: list[str] = []
        stop = asyncio.Event()

        async def burst() -> None:
            n = 0
            while not stop.is_set() or n < 10:
                try:
                    loaded = await app.sessions.load(CHANNEL)
                    actor = ALICE if loaded.pending[0].player == "red" else BOB
                    acked.append((await app.sessions.act(CHANNEL, actor, "pass")).game.version)
                except PlayerError as err:
                    refused.append(err.text())
                    await asyncio.sleep(0.05)
                n += 1

        async def restart() -> None:
            await asyncio.sleep(0.3)
            await asyncio.to_thread(pg_server.restart)
            await asyncio.sleep(0.5)
            stop.set()

        await asyncio.gather(burst(), restart())
        assert all("cannot be reached" in text or "game changed" in text for text in refused), refused
        # The restart did hit the burst: operations lost their connection and were tried
        # again (or refused), and orders were acknowledged before and after.
        lost = [r for r in caplog.records if "database connection lost" in r.getMessage()]
        assert lost or any("cannot be reached" in text for text in refused), "the restart never overlapped an order"
        assert acked and acked[-1] > acked[0]
        game = await app.repo.live_game(CHANNEL)
        assert game is not None
        log = await app.repo.orders(game.id)
        assert set(acked) <= {row.seq for row in log} and len(acked) == len(set(acked)), sorted(v for v in set(acked) if acked.count(v) > 1)
        assert [row.seq for row in log] == list(range(1, game.version + 1))
        await app.sessions.history(game, check=True)
        loaded = await app.sessions.load(CHANNEL)  # and it goes on
        actor = ALICE if loaded.pending[0].player == "red" else BOB
        assert (await app.sessions.act(CHANNEL, actor, "pass")).game.version == game.version + 1
    finally:
        await app.close()


async def test_a_create_whose_answer_was_lost_is_not_refused() -> None:
    """The connection drops right after the new game's COMMIT: the retry finds the game
    it made (same uid) instead of answering "this channel already has a game"."""
    repo = await open_repository(pg_server.fresh_database())
    try:
        await repo.remember_player(1, "alice", datetime(2026, 1, 1, tzinfo=timezone.utc))
        assert isinstance(repo, PostgresRepository)
        real_put = repo.snapshots.put
        lost = []

        def put_after_a_lost_answer(*args: Any, **kwargs: Any) -> None:
            if not lost:  # runs once the transaction is committed: the answer is "lost"
                lost.append(True)
                raise ConnectionResetError("connection reset by peer")
            real_put(*args, **kwargs)

        repo.snapshots.put = put_after_a_lost_answer  # type: ignore[method-assign]
        game = await repo.create_game(NewGame(
            channel_id=7, guild_id=None, kind="race", host_id=1, options={}, seats={"red": 1},
            snapshot={"turn": 0}, first=NewOrder(kind="new", seat="", text="{}"), uid="made-once",
            dice_key=b"k"), now=datetime(2026, 1, 1, tzinfo=timezone.utc))
        assert lost and game.uid == "made-once" and game.version == 1
        async with repo.pool.acquire() as conn:
            assert await conn.fetchval("SELECT count(*) FROM games WHERE channel_id = 7") == 1
        assert len(await repo.orders(game.id)) == 1
    finally:
        await repo.close()
