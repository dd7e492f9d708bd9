"""Autocomplete for /memoir options: only what is legal for the asker now, computed on
the state as the asker may see it (their own hand, the public board).  Sources never
raise: no game, or someone who is not playing, just gets fewer suggestions."""

from __future__ import annotations

from typing import Any, Mapping

from bot.context import Ctx
from bot.memoir.front import KIND, memoir_state
from bot.memoir.narrate import card_name
from engine.memoir import legal, turn
from engine.memoir.board import hex_key, label
from engine.memoir.orders import Battle, Move
from engine.memoir.scenario import SHIPPED
from engine.memoir.state import MemoirState

LIMIT = 25
Choices = list[tuple[str, str]]


async def _mine(ctx: Ctx) -> tuple[MemoirState, str] | None:
    loaded = await ctx.app.sessions.find(ctx.channel_id)
    if loaded is None or loaded.game.kind != KIND:
        return None
    seat = loaded.acting_seat(ctx.actor.id)
    if seat is None:
        return None
    return memoir_state(loaded.seen_by(ctx.actor.id)), seat


def _fits(partial: str, *texts: str) -> bool:
    key = partial.strip().lower()
    return not key or any(key in t.lower() for t in texts)


async def scenario(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    return [(s, s) for s in (*SHIPPED, "random") if _fits(partial, s)]


async def card(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    """The cards of the asker's hand that may be played now."""
    found = await _mine(ctx)
    if found is None:
        return []
    state, seat = found
    now = state.step == "play" and state.active == seat and state.fight is None and not state.over
    kinds = sorted({p.card for p in legal.play_orders(state, seat)}) if now else []
    return [(card_name(k), k) for k in kinds if _fits(partial, k, card_name(k))][:LIMIT]


async def units(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    """The units the card played may order: what was typed so far plus one more."""
    found = await _mine(ctx)
    if found is None:
        return []
    state, seat = found
    if state.step != "order" or state.played is None or state.active != seat:
        return []
    pool, _ = turn.eligible(state, seat, state.played)
    typed = partial.upper().split()
    ends_word = not partial or partial.endswith(" ")
    head = typed if ends_word else typed[:-1]
    last = "" if ends_word else typed[-1]
    out: Choices = []
    for u in sorted(pool, key=lambda u: hex_key(u.hex)):
        if u.where in head or (last and not u.where.startswith(last)):
            continue
        value = " ".join([*head, u.where])
        out.append((f"{value} ({u.type})", value))
    return out[:LIMIT]


async def own_unit(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    """Ordered units that may still move or battle (or the asker's units otherwise)."""
    found = await _mine(ctx)
    if found is None:
        return []
    state, seat = found
    hexes = sorted({label(o.path[0]) if isinstance(o, Move) else label(o.attacker)
                    for o in legal.legal_orders(state, seat) if isinstance(o, (Move, Battle))})
    if not hexes:
        hexes = sorted(u.where for u in state.units_of(seat))
    return [(h, h) for h in hexes if _fits(partial, h)][:LIMIT]


async def _ends(ctx: Ctx, partial: str, options: Mapping[str, Any], kind: type[Move] | type[Battle]) -> Choices:
    """Where the unit named in the ``unit`` option may legally move (``Move``) or which
    hexes it may battle (``Battle``)."""
    found = await _mine(ctx)
    if found is None:
        return []
    state, seat = found
    start = str(options.get("unit", "")).upper()
    ends: set[str] = set()
    for o in legal.legal_orders(state, seat):
        if isinstance(o, Move) and kind is Move and label(o.start) == start:
            ends.add(label(o.end))
        elif isinstance(o, Battle) and kind is Battle and label(o.attacker) == start:
            ends.add(label(o.target))
    return [(h, h) for h in sorted(ends) if _fits(partial, h)][:LIMIT]


async def destination(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    return await _ends(ctx, partial, options, Move)


async def target(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> Choices:
    return await _ends(ctx, partial, options, Battle)
