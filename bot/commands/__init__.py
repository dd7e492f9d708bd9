"""Slash commands, declared once and served by both the Discord and the local channel.

Importing this package registers every command (each feature module registers its own
with :func:`bot.commands.base.command`).
"""

from bot.commands import base as base  # noqa: F401  (re-export for callers)
