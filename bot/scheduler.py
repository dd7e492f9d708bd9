"""Asynchronous play: reminders and timeouts.

Every game waits for someone (a phase, or a reaction such as defensive fire).  The game
row remembers since when (``waiting_since``).  ``tick`` — run every minute by the Discord
adapter, and by ``!wait`` in local scripts — reminds once per waiting period after the
game's ``remind_after`` delay, and when ``timeout_after`` (or ``reaction_timeout`` for a
reaction) has passed, applies the game's timeout policy through an ordinary order from
the system seat (``timeout hold|done|forfeit``), which is logged like any other.
Everything needed is in the database, so a restart loses nothing and resumes.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, Awaitable, Callable

from bot.clock import parse_duration, parse_iso
from bot.context import Channel, Message
from bot.notify import waiting_lines
from bot.session import Acted
from engine.core.errors import PlayerError

log = logging.getLogger("warroom.scheduler")

DEFAULTS = {"remind_after": "24h", "timeout_after": "", "reaction_timeout": "12h",
            "timeout_policy": "done"}

# kind -> coroutine that posts the result of a system order (narration, images, pings).
Announcer = Callable[[Any, Channel, int, Acted], Awaitable[None]]
ANNOUNCERS: dict[str, Announcer] = {}
# kind -> coroutine that pings whoever must act, in that game's words (prefix first).
Pinger = Callable[[Channel, int, Any, str], Awaitable[None]]
PINGERS: dict[str, Pinger] = {}


def delay(options: Any, key: str) -> timedelta | None:
    text = str(options.get(key, DEFAULTS[key]) or "").strip()
    if not text or text in ("0", "off", "never"):
        return None
    try:
        return parse_duration(text)
    except PlayerError:
        return None


async def tick(app: Any, channel: Channel) -> int:
    """Send due reminders and apply due timeouts; returns how many actions were taken."""
    now = app.clock.now()
    actions = 0
    for game in await app.repo.live_games():
        if game.status != "active" or not game.waiting_since:
            continue
        try:
            loaded = app.sessions.loaded(game)
            pending = loaded.pending
            if not pending:
                continue
            waited = now - parse_iso(game.waiting_since)
            reaction = any(p.reaction for p in pending)
            limit = delay(game.options, "reaction_timeout" if reaction else "timeout_after")
            if limit is not None and waited >= limit:
                policy = "hold" if reaction else str(game.options.get("timeout_policy", "done"))
                acted = await app.sessions.act(game.channel_id, None, f"timeout {policy}")
                announce = ANNOUNCERS.get(game.kind)
                if announce:
                    await announce(app, channel, game.channel_id, acted)
                actions += 1
                continue
            remind = delay(game.options, "remind_after")
            if remind is not None and waited >= remind and game.reminded_at is None:
                pinger = PINGERS.get(game.kind)
                if pinger is not None:
                    await pinger(channel, game.channel_id, loaded, "⏰ Reminder: ")
                else:
                    text, ids = waiting_lines(pending, game.seats)
                    await channel.post(game.channel_id, Message("⏰ Reminder: " + text, mentions=tuple(ids)))
                await app.sessions.mark_reminded(game)
                actions += 1
        except Exception:
            log.exception("scheduler failed on game %s", game.id)
    return actions
