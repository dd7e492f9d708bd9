"""Moved to :mod:`render.minis.overlays` (Minis overlays); this name stays for the bot's
existing imports."""

from render.minis.overlays import AttackLine, MovedPath, Overlay, RangeBands, Reachable, SightCheck

__all__ = ["AttackLine", "MovedPath", "Overlay", "RangeBands", "Reachable", "SightCheck"]
