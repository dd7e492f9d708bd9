"""Pings: who must act next, as lines that mention them (games without their own
wording use these)."""

from __future__ import annotations

from typing import Mapping, Sequence

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
