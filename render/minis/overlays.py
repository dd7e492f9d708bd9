"""Overlays: what a board image can show on top of the battlefield.

Plain frozen values, independent of the engine's event classes: the bot builds them
from events (or from a player's question) and passes them to
``render.minis.board(state, overlays=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from engine.core.hexgrid import Hex
from engine.minis.line_of_sight import line_of_sight
from engine.minis.model import BattleMap


@dataclass(frozen=True)
class MovedPath:
    """A unit's move this phase: the hexes it passed through, first to last (the
    first is where it started).  ``fire_points`` are the hexes where it drew
    defensive fire (M-12), drawn as bursts on the path; ``stopped`` marks a move cut
    short (failed movement roll M-13.3, or defensive fire M-12.4)."""

    unit: str
    hexes: tuple[Hex, ...]
    fire_points: tuple[Hex, ...] = ()
    stopped: bool = False

    def __post_init__(self) -> None:
        if not self.hexes:
            raise ValueError("a moved path needs at least one hex")
        for a, b in zip(self.hexes, self.hexes[1:]):
            if a.distance(b) > 1:
                raise ValueError(f"path steps must be adjacent: {a} -> {b}")


@dataclass(frozen=True)
class AttackLine:
    """An attack from ``source`` to ``target`` with a short result ("2 hits",
    "miss", "cover") written at the middle of the line; ``defensive`` for defensive
    fire (drawn dashed)."""

    source: Hex
    target: Hex
    result: str = ""
    defensive: bool = False


@dataclass(frozen=True)
class SightCheck:
    """A line-of-sight check (M-10): the centre-to-centre line and the hexes that block
    it (empty when sight is clear)."""

    source: Hex
    target: Hex
    blocking: tuple[Hex, ...] = ()

    @property
    def clear(self) -> bool:
        return not self.blocking

    @classmethod
    def on(cls, battle_map: BattleMap, source: Hex, target: Hex) -> SightCheck:
        """The check as the engine's M-10 rules decide it on ``battle_map``."""
        return cls(source, target, line_of_sight(battle_map, source, target).blocked_by)


@dataclass(frozen=True)
class Reachable:
    """The hexes one unit can reach (shaded), e.g. from the movement rules."""

    hexes: frozenset[Hex]
    unit: str = ""


@dataclass(frozen=True)
class RangeBands:
    """Weapon range bands around ``centre`` (M-7.1): short 0…short, medium up to
    ``medium``, long up to ``long``.  ``unit`` names whose ranges these are."""

    centre: Hex
    short: int = 1
    medium: int = 4
    long: int = 8
    unit: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.short <= self.medium <= self.long:
            raise ValueError("range bands must satisfy 0 <= short <= medium <= long")

    def band(self, h: Hex) -> int | None:
        """0 short, 1 medium, 2 long, None out of range."""
        d = self.centre.distance(h)
        if d <= self.short:
            return 0
        if d <= self.medium:
            return 1
        if d <= self.long:
            return 2
        return None


Overlay = Union[MovedPath, AttackLine, SightCheck, Reachable, RangeBands]
