"""What is particular to the SQLite backend: pragmas, migrations (including a database
written by the first schema), the append-only log at the SQL level, a newer schema."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.storage.repository import SchemaTooNew
from bot.storage.sqlite import SqliteRepository, migrations, split_sql


async def test_migrations_applied_once_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    repo = SqliteRepository(tmp_path / "w.db")
    await repo.open()
    try:
        assert await repo.schema_version() == len(migrations()) >= 2
        async with repo.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        async with repo.db.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
    finally:
        await repo.close()
    again = SqliteRepository(tmp_path / "w.db")
    await again.open()  # re-opening must not re-run migrations (tables already exist)
    assert await again.schema_version() == len(migrations())
    await again.close()


async def test_the_order_log_refuses_update_and_delete(tmp_path: Path) -> None:
    repo = SqliteRepository(tmp_path / "a.db")
    await repo.open()
    await repo.close()
    with sqlite3.connect(tmp_path / "a.db") as raw:
        raw.execute("INSERT INTO players VALUES (1, 'a', 'x', 'x')")
        raw.execute("INSERT INTO games (channel_id, kind, status, host_id, options, version, snapshot,"
                    " created_at, updated_at) VALUES (1, 'race', 'open', 1, '{}', 1, '{}', 'x', 'x')")
        raw.execute("INSERT INTO orders VALUES (1, 1, 'new', 1, '', '{}', '[]', '[]', 'x')")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute("UPDATE orders SET text = 'cheat'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute("DELETE FROM orders")


async def test_a_newer_schema_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "n.db") as raw:
        raw.execute("PRAGMA user_version = 99")
    repo = SqliteRepository(tmp_path / "n.db")
    with pytest.raises(SchemaTooNew, match="schema version 99, but this Warroom knows only up to"):
        await repo.open()


async def test_a_first_schema_database_is_migrated_with_canonical_orders(tmp_path: Path) -> None:
    """An old game (schema 1: orders as typed, bare d6 results, timeouts as orders of a
    'system' seat) loads after the upgrade: texts become canonical, dice know their sides,
    the timeout becomes its own row, the moderator role a key/value setting."""
    from bot.games import load_games

    load_games()
    first = migrations()[0]
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as raw:
        for statement in split_sql((Path(__file__).parents[2] / "bot/storage/migrations/sqlite"
                                    / first[1]).read_text()):
            raw.execute(statement)
        raw.execute("PRAGMA user_version = 1")
        raw.execute("INSERT INTO players VALUES (1, 'alice', 'x', 'x')")
        raw.execute("INSERT INTO guild_settings VALUES (5, 4242)")
        raw.execute("INSERT INTO games (channel_id, kind, status, host_id, options, version, snapshot,"
                    " created_at, updated_at) VALUES (1, 'minis', 'active', 1, ?, 3, '{}', ?, ?)",
                    (json.dumps({"scenario": "standard", "map": 3}), "2026-01-01T00:00:00+00:00",
                     "2026-01-01T00:00:00+00:00"))
        rows = [(1, "new", "", json.dumps({"scenario": "standard", "map": 3}), "[]"),
                (2, "order", "axis", "ARMY   panzer iv ausf. g", "[]"),
                (3, "order", "system", "timeout done", "[]")]
        for seq, kind, seat, text, dice in rows:
            raw.execute("INSERT INTO orders VALUES (1, ?, ?, 1, ?, ?, '[]', ?, '2026-01-01T00:00:00+00:00')",
                        (seq, kind, seat, text, dice))
    repo = SqliteRepository(path)
    await repo.open()
    try:
        log = await repo.orders(1)
        assert [(o.kind, o.seat, o.text) for o in log] == [
            ("new", "", json.dumps({"scenario": "standard", "map": 3})),
            ("order", "axis", "army panzer-iv-ausf-g"), ("timeout", "", "done")]
        game = await repo.game(1)
        assert len(game.uid) == 16 and len(game.dice_key) == 32
        assert await repo.guild_setting(5, "moderator_role") == 4242
    finally:
        await repo.close()
