"""The compiled row pass of :class:`engine.odds.aa_table.TableEngine` (numba): a battle
fought to the end, row by row, as :meth:`~engine.odds.aa_table.TableEngine.run` does it
in numpy (``_settle_row`` and ``_row_solve`` for every block's row), in one loop
without Python's cost per row (~90 µs a row in numpy, most of a 40-vs-40 land battle);
its helpers are put into the loop (:func:`engine.odds.compiled.borrowing`).

Only arrays and numbers come in and go out; what they mean is set out in
:mod:`engine.odds.aa_table`.  The table ``M[k, i, j]`` (block ``k``, attacker row
``i``: loss steps taken, defender column ``j``) holds the masses at which rounds start;
row ``i`` is final once every earlier row has been spread, since hits only move a side
along its loss order (A-10.4).  Per row:

1. **settle**: the cells the battle ends at are recorded (the attacker destroyed: the
   defender holds, or both destroyed past column ``nD``; the defender destroyed or
   left with transports alone facing fire, A-10.7: the attacker wins; a retreat below
   K units or by win chance, A-10.15; neither side able to hit: a stalemate);
2. **in row**: the round where the defender scores nothing keeps the mass in the row
   and moves it along the columns by the attacker's hits: a lower-triangular system,
   solved by forward substitution (each column's "nobody is hit" loop summed in closed
   form); what it carries past the live columns is the attacker's win;
3. **spread**: each column's visits times the defender's hits (``hd >= 1``: a later
   row) times the attacker's hits ``a_lo <= ha < a_hi`` (the columns, every one past
   ``nD`` folded into it).

A column's visits below ``tiny``, and a visit times a defender outcome below it, are
left out and counted (the error bound), as every engine does; so are the attacker's
dice outcomes outside ``a_lo .. a_hi`` (each below :data:`engine.odds.aa_battle.CUT`).
Every kept visit spreads over the whole kept span of the attacker's outcomes, in one
loop the compiler vectorises: trimming the span product by product (from the most
likely outcome outward while a product reaches ``tiny``) did fewer products but was
slower (~10.5 against ~7.2 ms at 80 a side) and left out more.  The same answer as
the numpy rows to rounding, within both error bounds (tests/odds/test_aa_table.py
compares the two, and both with exact fractions).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.odds.compiled import borrowing as _borrowing
from engine.odds.compiled import compiled as _compiled

# Outcome codes: the order of engine.odds.aa_battle.OUTCOMES.
ATT, DEF, DRAW, BACK, STALE, UNFINISHED = 0, 1, 2, 3, 4, 5


@_borrowing
def _record(code: int, M: Any, lo: int, hi: int, to_end: bool, nD: int, k: int, i: int, counts: Any, a_end: Any,
            d_end: Any) -> float:
    """Record ``M[k, i, lo:hi]`` as ``code`` (``to_end``: the defender's final state is
    its last, ``nD``); the mass recorded."""
    total = 0.0
    for j in range(lo, hi):
        total += M[k, i, j]
    if total == 0.0:
        return 0.0
    counts[code] += total
    a_end[k, i] += total
    if to_end:
        d_end[nD] += total
    else:
        for j in range(lo, hi):
            d_end[j] += M[k, i, j]
    return total


@_borrowing
def _settle(M: Any, k: int, i: int, a_alive: Any, a_quiet: Any, a_takes: Any, a_retreat: Any, r_cut: Any,
            r_open: Any, d_quiet: Any, nD: int, jT: int, fought: bool, counts: Any, a_end: Any, d_end: Any,
            acc: Any) -> int:
    """``TableEngine._settle_row``: record the final cells of row ``i`` of block ``k`` and
    return the live columns' end (0: none live).  ``acc``: takes, rounds, dropped, unsure."""
    C = M.shape[2]
    if not a_alive[k, i]:
        if fought:
            _record(DEF, M, 0, nD, False, nD, k, i, counts, a_end, d_end)
            _record(DRAW, M, nD, C, False, nD, k, i, counts, a_end, d_end)
        else:
            _record(DEF, M, 0, C, False, nD, k, i, counts, a_end, d_end)
        return 0
    quiet = a_quiet[k, i]
    lim = nD if quiet else jT  # transports alone facing fire sink
    won = _record(ATT, M, lim, C, True, nD, k, i, counts, a_end, d_end)
    if a_takes[k, i]:
        acc[0] += won
    if a_retreat[k, i]:
        _record(BACK, M, 0, lim, False, nD, k, i, counts, a_end, d_end)
        return 0
    lo, hi = min(r_open[k, i, 0], lim), min(r_open[k, i, 1], lim)
    for j in range(lo, hi):  # decisions left open: a wrong one moves no more than this
        acc[3] += M[k, i, j]
    cut = min(r_cut[k, i], lim)
    if cut > 0:  # fighting on would win less than the threshold: retreat
        _record(BACK, M, 0, cut, False, nD, k, i, counts, a_end, d_end)
        for j in range(cut):
            M[k, i, j] = 0.0
    if quiet:  # the attacker cannot hit: where the defender cannot either, a stalemate
        total = 0.0
        for j in range(lim):
            if d_quiet[j] and M[k, i, j] != 0.0:
                total += M[k, i, j]
                d_end[j] += M[k, i, j]
                M[k, i, j] = 0.0
        if total != 0.0:
            counts[STALE] += total
            a_end[k, i] += total
    return lim


@_borrowing
def _in_row(M: Any, k: int, i: int, lo: int, lim: int, AF: Any, a_hi: Any, above: Any, DF: Any, nD: int, x: Any,
            y: Any, a_takes: Any, counts: Any, a_end: Any, d_end: Any, acc: Any) -> None:
    """The visits ``x[lo:lim]`` of row ``i``'s live columns: the mass arriving there plus
    what the row's own rounds (the defender scoring nothing) bring from the left, each
    column's stay summed (``1 / (1 - a0 d0)``, 0 where neither side can hit: settled as
    a stalemate).  ``y = d0 x``: what leaves a column within the row; its moves past
    ``lim`` are the attacker's win (the defender's last state)."""
    ahi = a_hi[k, i]
    a0 = AF[k, i, 0]
    tail = above[k, i, ahi]  # the outcomes from a_hi on, left out
    past = 0.0
    for j in range(lo, lim):
        d0 = DF[j, 0]
        den = 1.0 - a0 * d0
        inflow = M[k, i, j]
        top = min(ahi - 1, j - lo)
        for h in range(1, top + 1):
            inflow += y[j - h] * AF[k, i, h]
        xj = inflow / den if den > 0.0 else 0.0
        x[j] = xj
        yj = d0 * xj
        y[j] = yj
        if yj != 0.0:
            for h in range(max(1, lim - j), ahi):
                past += yj * AF[k, i, h]
            acc[2] += yj * tail
    if past != 0.0:
        counts[ATT] += past
        a_end[k, i] += past
        d_end[nD] += past
        if a_takes[k, i]:
            acc[0] += past


@_borrowing
def _spread(M: Any, k: int, i: int, lo: int, lim: int, AF: Any, a_lo: Any, a_hi: Any, below: Any, above: Any,
            DF: Any, DFT: Any, nD: int, x: Any, tiny: float, acc: Any) -> None:
    """Add one round from each live column's visits ``x[j]`` into the later rows: the
    defender's hits ``hd >= 1`` times the attacker's hits (its kept span; columns past
    ``nD`` folded)."""
    alo, ahi = a_lo[k, i], a_hi[k, i]
    out = below[k, i, alo] + above[k, i, ahi]  # the chance of the outcomes left out
    Hd1 = DFT.shape[0]
    for j in range(lo, lim):
        xj = x[j]
        if xj < tiny:
            acc[2] += xj * (1.0 - DF[j, 0])
            continue
        for hd in range(1, Hd1):
            w = xj * DFT[hd, j]
            if w < tiny:
                acc[2] += w
                continue
            r = i + hd
            # Columns before nD one by one (a loop the compiler vectorises), the rest
            # (the defender destroyed) summed into nD.
            h_fold = min(ahi, nD - j)
            for ha in range(alo, h_fold):
                M[k, r, j + ha] += w * AF[k, i, ha]
            if h_fold < ahi:
                folded = 0.0
                for ha in range(max(alo, h_fold), ahi):
                    folded += AF[k, i, ha]
                M[k, r, nD] += w * folded
            acc[2] += w * out


@_compiled
def solve(M: Any, AF: Any, a_lo: Any, a_hi: Any, a_alive: Any, a_quiet: Any, a_takes: Any, a_retreat: Any,
          r_cut: Any, r_open: Any, DF: Any, DFT: Any, d_quiet: Any, nD: int, jT: int, fought: bool, tiny: float,
          counts: Any, a_end: Any, d_end: Any) -> Any:
    """Every row of ``M`` in order, every block's (the battle to the end from the round
    starts in ``M``, which it uses up), recording into ``counts`` (by outcome code),
    ``a_end`` (block, row) and ``d_end`` (column).  Returns ``[takes, rounds, dropped,
    unsure]``: the attacker's wins that take the territory, the rounds fought (every
    live visit), the mass left out and the mass at decisions left open."""
    K, R, C = M.shape
    acc = np.zeros(4)
    x = np.zeros(C)
    y = np.zeros(C)
    # Each row's attacker outcomes: the chances below and from each outcome on
    # (below[k, i, h]: of 0..h-1 hits, summed from 0; above[k, i, h]: of h hits or more,
    # summed from the top: each tail summed from its small end, so what is left out is
    # not lost in 1's rounding).
    Ha1 = AF.shape[2]
    below = np.zeros((K, R, Ha1 + 1))
    above = np.zeros((K, R, Ha1 + 1))
    for k in range(K):
        for i in range(R):
            for h in range(Ha1):
                below[k, i, h + 1] = below[k, i, h] + AF[k, i, h]
            for h in range(Ha1 - 1, -1, -1):
                above[k, i, h] = above[k, i, h + 1] + AF[k, i, h]
    for i in range(R):
        for k in range(K):
            live = False
            for j in range(C):
                if M[k, i, j] != 0.0:
                    live = True
                    break
            if not live:
                continue
            lim = _settle(M, k, i, a_alive, a_quiet, a_takes, a_retreat, r_cut, r_open, d_quiet, nD, jT, fought,
                          counts, a_end, d_end, acc)
            if lim == 0:
                continue
            lo = -1
            for j in range(lim):
                if M[k, i, j] >= tiny:
                    lo = j
                    break
            if lo < 0:
                for j in range(lim):
                    acc[2] += M[k, i, j]
                continue
            for j in range(lo):
                acc[2] += M[k, i, j]
            _in_row(M, k, i, lo, lim, AF, a_hi, above, DF, nD, x, y, a_takes, counts, a_end, d_end, acc)
            for j in range(lo, lim):
                acc[1] += x[j]
            _spread(M, k, i, lo, lim, AF, a_lo, a_hi, below, above, DF, DFT, nD, x, tiny, acc)
    return acc


def warm() -> None:
    """Compile (or load from numba's cache) :func:`solve` for the arrays the table
    engine passes it, on the smallest table it makes: 1 unit a side, one die each at
    1/2 (rows and columns padded as :class:`engine.odds.aa_table.TableEngine` pads them:
    past the last state, "destroyed")."""
    K, R, C = 1, 4, 3
    M = np.zeros((K, R, C))
    M[0, 0, 0] = 1.0
    AF = np.zeros((K, R, 2))
    AF[0, :, 0] = 1.0
    AF[0, 0] = 0.5
    DF = np.zeros((C, 2))
    DF[:, 0] = 1.0
    DF[0] = 0.5
    alive = np.zeros((K, R), dtype=np.bool_)
    alive[0, 0] = True
    a_lo = np.zeros((K, R), dtype=np.int64)
    a_hi = np.full((K, R), 2, dtype=np.int64)
    d_quiet = np.array([False, True, True])
    solve(M, AF, a_lo, a_hi, alive, ~alive, np.ones((K, R), dtype=np.bool_), np.zeros((K, R), dtype=np.bool_),
          np.zeros((K, R), dtype=np.int64), np.zeros((K, R, 2), dtype=np.int64), DF, np.ascontiguousarray(DF.T), d_quiet,
          1, 1, True, 1e-19, np.zeros(6), np.zeros((K, R)), np.zeros(C))
