"""A plain Monte Carlo simulator of A&A Anniversary battles, written separately from the
exact engines (unit by unit, die by die) so that the tests can check the exact numbers
against it within its statistical error.  Test code only: it uses its own seeded
``random.Random``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

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


@dataclass
class Unit:
    name: str
    damaged: bool = False

    @property
    def kind(self) -> str:
        return PROFILE[self.name][3]


@dataclass
class Tally:
    battles: int = 0
    attacker: int = 0
    defender: int = 0
    draw: int = 0
    takes: int = 0
    survivors: dict[str, dict[str, int]] = field(default_factory=lambda: {"attacker": {}, "defender": {}})


def _order(names: list[str], role: str, preferred: tuple[str, ...]) -> list[str]:
    idx = 0 if role == "attack" else 1
    rest = sorted(
        (n for n in set(names) if n not in preferred and n != "aa gun"),
        key=lambda n: (n == "transport", PROFILE[n][idx], PROFILE[n][2], n),
    )
    order = [n for n in preferred if n in names and n != "aa gun"] + rest
    return [n for n in order if n != "transport"] + [n for n in order if n == "transport"]


def _candidates(units: list[Unit], order: list[str], keep_land: bool) -> list[tuple[int, str]]:
    """(unit index, 'damage' | 'kill') in the order hits go: intact battleships absorb
    first, then by type; the kept land unit last."""
    steps: list[tuple[int, str]] = []
    for i, u in enumerate(units):
        if u.name == "battleship" and not u.damaged:
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


def _legal(cls: str, unit: Unit) -> bool:
    return not ((cls == "sub" and unit.kind == "air") or (cls == "air" and unit.kind == "sub"))


def _best_absorb(units: list[Unit], steps: list[tuple[int, str]], hits: dict[str, int]) -> int:
    """Most hits the steps can take (tiny brute force over how the shared pool splits)."""
    s = sum(1 for i, _ in steps if units[i].kind == "sub")
    a = sum(1 for i, _ in steps if units[i].kind == "air")
    f = len(steps) - s - a
    best = 0
    for fs in range(f + 1):  # shared steps given to submarine fire
        for fa in range(f - fs + 1):  # and to aircraft fire
            got_s = min(hits["sub"], s + fs)
            got_a = min(hits["air"], a + fa)
            got_y = min(hits["any"], s + a + f - got_s - got_a)
            best = max(best, got_s + got_a + got_y)
    return best


def take_hits(units: list[Unit], hits: dict[str, int], order: list[str], keep_land: bool) -> list[Unit]:
    steps = _candidates(units, order, keep_land)
    hits = dict(hits)
    if not any(u.kind == "sub" for u in units):  # nothing for the aircraft rule to protect
        hits["any"], hits["air"] = hits["any"] + hits["air"], 0
    if not any(u.kind == "air" for u in units):  # nothing for the submarine rule to spare
        hits["any"], hits["sub"] = hits["any"] + hits["sub"], 0
    chosen: list[tuple[int, str]] = []
    if not hits["sub"] and not hits["air"]:  # unrestricted: straight down the order
        chosen, hits["any"] = steps[: hits["any"]], 0
    for cls in ("sub", "air", "any"):
        while hits[cls] > 0:
            best = _best_absorb(units, steps, hits)
            hits[cls] -= 1
            for k, (i, what) in enumerate(steps):
                if not _legal(cls, units[i]):
                    continue
                rest = steps[:k] + steps[k + 1 :]
                if _best_absorb(units, rest, hits) == best - 1:
                    chosen.append((i, what))
                    steps = rest
                    break
    out = [Unit(u.name, u.damaged) for u in units]
    dead = set()
    for i, what in chosen:
        if what == "damage":
            out[i].damaged = True
        else:
            dead.add(i)
    return [u for i, u in enumerate(out) if i not in dead]


def _roll(rng: random.Random, value: int) -> bool:
    return rng.randint(1, 6) <= value


def _fire(rng: random.Random, units: list[Unit], role: str, *, subs: bool, others: bool, air_any: bool,
          support: bool) -> dict[str, int]:
    hits = {"sub": 0, "air": 0, "any": 0}
    arts = sum(1 for u in units if u.name == "artillery") if support else 0
    for u in units:
        value = PROFILE[u.name][0 if role == "attack" else 1]
        if u.name == "infantry" and role == "attack" and arts > 0:
            arts -= 1
            value = 2
        if value <= 0:
            continue
        if u.kind == "sub":
            if subs and _roll(rng, value):
                hits["sub"] += 1
        elif others and _roll(rng, value):
            hits["any" if (u.kind != "air" or air_any) else "air"] += 1
    return hits


def simulate(attacker: dict[str, int], defender: dict[str, int], *, mode: str = "land", n: int,
             seed: int, bombard: dict[str, int] | None = None, rounds: int | None = None,
             retreat_below: int = 0, keep_land: bool = False,
             ool_attacker: tuple[str, ...] = (), ool_defender: tuple[str, ...] = ()) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    a_names = [k for k, c in attacker.items() for _ in range(c)]
    d_names = [k for k, c in defender.items() for _ in range(c)]
    a_order = _order(a_names, "attack", ool_attacker)
    d_order = _order(d_names, "defense", ool_defender)
    sea = mode == "sea"
    for _ in range(n):
        att = [Unit(x) for x in a_names]
        dfn = [Unit(x) for x in d_names if x != "aa gun"]
        has_aa = any(x == "aa gun" for x in d_names)
        fought = bool(dfn)
        if sea and all(u.kind == "sub" for u in att) and not any(u.name == "destroyer" for u in dfn):
            aside = [u for u in dfn if u.kind == "air"]  # fighters stay out
            dfn = [u for u in dfn if u.kind != "air"]
        else:
            aside = []
        if has_aa and not sea:
            att = [u for u in att if not (u.kind == "air" and _roll(rng, 1))]
        fires_first = None
        if mode == "amphibious" and bombard:
            landed = sum(1 for u in att if u.kind == "land")
            ships = sorted((PROFILE[s][0] for s, c in bombard.items() for _ in range(c)), reverse=True)[:landed]
            hits = sum(1 for v in ships if _roll(rng, v))
            fires_first = dfn
            dfn = take_hits(dfn, {"sub": 0, "air": 0, "any": hits}, d_order, False)
        outcome = None
        r = 0
        while True:
            # end-of-round (and before round 1) checks
            if fires_first is None or r > 0:
                if not att or not dfn:
                    if att:
                        outcome = "attacker"
                    elif dfn or not fought:
                        outcome = "defender"
                    else:
                        outcome = "draw"
                    break
                if sea and any(u.name == "transport" for u in dfn) and any(PROFILE[u.name][0] > 0 for u in att):
                    only_tr = all(u.name == "transport" for u in dfn)
                    subs_tr = all(u.name in ("transport", "submarine") for u in dfn) and all(
                        u.kind == "air" for u in att)
                    if only_tr or subs_tr:
                        dfn = [u for u in dfn if u.name != "transport"]
                        if not dfn:
                            outcome = "attacker"
                            break
                if r > 0 and retreat_below and len(att) < retreat_below:
                    outcome = "retreat"
                    break
            if rounds is not None and r >= rounds:
                outcome = "unfinished"
                break
            a_des = any(u.name == "destroyer" for u in att)
            d_des = any(u.name == "destroyer" for u in dfn)
            a_strike = any(u.kind == "sub" for u in att) and not d_des
            d_strike = any(u.kind == "sub" for u in dfn) and not a_des
            before = ([(u.name, u.damaged) for u in att], [(u.name, u.damaged) for u in dfn])
            # 1. surprise strike, both sides from the round's start
            if a_strike or d_strike:
                ha = _fire(rng, att, "attack", subs=a_strike, others=False, air_any=True, support=False)
                hd = _fire(rng, dfn, "defense", subs=d_strike, others=False, air_any=True, support=False)
                att, dfn = take_hits(att, hd, a_order, keep_land), take_hits(dfn, ha, d_order, False)
            # 2. general fire, both at once
            shooters_d = fires_first if (fires_first is not None and r == 0) else dfn
            ha = _fire(rng, att, "attack", subs=not a_strike, others=True,
                       air_any=any(u.name == "destroyer" for u in att), support=True)
            hd = _fire(rng, shooters_d, "defense", subs=not d_strike, others=True,
                       air_any=any(u.name == "destroyer" for u in shooters_d), support=False)
            att, dfn = take_hits(att, hd, a_order, keep_land), take_hits(dfn, ha, d_order, False)
            r += 1
            after = ([(u.name, u.damaged) for u in att], [(u.name, u.damaged) for u in dfn])
            if after == before and _stuck(att, dfn):
                outcome = "stalemate"
                break
        tally.battles += 1
        if outcome == "attacker":
            tally.attacker += 1
            if sea or any(u.kind == "land" for u in att):
                tally.takes += 1
        elif outcome == "draw":
            tally.draw += 1
        else:
            tally.defender += 1
        for side, units in (("attacker", att), ("defender", dfn + aside)):
            for u in units:
                tally.survivors[side][u.name] = tally.survivors[side].get(u.name, 0) + 1
    return tally


def _stuck(att: list[Unit], dfn: list[Unit]) -> bool:
    """No hit is possible for either side any more."""
    def can_hit(shooters: list[Unit], targets: list[Unit], role: str) -> bool:
        des = any(u.name == "destroyer" for u in shooters)
        for s in shooters:
            if PROFILE[s.name][0 if role == "attack" else 1] <= 0:
                continue
            for t in targets:
                if s.kind == "sub" and t.kind == "air":
                    continue
                if s.kind == "air" and t.kind == "sub" and not des:
                    continue
                return True
        return False
    return not can_hit(att, dfn, "attack") and not can_hit(dfn, att, "defense")
