"""Declaring commands: one registry that the Discord adapter and the local channel share.

A feature module declares a command with the :func:`command` decorator::

    @command("odds memoir", "Exact odds of Memoir '44 battle dice",
             Option("dice", int, "How many dice", min_value=1, max_value=12),
             Option("target", str, "What is hit", choices=("infantry", "armor", "artillery")))
    async def odds_memoir(ctx: Ctx, dice: int, target: str) -> None:
        await ctx.reply("…")

The handler receives a :class:`~bot.context.Ctx` and the options as keyword arguments,
already converted to their types and validated (ranges, choices) — Discord enforces
ranges only on its servers, so we check again here.  A handler raises
:class:`engine.core.errors.PlayerError` for anything the player can fix; the central
dispatcher shows it to them alone.
"""

from __future__ import annotations

import math
import re

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping

from bot.context import Attachment
from engine.core.errors import NotationError, PlayerError

if TYPE_CHECKING:
    from bot.context import Ctx

# ``Attachment``: a file the player attaches (Discord) or names by its path (the local
# channel, where the player is on the machine that reads it).
OptionType = type[str] | type[int] | type[float] | type[bool] | type[Attachment]
MAX_FILE_BYTES = 1_000_000
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
Handler = Callable[..., Awaitable[None]]
# An autocomplete source: (ctx, what the user typed so far, the other options already
# filled in) -> [(shown name, value)], best first.
Autocomplete = Callable[["Ctx", str, Mapping[str, Any]], Awaitable[list[tuple[str, str]]]]


@dataclass(frozen=True)
class Option:
    name: str
    kind: OptionType
    description: str
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] = ()
    min_value: float | None = None
    max_value: float | None = None
    autocomplete: Autocomplete | None = None

    def convert(self, raw: Any) -> Any:
        """Turn a raw value (text from the local channel, or Discord's typed value) into
        this option's type, and check it."""
        value: Any
        if self.kind is Attachment:
            return _file(self.name, raw)
        try:
            if self.kind is bool:
                value = _parse_bool(raw)
            elif self.kind is int:
                value = int(raw) if not isinstance(raw, bool) else int(raw)
            elif self.kind is float:
                value = float(raw)
                if not math.isfinite(value):
                    raise ValueError(raw)
            else:
                value = str(raw)
                if _CONTROL.search(value):
                    # A NUL or another control character is never part of an order or a name
                    # (and PostgreSQL text cannot hold a NUL): refuse it here, once.
                    raise NotationError(f"Option '{self.name}' contains a control character; type plain text.")
        except (TypeError, ValueError):
            raise NotationError(
                f"Option '{self.name}' must be {_kind_name(self.kind)}, not '{raw}'."
            ) from None
        if self.choices and str(value).lower() not in {c.lower() for c in self.choices}:
            raise NotationError(f"Option '{self.name}' cannot be '{value}'.", legal=self.choices)
        if self.choices:
            value = next(c for c in self.choices if c.lower() == str(value).lower())
        if self.min_value is not None and value < self.min_value:
            raise NotationError(f"Option '{self.name}' must be at least {_num(self.min_value)}.",
                                legal=[f"{self.name}:{_num(self.min_value)}"])
        if self.max_value is not None and value > self.max_value:
            raise NotationError(f"Option '{self.name}' must be at most {_num(self.max_value)}.",
                                legal=[f"{self.name}:{_num(self.max_value)}"])
        return value


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _kind_name(kind: OptionType) -> str:
    return {str: "text", int: "a whole number", float: "a number", bool: "true or false",
            Attachment: "a file"}[kind]


def _file(name: str, raw: Any) -> Attachment:
    """A file option's value: Discord hands over the attachment; the local channel a path."""
    if isinstance(raw, Attachment):
        found = raw
    else:
        from pathlib import Path

        path = Path(str(raw)).expanduser()
        try:
            size = path.stat().st_size
            found = Attachment(path.name, b"", size) if size > MAX_FILE_BYTES else Attachment(path.name, path.read_bytes())
        except (OSError, ValueError):
            raise NotationError(f"Option '{name}' must be a file; there is no file '{str(raw)[:80]}'.") from None
    if max(len(found.data), found.size) > MAX_FILE_BYTES:
        raise NotationError(f"The file '{found.filename[:80]}' is too large: at most"
                            f" {MAX_FILE_BYTES // 1000} KB.")
    return found


def _parse_bool(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "yes", "y", "1", "on"):
        return True
    if text in ("false", "no", "n", "0", "off"):
        return False
    raise ValueError(raw)


@dataclass(frozen=True)
class Command:
    path: tuple[str, ...]
    description: str
    options: tuple[Option, ...]
    handler: Handler
    # The work may take longer than Discord's 3-second limit: acknowledge first.
    defer: bool = False
    # Replies go to the asker alone unless the handler says otherwise.
    ephemeral: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return "/" + " ".join(self.path)

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise NotationError(
            f"{self.name} has no option '{name}'.", legal=[o.name for o in self.options]
        )

    def bind(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Convert and check raw option values; fill defaults; refuse unknown or missing ones."""
        values: dict[str, Any] = {}
        for name, value in raw.items():
            values[name] = self.option(name).convert(value)
        for opt in self.options:
            if opt.name not in values:
                if opt.required:
                    raise NotationError(
                        f"{self.name} needs the option '{opt.name}' ({opt.description}).",
                        legal=[self.usage()],
                    )
                values[opt.name] = opt.default
        return values

    def usage(self) -> str:
        parts = [self.name]
        for opt in self.options:
            parts.append(f"{opt.name}:…" if opt.required else f"[{opt.name}:…]")
        return " ".join(parts)


REGISTRY: dict[tuple[str, ...], Command] = {}
# Discord allows 25 subcommands (or subcommand groups) under a command or a group.
MAX_CHILDREN = 25


def children(prefix: tuple[str, ...]) -> set[str]:
    """The names directly under a command group (``("minis",)`` → {"new", "move", …})."""
    return {path[len(prefix)] for path in REGISTRY
            if len(path) > len(prefix) and path[:len(prefix)] == prefix}


def is_group(prefix: tuple[str, ...]) -> bool:
    return bool(children(prefix))


def command(
    path: str,
    description: str,
    *options: Option,
    defer: bool = False,
    ephemeral: bool = False,
) -> Callable[[Handler], Handler]:
    """Register a slash command: ``"roll"``, ``"odds aa"``, or a command in a subcommand
    group, ``"minis defend fire"`` (Discord's three levels).  A group may hold at most 25
    names, and a name is either a command or a group, never both."""
    key = tuple(path.split())
    if not 1 <= len(key) <= 3:
        raise ValueError(f"command path '{path}' must have one to three words")

    def deco(fn: Handler) -> Handler:
        if key in REGISTRY:
            raise ValueError(f"command {path} registered twice")
        for n in range(1, len(key)):
            if key[:n] in REGISTRY:
                raise ValueError(f"/{' '.join(key[:n])} is a command; it cannot also be a group")
            if key[n] not in children(key[:n]) and len(children(key[:n])) >= MAX_CHILDREN:
                raise ValueError(f"/{' '.join(key[:n])} already has {MAX_CHILDREN} subcommands"
                                 f" (Discord's limit); put /{path} in a subcommand group")
        if is_group(key):
            raise ValueError(f"/{path} is a group; it cannot also be a command")
        REGISTRY[key] = Command(key, description, tuple(options), fn, defer, ephemeral)
        return fn

    return deco


def find(path: tuple[str, ...]) -> Command:
    if path in REGISTRY:
        return REGISTRY[path]
    names = sorted(c.name for c in REGISTRY.values() if path and c.path[:len(path)] == path)
    if not names:
        names = sorted(c.name for c in REGISTRY.values() if path and c.path[0] == path[0])
    if not names:
        names = sorted(c.name for c in REGISTRY.values())
    raise PlayerError(f"There is no command /{' '.join(path)}.", legal=names)
