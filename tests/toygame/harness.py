"""Starting dice races directly through the session API (for the platform tests)."""

from __future__ import annotations

from typing import Any

from bot.app import App
from bot.context import Actor, Message
from bot.session import Change, Loaded
from bot.storage.repository import GameUpdate, NewOrder

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
MOD = Actor(3, "mod", is_moderator=True)
CHANNEL = 100


async def start(app: App, *, first: int = 1, target: int = 10, channel: int = CHANNEL,
                secrets: bool = True, **settings: Any) -> Loaded:
    """A race between alice (red) and bob (blue); the creation's die (``first``: 1 = red
    starts) is scripted.  With ``secrets`` both pick 2 so play can begin."""
    app.dice.queue([first])
    await app.sessions.create(kind="race", channel_id=channel, guild_id=None, host=ALICE,
                              options={"target": target}, seats={"red": ALICE, "blue": BOB},
                              settings=settings)

    async def begin(loaded: Loaded) -> Change:
        return Change(GameUpdate(status="active", waiting_since=app.clock.now()),
                      (NewOrder(kind="seat", seat="", text="start"),))

    loaded = await app.sessions.change(channel, begin)
    if secrets:
        await app.sessions.act(channel, ALICE, "secret 2")
        acted = await app.sessions.act(channel, BOB, "secret 2")
        loaded = acted.after
    return loaded


class Posts:
    """A channel for the scheduler: it posts (kept here), never replies nor opens threads."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, Message]] = []

    async def reply(self, message: Message) -> None:
        raise AssertionError("the scheduler never replies")

    async def post(self, channel_id: int, message: Message) -> None:
        self.sent.append((channel_id, message))

    async def dm(self, user_id: int, message: Message) -> bool:
        return False

    async def create_thread(self, channel_id: int, name: str) -> int:
        raise AssertionError("no threads here")
