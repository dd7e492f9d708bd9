"""``/settings``: per-server settings (who counts as a Warroom moderator)."""

from __future__ import annotations

import re

from bot.commands.base import Option, command
from bot.context import Ctx
from engine.core.errors import IllegalOrder, NotationError

_ROLE = re.compile(r"^\s*(?:<@&)?(\d{5,20})>?\s*$")


@command(
    "settings moderator-role",
    "Set the role whose members may undo, abort or replace players (Manage Server)",
    Option("role", str, "A role mention or id; 'none' to clear"),
    ephemeral=True,
)
async def moderator_role(ctx: Ctx, role: str) -> None:
    if not ctx.actor.is_admin:
        raise IllegalOrder("Only members with Manage Server may change Warroom's settings.")
    if ctx.guild_id is None:
        raise IllegalOrder("Settings belong to a server; use this command in a server channel.")
    if role.strip().lower() in ("none", "clear", "-"):
        await ctx.app.repo.set_moderator_role(ctx.guild_id, None)
        await ctx.reply("Warroom moderators are now only members with Manage Channels.")
        return
    m = _ROLE.match(role)
    if not m:
        raise NotationError(f"'{role}' is not a role.", legal=("@Referees", "a role id", "none"))
    await ctx.app.repo.set_moderator_role(ctx.guild_id, int(m.group(1)))
    await ctx.reply(f"Members with <@&{m.group(1)}> may now undo orders, abort games and replace"
                    " players (as can anyone with Manage Channels).")
