"""The sea solve's compiled loops (engine.odds.aa_naval_kernel.spread, and spread_stored
reading the parts where the sides stored them): the same table and the same mass left
out as the numpy path they replace where numba is loaded (engine.odds.aa_naval._pruned
then _spread), on random parts and on whole battles."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

import numpy as np
import pytest

from engine.odds import aa_naval, aa_naval_kernel, aa_strike
from engine.odds.aa import AABattle, aa_odds
from engine.odds.aa_battle import TINY
from tests.odds.helpers import assert_same_odds


def _parts(rng: np.random.Generator, n_parts: int, rows: int, cols: int) -> tuple[Any, ...]:
    la = rng.integers(1, 6, n_parts)
    ld = rng.integers(1, 8, n_parts)
    a_val = rng.random(int(la.sum())) * 10.0 ** rng.integers(-22, 0, int(la.sum()))  # some below TINY
    d_val = rng.random(int(ld.sum())) * 10.0 ** rng.integers(-12, 0, int(ld.sum()))
    return (rng.integers(0, rows, int(la.sum())), a_val, la, rng.integers(0, cols, int(ld.sum())), d_val, ld)


def _counting(monkeypatch: pytest.MonkeyPatch, name: str, weigh: Callable[..., int] = lambda *args: 1) -> list[int]:
    """Each call of the loop ``aa_naval_kernel.<name>`` from now on, weighed by
    ``weigh(*its arguments)``, in a list (the loop still runs)."""
    calls: list[int] = []
    loop = getattr(aa_naval_kernel, name)

    def counted(*args: Any) -> Any:
        calls.append(weigh(*args))
        return loop(*args)

    monkeypatch.setattr(aa_naval_kernel, name, counted)
    return calls


def _numpy_only(monkeypatch: pytest.MonkeyPatch, step: Callable[..., Any]) -> Callable[..., Any]:
    """``step`` taking its numpy path even where numba is loaded."""

    def plain(*args: Any) -> Any:
        with monkeypatch.context() as inner:
            inner.setattr(aa_naval.compiled, "numba_loaded", lambda: False)
            return step(*args)

    return plain


def test_the_loop_spreads_and_prunes_as_numpy_does() -> None:
    rng = np.random.default_rng(44)
    pruned_some = 0
    for _ in range(30):
        a_idx, a_val, la, d_idx, d_val, ld = _parts(rng, int(rng.integers(1, 40)), 9, 7)
        want = np.zeros((9, 7))
        a2, v2, la2, d2, dv2, ld2, _, want_dropped = aa_naval._pruned(a_idx, a_val, la, d_idx, d_val, ld)
        aa_naval._spread(want, a2, v2, la2, d2, dv2, ld2)
        got = np.zeros((9, 7))
        dropped = aa_naval_kernel.spread(got, a_idx, a_val, la, d_idx, d_val, ld, TINY)
        assert np.abs(got - want).max() <= 1e-15 * max(1.0, float(np.abs(want).max()))
        assert dropped == pytest.approx(want_dropped, rel=1e-12, abs=1e-300)
        pruned_some += want_dropped > 0
    assert pruned_some > 10


def test_battles_give_the_same_answer_through_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    # Submarines and aircraft on both sides without a destroyer (the solve's parts come
    # from its held-back and split casualties) and a fleet with destroyers: every round's
    # products through the loop, or none.
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    calls = _counting(monkeypatch, "spread_stored", lambda *args: int(args[4][args[2]] @ args[9][args[7]]))  # products
    held = _counting(monkeypatch, "spread_held", lambda *args: int(args[3] @ args[6][args[4]]))  # general fire held back
    for attacker, defender in (("4 sub, 2 cru, 1 bat, 3 fig", "4 sub, 2 car, 1 bat, 3 fig"),
                               ("3 sub, 2 des, 2 cru, 1 car, 2 fig", "4 sub, 2 des, 1 bat, 1 car, 1 fig")):  # fmt: skip
        battle = AABattle.parse(attacker, defender, mode="sea")
        monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: False)  # numba not loaded
        monkeypatch.setattr(aa_naval, "COMPILED_PRODUCTS", 10**18)
        plain = aa_odds(battle, engine="general")
        assert not calls and not held
        monkeypatch.setattr(aa_naval, "COMPILED_PRODUCTS", 0)
        compiled = aa_odds(battle, engine="general")
        assert len(calls) > 5 and sum(calls) > 1_000, (len(calls), sum(calls))
        calls.clear()
        if "des" not in attacker + defender:
            assert len(held) > 5 and sum(held) > 1_000, (len(held), sum(held))
        held.clear()
        assert 0.01 < compiled.attacker_win < 0.99
        for key in ("attacker_win", "defender_win", "draw", "stalemate", "expected_rounds", "tuv_swing"):
            assert getattr(compiled, key) == pytest.approx(getattr(plain, key), abs=1e-13), key
        assert compiled.error_bound == pytest.approx(plain.error_bound, rel=1e-9, abs=1e-25)


def _stored_results(rng: np.random.Generator, n_res: int, rows: int) -> tuple[Any, Any, Any, Any]:
    """Results stored flat as a side stores them: offsets and lengths per result (not
    always end to end), entries (int32 table rows or columns) and chances, some tiny."""
    lens = rng.integers(1, 7, n_res)
    gap = rng.integers(0, 3, n_res)
    off = np.cumsum(lens + gap) - lens
    size = int(off[-1] + lens[-1]) + 2
    idx = rng.integers(0, rows, size).astype(np.int32)
    p = rng.random(size) * 10.0 ** rng.integers(-14, 0, size)
    return off.astype(np.int64), lens.astype(np.int64), idx, p


def test_the_stored_parts_spread_as_the_gathered_ones() -> None:
    # Results stored flat as the sides store them (entries int32, offsets and lengths per
    # result), parts naming them with a scale each, some results used by many parts:
    # spread_stored (both sides' results stored) and spread_held (the attacker's flat)
    # give the table and the mass left out of gathering the parts first (each attacker
    # chance times its part's scale) in the order they spread them (their own;
    # held_order) and spreading them, bit for bit.
    rng = np.random.default_rng(45)
    for _ in range(30):
        tables = [_stored_results(rng, n_res, rows)
                  for n_res, rows in ((int(rng.integers(1, 12)), 9), (int(rng.integers(1, 12)), 7))]
        (a_off, a_len, a_idx, a_p), (d_off, d_len, d_idx, d_p) = tables
        n_parts = int(rng.integers(1, 30))
        a_ids = rng.integers(0, len(a_off), n_parts)
        d_ids = rng.integers(0, len(d_off), n_parts)
        scale = rng.random(n_parts) * 10.0 ** rng.integers(-10, 1, n_parts)  # some products below TINY
        a_pos = np.concatenate([np.arange(a_off[k], a_off[k] + a_len[k]) for k in a_ids])
        flat_rows, flat_vals = a_idx[a_pos].astype(np.int64), a_p[a_pos] * np.repeat(scale, a_len[a_ids])
        starts = np.cumsum(a_len[a_ids]) - a_len[a_ids]

        def gathered(order: Any) -> tuple[Any, float]:
            """The parts in ``order``, gathered, spread by the plain loop."""
            a_at = np.concatenate([np.arange(starts[k], starts[k] + a_len[a_ids[k]]) for k in order])
            d_at = np.concatenate([np.arange(d_off[k], d_off[k] + d_len[k]) for k in d_ids[order]])
            want = np.zeros((9, 7))
            want_dropped = aa_naval_kernel.spread(want, flat_rows[a_at], flat_vals[a_at], a_len[a_ids[order]],
                                                  d_idx[d_at].astype(np.int64), d_p[d_at], d_len[d_ids[order]], TINY)
            return want, want_dropped

        got = np.zeros((9, 7))
        dropped = aa_naval_kernel.spread_stored(got, scale, a_ids, a_off, a_len, a_idx, a_p, d_ids, d_off, d_len,
                                                d_idx, d_p, TINY)  # fmt: skip
        want, want_dropped = gathered(np.arange(n_parts))
        assert np.array_equal(got, want)
        assert dropped == want_dropped
        assert got.any()
        # The attacker's entries flat, the defender's stored (general fire held back).
        held = np.zeros((9, 7))
        dropped = aa_naval_kernel.spread_held(held, flat_rows, flat_vals, a_len[a_ids], d_ids, d_off, d_len, d_idx, d_p,
                                              TINY)  # fmt: skip
        order, held_starts = aa_naval_kernel.held_order(flat_rows, a_len[a_ids], 9)
        assert np.array_equal(held_starts, starts)
        want, want_dropped = gathered(order)
        assert np.array_equal(held, want)
        assert dropped == want_dropped


def test_held_parts_are_spread_by_their_middle_rows() -> None:
    # held_order: parts by the table row of their middle attacker entry (entry la // 2),
    # ties in their own order: numpy's stable argsort of those rows; and where each
    # part's entries start.
    rng = np.random.default_rng(47)
    for _ in range(50):
        la = rng.integers(1, 6, int(rng.integers(1, 40)))
        rows = rng.integers(0, 12, int(la.sum()))
        order, starts = aa_naval_kernel.held_order(rows, la, 12)
        assert np.array_equal(starts, np.cumsum(la) - la)
        assert np.array_equal(order, np.argsort(rows[starts + la // 2], kind="stable"))
        middle = rows[starts[order] + la[order] // 2]
        assert np.all(np.diff(middle) >= 0)


def test_the_chances_backward_mixes_stored_parts_as_numpy_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # The chances backward of a retreat by win chance (A-10.15; NavalSolver.win_chances): per part
    # (an attacker result, a defender result, a mass) the sum of both chances times the
    # complex table at each product the spreading keeps (real: the chance to win; imaginary:
    # of a step left out, plus the products left out).  The compiled loop reading the
    # stored results gives numpy's sums (to rounding), parts left out whole included.
    rng = np.random.default_rng(46)
    left_out = mixed = 0
    for _ in range(40):
        sides = []
        for n_res, rows in ((int(rng.integers(1, 12)), 9), (int(rng.integers(1, 12)), 14)):
            off, lens, idx, p = _stored_results(rng, n_res, rows)
            side = SimpleNamespace(res_off=off, res_len=lens, res_idx=SimpleNamespace(data=idx),
                                   res_p=SimpleNamespace(data=p))  # fmt: skip
            side.gather = lambda ids, side=side: aa_naval._Numbered.gather(side, ids)  # type: ignore[arg-type]
            sides.append(side)
        A, D = sides
        n_parts = int(rng.integers(1, 30))
        a_ids = rng.integers(0, len(A.res_off), n_parts)
        d_ids = rng.integers(0, len(D.res_off), n_parts)
        scale = rng.random(n_parts) * 10.0 ** rng.integers(-12, 1, n_parts)  # some parts wholly below TINY
        both = rng.random((9, 14)) + 1j * rng.random((9, 14))
        with monkeypatch.context() as numpy_path:
            numpy_path.setattr(aa_naval.compiled, "numba_loaded", lambda: False)
            want = aa_naval._bilinear(A, D, a_ids, d_ids, scale, both)  # type: ignore[arg-type]
        got = aa_naval_kernel.bilinear_stored(both, scale, a_ids, A.res_off, A.res_len, A.res_idx.data, A.res_p.data,
                                              d_ids, D.res_off, D.res_len, D.res_idx.data, D.res_p.data, TINY)  # fmt: skip
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.abs(got - want).max() <= 1e-15 * max(1.0, float(np.abs(want).max()))
        left_out += int((want == 1j).sum())
        mixed += int((want.real > 0).sum())
    assert mixed > 100
    assert left_out > 3  # parts with every product below TINY: nothing mixed, all of it left out


def test_a_levels_cells_are_taken_out_by_the_loop_as_by_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    # NavalSolver._level: the pairs of slots whose states' hit points make up the level
    # and hold mass in either phase (S: column 2 d, G: 2 d + 1), taken out of the table.
    # The compiled loop (level_cells) finds the same cells in the same order, the same
    # masses, and leaves the same table (the level's cells zero, every other untouched).
    rng = np.random.default_rng(47)
    found = 0
    for _ in range(30):
        rows, cols = int(rng.integers(1, 30)), int(rng.integers(1, 30))
        sides = []
        for n in (rows, cols):
            hp = rng.integers(0, 12, n)
            order = np.argsort(hp, kind="stable")
            sides.append(SimpleNamespace(by_hp_sorted=lambda order=order, hp=hp: (order, hp[order])))
        solver = SimpleNamespace(A=sides[0], D=sides[1])
        table = np.where(rng.random((rows, 2 * cols)) < 0.3, rng.random((rows, 2 * cols)), 0.0)
        level = int(rng.integers(0, 24))
        got = []
        for loaded in (False, True):
            mine = table.copy()
            monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loaded)
            got.append((aa_naval.NavalSolver._level(solver, mine, level), mine))  # type: ignore[arg-type]
        (want, want_table), (have, have_table) = got
        assert np.array_equal(want_table, have_table)
        assert (want is None) == (have is None)
        if want is not None and have is not None:
            for a, b in zip(want, have):
                assert np.array_equal(a, b) and a.dtype == b.dtype
            found += len(want[0])
            assert not have_table[have[0], 2 * have[1]].any() and not have_table[have[0], 2 * have[1] + 1].any()
    assert found > 50


def test_warm_compiles_the_loop_for_the_engines_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    # warm compiles the one signature the engine's battles use: after it, battles of
    # every kind that reach the loops compile nothing more (a second signature would
    # make the first such battle wait for numba).
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    aa_naval_kernel.warm()
    kinds = {"spread": 1, "spread_stored": 1, "spread_held": 1, "tables_cells": 1, "cells_stored": 2,
             "slots_mended": 1, "along_cells": 1, "radix_sorted": 1, "runs_summed": 2, "placed": 1,
             "by_level": 1}  # signatures
    loops = {name: getattr(aa_naval_kernel, name) for name in kinds}
    signatures = {name: list(loop.signatures) for name, loop in loops.items()}
    assert {name: len(sig) for name, sig in signatures.items()} == kinds, signatures
    calls = {name: _counting(monkeypatch, name) for name in loops}
    monkeypatch.setattr(aa_naval, "COMPILED_PRODUCTS", 0)
    for attacker, defender, options in (
        ("3 sub, 2 cru, 2 fig", "2 sub, 1 car, 2 fig", {}),
        ("3 sub, 1 des, 1 bat", "3 sub, 1 des, 1 cru", {"rounds": 2}),
        ("4 sub, 1 bat, 2 bom", "3 cru, 1 car, 2 fig", {"retreat_chance": 40.0}),
    ):
        aa_odds(AABattle.parse(attacker, defender, mode="sea", **options), engine="general")
    assert len(calls["spread_stored"]) > 3
    assert len(calls["spread_held"]) > 0  # subs on both sides, no destroyer
    assert len(calls["tables_cells"]) > 0  # aircraft and submarines hit at once
    assert len(calls["cells_stored"]) > 0 and len(calls["slots_mended"]) > 0 and len(calls["along_cells"]) > 0
    assert len(calls["spread"]) > 0  # a round limit's walk
    assert len(calls["runs_summed"]) > 0 and len(calls["placed"]) > 0  # general fire held back, split
    assert len(calls["by_level"]) > 0
    for name, loop in loops.items():
        assert list(loop.signatures) == signatures[name], name


def test_restricted_casualties_are_binned_by_the_loop_as_bincount_bins_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # a side hit at once by submarines (never its aircraft), by aircraft
    # (never its submarines, without a friendly destroyer) and by other ships: its
    # casualty distributions binned by the compiled loop, the same sums in the same
    # order as np.bincount's where no rows run together (test_runs_of_rows_are_binned_as_
    # their_cells_one_by_one), so the same answer bit for bit; warm's one signature
    # serves.
    # (The held entries' merge and the split hits' cells numpy's both ways: the compiled
    # merge adds in another order, the mass left out by the compiled cells too.)
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    monkeypatch.setattr(aa_naval, "COMPILED_PRODUCTS", 0)  # the products through their loop both ways
    for name in ("_merged", "_placed"):
        monkeypatch.setattr(aa_naval, name, _numpy_only(monkeypatch, getattr(aa_naval, name)))
    aa_naval_kernel.warm()
    loop = aa_naval_kernel.restricted_bins
    calls = _counting(monkeypatch, "restricted_bins")
    for attacker, defender in (("4 sub, 2 cru, 1 bat, 3 fig", "4 sub, 2 car, 1 bat, 3 fig"),
                               ("2 des, 3 cru, 1 car, 2 fig", "1 des, 4 sub, 1 bat, 1 car, 1 fig")):  # fmt: skip
        battle = AABattle.parse(attacker, defender, mode="sea")
        monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: False)
        plain = aa_odds(battle, engine="general")
        assert not calls
        monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: True)
        looped = aa_odds(battle, engine="general")
        assert len(calls) > 3, (attacker, len(calls))
        calls.clear()
        assert 0.01 < looped.attacker_win < 0.99
        assert looped == plain
    assert len(loop.signatures) == 1  # type: ignore[attr-defined]


def _run_table(rng: np.random.Generator, ns: int, na: int, width: int) -> tuple[Any, Any]:
    """A table of where hits land (``local[hs, ha, hy]``) made of runs of rows, each row
    of a run its first row read further along (the last cell past the end), and the
    runs :func:`aa_naval_kernel.row_runs` should find: ``h1`` at a run's first row, -1
    at the others."""
    local = np.zeros((ns, na, width), dtype=np.int32)
    want = np.full((ns, na), -1, dtype=np.int32)
    for ha in range(na):
        h0 = 0
        for hs in range(ns):
            follows = local[h0, ha, np.minimum(np.arange(width) + hs - h0, width - 1)]
            if hs == 0 or rng.random() < 0.4:  # a new run: any row but the one that follows
                row = rng.integers(0, 40, width).astype(np.int32)
                while hs and np.array_equal(row, follows):
                    row = rng.integers(0, 40, width).astype(np.int32)
                local[hs, ha] = row
                if hs:
                    want[h0, ha] = hs
                h0 = hs
            else:
                local[hs, ha] = follows
        want[h0, ha] = ns
    return local, want


def test_runs_of_rows_are_binned_as_their_cells_one_by_one() -> None:
    # where a side's submarine hits land where its other hits would (its
    # submarines lead its loss order), the rows of its table for 0, 1, 2 ... submarine
    # hits are one row read further along; restricted_bins adds such a run at once (the
    # submarine hits convolved with the others) and must put on every state what adding
    # every cell one by one puts there (to rounding), items smaller than the table
    # cutting runs short, a run read past its row's end at its last state; with every
    # row alone, the same numbers as np.bincount's bit for bit, one product a cell.
    rng = np.random.default_rng(61)
    ran = 0
    for _ in range(60):
        ns, na, width = (int(v) for v in rng.integers(1, 7, 3) + np.array([0, 0, 1]))
        local, want = _run_table(rng, ns, na, width)
        runs = aa_naval_kernel.row_runs(local)
        assert np.array_equal(runs, want)
        ran += int((want > np.arange(1, ns + 1)[:, None]).sum())
        n_items = int(rng.integers(1, 5))
        n_s = rng.integers(1, ns + 1, n_items)
        n_a = rng.integers(1, na + 1, n_items)
        n_y = rng.integers(1, width + 3, n_items)  # more hits than the row's cells, or fewer
        row_len = np.minimum(n_y, width)
        dists = [rng.random(int(n)) for k in range(n_items) for n in (n_s[k], n_a[k], n_y[k])]
        lengths = np.array([len(dd) for dd in dists])
        starts = np.cumsum(lengths) - lengths
        so, ao, yo = starts[0::3], starts[1::3], starts[2::3]
        d = np.concatenate(dists)
        dtail = np.concatenate([np.cumsum(dd[::-1])[::-1] for dd in dists])
        off = np.arange(n_items) * 40
        want_pl = np.zeros(40 * n_items)
        cells = 0
        for k in range(n_items):  # every cell, one by one, as the numpy path adds them
            n = int(row_len[k])
            for hs in range(n_s[k]):
                for ha in range(n_a[k]):
                    for hy in range(n):
                        p_y = dtail[yo[k] + hy] if hy == n - 1 else d[yo[k] + hy]
                        want_pl[local[hs, ha, hy] + off[k]] += p_y * (d[so[k] + hs] * d[ao[k] + ha])
                        cells += 1
        tstore = local.ravel()
        zero = np.zeros(n_items, dtype=np.int64)
        strides = (np.full(n_items, na * width), np.full(n_items, width))
        for table_runs in (runs, np.repeat(np.arange(1, ns + 1, dtype=np.int32)[:, None], na, axis=1)):
            got = np.zeros_like(want_pl)
            work = aa_naval_kernel.restricted_bins(got, tstore, table_runs.ravel(), d, dtail, so, ao, yo, n_s, n_a,
                                                   row_len, zero, zero, *strides, off)  # fmt: skip
            if table_runs is runs:
                assert np.allclose(got, want_pl, rtol=1e-13, atol=0.0)
            else:
                assert np.array_equal(got, want_pl) and work == cells
    assert ran > 50  # runs of two rows or more were met
    # One run of 6 rows for each of 5 aircraft hits, rows of 8 cells (240): the run's
    # convolution (6 x 8 products) and 5 rows of 6 + 7 cells.
    local = np.repeat(np.minimum(np.arange(6)[:, None] + np.arange(8)[None, :], 7)[:, None, :], 5, axis=1)
    local = (local + 8 * np.arange(5)[None, :, None]).astype(np.int32)
    runs = aa_naval_kernel.row_runs(local)
    assert runs[0].tolist() == [6] * 5 and (runs[1:] == -1).all()
    cut = local.copy()
    cut[3, 0, 7] = 99  # row 3 differs in its last cell (rows 4 and 5 read it past their end)
    cut[2, 1, 0] = 99  # row 2 in its first cell, which no later row reads
    assert aa_naval_kernel.row_runs(cut)[:, :2].T.tolist() == [[3, -1, -1, 4, 6, -1], [2, -1, 6, -1, -1, -1]]
    d = np.concatenate([np.full(6, 1 / 6), np.full(5, 0.2), np.full(8, 0.125)])
    dtail = np.concatenate([np.cumsum(dd[::-1])[::-1] for dd in (d[:6], d[6:11], d[11:])])
    one = lambda v: np.array([v], dtype=np.int64)  # noqa: E731
    got = np.zeros(40)
    work = aa_naval_kernel.restricted_bins(got, local.ravel(), runs.ravel(), d, dtail, one(0), one(6), one(11), one(6),
                                           one(5), one(8), one(0), one(0), one(40), one(8), one(0))  # fmt: skip
    assert work == 6 * 8 + 5 * (6 + 7)
    want = np.zeros(40)
    np.add.at(want, local.ravel(), np.full(240, 1 / 240))
    assert np.allclose(got, want, rtol=1e-13, atol=0.0)


def test_hits_along_chains_are_binned_as_numpys() -> None:
    # A batch of items (a distribution of hits along a chain each, chains shorter and
    # longer than the distributions): the compiled pass puts each cell where numpy's
    # bincount of _along puts it, the tail sum at a short chain's last state, the same
    # numbers, and counts the same cells.
    rng = np.random.default_rng(49)
    for _ in range(40):
        n_items = int(rng.integers(1, 12))
        n_c = rng.integers(1, 9, n_items)
        n_d = rng.integers(1, 9, n_items)
        dists = [rng.random(int(n)) for n in n_d]
        store = np.concatenate(dists)
        tails = np.concatenate([np.cumsum(d[::-1])[::-1] for d in dists])
        d_off = np.cumsum(n_d) - n_d
        target = SimpleNamespace(cells=0, dstore=SimpleNamespace(data=store), dtail=SimpleNamespace(data=tails))
        kk, h, w = aa_naval._along(target, n_c, d_off, n_d)  # type: ignore[arg-type]
        off = np.cumsum(n_c) - n_c
        want = np.bincount(off[kk] + h, w, minlength=int(n_c.sum()))
        got = np.zeros(int(n_c.sum()))
        cells = aa_naval_kernel.along_cells(got, off, n_c, d_off, n_d, store, tails)
        assert np.array_equal(got, want) and cells == target.cells == int(np.minimum(n_c, n_d).sum())
        short = np.flatnonzero(n_c < n_d)
        for k in short:  # every hit past a short chain's end on its last state
            assert got[off[k] + n_c[k] - 1] == tails[d_off[k] + n_c[k] - 1]


def _side_stores(slotted: Any, n_states: int, col: int) -> Any:
    """A side with only what storing results needs: its stores, results, and table
    slots (the states ``slotted`` have them, in that order)."""
    side = aa_naval._Numbered.__new__(aa_naval._Numbered)
    side.res_idx = aa_naval._Store(np.int32)
    side.res_p = aa_naval._Store(np.float64)
    side.n_res = 0
    side.res_off = np.zeros(4, dtype=np.int64)
    side.res_len = np.zeros(4, dtype=np.int64)
    side.stay = np.zeros(4)
    side.still = np.zeros(4, dtype=bool)
    side.slot_of = np.full(2 * n_states, -1, dtype=np.int64)
    side._slots = aa_naval._Store(np.int64)
    side.col = col
    side.slots(np.array(slotted, dtype=np.int64))
    return side


def test_cells_are_stored_as_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    # A batch's binned chances stored as results: the compiled pass writes the same
    # entries (table indices, chances), counts, chances of staying put (an item of one
    # state: chance 1, staying put only if that state is its target) and gives the
    # states new to the table the same slots as numpy's path (in the order of their
    # numbers), onto stores already holding results.
    rng = np.random.default_rng(48)
    for case in range(60):
        n_states = int(rng.integers(3, 60))
        n_items = int(rng.integers(1, 10))
        sizes = rng.integers(1, 9, n_items)
        off = np.cumsum(sizes) - sizes
        span = int(sizes.sum())
        pl = rng.random(span) * (rng.random(span) < 0.5)
        single = rng.random(n_items) < 0.3
        for k in np.flatnonzero(single):  # one cell with mass, at the target or not
            pl[off[k] : off[k] + sizes[k]] = 0.0
            pl[off[k] + int(rng.integers(0, sizes[k]))] = 0.7
        dtype = np.int64 if case % 2 else np.int32
        source = rng.integers(0, n_states, span + 20).astype(dtype)
        base = rng.integers(0, 20, n_items)
        ts = source[base].astype(np.int64)  # x = 0: the target itself
        slotted = rng.permutation(n_states)[: int(rng.integers(0, n_states))]
        col, shift = (1, 0) if case % 3 else (2, int(rng.integers(0, 2)))
        sides, got = [], []
        for loaded in (False, True):
            monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loaded)
            side = _side_stores(slotted, n_states, col)
            side.add_batch(np.array([1, 2], dtype=np.int64), np.array([0.5, 0.5]), np.array([2]), np.array([0.0]))
            got.append(aa_naval._stored_cells(side, ts, pl, off, span, source, base, shift))
            sides.append(side)
        plain, looped = sides
        assert np.array_equal(got[0], got[1])
        used = plain.res_idx.used
        assert looped.res_idx.used == used == looped.res_p.used == int((pl != 0).sum()) + 2
        assert np.array_equal(plain.res_idx.data[:used], looped.res_idx.data[:used])
        assert np.array_equal(plain.res_p.data[:used], looped.res_p.data[:used])
        n = plain.n_res
        assert looped.n_res == n == n_items + 1
        for name in ("res_off", "res_len", "stay", "still"):
            assert np.array_equal(getattr(plain, name)[:n], getattr(looped, name)[:n]), name
        assert np.array_equal(plain.slot_of, looped.slot_of) and np.array_equal(plain.slot_state, looped.slot_state)
        assert (plain.res_idx.data[:used] >= 0).all()
        for k in np.flatnonzero(single):  # one state for sure: staying put only at the target
            j = int(np.flatnonzero(pl[off[k] : off[k] + sizes[k]])[0])
            assert looped.still[1 + k] == (source[base[k] + j] == ts[k])
            assert looped.res_p.data[looped.res_off[1 + k]] == 1.0


def test_a_store_grows_in_place_keeping_its_items(monkeypatch: pytest.MonkeyPatch) -> None:
    # Past MAPPED_FROM bytes a store lives in a private mapping the system grows in place;
    # every item put stays where it was put, the room added is zeros, the array stays
    # writable; while a view of the old items is held elsewhere, growing copies into a
    # new mapping instead (the view still reads what it read).
    monkeypatch.setattr(aa_naval, "MAPPED_FROM", 1 << 12)
    store = aa_naval._Store(np.float64)
    offsets = [store.put(np.full(700, float(k))) for k in range(40)]
    mapping = store._map
    assert mapping is not None and store.data.flags.writeable
    offsets += [store.put(np.full(700, float(k))) for k in range(40, 80)]
    assert store._map is mapping  # grown in place
    view = store.data[:5]
    offsets += [store.put(np.full(5000, float(k))) for k in range(80, 90)]
    assert store._map is not mapping and np.array_equal(view, np.zeros(5))  # copied: the view kept
    for k, at in enumerate(offsets):
        n = 700 if k < 80 else 5000
        assert (store.data[at : at + n] == k).all()
    assert store.used == offsets[-1] + 5000 and (store.data[store.used :] == 0).all()
    at = store.reserve(3)
    store.data[at : at + 3] = 7.0
    assert (store.data[offsets[-1] : offsets[-1] + 5000] == 89).all() and store.used == at + 3


def test_battles_through_mapped_stores_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every store in a mapping from its first growth (and, in the bot, the big battles'):
    # the same answers as numpy's arrays, and the compiled loops take them as the arrays
    # warm() compiled for (no new signature).
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    aa_naval_kernel.warm()
    loops = [getattr(aa_naval_kernel, name) for name in ("spread_stored", "spread_held", "restricted_bins",
                                                          "cells_stored", "tables_cells", "placed")]  # fmt: skip
    signatures = [len(loop.signatures) for loop in loops]
    mapped_stores: list[int] = []
    real_mmap = aa_naval.mmap.mmap

    def counted(*args: Any, **kwargs: Any) -> Any:
        mapped_stores.append(args[1])
        return real_mmap(*args, **kwargs)

    monkeypatch.setattr(aa_naval.mmap, "mmap", counted)
    for attacker, defender, options in (
        ("4 sub, 2 cru, 1 bat, 3 fig", "4 sub, 2 car, 1 bat, 3 fig", {}),
        ("3 sub, 2 des, 2 fig", "3 sub, 1 car, 2 fig", {"retreat_chance": 40.0}),
    ):
        battle = AABattle.parse(attacker, defender, mode="sea", **options)
        monkeypatch.setattr(aa_naval, "MAPPED_FROM", 1 << 62)
        plain = aa_odds(battle, engine="general")
        monkeypatch.setattr(aa_naval, "MAPPED_FROM", 0)
        mapped = aa_odds(battle, engine="general")
        assert 0.01 < mapped.attacker_win < 0.99
        assert mapped == plain
    assert len(mapped_stores) > 3  # stores of both kinds of item were mapped
    assert [len(loop.signatures) for loop in loops] == signatures


def test_held_entries_are_merged_by_the_radix_sort_as_by_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    # Held-back entries' keys (a defender distribution << ROW_BITS | a row), many equal,
    # some past 48 bits (every digit of the radix sort used) or sharing whole digits
    # (passes skipped), in many sorted runs (the radix sort) or few (numpy's stable
    # sort): the compiled merge gives numpy's distinct keys, sums to rounding (added in
    # order, not pairwise) and, as the item to read, one with that key (its first).
    rng = np.random.default_rng(47)
    cases = [np.array([5], dtype=np.int64), np.full(9, 7 << 40, dtype=np.int64)]
    for _ in range(30):
        n = int(rng.integers(1, 3000))
        dist = rng.integers(0, int(rng.choice([3, 300, 1 << 20, 1 << 38])), n)
        key = (dist << aa_naval.ROW_BITS) | rng.integers(0, int(rng.choice([1, 40, 1 << 20])), n)
        cases.append(key)  # in many runs: the radix sort
        cases.append(np.concatenate([np.sort(part) for part in np.array_split(key, 3)]))  # few runs: numpy's sort
    for key in cases:
        vals = rng.random(len(key)) * 10.0 ** rng.integers(-18, 0, len(key))
        got = []
        for loaded in (False, True):
            monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loaded)
            got.append(aa_naval._merged(key, vals))
        (k0, v0, f0), (k1, v1, f1) = got
        assert np.array_equal(k0, k1) and k1.dtype == np.int64
        assert np.allclose(v1, v0, rtol=1e-13, atol=0.0)
        assert np.array_equal(key[f1], k1) and np.array_equal(key[f0], k0)
        assert all(int(f) == int(np.flatnonzero(key == k)[0]) for f, k in zip(f1[:50], k1[:50]))  # its first item
        assert v1.sum() == pytest.approx(vals.sum(), rel=1e-13)
    with pytest.raises(ValueError):
        aa_naval_kernel.radix_sorted(np.array([3, -1], dtype=np.int64))


def test_hits_along_chains_are_placed_by_the_loop_as_by_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    # Items putting a hit distribution on a chain of states (hits past the chain's end on
    # its last state, with the distribution's tail sum), scaled, cells below TINY left
    # out: the compiled pass keeps numpy's cells (items, states, masses bit for bit), the
    # same mass left out to rounding and the same count of cells.
    rng = np.random.default_rng(48)
    for _ in range(40):
        chains = rng.integers(0, 500, 300).astype(np.int64)
        n_items = int(rng.integers(1, 25))
        dists = [rng.random(int(rng.integers(1, 12))) for _ in range(n_items)]
        dists = [d / d.sum() for d in dists]
        dstore = np.concatenate(dists)
        dtail = np.concatenate([np.cumsum(d[::-1])[::-1] for d in dists])
        d_len = np.array([len(d) for d in dists], dtype=np.int64)
        d_off = np.cumsum(d_len) - d_len
        n_c = rng.integers(1, 15, n_items)
        c_off = rng.integers(0, 300 - 15, n_items)
        scale = rng.random(n_items) * 10.0 ** rng.integers(-22, 0, n_items)  # some cells below TINY
        got = []
        for loaded in (False, True):
            monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loaded)
            target: Any = SimpleNamespace(chains=SimpleNamespace(data=chains), dstore=SimpleNamespace(data=dstore),
                                          dtail=SimpleNamespace(data=dtail), cells=0)  # fmt: skip
            got.append((*aa_naval._placed(target, (c_off, n_c), d_off, d_len, scale), target.cells))
        (k0, s0, v0, lost0, cells0), (k1, s1, v1, lost1, cells1) = got
        assert np.array_equal(k0, k1) and np.array_equal(s0, s1) and np.array_equal(v0, v1)
        assert lost1 == pytest.approx(lost0, rel=1e-12, abs=1e-300) and cells1 == cells0
        assert cells0 == int(np.minimum(n_c, d_len).sum())
        assert v1.sum() + lost1 == pytest.approx(float(scale.sum()), rel=1e-12)  # every item's whole distribution


def test_items_are_grouped_by_level_by_the_loop_as_by_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    # Held entries (keys, masses) and states between (keys, masses, where their
    # aircraft's hits are and how many), due at a small range of levels: the compiled
    # counting sort gives each level numpy's arrays, in the items' order, of their own.
    rng = np.random.default_rng(49)
    for _ in range(30):
        n = int(rng.integers(1, 400))
        due = rng.integers(0, int(rng.integers(1, 9)), n) + int(rng.integers(0, 300))
        columns = [rng.integers(0, 1 << 40, n), rng.random(n)]
        if rng.random() < 0.5:
            columns += [rng.integers(0, 10_000, n), rng.integers(1, 30, n)]
        got = []
        for loaded in (False, True):
            monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loaded)
            into: dict[int, list[Any]] = {3: [("kept",)]}
            aa_naval._by_level(into, due, *columns)
            got.append(into)
        plain, looped = got
        assert sorted(plain) == sorted(looped) == sorted({3, *due.tolist()})
        for level, parts in plain.items():
            assert len(parts) == len(looped[level])
            for want, have in zip(parts, looped[level]):
                assert len(want) == len(have)
                for a, b in zip(want, have):
                    assert np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype
                    assert not isinstance(b, np.ndarray) or b.base is None  # not a view of a bigger array


@pytest.mark.parametrize(("attacker", "defender", "options"), [
    ("6 sub, 3 cru, 2 bat, 5 fig", "6 sub, 3 car, 2 bat, 5 fig", {}),  # held back, split: every new loop
    ("6 sub, 3 cru, 2 bat, 5 fig", "6 sub, 3 car, 2 bat, 5 fig", {"retreat_chance": 40.0}),
    ("5 sub, 3 fig, 3 bom, 2 car, 4 cru", "5 sub, 3 des, 3 car, 6 fig, 3 tra", {"retreat_left": 6}),
    ("5 sub, 3 des, 3 fig, 3 bom, 2 car", "5 sub, 3 car, 6 fig, 3 tra, 2 cru", {"rounds": 3}),
])  # fmt: skip
def test_battles_through_the_compiled_bookkeeping_give_numpys_answer(monkeypatch: pytest.MonkeyPatch, attacker: str,
                                                                      defender: str, options: dict[str, Any]) -> None:
    # submarines and aircraft on both sides, with or without destroyers
    # (the held-back general fire merged, the split hits placed and grouped by level, a
    # strike's distribution per key), fought to the end, retreating by win chance or
    # with K units left, for three rounds: with numba's loops every chance, the expected
    # rounds and the survivors within 1e-13 of the numpy steps' (summation order).
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    names = ("radix_sorted", "runs_summed", "placed", "by_level", "bilinear_stored")
    calls = {name: _counting(monkeypatch, name) for name in names}
    battle = AABattle.parse(attacker, defender, mode="sea", **options)
    got = []
    for loaded in (False, True):
        monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loaded)
        got.append(aa_odds(battle, engine="general"))
        assert loaded or not any(calls.values())
    plain, looped = got
    assert 0.001 < looped.attacker_win < 0.999
    assert_same_odds(looped, plain, 1e-13)
    assert looped.expected_rounds == pytest.approx(plain.expected_rounds, abs=1e-12)
    # The bound holds the total's rounding drift (|1 - everything counted|): a casualty
    # distribution whose rows run together (restricted_bins) is summed in another
    # order, which may move that drift by an ulp of 1 or two.
    assert looped.error_bound == pytest.approx(plain.error_bound, rel=1e-6, abs=4.5e-16)
    if "des" not in attacker + defender:  # general fire held back: merged and placed by the loops
        assert calls["runs_summed"] and calls["placed"] and calls["by_level"], {k: len(v) for k, v in calls.items()}
    # The chances backward of a retreat by win chance mixed by the loop, and the same
    # pairs retreated from (its chances the numpy path's to rounding).
    assert bool(calls["bilinear_stored"]) == ("retreat_chance" in options)
    assert looped.retreat == pytest.approx(plain.retreat, abs=1e-13)


def test_a_table_refuses_a_state_with_more_hit_points_than_its_target() -> None:
    # table_cells counts its states by the hit points they lost into an array of hp + 1
    # cells; numba checks no bounds, so a chain that climbed above its target (never
    # made by the engine), or a state not numbered (hit points -1), is refused rather
    # than written past that array's end.
    chains = np.array([0, 1, 2], dtype=np.int64)  # a chain of three states
    marks = np.full(3, -1, dtype=np.int64)
    shape = (1, 1)
    args = (np.zeros(shape, dtype=np.int64), np.full(shape, 3, dtype=np.int64), np.zeros(shape, dtype=np.int64), chains,
            3, marks)  # fmt: skip
    numbers, local, upto = aa_naval_kernel.table_cells(*args, np.array([2, 1, 0], dtype=np.int64))
    assert numbers.tolist() == [0, 1, 2] and local.tolist() == [[[0, 1, 2]]] and upto.tolist() == [1, 2, 3]
    assert marks.tolist() == [-1, -1, -1]
    for hp_arr in ([2, 3, 0], [2, -1, 0]):  # a state above its target; one not numbered
        with pytest.raises(ValueError, match="more hit points than its target, or not numbered"):
            aa_naval_kernel.table_cells(*args, np.array(hp_arr, dtype=np.int64))


def test_the_held_values_memo_merges_blocks_and_drops_those_no_longer_read() -> None:
    # The chances backward's memo (aa_naval_kernel._memo_merged, _pool_merge, _pool_room):
    # per result a block of ascending keys with their values, merged with each level's
    # new keys, moved to the pool's end when it outgrows its room, and the pool compacted
    # when full, dropping the blocks of results no later level reads (last_use below the
    # level).  Against a dict of what was put, level by level, from a pool of 16 items so
    # that it grows and compacts many times.
    # Its keys are result << ENTRY_ROW_BITS | row, rows as wide as the forward's held
    # entries' (aa_naval.ROW_BITS).
    from engine.odds.aa_naval import ROW_BITS

    bits = aa_naval_kernel.ENTRY_ROW_BITS
    assert bits == ROW_BITS
    rng = np.random.default_rng(19)
    results = 40
    offs, lens, caps = (np.zeros(results, dtype=np.int64) for _ in range(3))
    used = np.zeros(1, dtype=np.int64)
    pk, pv = np.zeros(16, dtype=np.int64), np.zeros(16, dtype=complex)
    last_use = rng.integers(0, 30, results)
    kept: dict[int, dict[int, complex]] = {}
    for level in range(30):
        fresh = {}
        for c in rng.choice(results, 6, replace=False).tolist():
            if last_use[c] < level:
                continue  # nothing reads it any more
            items = set(rng.choice(200, int(rng.integers(1, 30)), replace=False).tolist()) - set(kept.get(c, {}))
            for item in items:
                fresh[(c << bits) | item] = complex(rng.random(), rng.random())
        keys = np.array(sorted(fresh), dtype=np.int64)
        vals = np.array([fresh[k] for k in keys.tolist()], dtype=complex)
        pk, pv = aa_naval_kernel._memo_merged(pk, pv, offs, lens, caps, used, keys, vals, len(keys), bits, last_use,
                                              level)  # fmt: skip
        for key, val in fresh.items():
            kept.setdefault(key >> bits, {})[key & aa_naval_kernel.ENTRY_ROW_MASK] = val
        assert used[0] <= len(pk)
        for c in range(results):
            block = pk[offs[c] : offs[c] + lens[c]]
            assert lens[c] <= caps[c]
            assert np.all(np.diff(block) > 0), (level, c)
            if lens[c]:  # a block kept holds exactly what was put in it
                assert dict(zip(block.tolist(), pv[offs[c] : offs[c] + lens[c]].tolist())) == kept[c], (level, c)
                assert aa_naval_kernel._kept_at(pk, offs[c], lens[c], int(block[-1])) == offs[c] + lens[c] - 1
                assert aa_naval_kernel._kept_at(pk, offs[c], lens[c], int(block[-1]) + 1) == -1
            elif c in kept:  # dropped: only once no level at or after this one reads it
                assert last_use[c] < level, (level, c)
                del kept[c]
    assert any(last_use[c] < 29 and lens[c] == 0 for c in range(results))  # some were dropped
    assert len(pk) > 16  # the pool grew
