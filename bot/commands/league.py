"""``/league …``, ``/rating``, ``/leaderboard``: declared in :mod:`bot.league.commands`."""

from __future__ import annotations

import bot.league.commands  # noqa: F401  (registers the commands and the game-end listener)
