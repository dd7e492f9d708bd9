"""SQLite repository: migrations, pragmas, version checks across processes, append-only log."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage.repository import GameExists, GameUpdate, NewOrder, VersionConflict
from bot.storage.sqlite import SqliteRepository, migrations

NOW = "2026-01-01T12:00:00+00:00"


async def _repo(path: Path) -> SqliteRepository:
    repo = SqliteRepository(path)
    await repo.open()
    await repo.remember_player(1, "alice", NOW)
    await repo.remember_player(2, "bob", NOW)
    return repo


async def _game(repo: SqliteRepository, channel: int = 10) -> int:
    game = await repo.create_game(
        channel_id=channel, guild_id=5, kind="race", host_id=1, options={"target": 10},
        seats={"red": 1}, snapshot={"s": 0},
        first=NewOrder(kind="new", seat="", text="{}", actor_id=1, dice=[2]), now=NOW,
    )
    return game.id


async def test_migrations_applied_once_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    repo = await _repo(tmp_path / "w.db")
    try:
        assert await repo.schema_version() == len(migrations()) >= 1
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


async def test_create_commit_and_read_back(tmp_path: Path) -> None:
    repo = await _repo(tmp_path / "g.db")
    try:
        gid = await _game(repo)
        game = await repo.game(gid)
        assert (game.version, game.status, game.seats, game.options) == (1, "open", {"red": 1}, {"target": 10})
        stored = await repo.commit(
            gid, expected_version=1,
            update=GameUpdate(snapshot={"s": 4}, status="active", seats={"red": 1, "blue": 2},
                              waiting_since=NOW, carry_dice=[3]),
            record=NewOrder(kind="order", seat="red", text="roll", actor_id=1,
                            events=[{"type": "Rolled", "value": 4}], dice=[4]),
            now=NOW,
        )
        assert (stored.version, stored.status, stored.snapshot) == (2, "active", {"s": 4})
        assert stored.seats == {"blue": 2, "red": 1} and stored.carry_dice == (3,)
        log = await repo.orders(gid)
        assert [(o.seq, o.kind, o.text, o.dice) for o in log] == [(1, "new", "{}", (2,)), (2, "order", "roll", (4,))]
        assert log[1].events == ({"type": "Rolled", "value": 4},)
    finally:
        await repo.close()


async def test_a_commit_on_a_stale_version_changes_nothing(tmp_path: Path) -> None:
    """Two processes (two connections on one file) read version 1; only one may apply."""
    first = await _repo(tmp_path / "p.db")
    second = SqliteRepository(tmp_path / "p.db")
    await second.open()
    try:
        gid = await _game(first)
        assert (await second.game(gid)).version == 1
        order = NewOrder(kind="order", seat="red", text="roll", dice=[6])
        await first.commit(gid, expected_version=1, update=GameUpdate(snapshot={"s": 6}), record=order, now=NOW)
        with pytest.raises(VersionConflict):
            await second.commit(gid, expected_version=1, update=GameUpdate(snapshot={"s": 1}),
                                record=NewOrder(kind="order", seat="red", text="roll", dice=[1]), now=NOW)
        game = await second.game(gid)
        assert game.snapshot == {"s": 6} and game.version == 2
        assert [o.dice for o in await second.orders(gid)] == [(2,), (6,)]
    finally:
        await first.close()
        await second.close()


async def test_one_live_game_per_channel(tmp_path: Path) -> None:
    repo = await _repo(tmp_path / "c.db")
    try:
        gid = await _game(repo, channel=10)
        with pytest.raises(GameExists):
            await _game(repo, channel=10)
        await _game(repo, channel=11)  # another channel (or thread) is fine
        await repo.commit(gid, expected_version=1, update=GameUpdate(status="finished"), record=None, now=NOW)
        await _game(repo, channel=10)  # once over, a new game may start there
        assert (await repo.live_game(10)) is not None
    finally:
        await repo.close()


async def test_the_order_log_is_append_only(tmp_path: Path) -> None:
    repo = await _repo(tmp_path / "a.db")
    try:
        gid = await _game(repo)
    finally:
        await repo.close()
    with sqlite3.connect(tmp_path / "a.db") as raw:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute("UPDATE orders SET text = 'cheat' WHERE game_id = ?", (gid,))


async def test_seats_need_known_players(tmp_path: Path) -> None:
    repo = await _repo(tmp_path / "f.db")
    try:
        gid = await _game(repo)
        with pytest.raises(sqlite3.IntegrityError):
            await repo.commit(gid, expected_version=1, update=GameUpdate(seats={"blue": 999}),
                              record=None, now=NOW)
        assert (await repo.game(gid)).version == 1  # rolled back as a whole
    finally:
        await repo.close()


async def test_moderator_role_setting(tmp_path: Path) -> None:
    repo = await _repo(tmp_path / "m.db")
    try:
        assert await repo.moderator_role(5) is None
        await repo.set_moderator_role(5, 1234)
        assert await repo.moderator_role(5) == 1234
        await repo.set_moderator_role(5, None)
        assert await repo.moderator_role(5) is None
    finally:
        await repo.close()
