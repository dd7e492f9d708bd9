"""The general engine's shortcuts (issue 19 speed): unrestricted hits never change where
restricted ones go, so ``take_hits(s, hs, ha, hy) == take(take_hits(s, hs, ha, 0), hy)``
(A-10.6, A-10.14), and the float table solve agrees with exact fractions."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine.odds.aa import AABattle, aa_odds, setup_battle


def test_unrestricted_hits_come_last_in_loss_order() -> None:
    rng = random.Random(19)
    checked = 0
    for _ in range(120):
        units = {"sub": rng.randint(0, 4), "des": rng.randint(0, 2), "cru": rng.randint(0, 2),
                 "car": rng.randint(0, 2), "bat": rng.randint(0, 3)}  # fmt: skip
        units["fig"] = min(rng.randint(0, 4), 2 * units["car"])
        if not sum(units.values()):
            continue
        army = ", ".join(f"{c} {u}" for u, c in units.items() if c)
        battle = AABattle.parse(army, army, mode="sea", ool_attacker=rng.choice(["", "fig,sub", "bat,fig"]),
                                ool_defender=rng.choice(["", "fig", "sub,fig"]))  # fmt: skip
        setup, _ = setup_battle(battle, 1.0)
        for side in (setup.attacker, setup.defender):
            st = side.take_hits(side.start, rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 1))
            for hs in range(3):
                for ha in range(3):
                    base = side.take_hits(st, hs, ha, 0)
                    for hy in range(side.hp(st) + 2):
                        assert side.take_hits(st, hs, ha, hy) == side.take(base, hy)
                        checked += 1
    assert checked > 5000


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ("3 sub, 2 des, 1 car, 1 bat, 2 fig", "3 sub, 2 des, 1 cru, 1 car, 1 bat, 2 fig"),
        ("4 sub, 2 fig", "2 sub, 1 car, 2 fig, 1 tra"),
        ("3 sub, 1 bom", "2 sub, 2 tra"),
    ],
)
def test_float_submarine_battles_match_fractions(attacker: str, defender: str) -> None:
    battle = AABattle.parse(attacker, defender, mode="sea")
    exact = aa_odds(battle, exact=True)
    floats = aa_odds(battle)
    assert exact.exact is not None
    assert floats.error_bound < 1e-12
    for key, value in exact.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=floats.error_bound + 1e-13)
    assert floats.stalemate == pytest.approx(exact.stalemate, abs=1e-12)
    assert sum(exact.exact.values(), Fraction(0)) >= 1  # takes counted with wins
