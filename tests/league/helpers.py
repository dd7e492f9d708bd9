"""Shared helpers for the league tests."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.league.model import League
from bot.league.ops import create_league, sign_up

ORGANISER = 900
T0 = datetime(2026, 3, 2, 18, 0, tzinfo=timezone.utc)
SIDES = ("axis", "allies")


def new_league(names: list[str], **options: object) -> League:
    """A league with ``names`` signed up in order, player ids 1, 2, 3, …"""
    league = create_league(str(options.pop("name", "Autumn")), "minis", organiser=ORGANISER, sides=SIDES,
                           **options)  # type: ignore[arg-type]
    for pid, name in enumerate(names, start=1):
        league = sign_up(league, pid, name)
    return league


def names_of(league: League, ids: tuple[int, ...] | list[int]) -> list[str]:
    return [league.name_of(pid) for pid in ids]


def boards(league: League, number: int | None = None) -> list[tuple[str, str]]:
    """A round's pairings as (first-side name, second-side name), board order."""
    rnd = league.round(number) if number is not None else league.current
    assert rnd is not None
    return [(league.name_of(p.players[0]), league.name_of(p.players[1])) for p in rnd.pairings]
