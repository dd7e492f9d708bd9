"""The one pipeline, generic over game kinds, exercised with the dice race (tests/toygame)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.app import App
from bot.clock import ManualClock
from bot.context import Actor
from bot.dice_service import stream_key
from bot.session import NoGame, TryAgain
from bot.storage.repository import GameUpdate, VersionConflict
from engine.core.dice import Die, stream_die
from engine.core.errors import IllegalOrder, NotYourTurn, PlayerError
from tests.toygame.harness import ALICE, BOB, CHANNEL, start


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    application = await App.start(tmp_path / "s.db", seed=1, clock=ManualClock())
    yield application
    await application.close()


def red_die(loaded_game: object, position: int) -> int:
    game = loaded_game
    key = stream_key(game.dice_key, game.uid, game.options, "red")  # type: ignore[attr-defined]
    return stream_die(key, f"{game.uid}/red", position, 6)  # type: ignore[attr-defined]


async def test_an_order_is_applied_and_stored_canonically_with_its_dice_and_events(app: App) -> None:
    await start(app)
    app.dice.queue([5])
    acted = await app.sessions.act(CHANNEL, ALICE, "  ROLL ")
    assert acted.seat == "red" and acted.dice == (Die(5, 6),) and acted.texts == ("roll",)
    assert acted.after.state.scores == (5, 0)
    game = await app.repo.game(acted.game.id)
    assert game.snapshot["scores"] == [5, 0] and game.dice_positions["red"] == 1
    last = (await app.repo.orders(game.id))[-1]
    assert (last.kind, last.seat, last.text, last.dice, last.actor_id) == ("order", "red", "roll", (Die(5, 6),), 1)
    assert last.events == ({"type": "Rolled", "seat": "red", "value": 5, "score": 5},)


async def test_a_refused_order_changes_nothing_and_a_retry_sees_the_same_dice(app: App) -> None:
    loaded = await start(app)
    before = await app.repo.live_game(CHANNEL)
    with pytest.raises(NotYourTurn):
        await app.sessions.act(CHANNEL, BOB, "roll")
    with pytest.raises(PlayerError):
        await app.sessions.act(CHANNEL, ALICE, "dance")
    with pytest.raises(PlayerError):  # one command, two orders: the second is illegal
        await app.sessions.act(CHANNEL, ALICE, ["roll", "boost", "boost"])
    after = await app.repo.live_game(CHANNEL)
    assert before is not None and after is not None
    assert (after.version, after.snapshot, after.dice_positions) == (before.version, before.snapshot,
                                                                    before.dice_positions)
    acted = await app.sessions.act(CHANNEL, ALICE, "roll")
    assert acted.dice[0].value == red_die(loaded.game, 0)  # the die the failed batch saw


async def test_several_orders_of_one_command_are_stored_together(app: App) -> None:
    await start(app, target=50)
    app.dice.queue([3])
    acted = await app.sessions.act(CHANNEL, ALICE, ["boost"])
    assert acted.after.state.scores == (2, 0)
    acted = await app.sessions.act(CHANNEL, BOB, ["roll"])
    rows = await app.repo.orders(acted.game.id)
    assert [r.text for r in rows[-2:]] == ["boost", "roll"]


async def test_only_seated_players_act(app: App) -> None:
    await start(app)
    with pytest.raises(NotYourTurn, match="not playing"):
        await app.sessions.act(CHANNEL, Actor(9, "eve"), "roll")


async def test_no_game_in_channel(app: App) -> None:
    with pytest.raises(NoGame):
        await app.sessions.act(CHANNEL, ALICE, "roll")


async def test_replay_from_the_order_log_equals_the_live_state(app: App) -> None:
    await start(app, target=60)
    for i in range(8):
        await app.sessions.act(CHANNEL, ALICE if i % 2 == 0 else BOB, "roll")
    game = await app.repo.live_game(CHANNEL)
    assert game is not None
    history = await app.sessions.history(game, check=True)
    assert history.final == app.sessions.loaded(game).state


async def test_a_tampered_snapshot_is_a_replay_mismatch_not_a_silent_rebuild(app: App) -> None:
    from bot.session import ReplayMismatch

    await start(app)
    await app.sessions.act(CHANNEL, ALICE, "roll")
    game = await app.repo.live_game(CHANNEL)
    assert game is not None
    forged = await app.repo.commit(game.id, expected_version=game.version,
                                   update=GameUpdate(snapshot={**game.snapshot, "scores": [99, 0]}),
                                   records=[], now=app.clock.now())
    with pytest.raises(ReplayMismatch):
        await app.sessions.history(forged, check=True)


async def test_concurrent_orders_are_serialised(app: App) -> None:
    await start(app, target=100)
    results = await asyncio.gather(
        *(app.sessions.act(CHANNEL, ALICE if i % 2 == 0 else BOB, "pass") for i in range(6)),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    versions = sorted(r.game.version for r in ok)
    assert versions == list(range(versions[0], versions[0] + len(ok)))
    assert all(isinstance(r, NotYourTurn) for r in results if isinstance(r, BaseException))


async def test_two_processes_never_apply_on_the_same_version(tmp_path: Path) -> None:
    one = await App.start(tmp_path / "shared.db", seed=1, clock=ManualClock())
    two = await App.start(tmp_path / "shared.db", seed=2, clock=ManualClock())
    try:
        await start(one, target=100)
        stale = await two.sessions.find(CHANNEL)  # process two reads (and caches) a version
        assert stale is not None
        await one.sessions.act(CHANNEL, ALICE, "pass")
        with pytest.raises(VersionConflict):
            await two.repo.commit(stale.game.id, expected_version=stale.game.version,
                                  update=GameUpdate(), records=[], now=two.clock.now())
        acted = await two.sessions.act(CHANNEL, BOB, "pass")  # it reloads: no conflict
        assert acted.game.version == stale.game.version + 2
    finally:
        await one.close()
        await two.close()


async def test_game_creation_is_refused_while_one_is_live(app: App) -> None:
    await start(app)
    with pytest.raises(IllegalOrder, match="already has a game"):
        await app.sessions.create(kind="race", channel_id=CHANNEL, guild_id=None, host=BOB,
                                  options={}, seats={"red": BOB})


async def test_a_version_conflict_during_an_order_is_a_try_again_and_applies_nothing(
        app: App, tmp_path: Path) -> None:
    """Another process commits between our read and our write: our order is refused with
    'the game changed', nothing of it is stored, and a retry sees the same dice."""
    loaded = await start(app)
    other = await App.start(tmp_path / "s.db", seed=9, clock=ManualClock())
    real_commit = app.repo.commit

    async def racing_commit(game_id: int, **kw: object) -> object:
        await other.sessions.act(CHANNEL, ALICE, "pass")  # the other process wins the race
        return await real_commit(game_id, **kw)  # type: ignore[arg-type]

    try:
        app.repo.commit = racing_commit  # type: ignore[method-assign]
        with pytest.raises(TryAgain, match="game changed"):
            await app.sessions.act(CHANNEL, ALICE, "roll")
        app.repo.commit = real_commit  # type: ignore[method-assign]
        game = await app.repo.live_game(CHANNEL)
        assert game is not None
        assert [o.text for o in await app.repo.orders(game.id)][-1] == "pass"
        assert game.snapshot["scores"] == [0, 0] and game.dice_positions.get("red") == 0
        await app.sessions.act(CHANNEL, BOB, "pass")
        acted = await app.sessions.act(CHANNEL, ALICE, "roll")
        assert acted.dice[0].value == red_die(loaded.game, 0)
    finally:
        await other.close()


async def test_game_end_listeners_hear_every_game_that_ends_once(app: App) -> None:
    ended: list[tuple[str, object]] = []

    async def listener(loaded: object) -> None:
        ended.append((loaded.game.status, loaded.outcome))  # type: ignore[attr-defined]

    app.sessions.on_end.append(listener)
    await start(app, target=2)
    app.dice.queue([6])
    await app.sessions.act(CHANNEL, ALICE, "roll")
    assert len(ended) == 1 and ended[0][0] == "finished"
    assert ended[0][1].winner == "red"  # type: ignore[attr-defined]
