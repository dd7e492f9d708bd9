"""``/minis``: play Axis & Allies Miniatures by post.

The game's life (new, join, replace, undo, abort, concede, log, status, settings) comes
from the generic lifecycle (bot/lifecycle.py); this module adds the options of ``new``
and the battle's own orders and look-ups.  Handlers stay thin: read the options, write
the engine's order, and hand it to :func:`bot.present.play` (session → engine → store →
reply → report → ping).  Discord allows 25 names under ``/minis``: the transport orders
and the defensive-fire answers live in the ``transport`` and ``defend`` groups.
"""

from __future__ import annotations

from typing import Any

from bot.commands.base import Option, command
from bot.context import Ctx
from bot.lifecycle import register_lifecycle
from bot.minis import complete, views
from bot.minis.front import FRONT, KIND, minis_state
from bot.present import play
from engine.core.errors import NotationError

SIDES = ("axis", "allies")
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
STANDING = ("ask", "hold", "first", "vehicles")

UNIT = Option("unit", str, "Your unit (id such as ax3, or its name)", autocomplete=complete.own_unit)
TO = Option("to", str, "Destination hex, e.g. F7", autocomplete=complete.destination)
FACE = Option("face", str, "Facing of a Vehicle afterwards", required=False, choices=FACINGS)


# --------------------------------------------------------------------------- the game's life


async def _build(ctx: Ctx, v: dict[str, Any]) -> dict[str, Any]:
    return views.new_options(
        scenario=v["custom"] or v["scenario"], points=v["points"], year=v["year"],
        historical=v["historical"], map=v["map"], attacker=v["attacker"], stacking=int(v["stacking"]),
        costs=v["costs"], standing=v["standing"], cards=v["cards"], custom=v["custom"] is not None)


register_lifecycle(
    FRONT,
    new_description="Open an A&A Miniatures battle in this channel",
    new_options=(
        Option("scenario", str, "Standard (M-3) or Assault (M-17)", required=False, default="standard",
               choices=("standard", "assault")),
        Option("points", int, "Army points (Standard 100; Assault attacker 120 / defender 80)",
               required=False, min_value=10, max_value=1000),
        Option("year", int, "Only units of this year or earlier (M-2.4)", required=False,
               min_value=1936, max_value=1946),
        Option("historical", bool, "Historical army limits (M-2.3)", required=False, default=False),
        Option("map", str, "Configuration 1-6, or random (a die roll, M-3.2)", required=False,
               autocomplete=complete.map_choice),
        Option("attacker", str, "Assault: which side attacks", required=False, choices=SIDES),
        Option("stacking", int, "Friendly units per hex: 2 (2005 rules) or 3 (2008 update)",
               required=False, default=2, choices=("2", "3")),
        Option("costs", str, "Unit costs: revised cards or the 2005 printing", required=False,
               default="revised", choices=("revised", "2005")),
        Option("standing", str, "Default defensive-fire standing order", required=False,
               default="ask", choices=STANDING),
        Option("custom", str, "A custom scenario (JSON document, M-18), with its own map", required=False),
        Option("cards", str, "A league's own unit cards (JSON, see docs/units.md)", required=False),
    ),
    build=_build,
)


# --------------------------------------------------------------------------- before the battle


@command("minis army", "Enter, edit or lock your secret army list (only you see it)",
         Option("units", str, "e.g. sherman, 2 garand, bazooka (replaces your list)", required=False,
                autocomplete=complete.army_units),
         Option("ready", bool, "Lock it in (true)", required=False),
         ephemeral=True)
async def minis_army(ctx: Ctx, units: str | None, ready: bool | None) -> None:
    if units is None and ready is None:
        await ctx.reply(await views.army_text(ctx), ephemeral=True)
        return
    if ready is False:
        raise NotationError("To change a ready army, enter a new list: it is no longer ready then.",
                            legal=("/minis army units:…",))
    orders = ([f"army {units}"] if units is not None else []) + (["ready"] if ready else [])
    await play(ctx, KIND, orders)  # a list and ready:true are one command: both or neither


@command("minis initiative", "Won the coin toss or the initiative: go first or second",
         Option("choice", str, "first or second", choices=("first", "second")),
         defer=True)  # it ends a phase: a report with its images follows (issue 14)
async def minis_initiative(ctx: Ctx, choice: str) -> None:
    await play(ctx, KIND, choice)


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
    loaded = await ctx.app.sessions.load(ctx.channel_id, kind=KIND)
    state = minis_state(loaded.seen_by(ctx.actor.id))
    await play(ctx, KIND, views.deploy_order(state, unit, to, face, aboard, map, objective, end))


@command("minis done", "End your phase (or your deployment)", defer=True)  # a phase report follows
async def minis_done(ctx: Ctx) -> None:
    await play(ctx, KIND, "done")


# --------------------------------------------------------------------------- the battle


@command("minis move", "Move a unit (movement phase, or instead of attacking in assault)",
         UNIT, TO,
         Option("path", str, "Hexes to pass through, e.g. \"E6 F6\"", required=False),
         FACE, defer=True)
async def minis_move(ctx: Ctx, unit: str, to: str, path: str | None, face: str | None) -> None:
    await play(ctx, KIND, f"move {unit} {to}" + (f" via {path}" if path else "")
               + (f" face {face}" if face else ""))


@command("minis face", "Turn a Vehicle in place (counts as its move)",
         UNIT, Option("facing", str, "The hexside to face", choices=FACINGS))
async def minis_face(ctx: Ctx, unit: str, facing: str) -> None:
    await play(ctx, KIND, f"face {unit} {facing}")


@command("minis attack", "Attack with a unit (assault phase)",
         UNIT, Option("target", str, "Enemy unit", autocomplete=complete.target),
         Option("cannon", bool, "Use the Additional Hull-Mounted Cannon", required=False, default=False),
         Option("ap", bool, "Declare Armor-Piercing Rounds (once per game)", required=False, default=False),
         defer=True)
async def minis_attack(ctx: Ctx, unit: str, target: str, cannon: bool, ap: bool) -> None:
    await play(ctx, KIND, f"attack {unit} {target}" + (" cannon" if cannon else "") + (" ap" if ap else ""))


@command("minis demolish", "Try to blow the bridge in the unit's hex (Bridge Demolition)",
         UNIT, Option("across", str, "The hex across the bridge, if there are several", required=False))
async def minis_demolish(ctx: Ctx, unit: str, across: str | None) -> None:
    await play(ctx, KIND, f"demolish {unit}" + (f" {across}" if across else ""))


@command("minis transport board", "A Soldier boards a transport in its hex (movement phase)",
         UNIT, Option("transport", str, "Your transport", autocomplete=complete.own_unit))
async def minis_board(ctx: Ctx, unit: str, transport: str) -> None:
    await play(ctx, KIND, f"board {unit} {transport}")


@command("minis transport dismount", "A Soldier gets off its transport (movement phase)", UNIT)
async def minis_dismount(ctx: Ctx, unit: str) -> None:
    await play(ctx, KIND, f"dismount {unit}")


@command("minis defend fire", "Defensive fire at the moving enemy (answers the prompt)",
         Option("unit", str, "Your unit that fires", autocomplete=complete.own_unit),
         Option("at", str, "The hex the enemy is leaving or entering", choices=("leaving", "entering")),
         defer=True)
async def minis_fire(ctx: Ctx, unit: str, at: str) -> None:
    await play(ctx, KIND, f"fire {unit} {at}")


@command("minis defend hold", "Hold fire (answers a defensive-fire prompt)", defer=True)
async def minis_hold(ctx: Ctx) -> None:
    await play(ctx, KIND, "hold")


@command("minis defend standing", "Standing defensive-fire order for a unit (only you see it)",
         UNIT, Option("policy", str, "ask me, hold, fire at the first provoker, fire at Vehicles only",
                      choices=STANDING),
         ephemeral=True)
async def minis_standing(ctx: Ctx, unit: str, policy: str) -> None:
    await play(ctx, KIND, f"standing {unit} {policy}")


# --------------------------------------------------------------------------- looking


@command("minis map", "The battlefield now, with an optional overlay",
         Option("overlay", str, "What to show on top", required=False, default="moves",
                choices=("moves", "los", "ranges", "reach", "none")),
         Option("unit", str, "Unit for ranges / reach", required=False, autocomplete=complete.any_unit),
         Option("from", str, "Line of sight: from hex", required=False),
         Option("to", str, "Line of sight: to hex", required=False),
         Option("zoom", str, "A close-up around this hex, e.g. F7", required=False),
         defer=True)
async def minis_map(ctx: Ctx, overlay: str, unit: str | None, **hexes: str | None) -> None:
    text, image = await views.map_view(ctx, overlay, unit, hexes.get("from"), hexes.get("to"),
                                       hexes.get("zoom"))
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



