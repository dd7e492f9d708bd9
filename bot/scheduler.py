"""Asynchronous play: reminders, timeouts and expired undo requests.

Every game waits for someone (a phase, or a reaction such as defensive fire).  The game
row remembers since when (``waiting_since``).  :func:`tick` — run every minute by the
Discord adapter, and by ``!wait`` in local scripts — reminds once per waiting period
after the game's ``remind_after`` delay, and when ``timeout_after`` (or
``reaction_timeout`` for a reaction) has passed, asks the session to apply the game's
timeout policy (the engine's timeout hook; ``forfeit`` ends the game).  The session
re-checks, under the game's lock, that the game still waits for exactly what this tick
saw (same version, same decision), so a stale tick does nothing.  Everything needed is
in the database: a restart loses nothing.

Several processes (Discord shards) on one database all tick: before acting on a game a
process claims it in the database (``tick:<game>:v<version>``, a lease of
:data:`CLAIM_TTL`), so a reminder, timeout or expiry is done by whichever process claims
it first and by no other; a process that dies holding a claim loses it when it expires.
A process may also be told which games are its own (``owns``: the games of its shards).
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import timedelta
from typing import Any, Callable, Mapping

from bot.after_reply import collecting
from bot.clock import parse_delay
from bot.context import Channel, Message
from bot.games import front_for
from bot.lifecycle import DEFAULT_TIMING, POLICY, PROMPT, REMIND, TIMEOUT, announce
from bot.present import ping
from bot.session import pending_key
from bot.storage.repository import GameRecord
from bot import undo as undo_rules
from engine.core.errors import PlayerError

log = logging.getLogger("warroom.scheduler")

CLAIM_TTL = timedelta(minutes=5)


def holder(app: Any) -> str:
    """Who claims work: this host, process and running App."""
    return f"{socket.gethostname()}:{os.getpid()}:{id(app):x}"


def delay(options: Mapping[str, Any], key: str) -> timedelta | None:
    try:
        return parse_delay(str(options.get(key, DEFAULT_TIMING[key]) or ""))
    except PlayerError:
        return None


async def tick(app: Any, channel: Channel, *,
               owns: Callable[[GameRecord], bool] | None = None) -> int:
    """Send due reminders, apply due timeouts, close expired undo requests; returns how
    many actions were taken.  Only games ``owns`` accepts (default: all) are looked at,
    and each action only after this process claimed it."""
    now = app.clock.now()
    actions = 0
    me = holder(app)

    async def claimed(game: GameRecord) -> bool:
        return bool(await app.repo.claim(f"tick:{game.id}:v{game.version}", me, now=now, ttl=CLAIM_TTL))

    for game in await app.repo.live_games():
        if owns is not None and not owns(game):
            continue
        try:
            loaded = app.sessions.loaded(game)
            if game.undo_request and undo_rules.live_request(loaded, now) is None \
                    and game.undo_request.get("version") == game.version:
                if not await claimed(game):
                    continue
                async def expire(current: Any) -> Any:
                    if current.game.version != game.version:
                        raise _Stale()
                    return undo_rules.close_request("undo request expired", None)
                try:
                    await app.sessions.change(game.channel_id, expire)
                except _Stale:
                    continue
                await channel.post(game.channel_id, Message(
                    "⌛ The undo request expired without an answer: nothing was undone."))
                actions += 1
                continue
            pending = loaded.pending
            if game.status != "active" or not pending or game.waiting_since is None:
                continue
            waited = now - game.waiting_since
            reaction = any(p.reaction for p in pending)
            limit = delay(game.options, PROMPT if reaction else TIMEOUT)
            if limit is not None and waited >= limit:
                if not await claimed(game):
                    continue
                policy = (loaded.rules.reaction_policy if reaction
                          else str(game.options.get(POLICY, "done")))
                async with collecting():  # a forfeit's seed reveal follows its announcement
                    acted = await app.sessions.timeout(
                        game.channel_id, expect=(game.version, pending_key(pending)), policy=policy)
                    if acted is not None:
                        await announce(app, channel, game.channel_id, acted)
                        actions += 1
                continue
            remind = delay(game.options, REMIND)
            if remind is not None and waited >= remind and game.reminded_at is None:
                if await claimed(game) and await app.sessions.mark_reminded(game):
                    await ping(app, channel, game.channel_id, loaded, "⏰ Reminder: ")
                    actions += 1
        except Exception:
            log.exception("scheduler failed on game %s (%s)", game.id, front_for(game.kind).title)
    from bot.league.play import tick as league_tick  # league deadlines and reports

    actions += await league_tick(app, channel)
    return actions


class _Stale(Exception):
    pass
