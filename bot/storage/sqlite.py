"""The SQLite backend (aiosqlite): one file, WAL, busy timeout, foreign keys on.

Per stack-notes.md: one writer connection per process behind an ``asyncio.Lock``,
``synchronous=NORMAL``, ``BEGIN IMMEDIATE`` for read-modify-write, the busy timeout as a
safety net.  Several processes may share the file: every commit checks the version it
read, so only one of two competing writers can apply an order on a given version.
"""

from __future__ import annotations

import asyncio
import importlib.resources
import json
import re
import sqlite3
from pathlib import Path
from typing import Any, Mapping

import aiosqlite

from bot.storage.repository import (
    GameExists,
    GameRecord,
    GameUpdate,
    NewOrder,
    OrderRecord,
    VersionConflict,
)

BUSY_TIMEOUT_MS = 5000
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every packaged migration, in order."""
    folder = importlib.resources.files("bot.storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        m = _MIGRATION_NAME.match(entry.name)
        if m:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class SqliteRepository:

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(self.path, isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA synchronous = NORMAL")
        await db.execute("PRAGMA foreign_keys = ON")
        self._db = db
        await self._migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property

    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("repository is not open")
        return self._db

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                current = await self.schema_version()
                for version, _name, sql in migrations():
                    if version <= current:
                        continue
                    for statement in _split_sql(sql):
                        await self.db.execute(statement)
                    await self.db.execute(f"PRAGMA user_version = {version}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        kind: str,
        host_id: int,
        options: Mapping[str, Any],
        seats: Mapping[str, int],
        snapshot: Mapping[str, Any],
        first: NewOrder,
        now: str,
    ) -> GameRecord:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                try:
                    cur = await self.db.execute(
                        "INSERT INTO games (channel_id, guild_id, kind, status, host_id, options,"
                        " version, snapshot, created_at, updated_at)"
                        " VALUES (?, ?, ?, 'open', ?, ?, 1, ?, ?, ?)",
                        (channel_id, guild_id, kind, host_id, _dumps(options), _dumps(snapshot),
                         now, now),
                    )
                except sqlite3.IntegrityError:
                    raise GameExists(channel_id) from None
                game_id = int(cur.lastrowid or 0)
                await self._write_seats(game_id, seats)
                await self._append(game_id, 1, first, now)
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
        return await self.game(game_id)

    async def live_game(self, channel_id: int) -> GameRecord | None:
        async with self._lock:
            async with self.db.execute(
                "SELECT * FROM games WHERE channel_id = ? AND status IN ('open', 'active')",
                (channel_id,),
            ) as cur:
                row = await cur.fetchone()
            return await self._record(row) if row else None

    async def game(self, game_id: int) -> GameRecord:
        async with self._lock:
            async with self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                raise KeyError(f"no game {game_id}")
            return await self._record(row)

    async def live_games(self) -> list[GameRecord]:
        async with self._lock:
            async with self.db.execute(
                "SELECT * FROM games WHERE status IN ('open', 'active') ORDER BY id"
            ) as cur:
                rows = await cur.fetchall()
            return [await self._record(r) for r in rows]

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The newest game of a channel, finished or not (for looking back)."""
        async with self._lock:
            async with self.db.execute(
                "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
            ) as cur:
                row = await cur.fetchone()
            return await self._record(row) if row else None

    async def commit(
        self,
        game_id: int,
        *,
        expected_version: int,
        update: GameUpdate,
        record: NewOrder | None,
        now: str,
    ) -> GameRecord:
        """Apply ``update`` and append ``record`` in one transaction, only if the game is
        still at ``expected_version``; the version then goes up by one."""
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        if update.snapshot is not None:
            sets.append("snapshot = ?")
            params.append(_dumps(update.snapshot))
        if update.status is not None:
            sets.append("status = ?")
            params.append(update.status)
        if update.options is not None:
            sets.append("options = ?")
            params.append(_dumps(update.options))
        if update.clear_waiting:
            sets.append("waiting_since = NULL")
        elif update.waiting_since is not None:
            sets.append("waiting_since = ?")
            params.append(update.waiting_since)
        if update.clear_reminded:
            sets.append("reminded_at = NULL")
        elif update.reminded_at is not None:
            sets.append("reminded_at = ?")
            params.append(update.reminded_at)
        if update.carry_dice is not None:
            sets.append("carry_dice = ?")
            params.append(_dumps(list(update.carry_dice)))
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute(
                    f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                    (*params, game_id, expected_version),
                )
                if cur.rowcount != 1:
                    raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
                if update.seats is not None:
                    await self.db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
                    await self._write_seats(game_id, update.seats)
                if record is not None:
                    await self._append(game_id, expected_version + 1, record, now)
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
        return await self.game(game_id)

    async def orders(self, game_id: int) -> list[OrderRecord]:
        async with self._lock:
            async with self.db.execute(
                "SELECT * FROM orders WHERE game_id = ? ORDER BY seq", (game_id,)
            ) as cur:
                rows = await cur.fetchall()
            return [
                OrderRecord(
                    kind=r["kind"],
                    seat=r["seat"],
                    text=r["text"],
                    actor_id=r["actor_id"],
                    events=tuple(json.loads(r["events"])),
                    dice=tuple(json.loads(r["dice"])),
                    seq=r["seq"],
                    created_at=r["created_at"],
                )
                for r in rows
            ]

    # ------------------------------------------------------------------ players, settings

    async def remember_player(self, user_id: int, name: str, now: str) -> None:
        async with self._lock:
            await self.db.execute(
                "INSERT INTO players (id, name, first_seen, last_seen) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(id) DO UPDATE SET name = excluded.name, last_seen = excluded.last_seen",
                (user_id, name, now, now),
            )

    async def player_name(self, user_id: int) -> str | None:
        async with self._lock:
            async with self.db.execute("SELECT name FROM players WHERE id = ?", (user_id,)) as cur:
                row = await cur.fetchone()
            return str(row[0]) if row else None

    async def player_names(self) -> dict[int, str]:
        async with self._lock:
            async with self.db.execute("SELECT id, name FROM players") as cur:
                return {int(r[0]): str(r[1]) for r in await cur.fetchall()}

    async def set_moderator_role(self, guild_id: int, role_id: int | None) -> None:
        async with self._lock:
            await self.db.execute(
                "INSERT INTO guild_settings (guild_id, moderator_role_id) VALUES (?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET moderator_role_id = excluded.moderator_role_id",
                (guild_id, role_id),
            )

    async def moderator_role(self, guild_id: int) -> int | None:
        async with self._lock:
            async with self.db.execute(
                "SELECT moderator_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ) as cur:
                row = await cur.fetchone()
            return int(row[0]) if row and row[0] is not None else None

    # ------------------------------------------------------------------ helpers

    async def _write_seats(self, game_id: int, seats: Mapping[str, int]) -> None:
        for seat, player_id in seats.items():
            await self.db.execute(
                "INSERT INTO seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                (game_id, seat, player_id),
            )

    async def _append(self, game_id: int, seq: int, record: NewOrder, now: str) -> None:
        await self.db.execute(
            "INSERT INTO orders (game_id, seq, kind, actor_id, seat, text, events, dice, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, record.kind, record.actor_id, record.seat, record.text,
             _dumps(list(record.events)), _dumps(list(record.dice)), now),
        )

    async def _record(self, row: sqlite3.Row) -> GameRecord:
        async with self.db.execute(
            "SELECT seat, player_id FROM seats WHERE game_id = ? ORDER BY seat", (row["id"],)
        ) as cur:
            seats = {r["seat"]: int(r["player_id"]) for r in await cur.fetchall()}
        return GameRecord(
            id=row["id"],
            channel_id=row["channel_id"],
            guild_id=row["guild_id"],
            kind=row["kind"],
            status=row["status"],
            host_id=row["host_id"],
            options=json.loads(row["options"]),
            seats=seats,
            version=row["version"],
            snapshot=json.loads(row["snapshot"]),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            waiting_since=row["waiting_since"],
            reminded_at=row["reminded_at"],
            carry_dice=tuple(json.loads(row["carry_dice"])),
        )


def _split_sql(sql: str) -> list[str]:
    """Split a migration into statements (triggers keep their inner semicolons)."""
    statements: list[str] = []
    buf: list[str] = []
    depth = 0
    for line in sql.splitlines():
        stripped = line.split("--", 1)[0].strip()
        if not stripped:
            continue
        buf.append(line)
        upper = stripped.upper()
        if upper.startswith("CREATE TRIGGER"):
            depth += 1
        if depth and upper.endswith("END;"):
            depth -= 1
        if depth == 0 and stripped.endswith(";"):
            statements.append("\n".join(buf))
            buf = []
    if buf:
        statements.append("\n".join(buf))
    return statements
