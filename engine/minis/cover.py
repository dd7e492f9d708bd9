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

:func:`cover_terms` says what the roll needs (number, modifier, or an automatic
result); :func:`cover_roll` rolls it, and the odds calculator reads the same terms.
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
class CoverTerms:
    """What the cover roll of ``target`` against one attack needs: succeed on
    ``die + modifier >= needed``, unless ``automatic`` decides it without a die (True:
    passes, Forest Camouflage; False: fails, Tall Silhouette; ``reason`` names it).
    ``parts`` lists what makes up ``modifier`` (name, delta), for telling players."""

    needed: int
    modifier: int
    automatic: bool | None = None
    reason: str | None = None
    parts: tuple[tuple[str, int], ...] = ()


def cover_terms(state: MinisState, attacker: UnitState, target: UnitState, *, band: int) -> CoverTerms:
    """The terms of the cover roll (M-11.1 and the cover abilities).  The caller has
    checked that the target is in cover terrain and that cover is not ignored."""
    tc = state.cards[target.card]
    needed = 5 if tc.is_vehicle else 4
    assert target.hex is not None and attacker.hex is not None
    terrain = state.map.terrain_at(target.hex)
    if tc.has("Tall Silhouette"):
        return CoverTerms(needed, 0, False, "Tall Silhouette")
    if tc.has("Forest Camouflage") and terrain is Terrain.FOREST and band == LONG:
        return CoverTerms(needed, 0, True, "Forest Camouflage")
    parts: list[tuple[str, int]] = []
    if attacker.hex == target.hex:
        parts.append(("same hex", -1))
    ac = state.cards[attacker.card]
    if ac.has("Seasoned Crew"):
        parts.append(("Seasoned Crew", -1))
    if ac.is_soldier and ab.command_effect(state, attacker, "Pinpointer"):
        parts.append(("Pinpointer", -1))
    if tc.has("Urban Combat") and terrain is Terrain.TOWN:
        parts.append(("Urban Combat", +1))
    return CoverTerms(needed, sum(d for _, d in parts), parts=tuple(parts))


@dataclass(frozen=True)
class CoverResult:
    success: bool
    event: CoverRoll


def cover_roll(state: MinisState, attacker: UnitState, target: UnitState, *, band: int, dice: Dice) -> CoverResult:
    """Roll (or decide automatically) the cover of ``target`` against this attack.
    The caller has checked that the target is in cover terrain and that cover is not
    ignored."""
    terms = cover_terms(state, attacker, target, band=band)
    if terms.automatic is not None:
        return CoverResult(terms.automatic, CoverRoll(target.id, None, 0, terms.needed, terms.automatic,
                                                      terms.reason))
    die = dice.roll(6)
    success = die + terms.modifier >= terms.needed
    return CoverResult(success, CoverRoll(target.id, die, terms.modifier, terms.needed, success))
