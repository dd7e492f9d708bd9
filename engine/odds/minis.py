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
  already damaged is destroyed by 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from engine.core.errors import IllegalOrder
from engine.odds.dist import binomial

SOLDIER, VEHICLE = "soldier", "vehicle"
COUNTERS = ("none", "disrupted", "damaged", "destroyed")
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
    """M-9.1: the counters one attack's hits give (``damaged`` = Disrupted + Damaged)."""
    if hits <= 0:
        return "none"
    if a.defensive_fire or hits == 1:
        return "disrupted"
    if a.target == SOLDIER or a.target_damaged or hits >= 3:
        return "destroyed"
    return "damaged"


def minis_odds(a: MinisAttack) -> MinisOdds:
    """The exact distribution of one attack's hits and counters."""
    a.validate()
    p = _faces_at_least(4, a.die_modifier - (1 if a.attacker_penalty else 0))
    successes = tuple(binomial(a.dice, p))
    cover: Fraction | None = None
    if a.cover is not None:
        cover = _faces_at_least(a.cover, a.cover_modifier - (1 if a.same_hex else 0))
    hits = {h: Fraction(0) for h in range(4)}
    for k, pk in enumerate(successes):
        h = hits_from_successes(a, k)
        if h and cover:
            # M-11.2 / M-11.3: cover limits a normal attack to one hit, negates defensive fire
            hits[0 if a.defensive_fire else 1] += pk * cover
            hits[h] += pk * (1 - cover)
        else:
            hits[h] += pk
    counters = {c: Fraction(0) for c in COUNTERS}
    for h, ph in hits.items():
        counters[counter_for(a, h)] += ph
    return MinisOdds(a, p, cover, successes, hits, counters)
