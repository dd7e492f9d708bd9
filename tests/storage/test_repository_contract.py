"""The repository contract (bot/storage/repository.py), written once and run against
every backend (tests/storage/conftest.py): versions, one live game per channel, the
append-only log, seats, settings, times as datetimes."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from bot.storage.repository import (
    GameExists,
    GameUpdate,
    NewGame,
    NewOrder,
    Repository,
    VersionConflict,
)
from engine.core.dice import Die
from tests.storage.conftest import Open

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)


async def _players(repo: Repository) -> None:
    await repo.remember_player(1, "alice", NOW)
    await repo.remember_player(2, "bob", NOW)


async def _game(repo: Repository, channel: int = 10, uid: str = "") -> int:
    game = await repo.create_game(NewGame(
        channel_id=channel, guild_id=5, kind="race", host_id=1, options={"target": 10},
        seats={"red": 1}, snapshot={"s": 0},
        first=NewOrder(kind="new", seat="", text="{}", actor_id=1, dice=[Die(2, 2)]),
        uid=uid or f"uid{channel}", dice_key=b"k" * 32, dice_positions={"setup": 1}), now=NOW)
    return game.id


async def test_create_commit_and_read_back(backend: Open) -> None:
    repo = await backend()
    await _players(repo)
    gid = await _game(repo)
    game = await repo.game(gid)
    assert (game.version, game.status, game.seats, game.options) == (1, "open", {"red": 1}, {"target": 10})
    assert (game.uid, game.dice_key, game.dice_positions) == ("uid10", b"k" * 32, {"setup": 1})
    assert game.created_at == NOW and isinstance(game.created_at, datetime)
    later = NOW + timedelta(minutes=5)
    stored = await repo.commit(
        gid, expected_version=1,
        update=GameUpdate(snapshot={"s": 4}, status="active", seats={"red": 1, "blue": 2},
                          waiting_since=later, dice_positions={"setup": 1, "red": 1}),
        records=[NewOrder(kind="order", seat="red", text="roll", actor_id=1,
                          events=[{"type": "Rolled", "value": 4}], dice=[Die(4, 6)])],
        now=later)
    assert (stored.version, stored.status, stored.snapshot) == (2, "active", {"s": 4})
    assert stored.seats == {"blue": 2, "red": 1} and stored.waiting_since == later
    assert stored.dice_positions == {"setup": 1, "red": 1} and stored.updated_at == later
    log = await repo.orders(gid)
    assert [(o.seq, o.kind, o.text, o.dice) for o in log] == [
        (1, "new", "{}", (Die(2, 2),)), (2, "order", "roll", (Die(4, 6),))]
    assert log[1].events == ({"type": "Rolled", "value": 4},) and log[1].created_at == later
    assert [o.seq for o in await repo.orders(gid, since=1)] == [2]


async def test_seats_keep_discord_sized_ids_and_odd_seat_names(backend: Open) -> None:
    repo = await backend()
    await _players(repo)
    big = 1_234_567_890_123_456_789  # a Discord id: beyond a double's 2**53
    await repo.remember_player(big, "carol", NOW)
    gid = await _game(repo)
    seats = {"red": 1, "United Kingdom": big, 'the "quoted" seat': 2}
    await repo.commit(gid, expected_version=1, update=GameUpdate(seats=seats), records=[], now=NOW)
    assert (await repo.game(gid)).seats == seats
    live = await repo.live_game(10)
    assert live is not None and live.seats == seats
    assert list(live.seats) == sorted(seats)  # in seat order (byte order), on both backends


async def test_every_column_a_commit_may_set_or_clear(backend: Open) -> None:
    """Options, the waiting time and the reminder time are written, kept when a commit
    leaves them alone, and cleared on request."""
    repo = await backend()
    await _players(repo)
    gid = await _game(repo)
    t1, t2 = NOW + timedelta(hours=1), NOW + timedelta(hours=2)
    stored = await repo.commit(gid, expected_version=1, update=GameUpdate(
        options={"target": 12, "remind_after": "1h"}, waiting_since=t1, reminded_at=t2), records=[], now=NOW)
    assert (stored.options, stored.waiting_since, stored.reminded_at) == (
        {"remind_after": "1h", "target": 12}, t1, t2)
    stored = await repo.commit(gid, expected_version=2, update=GameUpdate(), records=[], now=t2)
    assert (stored.version, stored.waiting_since, stored.reminded_at, stored.updated_at) == (3, t1, t2, t2)
    stored = await repo.commit(gid, expected_version=3,
                               update=GameUpdate(clear_waiting=True, clear_reminded=True), records=[], now=t2)
    assert (stored.waiting_since, stored.reminded_at, stored.options["target"]) == (None, None, 12)
    assert (await repo.game(gid)) == stored


async def test_several_rows_in_one_commit_each_take_a_version(backend: Open) -> None:
    repo = await backend()
    await _players(repo)
    gid = await _game(repo)
    rows = [NewOrder(kind="order", seat="red", text=t) for t in ("army x", "ready")]
    stored = await repo.commit(gid, expected_version=1, update=GameUpdate(), records=rows, now=NOW)
    assert stored.version == 3
    assert [(o.seq, o.text) for o in await repo.orders(gid)][1:] == [(2, "army x"), (3, "ready")]


async def test_a_commit_on_a_stale_version_changes_nothing(backend: Open) -> None:
    """Two processes (two connections on one database) read version 1; one may apply."""
    first, second = await backend(), await backend()
    await _players(first)
    gid = await _game(first)
    assert (await second.game(gid)).version == 1
    await first.commit(gid, expected_version=1, update=GameUpdate(snapshot={"s": 6}),
                       records=[NewOrder(kind="order", seat="red", text="roll", dice=[Die(6, 6)])], now=NOW)
    with pytest.raises(VersionConflict):
        await second.commit(gid, expected_version=1, update=GameUpdate(snapshot={"s": 1}),
                            records=[NewOrder(kind="order", seat="red", text="roll", dice=[Die(1, 6)])],
                            now=NOW)
    game = await second.game(gid)
    assert game.snapshot == {"s": 6} and game.version == 2
    assert [o.dice for o in await second.orders(gid)] == [(Die(2, 2),), (Die(6, 6),)]


async def test_one_live_game_per_channel(backend: Open) -> None:
    repo = await backend()
    await _players(repo)
    gid = await _game(repo, channel=10)
    with pytest.raises(GameExists):
        await _game(repo, channel=10, uid="another")
    await _game(repo, channel=11)  # another channel (or thread) is fine
    await repo.commit(gid, expected_version=1, update=GameUpdate(status="finished"), records=[], now=NOW)
    await _game(repo, channel=10)  # once over, a new game may start there
    assert (await repo.live_game(10)) is not None
    assert [g.channel_id for g in await repo.live_games()] == [11, 10]
    last = await repo.last_game(10)
    assert last is not None and last.status == "open"


async def test_creating_the_same_game_again_gives_the_one_made(backend: Open) -> None:
    """A create retried after its answer was lost (PostgreSQL retries on a dropped
    connection) finds its own game, by uid, instead of refusing "a game exists"."""
    repo = await backend()
    await _players(repo)
    gid = await _game(repo, channel=10, uid="same")
    again = await repo.create_game(NewGame(
        channel_id=10, guild_id=5, kind="race", host_id=1, options={"target": 10}, seats={"red": 1},
        snapshot={"s": 0}, first=NewOrder(kind="new", seat="", text="{}", actor_id=1),
        uid="same", dice_key=b"k" * 32), now=NOW)
    assert again.id == gid and again.version == 1 and len(await repo.orders(gid)) == 1
    with pytest.raises(GameExists):
        await _game(repo, channel=10, uid="other")


async def test_seats_need_known_players_and_a_failed_commit_is_rolled_back(backend: Open) -> None:
    repo = await backend()
    await _players(repo)
    gid = await _game(repo)
    with pytest.raises(Exception):
        await repo.commit(gid, expected_version=1, update=GameUpdate(seats={"blue": 999}),
                          records=[NewOrder(kind="seat", seat="blue", text="join blue")], now=NOW)
    game = await repo.game(gid)
    assert game.version == 1 and game.seats == {"red": 1} and len(await repo.orders(gid)) == 1


async def test_reminders_do_not_change_the_version(backend: Open) -> None:
    repo = await backend()
    await _players(repo)
    gid = await _game(repo)
    assert await repo.mark_reminded(gid, version=1, now=NOW)
    game = await repo.game(gid)
    assert game.version == 1 and game.reminded_at == NOW
    assert not await repo.mark_reminded(gid, version=7, now=NOW)  # stale: nothing written


async def test_undo_requests_and_results_live_until_the_next_change(backend: Open) -> None:
    repo = await backend()
    await _players(repo)
    gid = await _game(repo)
    request = {"by": 1, "orders": 1, "version": 2, "expires": "2026-01-02T12:00:00+00:00", "seats": ["red"]}
    stored = await repo.commit(gid, expected_version=1, update=GameUpdate(undo_request=request),
                               records=[NewOrder(kind="admin", seat="", text="undo request 1")], now=NOW)
    assert stored.undo_request == request
    stored = await repo.commit(gid, expected_version=2,
                               update=GameUpdate(status="finished", result={"winner": "red", "reason": "r"}),
                               records=[], now=NOW)
    assert stored.undo_request is None and stored.result == {"winner": "red", "reason": "r"}


async def test_guild_and_user_settings(backend: Open) -> None:
    repo = await backend()
    assert await repo.guild_setting(5, "moderator_role") is None
    await repo.set_guild_setting(5, "moderator_role", 1234)
    assert await repo.guild_setting(5, "moderator_role") == 1234
    await repo.set_guild_setting(5, "moderator_role", None)
    assert await repo.guild_setting(5, "moderator_role") is None
    await repo.set_user_setting(1, "dm_turns", True)
    assert await repo.user_setting(1, "dm_turns") is True and await repo.user_setting(2, "dm_turns") is None


async def test_players_are_remembered_by_name(backend: Open) -> None:
    repo = await backend()
    await _players(repo)
    await repo.remember_player(1, "alice2", NOW)
    assert await repo.player_name(1) == "alice2" and await repo.player_name(9) is None
    assert await repo.player_names() == {1: "alice2", 2: "bob"}


async def test_documents_are_versioned(backend: Open) -> None:
    first, second = await backend(), await backend()
    assert await first.document("league", "5/spring") is None
    doc = await first.put_document("league", "5/spring", {"round": 1}, expected_version=0, now=NOW)
    assert doc.version == 1
    with pytest.raises(VersionConflict):  # it exists already
        await second.put_document("league", "5/spring", {"round": 9}, expected_version=0, now=NOW)
    read = await second.document("league", "5/spring")
    assert read is not None and (read.version, read.data) == (1, {"round": 1})
    await first.put_document("league", "5/spring", {"round": 2}, expected_version=1, now=NOW)
    with pytest.raises(VersionConflict):  # second still holds version 1
        await second.put_document("league", "5/spring", {"round": 3}, expected_version=1, now=NOW)
    await second.put_document("league", "6/other", {}, expected_version=0, now=NOW)
    assert [d.key for d in await second.documents("league", "5/")] == ["5/spring"]
    assert [(d.key, d.data) for d in await second.documents("league")] == [("5/spring", {"round": 2}),
                                                                           ("6/other", {})]


async def test_a_claim_is_held_by_one_process_until_it_expires_or_is_released(backend: Open) -> None:
    """Two processes (two repositories on one database) see the same due work: only the
    first claim succeeds; the holder may renew it; once it expires the other may take it."""
    one, two = await backend(), await backend()
    ttl = timedelta(minutes=2)
    assert await one.claim("game:1:v3", "p1", now=NOW, ttl=ttl)
    assert not await two.claim("game:1:v3", "p2", now=NOW + timedelta(minutes=1), ttl=ttl)
    assert await one.claim("game:1:v3", "p1", now=NOW + timedelta(minutes=1), ttl=ttl)  # renewed
    assert not await two.claim("game:1:v3", "p2", now=NOW + timedelta(minutes=2), ttl=ttl)
    assert await two.claim("game:1:v3", "p2", now=NOW + timedelta(minutes=3), ttl=ttl)  # expired
    assert await one.claim("game:1:v4", "p1", now=NOW, ttl=ttl)  # another piece of work
    await two.release("game:1:v4", "p2")  # not p2's: nothing happens
    assert not await two.claim("game:1:v4", "p2", now=NOW, ttl=ttl)
    await one.release("game:1:v4", "p1")
    assert await two.claim("game:1:v4", "p2", now=NOW, ttl=ttl)


async def test_claims_race_between_processes_have_one_winner(backend: Open) -> None:
    import asyncio

    repos = [await backend() for _ in range(3)]
    won = await asyncio.gather(*(r.claim("tick", f"p{i}", now=NOW, ttl=timedelta(minutes=1))
                                 for i, r in enumerate(repos)))
    assert sorted(won) == [False, False, True]
