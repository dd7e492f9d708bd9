"""Issue 9, item 3: no lost updates. Joins at the same moment (in one process and across
two processes on one SQLite file), and every lifecycle command racing an order from
another process: each ends in a consistent game and an honest answer — done, refused,
or "the game changed, try again" — never a bug and never a silent overwrite."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import pytest

import tests.toygame  # noqa: F401  (registers /race)
from bot.app import App, dispatch
from bot.clock import ManualClock
from bot.context import Actor, Message
from bot.local import LocalChannel
from tests.toygame.harness import ALICE, BOB, CHANNEL, MOD, start

CAROL = Actor(4, "carol")
DAVE = Actor(5, "dave")


class Replies(LocalChannel):
    def __init__(self) -> None:
        super().__init__(io.StringIO(), Path("/nonexistent"))
        self.seen: list[str] = []

    async def reply(self, message: Message) -> None:
        self.seen.append(message.text)

    async def post(self, channel_id: int, message: Message) -> None:
        self.seen.append(message.text)


async def command(app: App, actor: Actor, path: str, **options: Any) -> list[str]:
    channel = Replies()
    await dispatch(app, actor=actor, channel=channel, channel_id=CHANNEL, guild_id=None,
                   path=tuple(path.split()), options=options)
    assert not app.bugs, channel.seen
    return channel.seen


@pytest.fixture
async def apps(tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    """Two bot processes sharing one SQLite file."""
    one = await App.start(tmp_path / "shared.db", seed=1, clock=ManualClock())
    two = await App.start(tmp_path / "shared.db", seed=2, clock=ManualClock())
    yield one, two
    await one.close()
    await two.close()


def joined(replies: list[str]) -> bool:
    return any("joins as" in r for r in replies)


async def test_two_joins_for_one_seat_at_once_in_one_process(apps: tuple[App, App]) -> None:
    one, _ = apps
    await command(one, ALICE, "race new", side="red")
    bob, carol = await asyncio.gather(command(one, BOB, "race join", side="blue"),
                                      command(one, CAROL, "race join", side="blue"))
    assert joined(bob) != joined(carol), (bob, carol)  # exactly one is told they joined
    loser = carol if joined(bob) else bob
    assert loser[0].startswith("⚠️")
    game = await one.repo.last_game(CHANNEL)
    assert game is not None
    winner = BOB if joined(bob) else CAROL
    assert game.seats == {"red": ALICE.id, "blue": winner.id}


async def test_two_joins_for_one_seat_from_two_processes(apps: tuple[App, App]) -> None:
    one, two = apps
    await command(one, ALICE, "race new", side="red")
    for _ in range(3):  # each process has read the open game before either writes
        assert await one.sessions.find(CHANNEL) is not None
        assert await two.sessions.find(CHANNEL) is not None
    bob, carol = await asyncio.gather(command(one, BOB, "race join", side="blue"),
                                      command(two, CAROL, "race join", side="blue"))
    assert joined(bob) != joined(carol), (bob, carol)
    game = await two.repo.last_game(CHANNEL)
    assert game is not None
    assert game.seats["blue"] == (BOB if joined(bob) else CAROL).id


async def test_two_players_joining_two_free_seats_at_once_are_both_seated(apps: tuple[App, App]) -> None:
    one, two = apps
    await command(one, MOD, "race new")  # the host takes no seat
    replies = await asyncio.gather(command(one, BOB, "race join", side="red"),
                                   command(two, CAROL, "race join", side="blue"))
    answers = [r for rs in replies for r in rs]
    seated = await one.repo.last_game(CHANNEL)
    assert seated is not None
    if all(joined(r) for r in replies):
        assert seated.seats == {"red": BOB.id, "blue": CAROL.id}
    else:  # one lost the race for the version: told so, and nothing of theirs stored
        assert any("changed" in a and "try again" in a for a in answers), answers
        assert len(seated.seats) == 1


Racer = Callable[[App], Awaitable[list[str]]]

RACERS: dict[str, Racer] = {
    "replace": lambda app: command(app, MOD, "race replace", side="blue", user="<@4>"),
    "undo": lambda app: command(app, ALICE, "race undo", confirm=0),
    "abort": lambda app: command(app, MOD, "race abort", confirm=True),
    "concede": lambda app: command(app, ALICE, "race concede", confirm=True),
    "settings": lambda app: command(app, ALICE, "race settings", remind="2h"),
    "join": lambda app: command(app, DAVE, "race join", side="blue"),
}


@pytest.mark.parametrize("name", list(RACERS))
async def test_a_lifecycle_command_racing_an_order_from_another_process(name: str, apps: tuple[App, App]) -> None:
    """Process one decides on version v; process two commits an order first; process
    one's write then finds v+1: it answers "try again" and stores nothing."""
    one, two = apps
    await start(one, target=100)
    before = await one.repo.last_game(CHANNEL)
    assert before is not None
    real_commit = one.repo.commit
    raced = False

    async def racing_commit(game_id: int, **kw: Any) -> Any:
        nonlocal raced
        if not raced:
            raced = True
            await two.sessions.act(CHANNEL, ALICE, "pass")  # the other process wins
        return await real_commit(game_id, **kw)

    one.repo.commit = racing_commit  # type: ignore[method-assign]
    try:
        replies = await RACERS[name](one)
    finally:
        one.repo.commit = real_commit  # type: ignore[method-assign]
    after = await one.repo.last_game(CHANNEL)
    assert after is not None
    orders = await one.repo.orders(after.id)
    if raced:
        assert any("The game changed" in r and "try again" in r for r in replies), replies
        # Only the other process's order was stored on top of what was there.
        assert after.version == before.version + 1 and orders[-1].text == "pass"
        assert after.status == "active" and after.seats == before.seats
    else:  # refused before it tried to write (e.g. join: every seat is taken)
        assert replies and replies[0].startswith("⚠️"), replies
        assert after.version == before.version
