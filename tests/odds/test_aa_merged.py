"""The merged table engine (engine/odds/aa_merged.py): AA fire (A-10.5) as distinct
attacker states instead of one loss sequence per AA outcome (issue 19).  Checked against
exact fractions (the pure-Python engine) on random small battles with many aircraft of
both types, and against the per-block table engine on bigger ones."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from engine.odds.aa import AABattle, aa_odds, setup_battle
from engine.odds.aa_battle import CUT, RETREAT, SLACK, TINY
from engine.odds.aa_fast import FastEngine
from engine.odds import aa_merged
from engine.odds.aa_merged import (
    RUNS_APART, MergedTable, _after, _catalogue, _chains, _dice_dists, _levels, _run_sums, _scatter, merges,
    table_engine,
)
from engine.odds.aa_table import TableEngine, hits, shared_spread, shared_spread_into
from engine.odds.dist import low_luck_distribution
from tests.odds.helpers import random_army
from tests.odds.merged_helpers import round_limit, run_merged, same_tally


def _against_fractions(battle: AABattle) -> None:
    exact_setup, _ = setup_battle(battle, Fraction(1))
    exact = FastEngine(exact_setup).run(round_limit(battle))
    _, table = run_merged(battle)
    assert table.dropped < 1e-12
    same_tally(table, exact, table.dropped + 1e-12)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("4 fig, 4 bom", "6 inf, 1 aa", {}),  # aircraft only: blocks are steps of one sequence
        ("3 inf, 1 art, 3 fig, 3 bom", "5 inf, 1 tank, 1 aa", {}),  # ground first, then merged
        ("2 inf, 4 fig, 3 bom", "6 inf, 1 art, 1 aa", {"ool_attacker": "fig,inf,bom"}),
        ("3 inf, 1 tank, 3 fig, 2 bom", "6 inf, 1 aa", {"keep_land_unit": True}),
        ("3 inf, 3 fig, 3 bom", "6 inf, 1 aa", {"low_luck": True}),
        ("2 inf, 3 fig, 3 bom", "5 inf, 1 fig, 1 aa", {"rounds": 2}),
        ("2 inf, 3 fig, 3 bom", "5 inf, 1 fig, 1 aa", {"retreat_after": 1}),
        ("3 inf, 3 fig, 2 bom", "6 inf, 1 aa", {"retreat_below": 3}),
        ("4 inf, 3 fig, 3 bom", "6 inf, 1 art, 1 aa", {"mode": "amphibious", "bombard": "1 bat, 1 cru"}),
        # Bombardment may leave the defender nothing but its AA gun: won before round 1.
        ("3 inf, 2 fig, 2 bom", "1 inf, 1 aa", {"mode": "amphibious", "bombard": "1 bat, 1 cru"}),
        ("3 inf, 3 fig, 3 bom", "6 inf, 1 aa", {"rules": "1942se"}),
        ("3 inf, 3 fig, 3 bom", "6 inf, 1 aa", {"rules": "global1940"}),
        ("2 inf, 3 fig, 3 bom", "6 inf, 1 aa", {"tech_attacker": "heavy bombers"}),
    ],
)
def test_merged_engine_matches_fractions(attacker: str, defender: str, options: dict[str, Any]) -> None:
    _against_fractions(AABattle.parse(attacker, defender, **options))


def test_random_small_aa_battles_match_fractions() -> None:
    rng = random.Random(19)
    for _ in range(12):
        army = {"inf": rng.randint(0, 4), "art": rng.randint(0, 2), "tank": rng.randint(0, 2),
                "fig": rng.randint(1, 4), "bom": rng.randint(1, 4)}  # fmt: skip
        attacker = ", ".join(f"{n} {u}" for u, n in army.items() if n)
        defender = f"{rng.randint(2, 7)} inf, {rng.randint(0, 2)} tank, 1 aa"
        options: dict[str, Any] = rng.choice([{}, {}, {"low_luck": True}, {"keep_land_unit": True}])
        _against_fractions(AABattle.parse(attacker, defender, **options))


def test_blocks_share_states() -> None:
    # 5 x 5 AA outcomes of aircraft only: every block is a suffix of the block with no
    # aircraft lost, so the distinct states are the 5 x 5 counts (and none more).
    engine, _ = run_merged(AABattle.parse("4 fig, 4 bom", "6 inf, 1 aa"))
    assert len(engine.blocks) == 25
    assert len(engine.states) == 25
    assert engine.n0 == 0
    # Ground units first: the blocks keep their own rows until those are lost.
    engine, _ = run_merged(AABattle.parse("3 inf, 1 art, 3 fig, 3 bom", "5 inf, 1 tank, 1 aa"))
    assert engine.n0 == 4


def test_a_state_follows_the_same_casualties_from_every_block() -> None:
    # _catalogue relies on the next casualty being a function of the state (Side.steps),
    # keep_land_unit moving the last land unit to the end included.
    battle = AABattle.parse("3 inf, 1 tank, 3 fig, 2 bom", "6 inf, 1 aa", keep_land_unit=True,
                            ool_attacker="tank,fig,inf,bom")  # fmt: skip
    setup, _ = setup_battle(battle, 1.0)
    att = setup.attacker
    blocks = sorted({s.attacker for s in setup.starts})
    states, hp, next1 = _catalogue(att, blocks)
    for s, st in enumerate(states):
        seq = att.sequence(st)
        assert hp[s] == len(seq) - 1
        assert states[next1[s]] == (seq[1] if len(seq) > 1 else st)


def test_a_level_in_order_reaches_each_state_in_one_run() -> None:
    # _levels orders a level so that its states' states h casualties on come in runs of
    # equal states, for every h (what lets _scatter sum them where they stand).
    battle = AABattle.parse("8 inf, 3 art, 2 tank, 4 fig, 4 bom", "12 inf, 1 aa")
    setup, _ = setup_battle(battle, 1.0)
    _, hp, next1 = _catalogue(setup.attacker, sorted({s.attacker for s in setup.starts}))
    levels = _levels(hp, next1)
    assert sorted(np.concatenate(levels).tolist()) == list(range(len(hp)))
    assert [int(hp[lv[0]]) for lv in levels] == sorted({int(h) for h in hp}, reverse=True)
    runs = 0
    for level in levels:
        assert len(set(hp[level].tolist())) == 1
        after = _after(next1, level, 0, int(hp[level[0]]) + 1).T  # (states, scores)
        if after.shape[1] >= 5:  # from a later score on
            assert np.array_equal(_after(next1, level, 2, 5).T, after[:, 2:5])
        for n, s in enumerate(level.tolist()):  # state s after h more casualties, one by one
            for h in range(after.shape[1]):
                assert after[n, h] == s
                s = int(next1[s])
        for h in range(after.shape[1]):
            col = after[:, h].tolist()
            starts = [n for n in range(len(col)) if n == 0 or col[n] != col[n - 1]]
            assert len(starts) == len(set(col)), (h, col)
            runs += len(col) - len(starts)
    assert runs > 100  # states do meet: there were runs to keep together


@pytest.mark.parametrize("low_luck", [False, True])
@pytest.mark.parametrize("loaded", [False, True])
def test_dice_dists_are_each_rows_distribution(monkeypatch: pytest.MonkeyPatch, low_luck: bool, loaded: bool) -> None:
    # Rows of dice counts by target number (aircraft 0-6, then the rest), some sharing
    # their aircraft dice, some with none: each row's distribution, zero-padded (by
    # numpy's products, or one compiled loop where numba is loaded).
    from engine.odds import aa_merged_kernel  # noqa: F401  (numba loaded)

    calls: list[int] = []
    real = aa_merged_kernel.convolve_rows
    monkeypatch.setattr(aa_merged_kernel, "convolve_rows", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(aa_merged.compiled, "numba_loaded", lambda: loaded)
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 4, size=(40, 14))
    rows[:, [0, 7]] = 0
    rows[::3, :7] = rows[0, :7]
    rows[5, :7] = 0
    rows[6, 7:] = 0
    rows[1, 1:7], rows[1, 8:] = 6, 0  # the most aircraft dice and the most other dice
    rows[2, 1:7], rows[2, 8:] = 0, 6  # in different rows
    got = _dice_dists(rows, low_luck)
    widest = 0
    for row, dist in zip(rows.tolist(), got):
        air = [(t, c) for t, c in enumerate(row[:7]) if c]
        rest = [(t, c) for t, c in enumerate(row[7:]) if c]
        want = np.array(low_luck_distribution(air + rest, 1.0)) if low_luck else np.convolve(hits(air), hits(rest))
        assert np.abs(dist[: len(want)] - want).max() < 1e-15
        assert not dist[len(want) :].any()
        widest = max(widest, len(want))
    assert got.shape[1] == widest
    assert len(calls) == (loaded and not low_luck)


def _assert_run_sums(rows: Any, starts: Any) -> None:
    sums, firsts = _run_sums(rows.copy(), starts)
    assert sorted(firsts.tolist()) == starts.tolist()
    for got, at in zip(sums, firsts.tolist()):
        end = starts[np.searchsorted(starts, at) + 1] if at != starts[-1] else len(rows)
        assert np.allclose(got, rows[at:end].sum(axis=0), rtol=0, atol=1e-13)


@pytest.mark.parametrize("last", [1, 30])  # the longest run last or not
def test_run_sums_with_more_long_runs_than_are_summed_apart(last: int) -> None:
    # More runs longer than RUNS_APART at first (row-gathering additions), then their
    # rest, the runs longest first, in one reduceat.
    rng = np.random.default_rng(3)
    lens = np.concatenate([rng.integers(1, 25, 4 * RUNS_APART), [last]])
    assert (lens > 2).sum() > RUNS_APART
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    _assert_run_sums(rng.random((int(lens.sum()), 4)), starts)


def test_run_sums_and_scatter_add_every_row_to_its_target() -> None:
    rng = np.random.default_rng(7)
    # Runs of every length (one of 40, as "attacker destroyed" makes), then a target
    # met again after other runs.
    lens = np.array([1, 3, 40, 2, 1, 5, 12, 1, 2, 7] * 3)
    target = np.repeat(rng.permutation(60)[: len(lens)], lens)
    target[-3:] = target[0]
    rows = rng.random((len(target), 5))
    starts = np.flatnonzero(np.concatenate([[True], target[1:] != target[:-1]]))
    _assert_run_sums(rows, starts)
    into = np.zeros((60, 9))
    _scatter(into, target, rows, 2)
    want = np.zeros((60, 9))
    np.add.at(want, (target[:, None], np.arange(2, 7)[None, :]), rows)
    assert np.abs(into - want).max() < 1e-13
    # Targets in no runs at all take the sorting path alone.
    into2 = np.zeros((60, 9))
    perm = rng.permutation(len(target))
    _scatter(into2, target[perm], rows[perm], 2)
    assert np.abs(into2 - want).max() < 1e-13


@pytest.mark.parametrize("strided", [False, True])
def test_the_compiled_loop_adds_every_row_to_its_target(strided: bool) -> None:
    # Runs of equal targets, a target met again after others, rows contiguous or every
    # other row of a bigger array (as the level pass passes them).
    from engine.odds.aa_merged_kernel import scatter_add

    rng = np.random.default_rng(11)
    lens = np.array([1, 3, 40, 2, 1, 5, 12, 1, 2, 7] * 3)
    target = np.repeat(rng.permutation(60)[: len(lens)], lens)
    target[-3:] = target[0]
    big = rng.random((len(target), 2, 5))
    rows = big[:, 1] if strided else np.ascontiguousarray(big[:, 1])
    assert rows.flags.c_contiguous != strided
    into = rng.random((60, 9))
    want = into.copy()
    np.add.at(want, (target[:, None], np.arange(2, 7)[None, :]), rows)
    scatter_add(into, target, rows, 2)
    assert np.abs(into - want).max() < 1e-13


def test_the_compiled_loop_adds_every_column_to_its_target() -> None:
    # shared_spread_into's bands, states before columns: rows[h, n, c] goes to
    # into[target[h, n], c0 + c], runs of equal targets and one target met from several
    # scores, in the order of one addition at a time (h, then n): the same numbers bit
    # for bit; targets PREFETCH_AHEAD states on and more are asked for ahead.
    from engine.odds.aa_merged_kernel import PREFETCH_AHEAD, scatter_rows

    rng = np.random.default_rng(13)
    H, L, K = 4, 6, PREFETCH_AHEAD + 9
    target = np.sort(rng.integers(0, 12, size=(H, K)), axis=1)
    target[3, :] = target[0, 0]
    rows = rng.random((H, K, L))
    into = rng.random((12, 10))
    want = into.copy()
    for h in range(H):
        for n in range(K):
            want[target[h, n], 3 : 3 + L] += rows[h, n]
    scatter_rows(into, target, rows, 3)
    assert np.array_equal(into, want)
    # Smaller tables take shared_spread's products, rows last, and the numpy path.
    cols = rows.transpose(0, 2, 1).copy()
    plain = np.zeros((12, 10))
    for h in range(H):
        for n in range(K):
            plain[target[h, n], 3 : 3 + L] += cols[h, :, n]
    into2 = np.zeros((12, 10))
    aa_merged._scatter_cols(into2, target, cols, 3)
    assert np.abs(into2 - plain).max() < 1e-13


def test_a_bands_compiled_factor_is_numpys_product_bit_for_bit() -> None:
    # band_factor: V[j - js, n, b] = x[n, j] A[n, cs + b - j], 0 off A's outcomes.
    from engine.odds.aa_merged_kernel import band_factor

    rng = np.random.default_rng(17)
    K, w, La, B = 5, 30, 9, 8
    xT, A = rng.random((w, K)), rng.random((K, La))
    for cs, js, je in ((0, 0, 8), (12, 4, 20), (26, 18, 30)):
        V = np.full((je - js, K, B), np.nan)
        band_factor(V, xT, A, cs, js, je)
        padded = np.zeros((K, La + 2 * w + B))
        padded[:, w : w + La] = A
        for j in range(js, je):
            assert np.array_equal(V[j - js], xT[j][:, None] * padded[:, w + cs - j : w + cs - j + B])


def test_big_tables_take_the_compiled_loop_with_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # A joined second wave (levels of hundreds of states): every addition through the
    # compiled loop (the threshold lowered to every table) or none, the same answer.
    from engine.odds import aa_merged_kernel

    battle = AABattle.parse("12 inf, 4 art, 3 fig, 3 bom", "20 inf, 5 art, 4 fig, 1 aa", rounds=1,
                            wave2="6 inf, 3 tank, 3 fig")  # fmt: skip
    calls: list[int] = []
    cols: list[int] = []
    loop, loop_cols = aa_merged_kernel.scatter_add, aa_merged_kernel.scatter_rows

    def counted(into: Any, target: Any, rows: Any, c0: int) -> None:
        calls.append(rows.size)
        loop(into, target, rows, c0)

    def counted_cols(into: Any, target: Any, rows: Any, c0: int) -> None:
        cols.append(rows.size)
        loop_cols(into, target, rows, c0)

    monkeypatch.setattr(aa_merged_kernel, "scatter_add", counted)
    monkeypatch.setattr(aa_merged_kernel, "scatter_rows", counted_cols)
    monkeypatch.setattr(aa_merged, "COMPILED_TABLE", 10**12)
    numpy_sums = aa_odds(battle)
    assert not calls and not cols
    monkeypatch.setattr(aa_merged, "COMPILED_TABLE", 0)
    compiled = aa_odds(battle)
    assert len(calls) > 20 and sum(calls) > 10_000, (len(calls), sum(calls))
    assert cols and sum(cols) > 10_000, (len(cols), sum(cols))  # shared_spread's products
    assert compiled.second_wave is not None and numpy_sums.second_wave is not None
    assert 0.01 < compiled.second_wave["attacker_win"] < 0.99
    for key, value in numpy_sums.second_wave.items():
        assert compiled.second_wave[key] == pytest.approx(value, abs=1e-14), key
    assert compiled.attacker_win == pytest.approx(numpy_sums.attacker_win, abs=1e-14)


def test_the_compiled_in_row_loops_give_the_numpy_numbers_bit_for_bit() -> None:
    # TableEngine._rows_window's in-row moves and the mass they carry past each row's
    # live columns: the compiled loops (where numba is loaded) against the numpy loops.
    from engine.odds.aa_merged_kernel import forward_moves, past_terms

    rng = np.random.default_rng(5)
    ws, K, La, b0, b1 = 40, 7, 12, 2, 9
    u0, e = rng.random((ws, K)), rng.random((ws, K)) * 0.3
    e[3, 2] = 1e-25  # moves below TINY are not spread
    AbT = rng.random((b1 - b0, K))
    u = u0.copy()
    for j in range(ws - b0):
        yj = u[j] * e[j]
        yj[yj < 1e-19] = 0.0
        t1 = min(j + b1, ws)
        u[j + b0 : t1] += AbT[: t1 - j - b0] * yj
    got = u0.copy()
    forward_moves(got, e, AbT, b0, b1, 1e-19)
    assert np.array_equal(got, u)
    A, lims, col0 = rng.random((K, La)), rng.integers(5, 60, size=K), 3
    suffix = np.concatenate([np.cumsum(A[:, ::-1], axis=1)[:, ::-1], np.zeros((K, 1))], axis=1)
    dist = np.clip(lims[:, None] - (col0 + np.arange(ws))[None, :], 0, La)
    want = (u.T * np.take_along_axis(suffix, dist, axis=1)).sum(axis=1)
    assert np.array_equal(past_terms(u, A, lims.astype(np.int64), col0).sum(axis=1), want)


def test_warm_compiles_the_loop_for_both_layouts(monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine passes rows contiguous or as every other row of a bigger array; numba
    # compiles each layout apart, so warm passes both (each compiled, then on record).
    from engine.odds import aa_merged_kernel

    layouts: list[bool] = []
    loop = aa_merged_kernel.scatter_add

    def seen(into: Any, target: Any, rows: Any, c0: int) -> None:
        layouts.append(bool(rows.flags.c_contiguous))
        loop(into, target, rows, c0)

    monkeypatch.setattr(aa_merged_kernel, "scatter_add", seen)
    # The other two loops: warm calls each (with the layouts the engine passes: all contiguous).
    called: list[str] = []
    for name in ("scatter_rows", "back_substitute"):
        real = getattr(aa_merged_kernel, name)

        def spy(*args: Any, _real: Any = real, _name: str = name) -> None:
            assert all(a.flags.c_contiguous for a in args if hasattr(a, "flags")), _name
            called.append(_name)
            _real(*args)

        monkeypatch.setattr(aa_merged_kernel, name, spy)
    aa_merged_kernel.warm()
    assert sorted(layouts) == [False, True]
    assert len(loop.signatures) >= 2  # type: ignore[attr-defined]
    assert sorted(called) == ["back_substitute", "scatter_rows"]


@pytest.mark.parametrize(("attacker", "defender", "mode"), [
    ("5 inf, 3 art, 2 tank, 4 fig, 3 bom", "6 inf, 1 aa", "land"),
    ("3 bat, 2 cru, 2 car, 4 fig, 2 bom", "2 bat, 3 des", "sea"),  # battleships: two runs each
])  # fmt: skip
def test_chains_are_every_blocks_loss_sequence(attacker: str, defender: str, mode: str) -> None:
    # _chains builds every block's sequence at once from the loss order's runs: the
    # states Side.sequence gives, block after block (A-10.8: an intact battleship's
    # first hit only damages it, so battleships are two runs).
    setup, _ = setup_battle(AABattle.parse(attacker, defender, mode=mode), 1.0)
    att = setup.attacker
    rng = random.Random(5)
    full = att.start
    blocks = [full] + [tuple(rng.randint(0, n) for n in full) for _ in range(30)] + [tuple(0 for _ in full)]
    lens, rows = _chains(att, np.array(blocks, dtype=np.int64))
    want = [st for b in blocks for st in att.sequence(b)]
    assert lens.tolist() == [len(att.sequence(b)) for b in blocks]
    assert [tuple(r) for r in rows.tolist()] == want
    assert any(len(att.sequence(b)) - 1 > sum(b) for b in blocks) == (mode == "sea")


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("12 inf, 3 art, 6 fig, 5 bom", "16 inf, 2 tank, 1 aa", {}),
        ("10 fig, 8 bom", "18 inf, 1 aa", {}),
        ("12 inf, 6 fig, 6 bom", "16 inf, 2 tank, 1 aa", {"retreat_chance": 40}),
        ("12 inf, 6 fig, 6 bom", "16 inf, 2 tank, 1 aa", {"rounds": 3}),
        ("12 inf, 6 fig, 6 bom", "16 inf, 2 tank, 1 aa", {"low_luck": True}),
    ],
)
def test_merged_engine_matches_the_per_block_table_engine(
    attacker: str, defender: str, options: dict[str, Any]
) -> None:
    battle = AABattle.parse(attacker, defender, **options)
    setup, _ = setup_battle(battle, 1.0)
    old = TableEngine(setup)
    if battle.retreat_chance is not None:
        old.win_chance_cuts(battle.retreat_chance / 100)
    want = old.run(battle.rounds)
    engine, got = run_merged(battle)
    assert got.dropped < 1e-12
    same_tally(got, want, got.dropped + want.dropped + 1e-12)


def test_states_lighter_than_tiny_spread_nothing_and_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # A big merged table's far states carry masses below TINY: they are left out of the
    # level's products (counted in dropped), and the answer is the per-block engine's.
    battle = AABattle.parse("25 fig, 25 bom", "40 inf, 1 aa")
    light: list[int] = []
    spread = MergedTable._spread_states

    def counted(self: MergedTable, into: Any, ids: Any, x: Any, *args: Any) -> None:
        light.append(int((x.max(axis=1) < TINY).sum()))
        spread(self, into, ids, x, *args)

    monkeypatch.setattr(MergedTable, "_spread_states", counted)
    _, got = run_merged(battle)
    assert sum(light) >= 10
    setup, _ = setup_battle(battle, 1.0)
    want = TableEngine(setup).run()
    assert got.dropped < 1e-12
    same_tally(got, want, got.dropped + want.dropped + 1e-13)


def test_groups_of_like_weight_match_fractions_and_the_per_block_engine() -> None:
    # 9 x 9 blocks in two groups of like weight, each spread on its own window while
    # the infantry is lost (n0 rows), then merged.
    battle = AABattle.parse("10 inf, 8 fig, 8 bom", "14 inf, 2 tank, 1 aa")
    engine, got = run_merged(battle)
    assert len(engine.block_groups) == 2 and engine.n0 == 10
    _against_fractions(battle)
    setup, _ = setup_battle(battle, 1.0)
    want = TableEngine(setup).run(None)
    same_tally(got, want, got.dropped + want.dropped + 1e-12)
    strafe = AABattle.parse("10 inf, 8 fig, 8 bom", "14 inf, 2 tank, 1 aa", retreat_after=2)
    _against_fractions(strafe)


def test_big_aa_battles_use_the_merged_engine_and_add_up() -> None:
    battle = AABattle.parse("50 fig, 50 bom", "90 inf, 9 tank, 1 aa")
    setup, _ = setup_battle(battle, 1.0)
    engine = table_engine(setup)
    assert isinstance(engine, MergedTable)
    # 51 x 51 AA outcomes; those lighter than TINY are left out (in the error bound).
    heavy = {s.attacker for s in setup.starts if s.weight >= TINY}
    assert len(engine.blocks) == len(heavy)
    assert 1_000 < len(heavy) < 51 * 51
    assert len(engine.states) <= 51 * 51  # instead of 1,449 sequences of up to 100 steps
    odds = aa_odds(battle)
    assert odds.attacker_win + odds.defender_win + odds.draw == pytest.approx(1.0, abs=1e-12)
    assert odds.error_bound < 1e-12
    # Small battles keep the per-block engine (and its dense solve).
    small, _ = setup_battle(AABattle.parse("2 inf, 1 fig", "2 inf, 1 aa"), 1.0)
    assert type(table_engine(small)) is TableEngine


def test_blocks_fought_to_the_end_take_the_compiled_rows_up_to_their_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where numba is loaded, a battle fought to the end with up to COMPILED_OVER_MERGED
    # cells goes to the table engine's compiled rows, every block's (faster there); with
    # a round limit or a retreat by win chance, and past the limit, the merged engine.
    import numba  # noqa: F401

    made: list[str] = []
    real_init = MergedTable.__init__

    def counted(self: MergedTable, *args: Any, **kwargs: Any) -> None:
        made.append("merged")
        real_init(self, *args, **kwargs)

    real_rows = TableEngine._compiled_rows

    def rows(self: TableEngine, M: Any) -> None:
        made.append("compiled rows")
        real_rows(self, M)

    monkeypatch.setattr(MergedTable, "__init__", counted)
    monkeypatch.setattr(TableEngine, "_compiled_rows", rows)
    a, d = "10 inf, 3 art, 3 tank, 2 fig, 2 bom", "12 inf, 3 art, 2 tank, 2 fig, 1 aa"
    for options, want in (({}, ["compiled rows"]), ({"rounds": 2}, ["merged"]),
                          ({"retreat_chance": 40}, ["merged"])):  # fmt: skip
        made.clear()
        aa_odds(AABattle.parse(a, d, **options))  # type: ignore[arg-type]
        assert made == want, options
    made.clear()

    battle = AABattle.parse("10 inf, 3 art, 3 tank, 2 fig, 2 bom", "12 inf, 3 art, 2 tank, 2 fig, 1 aa")
    setup, _ = setup_battle(battle, 1.0)
    assert merges(setup) and len({s.attacker for s in setup.starts}) == 9
    compiled = table_engine(setup, to_the_end=True)
    assert type(compiled) is TableEngine
    assert isinstance(table_engine(setup), MergedTable)
    by_rows, by_states = compiled.run(None), table_engine(setup).run(None)
    bound = by_rows.dropped + by_states.dropped + 1e-15
    for key in ("attacker", "defender", "draw"):
        assert by_rows.outcome[key] == pytest.approx(by_states.outcome[key], abs=bound)
    big, _ = setup_battle(AABattle.parse("40 inf, 10 art, 10 tank, 5 fig, 5 bom",
                                         "50 inf, 10 art, 5 tank, 5 fig, 1 aa"), 1.0)  # fmt: skip
    assert isinstance(table_engine(big, to_the_end=True), MergedTable)  # 168,696 cells


def test_win_chance_by_column_chunks_matches_one_product(monkeypatch: pytest.MonkeyPatch) -> None:
    battle = AABattle.parse("12 inf, 6 fig, 6 bom", "16 inf, 2 tank, 1 aa", retreat_chance=40)
    setup, _ = setup_battle(battle, 1.0)
    monkeypatch.setattr(aa_merged, "WIN_BAND", 10_000)
    whole = MergedTable(setup).win_chance()
    monkeypatch.setattr(aa_merged, "WIN_BAND", 3)  # 19 defender steps: 7 chunks
    chunked = MergedTable(setup).win_chance()
    assert (whole > 0.1).any() and (whole < 0.9).any()
    assert float(np.abs(whole - chunked).max()) < 1e-13
    old = TableEngine(setup)
    old.win_chance_cuts(0.4)
    want = old.run(None)
    _, got = run_merged(battle)  # chunked
    assert got.outcome[RETREAT] > 0.01
    same_tally(got, want, got.dropped + want.dropped + 1e-12)


def test_win_chance_back_substitution_compiled_or_not_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # The in-row back substitution is a compiled loop where numba is loaded already, a
    # numpy loop over the columns otherwise: the same chances (to rounding), in the
    # ground phase's rows and the level pass's.
    from engine.odds import aa_merged_kernel

    battle = AABattle.parse("30 inf, 4 fig, 4 bom", "40 inf, 1 aa", retreat_chance=40)
    setup, _ = setup_battle(battle, 1.0)
    calls: list[int] = []
    loop = aa_merged_kernel.back_substitute

    def counted(vT: Any, AT: Any, cdT: Any, j_lo: int) -> None:
        calls.append(vT.shape[1])
        loop(vT, AT, cdT, j_lo)

    monkeypatch.setattr(aa_merged_kernel, "back_substitute", counted)
    merged = MergedTable(setup)
    assert merged._win_ground_applies()
    compiled = merged.win_chance()
    assert len(calls) > 10 and max(calls) > 1
    monkeypatch.setattr(aa_merged.compiled, "numba_loaded", lambda: False)  # numba not loaded
    calls.clear()
    plain = MergedTable(setup).win_chance()
    assert not calls
    assert (compiled > 0.1).any() and (compiled < 0.9).any()
    assert float(np.abs(compiled - plain).max()) < 1e-14


def test_win_chance_leaves_out_only_outcomes_below_its_cut() -> None:
    # The win-chance pass takes dice outcomes of at least win_cut (far above CUT in a
    # battle this size), so its chances may differ from the per-block table engine's
    # (which takes every outcome down to CUT) by no more than a hundredth of SLACK.
    battle = AABattle.parse("30 inf, 4 fig, 4 bom", "40 inf, 1 aa", retreat_chance=40)
    setup, _ = setup_battle(battle, 1.0)
    merged = MergedTable(setup)
    assert merged._win_ground_applies()
    V = merged.win_chance()
    assert merged.w_cut > 1e6 * CUT
    # Outcomes the forward pass spreads but the win-chance pass leaves out, on both sides.
    assert ((merged.w_hi - merged.w_lo) < (merged.s_hi - merged.s_lo)).any()
    assert (merged.wg_hi - merged.wg_lo < merged.g_hi - merged.g_lo).any()
    table = TableEngine(setup)
    W = table.win_chance()
    lim = merged.jT
    worst = 0.0
    compared = 0
    for k, block in enumerate(table.blocks):
        if block not in merged.start_id:  # lighter than TINY: the merged engine leaves it out
            continue
        s = merged.start_id[block]
        for i in range(table.n_a[k] + 1):
            if table.a_alive[k, i] and not table.a_retreat[k, i]:
                worst = max(worst, float(np.abs(V[s, :lim] - W[k, i, :lim]).max()))
                compared += 1
            s = int(merged.next1[s])
    assert compared > 500
    assert (V[:, :lim] > 0.1).any() and (V[:, :lim] < 0.9).any()
    assert worst < SLACK / 100


@pytest.mark.parametrize("keep", [10**6, 1, 7, 40, 59])
def test_shared_spread_is_the_per_row_toeplitz_product(keep: int) -> None:
    # out[h, c, n] = sum_j DT[h, j] x[n, j] A[n, c - j], the columns from keep - 1 on
    # added into column keep - 1 (the defender destroyed), against plain loops.
    rng = np.random.default_rng(7)
    K, w, H, La = 5, 23, 4, 37  # La > w: bands whose rows start at 0 and end at w
    x, DT, A = rng.random((K, w)), rng.random((H, w)), rng.random((K, La))
    L = w + La - 1
    full = np.zeros((H, K, L))
    for n in range(K):
        for j in range(w):
            for t in range(La):
                full[:, n, j + t] += DT[:, j] * x[n, j] * A[n, t]
    want = full
    if 1 <= keep < L:
        want = full[:, :, :keep].copy()
        want[:, :, keep - 1] += full[:, :, keep:].sum(axis=2)
    got = shared_spread(x, DT, A, keep).transpose(0, 2, 1)  # (H, columns, rows): the rows last
    assert got.shape == want.shape
    assert float(np.abs(got - want).max()) < 1e-12


@pytest.mark.parametrize("keep", [10**6, 1, 7, 40, 59])
def test_shared_spread_into_hands_out_the_same_products_by_bands(keep: int) -> None:
    # The products a band at a time (the merged engine adds each into its table as it
    # is made): together, shared_spread's whole array, bands of zeros left out.  The same
    # sums of the same terms, to rounding: on processors with AVX-512 (2026-12-04's),
    # OpenBLAS adds a product's terms in an order that depends on the matrices' shapes,
    # and 2 of the 40-column case's numbers came out an ulp apart.
    rng = np.random.default_rng(11)
    K, w, H, La = 6, 23, 4, 37
    x, DT, A = rng.random((K, w)), rng.random((H, w)), rng.random((K, La))
    x[:, :9] = 0.0  # bands before the first mass: zeros, not handed out
    want = shared_spread(x, DT, A, keep)
    got = np.full(want.shape, np.nan)
    seen: list[int] = []

    def emit(band: np.ndarray, cs: int) -> None:  # band[h, n, c]: states before columns
        assert band.shape[0] == H and band.shape[1] == K
        seen.append(cs)
        got[:, cs : cs + band.shape[2]] = band.transpose(0, 2, 1)

    shared_spread_into(x, DT, A, keep, emit)
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    unseen = np.isnan(got)
    assert (want[unseen] == 0.0).all()
    np.testing.assert_allclose(got[~unseen], want[~unseen], rtol=1e-14, atol=0.0)


def test_levels_spread_by_shared_products_match_products_per_row(monkeypatch: pytest.MonkeyPatch) -> None:
    # A second wave joined by the first wave's units: levels of hundreds of attacker
    # states, spread by shared_spread (SHARED_MIN rows and more, the defender's scores
    # that destroy every state of a level summed into one row) or row by row.
    battle = AABattle.parse("12 inf, 4 art, 3 fig, 3 bom", "20 inf, 5 art, 4 fig, 1 aa", rounds=1,
                            wave2="6 inf, 3 tank, 3 fig")
    calls: list[int] = []
    spread = aa_merged.shared_spread

    def counted(*args: Any) -> Any:
        calls.append(len(args[0]))
        return spread(*args)

    monkeypatch.setattr(aa_merged, "shared_spread", counted)
    shared = aa_odds(battle)
    assert calls and max(calls) >= aa_merged.SHARED_MIN
    monkeypatch.setattr(aa_merged, "SHARED_MIN", 10**9)
    calls.clear()
    per_row = aa_odds(battle)
    assert not calls
    assert shared.second_wave is not None and per_row.second_wave is not None
    assert 0.01 < shared.second_wave["attacker_win"] < 0.99
    for key, value in per_row.second_wave.items():
        assert shared.second_wave[key] == pytest.approx(value, abs=1e-14), key


def test_a_levels_rows_spread_in_groups_by_columns_as_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # _spread_states splits a big level's rows into groups by their first column with
    # mass (each group's products cover its own columns): the same odds as one group.
    battle = AABattle.parse("12 inf, 4 art, 3 fig, 3 bom", "20 inf, 5 art, 4 fig, 1 aa", rounds=1,
                            wave2="6 inf, 3 tank, 3 fig")
    monkeypatch.setattr(aa_merged, "SPREAD_GROUP_MIN", 40)
    sizes: list[int] = []
    group = MergedTable._spread_group

    def counted(self: MergedTable, into: Any, ids: Any, *args: Any) -> None:
        sizes.append(len(ids))
        group(self, into, ids, *args)

    monkeypatch.setattr(MergedTable, "_spread_group", counted)
    grouped = aa_odds(battle)
    calls = len(sizes)
    monkeypatch.setattr(aa_merged, "SPREAD_GROUPS", 1)
    sizes.clear()
    whole = aa_odds(battle)
    assert calls > len(sizes) + 3  # levels were split
    assert grouped.second_wave is not None and whole.second_wave is not None
    assert 0.01 < whole.second_wave["attacker_win"] < 0.99
    for key, value in whole.second_wave.items():
        assert grouped.second_wave[key] == pytest.approx(value, abs=1e-14), key


@pytest.mark.parametrize("tech", ["", "heavy bombers"])
def test_dice_counts_are_the_dice_of_every_state(tech: str) -> None:
    # Side.dice_counts (the merged engine's dice, all states at once) against Side.dice
    # state by state: infantry supported by artillery up to one each (A-14.2), heavy
    # bombers' two dice, aircraft apart, values pooled.
    battle = AABattle.parse("6 inf, 3 art, 3 tank, 2 fig, 3 bom", "3 inf", **({"tech_attacker": tech} if tech else {}))
    att = setup_battle(battle, 1.0)[0].attacker
    rng = np.random.default_rng(3)
    sv = rng.integers(0, np.array(att.start) + 1, size=(200, len(att.start)))
    D = att.dice_counts(sv)
    boosted = 0
    for n, st in enumerate(sv.tolist()):
        subs, air, other = att.dice(tuple(st))
        for cat, groups in enumerate((subs, air, other)):
            want = np.zeros(7, dtype=np.int64)
            for value, dice in groups:
                want[min(value, 6)] += dice
            assert D[cat, n].tolist() == want.tolist(), (st, cat)
        boosted += any(v == 2 for v, _ in other) and st[att.slot_of("artillery")] > 0
    assert boosted > 50


def test_hit_points_of_many_states_and_the_cells_of_a_start_table() -> None:
    # Side.hp_counts (hit points of count rows at once) against Side.hp, battleships'
    # two included (A-10.8); table_cells reads a StartTable's attacker states so, as it reads
    # Start objects one by one.
    from engine.odds.aa_battle import StartTable, table_cells

    setup, _ = setup_battle(AABattle.parse("3 bat, 2 cru, 4 fig, 1 sub", "2 des", mode="sea"), 1.0)
    att = setup.attacker
    rng = np.random.default_rng(4)
    sv = rng.integers(0, np.array(att.start) + 1, size=(100, len(att.start)))
    assert att.hp_counts(sv).tolist() == [att.hp(tuple(st)) for st in sv.tolist()]
    land, _ = setup_battle(AABattle.parse("6 inf, 3 fig, 3 bom", "8 inf, 1 aa"), 1.0)
    starts = list(land.starts)
    attackers = sorted({s.attacker for s in starts})
    table = StartTable(attackers, [starts[0].defender], np.array([attackers.index(s.attacker) for s in starts]),
                       np.zeros(len(starts), dtype=np.int64), np.array([float(s.weight) for s in starts]))  # fmt: skip
    assert len(attackers) == 16
    assert table_cells(replace(land, starts=table)) == table_cells(land) > 16 * 9


@pytest.mark.parametrize("rounds", [1, 2])
def test_the_merged_engine_keeps_the_pairs_still_fighting_as_the_general_engine(rounds: int) -> None:
    # A round limit with a second wave joining (A-10.5 AA fire before round 1): the
    # merged engine keeps the pairs of states still fighting after the last round,
    # each with its chance, as GeneralEngine.run(pairs=True) does; aa_odds takes them.
    from engine.odds import aa, aa_battle
    from engine.odds.aa_general import GeneralEngine

    battle = AABattle.parse("6 inf, 2 art, 3 fig, 2 bom", "10 inf, 3 art, 2 fig, 1 aa", rounds=rounds)
    setup, _ = setup_battle(battle, 1.0)
    assert aa_merged.merges(setup) and aa_battle.table_cells(setup) > aa.SMALL_CELLS_ROUNDS
    merged = MergedTable(setup)
    merged.pairs = []
    got = merged.run(rounds)
    want = GeneralEngine(setup).run(rounds, pairs=True)
    assert got.pairs is not None and want.pairs is not None
    assert sum(want.pairs.values()) == pytest.approx(want.outcome["unfinished"], abs=1e-14)
    assert 0.2 < sum(got.pairs.values()) < 0.999
    assert len(want.pairs) > 100
    for pair in set(got.pairs) | set(want.pairs):
        assert got.pairs.get(pair, 0.0) == pytest.approx(want.pairs.get(pair, 0.0), abs=1e-15), pair
    # As arrays (aa._second_wave reads them so), each pair once; and a dict as a table.
    table = got.pairs
    assert isinstance(table, aa_battle.PairTable) and len(table) == len(set(table))
    assert {(table.attackers[i], table.defenders[j]): w for i, j, w in
            zip(table.a.tolist(), table.d.tolist(), table.w.tolist())} == dict(table)  # fmt: skip
    again = aa_battle.PairTable.of(dict(want.pairs))
    assert len(again) == len(want.pairs) and dict(again) == want.pairs and again.w.dtype == float
    joined = AABattle.parse("6 inf, 2 art, 3 fig, 2 bom", "10 inf, 3 art, 2 fig, 1 aa", rounds=rounds,
                            wave2="4 inf, 2 tank, 2 fig")
    assert aa_odds(joined).engine == "fast"  # the first wave in the merged engine


def test_random_battles_with_options_agree_with_the_general_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # Land battles against an AA gun (A-10.5) with many aircraft, each with one of the
    # options players use (a round limit, retreats after N rounds, with K units left or
    # below a win chance, keeping a land unit, a joined second wave): the merged engine
    # (as "auto" takes it) against the general engine, a walk over pairs of states with
    # its own backward pass, within both error bounds.
    made = []
    real_init = MergedTable.__init__

    def counted(self: MergedTable, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(MergedTable, "__init__", counted)
    # The merged engine as it was, where numba is loaded too (there the table engine's
    # compiled rows take small battles fought to the end: see table_engine).
    monkeypatch.setattr(aa_merged, "COMPILED_OVER_MERGED", 0)
    rng = random.Random(5)
    options = [{}, {"rounds": 2}, {"retreat_left": 3}, {"retreat_after": 2}, {"keep_land_unit": 1},
               {"retreat_chance": 35}, {"rounds": 1, "wave2": "3 inf, 2 fig"}]  # fmt: skip
    keys = ("attacker_win", "defender_win", "draw", "attacker_takes", "retreat", "stalemate", "unfinished")
    merged = 0
    for n in range(28):
        attacker = random_army(rng, ["inf", "art", "tank", "fig", "fig", "bom"], rng.randint(10, 22))
        defender = random_army(rng, ["inf", "inf", "art", "tank", "fig"], rng.randint(10, 22)) + ", 1 aa"
        battle = AABattle.parse(attacker, defender, **options[n % len(options)])
        before = len(made)
        got = aa_odds(battle)
        merged += len(made) > before
        want = aa_odds(battle, engine="general")
        bound = got.error_bound + want.error_bound + 1e-14
        for key in keys:
            assert abs(getattr(got, key) - getattr(want, key)) <= bound, (battle, key)
        if battle.wave2:
            assert got.second_wave is not None and want.second_wave is not None
            for key, value in want.second_wave.items():
                assert abs(got.second_wave[key] - value) <= bound, (battle, key)
        for side in ("attacker", "defender"):
            assert abs(got.expected_ipc_loss[side] - want.expected_ipc_loss[side]) <= 1e-9
    assert merged >= 16  # the merged engine took most of them (19 of 28)


def _window_both(monkeypatch: pytest.MonkeyPatch, engine: TableEngine, rows: Any, lims: Any, A: Any) -> tuple[Any, Any]:
    """TableEngine._rows_window on the same rows by the compiled pass and by the numpy
    steps: each one's ``(result, dropped, rounds)``."""
    from engine.odds import aa_table

    got = []
    for loaded in (True, False):
        monkeypatch.setattr(aa_table.compiled, "numba_loaded", lambda _v=loaded: _v)
        engine.dropped = engine.rounds = 0.0
        out = engine._rows_window(rows.copy(), lims.copy(), A.copy())
        got.append((out, engine.dropped, engine.rounds))
    return got[0], got[1]


@pytest.mark.parametrize("seed", range(6))
def test_the_compiled_rows_window_is_the_numpy_steps(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    # One compiled pass for a level's in-row moves (where numba is loaded): the masses
    # after them bit for bit, the mass carried past each row's live columns and the
    # bookkeeping (left out, expected rounds) to rounding, on rows with limits before,
    # inside and past the live masses, masses below TINY and outcomes below CUT.
    from engine.odds import aa_merged_kernel  # noqa: F401  (numba loaded)

    setup, _ = setup_battle(AABattle.parse("20 inf, 5 art, 5 tank, 4 fig", "24 inf, 4 art, 2 tank, 2 fig"), 1.0)
    engine = TableEngine(setup)
    rng = np.random.default_rng(seed)
    K, C, La = 9, engine.C, 14
    rows = rng.random((K, C)) * 10.0 ** rng.integers(-30, 0, size=(K, C))
    rows[:, : int(rng.integers(0, 6))] = 1e-22  # a first live column below TINY
    lims = rng.integers(0, C + 1, size=K)
    lims[0] = C
    A = rng.random((K, La)) ** 6
    A[:, 0] += 0.5
    A[:, -3:] = 1e-21  # outcomes below CUT in every row
    A /= A.sum(axis=1, keepdims=True)
    (got, dropped, rounds), (want, w_dropped, w_rounds) = _window_both(monkeypatch, engine, rows, lims, A)
    assert got is not None and want is not None
    assert got[1] == want[1] and np.array_equal(got[0], want[0])
    assert (got[2] > 0).any()
    assert got[2] == pytest.approx(want[2], rel=1e-13, abs=1e-300)
    assert dropped == pytest.approx(w_dropped, rel=1e-12) and dropped > 0
    assert rounds == pytest.approx(w_rounds, rel=1e-12) and rounds > 0


def test_the_compiled_rows_window_drops_rows_below_tiny_as_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every live mass below TINY: nothing is spread, all of it is left out (counted);
    # and a side with no hit beyond 0 (Ha = 0): no in-row move at all.
    from engine.odds import aa_merged_kernel  # noqa: F401

    setup, _ = setup_battle(AABattle.parse("6 inf, 2 tank", "7 inf, 1 art"), 1.0)
    engine = TableEngine(setup)
    C = engine.C
    light = np.full((3, C), 1e-21)
    lims = np.array([C, 2, 0])
    A = np.tile([0.4, 0.6], (3, 1))
    (got, dropped, _), (want, w_dropped, _) = _window_both(monkeypatch, engine, light, lims, A)
    assert got is None and want is None
    assert dropped == pytest.approx(w_dropped, rel=1e-14)
    assert dropped == pytest.approx(1e-21 * (C + 2), rel=1e-12)  # lims C, 2 and 0: C + 2 live cells
    heavy = np.full((2, C), 0.01)
    (got, _, rounds), (want, _, w_rounds) = _window_both(monkeypatch, engine, heavy, lims[:2], np.ones((2, 1)))
    assert got is not None and want is not None
    assert got[1] == want[1] == 0 and np.array_equal(got[0], want[0]) and not got[2].any()
    assert rounds == pytest.approx(w_rounds, rel=1e-14)
    assert rounds > 0


def test_the_compiled_after_table_is_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    # _after: the states h_lo .. h_hi - 1 casualties on, by one compiled loop where
    # numba is loaded, by numpy's takes otherwise: the same table.
    from engine.odds import aa_merged_kernel  # noqa: F401

    setup, _ = setup_battle(AABattle.parse("8 inf, 3 art, 3 tank, 4 fig, 3 bom", "12 inf, 1 aa"), 1.0)
    att = setup.attacker
    rng = random.Random(3)
    blocks = [att.start] + [tuple(rng.randint(0, n) for n in att.start) for _ in range(25)]
    _, _, next1 = _catalogue(att, blocks)
    first = np.array(rng.sample(range(len(next1)), 40), dtype=np.int64)
    for h_lo, h_hi in ((0, 5), (3, 12), (2, 2), (0, 40)):
        compiled_table = _after(next1, first, h_lo, h_hi)
        monkeypatch.setattr(aa_merged.compiled, "numba_loaded", lambda: False)
        want = _after(next1, first, h_lo, h_hi)
        monkeypatch.undo()
        assert compiled_table.shape == want.shape == (h_hi - h_lo, 40)
        assert np.array_equal(compiled_table, want)
        if h_hi > h_lo:  # each row one casualty on from the row before
            assert np.array_equal(compiled_table[1:], next1[compiled_table[:-1]])


@pytest.mark.parametrize(("attacker", "defender", "mode"), [
    ("9 inf, 4 art, 3 tank, 5 fig, 4 bom", "12 inf, 1 aa", "land"),
    ("3 bat, 2 cru, 2 car, 4 fig, 2 bom", "2 bat, 3 des", "sea"),  # a battleship's first hit moves it
])  # fmt: skip
def test_the_compiled_walk_catalogues_the_states_as_the_chains_do(
    monkeypatch: pytest.MonkeyPatch, attacker: str, defender: str, mode: str
) -> None:
    # The compiled walk stops each block's sequence at the first state met before; the
    # states, their numbers, hit points, next states and the blocks' first states are
    # those of every sequence in full.
    from engine.odds import aa_merged_kernel  # noqa: F401

    setup, _ = setup_battle(AABattle.parse(attacker, defender, mode=mode), 1.0)
    att = setup.attacker
    rng = random.Random(11)
    full = att.start
    blocks = [full] + [tuple(rng.randint(0, n) for n in full) for _ in range(60)] + [tuple(0 for _ in full)]
    blocks += blocks[5:9]  # blocks met twice
    walked = aa_merged._catalogue_rows(att, blocks)
    monkeypatch.setattr(aa_merged.compiled, "numba_loaded", lambda: False)
    want = aa_merged._catalogue_rows(att, blocks)
    assert len(walked[0]) == len(want[0]) > len(blocks)
    assert list(walked[0]) == list(want[0])
    for got_part, want_part in zip(walked[1:], want[1:]):
        assert got_part.dtype == want_part.dtype and np.array_equal(got_part, want_part)
    # A walk that meets a state with other hit points than its own: sequences disagree.
    from engine.odds.aa_merged_kernel import chain_catalogue

    B = np.array([[2, 0], [1, 1]], dtype=np.int64)  # one run of slot 0, then one of slot 1
    src, tgt = np.array([0, 1], dtype=np.int64), np.array([-1, -1], dtype=np.int64)
    mult = np.array([1, 3], dtype=np.int64)
    sv, hp, next1, starts, ok = chain_catalogue(B, B.copy(), src, tgt, mult, 9)
    assert ok and sv.tolist() == [[2, 0], [1, 0], [0, 0], [1, 1], [0, 1]]
    assert hp.tolist() == [2, 1, 0, 2, 1] and next1.tolist() == [1, 2, 2, 4, 2] and starts.tolist() == [0, 3]
    same = np.array([[1, 1], [1, 1]], dtype=np.int64)
    *_, ok = chain_catalogue(same, np.array([[1, 1], [1, 0]], dtype=np.int64), src, tgt, mult, 9)
    assert not ok  # the second block's (1, 1) claims 1 casualty left, the first's 2
    *_, ok = chain_catalogue(np.array([[1, 0]], dtype=np.int64), np.array([[2, 0]], dtype=np.int64), src, tgt, mult, 9)
    assert not ok  # two casualties of slot 0, which holds one


def test_the_compiled_add_at_is_numpys_add_at() -> None:
    # A joined wave's starts put on their cells: the compiled loop adds in order, as
    # np.add.at does (repeated cells included), the same sums bit for bit.
    from engine.odds.aa_merged_kernel import add_at

    rng = np.random.default_rng(2)
    at = rng.integers(0, 50, size=4000)
    w = rng.random(4000) * 10.0 ** rng.integers(-20, 0, size=4000)
    want, got = rng.random(50), np.zeros(50)
    got[:] = want
    np.add.at(want, at, w)
    add_at(got, at, w)
    assert np.array_equal(got, want) and len(np.unique(at)) < len(at)


def test_pairs_kept_are_summed_alike_by_a_table_of_cells_or_sorted(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pairs still fighting after a round limit, summed by (state, column): by
    # sum_by's table of every key where they are few, else sorted; the same pairs, and
    # each pair's mass the sum of its cells.
    from engine.odds import aa_table

    battle = AABattle.parse("12 inf, 4 art, 6 fig, 6 bom", "16 inf, 2 tank, 1 fig, 1 aa", rounds=2)
    setup, _ = setup_battle(battle, 1.0)
    engine = MergedTable(setup)
    engine.pairs = []
    engine.run(2)
    assert len(engine.pairs) > 1
    kept = engine.pairs + engine.pairs[:1]  # a state's cells met twice: summed
    dense = engine._pair_table(kept)
    monkeypatch.setattr(aa_table, "DENSE_KEYS", -(10**12))  # every range "big": sorted
    by_sorting = engine._pair_table(kept)
    assert dense.attackers == by_sorting.attackers and len(dense.a) > 100
    for name in ("a", "d", "w"):
        assert np.array_equal(getattr(dense, name), getattr(by_sorting, name)), name
    want: dict[tuple[Any, Any], float] = {}
    for states, rows in kept:
        for n, c in zip(*np.nonzero(rows)):
            key = (tuple(engine.sv[states[n]].tolist()), engine.d_tab.states[c])
            want[key] = want.get(key, 0.0) + float(rows[n, c])
    assert dict(dense) == pytest.approx(want, rel=1e-13)


def test_the_compiled_clear_outside_leaves_each_rows_window() -> None:
    # Settled rows keep only the cells that fight on, cut <= c < lim per row (limits
    # of 0, inside, and past the row's end): the mask numpy used, cell for cell.
    from engine.odds.aa_merged_kernel import clear_outside

    rng = np.random.default_rng(4)
    rows = rng.random((7, 12))
    lo = np.array([0, 3, 5, 0, 12, 4, 2], dtype=np.int64)
    hi = np.array([12, 9, 5, 0, 12, 20, 1], dtype=np.int64)
    cols = np.arange(12)[None, :]
    want = np.where((cols >= lo[:, None]) & (cols < hi[:, None]), rows, 0.0)
    got = rows.copy()
    clear_outside(got, lo, hi)
    assert np.array_equal(got, want) and want[1].any() and not want[2].any()


@pytest.mark.parametrize("kind", [np.int16, np.int64])
def test_row_ids_by_a_table_of_keys_are_numpys_unique_rows(monkeypatch: pytest.MonkeyPatch, kind: Any) -> None:
    # row_ids numbers distinct rows as numpy.unique(rows, axis=0) does: by a table of
    # every key where numba is loaded and the table is small, else sorted.  Rows with
    # repeats, a negative count and too many keys for the table (both sorted instead).
    from engine.odds import aa_merged_kernel, aa_table
    from engine.odds.aa_table import row_ids

    rng = np.random.default_rng(8)
    rows = rng.integers(0, 6, size=(3000, 5)).astype(kind)
    rows[100:200] = rows[:100]
    calls: list[bool] = []
    real = aa_merged_kernel.dense_row_ids

    def spy(r: Any, limit: int) -> Any:
        got = real(r, limit)
        calls.append(bool(got[2]))
        return got

    monkeypatch.setattr(aa_merged_kernel, "dense_row_ids", spy)
    _, want_first, want_ids = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    first, ids = row_ids(rows)
    assert calls == [True]
    assert np.array_equal(first, want_first) and np.array_equal(ids, want_ids.ravel())
    negative = rows.copy()
    negative[7, 2] = -1
    _, want_first, want_ids = np.unique(negative, axis=0, return_index=True, return_inverse=True)
    first, ids = row_ids(negative)
    assert calls == [True, False]
    assert np.array_equal(first, want_first) and np.array_equal(ids, want_ids.ravel())
    monkeypatch.setattr(aa_table, "DENSE_KEYS", -8 * len(rows) + 10)  # a table of 10 keys at most
    first, ids = row_ids(rows)
    assert calls == [True, False, False]
    _, want_first, want_ids = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    assert np.array_equal(first, want_first) and np.array_equal(ids, want_ids.ravel())


def test_the_folded_column_compiled_or_not_is_the_same_bit_for_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    # shared_spread's folded column (every hit count that destroys the defender, summed
    # into its last live column): its factor by one compiled pass where numba is
    # loaded, by numpy's suffix table otherwise; keeps before, inside and past the rows.
    from engine.odds import aa_merged_kernel  # noqa: F401
    from engine.odds import aa_table
    from engine.odds.aa_table import _folded

    rng = np.random.default_rng(9)
    xT, DT, A = rng.random((30, 11)), rng.random((7, 30)), rng.random((11, 9))
    for keep in (1, 5, 20, 45):
        got = _folded(xT, DT, A, keep)
        monkeypatch.setattr(aa_table.compiled, "numba_loaded", lambda: False)
        want = _folded(xT, DT, A, keep)
        monkeypatch.undo()
        assert got.shape == (7, 11) and np.array_equal(got, want)


def test_a_levels_rows_with_mass_are_gathered_as_numpy_would() -> None:
    # A level's states whose rows hold some mass, in order, with copies of those rows:
    # the compiled pass against numpy's gather and filter.
    from engine.odds.aa_merged_kernel import rows_with_mass

    rng = np.random.default_rng(6)
    table = rng.random((40, 9)) * (rng.random((40, 1)) < 0.5)  # about half the rows empty
    row_of = rng.permutation(40).astype(np.int64)
    ids = np.array([3, 17, 0, 39, 8, 22, 5], dtype=np.int64)
    kept, rows = rows_with_mass(table, row_of, ids)
    gathered = table[row_of[ids]]
    has = gathered.max(axis=1) > 0
    assert 0 < has.sum() < len(ids)
    assert np.array_equal(kept, ids[has]) and np.array_equal(rows, gathered[has])
    rows[:] = -1.0  # a copy: the table is left as it was
    assert (table >= 0).all()


def test_sum_by_counts_small_keys_and_sorts_big_ones_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    # sum_by: keys of a small range counted on a table of every key, others sorted;
    # the same distinct keys and the same sums bit for bit (each key's terms in order).
    from engine.odds import aa_table
    from engine.odds.aa_table import sum_by

    rng = np.random.default_rng(12)
    keys = rng.integers(0, 300, size=5000)
    w = rng.random(5000) * 10.0 ** rng.integers(-18, 0, size=5000)
    dense = sum_by(keys, w)
    monkeypatch.setattr(aa_table, "DENSE_KEYS", -(10**9))  # every range "big": sorted
    by_sorting = sum_by(keys, w)
    assert len(dense[0]) < len(keys) and np.array_equal(dense[0], by_sorting[0])
    assert np.array_equal(dense[1], by_sorting[1])
    assert np.array_equal(dense[0], np.unique(keys))


@pytest.mark.parametrize("fought", [True, False])
def test_plain_settling_compiled_or_not_records_the_same(monkeypatch: pytest.MonkeyPatch, fought: bool) -> None:
    # Rows with no retreat, round limit or stalemate: the compiled pass records the
    # defender's wins, draws and the attacker's wins (and what it takes), each final
    # column's mass and each row's, and leaves the same cells to fight on as numpy's
    # masks (sums to rounding).
    from engine.odds import aa_merged_kernel  # noqa: F401

    setup, _ = setup_battle(AABattle.parse("12 inf, 4 art, 6 fig, 6 bom", "16 inf, 2 tank, 1 fig, 1 aa"), 1.0)
    setup.defender_fought = fought  # (False: a defender of AA guns alone, say)
    rng = np.random.default_rng(13)
    engine = MergedTable(setup)
    engine._begin()
    K, C = 40, engine.C
    rows = rng.random((K, C)) * 10.0 ** rng.integers(-20, 0, size=(K, C))
    alive = rng.random(K) < 0.7
    quiet = rng.random(K) < 0.3
    takes = rng.random(K) < 0.5
    zeros = np.zeros(K, dtype=bool)
    got = []
    for loaded in (True, False):
        monkeypatch.setattr(aa_merged.compiled, "numba_loaded", lambda _v=loaded: _v)
        engine._begin()
        r = rows.copy()
        lims, per_row = engine._settle_many(r, alive, quiet, zeros, np.zeros(K, dtype=np.int64),
                                            np.zeros((K, 2), dtype=np.int64), takes, False, np.arange(K))  # fmt: skip
        got.append((r, lims, per_row, dict(engine.counts), engine.d_end.copy(), engine.takes))
    (r1, l1, p1, c1, d1, t1), (r2, l2, p2, c2, d2, t2) = got
    assert np.array_equal(r1, r2) and np.array_equal(l1, l2) and (l1 > 0).any() and (l1 == 0).any()
    assert p1 == pytest.approx(p2, rel=1e-13) and d1 == pytest.approx(d2, rel=1e-13)
    assert set(c1) == set(c2) and all(c1[k] == pytest.approx(c2[k], rel=1e-13) for k in c1)
    assert c1["defender"] > 0 and c1["attacker"] > 0 and (c1.get("draw", 0) > 0) == fought
    assert t1 == pytest.approx(t2, rel=1e-13) and t1 > 0
