"""Memoir '44 in the channel: its front, narration, hand and look-ups (docs/memoir-play.md)."""
