"""Slash commands, declared once and served by both the Discord and the local channel.

:func:`load_all` imports every module of this package; each registers its commands with
:func:`bot.commands.base.command`.
"""

from __future__ import annotations

import importlib
import pkgutil


def load_all() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name != "base" and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
