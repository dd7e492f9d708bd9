"""Command lines as Discord shows them: ``/group sub option:value option:"quoted value"``.

Shared by the local channel (every script line) and by buttons (a button carries the
command line it runs).
"""

from __future__ import annotations

import re

from bot.commands.base import children, find, is_group
from engine.core.errors import NotationError


def tokenize(text: str) -> list[str]:
    """Split on spaces, keeping ``"double quoted"`` parts together (quotes removed).
    Apostrophes are ordinary characters (``scenario:Memoir '44`` is fine); ``\\"`` is a
    literal double quote and ``\\\\`` a backslash (for JSON values)."""
    tokens: list[str] = []
    buf: list[str] = []
    quoted = False
    started = False
    escaped = False
    for ch in text:
        if escaped:
            buf.append(ch)
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
            started = True
        elif ch.isspace() and not quoted:
            if started:
                tokens.append("".join(buf))
            buf, started = [], False
        else:
            buf.append(ch)
            started = True
    if quoted:
        raise NotationError("A quote is not closed.", legal=('option:"a quoted value"',))
    if started:
        tokens.append("".join(buf))
    return tokens


def parse_command(text: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """``/group sub a:1 b:"x y"`` → (("group", "sub"), {"a": "1", "b": "x y"}).  Bare
    words after the command fill its required options in order."""
    tokens = tokenize(text.strip())
    if not tokens or not tokens[0].startswith("/") or len(tokens[0]) < 2:
        raise NotationError(f"'{text.strip()}' is not a command.", legal=("/help", "/roll dice:2d6"))
    words = [tokens[0][1:].lower()]
    rest = tokens[1:]
    while rest and ":" not in rest[0] and is_group(tuple(words)) \
            and rest[0].lower() in children(tuple(words)):
        words.append(rest.pop(0).lower())
    path = tuple(words)
    if is_group(path):
        shown = rest[0] if rest and ":" not in rest[0] else ""
        raise NotationError(
            f"There is no command /{' '.join(path)}{' ' + shown[:30] if shown else ''}.",
            legal=sorted(f"/{' '.join(path)} {c}" for c in children(path)))
    cmd = find(path)
    options: dict[str, str] = {}
    positional = [o.name for o in cmd.options if o.required]
    for token in rest:
        name, sep, value = token.partition(":")
        if sep and name and re.fullmatch(r"[a-z_][a-z0-9_-]*", name):
            options[name] = value
        else:
            free = [n for n in positional if n not in options]
            if not free:
                raise NotationError(
                    f"'{token}' is not an option of {cmd.name}.", legal=[cmd.usage()]
                )
            options[free[0]] = token
    return path, options
