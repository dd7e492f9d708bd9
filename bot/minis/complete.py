"""Autocomplete for /minis options: legal choices first, then the rest that matches.

Each source gets what the user typed so far and the other options already filled in
(e.g. the chosen unit when completing a destination).  Sources never raise: no game, or
a user who is not playing, simply yields fewer suggestions.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from bot.context import Ctx
from bot.minis.front import KIND, minis_state
from bot.session import Loaded
from engine.minis.catalogue import load_catalogue
from engine.minis.legal import legal_orders, unit_orders
from engine.minis.orders import Attack, Deploy, Move
from engine.minis.state import MinisState, Phase, UnitState

LIMIT = 25
Choices = list[tuple[str, str]]


async def _game(ctx: Ctx) -> tuple[Loaded, MinisState, str | None] | None:
    """The channel's battle as the asker may see it (suggestions go to the asker alone)."""
    loaded = await ctx.app.sessions.find(ctx.channel_id)
    if loaded is None or loaded.game.kind != KIND:
        return None
    state = minis_state(loaded.seen_by(ctx.actor.id))
    return loaded, state, loaded.acting_seat(ctx.actor.id)


def _match(partial: str, *texts: str) -> bool:
    key = partial.strip().lower()
    return not key or any(key in t.lower() for t in texts)


def _unit_label(state: MinisState, u: UnitState) -> str:
    card = state.cards[u.card]
    where = state.map.label(u.hex) if u.hex is not None else "not deployed"
    return f"{u.id} {card.name} ({where})"


def _rank(choices: Iterable[tuple[bool, str, str]]) -> Choices:
    ordered = sorted(choices, key=lambda c: (not c[0], c[2]))
    return [(label, value) for _, label, value in ordered][:LIMIT]


def _unit_with_orders(state: MinisState, seat: str) -> set[str]:
    if state.phase in (Phase.MOVEMENT, Phase.ASSAULT) and state.active == seat and state.move is None:
        ids: set[str] = set()
        for u in state.units:
            if u.side == seat and u.on_map and any(True for _ in unit_orders(state, seat, u)):
                ids.add(u.id)
        return ids
    if state.phase is Phase.DEPLOYMENT and state.active == seat:
        return {u.id for u in state.units if u.side == seat and u.hex is None and u.carried_by is None}
    return set()


async def own_unit(ctx: Ctx, partial: str, others: Mapping[str, Any]) -> Choices:
    found = await _game(ctx)
    if found is None or found[2] is None:
        return []
    _, state, seat = found
    assert seat is not None
    active = _unit_with_orders(state, seat)
    return _rank((u.id in active, _unit_label(state, u), u.id)
                 for u in state.units
                 if u.side == seat and not u.destroyed and _match(partial, u.id, state.cards[u.card].name))


async def any_unit(ctx: Ctx, partial: str, others: Mapping[str, Any]) -> Choices:
    found = await _game(ctx)
    if found is None:
        return []
    _, state, seat = found
    return _rank((u.side == seat, _unit_label(state, u), u.id) for u in state.units
                 if u.on_map and _match(partial, u.id, state.cards[u.card].name))


async def target(ctx: Ctx, partial: str, others: Mapping[str, Any]) -> Choices:
    found = await _game(ctx)
    if found is None or found[2] is None:
        return []
    _, state, seat = found
    assert seat is not None
    legal: set[str] = set()
    unit_id = str(others.get("unit") or "").strip().lower()
    if unit_id and state.phase is Phase.ASSAULT and state.active == seat:
        try:
            u = state.unit(unit_id)
            legal = {o.target for o in unit_orders(state, seat, u) if isinstance(o, Attack)}
        except Exception:
            legal = set()
    return _rank((u.id in legal, _unit_label(state, u), u.id) for u in state.units
                 if u.side != seat and u.on_map and _match(partial, u.id, state.cards[u.card].name))


async def destination(ctx: Ctx, partial: str, others: Mapping[str, Any]) -> Choices:
    found = await _game(ctx)
    if found is None:
        return []
    _, state, seat = found
    lab = state.map.label
    legal: set[str] = set()
    unit_id = str(others.get("unit") or "").strip().lower()
    if seat and unit_id:
        try:
            u = state.unit(unit_id)
            if u.side == seat:
                if state.phase is Phase.DEPLOYMENT:
                    legal = {lab(o.hex) for o in legal_orders(state, seat)
                             if isinstance(o, Deploy) and o.unit == u.id}
                else:
                    legal = {lab(o.destination) for o in unit_orders(state, seat, u) if isinstance(o, Move)}
        except Exception:
            legal = set()
    key = partial.strip().upper()
    pool = legal if legal else {lab(h) for h in state.map.hexes}
    picks = [(h in legal, h, h) for h in pool if h.startswith(key)]
    return [(label, value) for _, label, value in
            sorted(picks, key=lambda c: (not c[0], len(c[1]), c[1]))][:LIMIT]


async def army_units(ctx: Ctx, partial: str, others: Mapping[str, Any]) -> Choices:
    """Complete the last name of a comma-separated list; the value is the whole list."""
    found = await _game(ctx)
    seat = found[2] if found else None
    head, _, last = partial.rpartition(",")
    count, _, name = last.strip().partition(" ")
    if not count.isdigit():
        count, name = "", last.strip()
    prefix = (head + ", " if head else "") + (count + " " if count else "")
    catalogue = load_catalogue()
    picks = [(c.side == seat, f"{prefix}{c.name} ({c.cost} pts)", f"{prefix}{c.name}")
             for c in catalogue.values() if _match(name, c.name, c.nation)]
    return _rank(picks)


async def card_or_unit(ctx: Ctx, partial: str, others: Mapping[str, Any]) -> Choices:
    units = await any_unit(ctx, partial, others)
    cards = [(c.name, c.name) for c in load_catalogue().values() if _match(partial, c.name)]
    return (units + cards)[:LIMIT]


async def map_choice(ctx: Ctx, partial: str, others: Mapping[str, Any]) -> Choices:
    from engine.minis.maps import configurations

    picks = [("random (die roll)", "random")]
    picks += [(f"{n} {c.name}", str(n)) for n, c in sorted(configurations().items())]
    return [p for p in picks if _match(partial, *p)]
