"""The games this bot hosts: each kind's rules (``engine/<game>/game.py``) and front
(``bot/<game>/front.py``), registered the same way.

:func:`load_games` imports every engine package's ``game`` module (which registers its
rules) and, where it exists, the bot package of the same name's ``front`` module (which
registers its front) and ``commands`` module (which declares its slash commands).
Adding a game edits nothing here.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Awaitable, Callable

from engine.core.errors import UnknownName

_FRONTS: dict[str, Any] = {}
_LOADED = False
# Called with (app, loaded) when a game ends (finished or aborted): league results,
# ratings.  Registered with :func:`on_game_end`.
_ENDINGS: list[Callable[[Any, Any], Awaitable[None]]] = []


def on_game_end(listener: Callable[[Any, Any], Awaitable[None]]) -> Callable[[Any, Any], Awaitable[None]]:
    """Register a coroutine called once after any game ends (finished or aborted)."""
    _ENDINGS.append(listener)
    return listener


def game_end_listeners() -> tuple[Callable[[Any, Any], Awaitable[None]], ...]:
    return tuple(_ENDINGS)


def register_front(front: Any) -> Any:
    """Register a game's front (see :class:`bot.front.Front`)."""
    _FRONTS[front.kind] = front
    return front


def front_for(kind: str) -> Any:
    """The front of a game kind; a kind without one gets the plain default front."""
    front = _FRONTS.get(kind)
    if front is None:
        from bot.front import BaseFront

        front = BaseFront()
        front.kind = front.group = front.title = kind
    return front


def fronts() -> tuple[Any, ...]:
    return tuple(_FRONTS.values())


def group_kind(group: str) -> str:
    """The game kind behind a slash-command group (``minis`` → ``minis``)."""
    for front in _FRONTS.values():
        if front.group == group:
            return str(front.kind)
    raise UnknownName(f"No game is played with /{group}.", legal=[f"/{f.group}" for f in _FRONTS.values()])


def _optional(module: str) -> None:
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as missing:
        # Only the module itself (or its package) may be absent; a missing import inside
        # it is a real error.
        if not missing.name or not (module == missing.name or module.startswith(missing.name + ".")):
            raise


def load_games() -> None:
    """Import every game's rules, front and commands (once)."""
    global _LOADED
    if _LOADED:
        return
    import engine

    for info in sorted(pkgutil.iter_modules(engine.__path__), key=lambda m: m.name):
        if not info.ispkg or info.name in ("core", "odds"):
            continue
        _optional(f"engine.{info.name}.game")
        _optional(f"bot.{info.name}.front")
        _optional(f"bot.{info.name}.commands")
    _LOADED = True
