"""What the /aa look-ups and the purchase show: built from the state *as the asker may
see it* (the engine's per-seat view), so a purchase still being made stays with its
buyer."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.aa.front import KIND, aa_state
from bot.context import Attachment, Ctx
from bot.session import Loaded
from engine.aa import economy
from engine.aa.board import board
from engine.aa.orders import Buy
from engine.aa.state import CHINA, POWERS, SIDE, AAState
from engine.aa.units import SHORT, format_counts, kind_counts, parse_counts
from engine.core.errors import IllegalOrder, UnknownName


async def _state(ctx: Ctx) -> tuple[Loaded, AAState]:
    loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=KIND)
    return loaded, aa_state(loaded.seen_by(ctx.actor.id))


def _merge(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = dict(a)
    for k, n in b.items():
        out[k] = out.get(k, 0) + n
    return out


async def buy_order(ctx: Ctx, units: str | None, repair: str | None, add: bool) -> str:
    """The ``buy`` order for the options given: with ``add``, on top of what the asker
    bought so far this phase (which only they can see)."""
    counts = parse_counts(units) if units else {}
    repairs: dict[str, int] = {}
    for part in (repair or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, _, n = part.rpartition(" ")
        if not name or not n.isdigit():
            raise IllegalOrder(f"Cannot read the repair '{part}'.", legal=('/aa buy repair:"Germany 2"',))
        t = board().resolve(name)
        repairs[t] = repairs.get(t, 0) + int(n)
    if add:
        loaded, state = await _state(ctx)
        if state.purchase is not None:
            counts = _merge(dict(state.purchase.units), counts)
            repairs = _merge(dict(state.purchase.repairs), repairs)
    text = "buy " + format_counts(counts)
    for t, markers in sorted(repairs.items()):
        text += f"; repair {t} {markers}"
    return text


def purchase_text(loaded: Loaded, power: str, user_id: int) -> str:
    """The running total of the purchase being made (shown to the buyer alone, read from
    the buyer's view of the game)."""
    state = aa_state(loaded.seen_by(user_id))
    p = state.purchase
    have = state.ipcs.get(power, 0)
    if p is None:
        return f"Nothing bought yet; {have} IPCs to spend."
    cost = economy.check_buy(state, Buy(power, p.units, p.repairs))
    lines = [f"🛒 {power} buys {format_counts(p.units)}"
             + ("".join(f"; repair {t} {n}" for t, n in p.repairs)) + f": **{cost} IPCs**,"
             f" {have - cost} left of {have}."]
    capacity = economy.capacity_total(state, power)
    count = sum(n for k, n in p.units if k != "factory")
    if count > capacity:
        lines.append(f"⚠️ Your factories can place {capacity} units this turn; {count - capacity} would wait.")
    lines.append("Change it with `/aa buy` (add:true adds), then `/aa done` to pay and end the phase."
                 " Others see it only then.")
    return "\n".join(lines)


async def territory_text(ctx: Ctx, name: str) -> str:
    b = board()
    where = b.resolve(name)
    _, state = await _state(ctx)
    s = b.space(where)
    lines: list[str] = []
    if s.is_sea:
        lines.append(f"🌊 **{where}**" + (f" (canal: {s.canal})" if s.canal else ""))
    else:
        owner = state.controller(where)
        facts = [f"{s.ipc} IPC", f"held by {owner or 'nobody'}"]
        if s.original and s.original != owner:
            facts.append(f"originally {s.original}")
        if s.victory_city:
            facts.append(f"victory city {s.victory_city}")
        if s.capital_of:
            facts.append(f"capital of {s.capital_of}")
        if s.neutral:
            facts.append("neutral, impassable")
        if where in state.factories:
            facts.append(f"factory ({state.factories[where]} damage, places"
                         f" {economy.factory_capacity(state, where, owner or '')} a turn)")
        lines.append(f"🗺️ **{where}**: " + ", ".join(facts) + ".")
    here = state.units_at(where)
    for power in POWERS:
        if any(u.owner == power for u in here):
            lines.append(f"• {power}: {format_counts(kind_counts(u for u in here if u.owner == power))}")
    if not here:
        lines.append("No units.")
    boats = [u for u in state.units_at(where) if u.kind == "transport"]
    if boats:  # their ids, for `/aa sea load … onto:#12`
        lines.append("Transports: " + ", ".join(
            f"#{u.id} ({u.owner}" + (f", carrying {format_counts(kind_counts(state.transport_load(u.id)))}"
                                     if state.transport_load(u.id) else ", empty") + ")" for u in boats))
    lines.append("Next to: " + ", ".join(sorted(b.adj[where])) + ".")
    return "\n".join(lines)


async def units_text(ctx: Ctx, power_name: str) -> str:
    power = next((p for p in POWERS if p.lower() == power_name.strip().lower()), None)
    if power is None:
        raise UnknownName(f"'{power_name}' is not a power.", legal=[f"/aa units power:{p}" for p in POWERS])
    _, state = await _state(ctx)
    owned = list(state.owned(power))
    order = board().order
    lines = [f"**{power}** ({SIDE[power]}): {len(owned)} units, {state.ipcs.get(power, 0)} IPCs in hand."]
    for where in sorted({u.where for u in owned}, key=order.__getitem__):
        lines.append(f"• {where}: {format_counts(kind_counts(u for u in owned if u.where == where))}")
    pool = state.pool_of(power)
    if pool:
        lines.append("To place: " + format_counts(pool))
    techs = sorted(state.tech(power))
    if techs:
        lines.append("Technologies: " + ", ".join(techs))
    from bot.present import clip

    return clip(lines, more=" (see /aa territory)")


async def income_text(ctx: Ctx) -> str:
    _, state = await _state(ctx)
    counts = state.victory_count()
    lines = [f"**Round {state.round}** — victory cities: Axis {counts['axis']}, Allies {counts['allies']}"
             f" (target {state.options.victory_cities})."]
    for power in POWERS:
        cities = sum(1 for t in board().victory_cities() if state.control.get(t) == power)
        cities_text = f"{cities} victory cit{'y' if cities == 1 else 'ies'}"
        if power == CHINA:  # China collects no IPCs: it recruits infantry
            lines.append(f"• {power}: collects no IPCs (its territories, worth"
                         f" {economy.production(state, power)}, pay nobody);"
                         f" {economy.china_territories(state)} territories give"
                         f" {economy.china_recruit_count(state)} new infantry in the US purchase phase,"
                         f" {cities_text}")
            continue
        lines.append(f"• {power}: {state.ipcs.get(power, 0)} IPCs in hand, territories worth"
                     f" {economy.production(state, power)}, {cities_text}")
    return "\n".join(lines)


REGIONS = ("world", "europe", "pacific", "asia", "africa", "americas", "atlantic")


async def turn_events(ctx: Ctx, loaded: Loaded) -> list[dict[str, Any]]:
    """The events of the turn being played, as the asker may see them."""
    from bot.session import effective_rows
    from engine.core.game import visible_events

    rows = effective_rows(await ctx.app.repo.orders(loaded.game.id))
    flat = [e for row in rows for e in row.events]
    starts = [i for i, e in enumerate(flat) if e.get("type") == "TurnStarted"]
    tail = flat[starts[-1]:] if starts else flat
    return [dict(e) for e in visible_events(loaded.rules, tail, loaded.viewer(ctx.actor.id))]


async def send_map(ctx: Ctx, region: str) -> None:
    """The map with this turn's moves as arrows and its battles (fought or to fight) ringed."""
    loaded, state = await _state(ctx)
    from render.aa.world import Overlay, map_png, overlay_from

    done = overlay_from(await turn_events(ctx, loaded))
    pending = tuple(s.where for s in state.sites if s.kind != "raid" and s.where not in done.battles)
    overlay = Overlay(done.battles + pending, done.moves)
    data = await asyncio.to_thread(map_png, state, region=region, overlay=overlay)
    await ctx.reply(f"🗺️ Round {state.round}, {state.actor}: {state.phase} — {region}.", ephemeral=False,
                    files=[Attachment(f"aa-{region}.png", data)])


__all__ = ["SHORT"]
