"""``/minis``: play Axis & Allies Miniatures by post.

Handlers stay thin: read the options, turn them into the engine's order notation, and
hand it to :func:`bot.minis.front.order` (session → engine → store → reply → ping).
Looking commands (map, los, card, units, status, log) answer from the stored game.
"""

from __future__ import annotations

from bot.clock import parse_duration
from bot.commands.base import Option, command
from bot.context import Ctx
from bot.lobby import abort, join, open_game, replace, undo
from bot.minis import complete, views
from bot.minis.front import KIND, order, ping
from engine.core.errors import NotationError

SIDES = ("axis", "allies")
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
STANDING = ("ask", "hold", "first", "vehicles")

UNIT = Option("unit", str, "Your unit (id such as ax3, or its name)", autocomplete=complete.own_unit)
TO = Option("to", str, "Destination hex, e.g. F7", autocomplete=complete.destination)
FACE = Option("face", str, "Facing of a Vehicle afterwards", required=False, choices=FACINGS)


def _durations(**values: str | None) -> None:
    for name, value in values.items():
        if value and value.lower() not in ("off", "never", "0"):
            try:
                parse_duration(value)
            except NotationError:
                raise NotationError(f"'{value}' is not a duration for {name}.",
                                    legal=("30m", "12h", "3d", "off")) from None


# --------------------------------------------------------------------------- the game's life


@command(
    "minis new",
    "Open an A&A Miniatures battle in this channel",
    Option("scenario", str, "Standard (M-3) or Assault (M-17)", required=False, default="standard",
           choices=("standard", "assault")),
    Option("side", str, "The side you play (or leave it open)", required=False, choices=SIDES),
    Option("points", int, "Army points (Standard 100; Assault attacker 120 / defender 80)",
           required=False, min_value=10, max_value=1000),
    Option("year", int, "Only units of this year or earlier (M-2.4)", required=False,
           min_value=1936, max_value=1946),
    Option("historical", bool, "Historical army limits (M-2.3)", required=False, default=False),
    Option("map", str, "Configuration 1-6, or random (a die roll, M-3.2)", required=False,
           default="random", autocomplete=complete.map_choice),
    Option("attacker", str, "Assault: which side attacks", required=False, choices=SIDES),
    Option("stacking", int, "Friendly units per hex: 2 (2005 rules) or 3 (2008 update)",
           required=False, default=2, choices=("2", "3")),
    Option("costs", str, "Unit costs: revised cards or the 2005 printing", required=False,
           default="revised", choices=("revised", "2005")),
    Option("standing", str, "Default defensive-fire standing order", required=False,
           default="ask", choices=STANDING),
    Option("remind", str, "Remind a player after (e.g. 24h, off)", required=False, default="24h"),
    Option("timeout", str, "Apply the timeout policy after (e.g. 3d, off)", required=False,
           default="off"),
    Option("policy", str, "On timeout: end the phase, hold fire, or forfeit", required=False,
           default="done", choices=("done", "hold", "forfeit")),
    Option("prompt_timeout", str, "A defensive-fire prompt falls back to standing orders after",
           required=False, default="12h"),
    Option("custom", str, "A custom scenario (JSON document, M-18)", required=False),
    Option("cards", str, "A league's own unit cards (JSON, see docs/units.md)", required=False),
    defer=True,
)
async def minis_new(ctx: Ctx, scenario: str, side: str | None, points: int | None, year: int | None,
                    historical: bool, map: str, attacker: str | None, stacking: int, costs: str,
                    standing: str, remind: str, timeout: str, policy: str, prompt_timeout: str,
                    custom: str | None, cards: str | None) -> None:
    _durations(remind=remind, timeout=timeout, prompt_timeout=prompt_timeout)
    options = views.new_options(
        scenario=custom or scenario, points=points, year=year, historical=historical, map=map,
        attacker=attacker, stacking=int(stacking), costs=costs, standing=standing,
        remind=remind, timeout=timeout, policy=policy, prompt_timeout=prompt_timeout, cards=cards)
    loaded, events = await open_game(ctx, KIND, options, side)
    await ctx.reply(views.opened_text(loaded, events, ctx.actor, side), ephemeral=False)


@command("minis join", "Take a side in this channel's battle",
         Option("side", str, "axis or allies (the free one if omitted)", required=False, choices=SIDES))
async def minis_join(ctx: Ctx, side: str | None) -> None:
    loaded, seat, started = await join(ctx, KIND, side)
    text = f"{ctx.actor.mention} joins as **{seat}**."
    if started:
        text += " Every seat is taken: the battle begins with secret army building."
    await ctx.reply(text, ephemeral=False)
    if started:
        await ping(ctx.channel, ctx.channel_id, loaded)


# --------------------------------------------------------------------------- before the battle


@command("minis army", "Enter or edit your secret army list (only you see it)",
         Option("units", str, "e.g. sherman, 2 garand, bazooka (replaces your list)", required=False,
                autocomplete=complete.army_units),
         Option("ready", bool, "Lock it in (true) or unlock it (false)", required=False),
         ephemeral=True)
async def minis_army(ctx: Ctx, units: str | None, ready: bool | None) -> None:
    if units is None and ready is None:
        await ctx.reply(await views.army_text(ctx), ephemeral=True)
        return
    if ready is False:
        raise NotationError("To change a ready army, enter a new list: it is no longer ready then.",
                            legal=("/minis army units:…",))
    if units is not None:
        await order(ctx, f"army {units}")
    if ready:
        await order(ctx, "ready")


@command("minis initiative", "Won the coin toss or the initiative: go first or second",
         Option("choice", str, "first or second", choices=("first", "second")))
async def minis_initiative(ctx: Ctx, choice: str) -> None:
    await order(ctx, choice)


@command(
    "minis deploy",
    "Place a unit in your zone (or, Assault defender: choose map, objective, end)",
    Option("unit", str, "Your unit", required=False, autocomplete=complete.own_unit),
    Option("to", str, "Hex in your deployment zone", required=False, autocomplete=complete.destination),
    FACE,
    Option("aboard", str, "Start aboard this transport (M-3.7)", required=False,
           autocomplete=complete.own_unit),
    Option("map", int, "Assault defender: the configuration (M-17.2)", required=False,
           min_value=1, max_value=6),
    Option("objective", str, "Assault defender: the objective hex (M-17.2)", required=False),
    Option("end", str, "Assault defender: the end you defend (M-17.3)", required=False,
           choices=("west", "east")),
)
async def minis_deploy(ctx: Ctx, unit: str | None, to: str | None, face: str | None,
                       aboard: str | None, map: int | None, objective: str | None, end: str | None) -> None:
    await order(ctx, views.deploy_order(unit, to, face, aboard, map, objective, end))


@command("minis done", "End your phase (or your deployment)")
async def minis_done(ctx: Ctx) -> None:
    await order(ctx, "done")


# --------------------------------------------------------------------------- the battle


@command("minis move", "Move a unit (movement phase, or instead of attacking in assault)",
         UNIT, TO,
         Option("path", str, "Hexes to pass through, e.g. \"E6 F6\"", required=False),
         FACE, defer=True)
async def minis_move(ctx: Ctx, unit: str, to: str, path: str | None, face: str | None) -> None:
    text = f"move {unit} {to}" + (f" via {path}" if path else "") + (f" face {face}" if face else "")
    await order(ctx, text)


@command("minis face", "Turn a Vehicle in place (counts as its move)",
         UNIT, Option("facing", str, "The hexside to face", choices=FACINGS))
async def minis_face(ctx: Ctx, unit: str, facing: str) -> None:
    await order(ctx, f"face {unit} {facing}")


@command("minis attack", "Attack with a unit (assault phase)",
         UNIT, Option("target", str, "Enemy unit", autocomplete=complete.target),
         Option("cannon", bool, "Use the Additional Hull-Mounted Cannon", required=False, default=False),
         Option("ap", bool, "Declare Armor-Piercing Rounds (once per game)", required=False, default=False),
         defer=True)
async def minis_attack(ctx: Ctx, unit: str, target: str, cannon: bool, ap: bool) -> None:
    await order(ctx, f"attack {unit} {target}" + (" cannon" if cannon else "") + (" ap" if ap else ""))


@command("minis board", "A Soldier boards a transport in its hex (movement phase)",
         UNIT, Option("transport", str, "Your transport", autocomplete=complete.own_unit))
async def minis_board(ctx: Ctx, unit: str, transport: str) -> None:
    await order(ctx, f"board {unit} {transport}")


@command("minis dismount", "A Soldier gets off its transport (movement phase)", UNIT)
async def minis_dismount(ctx: Ctx, unit: str) -> None:
    await order(ctx, f"dismount {unit}")


@command("minis demolish", "Try to blow the bridge in the unit's hex (Bridge Demolition)",
         UNIT, Option("across", str, "The hex across the bridge, if there are several", required=False))
async def minis_demolish(ctx: Ctx, unit: str, across: str | None) -> None:
    await order(ctx, f"demolish {unit}" + (f" {across}" if across else ""))


@command("minis fire", "Defensive fire at the moving enemy (answers the prompt)",
         Option("unit", str, "Your unit that fires", autocomplete=complete.own_unit),
         Option("at", str, "The hex the enemy is leaving or entering", choices=("leaving", "entering")),
         defer=True)
async def minis_fire(ctx: Ctx, unit: str, at: str) -> None:
    await order(ctx, f"fire {unit} {at}")


@command("minis hold", "Hold fire (answers a defensive-fire prompt)", defer=True)
async def minis_hold(ctx: Ctx) -> None:
    await order(ctx, "hold")


@command("minis standing", "Standing defensive-fire order for a unit (answers prompts for you)",
         UNIT, Option("policy", str, "ask me, hold, fire at the first provoker, fire at Vehicles only",
                      choices=STANDING),
         ephemeral=True)
async def minis_standing(ctx: Ctx, unit: str, policy: str) -> None:
    await order(ctx, f"standing {unit} {policy}")


# --------------------------------------------------------------------------- looking


@command("minis map", "The battlefield now, with an optional overlay",
         Option("overlay", str, "What to show on top", required=False, default="moves",
                choices=("moves", "los", "ranges", "reach", "none")),
         Option("unit", str, "Unit for ranges / reach", required=False, autocomplete=complete.any_unit),
         Option("from", str, "Line of sight: from hex", required=False),
         Option("to", str, "Line of sight: to hex", required=False),
         defer=True)
async def minis_map(ctx: Ctx, overlay: str, unit: str | None, **hexes: str | None) -> None:
    text, image = await views.map_view(ctx, overlay, unit, hexes.get("from"), hexes.get("to"))
    await ctx.reply(text, files=[image], ephemeral=False)


@command("minis los", "Can these two hexes see each other? (M-10)",
         Option("from", str, "A hex, e.g. F7"), Option("to", str, "A hex, e.g. M3"))
async def minis_los(ctx: Ctx, **hexes: str) -> None:
    await ctx.reply(await views.los_text(ctx, hexes["from"], hexes["to"]), ephemeral=False)


@command("minis card", "A unit's stat card as an image",
         Option("unit", str, "A unit id in this battle, or a card name", autocomplete=complete.card_or_unit),
         defer=True)
async def minis_card(ctx: Ctx, unit: str) -> None:
    text, image = await views.card_view(ctx, unit)
    await ctx.reply(text, files=[image], ephemeral=False)


@command("minis units", "Browse the unit catalogue",
         Option("side", str, "axis or allies", required=False, choices=SIDES),
         Option("nation", str, "e.g. Germany, USA", required=False),
         Option("search", str, "Part of a name", required=False),
         ephemeral=True)
async def minis_units(ctx: Ctx, side: str | None, nation: str | None, search: str | None) -> None:
    await ctx.reply(views.units_text(side, nation, search), ephemeral=True)


@command("minis status", "Where the battle stands and who must act")
async def minis_status(ctx: Ctx) -> None:
    await ctx.reply(await views.status_text(ctx), ephemeral=False)


@command("minis log", "The battle's order log, newest last",
         Option("page", int, "Page (1 = the most recent)", required=False, default=1, min_value=1))
async def minis_log(ctx: Ctx, page: int) -> None:
    await ctx.reply(await views.log_text(ctx, page), ephemeral=True)


# --------------------------------------------------------------------------- host and moderators


@command("minis replace", "Give a side to another player (host or moderator)",
         Option("side", str, "The side", choices=SIDES),
         Option("user", str, "The new player (@mention)"))
async def minis_replace(ctx: Ctx, side: str, user: str) -> None:
    who = await ctx.user(user)
    loaded = await replace(ctx, KIND, side, who)
    await ctx.reply(f"{who.mention} now plays **{side}** (set by {ctx.actor.mention}).", ephemeral=False)
    if loaded.game.status == "active":
        await ping(ctx.channel, ctx.channel_id, loaded)


@command("minis abort", "End this channel's battle without a result (host or moderator)")
async def minis_abort(ctx: Ctx) -> None:
    await abort(ctx, KIND)
    await ctx.reply(f"The battle was aborted by {ctx.actor.mention}. Its log stays on record.",
                    ephemeral=False)


@command("minis undo", "Take back the last order (host or moderator; no dice are re-rolled)",
         defer=True)
async def minis_undo(ctx: Ctx) -> None:
    loaded, text = await undo(ctx, KIND)
    await ctx.reply(f"↩️ {ctx.actor.mention} undid `{text}`. The dice it rolled come back for the"
                    " next orders.", ephemeral=False)
    await ping(ctx.channel, ctx.channel_id, loaded)


@command("minis concede", "Concede the battle")
async def minis_concede(ctx: Ctx) -> None:
    await order(ctx, "concede")
