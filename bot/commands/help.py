"""``/help``: what the bot can do, by section: the quick commands, the odds, each game,
league play and the settings."""

from __future__ import annotations

from typing import Any, Mapping

from bot.commands.base import REGISTRY, Command, Option, command
from bot.context import Ctx
from engine.core.errors import UnknownName

INTRO = (
    "**Warroom** runs play-by-post WWII wargames in this channel: every order is a slash"
    " command, the bot enforces the rules, rolls fair dice, keeps the game safe, posts the map"
    " after each phase and pings whoever must act next."
)


def sections() -> list[tuple[str, str, tuple[str, ...]]]:
    """(key, title, command groups) in the order shown: quick commands, odds, every game
    this bot hosts, league play, settings."""
    from bot.games import fronts

    out = [("quick", "Quick commands (no game needed)", ("roll", "help", "verify")),
           ("odds", "Exact odds", ("odds",))]
    out += [(f.group, str(f.title), (f.group,)) for f in fronts()]
    out += [("league", "League play", ("league", "rating", "leaderboard")),
            ("admin", "Settings", ("settings",))]
    return [s for s in out if _commands_in(s[2])]


# A game's lifecycle commands: opening and joining come first, the rest after its orders.
_FIRST = ("new", "join")
_OVERVIEW_NAMES = 8
_LAST = ("status", "log", "replay", "undo", "concede", "settings", "replace", "abort")


def _commands_in(groups: tuple[str, ...]) -> list[Command]:
    """A section's commands in the order of play: open and join, the game's own commands
    as its module declares them, then the lifecycle's looking and refereeing commands."""
    found = [c for c in REGISTRY.values() if c.path[0] in groups]

    def key(item: tuple[int, Command]) -> tuple[int, int]:
        i, c = item
        name = c.path[1] if len(c.path) == 2 else ""
        return (0 if name in _FIRST else 2 if name in _LAST else 1,
                _LAST.index(name) if name in _LAST else i)

    return [c for _, c in sorted(enumerate(found), key=key)]


async def _section_names(ctx: Ctx, partial: str, others: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [(title, key) for key, title, _ in sections()
            if partial.lower() in key or partial.lower() in title.lower()]


@command(
    "help",
    "What the bot can do, by game",
    Option("game", str, "Show one section in detail (quick, odds, minis, …)", required=False,
           autocomplete=_section_names),
    ephemeral=True,
)
async def help_command(ctx: Ctx, game: str | None) -> None:
    known = sections()
    if game is not None and game.strip().lower() not in {k for k, _, _ in known}:
        raise UnknownName(f"There is no help section '{game[:30]}'.",
                          legal=[f"/help game:{k}" for k, _, _ in known])
    lines = [INTRO, ""]
    for key, title, groups in known:
        if game is not None and key != game.strip().lower():
            continue
        commands = _commands_in(groups)
        lines.append(f"__{title}__")
        if game is not None:  # every command with its options
            lines += [f"`{c.usage()}` — {c.description}" for c in commands]
        elif key == "quick" or len(commands) <= 3:
            lines += [f"`{c.name}` — {c.description}" for c in commands]
        else:  # a game: its first commands (so the overview stays one message); the rest with game:<key>
            shown = [" ".join(c.path[1:]) for c in commands[:_OVERVIEW_NAMES]]
            more = f" and {len(commands) - len(shown)} more" if len(commands) > len(shown) else ""
            lines.append(f"`/{commands[0].path[0]}` {' · '.join(shown)}{more} — all: `/help game:{key}`")
        lines.append("")
    if game is None:
        lines.append("`/help game:<section>` shows a section with every option.")
    await ctx.reply("\n".join(lines).strip())
