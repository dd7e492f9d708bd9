"""``/memoir``: play Memoir '44 by post.

The game's life (new, join, replace, undo, abort, concede, log, status, settings) comes
from the generic lifecycle (bot/lifecycle.py); this module adds the options of ``new``,
the turn's orders (play, order, target, move, battle, clear-wire, done), the answers to
pending decisions (``/memoir decide …``), the private hand and the look-ups.  Handlers
stay thin: they write the engine's order and hand it to :func:`bot.present.play`.
Discord allows 25 names under ``/memoir``: the decisions share the ``decide`` group.
"""

from __future__ import annotations

from typing import Any

from bot.commands.base import Option, command
from bot.context import Attachment, Ctx
from bot.lifecycle import register_lifecycle, send_private
from bot.memoir import complete, views
from bot.memoir.front import FRONT, KIND
from bot.present import play
from engine.core.dice import draw_index
from engine.core.errors import NotationError
from engine.memoir.board import SEATS
from engine.memoir.scenario import SHIPPED
from engine.memoir.state import AMBUSH_STANDING

SECTIONS = ("left", "centre", "right")


async def _build(ctx: Ctx, v: dict[str, Any]) -> dict[str, Any]:
    pick = 1
    if (v.get("scenario") or "").strip().lower() == "random" and not v.get("custom") and not v.get("file"):
        dice = ctx.app.dice.quick()
        pick = draw_index(dice, len(SHIPPED)) + 1
        ctx.app.dice.give_back_quick(dice)
    custom = v.get("custom")
    upload: Attachment | None = v.get("file")
    if upload is not None:
        if custom:
            raise NotationError("Give the scenario once: attach it with file: or paste it with custom:.",
                                legal=("/memoir new file:<your .m44 file>", "/memoir new custom:<its text>"))
        try:
            custom = upload.data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise NotationError(f"The file '{upload.filename[:60]}' is not a text file; attach a .m44 file or"
                                " one of our scenario files.") from None
    options: dict[str, Any] = {"scenario": views.scenario_option(v.get("scenario"), custom, pick)}
    if v.get("ambush"):
        options["ambush"] = v["ambush"]
    return options


register_lifecycle(
    FRONT,
    new_description="Open a Memoir '44 game in this channel",
    new_options=(
        Option("scenario", str, "pegasus-bridge, sainte-mere-eglise, sword-beach or random", required=False,
               default="pegasus-bridge", autocomplete=complete.scenario),
        Option("custom", str, "Paste a scenario: our JSON format or a .m44 file's text", required=False),
        Option("file", Attachment, "Attach a scenario file: a .m44 file or our JSON format", required=False),
        Option("ambush", str, "Ambush when close-assaulted: ask (default), pass, or ambush if you can",
               required=False, choices=AMBUSH_STANDING),
    ),
    build=_build,
)


# --------------------------------------------------------------------------- the turn


@command("memoir play", "Play a command card from your hand",
         Option("card", str, "The card, e.g. attack-left", autocomplete=complete.card),
         Option("section", str, "Infantry Assault: which section (your left/centre/right)", required=False,
                choices=SECTIONS),
         defer=True)
async def memoir_play(ctx: Ctx, card: str, section: str | None) -> None:
    await play(ctx, KIND, f"play {card}" + (f" {section}" if section else ""))


@command("memoir order", "Name the units your card orders",
         Option("units", str, "Their hexes, e.g. \"C6 D7\", or none", autocomplete=complete.units))
async def memoir_order(ctx: Ctx, units: str) -> None:
    await play(ctx, KIND, f"order {units}")


@command("memoir target", "Air Power / Barrage: the enemy hexes to hit",
         Option("hexes", str, "1-4 adjacent hexes in order (Air Power), 1 hex (Barrage), or none"),
         defer=True)
async def memoir_target(ctx: Ctx, hexes: str) -> None:
    await play(ctx, KIND, f"target {hexes}")


@command("memoir move", "Move an ordered unit",
         Option("unit", str, "The unit's hex, e.g. C6", autocomplete=complete.own_unit),
         Option("to", str, "Where it goes", autocomplete=complete.destination),
         Option("path", str, "The hexes in between, e.g. \"D6 E6\" (default: a shortest path)",
                required=False),
         defer=True)
async def memoir_move(ctx: Ctx, unit: str, to: str, path: str | None) -> None:
    await play(ctx, KIND, f"move {unit} {to}" + (f" via {path}" if path else ""))


@command("memoir battle", "Battle with an ordered unit (also an Armor Overrun)",
         Option("unit", str, "Your unit's hex", autocomplete=complete.own_unit),
         Option("target", str, "The enemy's hex", autocomplete=complete.target),
         defer=True)
async def memoir_battle(ctx: Ctx, unit: str, target: str) -> None:
    await play(ctx, KIND, f"battle {unit} {target}")


@command("memoir clear-wire", "An ordered infantry unit removes the wire in its hex instead of battling",
         Option("unit", str, "The unit's hex", autocomplete=complete.own_unit))
async def memoir_clear_wire(ctx: Ctx, unit: str) -> None:
    await play(ctx, KIND, f"clear-wire {unit}")


@command("memoir done", "End your movement step, or your battle step (and the turn)", defer=True)
async def memoir_done(ctx: Ctx) -> None:
    await play(ctx, KIND, "done")


# --------------------------------------------------------------------------- decisions


@command("memoir decide ambush", "Play your Ambush against the close assault (answers the prompt)", defer=True)
async def memoir_ambush(ctx: Ctx) -> None:
    await play(ctx, KIND, "ambush")


@command("memoir decide pass", "Do not ambush (answers the prompt)", defer=True)
async def memoir_pass(ctx: Ctx) -> None:
    await play(ctx, KIND, "pass")


@command("memoir decide ignore", "How many flags your unit ignores (E-14.6)",
         Option("flags", int, "Flags to ignore", min_value=0, max_value=6), defer=True)
async def memoir_ignore(ctx: Ctx, flags: int) -> None:
    await play(ctx, KIND, f"ignore {flags}")


@command("memoir decide retreat", "Where your retreating unit ends (E-14)",
         Option("to", str, "The hex it retreats to"), defer=True)
async def memoir_retreat(ctx: Ctx, to: str) -> None:
    await play(ctx, KIND, f"retreat {to}")


@command("memoir decide take-ground", "Move into the hex you just cleared (E-15)", defer=True)
async def memoir_take_ground(ctx: Ctx) -> None:
    await play(ctx, KIND, "take-ground")


@command("memoir decide hold", "Stay put instead of taking ground or an Overrun battle", defer=True)
async def memoir_hold(ctx: Ctx) -> None:
    await play(ctx, KIND, "hold")


@command("memoir decide discard", "Recon: which of the two cards drawn to discard (E-7.3)",
         Option("card", str, "1 or 2 (see /memoir hand), or the card's name"), ephemeral=False)
async def memoir_discard(ctx: Ctx, card: str) -> None:
    await play(ctx, KIND, f"discard {card}")


@command("memoir decide standing", "Your Ambush setting when close-assaulted (only you see it)",
         Option("setting", str, "ask me, always pass, or ambush if I hold the card", choices=AMBUSH_STANDING),
         ephemeral=True)
async def memoir_standing(ctx: Ctx, setting: str) -> None:
    await play(ctx, KIND, f"standing {setting}")


# --------------------------------------------------------------------------- the hand


@command("memoir hand", "Your cards, only for you (buttons to play one)",
         Option("dm", bool, "Send it by direct message (default: your /settings dm choice)", required=False),
         ephemeral=True, defer=True)
async def memoir_hand(ctx: Ctx, dm: bool | None) -> None:
    loaded = await views.game(ctx)
    text, files, buttons = views.hand_message(loaded, ctx)
    if dm is None:
        dm = bool(await ctx.app.repo.user_setting(ctx.actor.id, "dm_turns"))
    await send_private(ctx, text, dm=dm, files=files, buttons=buttons)


# --------------------------------------------------------------------------- looking


@command("memoir board", "The battlefield now, as an image", defer=True)
async def memoir_board(ctx: Ctx) -> None:
    text, image = views.board_reply(await views.position(ctx))
    await ctx.reply(text, files=[image], ephemeral=False)


@command("memoir los", "Line of sight between two hexes (E-11)",
         Option("from", str, "A hex, e.g. G9"), Option("to", str, "A hex, e.g. I9"))
async def memoir_los(ctx: Ctx, **hexes: str) -> None:
    await ctx.reply(views.los_text(await views.position(ctx), hexes["from"], hexes["to"]), ephemeral=False)


@command("memoir battles", "Every battle a side could fight from the position now",
         Option("side", str, "axis or allies", choices=SEATS), ephemeral=True)
async def memoir_battles(ctx: Ctx, side: str) -> None:
    await ctx.reply(views.battles_text(await views.position(ctx), side), ephemeral=True)


@command("memoir moves", "Where a unit could move if ordered (E-9)",
         Option("unit", str, "The unit's hex"), ephemeral=True)
async def memoir_moves(ctx: Ctx, unit: str) -> None:
    await ctx.reply(views.moves_text(await views.position(ctx), unit), ephemeral=True)


@command("memoir card", "A command card as an image, with its effect in a few words",
         Option("name", str, "e.g. attack-left, Air Power"), defer=True)
async def memoir_card(ctx: Ctx, name: str) -> None:
    if not name.strip():
        raise NotationError("Which card?", legal=("/memoir card name:attack-left",))
    text, image = views.card_view(name)
    await ctx.reply(text, files=[image], ephemeral=False)


@command("memoir scenarios", "The scenarios you can open with /memoir new", ephemeral=True)
async def memoir_scenarios(ctx: Ctx) -> None:
    await ctx.reply(views.scenarios_text(), ephemeral=True)
