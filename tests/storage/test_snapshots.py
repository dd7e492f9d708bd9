"""Each backend parses a game's snapshot once per version: the snapshot a commit wrote is
kept as given, reads at a known version reuse it, and a change made by another process
(another connection) is read back from the database."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.storage.repository import GameUpdate, NewGame, NewOrder
from tests.storage.conftest import Open

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)


async def test_a_snapshot_is_parsed_once_per_version(backend: Open) -> None:
    repo, other = await backend(), await backend()
    await repo.remember_player(1, "alice", NOW)
    game = await repo.create_game(NewGame(
        channel_id=1, guild_id=None, kind="race", host_id=1, options={}, seats={"red": 1},
        snapshot={"turn": 0}, first=NewOrder(kind="new", seat="", text="{}"), uid="u", dice_key=b"k"),
        now=NOW)
    parsed = repo.snapshots.parsed  # type: ignore[attr-defined]
    written = {"turn": 1, "board": list(range(50))}
    stored = await repo.commit(game.id, expected_version=1, update=GameUpdate(snapshot=written),
                               records=[NewOrder(kind="order", seat="red", text="roll")], now=NOW)
    assert stored.snapshot is written  # kept as written, not parsed back
    for _ in range(3):
        again = await repo.live_game(1)
        assert again is not None and again.snapshot is written
    assert repo.snapshots.parsed == parsed  # type: ignore[attr-defined]
    # Another process changes the game: the first reads the new version from the database.
    await other.commit(game.id, expected_version=2, update=GameUpdate(snapshot={"turn": 2}),
                       records=[NewOrder(kind="order", seat="red", text="roll")], now=NOW)
    fresh = await repo.game(game.id)
    assert fresh.snapshot == {"turn": 2} and fresh.version == 3
    assert repo.snapshots.parsed == parsed + 1  # type: ignore[attr-defined]


async def test_a_commit_that_leaves_the_snapshot_alone_does_not_parse_it_again(backend: Open) -> None:
    """A seat change, a setting or an undo request moves the version, not the snapshot:
    the parsed one is carried to the new version."""
    repo = await backend()
    await repo.remember_player(1, "alice", NOW)
    await repo.remember_player(2, "bob", NOW)
    game = await repo.create_game(NewGame(
        channel_id=1, guild_id=None, kind="race", host_id=1, options={}, seats={"red": 1},
        snapshot={"turn": 0}, first=NewOrder(kind="new", seat="", text="{}"), uid="u", dice_key=b"k"),
        now=NOW)
    first = await repo.game(game.id)
    parsed = repo.snapshots.parsed  # type: ignore[attr-defined]
    stored = await repo.commit(game.id, expected_version=1, update=GameUpdate(seats={"red": 1, "blue": 2}),
                               records=[NewOrder(kind="seat", seat="blue", text="join blue")], now=NOW)
    assert stored.version == 2 and stored.snapshot is first.snapshot
    again = await repo.game(game.id)
    assert again.snapshot is first.snapshot and again.seats == {"blue": 2, "red": 1}
    assert repo.snapshots.parsed == parsed  # type: ignore[attr-defined]
