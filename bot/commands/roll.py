"""``/roll``: dice notation for everyone, no game needed."""

from __future__ import annotations

from bot.commands.base import Option, command
from bot.context import Attachment, Ctx
from bot.roll import roll
from bot.roll_ledger import roll_logged
from render.dice import RolledDie, roll_png

MAX_PICTURED = 40


@command(
    "roll",
    "Roll dice: 2d6, 3d6+2, 4d6kh3, or count successes with 11d6>=4",
    Option("dice", str, "Dice notation, e.g. 11d6>=4 or 3d6+2"),
    Option("image", bool, "Also post a picture of the dice", required=False, default=False),
)
async def roll_command(ctx: Ctx, dice: str, image: bool) -> None:
    note = ""
    if ctx.app.dice.queued:  # a script's !dice (local only): forced dice are not logged
        rolled = ctx.app.dice.quick()
        try:
            result = roll(dice, rolled)
        finally:
            ctx.app.dice.give_back_quick(rolled)
    else:  # from the channel's seed of the day, with an id that /verify checks later
        logged = await roll_logged(ctx.app, ctx.channel_id, ctx.actor.id, dice)
        result, note = logged.result, "\n" + logged.note()
    files = []
    text = result.text() + note
    if image and len(result.faces) > MAX_PICTURED:
        text += f"\n(no picture: more than {MAX_PICTURED} dice)"
    elif image:
        faces = [RolledDie(v, s, k) for v, s, k in result.faces]
        files.append(Attachment("roll.png", roll_png(result.expression, faces, hits=result.hits, total=result.total,
                                                     successes=result.successes)))
    await ctx.reply(text, files=files)
