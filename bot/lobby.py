"""Seats and the life of a game, for every game kind: open, join, replace a player,
abort, look at the order log.  Game-specific answers (maps, pings) stay in each game's
front module; these functions only decide who may do what and record it."""

from __future__ import annotations

from typing import Any, Mapping

from bot.context import Actor, Ctx
from bot.session import Loaded
from bot.storage.repository import NewOrder
from engine.core.errors import IllegalOrder, NotationError, UnknownName
from engine.core.game import rules_for

def is_host_or_moderator(ctx: Ctx, loaded: Loaded) -> bool:
    return ctx.actor.is_moderator or ctx.actor.id == loaded.game.host_id


def require_host_or_moderator(ctx: Ctx, loaded: Loaded, what: str) -> None:
    if not is_host_or_moderator(ctx, loaded):
        raise IllegalOrder(f"Only the host (<@{loaded.game.host_id}>) or a moderator may {what}.")


async def open_game(ctx: Ctx, kind: str, options: Mapping[str, Any], seat: str | None) -> tuple[Loaded, tuple[Any, ...]]:
    rules = rules_for(kind)
    if seat is not None and seat not in rules.seats:
        raise UnknownName(f"'{seat}' is not a side.", legal=rules.seats)
    seats = {seat: ctx.actor} if seat else {}
    return await ctx.app.sessions.create(
        kind=kind, channel_id=ctx.channel_id, guild_id=ctx.guild_id, host=ctx.actor,
        options=options, seats=seats,
    )


async def join(ctx: Ctx, kind: str, seat: str | None) -> tuple[Loaded, str, bool]:
    """Take a free seat (the only free one if none is named).  Returns the game, the
    seat taken, and whether this started the game (every seat taken)."""
    loaded = await ctx.app.sessions.load(ctx.channel_id, kind=kind)
    game = loaded.game
    free = [s for s in loaded.rules.seats if s not in game.seats]
    if game.status != "open" or not free:
        raise IllegalOrder("Every seat of this game is taken.",
                           legal=("a moderator may /replace a player",))
    if game.seat_of(ctx.actor.id):
        raise IllegalOrder(f"You already play {', '.join(game.seat_of(ctx.actor.id))} in this game.")
    if seat is None:
        if len(free) > 1:
            raise NotationError("Which side do you take?", legal=free)
        seat = free[0]
    if seat not in free:
        raise IllegalOrder(f"The {seat} seat is taken.", legal=free)
    seats = {**game.seats, seat: ctx.actor.id}
    starting = len(seats) == len(loaded.rules.seats)
    await ctx.app.repo.remember_player(ctx.actor.id, ctx.actor.name, game.updated_at)
    loaded = await ctx.app.sessions.update_game(
        ctx.channel_id, kind=kind, seats=seats, status="active" if starting else None,
        record=NewOrder(kind="seat", seat=seat, text=f"join {seat}", actor_id=ctx.actor.id),
    )
    return loaded, seat, starting


async def replace(ctx: Ctx, kind: str, seat: str, user: Actor) -> Loaded:
    loaded = await ctx.app.sessions.load(ctx.channel_id, kind=kind)
    require_host_or_moderator(ctx, loaded, "replace a player")
    if seat not in loaded.rules.seats:
        raise UnknownName(f"'{seat}' is not a side.", legal=loaded.rules.seats)
    other = [s for s, uid in loaded.game.seats.items() if uid == user.id and s != seat]
    if other:
        raise IllegalOrder(f"{user.name} already plays {other[0]} in this game.")
    await ctx.app.repo.remember_player(user.id, user.name, loaded.game.updated_at)
    seats = {**loaded.game.seats, seat: user.id}
    starting = loaded.game.status == "open" and len(seats) == len(loaded.rules.seats)
    return await ctx.app.sessions.update_game(
        ctx.channel_id, kind=kind, seats=seats, status="active" if starting else None,
        record=NewOrder(kind="seat", seat=seat, text=f"replace {seat} with {user.id}",
                        actor_id=ctx.actor.id),
    )


async def abort(ctx: Ctx, kind: str) -> Loaded:
    loaded = await ctx.app.sessions.load(ctx.channel_id, kind=kind)
    require_host_or_moderator(ctx, loaded, "abort the game")
    return await ctx.app.sessions.update_game(
        ctx.channel_id, kind=kind, status="aborted",
        record=NewOrder(kind="admin", seat="", text="abort", actor_id=ctx.actor.id),
    )


async def undo(ctx: Ctx, kind: str) -> tuple[Loaded, str]:
    loaded = await ctx.app.sessions.load(ctx.channel_id, kind=kind)
    require_host_or_moderator(ctx, loaded, "undo an order")
    return await ctx.app.sessions.undo(ctx.channel_id, ctx.actor, kind=kind)
