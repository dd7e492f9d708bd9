"""What both storage backends write and read the same way: the JSON text of a column,
the columns a commit changes, an order-log row, and a game row decoded into its
:class:`GameRecord`.  Each backend keeps only its SQL, its placeholders and its way of
storing times, seats and the dice key.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Callable, Mapping, Protocol

from bot.storage.repository import GameRecord, GameUpdate, NewOrder, OrderRecord
from engine.core.dice import dice_from_json, dice_json

# How a backend stores a time (SQLite: ISO text; PostgreSQL: a rounded timestamptz).
StoreTime = Callable[[datetime], Any]
ReadTime = Callable[[Any], datetime | None]


class Row(Protocol):
    """A fetched row, read by column name (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: str, /) -> Any: ...


def dumps(value: Any) -> str:
    """The JSON text of a column (compact, keys sorted: equal values, equal text)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _loads_or_none(text: str | None) -> Any:
    return json.loads(text) if text else None


def update_columns(update: GameUpdate, now: datetime, time: StoreTime,
                   snapshot: tuple[str, str | None] | None = None) -> list[tuple[str, Any]]:
    """(column, value) pairs a commit sets besides the version (None = SQL NULL).  Every
    commit moves ``updated_at`` and replaces the undo request (any change ends one).
    ``snapshot`` is the text of the ``snapshot`` column and of the ``parts`` column (None:
    unchanged) when the update has a snapshot (bot/storage/snapshots.py)."""
    columns: list[tuple[str, Any]] = [
        ("updated_at", time(now)),
        ("undo_request", dumps(update.undo_request) if update.undo_request else None),
    ]
    if snapshot is not None:
        columns.append(("snapshot", snapshot[0]))
        if snapshot[1] is not None:
            columns.append(("parts", snapshot[1]))
    if update.status is not None:
        columns.append(("status", update.status))
    if update.options is not None:
        columns.append(("options", dumps(update.options)))
    if update.clear_waiting:
        columns.append(("waiting_since", None))
    elif update.waiting_since is not None:
        columns.append(("waiting_since", time(update.waiting_since)))
    if update.clear_reminded:
        columns.append(("reminded_at", None))
    elif update.reminded_at is not None:
        columns.append(("reminded_at", time(update.reminded_at)))
    if update.result is not None:
        columns.append(("result", dumps(update.result)))
    if update.dice_positions is not None:
        columns.append(("dice_positions", dumps(dict(update.dice_positions))))
    return columns


def order_values(record: NewOrder) -> tuple[str, int | None, str, str, str, str]:
    """kind, actor_id, seat, text, events, dice of an order-log row to insert."""
    return (record.kind, record.actor_id, record.seat, record.text, dumps(list(record.events)),
            dumps(dice_json(record.dice)))


def order_record(row: Row, read_time: ReadTime) -> OrderRecord:
    return OrderRecord(
        kind=row["kind"], seat=row["seat"], text=row["text"], actor_id=row["actor_id"],
        events=tuple(json.loads(row["events"])), dice=dice_from_json(json.loads(row["dice"])),
        seq=row["seq"], created_at=read_time(row["created_at"]),
    )


def game_record(row: Row, *, seats: Mapping[str, int], snapshot: Mapping[str, Any],
                dice_key: bytes, read_time: ReadTime) -> GameRecord:
    """A game row (and its seats, its snapshot already parsed) as a :class:`GameRecord`."""
    created = read_time(row["created_at"])
    updated = read_time(row["updated_at"])
    assert created is not None and updated is not None
    return GameRecord(
        id=int(row["id"]),
        channel_id=int(row["channel_id"]),
        guild_id=row["guild_id"],
        kind=row["kind"],
        status=row["status"],
        host_id=int(row["host_id"]),
        options=json.loads(row["options"]),
        seats=seats,
        version=int(row["version"]),
        snapshot=snapshot,
        created_at=created,
        updated_at=updated,
        waiting_since=read_time(row["waiting_since"]),
        reminded_at=read_time(row["reminded_at"]),
        uid=row["uid"],
        dice_key=dice_key,
        dice_positions=json.loads(row["dice_positions"]),
        undo_request=_loads_or_none(row["undo_request"]),
        result=_loads_or_none(row["result"]),
    )
