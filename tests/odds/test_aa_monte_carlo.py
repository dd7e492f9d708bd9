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

from .mc_reference import simulate, unit_cost

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


# Issue 19's options against the same simulator: strafes, low luck (its pools, AA fire
# and bombardment), retreats from an amphibious assault (A-10.3: aircraft and overland
# units retreat, the landed units fight on), second waves against the survivors or
# joined by the first wave's units, and the IPCs each side loses.
OPTION_CASES: list[dict[str, Any]] = [
    # a strafe after round 2 into an AA gun
    dict(attacker={"infantry": 6, "artillery": 2, "tank": 2, "fighter": 2},
         defender={"infantry": 8, "tank": 2, "aa gun": 1}, retreat_after=2),
    # low luck on land: AA fire per aircraft type, artillery support
    dict(attacker={"infantry": 5, "artillery": 2, "tank": 3, "fighter": 3, "bomber": 2},
         defender={"infantry": 7, "artillery": 2, "fighter": 1, "aa gun": 1}, low_luck=True),
    # low luck at sea: submarines' hits and aircraft's (no destroyer, enemy submarines)
    # pooled apart (the aircraft's 7 and the battleship's 4: 1 hit and a die at 1, a die
    # at 4, where one pool of 11 would be 1 hit and a die at 5)
    dict(attacker={"submarine": 2, "bomber": 1, "fighter": 1, "battleship": 1},
         defender={"submarine": 2, "fighter": 1, "cruiser": 1, "carrier": 1}, mode="sea", low_luck=True),
    # low luck with a destroyer: aircraft may hit submarines, one pool with the ships
    dict(attacker={"submarine": 2, "destroyer": 1, "fighter": 2, "bomber": 1},
         defender={"submarine": 2, "destroyer": 1, "battleship": 1}, mode="sea", low_luck=True),
    # low-luck bombardment: one ship per land unit from the sea (the overland tanks none)
    dict(attacker={"infantry": 2, "tank": 2}, defender={"infantry": 5, "artillery": 1}, mode="amphibious",
         bombard={"battleship": 2, "cruiser": 2}, overland={"tank": 2}, low_luck=True),
    # a landing's strafe: the fighters and the overland units leave after round 1, the
    # landed units fight on (within a type they are lost first)
    dict(attacker={"infantry": 3, "tank": 2, "fighter": 2}, defender={"infantry": 4, "artillery": 1},
         mode="amphibious", overland={"tank": 1, "infantry": 1}, retreat_after=1),
    # the same below 4 units, with bombardment
    dict(attacker={"infantry": 3, "tank": 2, "fighter": 2}, defender={"infantry": 4, "artillery": 1},
         mode="amphibious", overland={"tank": 1}, retreat_below=4, bombard={"cruiser": 1}),
    # a second wave against the survivors, under AA fire where the territory was not taken
    dict(attacker={"infantry": 2, "tank": 1, "fighter": 1}, defender={"infantry": 3, "aa gun": 1},
         wave2={"infantry": 2, "tank": 1, "fighter": 1}),
    # aircraft alone first (a win takes nothing), then a second wave
    dict(attacker={"fighter": 2, "bomber": 1}, defender={"infantry": 2, "aa gun": 1},
         wave2={"infantry": 1, "fighter": 1}),
    # the same, a bomber alone walking in where the first wave won: the AA gun it did
    # not capture still fires (A-10.5, A-10.10's ruling)
    dict(attacker={"fighter": 2, "bomber": 1}, defender={"infantry": 1, "aa gun": 1}, wave2={"bomber": 1}),
    # at sea: the carrier's fighters kept out of a submarine attack fight the second wave
    dict(attacker={"submarine": 3}, defender={"carrier": 1, "fighter": 2, "cruiser": 1}, mode="sea",
         wave2={"destroyer": 2, "fighter": 1}),
    # joined: the first wave's units still fighting after round 1 join the second, all
    # their aircraft under AA fire again
    dict(attacker={"infantry": 3, "artillery": 1, "fighter": 2}, defender={"infantry": 5, "aa gun": 1},
         rounds=1, wave2={"infantry": 2, "tank": 1, "bomber": 1}),
    # a strafe, then the second wave alone
    dict(attacker={"infantry": 3, "tank": 1, "fighter": 1}, defender={"infantry": 4, "tank": 1},
         retreat_after=1, wave2={"infantry": 2, "tank": 2}),
    # a landing's strafe, the landed units fighting on, then a second wave
    dict(attacker={"infantry": 2, "fighter": 1}, defender={"infantry": 3}, mode="amphibious",
         retreat_after=1, wave2={"infantry": 2, "tank": 1}),
    # 1942 Second Edition: both AA guns fire, 3 dice each at most and no more than the
    # aircraft; hits taken in the attacker's order of loss (fighters before bombers)
    dict(attacker={"infantry": 4, "tank": 3, "fighter": 3, "bomber": 2},
         defender={"infantry": 6, "artillery": 1, "aa gun": 2}, rules="1942se"),
    dict(attacker={"infantry": 3, "fighter": 4, "bomber": 1}, defender={"infantry": 4, "aa gun": 1},
         rules="1942se", low_luck=True, ool_attacker=("bomber",)),
    # 1942 Second Edition at sea: carriers take two hits (absorbing first, as battleships
    # do) and do not attack
    dict(attacker={"carrier": 2, "fighter": 3, "destroyer": 2, "battleship": 1},
         defender={"carrier": 1, "fighter": 2, "cruiser": 2, "submarine": 1}, mode="sea", rules="1942se"),
    # Global-1940 house rules (G-7): battleships roll two dice, submarines 3/2,
    # transports defend at 1 and are lost like any ship, carriers hold 3 fighters
    dict(attacker={"submarine": 3, "battleship": 1, "destroyer": 1, "fighter": 2},
         defender={"transport": 2, "cruiser": 1, "carrier": 1, "fighter": 3, "destroyer": 1}, mode="sea",
         rules="global1940"),
    # G-10: a battleship and a cruiser per land unit landing bombard (two dice a battleship)
    dict(attacker={"infantry": 1, "artillery": 1}, defender={"infantry": 4, "tank": 1}, mode="amphibious",
         bombard={"battleship": 2, "cruiser": 2}, rules="global1940"),
    dict(attacker={"infantry": 1, "artillery": 1, "tank": 1}, defender={"infantry": 5, "tank": 1},
         mode="amphibious", bombard={"battleship": 2, "cruiser": 1}, rules="global1940", low_luck=True),
    # A retreat by win chance: after a round, the attacker retreats where fighting on to
    # the end would win less than X % (the simulator works that chance out exactly,
    # mc_reference.exact_win, every roll of every round)
    dict(attacker={"infantry": 3, "tank": 1, "fighter": 1}, defender={"infantry": 3, "artillery": 1},
         retreat_chance=40),
    dict(attacker={"infantry": 2, "artillery": 1, "fighter": 2}, defender={"infantry": 3, "aa gun": 1},
         retreat_chance=55),
    dict(attacker={"submarine": 2, "destroyer": 1, "fighter": 1},
         defender={"submarine": 1, "cruiser": 1, "carrier": 1, "fighter": 1}, mode="sea", retreat_chance=45),
    dict(attacker={"submarine": 2, "fighter": 2}, defender={"submarine": 2, "battleship": 1, "transport": 1},
         mode="sea", retreat_chance=35),
    dict(attacker={"infantry": 4, "tank": 2}, defender={"infantry": 4, "tank": 1}, low_luck=True,
         retreat_chance=30),
    # with a retreat below 3 units, which the chance counts as never a win
    dict(attacker={"infantry": 3, "artillery": 1, "tank": 1}, defender={"infantry": 3, "tank": 1},
         retreat_chance=50, retreat_below=3),
    # at sea: a strafe, a joined second wave, a retreat by win chance then a second wave
    dict(attacker={"submarine": 2, "destroyer": 1, "fighter": 2}, defender={"cruiser": 1, "carrier": 1, "fighter": 2},
         mode="sea", retreat_after=1),
    dict(attacker={"submarine": 2, "destroyer": 1}, defender={"cruiser": 1, "carrier": 1, "fighter": 2}, mode="sea",
         rounds=1, wave2={"destroyer": 1, "fighter": 1}),
    dict(attacker={"infantry": 3, "tank": 1}, defender={"infantry": 3, "tank": 1}, retreat_chance=50,
         wave2={"infantry": 2, "fighter": 1}),
    # technologies: Jet Fighters, Heavy Bombers (two dice on attack), Advanced
    # Artillery (two infantry each) against Radar (AA hits on 1 or 2)
    dict(attacker={"infantry": 6, "artillery": 3, "fighter": 2, "bomber": 1},
         defender={"infantry": 7, "tank": 1, "fighter": 1, "aa gun": 1},
         tech_attacker=frozenset({"jet fighters", "heavy bombers", "advanced artillery"}),
         tech_defender=frozenset({"radar", "jet fighters"})),
    # Super Submarines and Improved Shipyards (the IPCs lost), Heavy Bombers in low luck
    dict(attacker={"submarine": 3, "destroyer": 1, "battleship": 1, "bomber": 1},
         defender={"cruiser": 2, "carrier": 1, "fighter": 2, "submarine": 1}, mode="sea",
         tech_attacker=frozenset({"super submarines", "improved shipyards"}),
         tech_defender=frozenset({"improved shipyards", "super submarines"})),
    dict(attacker={"infantry": 3, "bomber": 2, "fighter": 1}, defender={"infantry": 4, "aa gun": 1}, low_luck=True,
         tech_attacker=frozenset({"heavy bombers"}), tech_defender=frozenset({"radar"})),
    # the whole force's chance decides a landing's retreat; the landed units fight on
    dict(attacker={"infantry": 2, "tank": 1, "fighter": 1}, defender={"infantry": 3, "tank": 1},
         mode="amphibious", overland={"infantry": 2}, retreat_chance=60),
]  # fmt: skip


def _within(name: str, p: float, count: int, n: int) -> None:
    se = math.sqrt(max(p * (1 - p), 1 / n) / n)
    assert abs(count / n - p) <= Z * se, (name, p, count / n)


@pytest.mark.parametrize("case", OPTION_CASES, ids=[str(i) for i in range(len(OPTION_CASES))])
def test_exact_odds_of_the_options_agree_with_monte_carlo(case: dict[str, Any]) -> None:
    sim = simulate(n=N, seed=2027, **case)
    odds = aa_odds(AABattle(**{k: tuple(v) if k.startswith("ool_") else v for k, v in case.items()}))
    for name, count in (("attacker_win", sim.attacker), ("defender_win", sim.defender), ("draw", sim.draw),
                        ("attacker_takes", sim.takes), ("retreat", sim.retreat)):  # fmt: skip
        _within(name, getattr(odds, name), count, N)
    for side in ("attacker", "defender"):
        start = case[side]
        for unit, expected in odds.expected_survivors[side].items():
            if unit != "aa gun":
                mean = sim.survivors[side].get(unit, 0) / N
                assert abs(mean - expected) <= Z * (start[unit] / 2) / math.sqrt(N), (side, unit, expected, mean)
        # IPCs lost lie in [0, the side's cost]: a standard deviation of at most half of it
        cost = sum(unit_cost(u, case.get("rules", "anniversary"), case.get(f"tech_{side}", frozenset())) * c
                   for u, c in start.items() if u != "aa gun")
        mean = sim.ipc_lost[side] / N
        assert abs(mean - odds.expected_ipc_loss[side]) <= Z * (cost / 2) / math.sqrt(N), (side, mean)
    whole = odds.second_wave if case.get("wave2") else odds.fight_on
    if "wave2" in case or "overland" in case and ({"retreat_after", "retreat_below", "retreat_chance"} & set(case)):
        assert whole is not None
        for name, key in (("attacker_win", "attacker"), ("defender_win", "defender"), ("draw", "draw"),
                          ("attacker_takes", "takes")):  # fmt: skip
            _within(f"whole {name}", whole[name], sim.whole[key], N)
        assert sum(sim.whole.values()) - sim.whole["takes"] == N
    else:
        assert whole is None and sum(sim.whole.values()) == 0
