"""Exact odds of Memoir '44 battle dice (E-13, E-14; memoir-facts §3a).

A battle die has six faces: two infantry symbols, one armor symbol, one grenade, one
star, one flag.  Against infantry a die hits on an infantry symbol or a grenade (3 in
6), against armor on an armor symbol or a grenade (2 in 6), against artillery only on a
grenade (1 in 6, E-13.2).  A flag makes the target retreat one hex.  Hits are taken
first, then the flags of a unit still on the board (E-13.4); every retreat hex that
cannot be made costs one figure instead (E-14.5), e.g. when the retreat is blocked.

    >>> odds = memoir_odds(MemoirRoll(dice=1, target="infantry", figures=1))
    >>> odds.eliminate
    Fraction(1, 2)
"""

from __future__ import annotations

import math
from functools import lru_cache
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Mapping

from engine.core.errors import IllegalOrder, UnknownName

INFANTRY, ARMOR, ARTILLERY = "infantry", "armor", "artillery"
# Faces that hit each target type (E-13.1): symbols + the grenade.
HIT_FACES = {INFANTRY: 3, ARMOR: 2, ARTILLERY: 1}
FLAG_FACES = 1
TARGET_NAMES = {
    "inf": INFANTRY, "infantry": INFANTRY,
    "armor": ARMOR, "armour": ARMOR, "arm": ARMOR, "tank": ARMOR, "tanks": ARMOR,
    "art": ARTILLERY, "arty": ARTILLERY, "artillery": ARTILLERY,
}  # fmt: skip
MAX_DICE = 12
# The slash options of a roll's fields (/odds memoir), for what would be legal: the main
# roll's, the defender's Ambush at the attacker and armor's Overrun after taking ground.
MAIN_ROLL: Mapping[str, str] = MappingProxyType(
    {"dice": "dice", "target": "target", "figures": "figures", "retreat_room": "retreat_room",
     "ignore_flags": "ignore_flags"})  # fmt: skip
AMBUSH_ROLL: Mapping[str, str] = MappingProxyType(
    {"dice": "ambush_dice", "target": "attacker", "figures": "attacker_figures",
     "retreat_room": "attacker_retreat_room", "ignore_flags": "ignore_flags"})  # fmt: skip
OVERRUN_ROLL: Mapping[str, str] = MappingProxyType(
    {"dice": "overrun_dice", "target": "overrun_target", "figures": "overrun_figures",
     "retreat_room": "overrun_retreat_room", "ignore_flags": "ignore_flags"})  # fmt: skip


def target_type(word: str) -> str:
    try:
        return TARGET_NAMES[word.strip().lower()]
    except KeyError:
        raise UnknownName(f"Unknown target '{word}'.", legal=(INFANTRY, ARMOR, ARTILLERY)) from None


@dataclass(frozen=True)
class MemoirRoll:
    dice: int
    target: str
    figures: int | None = None
    blocked: bool = False  # no retreat hex at all: every flag costs a figure
    retreat_room: int | None = None  # hexes the unit can still retreat (None: enough)
    ignore_flags: int = 0  # flags the unit may ignore (terrain, E-14.6), used when it helps

    def validate(self, options: Mapping[str, str] = MAIN_ROLL) -> None:
        """Refuse a roll that cannot be; ``options`` names its slash options (the main
        roll's, :data:`AMBUSH_ROLL` or :data:`OVERRUN_ROLL`) for the legal examples."""

        def example(name: str, value: object) -> str:
            return f"/odds memoir … {options[name]}:{value}"

        if not 1 <= self.dice <= MAX_DICE:
            raise IllegalOrder(f"Roll between 1 and {MAX_DICE} dice.",
                               legal=(example("dice", _in_range(self.dice)),))
        if self.target not in HIT_FACES:
            raise UnknownName(f"Unknown target '{self.target}'.", legal=tuple(example("target", t) for t in HIT_FACES))
        if self.figures is not None and not 1 <= self.figures <= 6:
            raise IllegalOrder("A unit has between 1 and 6 figures.",
                               legal=(example("figures", min(max(self.figures, 1), 6)),))
        if self.retreat_room is not None and self.retreat_room < 0:
            room = example("retreat_room", 0)
            if self.figures is None:  # a retreat room needs the figures too (below)
                room = f"{example('figures', 4)} {options['retreat_room']}:0"
            raise IllegalOrder("Retreat room cannot be negative.", legal=(room,))
        if self.ignore_flags < 0:
            raise IllegalOrder("Ignored flags cannot be negative.", legal=(example("ignore_flags", 0),))
        # Options that would change nothing are refused, not dropped in silence.
        if self.figures is None and (self.blocked or self.retreat_room is not None or self.ignore_flags > 0):
            raise IllegalOrder("A blocked retreat, the retreat room and ignored flags change only the figures the"
                               " unit loses: give its figures too.", legal=(example("figures", 4),))
        if self.blocked and self.retreat_room not in (None, 0):
            raise IllegalOrder("Give one of blocked:true (no retreat hex at all) and retreat_room:N, not both.",
                               legal=(example("retreat_room", 0),
                                      f"/odds memoir … blocked:false retreat_room:{self.retreat_room}"))

    @property
    def room(self) -> int | None:
        return 0 if self.blocked else self.retreat_room


def _in_range(dice: int) -> int:
    """``dice`` brought within what a roll may have (for an example)."""
    return min(max(dice, 1), MAX_DICE)


@dataclass(frozen=True)
class MemoirOdds:
    roll: MemoirRoll
    joint: Mapping[tuple[int, int], Fraction]  # (hits, flags) -> probability
    hits: tuple[Fraction, ...]
    flags: tuple[Fraction, ...]
    # With figures given: chance the unit is eliminated, figures lost 0..k, hexes retreated.
    eliminate: Fraction | None
    figures_lost: tuple[Fraction, ...] | None
    retreat: Mapping[int, Fraction] | None

    @property
    def expected_hits(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.hits)), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dice": self.roll.dice,
            "target": self.roll.target,
            "hits": {str(k): float(p) for k, p in enumerate(self.hits)},
            "flags": {str(k): float(p) for k, p in enumerate(self.flags)},
            "expected_hits": float(self.expected_hits),
            "at_least_one_hit": float(1 - self.hits[0]),
        }
        if self.eliminate is not None and self.figures_lost is not None and self.retreat is not None:
            out.update(
                figures=self.roll.figures,
                blocked=self.roll.room == 0,
                retreat_room=self.roll.room,
                eliminate=float(self.eliminate),
                figures_lost={str(k): float(p) for k, p in enumerate(self.figures_lost)},
                retreat={str(k): float(p) for k, p in sorted(self.retreat.items())},
                exact={"eliminate": str(self.eliminate)},
            )
        return out


@lru_cache(maxsize=256)
def memoir_odds(roll: MemoirRoll) -> MemoirOdds:
    """Exact odds of one roll (memoised: a close assault's forecast asks for the same
    roll its answer also shows)."""
    roll.validate()
    n = roll.dice
    ph = Fraction(HIT_FACES[roll.target], 6)
    pf = Fraction(FLAG_FACES, 6)
    po = 1 - ph - pf
    joint: dict[tuple[int, int], Fraction] = {}
    for h in range(n + 1):
        for f in range(n - h + 1):
            ways = math.comb(n, h) * math.comb(n - h, f)
            joint[(h, f)] = ways * ph**h * pf**f * po ** (n - h - f)
    hits = tuple(sum((p for (h, _), p in joint.items() if h == k), Fraction(0)) for k in range(n + 1))
    flags = tuple(sum((p for (_, f), p in joint.items() if f == k), Fraction(0)) for k in range(n + 1))
    eliminate = lost = retreat = None
    if roll.figures is not None:
        k = roll.figures
        lost_d = [Fraction(0)] * (k + 1)
        retreat_d: dict[int, Fraction] = {}
        for (h, f), p in joint.items():
            if h >= k:  # E-13.3: eliminated by hits; its flags no longer matter
                lost_d[k] += p
                continue
            flags_left = max(0, f - roll.ignore_flags)
            room = roll.room
            moved = flags_left if room is None else min(flags_left, room)
            gone = min(k, h + flags_left - moved)  # E-14.5: one figure per missing hex
            lost_d[gone] += p
            if gone < k:
                retreat_d[moved] = retreat_d.get(moved, Fraction(0)) + p
        eliminate, lost, retreat = lost_d[k], tuple(lost_d), retreat_d
    return MemoirOdds(roll, joint, hits, flags, eliminate, lost, retreat)


# -- the full close assault: Ambush, the battle, Take Ground and Armor Overrun -------------


@dataclass(frozen=True)
class MemoirBattle:
    """A close assault as a whole (E-10.6):

    - ``ambush``: the defender's Ambush roll at the attacker before it rolls (E-6.4), the
      attacker being that roll's target (its type, figures, retreat room); if the
      attacker is eliminated or retreats, its battle is cancelled;
    - ``attack``: the attacker's roll at the target (``MemoirRoll``, figures needed);
    - a *success* (the target eliminated or retreated out of its hex) lets infantry and
      armor take ground (E-15); armor that takes ground then makes its Overrun battle
      ``overrun`` (E-16; one per turn), when given and ``takes_ground`` is set.

    Lost figures never reduce dice (E-8.5), so each roll is independent of the earlier
    ones given that it happens."""

    attack: MemoirRoll
    attacker: str = INFANTRY  # the attacking unit's type
    ambush: MemoirRoll | None = None
    overrun: MemoirRoll | None = None
    takes_ground: bool = True  # it takes ground after a success (not into forest, town, hedgerow)

    def validate(self) -> None:
        self.attack.validate()
        if self.attack.figures is None:
            raise IllegalOrder("The full battle needs the target's figures.",
                               legal=("/odds memoir dice:3 target:infantry figures:4",))
        if self.attacker not in HIT_FACES:
            # Those the rest of the battle allows: no Ambush of artillery, Overrun by armor.
            fit = [t for t in HIT_FACES if (self.ambush is None or t != ARTILLERY) and (self.overrun is None or t == ARMOR)]
            raise UnknownName(f"Unknown attacker type '{self.attacker}'.",
                              legal=tuple(f"/odds memoir … attacker:{t}" for t in fit))
        # Who may roll first, then the rolls themselves: each example mends one thing and
        # keeps the rest of the question (dice in range, the attacker that may roll).
        if self.ambush is not None:
            dice = _in_range(self.ambush.dice)
            who = "attacker:infantry " if self.attacker == ARTILLERY else ""
            if self.ambush.figures is None:
                raise IllegalOrder("An Ambush needs the attacker's figures (attacker_figures).",
                                   legal=(f"/odds memoir … {who}ambush_dice:{dice} attacker_figures:4",))
            if self.attacker == ARTILLERY:
                raise IllegalOrder("Ambush answers a close assault; artillery never close-assaults "
                                   "here (E-6.4): leave ambush_dice out for artillery.",
                                   legal=(f"/odds memoir … attacker:infantry ambush_dice:{dice}",))
            self.ambush.validate(AMBUSH_ROLL)
        if self.overrun is not None:
            dice = _in_range(self.overrun.dice)
            figures = self.overrun.figures if self.overrun.figures is not None else 4
            if self.attacker != ARMOR:
                raise IllegalOrder("Only armor makes an Overrun (E-16).",
                                   legal=(f"/odds memoir … attacker:armor overrun_dice:{dice} "
                                          f"overrun_figures:{min(max(figures, 1), 6)}",))
            if self.overrun.figures is None:
                raise IllegalOrder("The Overrun battle needs its target's figures (overrun_figures).",
                                   legal=(f"/odds memoir … overrun_dice:{dice} overrun_figures:4",))
            self.overrun.validate(OVERRUN_ROLL)


@dataclass(frozen=True)
class MemoirBattleOdds:
    battle: MemoirBattle
    ambush: MemoirOdds | None
    attack: MemoirOdds
    overrun: MemoirOdds | None
    cancelled: Fraction  # the attacker eliminated or retreated by the Ambush
    attacker_eliminated: Fraction  # by the Ambush
    target_eliminated: Fraction
    success: Fraction  # the target eliminated or out of its hex
    overrun_made: Fraction
    overrun_eliminated: Fraction
    medals_attacker: Fraction  # expected medals (E-17.1) for each side
    medals_defender: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "cancelled_by_ambush": float(self.cancelled),
            "attacker_eliminated": float(self.attacker_eliminated),
            "target_eliminated": float(self.target_eliminated),
            "success": float(self.success),
            "overrun_made": float(self.overrun_made),
            "overrun_eliminated": float(self.overrun_eliminated),
            "medals": {"attacker": float(self.medals_attacker), "defender": float(self.medals_defender)},
            "attack": self.attack.to_dict(),
            "ambush": None if self.ambush is None else self.ambush.to_dict(),
            "overrun": None if self.overrun is None else self.overrun.to_dict(),
            "exact": {"target_eliminated": str(self.target_eliminated), "success": str(self.success),
                      "cancelled_by_ambush": str(self.cancelled)},
        }  # fmt: skip


def _moved_out(odds: MemoirOdds) -> Fraction:
    assert odds.retreat is not None
    return sum((p for hexes, p in odds.retreat.items() if hexes > 0), Fraction(0))


def close_assault(
    attack: MemoirRoll,
    attacker: str | None = None,
    *,
    ambush_dice: int | None = None,
    attacker_figures: int | None = None,
    attacker_retreat_room: int | None = None,
    overrun_dice: int | None = None,
    overrun_target: str | None = None,
    overrun_figures: int | None = None,
    overrun_retreat_room: int | None = None,
) -> MemoirBattle | None:
    """The full battle as ``/odds memoir`` and ``warroom odds memoir`` name it: the
    Ambush is rolled at the attacker, unit types left out are infantry.  None when no
    option of the full battle is given (the dice alone); an option that needs another
    (the Overrun's target without its dice) is refused, never dropped."""
    if (attacker, ambush_dice, attacker_figures, attacker_retreat_room, overrun_dice, overrun_target,
            overrun_figures, overrun_retreat_room) == (None,) * 8:  # fmt: skip
        return None
    if ambush_dice is None and (attacker_figures is not None or attacker_retreat_room is not None):
        fix = [*(["attacker:infantry"] if attacker == ARTILLERY else []), "ambush_dice:3",
               *([] if attacker_figures is not None and 1 <= attacker_figures <= 6 else ["attacker_figures:4"]),
               *(["attacker_retreat_room:0"] if attacker_retreat_room is not None and attacker_retreat_room < 0 else [])]
        raise IllegalOrder("The attacker's figures and retreat room matter only under an Ambush: "
                           "give the Ambush dice too.", legal=(" ".join(["/odds memoir …", *fix]),))
    if overrun_dice is None and (overrun_target, overrun_figures, overrun_retreat_room) != (None, None, None):
        fix = ["attacker:armor", "overrun_dice:3",
               *([] if overrun_figures is not None and 1 <= overrun_figures <= 6 else ["overrun_figures:4"]),
               *(["overrun_retreat_room:0"] if overrun_retreat_room is not None and overrun_retreat_room < 0 else [])]
        raise IllegalOrder("The Overrun target's type, figures and retreat room need the Overrun dice too.",
                           legal=(" ".join(["/odds memoir …", *fix]),))
    kind = attacker or INFANTRY
    ambush = None if ambush_dice is None else MemoirRoll(
        dice=ambush_dice, target=kind, figures=attacker_figures, retreat_room=attacker_retreat_room)
    overrun = None if overrun_dice is None else MemoirRoll(
        dice=overrun_dice, target=overrun_target or INFANTRY, figures=overrun_figures,
        retreat_room=overrun_retreat_room)
    return MemoirBattle(attack=attack, attacker=kind, ambush=ambush, overrun=overrun)  # fmt: skip


def memoir_battle(b: MemoirBattle) -> MemoirBattleOdds:
    """Exact odds of a whole close assault (Ambush, battle, Take Ground, Overrun)."""
    b.validate()
    zero = Fraction(0)
    ambush = memoir_odds(b.ambush) if b.ambush is not None else None
    attacker_dead = ambush.eliminate if ambush is not None and ambush.eliminate is not None else zero
    cancelled = attacker_dead + (_moved_out(ambush) if ambush is not None else zero)
    goes = 1 - cancelled
    attack = memoir_odds(b.attack)
    assert attack.eliminate is not None
    target_dead = goes * attack.eliminate
    success = goes * (attack.eliminate + _moved_out(attack))
    overrun = memoir_odds(b.overrun) if b.overrun is not None else None
    overrun_made = success if overrun is not None and b.takes_ground and b.attacker == ARMOR else zero
    overrun_dead = overrun_made * (overrun.eliminate or zero) if overrun is not None else zero
    return MemoirBattleOdds(
        battle=b, ambush=ambush, attack=attack, overrun=overrun, cancelled=cancelled,
        attacker_eliminated=attacker_dead, target_eliminated=target_dead, success=success,
        overrun_made=overrun_made, overrun_eliminated=overrun_dead,
        medals_attacker=target_dead + overrun_dead, medals_defender=attacker_dead,
    )  # fmt: skip
