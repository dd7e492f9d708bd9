"""The PostgreSQL backend (asyncpg): many processes (Discord shards) on one database.

A small connection pool per process; every read-modify-write is one transaction whose
``UPDATE … WHERE version = $expected`` decides which of two competing writers wins, so
the same :class:`VersionConflict` rule as SQLite holds across processes.  JSON is stored
as text exactly as written (parsed once, here); times are ``timestamptz`` rounded to the
second, like SQLite's, so a game copied between backends reads back equal.

Migrations live in ``bot/storage/migrations/postgres/`` (``NNNN_name.sql``, run as one
script each); the schema version is the one row of ``warroom_schema``.  Starting
processes serialise their migrations on an advisory lock.  A database written by a
newer Warroom is refused (:class:`SchemaTooNew`).

The pool re-opens broken connections by itself.  An operation that meets a lost
connection (the database restarting) is tried again a few times; a commit whose answer
was lost is looked up first, so it is never applied twice and never reported as failed
when it was stored.  If the database stays away the operation fails with
:class:`DatabaseUnavailable`, a player error saying nothing was applied.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.resources
import json
import logging
import re
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any, AsyncIterator, Callable, Coroutine, Mapping, ParamSpec, Sequence, TypeVar

import asyncpg

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
from engine.core.errors import PlayerError

log = logging.getLogger("warroom.storage")

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_MIGRATION_LOCK = 0x5741_5252_4F4F_4D  # an arbitrary advisory-lock key ("WARROOM")
POOL_SIZE = 8  # connections per process (every process of a deployment has its own pool)

# A game row with its seats as one JSON object (seat -> player id) in seat order (as
# SQLite gives them); ids stay exact, as Python reads JSON integers of any size.
_GAME_COLUMNS = (
    "g.*, (SELECT json_object_agg(s.seat, s.player_id ORDER BY s.seat COLLATE \"C\") FROM seats s"
    " WHERE s.game_id = g.id)::text AS seats_json"
)


class DatabaseUnavailable(PlayerError):
    """The database could not be reached (restarting?); nothing was written."""

    def __init__(self, detail: str = "") -> None:
        super().__init__("The game database cannot be reached right now (it may be restarting),"
                         " so nothing was applied. Try the command again in a minute."
                         + (f" ({detail})" if detail else ""))


# A lost connection: the server restarted, shut down, or the network dropped.
LOST = (OSError, asyncpg.exceptions.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError,
        asyncpg.exceptions.InterfaceError)
RETRY_WAITS_S = (0.2, 0.5, 1.0, 2.0)

P = ParamSpec("P")
T = TypeVar("T")


def _retrying(fn: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """Try an operation again when its connection was lost (the pool reconnects)."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        for wait in RETRY_WAITS_S:
            try:
                return await fn(*args, **kwargs)
            except LOST as err:
                log.warning("database connection lost in %s (%s); trying again", fn.__name__, err)
                await asyncio.sleep(wait)
        try:
            return await fn(*args, **kwargs)
        except LOST as err:
            raise DatabaseUnavailable(str(err)) from err

    return run


def migrations() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every packaged PostgreSQL migration, in order."""
    folder = importlib.resources.files("bot.storage.migrations.postgres")
    found: list[tuple[int, str, str]] = []
    for entry in folder.iterdir():
        m = _MIGRATION_NAME.match(entry.name)
        if m:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda f: f[0])
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def _time(value: datetime) -> datetime:
    return value.replace(microsecond=0)


def _as_time(value: datetime | None) -> datetime | None:
    return value  # asyncpg reads timestamptz as an aware datetime already


def _safe_address(dsn: str) -> str:
    return re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", dsn)


class PostgresRepository:

    def __init__(self, dsn: str, *, pool_size: int = POOL_SIZE) -> None:
        self.dsn = dsn
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self.snapshots = SnapshotCache()
        self.seen = SeenPlayers()

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(self.dsn, min_size=1, max_size=self.pool_size)
        except (OSError, asyncpg.PostgresError) as err:
            raise DatabaseUnavailable(
                f"cannot reach the database {_safe_address(self.dsn)}: {err}") from err
        self._pool = pool
        try:
            await self._migrate()
        except BaseException:
            self._pool = None
            await pool.close()
            raise

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("repository is not open")
        return self._pool

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        async with self.pool.acquire() as conn:
            yield conn

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._connection() as conn:
            async with conn.transaction():
                yield conn

    @_retrying
    async def schema_version(self) -> int:
        async with self._connection() as conn:
            return await self._version(conn)

    @staticmethod
    async def _version(conn: asyncpg.Connection) -> int:
        exists = await conn.fetchval("SELECT to_regclass('warroom_schema') IS NOT NULL")
        if not exists:
            return 0
        return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM warroom_schema"))

    async def _migrate(self) -> None:
        known = migrations()
        async with self._transaction() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            current = await self._version(conn)
            if current > len(known):
                raise SchemaTooNew(
                    f"the database {_safe_address(self.dsn)} has schema version {current}, but this "
                    f"Warroom knows only up to {len(known)}: upgrade Warroom (or use another database)")
            if current == 0:
                await conn.execute("CREATE TABLE warroom_schema (version INTEGER NOT NULL)")
                await conn.execute("INSERT INTO warroom_schema VALUES (0)")
            for version, _name, sql in known:
                if version > current:
                    await conn.execute(sql)
                    await conn.execute("UPDATE warroom_schema SET version = $1", version)

    # ------------------------------------------------------------------ games

    @_retrying
    async def create_game(self, new: NewGame, *, now: datetime) -> GameRecord:
        stored = self.snapshots.stored(None, None, new.snapshot, new.apart)
        try:
            async with self._transaction() as conn:
                game_id = await conn.fetchval(
                    "INSERT INTO games (channel_id, guild_id, kind, status, host_id, options,"
                    " version, snapshot, parts, created_at, updated_at, uid, dice_key, dice_positions)"
                    " VALUES ($1, $2, $3, 'open', $4, $5, 1, $6, $7, $8, $8, $9, $10, $11) RETURNING id",
                    new.channel_id, new.guild_id, new.kind, new.host_id, dumps(new.options),
                    stored.text, stored.parts, _time(now), new.uid, new.dice_key,
                    dumps(dict(new.dice_positions)))
                await self._write_seats(conn, int(game_id), new.seats)
                await self._append(conn, int(game_id), [(1, new.first)], now)
                row = await self._game_row(conn, int(game_id))
        except asyncpg.exceptions.UniqueViolationError:
            # A first try whose answer was lost (the connection dropped after COMMIT) may
            # have stored this very game (same uid): then it exists because it was made.
            async with self._connection() as conn:
                made = await conn.fetchrow(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.channel_id = $1"
                                           " AND g.status IN ('open', 'active') AND g.uid = $2",
                                           new.channel_id, new.uid)
            if made is None or not new.uid:
                raise GameExists(new.channel_id) from None
            return self._record(made)
        self.snapshots.put(int(game_id), 1, new.snapshot, stored.digest, stored.names)
        return self._record(row)

    @_retrying
    async def live_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.channel_id = $1"
            " AND g.status IN ('open', 'active')", channel_id)

    @_retrying
    async def game(self, game_id: int) -> GameRecord:
        async with self._connection() as conn:
            return await self._game(conn, game_id)

    @_retrying
    async def live_games(self) -> list[GameRecord]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status IN ('open', 'active') ORDER BY g.id")
        return [self._record(r) for r in rows]

    @_retrying
    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The newest game of a channel, finished or not (for looking back)."""
        return await self._one_game(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.channel_id = $1 ORDER BY g.id DESC LIMIT 1",
            channel_id)

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
        least one), so every log row's ``seq`` is the version it produced.

        If the connection is lost, the game is looked up again: a commit that was stored
        (the answer got lost) returns the stored game; one that was not is tried again."""
        lost = False
        for wait in (*RETRY_WAITS_S, None):
            try:
                return await self._commit(game_id, expected_version=expected_version, update=update,
                                          records=records, now=now)
            except VersionConflict:
                # After a lost answer, "conflict" may be our own commit, stored the first time.
                try:
                    stored = await self._stored_commit(game_id, expected_version, max(1, len(records)),
                                                       records) if lost else None
                except LOST as err:
                    raise DatabaseUnavailable(str(err)) from err
                if stored is None:
                    raise
                return stored
            except LOST as err:
                lost = True
                log.warning("database connection lost while committing game %s (%s)", game_id, err)
                if wait is None:
                    raise DatabaseUnavailable(str(err)) from err
                await asyncio.sleep(wait)
                try:
                    stored = await self._stored_commit(game_id, expected_version, max(1, len(records)),
                                                       records)
                except LOST:
                    continue
                if stored is not None:
                    return stored
        raise AssertionError("unreachable")

    async def _stored_commit(self, game_id: int, expected_version: int, bump: int,
                             records: Sequence[NewOrder]) -> GameRecord | None:
        """The game, if a commit from ``expected_version`` with these rows is stored."""
        async with self._connection() as conn:
            game = await self._game(conn, game_id)
            if game.version != expected_version + bump:
                return None
            rows = await conn.fetch("SELECT kind, seat, text FROM orders WHERE game_id = $1 AND seq > $2"
                                    " ORDER BY seq", game_id, expected_version)
        if [(r["kind"], r["seat"], r["text"]) for r in rows] != [(r.kind, r.seat, r.text) for r in records]:
            return None
        return game

    async def _commit(
        self,
        game_id: int,
        *,
        expected_version: int,
        update: GameUpdate,
        records: Sequence[NewOrder],
        now: datetime,
    ) -> GameRecord:
        bump = max(1, len(records))
        stored = (None if update.snapshot is None
                  else self.snapshots.stored(game_id, expected_version, update.snapshot, update.apart))
        columns = update_columns(update, now, _time, None if stored is None else (stored.text, stored.parts))
        sets = ", ".join(f"{column} = ${i}" for i, (column, _) in enumerate(columns, 4))
        async with self._transaction() as conn:
            status = await conn.execute(
                f"UPDATE games SET version = version + $3, {sets} WHERE id = $1 AND version = $2",
                game_id, expected_version, bump, *(value for _, value in columns))
            if status != "UPDATE 1":
                raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
            if update.seats is not None:
                await conn.execute("DELETE FROM seats WHERE game_id = $1", game_id)
                await self._write_seats(conn, game_id, update.seats)
            await self._append(conn, game_id,
                               [(expected_version + i, r) for i, r in enumerate(records, 1)], now)
            row = await self._game_row(conn, game_id)
        # Only once stored: a commit whose COMMIT failed must not leave its snapshot
        # cached under a version another writer then makes.
        self.snapshots.committed(game_id, expected_version, expected_version + bump, update.snapshot, stored)
        return self._record(row)

    @_retrying
    async def mark_reminded(self, game_id: int, *, version: int, now: datetime) -> bool:
        """Note a reminder without changing the game's version, only if the game is
        still at ``version``."""
        async with self._connection() as conn:
            status = await conn.execute(
                "UPDATE games SET reminded_at = $1 WHERE id = $2 AND version = $3",
                _time(now), game_id, version)
        return bool(status == "UPDATE 1")

    @_retrying
    async def orders(self, game_id: int, *, since: int = 0) -> list[OrderRecord]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT * FROM orders WHERE game_id = $1 AND seq > $2 ORDER BY seq", game_id, since)
        return [order_record(r, _as_time) for r in rows]

    # ------------------------------------------------------------------ players, settings

    @_retrying
    async def remember_player(self, user_id: int, name: str, now: datetime) -> None:
        if self.seen.fresh(user_id, name, now):
            return
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO players (id, name, first_seen, last_seen) VALUES ($1, $2, $3, $3)"
                " ON CONFLICT (id) DO UPDATE SET name = excluded.name, last_seen = excluded.last_seen",
                user_id, name, _time(now))
        self.seen.wrote(user_id, name, now)

    @_retrying
    async def player_name(self, user_id: int) -> str | None:
        async with self._connection() as conn:
            name = await conn.fetchval("SELECT name FROM players WHERE id = $1", user_id)
        return str(name) if name is not None else None

    @_retrying
    async def player_names(self) -> dict[int, str]:
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT id, name FROM players")
        return {int(r["id"]): str(r["name"]) for r in rows}

    @_retrying
    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self._set_setting("guild_settings", "guild_id", guild_id, key, value)

    @_retrying
    async def guild_setting(self, guild_id: int, key: str) -> Any:
        return await self._setting("guild_settings", "guild_id", guild_id, key)

    @_retrying
    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None:
        await self._set_setting("user_settings", "user_id", user_id, key, value)

    @_retrying
    async def user_setting(self, user_id: int, key: str) -> Any:
        return await self._setting("user_settings", "user_id", user_id, key)

    async def _set_setting(self, table: str, column: str, owner: int, key: str, value: Any) -> None:
        async with self._connection() as conn:
            if value is None:
                await conn.execute(f"DELETE FROM {table} WHERE {column} = $1 AND key = $2", owner, key)
            else:
                await conn.execute(
                    f"INSERT INTO {table} ({column}, key, value) VALUES ($1, $2, $3)"
                    f" ON CONFLICT ({column}, key) DO UPDATE SET value = excluded.value",
                    owner, key, dumps(value))

    async def _setting(self, table: str, column: str, owner: int, key: str) -> Any:
        async with self._connection() as conn:
            text = await conn.fetchval(
                f"SELECT value FROM {table} WHERE {column} = $1 AND key = $2", owner, key)
        return json.loads(text) if text is not None else None

    # ------------------------------------------------------------------ documents

    @_retrying
    async def document(self, kind: str, key: str) -> Document | None:
        async with self._connection() as conn:
            row = await conn.fetchrow(
                "SELECT version, data FROM documents WHERE kind = $1 AND key = $2", kind, key)
        return Document(kind, key, int(row["version"]), json.loads(row["data"])) if row else None

    @_retrying
    async def documents(self, kind: str, prefix: str = "") -> list[Document]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT key, version, data FROM documents WHERE kind = $1 AND left(key, $2) = $3"
                " ORDER BY key COLLATE \"C\"", kind, len(prefix), prefix)
        return [Document(kind, r["key"], int(r["version"]), json.loads(r["data"])) for r in rows]

    @_retrying
    async def put_document(self, kind: str, key: str, data: Any, *, expected_version: int,
                           now: datetime) -> Document:
        """Write ``data`` only if the document is at ``expected_version`` (0: it must not
        exist yet); its version then goes up by one.  :class:`VersionConflict` otherwise."""
        async with self._connection() as conn:
            if expected_version == 0:
                status = await conn.execute(
                    "INSERT INTO documents VALUES ($1, $2, 1, $3, $4) ON CONFLICT DO NOTHING",
                    kind, key, dumps(data), _time(now))
                if status != "INSERT 0 1":
                    raise VersionConflict(f"document {kind}/{key} already exists")
            else:
                status = await conn.execute(
                    "UPDATE documents SET version = version + 1, data = $1, updated_at = $2"
                    " WHERE kind = $3 AND key = $4 AND version = $5",
                    dumps(data), _time(now), kind, key, expected_version)
                if status != "UPDATE 1":
                    raise VersionConflict(f"document {kind}/{key} is no longer at version {expected_version}")
        return Document(kind, key, expected_version + 1, data)

    # ------------------------------------------------------------------ claims

    @_retrying
    async def claim(self, name: str, holder: str, *, now: datetime, ttl: timedelta) -> bool:
        """Take ``name`` for ``holder`` unless another holder's claim is still running."""
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM claims WHERE until < $1", now - timedelta(days=1))
            got = await conn.fetchval(
                "INSERT INTO claims (name, holder, until) VALUES ($1, $2, $3)"
                " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until"
                " WHERE claims.until <= $4 OR claims.holder = excluded.holder RETURNING holder",
                name, holder, now + ttl, now)
        return got is not None

    @_retrying
    async def release(self, name: str, holder: str) -> None:
        async with self._connection() as conn:
            await conn.execute("DELETE FROM claims WHERE name = $1 AND holder = $2", name, holder)

    # ------------------------------------------------------------------ helpers

    async def _one_game(self, sql: str, *args: Any) -> GameRecord | None:
        async with self._connection() as conn:
            row = await conn.fetchrow(sql, *args)
        return self._record(row) if row else None

    async def _game(self, conn: asyncpg.Connection, game_id: int) -> GameRecord:
        return self._record(await self._game_row(conn, game_id))

    @staticmethod
    async def _game_row(conn: asyncpg.Connection, game_id: int) -> asyncpg.Record:
        row = await conn.fetchrow(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = $1", game_id)
        if row is None:
            raise KeyError(f"no game {game_id}")
        return row

    def _record(self, row: asyncpg.Record) -> GameRecord:
        return game_record(
            row, seats={seat: int(player) for seat, player in json.loads(row["seats_json"] or "{}").items()},
            snapshot=self.snapshots.get(int(row["id"]), int(row["version"]), row["snapshot"], row["parts"]),
            dice_key=bytes(row["dice_key"]), read_time=_as_time)

    @staticmethod
    async def _write_seats(conn: asyncpg.Connection, game_id: int, seats: Mapping[str, int]) -> None:
        if seats:
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, player_id) VALUES ($1, $2, $3)",
                [(game_id, seat, player_id) for seat, player_id in seats.items()])

    @staticmethod
    async def _append(conn: asyncpg.Connection, game_id: int,
                      rows: Sequence[tuple[int, NewOrder]], now: datetime) -> None:
        if rows:
            await conn.executemany(
                "INSERT INTO orders (game_id, seq, kind, actor_id, seat, text, events, dice, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [(game_id, seq, *order_values(r), _time(now)) for seq, r in rows])

