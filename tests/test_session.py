"""The one pipeline, generic over game kinds, exercised with a toy dice race."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.app import App
from bot.clock import ManualClock
from bot.context import Actor
from bot.session import NoGame
from bot.storage.repository import NewOrder
from engine.core.errors import IllegalOrder, NotYourTurn, PlayerError
from tests import toygame  # noqa: F401  (registers the "race" kind)

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
MOD = Actor(3, "mod", is_moderator=True)
CHANNEL = 100


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    application = await App.start(tmp_path / "s.db", seed=1, clock=ManualClock())
    yield application
    await application.close()


async def _start(app: App, first: int = 1, target: int = 10) -> None:
    app.dice.queue([first])  # creation rolls who starts: 1 → red (alice)
    await app.sessions.create(kind="race", channel_id=CHANNEL, guild_id=None, host=ALICE,
                              options={"target": target}, seats={"red": ALICE, "blue": BOB})
    await app.sessions.update_game(CHANNEL, status="active",
                                   record=NewOrder(kind="seat", seat="", text="start"))


async def test_an_order_is_applied_stored_with_its_dice_and_events(app: App) -> None:
    await _start(app)
    app.dice.queue([5])
    acted = await app.sessions.act(CHANNEL, ALICE, "roll")
    assert acted.seat == "red" and acted.dice == (5,)
    assert acted.after.state.scores == (5, 0)
    game = await app.repo.game(acted.game.id)
    assert game.snapshot == {"scores": [5, 0], "turn": 1, "target": 10}
    last = (await app.repo.orders(game.id))[-1]
    assert (last.kind, last.seat, last.text, last.dice, last.actor_id) == ("order", "red", "roll", (5,), 1)
    assert last.events == ({"type": "Rolled", "seat": "red", "value": 5, "score": 5},)


async def test_a_refused_order_changes_nothing_and_keeps_its_dice(app: App) -> None:
    await _start(app)
    before = await app.repo.live_game(CHANNEL)
    with pytest.raises(NotYourTurn):
        await app.sessions.act(CHANNEL, BOB, "roll")
    with pytest.raises(PlayerError):
        await app.sessions.act(CHANNEL, ALICE, "dance")
    after = await app.repo.live_game(CHANNEL)
    assert before is not None and after is not None
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert len(await app.repo.orders(after.id)) == 2


async def test_dice_of_a_failed_order_are_not_rerolled(app: App) -> None:
    """An order that fails after rolling hands its dice back: no fishing by failing."""
    await _start(app)
    game = await app.repo.live_game(CHANNEL)
    assert game is not None
    order = app.dice.for_game(game.id)
    first = order.dice.roll(6)
    app.dice.settle(order, applied=False)
    acted = await app.sessions.act(CHANNEL, ALICE, "roll")
    assert acted.dice == (first,)


async def test_only_seated_players_act(app: App) -> None:
    await _start(app)
    with pytest.raises(NotYourTurn, match="not playing"):
        await app.sessions.act(CHANNEL, Actor(9, "eve"), "roll")


async def test_no_game_in_channel(app: App) -> None:
    with pytest.raises(NoGame):
        await app.sessions.act(CHANNEL, ALICE, "roll")


async def test_replay_from_the_order_log_equals_the_live_state(app: App) -> None:
    await _start(app, target=30)
    for i in range(8):
        await app.sessions.act(CHANNEL, ALICE if i % 2 == 0 else BOB, "roll")
    game = await app.repo.live_game(CHANNEL)
    assert game is not None
    assert await app.sessions.replay(game) == app.sessions.loaded(game).state


async def test_undo_rewinds_and_the_same_dice_come_back(app: App) -> None:
    await _start(app)
    app.dice.queue([4, 6])
    await app.sessions.act(CHANNEL, ALICE, "roll")
    await app.sessions.act(CHANNEL, BOB, "roll")
    loaded, undone = await app.sessions.undo(CHANNEL, MOD)
    assert undone == "roll" and loaded.state.scores == (4, 0)
    assert loaded.game.carry_dice == (6,)
    again = await app.sessions.act(CHANNEL, BOB, "roll")  # no re-roll fishing
    assert again.dice == (6,) and again.after.state.scores == (4, 6)
    assert again.game.carry_dice == ()
    game = await app.repo.live_game(CHANNEL)
    assert game is not None and await app.sessions.replay(game) == again.after.state
    kinds = [o.kind for o in await app.repo.orders(game.id)]
    assert kinds == ["new", "seat", "order", "order", "undo", "order"]


async def test_undo_with_nothing_to_undo(app: App) -> None:
    await _start(app)
    with pytest.raises(IllegalOrder, match="no order to undo"):
        await app.sessions.undo(CHANNEL, MOD)


async def test_concurrent_orders_are_serialised(app: App) -> None:
    await _start(app, target=1000)
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
        await _start(one, target=1000)
        await two.sessions.find(CHANNEL)  # process two reads (and caches) version 2
        await one.sessions.act(CHANNEL, ALICE, "pass")
        # Process two's view is stale only in memory: it reloads the row, so it sees
        # version 3 and applies on top of it; a forced stale write must fail.
        game = await two.repo.live_game(CHANNEL)
        assert game is not None and game.version == 3
        stale = game.version - 1
        from bot.storage.repository import GameUpdate, VersionConflict

        with pytest.raises(VersionConflict):
            await two.repo.commit(game.id, expected_version=stale, update=GameUpdate(), record=None,
                                  now="2026-01-01T00:00:00+00:00")
        acted = await two.sessions.act(CHANNEL, BOB, "pass")
        assert acted.game.version == 4
    finally:
        await one.close()
        await two.close()


async def test_game_creation_is_refused_while_one_is_live(app: App) -> None:
    await _start(app)
    with pytest.raises(IllegalOrder, match="already has a game"):
        await app.sessions.create(kind="race", channel_id=CHANNEL, guild_id=None, host=BOB,
                                  options={}, seats={"red": BOB})


async def test_a_version_conflict_during_an_order_applies_nothing(app: App, tmp_path: Path) -> None:
    """Another process commits between our read and our write: our order is refused,
    nothing of it is stored, and its dice stay next in line."""
    await _start(app)
    other = await App.start(tmp_path / "s.db", seed=9, clock=ManualClock())
    real_commit = app.repo.commit

    async def racing_commit(game_id: int, **kw: object) -> object:
        await other.sessions.act(CHANNEL, ALICE, "pass")  # the other process wins the race
        return await real_commit(game_id, **kw)  # type: ignore[arg-type]

    try:
        app.repo.commit = racing_commit  # type: ignore[method-assign]
        app.dice.queue([3])
        with pytest.raises(IllegalOrder, match="changed while your order"):
            await app.sessions.act(CHANNEL, ALICE, "roll")
        app.repo.commit = real_commit  # type: ignore[method-assign]
        game = await app.repo.live_game(CHANNEL)
        assert game is not None
        assert [o.text for o in await app.repo.orders(game.id)][-1] == "pass"
        assert game.snapshot["scores"] == [0, 0]
        acted = await app.sessions.act(CHANNEL, BOB, "roll")
        assert acted.dice == (3,)
    finally:
        await other.close()
