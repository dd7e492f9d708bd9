"""Moved to ``render.core.layout``; this name stays for code written before the move."""

from render.core.layout import *  # noqa: F401,F403
