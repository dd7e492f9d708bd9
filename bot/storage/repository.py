"""The repository interface every storage backend implements, and its records.

A game row holds kind, seats, options, status, a version and a snapshot of the engine
state; the order log is append-only (``new`` — the game's creation with the dice it
used —, ``order``, ``timeout``, ``undo``, ``seat``, ``admin`` rows).  A write succeeds
only on the version it read (:class:`VersionConflict` otherwise), so two processes can
never both apply a change to the same version.  Games never expire on their own.

Times are timezone-aware ``datetime`` values; each backend stores them its own way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Mapping, Protocol, Sequence

from engine.core.dice import Die


class VersionConflict(Exception):
    """The game changed since it was read; nothing was written."""


class GameExists(Exception):
    """The channel already has a game that is not over."""


class SchemaTooNew(Exception):
    """The database was written by a newer Warroom than this one."""


# Game status: 'open' (waiting for players), 'active', 'finished', 'aborted'.
LIVE_STATUSES = ("open", "active")
ORDER_KINDS = ("new", "order", "timeout", "undo", "seat", "admin")


@dataclass(frozen=True)
class GameRecord:
    id: int
    channel_id: int
    guild_id: int | None
    kind: str
    status: str
    host_id: int
    options: Mapping[str, Any]
    seats: Mapping[str, int]  # seat name -> user id (only taken seats)
    version: int
    snapshot: Mapping[str, Any]
    created_at: datetime
    updated_at: datetime
    waiting_since: datetime | None = None  # when the decision we wait for began
    reminded_at: datetime | None = None
    # The public id of the game (in exports and dice labels) and its secret dice key.
    uid: str = ""
    dice_key: bytes = b""
    # Per seat: how many dice of that seat's stream the orders in effect consumed.
    dice_positions: Mapping[str, int] = field(default_factory=dict)
    # An undo waiting for the other side's answer (see bot/undo.py), or None.
    undo_request: Mapping[str, Any] | None = None
    # How the game ended when the platform decided it (a concession, a forfeit on
    # timeout): {"winner": team or None, "reason": text}; None otherwise.
    result: Mapping[str, Any] | None = None

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES

    def seat_of(self, user_id: int) -> list[str]:
        return [seat for seat, uid in self.seats.items() if uid == user_id]


@dataclass(frozen=True)
class NewOrder:
    """An order-log row to append."""

    kind: str  # one of ORDER_KINDS
    seat: str  # the seat that acted ('' for the host, seats and admin rows)
    text: str
    actor_id: int | None = None
    events: Sequence[Mapping[str, Any]] = ()
    dice: Sequence[Die] = ()


@dataclass(frozen=True)
class OrderRecord(NewOrder):
    seq: int = 0
    created_at: datetime | None = None


@dataclass(frozen=True)
class GameUpdate:
    """What a commit changes on the game row (None = unchanged)."""

    snapshot: Mapping[str, Any] | None = None
    status: str | None = None
    seats: Mapping[str, int] | None = None
    options: Mapping[str, Any] | None = None
    waiting_since: datetime | None = None
    clear_waiting: bool = False
    reminded_at: datetime | None = None
    clear_reminded: bool = False
    dice_positions: Mapping[str, int] | None = None
    # The undo request to keep (None clears it: any change ends a request).
    undo_request: Mapping[str, Any] | None = None
    result: Mapping[str, Any] | None = None
    # Keys of ``snapshot`` stored apart, written only when they change
    # (``GameRules.snapshot_parts``; see bot/storage/snapshots.py).
    apart: tuple[str, ...] = ()


@dataclass(frozen=True)
class NewGame:
    channel_id: int
    guild_id: int | None
    kind: str
    host_id: int
    options: Mapping[str, Any]
    seats: Mapping[str, int]
    snapshot: Mapping[str, Any]
    first: NewOrder
    uid: str
    dice_key: bytes
    dice_positions: Mapping[str, int] = field(default_factory=dict)
    apart: tuple[str, ...] = ()  # as in GameUpdate


@dataclass(frozen=True)
class Document:
    """A versioned JSON document (a league, a rating table, a roll seed…)."""

    kind: str
    key: str
    version: int
    data: Any


class Repository(Protocol):
    """Storage of games, their order logs, players and server settings."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    async def create_game(self, new: NewGame, *, now: datetime) -> GameRecord: ...

    async def live_game(self, channel_id: int) -> GameRecord | None: ...

    async def last_game(self, channel_id: int) -> GameRecord | None: ...

    async def game(self, game_id: int) -> GameRecord: ...

    async def commit(
        self,
        game_id: int,
        *,
        expected_version: int,
        update: GameUpdate,
        records: Sequence[NewOrder],
        now: datetime,
    ) -> GameRecord: ...

    async def mark_reminded(self, game_id: int, *, version: int, now: datetime) -> bool: ...

    async def orders(self, game_id: int, *, since: int = 0) -> list[OrderRecord]: ...

    async def live_games(self) -> list[GameRecord]: ...

    async def remember_player(self, user_id: int, name: str, now: datetime) -> None: ...

    async def player_name(self, user_id: int) -> str | None: ...

    async def player_names(self) -> dict[int, str]: ...

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None: ...

    async def guild_setting(self, guild_id: int, key: str) -> Any: ...

    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None: ...

    async def user_setting(self, user_id: int, key: str) -> Any: ...

    async def document(self, kind: str, key: str) -> Document | None: ...

    async def documents(self, kind: str, prefix: str = "") -> list[Document]: ...

    async def put_document(self, kind: str, key: str, data: Any, *, expected_version: int,
                           now: datetime) -> Document: ...

    async def claim(self, name: str, holder: str, *, now: datetime, ttl: timedelta) -> bool:
        """Take the claim ``name`` for ``holder`` until ``now + ttl`` if nobody else holds it
        (or their claim expired); True when ``holder`` holds it now.  Several processes on
        one database use this so a piece of scheduled work is done by one of them only."""
        ...

    async def release(self, name: str, holder: str) -> None:
        """Give back a claim ``holder`` holds (nothing happens otherwise)."""
        ...
