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
  three or more natural 6s destroy the target whatever the hits; its short-range attacks
  allow no cover roll (a cover number with it is refused).  Highly Flammable
  (``highly_flammable``): a Damaged counter becomes a Destroyed one on a die of 3 or
  more.  Both follow engine/minis/attacks.py.
- Forest Camouflage (``cover_automatic``): the cover roll succeeds without a die.
- Heavy Armor (``heavy_armor``: the target has it and has not used it yet in the game):
  the first Damaged counter it would receive is ignored — not received — so the next
  hit on it gives Damaged again (the ruling of engine/minis/attacks.py
  ``place_counters``, event ``HeavyArmorIgnored``).  ``heavy_armor_chance`` is the
  chance it is used up by this attack (or these attacks).
- Overheat (``overheat``: the attacker has it): three or more natural 1s disrupt the
  attacker at once (``overheat_chance``); with a second attack, the second one is then
  made disrupted (-1 on every die, M-7.3).
- Second attacks (``attacks=2``: Double Shot, or the same again with All Guns Blazing or
  a hull-mounted cannon): the same attack is made again at the same target; face-down
  counters from the first continue the target's sequence (M-9.1) and do not change its
  defense or status before the casualty phase.  ``counters`` is after every attack;
  ``hits`` is the first attack's, ``second_hits`` the second's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    heavy_armor: bool = False  # target: Heavy Armor not used yet (its first Damaged is ignored)
    overheat: bool = False  # attacker: three or more natural 1s disrupt it
    attacks: int = 1  # 2: a second attack at the same target (Double Shot)

    def validate(self) -> None:
        if not 1 <= self.dice <= MAX_DICE:
            raise IllegalOrder(f"Dice must be between 1 and {MAX_DICE} (0 dice cannot attack, M-7.2).",
                               legal=(f"/odds minis … dice:{min(max(self.dice, 1), MAX_DICE)}",))
        if self.defense < 1:
            raise IllegalOrder("Defense must be at least 1.", legal=("/odds minis … defense:1",))
        if self.target not in (SOLDIER, VEHICLE):
            raise IllegalOrder(f"Unknown target type '{self.target}'.",
                               legal=tuple(f"/odds minis … target_type:{t}" for t in (SOLDIER, VEHICLE)))
        if self.target_damaged and self.target != VEHICLE:
            raise IllegalOrder("Soldiers are never damaged (M-8.4).",
                               legal=("/odds minis … target_type:vehicle target_damaged:true",))
        if self.cover is not None and not 1 <= self.cover <= 7:
            raise IllegalOrder("The cover roll needs a number from 1 to 7 (usually 4 or 5, M-11.1).",
                               legal=("/odds minis … cover:4", "/odds minis … cover:5"))
        if self.shrapnel < 1:
            raise IllegalOrder("Shrapnel is at least 1.", legal=("/odds minis … shrapnel:1",))
        if self.superior_armor < 0:
            raise IllegalOrder("Superior Armor is at least 0.", legal=("/odds minis … superior_armor:1",))
        if self.shrapnel > 1 and self.target != SOLDIER:
            # An option that would change nothing is refused, not dropped in silence.
            # Against a Soldier where nothing else of this attack is for Vehicles only.
            soldier = not self.target_damaged and _valid(replace(self, target=SOLDIER))
            raise IllegalOrder("Shrapnel multiplies successes against Soldiers only.",
                               legal=(*([f"/odds minis … target_type:soldier shrapnel:{self.shrapnel}"] if soldier else []),
                                      "/odds minis … shrapnel:1"))
        if self.same_hex and self.cover is None:
            raise IllegalOrder("Sharing the target's hex only changes its cover roll: give the cover number too.",
                               legal=("/odds minis … cover:4 same_hex:true",))
        if self.cover_automatic and self.cover is None:
            raise IllegalOrder("An automatic cover roll needs the cover number too.")
        if self.attacks not in (1, 2):
            raise IllegalOrder("A unit attacks once, or twice with Double Shot.", legal=("/odds minis … double_shot:true",))
        if self.flamethrower and self.cover is not None:
            raise IllegalOrder("A Hull-Mounted Flamethrower's short-range attacks allow no cover roll: leave the cover"
                               " number out.")
        if self.heavy_armor and self.target != VEHICLE:
            raise IllegalOrder("Heavy Armor is a Vehicle ability: Soldiers never get Damaged counters (M-9.1).",
                               legal=("/odds minis … target_type:vehicle heavy_armor:true",))
        for c in self.prior_counters:
            if c not in FACE_DOWN:
                raise IllegalOrder(f"Unknown counter '{c}'.", legal=FACE_DOWN)
            if c == "damaged" and self.target != VEHICLE:
                raise IllegalOrder("Soldiers never get a Damaged counter (M-9.1).")

    @property
    def effective_defense(self) -> int:
        return self.defense - (1 if self.target_penalty or self.target_damaged else 0)


def _valid(attack: MinisAttack) -> bool:
    """Whether ``attack`` passes :meth:`MinisAttack.validate` (an example offered in a
    refusal must)."""
    try:
        attack.validate()
    except IllegalOrder:
        return False
    return True


@dataclass(frozen=True)
class MinisOdds:
    attack: MinisAttack
    die_chance: Fraction  # one die succeeding
    cover_chance: Fraction | None  # the cover roll succeeding (None: no roll)
    successes: tuple[Fraction, ...]  # successes[k] = P(k successes)
    hits: Mapping[int, Fraction]  # 0..3, after cover
    counters: Mapping[str, Fraction]
    flame_chance: Fraction | None = None  # three or more natural 6s (flamethrower only)
    overheat_chance: Fraction | None = None  # the attacker disrupted by Overheat (any attack)
    heavy_armor_chance: Fraction | None = None  # the target's Heavy Armor used up
    # The second attack's hits: the chance it is made with each number of hits (they add
    # up to second_made: on defensive fire the second shot is not made once the first
    # stopped the mover, M-12.4, or Overheat disrupted the gun, M-8.1).
    second_hits: Mapping[int, Fraction] | None = None
    second_made: Fraction | None = None

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
            "attacks": a.attacks,
            "overheat_chance": None if self.overheat_chance is None else float(self.overheat_chance),
            "heavy_armor_chance": None if self.heavy_armor_chance is None else float(self.heavy_armor_chance),
            "second_hits": None if self.second_hits is None else {
                str(h): float(p) for h, p in self.second_hits.items()},
            "second_made": None if self.second_made is None else float(self.second_made),
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
    out: dict[str, Fraction] = {}
    for (placed, _), p in counter_lists(a, hits, covered=covered, flame=flame).items():
        key = placed if a.defensive_fire else summary(placed)
        out[key] = out.get(key, Fraction(0)) + p
    return out


CounterState = tuple[tuple[str, ...], bool]  # (face-down counters, Heavy Armor still unused)


def counter_lists(
    a: MinisAttack,
    hits: int,
    *,
    covered: bool,
    flame: bool = False,
    prior: tuple[str, ...] | None = None,
    heavy: bool | None = None,
) -> dict[Any, Fraction]:
    """The target's face-down counters (the whole list) and whether its Heavy Armor is
    still unused, after this attack; for defensive fire the immediate effect instead of
    a list (a one-word key).  ``prior`` and ``heavy`` default to the attack's own."""
    current = list(a.prior_counters if prior is None else prior)
    heavy = a.heavy_armor if heavy is None else heavy
    if a.defensive_fire:  # M-12.4, M-11.3
        if covered:
            return {("none", heavy): Fraction(1)}
        return {("destroyed" if flame else "disrupted" if hits > 0 else "none", heavy): Fraction(1)}
    destroy = flame and not covered
    if "destroyed" in current or (hits <= 0 and not destroy):  # M-9.2
        return {(tuple(current), heavy): Fraction(1)}
    if destroy:
        return {(tuple(current + ["destroyed"]), heavy): Fraction(1)}
    if covered:  # M-11.2: one Disrupted counter, unless it has a counter already
        return {(tuple(current if current else ["disrupted"]), heavy): Fraction(1)}
    seq = ("disrupted", "destroyed") if a.target == SOLDIER or a.target_damaged else FACE_DOWN
    out: dict[Any, Fraction] = {}

    def place(placed: list[str], left: int, p: Fraction, heavy: bool) -> None:
        if left == 0 or "destroyed" in current + placed:
            key = (tuple(current + placed), heavy)
            out[key] = out.get(key, Fraction(0)) + p
            return
        i = len(current) + len(placed)
        counter = seq[i] if i < len(seq) else "destroyed"
        if counter == "damaged" and heavy:  # Heavy Armor: this Damaged is not received
            place(placed, left - 1, p, False)
            return
        if counter == "damaged" and a.highly_flammable:  # a die of 3+ makes it Destroyed
            place(placed + ["destroyed"], left - 1, p * Fraction(4, 6), heavy)
            place(placed + ["damaged"], left - 1, p * Fraction(2, 6), heavy)
            return
        place(placed + [counter], left - 1, p, heavy)

    place([], hits, Fraction(1), heavy)
    return out


def _joint(dice: int, modifier: int, sixes: bool, ones: bool) -> dict[tuple[int, bool, bool], Fraction]:
    """P(successes = k, "three or more natural 6s", "three or more natural 1s")."""
    table: dict[tuple[int, int, int], Fraction] = {(0, 0, 0): Fraction(1)}
    sixth = Fraction(1, 6)
    for _ in range(dice):
        nxt: dict[tuple[int, int, int], Fraction] = {}
        for (k, n6, n1), p in table.items():
            for face in range(1, 7):
                key = (
                    k + (1 if face + modifier >= 4 else 0),
                    min(n6 + 1, 3) if sixes and face == 6 else n6,
                    min(n1 + 1, 3) if ones and face == 1 else n1,
                )
                nxt[key] = nxt.get(key, Fraction(0)) + p * sixth
        table = nxt
    out: dict[tuple[int, bool, bool], Fraction] = {}
    for (k, n6, n1), p in table.items():
        key = (k, n6 >= 3, n1 >= 3)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def _modifier(a: MinisAttack, penalty: bool) -> int:
    return a.die_modifier - (1 if penalty else 0)


def _one_attack(
    a: MinisAttack, penalty: bool, prior: tuple[str, ...], heavy: bool
) -> tuple[dict[tuple[int, bool, bool], Fraction], dict[int, Fraction], dict[tuple[Any, bool], Fraction]]:
    """One attack: the dice (successes, three 6s, three 1s), the hits after cover, and
    the distribution of (counter state, overheated)."""
    modifier = _modifier(a, penalty)
    if a.flamethrower or a.overheat:
        joint = _joint(a.dice, modifier, a.flamethrower, a.overheat)
    else:
        p = _faces_at_least(4, modifier)
        joint = {(k, False, False): q for k, q in enumerate(binomial(a.dice, p))}
    cover: Fraction | None = None
    if a.cover is not None:
        cover = Fraction(1) if a.cover_automatic else _faces_at_least(
            a.cover, a.cover_modifier - (1 if a.same_hex else 0))
    hits = {h: Fraction(0) for h in range(4)}
    after: dict[tuple[Any, bool], Fraction] = {}
    for (k, flame, hot), pk in joint.items():
        h = hits_from_successes(a, k)
        if h and cover:  # M-11.5: the roll is made only when the attack would do something
            branches = [(True, pk * cover), (False, pk * (1 - cover))]
        else:
            branches = [(False, pk)]
        for covered, w in branches:
            if not w:
                continue
            # M-11.2 / M-11.3: cover limits a normal attack to one hit, negates defensive fire
            shown = (0 if a.defensive_fire else min(h, 1)) if covered else h
            hits[shown] += w
            for st, pc in counter_lists(a, h, covered=covered, flame=flame, prior=prior, heavy=heavy).items():
                key = (st, hot)
                after[key] = after.get(key, Fraction(0)) + w * pc
    return joint, hits, after


def minis_odds(a: MinisAttack) -> MinisOdds:
    """The exact distribution of one attack's (or two attacks') hits and counters."""
    a.validate()
    penalty = a.attacker_penalty
    joint, hits, after = _one_attack(a, penalty, a.prior_counters, a.heavy_armor)
    successes = [Fraction(0)] * (a.dice + 1)
    for (k, _, _), q in joint.items():
        successes[k] += q
    flame_chance = sum((q for (_, f, _), q in joint.items() if f), Fraction(0)) if a.flamethrower else None
    second_hits: dict[int, Fraction] | None = None
    second_made: Fraction | None = None
    if a.attacks == 2:
        second_hits = {h: Fraction(0) for h in range(4)}
        second_made = Fraction(1)
        final: dict[tuple[Any, bool], Fraction] = {}
        for ((state, heavy), hot), p in after.items():
            if a.defensive_fire and (state != "none" or hot):
                # The first shot stopped the mover (disrupted or destroyed it, M-12.4), or
                # Overheat disrupted the gun (a disrupted unit cannot fire defensively,
                # M-8.1, M-12.2): the second is not made (engine/minis/defensive_fire.fire).
                key = ((state, heavy), hot)
                final[key] = final.get(key, Fraction(0)) + p
                second_made -= p
                continue
            prior = a.prior_counters if a.defensive_fire else state
            _, hits2, after2 = _one_attack(a, penalty or hot, prior, heavy)
            for h, q in hits2.items():
                second_hits[h] += p * q
            for ((state2, heavy2), hot2), q in after2.items():
                if a.defensive_fire:  # each shot has its own immediate effect: keep the worst
                    state2 = _worst(state, state2)
                key = ((state2, heavy2), hot or hot2)
                final[key] = final.get(key, Fraction(0)) + p * q
        after = final
    counters = {c: Fraction(0) for c in COUNTERS}
    overheat = Fraction(0)
    heavy_used = Fraction(0)
    for ((state, heavy), hot), p in after.items():
        name: str = state if a.defensive_fire else summary(state)
        counters[name] += p
        if hot:
            overheat += p
        if a.heavy_armor and not heavy:
            heavy_used += p
    return MinisOdds(
        a, _faces_at_least(4, _modifier(a, penalty)),
        None if a.cover is None else (Fraction(1) if a.cover_automatic else _faces_at_least(
            a.cover, a.cover_modifier - (1 if a.same_hex else 0))),
        tuple(successes), hits, counters, flame_chance,
        overheat_chance=overheat if a.overheat else None,
        heavy_armor_chance=heavy_used if a.heavy_armor else None,
        second_hits=second_hits, second_made=second_made,
    )  # fmt: skip


def _worst(a: Any, b: Any) -> Any:
    order = {c: i for i, c in enumerate(COUNTERS)}
    return a if order[a] >= order[b] else b
