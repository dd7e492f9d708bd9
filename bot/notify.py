"""Pings: tell whoever must act next, publicly, with a mention."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.context import Channel, Message
from engine.core.game import Pending


def waiting_lines(pending: Sequence[Pending], seats: Mapping[str, int]) -> tuple[str, list[int]]:
    """One line per pending decision, mentioning its player; and the ids mentioned."""
    lines: list[str] = []
    ids: list[int] = []
    for p in pending:
        uid = seats.get(p.player)
        who = f"<@{uid}>" if uid else f"**{p.player}**"
        lines.append(f"{who} ({p.player}) — your turn: {p.decision}")
        if uid and uid not in ids:
            ids.append(uid)
    return "\n".join(lines), ids


async def ping(channel: Channel, channel_id: int, loaded: Any, *, prefix: str = "") -> None:
    """Post who must act now (nothing if the game waits for nobody)."""
    text, ids = waiting_lines(loaded.pending, loaded.game.seats)
    if text:
        await channel.post(channel_id, Message(prefix + text, mentions=tuple(ids)))
