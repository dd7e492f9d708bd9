"""Memoir '44 base-game rules engine (docs/rules/memoir.md)."""
