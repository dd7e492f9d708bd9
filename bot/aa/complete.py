"""Autocomplete for /aa options: spaces where the asker has units, spaces in reach of the
units chosen, the powers, the casualty and retreat choices of the battle being fought.

Sources never raise: no game, or a user who is not playing, simply yields fewer
suggestions.  Everything is computed on the state as the asker may see it.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from bot.aa.front import KIND, aa_state
from bot.context import Ctx
from engine.aa import combat
from engine.aa.board import board
from engine.aa.movement import reachable
from engine.aa.state import POWERS, AAState
from engine.aa.units import parse_counts
from engine.core.errors import PlayerError

LIMIT = 25
Choices = list[tuple[str, str]]


async def _game(ctx: Ctx) -> tuple[AAState, str | None] | None:
    loaded = await ctx.app.sessions.find(ctx.channel_id)
    if loaded is None or loaded.game.kind != KIND:
        return None
    return aa_state(loaded.seen_by(ctx.actor.id)), loaded.acting_seat(ctx.actor.id)


def _rank(partial: str, names: Iterable[str]) -> Choices:
    key = partial.strip().lower()
    starts = [n for n in names if n.lower().startswith(key)]
    inside = [n for n in names if key in n.lower() and n not in starts]
    return [(n, n) for n in (starts + inside)][:LIMIT]


async def own_space(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    game = await _game(ctx)
    if game is None:
        return _rank(partial, board().names)
    state, seat = game
    power = seat or state.actor
    mine = sorted({u.where for u in state.units.values() if u.owner == power})
    return _rank(partial, mine)


async def destination(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    """Territories and sea zones in reach of the units named, from the start chosen."""
    game = await _game(ctx)
    start = str(options.get("from") or "")
    if game is None or not start:
        return _rank(partial, board().names)
    state, seat = game
    try:
        start = board().resolve(start)
        kinds = parse_counts(str(options.get("units") or "")) if options.get("units") else {}
    except PlayerError:
        return _rank(partial, board().names)
    return _rank(partial, reachable(state, seat or state.actor, start, kinds))


async def any_space(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    return _rank(partial, board().names)


async def power(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    return _rank(partial, POWERS)


async def battle_site(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    game = await _game(ctx)
    if game is None:
        return []
    state, _ = game
    return _rank(partial, [s.where for s in combat.ready_sites(state)])


async def casualty_choice(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    """The battle's casualty choices, the default order of loss first."""
    game = await _game(ctx)
    if game is None or game[0].battle is None or not game[0].battle.hits:
        return []
    state = game[0]
    b = state.battle
    assert b is not None
    from engine.aa.units import format_counts

    first = combat.choice_text(combat.default_choice(state, b, b.hits[0]))
    rest = [format_counts(o, empty="none") for o in combat.options(state, b, b.hits[0], limit=LIMIT)]
    names = [first] + [r for r in rest if r != first]
    ranked = _rank(partial, names)
    return [(f"{label} (default order of loss)" if label == first else label, value) for label, value in ranked]


async def retreat_to(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    game = await _game(ctx)
    if game is None or game[0].battle is None:
        return []
    return _rank(partial, [s for s in combat.retreat_options(game[0]) if s])
