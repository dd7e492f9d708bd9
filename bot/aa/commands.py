"""``/aa``: play Axis & Allies Anniversary by post.

The game's life (new, join, replace, undo, abort, concede, log, status, settings) comes
from the generic lifecycle, with several seats per person (``multi_seat``); this module
adds the options of ``new``, the orders of every phase and the look-ups.  Handlers stay
thin: they write the engine's order and hand it to :func:`bot.present.play`.  Discord
allows 25 names under ``/aa``: the battle's orders live in ``/aa battle …`` and the
transport orders in ``/aa sea …``.
"""

from __future__ import annotations

from typing import Any

from bot.aa import complete, views
from bot.aa.front import FRONT, KIND, aa_state
from bot.commands.base import Option, command
from bot.context import Ctx
from bot.lifecycle import register_lifecycle
from bot.present import explain, play, present
from engine.aa.state import POWERS
from engine.core.errors import NotationError, PlayerError

UNITS = Option("units", str, 'Units, e.g. "2 inf, 1 tank" (or ids: "#12, #13")')
FROM = Option("from", str, "Where they start", autocomplete=complete.own_space)


async def _build(ctx: Ctx, v: dict[str, Any]) -> dict[str, Any]:
    # Games opened now choose default casualties by the "earliest" rule and let
    # aircraft retreat from a landing with no overland attackers; the engine's
    # defaults stay the older games' rules, so their stored logs replay as played.
    return {"setup": v["setup"], "research": v["research"], "national_objectives": v["objectives"],
            "victory_cities": int(v["victory_cities"]), "casualties": "earliest", "landing_retreat": True}


register_lifecycle(
    FRONT,
    new_description="Open an Axis & Allies Anniversary game in this channel",
    new_options=(
        Option("setup", str, "The 1941 or the 1942 scenario (A-4)", required=False, default="1941",
               choices=("1941", "1942")),
        Option("research", bool, "Research & development (A-7)", required=False, default=True),
        Option("objectives", bool, "National objectives (A-13.3)", required=False, default=True),
        Option("victory_cities", int, "Victory cities to win (A-3.2)", required=False, default=15,
               choices=("13", "15", "18")),
    ),
    build=_build,
    multi_seat=True,
)


async def play_as(ctx: Ctx, texts: str | list[str], power: str | None) -> None:
    """Play for a named power of the asker (a setting, not the power to move)."""
    if power is None:
        await play(ctx, KIND, texts)
        return
    try:
        acted = await ctx.app.sessions.act(ctx.channel_id, ctx.actor, texts, seat=power, kind=KIND)
    except PlayerError as err:
        raise explain(FRONT, err) from None
    await present(ctx.app, ctx.channel, ctx.channel_id, acted, ctx)


# --------------------------------------------------------------------------- phases 1-2


@command("aa research", "Research (A-7): buy researchers and roll for a breakthrough",
         Option("dice", int, "Researchers to buy (5 IPCs each; 0 rolls the ones you have)",
                min_value=0, max_value=20),
         Option("chart", int, "Breakthrough chart 1 or 2", required=False, choices=("1", "2")))
async def aa_research(ctx: Ctx, dice: int, chart: int | None) -> None:
    await play(ctx, KIND, f"research {dice}" + (f" chart {chart}" if chart else ""))


@command("aa buy", "Purchase (A-8): the units and repairs you buy; shows the running total",
         Option("units", str, 'e.g. "3 inf, 1 tank" (replaces what you bought so far)', required=False),
         Option("repair", str, 'Repairs, e.g. "Germany 2"', required=False),
         Option("add", bool, "Add to what you bought so far instead of replacing it", required=False,
                default=False),
         ephemeral=True)
async def aa_buy(ctx: Ctx, units: str | None, repair: str | None, add: bool) -> None:
    text = await views.buy_order(ctx, units, repair, add)
    try:
        acted = await ctx.app.sessions.act(ctx.channel_id, ctx.actor, text, kind=KIND)
    except PlayerError as err:
        raise explain(FRONT, err) from None
    await ctx.reply(views.purchase_text(acted.after, acted.seat, ctx.actor.id), ephemeral=True)
    await present(ctx.app, ctx.channel, ctx.channel_id, acted)


# --------------------------------------------------------------------------- phases 3 and 5


@command("aa move", "Move units (combat move or non-combat move, A-9)",
         UNITS, FROM,
         Option("to", str, "Where they go (territories in reach are offered)", autocomplete=complete.destination),
         Option("via", str, 'Spaces passed through, e.g. "Poland -> Ukraine" (else the engine finds one)',
                required=False),
         Option("kind", str, "A plain move, a strategic bombing raid or a paratrooper drop", required=False,
                default="move", choices=("move", "bomb", "para")),
         defer=True)
async def aa_move(ctx: Ctx, units: str, to: str, via: str | None, kind: str, **rest: Any) -> None:
    start = rest["from"]
    path = " -> ".join([start, *([via] if via else []), to])
    await play(ctx, KIND, f"{kind} {units}: {path}")


@command("aa first", "United States turn: who moves and fights first (A-5.3)",
         Option("power", str, "China or United States", choices=("United States", "China")))
async def aa_first(ctx: Ctx, power: str) -> None:
    await play(ctx, KIND, f"first {power}")


@command("aa sea load", "Load land units onto transports (A-14.6)",
         UNITS, FROM, Option("zone", str, "The sea zone of the transports", autocomplete=complete.destination),
         Option("onto", str, 'Which transports, e.g. "#12"', required=False))
async def aa_load(ctx: Ctx, units: str, zone: str, onto: str | None, **rest: Any) -> None:
    await play(ctx, KIND, f"load {units}: {rest['from']} -> {zone}" + (f" onto {onto}" if onto else ""))


@command("aa sea unload", "Unload transports into a territory (an amphibious assault in phase 3)",
         UNITS, Option("zone", str, "The sea zone of the transports", autocomplete=complete.own_space),
         Option("to", str, "The territory", autocomplete=complete.destination))
async def aa_unload(ctx: Ctx, units: str, zone: str, to: str) -> None:
    await play(ctx, KIND, f"unload {units}: {zone} -> {to}")


@command("aa sea land", "Land a fighter whose carrier sank (A-11.6)",
         UNITS, FROM, Option("to", str, "Where it lands", autocomplete=complete.any_space))
async def aa_land(ctx: Ctx, units: str, to: str, **rest: Any) -> None:
    await play(ctx, KIND, f"land {units}: {rest['from']} -> {to}")


# --------------------------------------------------------------------------- phase 4


@command("aa battle fight", "Fight the battle in a space next (A-10.1)",
         Option("where", str, "The battle", autocomplete=complete.battle_site), defer=True)
async def aa_fight(ctx: Ctx, where: str) -> None:
    await play(ctx, KIND, f"battle {where}")


@command("aa battle casualties", "Choose the units that take the hits (A-10.14)",
         Option("units", str, 'e.g. "2 inf" (the default order of loss is offered)',
                autocomplete=complete.casualty_choice), defer=True)
async def aa_casualties(ctx: Ctx, units: str) -> None:
    await play(ctx, KIND, f"casualties {units}")


@command("aa battle continue", "Press the attack for another round (A-10.9)", defer=True)
async def aa_continue(ctx: Ctx) -> None:
    await play(ctx, KIND, "continue")


@command("aa battle retreat", "Retreat the attackers (A-10.15)",
         Option("to", str, "Where to (leave out for aircraft only)", required=False,
                autocomplete=complete.retreat_to))
async def aa_retreat(ctx: Ctx, to: str | None) -> None:
    await play(ctx, KIND, "retreat" + (f" {to}" if to else ""))


@command("aa battle submerge", "Submerge submarines (A-10.6)",
         Option("count", int, "How many", min_value=0, max_value=30))
async def aa_submerge(ctx: Ctx, count: int) -> None:
    await play(ctx, KIND, f"submerge {count}")


@command("aa battle rocket", "Fire a rocket at an enemy factory (A-7.5)",
         FROM, Option("target", str, "The factory's territory", autocomplete=complete.any_space), defer=True)
async def aa_rocket(ctx: Ctx, target: str, **rest: Any) -> None:
    await play(ctx, KIND, f"rocket {rest['from']} -> {target}")


# --------------------------------------------------------------------------- phase 6 and the end


@command("aa place", "Mobilise new units at a factory (A-12)",
         UNITS, Option("at", str, "The factory's territory", autocomplete=complete.own_space),
         Option("sea", str, "Ships: the adjacent sea zone", required=False, autocomplete=complete.any_space))
async def aa_place(ctx: Ctx, units: str, at: str, sea: str | None) -> None:
    await play(ctx, KIND, f"place {units}: {at}" + (f" -> {sea}" if sea else ""))


@command("aa done", "End the phase (or skip research)", defer=True)
async def aa_done(ctx: Ctx) -> None:
    await play(ctx, KIND, "done")


@command("aa ool", "Your default order of loss (A-10.14), or automatic casualties",
         Option("order", str, 'Units lost first, e.g. "inf, art, tank, fig"', required=False),
         Option("role", str, "When attacking, defending or both", required=False, default="both",
                choices=("both", "attack", "defense")),
         Option("auto", bool, "Take casualties by it without being asked", required=False),
         Option("power", str, "Which of your powers (default: the one playing now)", required=False,
                autocomplete=complete.power))
async def aa_ool(ctx: Ctx, order: str | None, role: str, auto: bool | None, power: str | None) -> None:
    if order is None and auto is None:
        raise NotationError("Give an order of loss, or auto:true / auto:false.",
                            legal=('/aa ool order:"inf, art, tank"', "/aa ool auto:true"))
    texts = ([f"ool {'' if role == 'both' else role + ' '}{order}"] if order else [])
    texts += [f"auto {'on' if auto else 'off'}"] if auto is not None else []
    seat = None
    if power is not None:
        seat = next((p for p in POWERS if p.lower() == power.strip().lower()), None)
        if seat is None:
            raise NotationError(f"'{power}' is not a power.", legal=POWERS)
    await play_as(ctx, texts, seat)


# --------------------------------------------------------------------------- look-ups


@command("aa map", "The world map (or a region of it)",
         Option("region", str, "Zoom on a region", required=False, default="world",
                choices=("world", "europe", "pacific", "asia", "africa", "americas", "atlantic")),
         defer=True)
async def aa_map(ctx: Ctx, region: str) -> None:
    await views.send_map(ctx, region)


@command("aa territory", "A territory or sea zone: owner, IPCs, factory, units, neighbours",
         Option("name", str, "Territory or sea zone", autocomplete=complete.any_space), ephemeral=True)
async def aa_territory(ctx: Ctx, name: str) -> None:
    await ctx.reply(await views.territory_text(ctx, name), ephemeral=True)


@command("aa units", "Where a power's units are, and what it has to place",
         Option("power", str, "The power", autocomplete=complete.power), ephemeral=True)
async def aa_units(ctx: Ctx, power: str) -> None:
    await ctx.reply(await views.units_text(ctx, power), ephemeral=True)


@command("aa income", "Each power's IPCs, income and victory cities", ephemeral=True)
async def aa_income(ctx: Ctx) -> None:
    await ctx.reply(await views.income_text(ctx), ephemeral=True)


__all__ = ["aa_state"]
