"""The services one running bot shares: storage, dice, clock, sessions.

Both adapters (Discord and local) build an :class:`App` and call :func:`dispatch` for
every command, so the same handlers serve both.
"""

from __future__ import annotations

import functools
import logging
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from bot.after_reply import collecting
from bot.clock import Clock, SystemClock
from bot.commands import load_all
from bot.commands.base import Command, find
from bot.context import Actor, Channel, Ctx, refusal_text
from bot.dice_service import DiceService
from bot.games import game_end_listeners, load_games
from bot.session import Sessions
from bot.storage import open_repository
from bot.storage.repository import Repository
from engine.core.errors import PlayerError

log = logging.getLogger("warroom")


@dataclass
class App:
    repo: Repository
    dice: DiceService
    clock: Clock
    sessions: Sessions
    local: bool = False  # True in the local channel (scripts, terminal, tests)
    # Where the bot posts outside any command (game-end notices, league threads); set by
    # the adapter (Discord's poster, or the local channel).
    poster: Channel | None = None
    bugs: list[str] = field(default_factory=list)  # error ids of bugs met (scripts exit non-zero)

    @classmethod
    async def start(
        cls,
        database: str | Path,
        *,
        seed: int | None = None,
        clock: Clock | None = None,
        local: bool = False,
    ) -> "App":
        """Start on ``database``: a path or address (``sqlite:///…``, ``postgresql://…``)."""
        load_all()
        load_games()
        repo = await open_repository(str(database))
        dice = DiceService(seed)
        clock = clock or SystemClock()
        app = cls(repo, dice, clock, Sessions(repo, dice, clock), local)
        for listener in game_end_listeners():
            app.sessions.on_end.append(functools.partial(listener, app))
        return app

    async def close(self) -> None:
        await self.repo.close()


async def dispatch(
    app: App,
    *,
    actor: Actor,
    channel: Channel,
    channel_id: int,
    guild_id: int | None,
    path: tuple[str, ...],
    options: Mapping[str, Any],
) -> Ctx:
    """Run one command: bind options, call the handler, show player errors to the
    player alone, and log anything else as a bug with an id the player can quote."""
    async with collecting():  # what a game-end listener posts comes after the reply
        return await _dispatch(app, actor=actor, channel=channel, channel_id=channel_id,
                               guild_id=guild_id, path=path, options=options)


async def _dispatch(app: App, *, actor: Actor, channel: Channel, channel_id: int, guild_id: int | None,
                    path: tuple[str, ...], options: Mapping[str, Any]) -> Ctx:
    ctx = Ctx(app, actor, channel_id, guild_id, channel)
    command: Command | None = None
    try:
        command = find(path)
        ctx.default_ephemeral = command.ephemeral
        values = command.bind(options)
        await app.repo.remember_player(actor.id, actor.name, app.clock.now())
        await command.handler(ctx, **values)
    except PlayerError as err:
        await ctx.reply(refusal_text(f"⚠️ {err.text()}"), ephemeral=True)
    except Exception:
        error_id = secrets.token_hex(4)
        app.bugs.append(error_id)
        name = command.name if command else "/" + " ".join(path)
        log.exception("bug %s in %s (by %s in channel %s)", error_id, name, actor.id, channel_id)
        await ctx.reply(
            f"Something went wrong on our side (error id `{error_id}`); it has been logged.",
            ephemeral=True,
        )
    return ctx
