"""What is particular to the PostgreSQL backend (a real server, tests/storage/pg_server.py):
migrations run once and concurrently-starting processes do not trip over each other, the
order log is append-only at the SQL level, a newer schema is refused, and a restarted
server is reconnected to without help."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

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
