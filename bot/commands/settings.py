"""``/settings``: per-server settings (who counts as a Warroom moderator) and your own
(direct messages)."""

from __future__ import annotations

import re

from bot.commands.base import Option, command
from bot.context import Ctx
from engine.core.errors import IllegalOrder, NotationError

_ROLE = re.compile(r"^\s*(?:<@&)?(\d{5,20})>?\s*$")


@command(
    "settings moderator-role",
    "Set the role whose members may referee games: undo, abort, replace (Manage Server)",
    Option("role", str, "A role mention or id; 'none' to clear"),
    ephemeral=True,
)
async def moderator_role(ctx: Ctx, role: str) -> None:
    if not ctx.actor.is_admin:
        raise IllegalOrder("Only members with Manage Server may change Warroom's settings.")
    if ctx.guild_id is None:
        raise IllegalOrder("Settings belong to a server; use this command in a server channel.")
    if role.strip().lower() in ("none", "clear", "-"):
        await ctx.app.repo.set_guild_setting(ctx.guild_id, "moderator_role", None)
        await ctx.reply("Warroom moderators are now only members with Manage Channels.")
        return
    m = _ROLE.match(role)
    if not m:
        raise NotationError(f"'{role[:30]}' is not a role.", legal=("@Referees", "a role id", "none"))
    await ctx.app.repo.set_guild_setting(ctx.guild_id, "moderator_role", int(m.group(1)))
    await ctx.reply(f"Members with <@&{m.group(1)}> may now referee games (undo, abort, replace"
                    " players in games where they hold no seat), as can anyone with Manage Channels.")


@command(
    "settings dm",
    "Also get 'your turn' pings (and, where a game offers it, your hand) by direct message",
    Option("turns", bool, "true: DM me when it is my turn; false: only ping me in the channel"),
    ephemeral=True,
)
async def dm(ctx: Ctx, turns: bool) -> None:
    await ctx.app.repo.set_user_setting(ctx.actor.id, "dm_turns", True if turns else None)
    await ctx.reply("You will also get a direct message when it is your turn (if your DMs are"
                    " open to this server)." if turns else "Your-turn pings stay in the channel only.")
