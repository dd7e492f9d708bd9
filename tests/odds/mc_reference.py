"""A plain Monte Carlo simulator of A&A Anniversary battles, written separately from the
exact engines (unit by unit, die by die) so that the tests can check the exact numbers
against it within its statistical error.  Test code only: it uses its own seeded
``random.Random``.  It also plays the calculator's other rules sets (issue 19): 1942
Second Edition and the Global-1940 house rules (spec G-7, G-10), from its own tables."""

from __future__ import annotations

import math
import random
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Mapping

# name: (attack, defense, cost, kind) — A-14
PROFILE = {
    "infantry": (1, 2, 3, "land"),
    "artillery": (2, 2, 4, "land"),
    "tank": (3, 3, 5, "land"),
    "aa gun": (0, 0, 6, "aa"),
    "fighter": (3, 4, 10, "air"),
    "bomber": (4, 1, 12, "air"),
    "submarine": (2, 1, 6, "sub"),
    "transport": (0, 0, 7, "transport"),
    "destroyer": (2, 2, 8, "ship"),
    "cruiser": (3, 3, 12, "ship"),
    "carrier": (1, 2, 14, "ship"),
    "battleship": (4, 4, 20, "ship"),
}
# The other rules sets' unit profiles where they differ.  1942 Second Edition: carriers
# take two hits and do not attack, every AA gun fires (below).  Global-1940 house rules
# (G-7): transports defend at 1 and are lost like any ship; battleships roll two dice.
RULES_SETS = {
    "anniversary": PROFILE,
    "1942se": {**PROFILE, "tank": (3, 3, 6, "land"), "aa gun": (0, 0, 5, "aa"), "carrier": (0, 2, 16, "ship")},
    "global1940": {**PROFILE, "infantry": (1, 2, 2, "land"), "artillery": (2, 2, 3, "land"), "tank": (3, 3, 6, "land"),
                   "aa gun": (0, 0, 5, "aa"), "bomber": (4, 1, 15, "air"), "transport": (0, 1, 8, "ship"),
                   "submarine": (3, 2, 9, "sub"), "destroyer": (2, 2, 10, "ship"), "carrier": (1, 2, 15, "ship")},
}  # fmt: skip
TWO_HITS = {"anniversary": {"battleship"}, "1942se": {"battleship", "carrier"}, "global1940": {"battleship"}}
DICE = {"anniversary": {}, "1942se": {}, "global1940": {"battleship": 2}}
# Technologies (A-7, chart 1 and 2) as they change a battle: by role, since the
# attacker's and the defender's are their own.
SHIPYARD_COSTS = {"battleship": 17, "carrier": 11, "cruiser": 10, "destroyer": 7, "transport": 6, "submarine": 5}
# The rules set and technologies of the battle being played (simulate sets them; test
# code, one thread).
_SET: dict[str, Any] = {"rules": "anniversary", "profile": PROFILE, "two_hits": TWO_HITS["anniversary"],
                        "dice": DICE["anniversary"], "tech": {"attack": frozenset(), "defense": frozenset()}}


@contextmanager
def _playing(rules: str, tech_attacker: frozenset[str] = frozenset(),
             tech_defender: frozenset[str] = frozenset()) -> Iterator[None]:
    """``_SET`` as ``rules`` and the technologies have it, for the duration; then the
    Anniversary rules without technologies again."""
    _SET.update(rules=rules, profile=RULES_SETS[rules], two_hits=TWO_HITS[rules], dice=DICE[rules],
                tech={"attack": tech_attacker, "defense": tech_defender})
    try:
        yield
    finally:
        _SET.update(rules="anniversary", profile=PROFILE, two_hits=TWO_HITS["anniversary"], dice=DICE["anniversary"],
                    tech={"attack": frozenset(), "defense": frozenset()})


def _p(name: str) -> tuple[int, int, int, str]:
    return _SET["profile"][name]  # type: ignore[no-any-return]


def _value(name: str, role: str) -> int:
    """A unit's combat value in a role, with its side's technologies: Jet Fighters
    (fighters attack at 4), Super Submarines (submarines attack at 3)."""
    tech = _SET["tech"][role]
    if role == "attack" and name == "fighter" and "jet fighters" in tech:
        return 4
    if role == "attack" and name == "submarine" and "super submarines" in tech:
        return 3
    return _p(name)[0 if role == "attack" else 1]


def _unit_dice(name: str, role: str) -> int:
    """Dice a unit rolls: two for a Global-1940 battleship; two for an attacking bomber
    with Heavy Bombers (one on defence)."""
    if role == "attack" and name == "bomber" and "heavy bombers" in _SET["tech"][role]:
        return 2
    return int(_SET["dice"].get(name, 1))


def unit_cost(name: str, rules: str = "anniversary", tech: frozenset[str] = frozenset()) -> int:
    """A unit's cost to its side under a rules set (Improved Shipyards lowers ships')."""
    if name in SHIPYARD_COSTS and "improved shipyards" in tech:
        return SHIPYARD_COSTS[name]
    return RULES_SETS[rules][name][2]


def _price(name: str, role: str) -> int:
    return unit_cost(name, _SET["rules"], _SET["tech"][role])


@dataclass
class Unit:
    name: str
    damaged: bool = False
    overland: bool = False  # an amphibious assault's land unit that came over land

    @property
    def kind(self) -> str:
        return _p(self.name)[3]


def _new_tally() -> dict[str, int]:
    return {"attacker": 0, "defender": 0, "draw": 0, "takes": 0}


@dataclass
class Tally:
    battles: int = 0
    attacker: int = 0
    defender: int = 0
    draw: int = 0
    takes: int = 0
    retreat: int = 0
    survivors: dict[str, dict[str, int]] = field(default_factory=lambda: {"attacker": {}, "defender": {}})
    ipc_lost: dict[str, int] = field(default_factory=lambda: {"attacker": 0, "defender": 0})
    # With a second wave: the whole attack's outcomes; an amphibious assault with a
    # retreat: the whole assault's, the landed units fighting on (A-10.3's ruling).
    whole: dict[str, int] = field(default_factory=_new_tally)


def _order(names: list[str], role: str, preferred: tuple[str, ...]) -> list[str]:
    rest = sorted(
        (n for n in set(names) if n not in preferred and n != "aa gun"),
        key=lambda n: (_p(n)[3] == "transport", _value(n, role), _price(n, role), n),
    )
    order = [n for n in preferred if n in names and n != "aa gun"] + rest
    return [n for n in order if _p(n)[3] != "transport"] + [n for n in order if _p(n)[3] == "transport"]


def _candidates(units: list[Unit], order: list[str], keep_land: bool) -> list[tuple[int, str]]:
    """(unit index, 'damage' | 'kill') in the order hits go: intact battleships (and
    1942 Second Edition's carriers) absorb first, then by type; the kept land unit
    last."""
    steps: list[tuple[int, str]] = []
    for i, u in enumerate(units):
        if u.name in _SET["two_hits"] and not u.damaged:
            steps.append((i, "damage"))
    for name in order:
        for i, u in enumerate(units):
            if u.name == name:
                steps.append((i, "kill"))
    if keep_land:
        for k in range(len(steps) - 1, -1, -1):
            if units[steps[k][0]].kind == "land":
                steps.append(steps.pop(k))
                break
    return steps


def _matchable(kinds: list[str], hits: dict[str, int]) -> bool:
    """Whether steps of unit kinds ``kinds`` can each take a hit of their own: a
    submarine's hit never on an aircraft, an aircraft's (without a friendly destroyer)
    never on a submarine.  Hall's condition on the three groups of steps: the
    submarines' steps need submarine or unrestricted hits, the aircraft's aircraft or
    unrestricted ones, and all of them no more hits than there are."""
    s = sum(1 for k in kinds if k == "sub")
    a = sum(1 for k in kinds if k == "air")
    total = hits["sub"] + hits["air"] + hits["any"]
    return s <= hits["sub"] + hits["any"] and a <= hits["air"] + hits["any"] and len(kinds) <= total


def take_hits(units: list[Unit], hits: dict[str, int], order: list[str], keep_land: bool) -> list[Unit]:
    """A-10.14's ruling: the owner takes as many hits as can be placed and, of those
    choices, loses the earliest steps of its order: going down the order, a step is
    lost when it and the steps lost before it can still each take a hit."""
    steps = _candidates(units, order, keep_land)
    chosen: list[tuple[int, str]] = []
    for i, what in steps:
        if _matchable([units[j].kind for j, _ in chosen] + [units[i].kind], hits):
            chosen.append((i, what))
    out = [Unit(u.name, u.damaged, u.overland) for u in units]
    dead = set()
    for i, what in chosen:
        if what == "damage":
            out[i].damaged = True
        else:
            dead.add(i)
    return [u for i, u in enumerate(out) if i not in dead]


def _roll(rng: random.Random, value: int) -> bool:
    return rng.randint(1, 6) <= value


def _low_luck(rng: random.Random, total: int) -> int:
    """Low-luck hits of a pool of combat value ``total``: a sure hit per 6, one die for
    the rest."""
    return total // 6 + (1 if total % 6 and _roll(rng, total % 6) else 0)


def _dice(units: list[Unit], role: str, *, subs: bool, others: bool, air_any: bool,
          support: bool) -> list[tuple[str, int]]:
    """The dice a side rolls, as (class of the hits, value): "sub" (a submarine's, never
    on aircraft), "air" (an aircraft's without a friendly destroyer against
    submarines, never on them), "any"."""
    out: list[tuple[str, int]] = []
    per = 2 if "advanced artillery" in _SET["tech"][role] else 1  # infantry an artillery supports
    arts = per * sum(1 for u in units if u.name == "artillery") if support else 0
    for u in units:
        value = _value(u.name, role)
        dice = _unit_dice(u.name, role)
        if u.name == "infantry" and role == "attack" and arts > 0:
            arts -= 1
            value = 2
        if value <= 0:
            continue
        if u.kind == "sub":
            cls = "sub" if subs else ""
        else:
            cls = ("any" if (u.kind != "air" or air_any) else "air") if others else ""
        if cls:
            out += [(cls, value)] * dice
    return out


Hits = tuple[int, int, int]  # submarine, aircraft and other hits
CLASSES = ("sub", "air", "any")


def _pools(dice: list[tuple[str, int]]) -> dict[str, int]:
    """Low luck: each class's dice pooled (the calculator's ruling), its total value."""
    return {cls: sum(v for c, v in dice if c == cls) for cls in CLASSES}


def _fire(rng: random.Random, units: list[Unit], role: str, *, low_luck: bool = False,
          **kinds: bool) -> list[tuple[float, Hits]]:
    """One roll of the side's dice: [(1.0, hits)]."""
    dice = _dice(units, role, **kinds)
    if low_luck:
        got = {cls: _low_luck(rng, total) for cls, total in _pools(dice).items()}
    else:
        got = {cls: sum(1 for c, v in dice if c == cls and _roll(rng, v)) for cls in CLASSES}
    return [(1.0, (got["sub"], got["air"], got["any"]))]


def fire_distribution(units: list[Unit], role: str, *, low_luck: bool = False,
                      **kinds: bool) -> list[tuple[float, Hits]]:
    """Every roll of the side's dice with its chance (for the exact chances below)."""
    dist: dict[Hits, float] = {(0, 0, 0): 1.0}
    dice = _dice(units, role, **kinds)
    if low_luck:
        for k, (cls, total) in enumerate(_pools(dice).items()):
            sure, rest = divmod(total, 6)
            step = [(1 - rest / 6, sure), (rest / 6, sure + 1)] if rest else [(1.0, sure)]
            dist = _add(dist, k, step)
    else:
        for cls, value in dice:
            dist = _add(dist, CLASSES.index(cls), [(1 - value / 6, 0), (value / 6, 1)])
    return [(q, h) for h, q in dist.items()]


def _add(dist: dict[Hits, float], k: int, step: list[tuple[float, int]]) -> dict[Hits, float]:
    out: dict[Hits, float] = {}
    for h, q in dist.items():
        for w, n in step:
            if w:
                g = list(h)
                g[k] += n
                out[(g[0], g[1], g[2])] = out.get((g[0], g[1], g[2]), 0.0) + q * w
    return out


def _as_dict(hits: Hits) -> dict[str, int]:
    return dict(zip(CLASSES, hits))


@dataclass
class _Rules:
    sea: bool
    a_order: list[str]
    d_order: list[str]
    keep_land: bool = False
    low_luck: bool = False
    rounds: int | None = None
    retreat_below: int = 0
    retreat_after: int | None = None
    retreat_chance: float | None = None  # % (the chance of fighting on to the end, exact_win)
    chances: dict[tuple[object, ...], float] = field(default_factory=dict)  # exact_win's, by state
    # A-10.6's ruling, per side (attacker, defender): submarines that are all a side has
    # left submerge when no enemy destroyer is there (exact_outcomes only).
    submerge: tuple[bool, bool] = (False, False)


def _aa_fire(rng: random.Random, att: list[Unit], low_luck: bool, guns: int = 1,
             order: list[str] | None = None) -> list[Unit]:
    """A-10.5: one die per aircraft, rolled by type (low luck: per type, a sure hit per 6
    aircraft and one die for the rest).  With ``order`` (1942 Second Edition): every gun
    fires up to 3 dice, never more dice than aircraft, and the attacker loses the
    aircraft its order of loss names first.  Radar: the guns hit on 1 or 2."""
    hit = 2 if "radar" in _SET["tech"]["defense"] else 1
    if order is not None:
        shots = min(3 * guns, sum(1 for u in att if u.kind == "air"))
        hits = _low_luck(rng, hit * shots) if low_luck else sum(_roll(rng, hit) for _ in range(shots))
        out = list(att)
        for _ in range(hits):
            out.remove(next(u for name in order for u in out if u.name == name and u.kind == "air"))
        return out
    if not low_luck:
        return [u for u in att if not (u.kind == "air" and _roll(rng, hit))]
    out = list(att)
    for name in sorted({u.name for u in att if u.kind == "air"}):
        hits = _low_luck(rng, hit * sum(1 for u in att if u.name == name))
        for _ in range(hits):
            out.remove(next(u for u in out if u.name == name))
    return out


def _end(att: list[Unit], dfn: list[Unit], fought: bool) -> str:
    if att:
        return "attacker"
    return "defender" if dfn or not fought else "draw"


def _fight(rng: random.Random, att: list[Unit], dfn: list[Unit], rules: _Rules, *, fires_first: list[Unit] | None,
           fought: bool) -> tuple[str, list[Unit], list[Unit], int]:
    """Rounds until an end: (outcome, attacker left, defender left, rounds fought);
    ``fires_first``: the defender as it fires in round 1 (bombardment's casualties
    included)."""
    r = 0
    while True:
        # end-of-round (and before round 1) checks
        if fires_first is None or r > 0:
            outcome, att, dfn = _ends(att, dfn, rules, fought)
            if outcome is not None:
                return outcome, att, dfn, r
            if r > 0 and rules.retreat_below and len(att) < rules.retreat_below:
                return "retreat", att, dfn, r
            if r > 0 and r == rules.retreat_after:  # a strafe
                return "retreat", att, dfn, r
            if r > 0 and rules.retreat_chance is not None:  # fighting on would win less than X %
                chance = exact_win(att, dfn, replace(rules, rounds=None, retreat_after=None, retreat_chance=None))
                if chance < rules.retreat_chance / 100 - 1e-11:
                    return "retreat", att, dfn, r
        if rules.rounds is not None and r >= rules.rounds:
            return "unfinished", att, dfn, r
        if r > 0 and _stuck(att, dfn):  # nothing can hit any more: after the retreats and the round limit
            return "stalemate", att, dfn, r
        shooters_d = fires_first if (fires_first is not None and r == 0) else dfn
        (_q, att, dfn), = _round(att, dfn, rules, shooters_d, lambda *a, **k: _fire(rng, *a, **k))
        r += 1


Fire = Callable[..., list[tuple[float, Hits]]]


def _round(att: list[Unit], dfn: list[Unit], rules: _Rules, shooters_d: list[Unit],
           fire: Fire) -> list[tuple[float, list[Unit], list[Unit]]]:
    """One round from (att, dfn), ``shooters_d`` the defender's units that fire in
    general fire: its outcomes with their chances (one, sampled, when ``fire`` rolls)."""
    a_des = any(u.name == "destroyer" for u in att)
    d_des = any(u.name == "destroyer" for u in dfn)
    a_strike = any(u.kind == "sub" for u in att) and not d_des
    d_strike = any(u.kind == "sub" for u in dfn) and not a_des
    ll = rules.low_luck
    after_strike = [(1.0, att, dfn, shooters_d)]
    # 1. surprise strike, both sides from the round's start
    if a_strike or d_strike:
        after_strike = [
            (qa * qd, take_hits(att, _as_dict(hd), rules.a_order, rules.keep_land),
             take_hits(dfn, _as_dict(ha), rules.d_order, False), None)
            for qa, ha in fire(att, "attack", subs=a_strike, others=False, air_any=True, support=False, low_luck=ll)
            for qd, hd in fire(dfn, "defense", subs=d_strike, others=False, air_any=True, support=False, low_luck=ll)
        ]  # fmt: skip
    out = []
    for q, a1, d1, shooters in after_strike:
        shooters = d1 if shooters is None else shooters
        # 2. general fire, both at once; aircraft's hits are pooled apart (low luck)
        # only where they may not hit the enemy's submarines
        d_subs = any(u.kind == "sub" for u in d1)
        a_subs = any(u.kind == "sub" for u in a1)
        for qa, ha in fire(a1, "attack", subs=not a_strike, others=True, support=True, low_luck=ll,
                           air_any=any(u.name == "destroyer" for u in a1) or not d_subs):
            for qd, hd in fire(shooters, "defense", subs=not d_strike, others=True, support=False, low_luck=ll,
                               air_any=any(u.name == "destroyer" for u in shooters) or not a_subs):
                out.append((q * qa * qd, take_hits(a1, _as_dict(hd), rules.a_order, rules.keep_land),
                            take_hits(d1, _as_dict(ha), rules.d_order, False)))
    return out


def _key(units: list[Unit]) -> tuple[tuple[str, bool, bool], ...]:
    return tuple(sorted((u.name, u.damaged, u.overland) for u in units))


def exact_win(att: list[Unit], dfn: list[Unit], rules: _Rules) -> float:
    """The attacker's exact chance to win by fighting on to the end from a round's end
    (the chance a retreat by win chance reads: no strafe, no round limit), for small
    battles: every roll of every round, a round that changes nothing summed in closed
    form."""
    memo = rules.chances
    key = (_key(att), _key(dfn))
    if key in memo:
        return memo[key]
    outcome, att, dfn = _ends(att, dfn, rules, fought=True)
    if outcome is not None:
        return memo.setdefault(key, 1.0 if outcome == "attacker" else 0.0)
    if _stuck(att, dfn):
        return memo.setdefault(key, 0.0)  # a stalemate
    if rules.retreat_below and len(att) < rules.retreat_below:
        return memo.setdefault(key, 0.0)  # the ruling: a retreat below K units is never a win
    same, rest = 0.0, 0.0
    for q, a1, d1 in _round(att, dfn, rules, dfn, fire_distribution):
        if (_key(a1), _key(d1)) == key:
            same += q
        else:
            rest += q * exact_win(a1, d1, rules)
    return memo.setdefault(key, rest / (1 - same))


def _ends(att: list[Unit], dfn: list[Unit], rules: _Rules,
          fought: bool) -> tuple[str | None, list[Unit], list[Unit]]:
    """The end-of-round rules: a side gone ends the battle; a defender left with only
    transports (or only them and submarines against aircraft) facing attackers able to
    fire loses them (A-10.7).  (The outcome or None while it goes on, the sides.)"""
    if not att or not dfn:
        return _end(att, dfn, fought), att, dfn
    if rules.sea and any(u.kind == "transport" for u in dfn) and any(_p(u.name)[0] > 0 for u in att):
        only_tr = all(u.kind == "transport" for u in dfn)
        subs_tr = all(u.kind in ("transport", "sub") for u in dfn) and all(u.kind == "air" for u in att)
        if only_tr or subs_tr:
            dfn = [u for u in dfn if u.kind != "transport"]
            if not dfn:
                return "attacker", att, dfn
    return None, att, dfn


def _aside(att: list[Unit], dfn: list[Unit], sea: bool) -> tuple[list[Unit], list[Unit]]:
    """A-10.6 / A-14.4: defending fighters stay out of a battle against submarines
    alone with no defending destroyer: (in the battle, aside)."""
    if sea and att and all(u.kind == "sub" for u in att) and not any(u.name == "destroyer" for u in dfn):
        return [u for u in dfn if u.kind != "air"], [u for u in dfn if u.kind == "air"]
    return dfn, []


def _cost(units: list[Unit], role: str) -> int:
    return sum(_price(u.name, role) for u in units)


def _count(into: dict[str, int], outcome: str, att: list[Unit], sea: bool) -> None:
    if outcome == "attacker":
        into["attacker"] += 1
        if sea or any(u.kind == "land" for u in att):
            into["takes"] += 1
    elif outcome == "draw":
        into["draw"] += 1
    else:
        into["defender"] += 1


def _repaired(units: list[Unit]) -> list[Unit]:
    return [Unit(u.name, False, u.overland) for u in units]  # repaired when the battle ends


def simulate(attacker: dict[str, int], defender: dict[str, int], *, mode: str = "land", n: int,
             seed: int, bombard: dict[str, int] | None = None, rounds: int | None = None,
             retreat_below: int = 0, keep_land: bool = False,
             ool_attacker: tuple[str, ...] = (), ool_defender: tuple[str, ...] = (),
             retreat_after: int | None = None, low_luck: bool = False, wave2: dict[str, int] | None = None,
             overland: dict[str, int] | None = None, rules: str = "anniversary",
             retreat_chance: float | None = None, tech_attacker: frozenset[str] = frozenset(),
             tech_defender: frozenset[str] = frozenset()) -> Tally:
    """``n`` battles.  ``wave2``: a second force attacks what the first left (joined by
    the first wave's units still fighting when a round limit stops it, without a
    strafe), its outcomes in ``Tally.whole``; ``overland``: an amphibious assault's land
    units that came over land, which retreat with the aircraft while those landed from
    the sea fight on to the end (A-10.3), the whole assault in ``Tally.whole``."""
    with _playing(rules, tech_attacker, tech_defender):
        return _simulate(attacker, defender, mode=mode, n=n, seed=seed, bombard=bombard, rounds=rounds,
                         retreat_below=retreat_below, keep_land=keep_land, ool_attacker=ool_attacker,
                         ool_defender=ool_defender, retreat_after=retreat_after, low_luck=low_luck, wave2=wave2,
                         overland=overland, rules=rules, retreat_chance=retreat_chance)


def _simulate(attacker: dict[str, int], defender: dict[str, int], *, mode: str, n: int, seed: int,
              bombard: dict[str, int] | None, rounds: int | None, retreat_below: int, keep_land: bool,
              ool_attacker: tuple[str, ...], ool_defender: tuple[str, ...], retreat_after: int | None,
              low_luck: bool, wave2: dict[str, int] | None, overland: dict[str, int] | None, rules: str,
              retreat_chance: float | None) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    overland = dict(overland or {})
    a_names = [k for k, c in attacker.items() for _ in range(c)]
    d_names = [k for k, c in defender.items() for _ in range(c)]
    w_names = [k for k, c in (wave2 or {}).items() for _ in range(c)]
    a_order = _order(a_names + w_names, "attack", ool_attacker)
    d_order = _order(d_names, "defense", ool_defender)
    sea = mode == "sea"
    guns = sum(1 for x in d_names if x == "aa gun")
    has_aa = guns > 0
    every_gun = a_order if rules == "1942se" else None  # every gun fires (1942 Second Edition)
    play = _Rules(sea, a_order, d_order, keep_land, low_luck, rounds, retreat_below, retreat_after, retreat_chance)
    joins = bool(wave2) and rounds is not None and retreat_after is None
    for _ in range(n):
        # Within a type, the units landed from the sea are lost first (earlier in the list).
        over = dict(overland)
        flags = []
        for x in a_names:
            flags.append(over.get(x, 0) > 0)
            over[x] = over.get(x, 0) - 1
        att = sorted((Unit(x, overland=f) for x, f in zip(a_names, flags)), key=lambda u: u.overland)
        dfn = [Unit(x) for x in d_names if x != "aa gun"]
        fought = bool(dfn)
        dfn, aside = _aside(att, dfn, sea)
        if has_aa and not sea:
            att = _aa_fire(rng, att, low_luck, guns, every_gun)
        fires_first = None
        if mode == "amphibious" and bombard:  # one ship per land unit from the sea
            dice = _bombard_dice(att, bombard, rules)
            hits = _low_luck(rng, sum(dice)) if low_luck else sum(1 for v in dice if _roll(rng, v))
            fires_first = dfn
            dfn = take_hits(dfn, {"sub": 0, "air": 0, "any": hits}, d_order, False)
        outcome, att, dfn, _r = _fight(rng, att, dfn, play, fires_first=fires_first, fought=fought)
        tally.battles += 1
        first = _new_tally()
        _count(first, outcome, att, sea)
        tally.attacker += first["attacker"]
        tally.defender += first["defender"]
        tally.draw += first["draw"]
        tally.takes += first["takes"]
        tally.retreat += outcome == "retreat"
        for side, units in (("attacker", att), ("defender", dfn + aside)):
            for u in units:
                tally.survivors[side][u.name] = tally.survivors[side].get(u.name, 0) + 1
        tally.ipc_lost["attacker"] += _cost([Unit(x) for x in a_names], "attack") - _cost(att, "attack")
        tally.ipc_lost["defender"] += (_cost([Unit(x) for x in d_names if x != "aa gun"], "defense")
                                       - _cost(dfn + aside, "defense"))
        landed = [u for u in att if u.kind == "land" and not u.overland]
        if mode == "amphibious" and (retreat_after is not None or retreat_below or retreat_chance) and any(
            not f for x, f in zip(a_names, flags) if _p(x)[3] == "land"
        ):
            # The whole assault: the landed units fight on after the others retreat (a
            # second wave then attacks what that left).
            if outcome == "retreat":
                if landed:
                    on = _Rules(False, a_order, d_order, keep_land, low_luck)
                    outcome, att, dfn, _r = _fight(rng, landed, dfn, on, fires_first=None, fought=True)
                else:
                    outcome = "defender"
            if not wave2:
                _count(tally.whole, outcome, att, sea)
        if wave2:
            second = [Unit(x) for x in w_names]
            if joins and outcome == "unfinished":
                second = _repaired(att) + second
            took = outcome == "attacker" and (sea or any(u.kind == "land" for u in att))
            # What the first wave left; at sea the aircraft kept out of a battle against
            # submarines alone are still there.
            left = _repaired(dfn + aside)
            if took and not sea:
                # The first wave took the territory (a land unit left, A-10.10), AA guns
                # and all: the whole attack took it, whatever the second wave brings.
                _count(tally.whole, "attacker", att, sea)
                continue
            if not left:
                # Nothing defends: the second wave walks in, under AA fire where the
                # territory was not taken (A-10.5, A-10.10's ruling).
                if has_aa and not took and not sea:
                    second = _aa_fire(rng, second, low_luck, guns, every_gun)
                whole = "attacker" if second else "defender"
                _count(tally.whole, whole, second, sea)
                continue
            second_rules = _Rules(sea, a_order, d_order, keep_land, low_luck)  # its kept land unit too
            left, kept = _aside(second, left, sea)
            if has_aa and not sea:
                second = _aa_fire(rng, second, low_luck, guns, every_gun)
            whole, second, left, _r = _fight(rng, second, left, second_rules, fires_first=None, fought=True)
            _count(tally.whole, whole, second, sea)
    return tally


def _stuck(att: list[Unit], dfn: list[Unit]) -> bool:
    """No hit is possible for either side any more."""
    def can_hit(shooters: list[Unit], targets: list[Unit], role: str) -> bool:
        des = any(u.name == "destroyer" for u in shooters)
        for s in shooters:
            if _value(s.name, role) <= 0:
                continue
            for t in targets:
                if s.kind == "sub" and t.kind == "air":
                    continue
                if s.kind == "air" and t.kind == "sub" and not des:
                    continue
                return True
        return False
    return not can_hit(att, dfn, "attack") and not can_hit(dfn, att, "defense")


def _sure_or_die(total: int) -> dict[int, float]:
    """Low luck's hits of a pool of ``total`` as a distribution (see :func:`_low_luck`)."""
    sure, rest = divmod(total, 6)
    return {sure: 1.0} if not rest else {sure: 1 - rest / 6, sure + 1: rest / 6}


def _aa_outcomes(att: list[Unit], low_luck: bool, guns: int, order: list[str] | None) -> list[tuple[float, list[Unit]]]:
    """:func:`_aa_fire`'s outcomes with their chances, every one of them."""
    hit = 2 if "radar" in _SET["tech"]["defense"] else 1
    air = [u for u in att if u.kind == "air"]
    if not air or not guns:
        return [(1.0, att)]

    def dist(n: int) -> dict[int, float]:
        if low_luck:
            return _sure_or_die(hit * n)
        p = hit / 6
        return {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}

    if order is not None:  # 1942 Second Edition: up to 3 dice a gun, hits in the order of loss
        out = []
        for k, q in dist(min(3 * guns, len(air))).items():
            left = list(att)
            for _ in range(k):
                left.remove(next(u for name in order for u in left if u.name == name and u.kind == "air"))
            out.append((q, left))
        return out
    outcomes = [(1.0, list(att))]
    for name in sorted({u.name for u in air}):  # a die per aircraft, by type
        n = sum(1 for u in att if u.name == name)
        nxt = []
        for q0, left in outcomes:
            for k, q in dist(n).items():
                rest = list(left)
                for _ in range(k):
                    rest.remove(next(u for u in rest if u.name == name))
                nxt.append((q0 * q, rest))
        outcomes = nxt
    return outcomes


def _bombard_dice(att: list[Unit], bombard: dict[str, int], rules: str) -> list[int]:
    """The bombardment's dice by value (A-10.3): one ship per land unit landing from the
    sea, the strongest first; Global-1940 (G-10): a battleship and a cruiser per land
    unit landing, its battleships rolling two dice."""
    landed = sum(1 for u in att if u.kind == "land" and not u.overland)
    if rules == "global1940":
        ships = [x for kind in ("battleship", "cruiser") for x in [kind] * min(bombard.get(kind, 0), landed)]
    else:
        ships = sorted((x for x, c in bombard.items() for _ in range(c)), key=lambda x: -_p(x)[0])[:landed]
    return [_p(x)[0] for x in ships for _ in range(int(_SET["dice"].get(x, 1)))]


def _bombarded(att: list[Unit], dfn: list[Unit], bombard: dict[str, int] | None, rules: str, low_luck: bool,
               d_order: list[str]) -> list[tuple[float, list[Unit]]]:
    """The defender after bombardment (A-10.3, as :func:`_simulate` fires it), every
    outcome with its chance."""
    if not bombard:
        return [(1.0, dfn)]
    dice = _bombard_dice(att, bombard, rules)
    hits: dict[int, float] = {0: 1.0}
    if low_luck:
        hits = _sure_or_die(sum(dice))
    else:
        for value in dice:
            nxt: dict[int, float] = {}
            for k, q in hits.items():
                nxt[k] = nxt.get(k, 0.0) + q * (1 - value / 6)
                nxt[k + 1] = nxt.get(k + 1, 0.0) + q * value / 6
            hits = nxt
    return [(q, take_hits(dfn, {"sub": 0, "air": 0, "any": k}, d_order, False)) for k, q in hits.items()]


End = Callable[[str, float, list[Unit], list[Unit]], None]


def left_units(units: Iterable[Unit] | Mapping[str, int]) -> str:
    """A side's survivors as one key (``"fighter=1,infantry=2"``; AA guns left out), to
    compare distributions of survivors."""
    counts = dict(units) if isinstance(units, Mapping) else {}
    if not isinstance(units, Mapping):
        for u in units:
            counts[u.name] = counts.get(u.name, 0) + 1
    return ",".join(f"{name}={n}" for name, n in sorted(counts.items()) if name != "aa gun" and n)


def _submerged(att: list[Unit], dfn: list[Unit], submerge: tuple[bool, bool]) -> str | None:
    """A-10.6's submerging, the attacker declaring first: its lone submarines submerge
    (a retreat), else the defender's (the attacker holds the zone), where asked and no
    enemy destroyer is there.  None: nobody submerges."""
    def alone(units: list[Unit]) -> bool:
        return bool(units) and all(u.kind == "sub" for u in units)

    if submerge[0] and alone(att) and not any(u.name == "destroyer" for u in dfn):
        return "retreat"
    if submerge[1] and alone(dfn) and not any(u.name == "destroyer" for u in att):
        return "attacker"
    return None


def _walk(starts: list[tuple[float, list[Unit], list[Unit]]], play: _Rules, fought: bool, end: End, *,
          first_shooters: list[Unit] | None = None, most_rounds: int = 400) -> None:
    """:func:`_fight` over a distribution of starts instead of one: ``end(outcome,
    chance, attacker, defender)`` for every way it ends, merged by state each round.
    ``first_shooters``: the defender as it fires in round 1 (before bombardment, which
    also leaves no end before round 1).  States whose chance falls below 1e-20 are left
    out (a few in 1e-16 in all, far below the comparisons' 1e-12), as is what still
    fights after ``most_rounds`` (a few in 1e-50 for small battles)."""
    to_the_end = replace(play, rounds=None, retreat_after=None, retreat_chance=None)
    live: dict[tuple[object, ...], tuple[float, list[Unit], list[Unit]]] = {}
    for p, a, d in starts:
        key = (_key(a), _key(d))
        live[key] = (live.get(key, (0.0,))[0] + p, a, d)
    for r in range(most_rounds):
        nxt: dict[tuple[object, ...], tuple[float, list[Unit], list[Unit]]] = {}
        for p, a, d in live.values():
            if p < 1e-20:
                continue
            if r == 0 and first_shooters is not None:  # the casualties fire back
                shooters = first_shooters
            else:
                outcome, a, d = _ends(a, d, play, fought)
                if outcome is None and r > 0 and play.retreat_below and len(a) < play.retreat_below:
                    outcome = "retreat"
                if outcome is None and play.sea and any(play.submerge):
                    outcome = _submerged(a, d, play.submerge)
                if outcome is None and r > 0 and r == play.retreat_after:
                    outcome = "retreat"  # a strafe
                if (outcome is None and r > 0 and play.retreat_chance is not None
                        and exact_win(a, d, to_the_end) < play.retreat_chance / 100 - 1e-11):
                    outcome = "retreat"
                if outcome is None and play.rounds is not None and r >= play.rounds:
                    outcome = "unfinished"
                if outcome is None and r > 0 and _stuck(a, d):
                    outcome = "stalemate"
                if outcome is not None:
                    end(outcome, p, a, d)
                    continue
                shooters = d
            for q, a1, d1 in _round(a, d, play, shooters, fire_distribution):
                key = (_key(a1), _key(d1))
                nxt[key] = (nxt.get(key, (0.0,))[0] + p * q, a1, d1)
        live = nxt
        if not live:
            break


def exact_outcomes(attacker: dict[str, int], defender: dict[str, int], *, mode: str = "land",
                   rules: str = "anniversary", low_luck: bool = False, ool_attacker: tuple[str, ...] = (),
                   ool_defender: tuple[str, ...] = (), rounds: int | None = None, retreat_below: int = 0,
                   retreat_after: int | None = None, keep_land: bool = False,
                   retreat_chance: float | None = None, bombard: dict[str, int] | None = None,
                   tech_attacker: frozenset[str] = frozenset(), tech_defender: frozenset[str] = frozenset(),
                   wave2: dict[str, int] | None = None, submerge: tuple[bool, bool] = (False, False),
                   overland: dict[str, int] | None = None) -> dict[str, float]:
    """:func:`simulate`'s battle (land, sea, or amphibious without a retreat or units
    that came over land) with every roll instead of a sample: AA fire's every outcome,
    bombardment's, then :func:`_fight`'s checks and rounds over the distribution of
    states (:func:`_walk`), and a second wave's battle from every way the first ends.
    The chances of ``attacker``, ``defender`` (its ``retreat``, ``unfinished`` and
    ``stalemate`` shares also apart), ``draw`` and ``takes``, each side's expected
    survivors of each type (``"survivor defender fighter"``; a side's AA guns not among
    them) and the chance of each set of survivors (``"left attacker <left_units>"``);
    with ``wave2`` the whole attack's ``"wave attacker"``, ``"wave defender"``, ``"wave
    draw"`` and ``"wave takes"``; after a landing's retreat the whole assault's
    (``"whole attacker"`` …)."""
    with _playing(rules, tech_attacker, tech_defender):
        sea = mode == "sea"
        a_names = [k for k, c in attacker.items() for _ in range(c)]
        d_names = [k for k, c in defender.items() for _ in range(c)]
        w_names = [k for k, c in (wave2 or {}).items() for _ in range(c)]
        a_order = _order(a_names + w_names, "attack", ool_attacker)
        d_order = _order(d_names, "defense", ool_defender)
        play = _Rules(sea, a_order, d_order, keep_land, low_luck, rounds, retreat_below, retreat_after, retreat_chance,
                      submerge=submerge)
        # A landing's units that came over land (the first of their type), lost after
        # those landed from the sea, as the simulator orders them.
        over = dict(overland or {})
        att = []
        for x in a_names:
            att.append(Unit(x, overland=over.get(x, 0) > 0))
            over[x] = over.get(x, 0) - 1
        att.sort(key=lambda u: u.overland)
        dfn = [Unit(x) for x in d_names if x != "aa gun"]
        fought = bool(dfn)
        dfn, aircraft_out = _aside(att, dfn, sea)
        guns = sum(1 for x in d_names if x == "aa gun") if not sea else 0
        every_gun = a_order if rules == "1942se" else None
        out = dict.fromkeys(("attacker", "defender", "draw", "takes", "retreat", "unfinished", "stalemate"), 0.0)
        for side, units in (("attacker", att), ("defender", dfn + aircraft_out)):
            for u in units:
                out[f"survivor {side} {u.name}"] = 0.0
        ends: list[tuple[str, float, list[Unit], list[Unit]]] = []
        starts = [(q * qb, a, d) for q, a in _aa_outcomes(att, low_luck, guns, every_gun)
                  for qb, d in _bombarded(a, dfn, bombard if mode == "amphibious" else None, rules, low_luck, d_order)]
        first = dfn if mode == "amphibious" and bombard else None  # they fire as they stood
        _walk(starts, play, fought, lambda *end: ends.append(end), first_shooters=first)

        def count(into: str, outcome: str, p: float, units: list[Unit]) -> None:
            if outcome in ("attacker", "draw"):
                out[into + outcome] += p
                if outcome == "attacker" and (sea or any(u.kind == "land" for u in units)):
                    out[into + "takes"] += p
                return
            out[into + "defender"] += p
            if not into and outcome != "defender":
                out[outcome] += p

        for outcome, p, a, d in ends:
            count("", outcome, p, a)
            for side, still in (("attacker", a), ("defender", d + aircraft_out)):
                for u in still:
                    out[f"survivor {side} {u.name}"] += p
                key = f"left {side} {left_units(still)}"
                out[key] = out.get(key, 0.0) + p
        if mode == "amphibious" and (retreat_after is not None or retreat_below or retreat_chance is not None) and any(
                u.kind == "land" and not u.overland for u in att):
            # the units landed from the sea never retreat; after the others do,
            # they fight on to the end (the whole assault: "whole ...").
            # A second wave attacks what the whole assault left.
            out.update(dict.fromkeys(("whole attacker", "whole defender", "whole draw", "whole takes"), 0.0))
            on = _Rules(False, a_order, d_order, keep_land, low_luck)
            fights_on: list[tuple[float, list[Unit], list[Unit]]] = []
            whole: list[tuple[str, float, list[Unit], list[Unit]]] = []
            for outcome, p, a, d in ends:
                landed = [u for u in a if u.kind == "land" and not u.overland]
                if outcome == "retreat" and landed:
                    fights_on.append((p, landed, d))
                else:
                    whole.append((outcome if outcome != "retreat" else "defender", p, a, d))
            _walk(fights_on, on, True, lambda *end: whole.append(end))
            for outcome, p, a, _d in whole:
                count("whole ", outcome, p, a)
            ends = whole
        if not wave2:
            return out
        out.update(dict.fromkeys(("wave attacker", "wave defender", "wave draw", "wave takes"), 0.0))
        joins = rounds is not None and retreat_after is None
        second_rules = _Rules(sea, a_order, d_order, keep_land, low_luck)  # its kept land unit too
        fights: list[tuple[float, list[Unit], list[Unit]]] = []
        for outcome, p, a, d in ends:
            second = [Unit(x) for x in w_names]
            if joins and outcome == "unfinished":
                second = _repaired(a) + second
            took = outcome == "attacker" and (sea or any(u.kind == "land" for u in a))
            # The defender's submarines that submerged left the battle: the
            # second wave walks in past them, as after any win.
            left = _repaired((d if outcome != "attacker" else []) + aircraft_out)
            if took and not sea:  # the first wave took the territory: the whole attack did
                count("wave ", "attacker", p, a)
                continue
            if not left:  # the second wave walks in, under the fire of a gun not captured
                for q, walked in _aa_outcomes(second, low_luck, 0 if took else guns, every_gun):
                    count("wave ", "attacker" if walked else "defender", p * q, walked)
                continue
            left, _kept_out = _aside(second, left, sea)
            fights += [(p * q, s2, left) for q, s2 in _aa_outcomes(second, low_luck, guns, every_gun)]
        # Every second battle in one walk: those that meet the same states share them.
        _walk(fights, second_rules, True, lambda o, p, a, d: count("wave ", o, p, a))
        return out


def exact_win_from_start(attacker: dict[str, int], defender: dict[str, int], *, rules: str = "anniversary",
                         low_luck: bool = False, ool_attacker: tuple[str, ...] = (),
                         ool_defender: tuple[str, ...] = ()) -> float | None:
    """The attacker's chance to win a sea battle fought to the end, by :func:`exact_win`
    (a round that changes nothing summed in closed form: far quicker than
    :func:`exact_outcomes` for fleets that often miss).  None where the defender's
    aircraft stay out and nothing is left to fight, which exact_win, reading a round's
    end, does not start from."""
    with _playing(rules):
        a_names = [k for k, c in attacker.items() for _ in range(c)]
        d_names = [k for k, c in defender.items() for _ in range(c)]
        play = _Rules(True, _order(a_names, "attack", ool_attacker), _order(d_names, "defense", ool_defender),
                      low_luck=low_luck)
        att = [Unit(x) for x in a_names]
        dfn, _aircraft_out = _aside(att, [Unit(x) for x in d_names], True)
        return exact_win(att, dfn, play) if dfn else None
