"""Exact odds of one A&A Miniatures attack (M-7.3 to M-7.5, M-9, M-11, M-12.4).

Everything is explicit, so the same function serves the ``/odds minis`` numbers form
and, later, a live game (the caller reads dice, defense, status, cover and abilities
off the two units and passes them in)::

    >>> odds = minis_odds(MinisAttack(dice=11, defense=5))
    >>> odds.hits[2] > odds.hits[3]
    True

Rules as modelled:

- M-7.3: a die succeeds on 4 or more after modifiers; an attacker that is disrupted or
  damaged has -1 on every die (once); "each attack die" abilities add ``die_modifier``.
- M-7.4: a disrupted or damaged target has -1 defense (once).
- M-7.5: successes below defense: 0 hits; equal: 1; above: 2; at least twice the
  defense: 3.  With *Superior Armor N* the second hit needs successes >= defense + N
  (and the third hit needs the second); *Armor-Piercing Rounds* turn two hits on a
  Vehicle into three; *Shrapnel N* multiplies successes against a Soldier by N.
- M-11: a cover roll (one die, ``cover`` or more, -1 when the attacker shares the
  target's hex, plus ``cover_modifier``) is made only when the attack would hit
  (M-11.5); a successful one limits a normal attack to one hit (a Disrupted counter)
  and negates defensive fire.
- M-12.4: defensive fire has one result: if the successes reach the defense (after
  cover) the target is stopped and disrupted; it is reported as "1 hit".
- M-9.1: counters from the hits: a Soldier is disrupted by 1 and destroyed by 2; a
  Vehicle is disrupted by 1, disrupted and damaged by 2, destroyed by 3; a Vehicle
  already damaged is destroyed by 2.  ``prior_counters`` are face-down counters the
  target already has from earlier attacks of this phase: the new ones continue its
  sequence (M-9.1, M-9.2), and a successful cover roll adds nothing to a unit that has
  one (M-11.2).  ``counters`` then tells what the target has after this attack.
- Hull-Mounted Flamethrower (``flamethrower``, the caller sets it at short range only):
  three or more natural 6s destroy the target whatever the hits, unless a cover roll
  saves it.  Highly Flammable (``highly_flammable``): a Damaged counter becomes a
  Destroyed one on a die of 3 or more.  Both follow engine/minis/attacks.py.
- Forest Camouflage (``cover_automatic``): the cover roll succeeds without a die.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from engine.core.errors import IllegalOrder
from engine.odds.dist import binomial

SOLDIER, VEHICLE = "soldier", "vehicle"
COUNTERS = ("none", "disrupted", "damaged", "destroyed")
FACE_DOWN = ("disrupted", "damaged", "destroyed")  # the face-down counters of M-9
MAX_DICE = 60


@dataclass(frozen=True)
class MinisAttack:
    dice: int
    defense: int
    die_modifier: int = 0
    attacker_penalty: bool = False
    target_penalty: bool = False
    target: str = VEHICLE
    target_damaged: bool = False
    cover: int | None = None
    cover_modifier: int = 0
    same_hex: bool = False
    defensive_fire: bool = False
    shrapnel: int = 1
    superior_armor: int = 0
    armor_piercing: bool = False
    cover_automatic: bool = False  # the cover roll succeeds without a die (Forest Camouflage)
    flamethrower: bool = False  # Hull-Mounted Flamethrower at short range: three 6s destroy
    highly_flammable: bool = False  # target: a Damaged counter is Destroyed on 3+
    prior_counters: tuple[str, ...] = ()  # face-down counters placed earlier this phase

    def validate(self) -> None:
        if not 1 <= self.dice <= MAX_DICE:
            raise IllegalOrder(f"Dice must be between 1 and {MAX_DICE} (0 dice cannot attack, M-7.2).")
        if self.defense < 1:
            raise IllegalOrder("Defense must be at least 1.")
        if self.target not in (SOLDIER, VEHICLE):
            raise IllegalOrder(f"Unknown target type '{self.target}'.", legal=(SOLDIER, VEHICLE))
        if self.target_damaged and self.target != VEHICLE:
            raise IllegalOrder("Soldiers are never damaged (M-8.4).")
        if self.cover is not None and not 1 <= self.cover <= 7:
            raise IllegalOrder("The cover roll needs a number from 1 to 7 (usually 4 or 5, M-11.1).")
        if self.shrapnel < 1 or self.superior_armor < 0:
            raise IllegalOrder("Shrapnel is at least 1 and Superior Armor at least 0.")
        if self.cover_automatic and self.cover is None:
            raise IllegalOrder("An automatic cover roll needs the cover number too.")
        for c in self.prior_counters:
            if c not in FACE_DOWN:
                raise IllegalOrder(f"Unknown counter '{c}'.", legal=FACE_DOWN)
            if c == "damaged" and self.target != VEHICLE:
                raise IllegalOrder("Soldiers never get a Damaged counter (M-9.1).")

    @property
    def effective_defense(self) -> int:
        return self.defense - (1 if self.target_penalty or self.target_damaged else 0)


@dataclass(frozen=True)
class MinisOdds:
    attack: MinisAttack
    die_chance: Fraction  # one die succeeding
    cover_chance: Fraction | None  # the cover roll succeeding (None: no roll)
    successes: tuple[Fraction, ...]  # successes[k] = P(k successes)
    hits: Mapping[int, Fraction]  # 0..3, after cover
    counters: Mapping[str, Fraction]
    flame_chance: Fraction | None = None  # three or more natural 6s (flamethrower only)

    @property
    def expected_hits(self) -> Fraction:
        return sum((h * p for h, p in self.hits.items()), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        a = self.attack
        return {
            "dice": a.dice,
            "defense": a.defense,
            "effective_defense": a.effective_defense,
            "defensive_fire": a.defensive_fire,
            "die_chance": float(self.die_chance),
            "cover_chance": None if self.cover_chance is None else float(self.cover_chance),
            "flame_chance": None if self.flame_chance is None else float(self.flame_chance),
            "prior_counters": list(a.prior_counters),
            "hits": {str(h): float(p) for h, p in self.hits.items()},
            "counters": {k: float(p) for k, p in self.counters.items()},
            "expected_hits": float(self.expected_hits),
            "successes": {str(k): float(p) for k, p in enumerate(self.successes)},
            "exact": {
                "hits": {str(h): str(p) for h, p in self.hits.items()},
                "counters": {k: str(p) for k, p in self.counters.items()},
            },
        }


def _faces_at_least(target: int, modifier: int) -> Fraction:
    return Fraction(sum(1 for face in range(1, 7) if face + modifier >= target), 6)


def hits_from_successes(a: MinisAttack, successes: int) -> int:
    """M-7.5 (with Shrapnel, Superior Armor, Armor-Piercing Rounds) before cover."""
    s = successes * (a.shrapnel if a.target == SOLDIER else 1)
    d = a.effective_defense
    if s < d:
        return 0
    if a.defensive_fire:
        return 1  # M-12.4: one result, stopped and disrupted
    second = d + max(1, a.superior_armor)
    if s >= second and s >= 2 * d:
        hits = 3
    elif s >= second:
        hits = 2
    else:
        hits = 1
    if hits == 2 and a.armor_piercing and a.target == VEHICLE:
        hits = 3
    return hits


def counter_for(a: MinisAttack, hits: int) -> str:
    """M-9.1: the counters one attack's hits give (``damaged`` = Disrupted + Damaged),
    for a target with no counters yet this phase (see :func:`counters_after`)."""
    if hits <= 0:
        return "none"
    if a.defensive_fire or hits == 1:
        return "disrupted"
    if a.target == SOLDIER or a.target_damaged or hits >= 3:
        return "destroyed"
    return "damaged"


def summary(counters: Sequence[str]) -> str:
    """The worst of a unit's face-down counters: one of :data:`COUNTERS`."""
    for c in ("destroyed", "damaged", "disrupted"):
        if c in counters:
            return c
    return "none"


def counters_after(a: MinisAttack, hits: int, *, covered: bool, flame: bool = False) -> dict[str, Fraction]:
    """What the target has after this attack (:func:`summary` of its face-down counters;
    for defensive fire the immediate effect), given the table hits before cover, the
    cover roll and the flamethrower.  A distribution only because of Highly Flammable.
    Mirrors ``place_counters`` and ``resolve`` in engine/minis/attacks.py."""
    if a.defensive_fire:  # M-12.4, M-11.3
        if covered:
            return {"none": Fraction(1)}
        return {"destroyed" if flame else "disrupted" if hits > 0 else "none": Fraction(1)}
    current = list(a.prior_counters)
    destroy = flame and not covered
    if "destroyed" in current or (hits <= 0 and not destroy):  # M-9.2
        return {summary(current): Fraction(1)}
    if destroy:
        return {"destroyed": Fraction(1)}
    if covered:  # M-11.2: one Disrupted counter, unless it has a counter already
        return {summary(current if current else ["disrupted"]): Fraction(1)}
    seq = ("disrupted", "destroyed") if a.target == SOLDIER or a.target_damaged else FACE_DOWN
    out: dict[str, Fraction] = {}

    def place(placed: list[str], left: int, p: Fraction) -> None:
        if left == 0 or "destroyed" in current + placed:
            key = summary(current + placed)
            out[key] = out.get(key, Fraction(0)) + p
            return
        i = len(current) + len(placed)
        counter = seq[i] if i < len(seq) else "destroyed"
        if counter == "damaged" and a.highly_flammable:  # a die of 3+ makes it Destroyed
            place(placed + ["destroyed"], left - 1, p * Fraction(4, 6))
            place(placed + ["damaged"], left - 1, p * Fraction(2, 6))
            return
        place(placed + [counter], left - 1, p)

    place([], hits, Fraction(1))
    return out


def _joint_with_sixes(dice: int, modifier: int) -> dict[tuple[int, bool], Fraction]:
    """P(successes = k and "three or more natural 6s") for ``dice`` dice."""
    six_succeeds = 6 + modifier >= 4
    other = Fraction(sum(1 for face in range(1, 6) if face + modifier >= 4), 6)
    six, fail = Fraction(1, 6), Fraction(5, 6) - other
    table: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(dice):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (k, sixes), p in table.items():
            for dk, ds, q in ((0, 0, fail), (1, 0, other), (1 if six_succeeds else 0, 1, six)):
                if q:
                    key = (k + dk, min(sixes + ds, 3))
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
        table = nxt
    out: dict[tuple[int, bool], Fraction] = {}
    for (k, sixes), p in table.items():
        key = (k, sixes >= 3)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def minis_odds(a: MinisAttack) -> MinisOdds:
    """The exact distribution of one attack's hits and counters."""
    a.validate()
    modifier = a.die_modifier - (1 if a.attacker_penalty else 0)
    p = _faces_at_least(4, modifier)
    joint: dict[tuple[int, bool], Fraction]
    flame_chance: Fraction | None = None
    if a.flamethrower:
        joint = _joint_with_sixes(a.dice, modifier)
        flame_chance = sum((q for (_, f), q in joint.items() if f), Fraction(0))
    else:
        joint = {(k, False): q for k, q in enumerate(binomial(a.dice, p))}
    successes = [Fraction(0)] * (a.dice + 1)
    for (k, _), q in joint.items():
        successes[k] += q
    cover: Fraction | None = None
    if a.cover is not None:
        cover = Fraction(1) if a.cover_automatic else _faces_at_least(
            a.cover, a.cover_modifier - (1 if a.same_hex else 0))
    hits = {h: Fraction(0) for h in range(4)}
    counters = {c: Fraction(0) for c in COUNTERS}
    for (k, flame), pk in joint.items():
        h = hits_from_successes(a, k)
        if (h or flame) and cover:  # M-11.5: the roll is made only when the attack would do something
            branches = [(True, pk * cover), (False, pk * (1 - cover))]
        else:
            branches = [(False, pk)]
        for covered, w in branches:
            if not w:
                continue
            # M-11.2 / M-11.3: cover limits a normal attack to one hit, negates defensive fire
            shown = (0 if a.defensive_fire else min(h, 1)) if covered else h
            hits[shown] += w
            for c, pc in counters_after(a, h, covered=covered, flame=flame).items():
                counters[c] += w * pc
    return MinisOdds(a, p, cover, tuple(successes), hits, counters, flame_chance)
