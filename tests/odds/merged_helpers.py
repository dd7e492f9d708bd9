"""Helpers shared by the merged table engine's tests (``test_aa_merged``,
``test_aa_ground_phase``): run it on a battle, and compare two tallies."""

from __future__ import annotations

from typing import Any

import pytest

from engine.odds.aa import AABattle, setup_battle
from engine.odds.aa_battle import Tally
from engine.odds.aa_merged import MergedTable

KEYS = ("attacker", "defender", "draw", "retreat", "stalemate", "unfinished")


def run_merged(battle: AABattle) -> tuple[MergedTable, Tally[float]]:
    setup, _ = setup_battle(battle, 1.0)
    engine = MergedTable(setup)
    if battle.retreat_chance is not None:
        engine.win_chance_cuts(battle.retreat_chance / 100)
    return engine, engine.run(round_limit(battle))


def round_limit(battle: AABattle) -> int | None:
    if battle.retreat_after is None:
        return battle.rounds
    return battle.retreat_after if battle.rounds is None else min(battle.rounds, battle.retreat_after)


def same_tally(got: Tally[float], want: Tally[Any], tol: float) -> None:
    for key in KEYS:
        assert got.outcome[key] == pytest.approx(float(want.outcome[key]), abs=tol), key
    assert got.takes == pytest.approx(float(want.takes or 0), abs=tol)
    assert got.rounds == pytest.approx(float(want.rounds or 0), abs=1e-10)
    for end_got, end_want in ((got.attacker_end, want.attacker_end), (got.defender_end, want.defender_end)):
        for st in set(end_got) | set(end_want):
            assert end_got.get(st, 0.0) == pytest.approx(float(end_want.get(st, 0)), abs=tol), st
