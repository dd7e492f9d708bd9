"""``/roll``: dice notation for everyone, no game needed."""

from __future__ import annotations

from bot.commands.base import Option, command
from bot.context import Attachment, Ctx
from bot.roll import roll
from render.dice import RolledDie, roll_png

MAX_PICTURED = 40


@command(
    "roll",
    "Roll dice: 2d6, 3d6+2, 4d6kh3, or count successes with 11d6>=4",
    Option("dice", str, "Dice notation, e.g. 11d6>=4 or 3d6+2"),
    Option("image", bool, "Also post a picture of the dice", required=False, default=False),
)
async def roll_command(ctx: Ctx, dice: str, image: bool) -> None:
    rolled = ctx.app.dice.quick()
    try:
        result = roll(dice, rolled)
    finally:
        ctx.app.dice.give_back_quick(rolled)
    files = []
    text = result.text()
    if image and len(result.faces) > MAX_PICTURED:
        text += f"\n(no picture: more than {MAX_PICTURED} dice)"
    elif image:
        faces = [RolledDie(v, s, k) for v, s, k in result.faces]
        files.append(Attachment("roll.png", roll_png(result.expression, faces, hits=result.hits, total=result.total,
                                                     successes=result.successes)))
    await ctx.reply(text, files=files)
