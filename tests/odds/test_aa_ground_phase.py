"""The merged table engine's ground phase (engine/odds/aa_merged.py, issue 19): AA fire
(A-10.5) splits an attacker of ground units and aircraft of both types into blocks that
lose the same ground units first; those rows run per block (the ground units' hits
shared, each block's aircraft hits pending), the in-row moves by forward substitution,
and the rows past the ground phase go to their attacker states in one product per group
of blocks.  Every number the engine reports is checked against exact fractions (the
pure-Python engine) on random small battles that take that path."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from engine.odds import aa_merged
from engine.odds.aa import AABattle, aa_odds, setup_battle
from engine.odds.aa_battle import Tally
from engine.odds.aa_fast import FastEngine
from engine.odds.aa_merged import MergedTable, _catalogue_rows
from tests.odds.merged_helpers import run_merged, same_tally


def _exact(battle: AABattle) -> Tally[Fraction]:
    setup, _ = setup_battle(battle, Fraction(1))
    return FastEngine(setup).run(battle.rounds)


def _python(battle: AABattle) -> Tally[float]:
    """The pure-Python engine in floats (for battles too slow in fractions)."""
    setup, _ = setup_battle(battle, 1.0)
    return FastEngine(setup, eps=0.0).run(battle.rounds)


def _assert_same(got: Tally[float], want: Tally[Fraction] | Tally[float]) -> None:
    """Every reported number within the engine's error bound (plus rounding)."""
    assert got.dropped < 1e-12
    same_tally(got, want, got.dropped + 1e-12)


def _random_battles(seed: int, n: int) -> list[AABattle]:
    rng = random.Random(seed)
    out: list[AABattle] = []
    while len(out) < n:
        ground = rng.choice(["inf", "art", "tank"])
        att = f"{rng.randint(3, 7)} inf, {rng.randint(0, 2)} {ground}, {rng.randint(1, 4)} fig, {rng.randint(1, 4)} bom"
        dfn = f"{rng.randint(3, 9)} inf, {rng.randint(0, 2)} tank, 1 aa"
        options: dict[str, Any] = rng.choice([{}, {}, {"rounds": rng.randint(1, 3)}, {"retreat_below": 3}])
        out.append(AABattle.parse(att, dfn, **options))
    return out


@pytest.mark.parametrize("battle", _random_battles(19, 8), ids=lambda b: f"{b.attacker}-{b.defender}")
def test_ground_phase_matches_fractions_on_random_battles(battle: AABattle) -> None:
    engine, got = run_merged(battle)
    assert engine.n0 >= 2  # the per-block ground rows are used
    _assert_same(got, _exact(battle))


def test_a_small_defender_makes_the_in_row_moves_count() -> None:
    # Two defending infantry miss together with chance 4/9: much of the mass stays in its
    # row (the defender scored nothing) and moves along it by the attacker's hits.
    battle = AABattle.parse("6 inf, 3 fig, 3 bom", "2 inf, 1 tank, 1 aa")
    engine, got = run_merged(battle)
    assert engine.n0 >= 2
    _assert_same(got, _exact(battle))
    long_fight = AABattle.parse("8 inf, 2 fig, 2 bom", "9 inf, 1 aa")
    engine, got = run_merged(long_fight)
    assert engine.n0 >= 2 and (got.rounds or 0.0) > 3
    _assert_same(got, _exact(long_fight))


def test_groups_of_like_weight_in_the_ground_phase() -> None:
    # 9 x 9 blocks in groups of like weight, each on its own window, then merged.
    battle = AABattle.parse("6 inf, 8 fig, 8 bom", "12 inf, 2 tank, 1 aa")
    engine, got = run_merged(battle)
    assert len(engine.block_groups) >= 2 and engine.n0 == 6
    _assert_same(got, _python(battle))
    limited = AABattle.parse("6 inf, 8 fig, 8 bom", "12 inf, 2 tank, 1 aa", rounds=2)
    engine, got = run_merged(limited)
    _assert_same(got, _python(limited))


def test_the_forward_pass_leaves_out_only_the_ground_states() -> None:
    # 4 inf, 3 fig, 2 bom: the last ground row (no infantry, every aircraft) of block
    # (3 fig, 2 bom) is also reached by block (4 fig, 2 bom) losing a fighter: kept.
    battle = AABattle.parse("4 inf, 4 fig, 3 bom", "8 inf, 1 aa")
    engine, _ = run_merged(battle)
    ground = set(engine.rid[:, : engine.n0].ravel().tolist())
    kept = set(np.concatenate(engine.mm_levels).tolist())
    others = set(range(len(engine.states))) - ground
    assert others <= kept and ground - kept
    # Closed under "one more casualty", the rows past the ground phase included.
    assert {int(engine.next1[s]) for s in kept} <= kept
    assert set(engine.rid[:, engine.n0 :].ravel().tolist()) <= kept
    assert kept - others == {s for s in ground if any(int(engine.next1[o]) == s for o in others)}
    # The forward pass's table has a row for each kept state only.
    assert engine.mm_of[sorted(kept)].tolist() == list(range(len(kept)))
    assert (engine.mm_of[sorted(ground - kept)] == -1).all()


def test_catalogue_rows_number_states_as_their_sequences_reach_them() -> None:
    battle = AABattle.parse("3 inf, 1 tank, 3 fig, 2 bom", "6 inf, 1 aa")
    setup, _ = setup_battle(battle, 1.0)
    att = setup.attacker
    blocks = sorted({s.attacker for s in setup.starts})
    states, hp, next1, sv, starts = _catalogue_rows(att, blocks)
    # The numbering of a plain walk: block after block, each up to a state seen before.
    seen: dict[tuple[int, ...], int] = {}
    for b in blocks:
        for st in att.sequence(b):
            if st in seen:
                break
            seen[st] = len(seen)
    assert list(states) == list(seen)
    assert [states[s] for s in starts.tolist()] == blocks
    assert sv.tolist() == [list(st) for st in seen]
    for s, st in enumerate(states):
        seq = att.sequence(st)
        assert hp[s] == len(seq) - 1
        assert states[int(next1[s])] == (seq[1] if len(seq) > 1 else st)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("8 inf, 2 art, 5 fig, 4 bom", "12 inf, 1 aa", {"retreat_chance": 40}),
        ("12 inf, 6 fig, 6 bom", "16 inf, 2 tank, 1 aa", {"retreat_chance": 60, "retreat_below": 4}),
    ],
)
def test_win_chance_of_the_ground_rows_matches_the_state_by_state_pass(
    attacker: str, defender: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The ground rows' backward pass (G[i] shared by every block, each block's H applied
    # once per row) against the level-by-level pass over every state.
    battle = AABattle.parse(attacker, defender, **options)
    setup, _ = setup_battle(battle, 1.0)
    engine = MergedTable(setup)
    assert engine._win_ground_applies()
    split = engine.win_chance()
    monkeypatch.setattr(engine, "_win_ground_applies", lambda: False)
    whole = engine.win_chance()
    ground = engine.rid[:, : engine.n0]
    assert (split[ground] > 0.05).any() and (split[ground] < 0.95).any()
    assert float(np.abs(split - whole).max()) < 1e-13


def test_the_lightest_blocks_ground_rows_fight_on_within_the_error_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # The backward pass leaves out the ground rows of the lightest blocks (at most
    # WIN_LIGHT of start weight in all: here 7 of 195 AA outcomes): they fight on there
    # and their weight goes into the error bound. The states other blocks reach (the
    # last ground row, no infantry left: every block keeps an aircraft) keep their
    # decisions, retreats among them; the answers stay within the bound of those of the
    # pass over every block.
    battle = AABattle.parse("10 inf, 13 fig, 13 bom", "36 inf, 4 tank, 1 aa", retreat_chance=40)
    engines: list[MergedTable] = []
    cuts = MergedTable.win_chance_cuts

    def kept(self: MergedTable, threshold: float) -> None:
        cuts(self, threshold)
        engines.append(self)

    monkeypatch.setattr(MergedTable, "win_chance_cuts", kept)
    skipped = aa_odds(battle)
    light = engines[-1]
    assert light.win_from < len(light.blocks) and 0 < light.win_light <= aa_merged.WIN_LIGHT
    monkeypatch.setattr(aa_merged, "WIN_LIGHT", 0.0)
    whole = aa_odds(battle)
    assert engines[-1].win_from == len(engines[-1].blocks)
    assert 0.3 < whole.retreat < 0.9
    for name in ("attacker_win", "defender_win", "draw", "retreat", "attacker_takes"):
        assert abs(getattr(skipped, name) - getattr(whole, name)) <= skipped.error_bound
    assert skipped.error_bound >= whole.error_bound + light.win_light - 1e-16
    # Decisions: only the left-out states (no other block reaches them) change.
    full = engines[-1]
    left = np.zeros(len(full.states), dtype=bool)
    left[light.rid[light.win_from :, : light.n0]] = True
    reached = left & (light.mm_of >= 0)
    left &= light.mm_of < 0
    assert (full.s_cut[reached] > 0).any()
    assert (light.s_cut[left] == 0).all() and (full.s_cut[left] > 0).any()
    assert (light.s_cut[~left] == full.s_cut[~left]).all()
    assert (light.s_open[~left] == full.s_open[~left]).all()
