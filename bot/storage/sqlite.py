"""The SQLite backend (aiosqlite): one file, WAL, busy timeout, foreign keys on.

Per stack-notes.md: one writer connection per process behind an ``asyncio.Lock``,
``synchronous=NORMAL``, ``BEGIN IMMEDIATE`` for read-modify-write, the busy timeout as a
safety net.  Several processes may share the file: every commit checks the version it
read, so only one of two competing writers can apply a change on a given version.

Migrations live in ``bot/storage/migrations/sqlite/``: ``NNNN_name.sql`` files, or
``vNNNN_name.py`` modules with ``async def upgrade(db)`` for data migrations; the
schema version is SQLite's ``user_version``.  A database written by a newer Warroom is
refused (:class:`SchemaTooNew`).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.resources
import json
import re
import sqlite3
from contextlib import asynccontextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Mapping, Sequence

import aiosqlite

from bot.storage.repository import (
    Document,
    GameExists,
    GameRecord,
    GameUpdate,
    NewGame,
    NewOrder,
    OrderRecord,
    SchemaTooNew,
    VersionConflict,
)
from bot.storage.rows import dumps, game_record, order_record, order_values, update_columns
from bot.storage.snapshots import SeenPlayers, SnapshotCache

BUSY_TIMEOUT_MS = 5000
# A game row with its seats (one query, not two).
_GAME = ("*, (SELECT json_group_object(seat, player_id) FROM seats WHERE seats.game_id = games.id)"
         " AS seats_json")
_MIGRATION_NAME = re.compile(r"^v?(\d{4})_[a-z0-9_]+\.(sql|py)$")
Migration = tuple[int, str, Callable[[aiosqlite.Connection], Awaitable[None]]]


def migrations() -> list[Migration]:
    """(version, file name, step) of every packaged SQLite migration, in order."""
    package = "bot.storage.migrations.sqlite"
    folder = importlib.resources.files(package)
    found: list[Migration] = []
    for entry in folder.iterdir():
        m = _MIGRATION_NAME.match(entry.name)
        if not m:
            continue
        if m.group(2) == "sql":
            found.append((int(m.group(1)), entry.name, _sql_step(entry.read_text(encoding="utf-8"))))
        else:
            module = importlib.import_module(f"{package}.{entry.name[:-3]}")
            found.append((int(m.group(1)), entry.name, module.upgrade))
    found.sort(key=lambda f: f[0])
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def _sql_step(sql: str) -> Callable[[aiosqlite.Connection], Awaitable[None]]:
    async def step(db: aiosqlite.Connection) -> None:
        for statement in split_sql(sql):
            await db.execute(statement)

    return step


def _time(value: datetime) -> str:
    return value.isoformat(timespec="seconds")


def parse_time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


class SqliteRepository:

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.snapshots = SnapshotCache()
        self.seen = SeenPlayers()

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            self._db = db
            await self._migrate()
        except BaseException:
            self._db = None
            await db.close()
            raise

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("repository is not open")
        return self._db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One read-modify-write transaction: the process's writer lock, ``BEGIN
        IMMEDIATE``, then COMMIT, or ROLLBACK on any error."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        async with self._lock:
            async with self.db.execute(sql, params) as cur:
                row: sqlite3.Row | None = await cur.fetchone()
                return row

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            async with self.db.execute(sql, params) as cur:
                return list(await cur.fetchall())

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        known = migrations()
        async with self._transaction() as db:
            current = await self.schema_version()
            if current > len(known):
                raise SchemaTooNew(
                    f"the database {self.path} has schema version {current}, but this Warroom "
                    f"knows only up to {len(known)}: upgrade Warroom (or use another database)")
            for version, _name, step in known:
                if version > current:
                    await step(db)
                    await db.execute(f"PRAGMA user_version = {version}")

    # ------------------------------------------------------------------ games

    async def create_game(self, new: NewGame, *, now: datetime) -> GameRecord:
        stored = self.snapshots.stored(None, None, new.snapshot, new.apart)
        async with self._transaction() as db:
            try:
                cur = await db.execute(
                    "INSERT INTO games (channel_id, guild_id, kind, status, host_id, options,"
                    " version, snapshot, parts, created_at, updated_at, uid, dice_key, dice_positions)"
                    " VALUES (?, ?, ?, 'open', ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)",
                    (new.channel_id, new.guild_id, new.kind, new.host_id, dumps(new.options),
                     stored.text, stored.parts, _time(now), _time(now), new.uid, new.dice_key.hex(),
                     dumps(dict(new.dice_positions))),
                )
            except sqlite3.IntegrityError:
                # The same game asked for again (same uid: a retried request) is the one made.
                async with db.execute(f"SELECT {_GAME} FROM games WHERE channel_id = ? AND uid = ?"
                                      " AND status IN ('open', 'active')", (new.channel_id, new.uid)) as cur:
                    made: sqlite3.Row | None = await cur.fetchone()
                if made is None or not new.uid:
                    raise GameExists(new.channel_id) from None
                return self._record(made)
            game_id = int(cur.lastrowid or 0)
            await self._write_seats(game_id, new.seats)
            await self._append(game_id, 1, new.first, now)
            row = await self._game_row(game_id)
        self.snapshots.put(game_id, 1, new.snapshot, stored.digest, stored.names)
        return self._record(row)

    async def live_game(self, channel_id: int) -> GameRecord | None:
        row = await self._one(
            f"SELECT {_GAME} FROM games WHERE channel_id = ? AND status IN ('open', 'active')", (channel_id,))
        return self._record(row) if row else None

    async def game(self, game_id: int) -> GameRecord:
        row = await self._one(f"SELECT {_GAME} FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise KeyError(f"no game {game_id}")
        return self._record(row)

    async def live_games(self) -> list[GameRecord]:
        rows = await self._all(f"SELECT {_GAME} FROM games WHERE status IN ('open', 'active') ORDER BY id")
        return [self._record(r) for r in rows]

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The newest game of a channel, finished or not (for looking back)."""
        row = await self._one(
            f"SELECT {_GAME} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return self._record(row) if row else None

    async def commit(
        self,
        game_id: int,
        *,
        expected_version: int,
        update: GameUpdate,
        records: Sequence[NewOrder],
        now: datetime,
    ) -> GameRecord:
        """Apply ``update`` and append ``records`` in one transaction, only if the game is
        still at ``expected_version``; the version then goes up by one per record (at
        least one), so every log row's ``seq`` is the version it produced."""
        bump = max(1, len(records))
        stored = (None if update.snapshot is None
                  else self.snapshots.stored(game_id, expected_version, update.snapshot, update.apart))
        columns = update_columns(update, now, _time, None if stored is None else (stored.text, stored.parts))
        sets = ", ".join(f"{column} = ?" for column, _ in columns)
        async with self._transaction() as db:
            cur = await db.execute(
                f"UPDATE games SET version = version + {bump}, {sets} WHERE id = ? AND version = ?",
                (*(value for _, value in columns), game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            if update.seats is not None:
                await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
                await self._write_seats(game_id, update.seats)
            for i, record in enumerate(records, 1):
                await self._append(game_id, expected_version + i, record, now)
            row = await self._game_row(game_id)  # read in the transaction: this very version
        # Only once stored: a commit whose COMMIT failed must not leave its snapshot
        # cached under a version another writer then makes.
        self.snapshots.committed(game_id, expected_version, expected_version + bump, update.snapshot, stored)
        return self._record(row)

    async def mark_reminded(self, game_id: int, *, version: int, now: datetime) -> bool:
        """Note a reminder without changing the game's version (nothing of the game
        changes), only if the game is still at ``version``."""
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET reminded_at = ? WHERE id = ? AND version = ?",
                (_time(now), game_id, version))
            return cur.rowcount == 1

    async def orders(self, game_id: int, *, since: int = 0) -> list[OrderRecord]:
        rows = await self._all(
            "SELECT * FROM orders WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, since))
        return [order_record(r, parse_time) for r in rows]

    # ------------------------------------------------------------------ players, settings

    async def remember_player(self, user_id: int, name: str, now: datetime) -> None:
        if self.seen.fresh(user_id, name, now):
            return
        async with self._lock:
            await self.db.execute(
                "INSERT INTO players (id, name, first_seen, last_seen) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(id) DO UPDATE SET name = excluded.name, last_seen = excluded.last_seen",
                (user_id, name, _time(now), _time(now)),
            )
        self.seen.wrote(user_id, name, now)

    async def player_name(self, user_id: int) -> str | None:
        row = await self._one("SELECT name FROM players WHERE id = ?", (user_id,))
        return str(row[0]) if row else None

    async def player_names(self) -> dict[int, str]:
        return {int(r[0]): str(r[1]) for r in await self._all("SELECT id, name FROM players")}

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self._set_setting("guild_settings", "guild_id", guild_id, key, value)

    async def guild_setting(self, guild_id: int, key: str) -> Any:
        return await self._setting("guild_settings", "guild_id", guild_id, key)

    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None:
        await self._set_setting("user_settings", "user_id", user_id, key, value)

    async def user_setting(self, user_id: int, key: str) -> Any:
        return await self._setting("user_settings", "user_id", user_id, key)

    async def _set_setting(self, table: str, column: str, owner: int, key: str, value: Any) -> None:
        async with self._lock:
            if value is None:
                await self.db.execute(f"DELETE FROM {table} WHERE {column} = ? AND key = ?", (owner, key))
            else:
                await self.db.execute(
                    f"INSERT INTO {table} ({column}, key, value) VALUES (?, ?, ?)"
                    f" ON CONFLICT({column}, key) DO UPDATE SET value = excluded.value",
                    (owner, key, dumps(value)))

    async def _setting(self, table: str, column: str, owner: int, key: str) -> Any:
        row = await self._one(f"SELECT value FROM {table} WHERE {column} = ? AND key = ?", (owner, key))
        return json.loads(row[0]) if row else None

    # ------------------------------------------------------------------ documents

    async def document(self, kind: str, key: str) -> Document | None:
        row = await self._one("SELECT * FROM documents WHERE kind = ? AND key = ?", (kind, key))
        return Document(kind, key, int(row["version"]), json.loads(row["data"])) if row else None

    async def documents(self, kind: str, prefix: str = "") -> list[Document]:
        rows = await self._all("SELECT * FROM documents WHERE kind = ? AND substr(key, 1, ?) = ?"
                               " ORDER BY key", (kind, len(prefix), prefix))
        return [Document(kind, r["key"], int(r["version"]), json.loads(r["data"])) for r in rows]

    async def put_document(self, kind: str, key: str, data: Any, *, expected_version: int,
                           now: datetime) -> Document:
        """Write ``data`` only if the document is at ``expected_version`` (0: it must not
        exist yet); its version then goes up by one.  :class:`VersionConflict` otherwise."""
        async with self._transaction() as db:
            if expected_version == 0:
                try:
                    await db.execute("INSERT INTO documents VALUES (?, ?, 1, ?, ?)",
                                     (kind, key, dumps(data), _time(now)))
                except sqlite3.IntegrityError:
                    raise VersionConflict(f"document {kind}/{key} already exists") from None
            else:
                cur = await db.execute(
                    "UPDATE documents SET version = version + 1, data = ?, updated_at = ?"
                    " WHERE kind = ? AND key = ? AND version = ?",
                    (dumps(data), _time(now), kind, key, expected_version))
                if cur.rowcount != 1:
                    raise VersionConflict(f"document {kind}/{key} is no longer at version {expected_version}")
        return Document(kind, key, expected_version + 1, data)

    # ------------------------------------------------------------------ claims

    async def claim(self, name: str, holder: str, *, now: datetime, ttl: timedelta) -> bool:
        """Take ``name`` for ``holder`` unless another holder's claim is still running
        (times are stored in UTC so the text comparison orders them)."""
        now_utc = now.astimezone(timezone.utc)
        async with self._transaction() as db:
            await db.execute("DELETE FROM claims WHERE until < ?", (_time(now_utc - timedelta(days=1)),))
            cur = await db.execute(
                "INSERT INTO claims (name, holder, until) VALUES (?, ?, ?)"
                " ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, until = excluded.until"
                " WHERE claims.until <= ? OR claims.holder = excluded.holder",
                (name, holder, _time(now_utc + ttl), _time(now_utc)))
            return cur.rowcount == 1

    async def release(self, name: str, holder: str) -> None:
        async with self._transaction() as db:
            await db.execute("DELETE FROM claims WHERE name = ? AND holder = ?", (name, holder))

    # ------------------------------------------------------------------ helpers

    async def _write_seats(self, game_id: int, seats: Mapping[str, int]) -> None:
        for seat, player_id in seats.items():
            await self.db.execute(
                "INSERT INTO seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                (game_id, seat, player_id),
            )

    async def _game_row(self, game_id: int) -> sqlite3.Row:
        """The game's row, inside a transaction already holding the writer lock."""
        async with self.db.execute(f"SELECT {_GAME} FROM games WHERE id = ?", (game_id,)) as cur:
            row: sqlite3.Row | None = await cur.fetchone()
        assert row is not None
        return row

    async def _append(self, game_id: int, seq: int, record: NewOrder, now: datetime) -> None:
        await self.db.execute(
            "INSERT INTO orders (game_id, seq, kind, actor_id, seat, text, events, dice, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, *order_values(record), _time(now)),
        )

    def _record(self, row: sqlite3.Row) -> GameRecord:
        return game_record(
            row, seats={seat: int(player) for seat, player in sorted(json.loads(row["seats_json"]).items())},
            snapshot=self.snapshots.get(row["id"], row["version"], row["snapshot"], row["parts"]),
            dice_key=bytes.fromhex(row["dice_key"]), read_time=parse_time)


def split_sql(sql: str) -> list[str]:
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
