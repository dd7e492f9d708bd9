"""``/race``: the dice race's command group on the generic lifecycle."""

from __future__ import annotations

from typing import Any

from bot.commands.base import Option, command
from bot.context import Attachment, Ctx
from bot.lifecycle import register_lifecycle
from bot.present import play
from engine.core.game import PUBLIC
from tests.toygame.front import FRONT
from tests.toygame.render import board_png


async def _build(ctx: Ctx, values: dict[str, Any]) -> dict[str, Any]:
    return {"target": values["target"]}


register_lifecycle(FRONT, build=_build, new_options=(
    Option("target", int, "Score to reach", required=False, default=10, min_value=1, max_value=100),))


@command("race secret", "Choose your secret number (only you see it)",
         Option("number", int, "1, 2 or 3", min_value=1, max_value=3), ephemeral=True)
async def race_secret(ctx: Ctx, number: int) -> None:
    await play(ctx, "race", f"secret {number}")


@command("race roll", "Roll a d6 and add it to your score")
async def race_roll(ctx: Ctx) -> None:
    await play(ctx, "race", "roll")


@command("race pass", "Do nothing this turn")
async def race_pass(ctx: Ctx) -> None:
    await play(ctx, "race", "pass")


@command("race boost", "Add your secret number (once)")
async def race_boost(ctx: Ctx) -> None:
    await play(ctx, "race", "boost")


@command("race board", "The race as an image")
async def race_board(ctx: Ctx) -> None:
    loaded = await ctx.app.sessions.latest(ctx.channel_id, kind="race")
    state = loaded.view(PUBLIC)
    await ctx.reply("The race:", files=[Attachment("race.png", board_png(state, "The race"))])
