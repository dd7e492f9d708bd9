"""The report's sums by arrays (engine.odds.aa_sums) against the state-by-state loop of
engine.odds.aa._result: the same answer to the last bit, survivors in the same order."""

from __future__ import annotations


from typing import Any

import pytest

from engine.odds import aa
from engine.odds.aa import AABattle, AAOdds, aa_odds

BATTLES: list[tuple[str, str, dict[str, Any]]] = [
    # The merged engine (AA fire, A-10.5, splits the attacker into blocks), fought to
    # the end and retreating by win chance: thousands of attacker states.
    ("14 inf, 6 fig, 6 bom", "18 inf, 3 tank, 1 aa", {}),
    ("14 inf, 6 fig, 6 bom", "18 inf, 3 tank, 1 aa", {"retreat_chance": 40.0}),
    # Low luck and a strafe; AA fire and one round, where a fighter or a bomber shot
    # down is as likely: armies ending with the very same chance (ties ranked by key).
    ("6 inf, 3 art, 2 fig, 2 bom", "8 inf, 2 tank, 1 aa", {"low_luck": True, "retreat_after": 2}),
    ("4 inf, 1 art, 2 fig, 2 bom", "2 tank, 1 aa", {"rounds": 1}),
    # Sea: damaged battleships and submerged submarines end in
    # states that share their armies; the strike pass and the numpy sea solve.
    ("2 bat, 2 des, 4 sub, 2 fig", "2 bat, 2 car, 3 fig, 4 sub", {"mode": "sea", "submerge_attacker": True, "submerge_defender": True}),
    ("8 sub, 3 cru, 2 bat", "4 cru, 2 car, 4 fig", {"mode": "sea", "retreat_chance": 40.0}),
    # A second wave against the survivors, and an amphibious landing (its units kept
    # aside: the loop always).
    ("6 inf, 2 tank, 2 fig", "8 inf, 2 art, 1 aa", {"wave2": "3 inf, 2 tank"}),
    ("4 inf, 2 tank", "5 inf, 1 art", {"mode": "amphibious", "bombard": "1 bat"}),
]


def _odds(battle: AABattle, monkeypatch: pytest.MonkeyPatch, arrays: bool) -> AAOdds:
    with monkeypatch.context() as m:
        m.setattr(aa, "SUMS_BY_ARRAYS", 0 if arrays else 1 << 62)
        return aa_odds(battle)


@pytest.mark.parametrize(("attacker", "defender", "options"), BATTLES)
def test_sums_by_arrays_are_the_loops_to_the_bit(attacker: str, defender: str, options: dict[str, Any],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    battle = AABattle.parse(attacker, defender, **options)
    by_loop = _odds(battle, monkeypatch, arrays=False)
    by_arrays = _odds(battle, monkeypatch, arrays=True)
    assert by_arrays == by_loop  # every float equal, every survivor army in the same place
    assert [list(a.items()) for a, _ in by_arrays.survivors["attacker"]] == [
        list(a.items()) for a, _ in by_loop.survivors["attacker"]]  # the types in the same order
    assert len(by_loop.survivors["attacker"]) > 1


def test_ties_are_ranked_by_their_armies(monkeypatch: pytest.MonkeyPatch) -> None:
    # One round after AA fire hitting fighters and bombers alike (1 in 6 each):
    # many armies end with the very same chance; those ties keep the loop's order, by
    # the armies' keys (the types present with their counts, in the side's order).
    battle = AABattle.parse("4 inf, 1 art, 2 fig, 2 bom", "2 tank, 1 aa", rounds=1)
    odds = _odds(battle, monkeypatch, arrays=True)
    ranked = odds.survivors["attacker"]
    tied = [(a, p) for (a, p), (_, q) in zip(ranked, ranked[1:]) if p == q]
    assert len(tied) >= 10
    for (a, p), (b, q) in zip(ranked, ranked[1:]):
        assert p >= q
        if p == q:
            assert tuple(a.items()) < tuple(b.items())


def test_a_big_report_takes_the_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    # The mixed-air battle's retreat by win chance at 40 a side ends in thousands of
    # attacker states (over SUMS_BY_ARRAYS): the arrays report them, the same as the loop.
    battle = AABattle.parse("16 inf, 12 fig, 12 bom", "36 inf, 4 tank, 1 aa", retreat_chance=40.0)
    by_loop = _odds(battle, monkeypatch, arrays=False)
    calls: list[int] = []
    from engine.odds import aa_sums

    real = aa_sums.side_report

    def counted(*args: Any) -> Any:
        calls.append(len(args[1]))
        return real(*args)

    monkeypatch.setattr(aa_sums, "side_report", counted)
    assert aa_odds(battle) == by_loop
    assert calls and max(calls) >= aa.SUMS_BY_ARRAYS

