"""Round-limited battles with submarines (a round limit or a strafe, issue 19): the numpy
round walk of engine.odds.aa_naval (``NavalSolver.walk``) agrees with the general
engine's dict walk and with exact fractions: the same rounds (A-10.6 surprise strikes
and hit restrictions, A-10.7 defenceless transports, A-10.15 retreat, submerging), the
mass still fighting after the last round unfinished."""

from __future__ import annotations

import random

import pytest

from engine.odds.aa import AABattle, aa_odds, setup_battle
from engine.odds.aa_battle import OUTCOMES, UNFINISHED, Tally
from engine.odds.aa_general import GeneralEngine
from tests.odds.helpers import assert_floats_match_fractions, close, fleet, strike_fleet


@pytest.fixture(autouse=True)
def _numpy_walk_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # This file tests NavalSolver.walk.  Battles where one side's submarines strike
    # every round go to the compiled walk of engine.odds.aa_strike unless it is off
    # (tests/odds/test_aa_strike.py checks that one against the dict walk).
    from engine.odds import aa_strike

    monkeypatch.setattr(aa_strike, "ENABLED", False)


def _both(battle: AABattle, rounds: int) -> tuple[Tally[float], Tally[float]]:
    tallies = []
    for vectorised in (True, False):
        setup, _ = setup_battle(battle, 1.0)
        tallies.append(GeneralEngine(setup, vectorised=vectorised).run(rounds))
    return tallies[0], tallies[1]


def _agree(battle: AABattle, rounds: int) -> Tally[float]:
    new, old = _both(battle, rounds)
    for outcome in OUTCOMES:
        assert new.outcome[outcome] == pytest.approx(old.outcome[outcome], abs=1e-12), (battle, rounds, outcome)
    assert new.takes == pytest.approx(old.takes, abs=1e-12)
    assert new.rounds == pytest.approx(old.rounds, abs=1e-12)
    close(new.attacker_end, old.attacker_end)
    close(new.defender_end, old.defender_end)
    assert new.dropped < 1e-12
    return new


def _options(rng: random.Random) -> dict[str, object]:
    pick = rng.random()
    if pick < 0.2:
        return {"submerge_attacker": True}
    if pick < 0.35:
        return {"submerge_defender": True}
    if pick < 0.5:
        return {"retreat_below": rng.randint(1, 3)}
    return {}


def test_round_walk_matches_the_dict_walk_on_random_fleets() -> None:
    rng = random.Random(2611)
    unfinished = 0
    for n in range(60):
        rounds = 1 + n % 4
        if n % 2:  # destroyers on one side only or none: strikes round after round
            who = rng.choice(["attacker", "defender", "both"])
            attacker = strike_fleet(rng, False, destroyers=who == "defender")
            defender = strike_fleet(rng, True, destroyers=who == "attacker")
        else:  # aircraft with or without destroyers, transports, bombers
            attacker, defender = fleet(rng, False), fleet(rng, True)
        battle = AABattle.parse(attacker, defender, mode="sea", ool_attacker=rng.choice(["", "fig,sub", "bat,des"]),
                                ool_defender=rng.choice(["", "fig", "sub,fig"]), **_options(rng))  # type: ignore[arg-type]  # fmt: skip
        if not any(u == "submarine" for u in (*battle.attacker, *battle.defender)):
            continue
        tally = _agree(battle, rounds)
        unfinished += tally.outcome[UNFINISHED] > 0.01
    assert unfinished >= 20  # the limit mattered in many of them


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_round_walk_from_starts_that_are_not_plain(rounds: int) -> None:
    # The attacker already below its retreat threshold at the start (it retreats only
    # after round 1, A-10.15): round 1 in the dict walk, the rest in numpy.
    battle = AABattle.parse("1 sub, 1 des", "2 sub, 1 cru, 1 tra", mode="sea", retreat_below=3)
    _agree(battle, rounds)
    # Bombarded defenders fire back in round 1, the general engine forced.
    amphibious = AABattle.parse("3 inf, 1 tank, 1 fig", "3 inf, 1 art", mode="amphibious", bombard="1 bat, 1 cru")
    _agree(amphibious, rounds)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("4 sub, 1 des, 1 car, 2 fig", "3 sub, 1 cru, 1 car, 2 fig, 1 tra", {"rounds": 2}),
        ("3 sub, 2 fig", "2 sub, 1 des, 1 tra", {"rounds": 3}),
        ("2 sub, 1 bat", "3 sub, 1 des", {"rounds": 2, "submerge_attacker": True, "submerge_defender": True}),
        ("4 sub, 1 des", "2 sub, 2 des, 1 tra", {"retreat_after": 2, "retreat_below": 2}),
        ("3 sub, 1 cru", "3 sub", {"retreat_after": 1}),
    ],
)
def test_round_walk_matches_exact_fractions(attacker: str, defender: str, options: dict[str, object]) -> None:
    assert_floats_match_fractions(AABattle.parse(attacker, defender, mode="sea", **options))  # type: ignore[arg-type]


def test_round_walk_records_a_stalemate() -> None:
    # Submarines and aircraft that cannot hit each other: once the cruiser is
    # sunk no round changes anything, and that is a stalemate, not an unfinished battle.
    battle = AABattle.parse("1 cru, 2 fig", "2 sub", mode="sea")
    assert _agree(battle, 1).outcome[UNFINISHED] == pytest.approx(1.0, abs=1e-15)
    tally = _agree(battle, 3)
    assert tally.outcome["stalemate"] == pytest.approx(0.46952160493827166, abs=1e-12)
    assert tally.outcome[UNFINISHED] == pytest.approx(0.27528613683127584, abs=1e-12)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        # A retreat by win chance (its own backward pass) with a round limit or a strafe.
        ("4 sub, 1 des, 2 fig, 1 car", "3 sub, 1 cru, 1 car, 2 fig, 1 tra", {"retreat_chance": 40, "rounds": 3}),
        ("6 sub, 2 des, 2 fig", "5 sub, 1 des, 1 car, 2 fig", {"retreat_chance": 50, "retreat_after": 2}),
        ("4 sub, 1 des, 2 fig", "3 sub, 1 car, 2 fig", {"low_luck": True, "rounds": 2}),
        ("3 sub, 1 bat", "2 sub, 1 des, 1 cru", {"rules": "1942se", "retreat_after": 2}),
    ],
)
def test_round_walk_options_match_the_dict_walk(
    attacker: str, defender: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    battle = AABattle.parse(attacker, defender, mode="sea", **options)  # type: ignore[arg-type]
    new = aa_odds(battle)
    init = GeneralEngine.__init__

    def dict_walk(self: GeneralEngine[float], setup: object, max_states: int | None = None, **_: object) -> None:
        init(self, setup, max_states, vectorised=False)  # type: ignore[arg-type]

    monkeypatch.setattr(GeneralEngine, "__init__", dict_walk)
    old = aa_odds(battle)
    for key in ("attacker_win", "defender_win", "draw", "retreat", "stalemate", "unfinished", "expected_rounds"):
        assert getattr(new, key) == pytest.approx(getattr(old, key), abs=1e-12), key
    assert new.unfinished + new.retreat > 0.01  # the limit mattered
