"""M-11 Cover: the defender's roll in forest, hill, town (and marsh for Soldiers).

The roll is made for the defender automatically and only when the attack would score
at least one hit (Ruling M-11.5).  One die: a Soldier succeeds on 4+, a Vehicle on 5+;
−1 if the attacker is in the target's hex (M-11.1).  Abilities:

* no cover roll at all — Bombardment; Close Assault / Hand to Hand attacks; a
  Hull-Mounted Flamethrower at short range.  Forbidding beats allowing (M-14.3);
* Tall Silhouette: always fails (no die is rolled);
* Forest Camouflage: in forest, passes automatically against long-range attacks
  (no die is rolled);
* Seasoned Crew (attacker), Pinpointer (a working Commander adjacent to an attacking
  Soldier): −1 each; Urban Combat (target in town): +1.

Dice order: the cover die is rolled after all attack dice of that attack.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.dice import Dice
from engine.minis import abilities as ab
from engine.minis.events import CoverRoll
from engine.minis.model import LONG, SHORT, Terrain
from engine.minis.state import MinisState, UnitState

_COVER_TERRAIN = (Terrain.FOREST, Terrain.HILL, Terrain.TOWN)


def in_cover_terrain(state: MinisState, target: UnitState) -> bool:
    """M-7.7: forest, hill, town; marsh for Soldiers only."""
    if target.hex is None:
        return False
    t = state.map.terrain_at(target.hex)
    if t in _COVER_TERRAIN:
        return True
    return t is Terrain.MARSH and state.cards[target.card].is_soldier


def cover_ignored_by(state: MinisState, attacker: UnitState, *, hand_to_hand: bool, band: int) -> str | None:
    """The reason this attack allows no cover roll, if any (M-11.4, M-14.3)."""
    c = state.cards[attacker.card]
    if c.has("Bombardment"):
        return "Bombardment"
    if hand_to_hand:
        return "Close Assault"
    if c.has("Hull-Mounted Flamethrower") and band == SHORT:
        return "Hull-Mounted Flamethrower"
    return None


@dataclass(frozen=True)
class CoverResult:
    success: bool
    event: CoverRoll


def cover_roll(state: MinisState, attacker: UnitState, target: UnitState, *, band: int, dice: Dice) -> CoverResult:
    """Roll (or decide automatically) the cover of ``target`` against this attack.
    The caller has checked that the target is in cover terrain and that cover is not
    ignored."""
    tc = state.cards[target.card]
    needed = 5 if tc.is_vehicle else 4
    assert target.hex is not None and attacker.hex is not None
    terrain = state.map.terrain_at(target.hex)
    if tc.has("Tall Silhouette"):
        return CoverResult(False, CoverRoll(target.id, None, 0, needed, False, "Tall Silhouette"))
    if tc.has("Forest Camouflage") and terrain is Terrain.FOREST and band == LONG:
        return CoverResult(True, CoverRoll(target.id, None, 0, needed, True, "Forest Camouflage"))
    modifier = 0
    if attacker.hex == target.hex:
        modifier -= 1
    ac = state.cards[attacker.card]
    if ac.has("Seasoned Crew"):
        modifier -= 1
    if ac.is_soldier and ab.command_effect(state, attacker, "Pinpointer"):
        modifier -= 1
    if tc.has("Urban Combat") and terrain is Terrain.TOWN:
        modifier += 1
    die = dice.roll(6)
    success = die + modifier >= needed
    return CoverResult(success, CoverRoll(target.id, die, modifier, needed, success))
