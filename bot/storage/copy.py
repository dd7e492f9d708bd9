"""Moving a deployment from SQLite to PostgreSQL (``warroom migrate``): every game with its
seats, snapshot, order log (events, dice, times), every player, server and user setting
and versioned document, copied row by row in one PostgreSQL transaction, then checked
by reading both databases back through the repository.

The target must be empty (a fresh database; the schema is created by the migrations);
game ids and log sequence numbers are kept, so exports and dice labels stay valid.
Claims (leases of scheduled work) are not copied: they are only good for minutes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Callable

from bot.storage import describe
from bot.storage.postgres import PostgresRepository
from bot.storage.repository import GameRecord
from bot.storage.sqlite import SqliteRepository, parse_time


class CopyRefused(Exception):
    """The copy cannot be made (wrong kinds of database, a target that is not empty)."""


@dataclass(frozen=True)
class Copied:
    games: int
    orders: int
    players: int
    settings: int
    documents: int


async def copy_sqlite_to_postgres(source: str, target: str,
                                  progress: Callable[[str], None] = lambda _: None) -> Copied:
    if describe(source)[0] != "sqlite" or describe(target)[0] != "postgresql":
        raise CopyRefused("warroom migrate copies a SQLite database (--from sqlite:///PATH) into "
                          "PostgreSQL (--to postgresql://…)")
    path = describe(source)[1]
    src = SqliteRepository(path)
    dst = PostgresRepository(describe(target)[1])
    await src.open()
    try:
        await dst.open()
        try:
            copied = await _copy(src, dst, progress)
            await _check(src, dst)
            return copied
        finally:
            await dst.close()
    finally:
        await src.close()


async def _rows(src: SqliteRepository, sql: str) -> list[Any]:
    async with src.db.execute(sql) as cur:
        return list(await cur.fetchall())


async def _copy(src: SqliteRepository, dst: PostgresRepository, progress: Callable[[str], None]) -> Copied:
    players = await _rows(src, "SELECT * FROM players ORDER BY id")
    games = await _rows(src, "SELECT * FROM games ORDER BY id")
    seats = await _rows(src, "SELECT * FROM seats ORDER BY game_id, seat")
    orders = await _rows(src, "SELECT * FROM orders ORDER BY game_id, seq")
    guild = await _rows(src, "SELECT * FROM guild_settings")
    user = await _rows(src, "SELECT * FROM user_settings")
    documents = await _rows(src, "SELECT * FROM documents ORDER BY kind, key")
    async with dst.pool.acquire() as conn:
        async with conn.transaction():
            for table in ("games", "players", "guild_settings", "user_settings", "documents"):
                if await conn.fetchval(f"SELECT count(*) FROM {table}"):
                    raise CopyRefused(f"the target database is not empty (its {table} table has rows): "
                                      "migrate into a fresh database")
            await conn.executemany(
                "INSERT INTO players VALUES ($1, $2, $3, $4)",
                [(r["id"], r["name"], parse_time(r["first_seen"]), parse_time(r["last_seen"])) for r in players])
            progress(f"{len(players)} players")
            await conn.executemany(
                "INSERT INTO games (id, channel_id, guild_id, kind, status, host_id, options, version,"
                " snapshot, created_at, updated_at, waiting_since, reminded_at, uid, dice_key,"
                " dice_positions, undo_request, result, parts)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
                [(r["id"], r["channel_id"], r["guild_id"], r["kind"], r["status"], r["host_id"], r["options"],
                  r["version"], r["snapshot"], parse_time(r["created_at"]), parse_time(r["updated_at"]),
                  parse_time(r["waiting_since"]), parse_time(r["reminded_at"]), r["uid"], bytes.fromhex(r["dice_key"]),
                  r["dice_positions"], r["undo_request"], r["result"], r["parts"]) for r in games])
            await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'),"
                               " greatest((SELECT max(id) FROM games), 1))")
            await conn.executemany("INSERT INTO seats VALUES ($1, $2, $3)",
                                   [(r["game_id"], r["seat"], r["player_id"]) for r in seats])
            progress(f"{len(games)} games")
            await conn.executemany(
                "INSERT INTO orders VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [(r["game_id"], r["seq"], r["kind"], r["actor_id"], r["seat"], r["text"], r["events"],
                  r["dice"], parse_time(r["created_at"])) for r in orders])
            progress(f"{len(orders)} order-log rows")
            await conn.executemany("INSERT INTO guild_settings VALUES ($1, $2, $3)",
                                   [(r["guild_id"], r["key"], r["value"]) for r in guild])
            await conn.executemany("INSERT INTO user_settings VALUES ($1, $2, $3)",
                                   [(r["user_id"], r["key"], r["value"]) for r in user])
            progress(f"{len(guild) + len(user)} settings")
            await conn.executemany(
                "INSERT INTO documents VALUES ($1, $2, $3, $4, $5)",
                [(r["kind"], r["key"], r["version"], r["data"], parse_time(r["updated_at"])) for r in documents])
            progress(f"{len(documents)} documents")
    return Copied(len(games), len(orders), len(players), len(guild) + len(user), len(documents))


def _comparable(game: GameRecord) -> GameRecord:
    return replace(game, snapshot=json.loads(json.dumps(game.snapshot)))


async def _check(src: SqliteRepository, dst: PostgresRepository) -> None:
    """Read everything back through both repositories: it must be the same."""
    ids = [int(r["id"]) for r in await _rows(src, "SELECT id FROM games ORDER BY id")]
    for game_id in ids:
        a, b = await src.game(game_id), await dst.game(game_id)
        if _comparable(a) != _comparable(b):
            raise RuntimeError(f"game {game_id} differs after the copy")
        if await src.orders(game_id) != await dst.orders(game_id):
            raise RuntimeError(f"the order log of game {game_id} differs after the copy")
    if await src.player_names() != await dst.player_names():
        raise RuntimeError("the players differ after the copy")
    for r in await _rows(src, "SELECT DISTINCT kind FROM documents"):
        if await src.documents(r["kind"]) != await dst.documents(r["kind"]):
            raise RuntimeError(f"the {r['kind']} documents differ after the copy")
    for r in await _rows(src, "SELECT * FROM guild_settings"):
        if await dst.guild_setting(r["guild_id"], r["key"]) != json.loads(r["value"]):
            raise RuntimeError("a server setting differs after the copy")
    for r in await _rows(src, "SELECT * FROM user_settings"):
        if await dst.user_setting(r["user_id"], r["key"]) != json.loads(r["value"]):
            raise RuntimeError("a user setting differs after the copy")
