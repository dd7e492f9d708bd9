"""Exact A&A odds against simulation (``python -m bench odds``).

- ``odds-aa-exact-over-mc-40v40``: the exact calculation's time divided by the time of
  a 10,000-battle Monte Carlo of the same 40-vs-40 land battle, both measured here
  (goal < 0.5).  The simulator below is a plain one, written for this benchmark only.
- ``odds-aa-100v100-seconds``: the exact calculation of a 100-vs-100 land battle
  (goal < 1).
"""

from __future__ import annotations

import random
import time
from typing import Iterable

from engine.odds.aa import AABattle, aa_odds

ATTACK_40 = "20 inf, 8 art, 8 tank, 4 fig"
DEFENSE_40 = "24 inf, 8 art, 4 tank, 4 fig"
ATTACK_100 = "50 inf, 20 art, 20 tank, 10 fig"
DEFENSE_100 = "60 inf, 20 art, 10 tank, 10 fig"

# Monte Carlo: units as (type, attack, defense) lists in order of loss, first lost first.
_VALUES = {"inf": (1, 2), "art": (2, 2), "tank": (3, 3), "fig": (3, 4)}
_ORDER_ATT = ["inf", "art", "tank", "fig"]
_ORDER_DEF = ["inf", "art", "tank", "fig"]


def _units(text: str, order: list[str]) -> list[str]:
    counts: dict[str, int] = {}
    for item in text.split(","):
        n, name = item.split()
        counts[name] = int(n)
    return [name for name in order for _ in range(counts.get(name, 0))]


def monte_carlo(attacker: str, defender: str, battles: int, seed: int = 1) -> tuple[float, float, float]:
    """A straightforward simulation: every unit rolls one die a round (infantry paired
    with artillery attack at 2), casualties in order of loss, until a side is gone."""
    rng = random.Random(seed).random
    a0 = _units(attacker, _ORDER_ATT)
    d0 = _units(defender, _ORDER_DEF)
    wins = losses = draws = 0
    for _ in range(battles):
        a, d = a0, d0
        while a and d:
            arts = a.count("art")
            hits_a = 0
            for u in a:
                value = _VALUES[u][0]
                if u == "inf" and arts > 0:
                    arts -= 1
                    value = 2
                if rng() * 6 < value:
                    hits_a += 1
            hits_d = sum(1 for u in d if rng() * 6 < _VALUES[u][1])
            a, d = a[hits_d:], d[hits_a:]
        if a:
            wins += 1
        elif d:
            losses += 1
        else:
            draws += 1
    return wins / battles, losses / battles, draws / battles


def _exact_seconds(attacker: str, defender: str, repeat: int = 3) -> float:
    battle = AABattle.parse(attacker, defender)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        aa_odds(battle)
        best = min(best, time.perf_counter() - start)
    return best


def figures() -> Iterable[tuple[str, object]]:
    exact_40 = _exact_seconds(ATTACK_40, DEFENSE_40)
    start = time.perf_counter()
    monte_carlo(ATTACK_40, DEFENSE_40, 10_000)
    mc_40 = time.perf_counter() - start
    yield "odds-aa-exact-over-mc-40v40", round(exact_40 / mc_40, 4)
    yield "odds-aa-40v40-exact-seconds", round(exact_40, 4)
    yield "odds-aa-40v40-mc-10000-seconds", round(mc_40, 3)
    yield "odds-aa-100v100-seconds", round(_exact_seconds(ATTACK_100, DEFENSE_100), 3)
