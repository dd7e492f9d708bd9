"""Moved to ``render.core.fonts``; this name stays for code written before the move."""

from render.core.fonts import *  # noqa: F401,F403
