"""Exact A&A odds against a separately written Monte Carlo simulator
(:mod:`tests.odds.mc_reference`, unit by unit and die by die): on varied battles every
exact probability must lie within 4.5 standard errors of the simulated frequency, and
expected survivors within the same margin.  The seeds are fixed, so the run is
reproducible."""

from __future__ import annotations

import math
from typing import Any

import pytest

from engine.odds.aa import AABattle, aa_odds

from .mc_reference import simulate

N = 8000
Z = 4.5

CASES: list[dict[str, Any]] = [
    # land, AA gun, artillery support (issue example)
    dict(attacker={"infantry": 3, "artillery": 1, "tank": 2, "fighter": 1}, defender={"infantry": 4, "aa gun": 1}),
    # fighters and a bomber into two AA guns, defending aircraft
    dict(attacker={"infantry": 2, "tank": 1, "fighter": 2, "bomber": 1},
         defender={"infantry": 3, "artillery": 1, "fighter": 1, "aa gun": 2}),
    # amphibious with bombardment
    dict(attacker={"infantry": 3, "tank": 1}, defender={"infantry": 3, "tank": 1}, mode="amphibious",
         bombard={"battleship": 1, "cruiser": 1}),
    # submarines both sides, destroyer cancels, carrier fighters, transport
    dict(attacker={"submarine": 2, "destroyer": 1, "fighter": 1},
         defender={"submarine": 1, "cruiser": 1, "carrier": 1, "fighter": 2, "transport": 1}, mode="sea"),
    # subs + a bomber against a destroyer, a battleship and transports
    dict(attacker={"submarine": 3, "bomber": 1}, defender={"destroyer": 1, "battleship": 1, "transport": 2},
         mode="sea"),
    # keep a land unit, retreat when fewer than 3 remain
    dict(attacker={"infantry": 4, "artillery": 2, "tank": 1, "fighter": 1}, defender={"infantry": 5, "tank": 1},
         keep_land=True, retreat_below=3),
    # two rounds only, battleship and fighters against subs
    dict(attacker={"battleship": 1, "fighter": 2}, defender={"submarine": 2, "destroyer": 1}, mode="sea",
         rounds=2),
    # custom orders of loss
    dict(attacker={"infantry": 2, "tank": 2}, defender={"infantry": 2, "artillery": 1, "bomber": 1},
         ool_attacker=("tank", "infantry"), ool_defender=("infantry",)),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
def test_exact_odds_agree_with_monte_carlo(case: dict[str, Any]) -> None:
    options = dict(case)
    keep = options.pop("keep_land", False)
    sim = simulate(n=N, seed=2026, keep_land=keep, **options)
    battle_options = dict(options)
    for key in ("ool_attacker", "ool_defender"):
        battle_options[key] = tuple(battle_options.get(key, ()))
    odds = aa_odds(AABattle(keep_land_unit=keep, **battle_options))
    for name, count in (
        ("attacker_win", sim.attacker),
        ("defender_win", sim.defender),
        ("draw", sim.draw),
        ("attacker_takes", sim.takes),
    ):
        p = getattr(odds, name)
        se = math.sqrt(max(p * (1 - p), 1 / N) / N)
        assert abs(count / N - p) <= Z * se, (name, p, count / N)
    for side in ("attacker", "defender"):
        start = case[side]
        for unit, expected in odds.expected_survivors[side].items():
            if unit == "aa gun":
                continue
            mean = sim.survivors[side].get(unit, 0) / N
            # a survivor count lies in [0, start]: its standard deviation is at most start / 2
            se = (start[unit] / 2) / math.sqrt(N)
            assert abs(mean - expected) <= Z * se, (side, unit, expected, mean)
