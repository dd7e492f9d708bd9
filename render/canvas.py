"""Moved to ``render.core.canvas``; this name stays for code written before the move."""

from render.core.canvas import *  # noqa: F401,F403
