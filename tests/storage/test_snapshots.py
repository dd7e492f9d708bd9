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


# --------------------------------------------------------------------------- parts stored apart

async def _columns(repo: object, game_id: int) -> tuple[str, str | None]:
    """The raw ``snapshot`` and ``parts`` columns of a game row, read with SQL."""
    from bot.storage.postgres import PostgresRepository
    from bot.storage.sqlite import SqliteRepository

    if isinstance(repo, SqliteRepository):
        row = await repo._one("SELECT snapshot, parts FROM games WHERE id = ?", (game_id,))
    else:
        assert isinstance(repo, PostgresRepository)
        async with repo.pool.acquire() as conn:
            row = await conn.fetchrow("SELECT snapshot, parts FROM games WHERE id = $1", game_id)
    assert row is not None
    return row["snapshot"], row["parts"]


def _big_map(n: int) -> dict[str, object]:
    return {"name": f"map {n}", "terrain": [[q, r, "woods"] for q in range(20) for r in range(10)]}


async def test_parts_are_written_only_when_they_change_and_read_back_whole(backend: Open) -> None:
    repo, other = await backend(), await backend()
    await repo.remember_player(1, "alice", NOW)
    board = _big_map(1)
    cards = [{"key": "rifle", "cost": 4}]
    game = await repo.create_game(NewGame(
        channel_id=1, guild_id=None, kind="race", host_id=1, options={}, seats={"red": 1},
        snapshot={"turn": 0, "map": board, "cards": cards}, first=NewOrder(kind="new", seat="", text="{}"),
        uid="u", dice_key=b"k", apart=("map", "cards")), now=NOW)
    text, parts = await _columns(repo, game.id)
    assert parts is not None and '"map"' in parts and '"cards"' in parts
    assert '"map"' not in text and '"$parts"' in text and '"turn":0' in text
    written_before = repo.snapshots.parts_written  # type: ignore[attr-defined]
    version = game.version
    for turn in range(1, 4):  # the same part objects: the parts column is left alone
        stored = await repo.commit(game.id, expected_version=version, now=NOW,
                                   update=GameUpdate(snapshot={"turn": turn, "map": board, "cards": cards},
                                                     apart=("map", "cards")),
                                   records=[NewOrder(kind="order", seat="red", text="roll")])
        version = stored.version
        assert stored.snapshot == {"turn": turn, "map": board, "cards": cards}
    assert repo.snapshots.parts_written == written_before  # type: ignore[attr-defined]
    assert (await _columns(repo, game.id))[1] == parts
    # Another process (nothing cached) reads the whole snapshot.
    seen = await other.game(game.id)
    assert seen.snapshot == {"turn": 3, "map": board, "cards": cards} and seen.version == version
    # A copy equal to what is stored is not written either; a changed part is.
    stored = await other.commit(game.id, expected_version=version, now=NOW,
                                update=GameUpdate(snapshot={"turn": 4, "map": _big_map(1), "cards": cards},
                                                  apart=("map", "cards")),
                                records=[NewOrder(kind="order", seat="red", text="roll")])
    assert (await _columns(repo, game.id))[1] == parts
    stored = await other.commit(game.id, expected_version=stored.version, now=NOW,
                                update=GameUpdate(snapshot={"turn": 5, "map": _big_map(2), "cards": cards},
                                                  apart=("map", "cards")),
                                records=[NewOrder(kind="order", seat="red", text="roll")])
    assert (await _columns(repo, game.id))[1] != parts
    # The first process had the old parts cached: it reads the new ones.
    mine = await repo.game(game.id)
    assert mine.snapshot == {"turn": 5, "map": _big_map(2), "cards": cards}
    # ... and writing its old map back (an undo, say) stores it again.
    back = await repo.commit(game.id, expected_version=mine.version, now=NOW,
                             update=GameUpdate(snapshot={"turn": 6, "map": board, "cards": cards},
                                               apart=("map", "cards")),
                             records=[NewOrder(kind="order", seat="red", text="roll")])
    assert (await other.game(game.id)).snapshot == {"turn": 6, "map": board, "cards": cards}
    assert (await _columns(repo, game.id))[1] == parts and back.version == mine.version + 1


async def test_a_snapshot_without_parts_is_stored_whole(backend: Open) -> None:
    """A game that names no parts (and every row written before parts existed) keeps its
    whole snapshot in one column."""
    repo, other = await backend(), await backend()
    await repo.remember_player(1, "alice", NOW)
    game = await repo.create_game(NewGame(
        channel_id=1, guild_id=None, kind="race", host_id=1, options={}, seats={"red": 1},
        snapshot={"turn": 0, "map": _big_map(1)}, first=NewOrder(kind="new", seat="", text="{}"),
        uid="u", dice_key=b"k"), now=NOW)
    text, parts = await _columns(repo, game.id)
    assert parts is None and '"map"' in text and "$parts" not in text
    assert (await other.game(game.id)).snapshot == {"turn": 0, "map": _big_map(1)}
    # Its next commit that names parts (a game saved before parts existed) splits it.
    stored = await repo.commit(game.id, expected_version=1, now=NOW,
                               update=GameUpdate(snapshot={"turn": 1, "map": _big_map(1)}, apart=("map",)),
                               records=[NewOrder(kind="order", seat="red", text="roll")])
    text, parts = await _columns(repo, game.id)
    assert parts is not None and '"map"' not in text
    assert (await other.game(game.id)).snapshot == {"turn": 1, "map": _big_map(1)} == stored.snapshot
