"""``/help``: what the bot can do, by game."""

from __future__ import annotations

from bot.commands.base import REGISTRY, Command, Option, command
from bot.context import Ctx
from engine.core.errors import UnknownName

# Command groups → the section they belong to, in the order shown.
SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("quick", "Quick commands (no game needed)", ("roll", "odds", "help")),
    ("minis", "Axis & Allies Miniatures (hex battles)", ("minis",)),
    ("memoir", "Memoir '44", ("memoir",)),
    ("aa", "Axis & Allies Anniversary Edition", ("aa",)),
    ("admin", "Server settings", ("settings",)),
)
INTRO = (
    "**Warroom** runs play-by-post WWII wargames in this channel: every order is a slash"
    " command, the bot enforces the rules, rolls fair dice, keeps the game safe, posts the map"
    " after each phase and pings whoever must act next."
)


def _commands_in(groups: tuple[str, ...]) -> list[Command]:
    """A section's commands, in the order their modules declare them (the order of play)."""
    return [c for c in REGISTRY.values() if c.path[0] in groups]


@command(
    "help",
    "What the bot can do, by game",
    Option("game", str, "Show one section in detail", required=False,
           choices=tuple(key for key, _, _ in SECTIONS)),
    ephemeral=True,
)
async def help_command(ctx: Ctx, game: str | None) -> None:
    lines = [INTRO, ""]
    shown = [s for s in SECTIONS if game is None or s[0] == game]
    for key, title, groups in shown:
        commands = _commands_in(groups)
        if not commands:
            if game is not None:
                raise UnknownName(f"{title} is not available yet.")
            continue
        lines.append(f"__{title}__")
        if game is not None:  # every command with its options
            lines += [f"`{c.usage()}` — {c.description}" for c in commands]
        elif key == "quick" or len(commands) <= 3:
            lines += [f"`{c.name}` — {c.description}" for c in commands]
        else:  # a game: the command names; details with game:<key>
            names = " · ".join(c.path[-1] for c in commands)
            lines.append(f"`/{commands[0].path[0]}` {names} — details: `/help game:{key}`")
        lines.append("")
    if game is None:
        lines.append("`/help game:<section>` shows a section with every option.")
    await ctx.reply("\n".join(lines).strip())
