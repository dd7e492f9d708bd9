"""Schema 2: dice bound to seats, canonical orders, timeouts as their own rows.

- games gain a public ``uid``, a secret ``dice_key`` (the key of the game's dice
  streams), per-seat ``dice_positions`` and a pending ``undo_request``; ``carry_dice`` is
  no longer used (kept, as SQLite drops columns only by rebuilding tables).
- The order log is rebuilt once: each order's text becomes its canonical form (the
  engine's ``format_order`` of the order as it was read, with the path actually taken),
  so a replay never again depends on today's defaults; a system seat's ``timeout X``
  order becomes a ``timeout`` row with text ``X``; dice become ``[value, sides]`` (every
  die logged before this version was a d6).  The log refuses UPDATE and DELETE.
- Server settings become key/value rows; players may have settings too (direct
  messages).
"""

from __future__ import annotations

import json
import logging
from typing import Any

import aiosqlite

from engine.core.dice import replay_dice
from engine.core.errors import PlayerError

log = logging.getLogger("warroom.storage")


def _canonical_texts(kind: str, options: dict[str, Any], rows: list[aiosqlite.Row]) -> dict[int, tuple[str, str]]:
    """seq -> (kind, text) for every order row, replayed with the code of this version."""
    from bot.games import load_games
    from engine.core.game import rules_for

    load_games()
    out: dict[int, tuple[str, str]] = {}
    for row in rows:
        if row["kind"] == "order" and row["seat"] == "system":
            out[row["seq"]] = ("timeout", row["text"].removeprefix("timeout").strip())
    try:
        rules = rules_for(kind)
    except PlayerError:
        return out
    stack: list[tuple[int, Any]] = []
    try:
        for row in rows:
            dice = replay_dice(json.loads(row["dice"]))
            if row["kind"] == "new":
                state, _ = rules.new_game(options, dice)
                stack = [(row["seq"], state)]
            elif row["kind"] == "order" and stack:
                state = stack[-1][1]
                if row["seat"] == "system":
                    new, _ = rules.timeout(state, out[row["seq"]][1], dice)
                else:
                    order = rules.parse_order(state, row["seat"], row["text"])
                    out[row["seq"]] = ("order", rules.format_order(state, order))
                    new, _ = rules.apply(state, order, dice)
                stack.append((row["seq"], new))
            elif row["kind"] == "undo":
                target = int(row["text"].split()[-1])
                stack = [entry for entry in stack if entry[0] <= target]
    except Exception:  # an old game this version cannot replay keeps its texts
        log.warning("game of kind %s: order texts kept as typed (replay failed)", kind, exc_info=True)
    return out


async def upgrade(db: aiosqlite.Connection) -> None:
    for column in ("uid TEXT NOT NULL DEFAULT ''", "dice_key TEXT NOT NULL DEFAULT ''",
                   "dice_positions TEXT NOT NULL DEFAULT '{}'", "undo_request TEXT",
                   "result TEXT"):
        await db.execute(f"ALTER TABLE games ADD COLUMN {column}")
    await db.execute("UPDATE games SET uid = lower(hex(randomblob(8))),"
                     " dice_key = lower(hex(randomblob(32)))")

    await db.execute("""
        CREATE TABLE orders_v2 (
            game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq        INTEGER NOT NULL,
            kind       TEXT    NOT NULL
                       CHECK (kind IN ('new', 'order', 'timeout', 'undo', 'seat', 'admin')),
            actor_id   INTEGER,
            seat       TEXT    NOT NULL,
            text       TEXT    NOT NULL,
            events     TEXT    NOT NULL,
            dice       TEXT    NOT NULL,
            created_at TEXT    NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""")
    async with db.execute("SELECT id, kind, options FROM games ORDER BY id") as cur:
        games = list(await cur.fetchall())
    for game in games:
        async with db.execute("SELECT * FROM orders WHERE game_id = ? ORDER BY seq", (game["id"],)) as cur:
            rows = list(await cur.fetchall())
        texts = _canonical_texts(game["kind"], json.loads(game["options"]), rows)
        for row in rows:
            kind, text = texts.get(row["seq"], (row["kind"], row["text"]))
            dice = [[int(v), 6] if not isinstance(v, list) else v for v in json.loads(row["dice"])]
            await db.execute(
                "INSERT INTO orders_v2 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row["game_id"], row["seq"], kind, row["actor_id"],
                 "" if kind == "timeout" else row["seat"], text, row["events"],
                 json.dumps(dice, separators=(",", ":")), row["created_at"]))
    await db.execute("DROP TABLE orders")
    await db.execute("ALTER TABLE orders_v2 RENAME TO orders")
    await db.execute("CREATE TRIGGER orders_append_only_update BEFORE UPDATE ON orders"
                     " BEGIN SELECT RAISE(ABORT, 'the order log is append-only'); END")
    await db.execute("CREATE TRIGGER orders_append_only_delete BEFORE DELETE ON orders"
                     " BEGIN SELECT RAISE(ABORT, 'the order log is append-only'); END")

    await db.execute("""
        CREATE TABLE guild_settings_v2 (
            guild_id INTEGER NOT NULL,
            key      TEXT    NOT NULL,
            value    TEXT    NOT NULL,
            PRIMARY KEY (guild_id, key)
        )""")
    await db.execute("INSERT INTO guild_settings_v2 SELECT guild_id, 'moderator_role', moderator_role_id"
                     " FROM guild_settings WHERE moderator_role_id IS NOT NULL")
    await db.execute("DROP TABLE guild_settings")
    await db.execute("ALTER TABLE guild_settings_v2 RENAME TO guild_settings")
    await db.execute("""
        CREATE TABLE user_settings (
            user_id INTEGER NOT NULL,
            key     TEXT    NOT NULL,
            value   TEXT    NOT NULL,
            PRIMARY KEY (user_id, key)
        )""")
