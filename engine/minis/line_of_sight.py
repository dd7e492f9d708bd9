"""M-10 Line of sight on a battle map.

A straight segment joins the two hex centres; sight is blocked only if it enters the
interior of a hill, forest or town hex other than the two end hexes (M-10.1).  Running
along a hexside or touching a corner never blocks, even between two blocking hexes
(M-10.2).  Units never block; sight is symmetric (M-10.3).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.hexgrid import Hex, line_blocked_by
from engine.minis.model import BattleMap


@dataclass(frozen=True)
class Sight:
    clear: bool
    distance: int
    blocked_by: tuple[Hex, ...]  # sorted; empty when clear


def line_of_sight(battle_map: BattleMap, a: Hex, b: Hex) -> Sight:
    blocked = line_blocked_by(a, b, battle_map.blocking)
    return Sight(not blocked, a.distance(b), blocked)
