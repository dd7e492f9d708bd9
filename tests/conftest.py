"""Shared test set-up: every command module registered, as in the running bot."""

from __future__ import annotations

from bot.app import load_games
from bot.commands import load_all

load_all()
load_games()
