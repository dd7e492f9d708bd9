"""The repository interface every storage backend implements, and its records.

A game row holds kind, seats, options, status, a version and a snapshot of the engine
state; the order log is append-only (``new`` — the game's creation with the dice it
used —, ``order``, ``undo``, ``seat``, ``admin`` rows).  A write succeeds only on the
version it read (:class:`VersionConflict` otherwise), so two processes can never both
apply an order to the same version.  Games never expire on their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence


class VersionConflict(Exception):
    """The game changed since it was read; nothing was written."""


class GameExists(Exception):
    """The channel already has a game that is not over."""


# Game status: 'open' (waiting for players), 'active', 'finished', 'aborted'.
LIVE_STATUSES = ("open", "active")


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
    created_at: str
    updated_at: str
    waiting_since: str | None = None  # when the decision we wait for began
    reminded_at: str | None = None
    carry_dice: tuple[int, ...] = ()  # dice of undone orders, used before fresh ones

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES

    def seat_of(self, user_id: int) -> list[str]:
        return [seat for seat, uid in self.seats.items() if uid == user_id]


@dataclass(frozen=True)
class NewOrder:
    """An order-log row to append."""

    kind: str  # 'new' | 'order' | 'undo' | 'seat' | 'admin'
    seat: str  # the seat that acted ('system' for timeouts, '' for admin rows)
    text: str
    actor_id: int | None = None
    events: Sequence[Mapping[str, Any]] = ()
    dice: Sequence[int] = ()


@dataclass(frozen=True)
class OrderRecord(NewOrder):
    seq: int = 0
    created_at: str = ""


@dataclass(frozen=True)
class GameUpdate:
    """What a commit changes on the game row (None = unchanged)."""

    snapshot: Mapping[str, Any] | None = None
    status: str | None = None
    seats: Mapping[str, int] | None = None
    waiting_since: str | None = None
    reminded_at: str | None = None
    carry_dice: Sequence[int] | None = None
    clear_waiting: bool = False
    clear_reminded: bool = False
    options: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


class Repository(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

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
    ) -> GameRecord: ...

    async def live_game(self, channel_id: int) -> GameRecord | None: ...

    async def last_game(self, channel_id: int) -> GameRecord | None: ...

    async def game(self, game_id: int) -> GameRecord: ...

    async def commit(
        self,
        game_id: int,
        *,
        expected_version: int,
        update: GameUpdate,
        record: NewOrder | None,
        now: str,
    ) -> GameRecord: ...

    async def orders(self, game_id: int) -> list[OrderRecord]: ...

    async def live_games(self) -> list[GameRecord]: ...

    async def remember_player(self, user_id: int, name: str, now: str) -> None: ...

    async def player_name(self, user_id: int) -> str | None: ...

    async def player_names(self) -> dict[int, str]: ...

    async def set_moderator_role(self, guild_id: int, role_id: int | None) -> None: ...

    async def moderator_role(self, guild_id: int) -> int | None: ...
