"""``/verify``: recompute every die of an ended game from its revealed seed."""

from __future__ import annotations

from bot import fair_dice
from bot.commands.base import Option, command
from bot.context import Ctx
from bot.roll_ledger import verify_roll
from bot.session import ReplayMismatch
from bot.verify import verify_export
from engine.core.errors import IllegalOrder, UnknownName
from engine.core.game import PUBLIC, rules_for


@command(
    "verify",
    "Check every die of an ended game against its revealed seed (provably fair dice)",
    Option("game", str, "The game's id (from its status or the seed message); default: this channel's"
           " last game", required=False),
    Option("roll", str, "A quick roll's id (e.g. 20260101-3), after its day", required=False),
    defer=True,
)
async def verify_command(ctx: Ctx, game: str | None, roll: str | None) -> None:
    if roll is not None:
        await ctx.reply(await verify_roll(ctx.app, ctx.channel_id, roll), ephemeral=False)
        return
    if game is not None:
        record = await fair_dice.find_game(ctx.app.repo, game)
        if record is None:
            raise UnknownName(f"No ended game has the id '{game.strip()[:20]}'.",
                              legal=("/verify (this channel's last game)", "/verify game:<id from the seed message>"))
    else:
        record = (await ctx.app.sessions.latest(ctx.channel_id)).game
    if record.live:
        raise IllegalOrder(
            f"Game `{record.uid}` is not over: its seed (commitment `{fair_dice.game_commitment(record)}`)"
            " is revealed when it ends, and its dice can be checked then.",
            legal=("/verify after the end",))
    rows = await ctx.app.repo.orders(record.id)
    data = fair_dice.export(record, rows, title=record.kind, order_view=rules_for(record.kind).order_view,
                            viewer=PUBLIC)
    verdict = verify_export(data)
    text = f"Game `{record.uid}` ({record.kind}): {verdict.text()}"
    if verdict.ok:
        try:  # and the rules, fed those dice, rebuild the stored final position
            await ctx.app.sessions.history(record, check=True)
            text += " Replaying its orders with these dice rebuilds its final position."
        except ReplayMismatch:
            text += " ❌ But its log does not replay to the stored final position."
    await ctx.reply(text, ephemeral=False)
