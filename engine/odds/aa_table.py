"""The vectorised float engine for battles where any hit may land on any unit (every land
and amphibious battle, sea battles without submarines): numpy arrays instead of Python
lists, the same Markov chain as :mod:`engine.odds.aa_fast`.

Each side's casualties follow one fixed sequence (its loss order), so a side's state is
an index into that sequence.  The attacker may start from several states (AA fire before
round 1, A-10.5): those are *blocks* ``k``, and the table of masses is one 3-D array
``M[k, i, j]`` (block, attacker steps taken, defender steps taken).  All blocks are
processed row by row (every transition except "nobody is hit" moves to a later row or a
later column); with several blocks a row of every block is processed in one go, so AA
fire adds arithmetic, not Python work.  Small tables are one dense linear solve
(:meth:`TableEngine._dense`); :meth:`TableEngine.win_chance` is the backward pass behind
the "retreat when the chance to win falls below X %" option.

One round from (i, j): the defender scores ``hd`` hits (dice of column j), the attacker
``ha`` (dice of row i), independently.  For one row:

1. the masses that stay in the row (``hd = 0``) are a triangular system
   ``x = c (r + L (d0 x))`` (``c`` the closed-form sum of the "nobody is hit" loop,
   ``L`` the attacker's hits ``>= 1``, ``d0`` the defender's chance of no hit), solved
   exactly on the columns where ``d0 x`` is not negligible (``d0`` is tiny while the
   defender is big, so usually only the row's last columns): ``numpy.linalg.solve``
   for one block, forward substitution over all blocks at once when there are many;
2. every ``hd >= 1`` at once: the row's masses times ``p(hd | j)`` form a matrix, and
   the attacker's hits spread it along the columns, one matrix product with the
   Toeplitz matrix of the attacker's hit distribution.

Many AA blocks (big tables) go to :mod:`engine.odds.aa_merged` instead, which numbers
the blocks' distinct attacker states and reuses this engine's row steps
(:meth:`TableEngine._rows_window`, :meth:`TableEngine._weights`,
:meth:`TableEngine._toeplitz`) on levels of them.  Blocks whose masses are far apart are
spread in groups of like mass (:func:`mass_groups`), each on its own window.

Rows and columns past a side's last state mean "that side is destroyed", so nothing is
clipped while spreading.  Masses below ``TINY`` are not spread and dice outcomes below
``CUT`` are left out; everything left out is added up in ``dropped``, which is reported
as the error bound together with the rounding drift of the total.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view

from engine.odds import compiled
from engine.odds.aa_battle import (
    ATTACKER, CUT, DEFENDER, DRAW, OUTCOMES, RETREAT, STALEMATE, TINY, UNFINISHED, BattleSetup, StartTable, Tally,
    retreat_band, too_many_cells,
)  # fmt: skip
from engine.odds.aa_fast import LineTally, side_line
from engine.odds.aa_side import Side, State
from engine.odds.aa_units import AIR
from engine.odds.dist import low_luck_distribution

Arr = Any  # numpy arrays (float64 / bool); numpy's own stubs are too loose to help here

BLOCKS_TOGETHER = 1  # more AA blocks than this: rows of all blocks processed together
DENSE_MAX = 220  # live states up to which one dense linear solve beats the row loop
MASS_BIN = 2  # powers of ten: blocks of like mass spread together (mass_groups)
BAND = 32  # columns per product in _band_matmul
SHARED_BAND = 16  # columns per product in shared_spread
SHARED_MIN = 32  # rows from which shared_spread beats a product per row
# shared_spread_into's bands: 8 columns measured ~10 % faster than 16 there (products and
# additions of the bench's joined wave of 100 on their own inputs, 1.24 -> 1.11 s; 4 and
# 12 slower), the products the same (to rounding).
SHARED_BAND_INTO = 8
SOURCE = 1e-30  # in-row moves start from columns whose d0 x reaches this
# Where numba is loaded, a battle fought to the end goes row by row, every block's, in
# one compiled loop (engine.odds.aa_table_kernel): 40 a side ~1.5 ms against the numpy
# rows' ~3.7, 100 a side ~14 against ~18 (about even from ~110 a side, where the matrix
# products of the numpy rows catch up).  False: the numpy rows always (the tests compare
# the two).
ROWS_COMPILED = True
H_CHUNK = 8  # defender scores per product in _ground_spread


# -- one side: its loss sequence and the dice of every state on it --------------------------


@dataclass(frozen=True)
class SideTable:
    states: tuple[State, ...]  # after 0, 1, 2 ... casualty steps (the last: nothing fights)
    fire: Arr  # fire[s, h] = p(h hits | state s)
    alive: Arr  # bool per state: something still fights
    quiet: Arr  # bool per state: rolls no die that can hit
    takes: Arr  # bool per state: a unit able to take the territory is left
    only_transports: Arr  # bool per state: everything fighting is a transport


_TABLES: dict[tuple[Any, ...], SideTable] = {}
_DISTS: dict[tuple[tuple[int, int], ...], Arr] = {}


def _binomial(n: int, p: float) -> Arr:
    k = np.arange(n + 1, dtype=np.float64)
    if p >= 1.0:
        out = np.zeros(n + 1)
        out[n] = 1.0
        return out
    q = 1.0 - p
    first = q**n
    if first < 1e-280:  # it underflows from a few thousand dice on: built from the mode
        return _binomial_from_mode(n, p)
    ratio = np.empty(n + 1)
    ratio[0] = first
    ratio[1:] = (n - k[:-1]) / (k[1:]) * (p / q)
    return np.cumprod(ratio)


def _binomial_from_mode(n: int, p: float) -> Arr:
    """:func:`engine.odds.dist.binomial_from_mode` in numpy (a side of thousands of units
    has thousands of states, each with its dice): the ratios of consecutive terms
    multiplied out from the mode both ways (each at most 1, so nothing overflows; the far
    tails underflow to 0), then divided by the sum."""
    q = 1.0 - p
    mode = min(n, int((n + 1) * p))
    k = np.arange(n + 1, dtype=np.float64)
    out = np.empty(n + 1)
    out[mode] = 1.0
    out[mode + 1 :] = np.cumprod((n - k[mode:n]) * p / ((k[mode:n] + 1) * q))
    out[:mode] = np.cumprod((k[mode:0:-1] * q / ((n - k[mode:0:-1] + 1) * p)))[::-1]
    return out / out.sum()


def hits(groups: Sequence[tuple[int, int]], sides: int = 6) -> Arr:
    """Hit distribution of dice grouped as ``(target number, dice)`` (memoised)."""
    pooled: dict[int, int] = {}
    for target, count in groups:
        target = min(target, sides)
        if target > 0 and count > 0:
            pooled[target] = pooled.get(target, 0) + count
    key = tuple(sorted(pooled.items()))
    got = _DISTS.get(key)
    if got is None:
        out = np.ones(1)
        for target, count in key:
            out = np.convolve(out, _binomial(count, target / sides))
        if len(_DISTS) > 50_000:
            _DISTS.clear()
        got = _DISTS[key] = out
    return got


def side_table(side: Side, start: State, low_luck: bool = False) -> SideTable:
    """The sequence of ``side`` from ``start`` with everything the engine asks about its
    states (memoised across battles: asking again with one side changed reuses the
    other side's table)."""
    key = (
        side.role, tuple(side.army.items()), tuple(side.order), side.keep_land, side.submerge,
        start, tuple(side.profiles[n] for n in side.army), low_luck,
    )  # fmt: skip
    got = _TABLES.get(key)
    if got is not None:
        return got
    states = side.sequence(start)
    dists = []
    for st in states:
        subs, air, other = side.dice(st)
        if low_luck:
            dists.append(np.array(low_luck_distribution(subs + air + other, 1.0)))
        elif air and (subs or other):
            # Aircraft and the rest memoised apart: AA blocks differ only in aircraft.
            dists.append(np.convolve(hits(air), hits(subs + other)))
        else:
            dists.append(hits(subs + air + other))
    fire = padded_rows(dists)
    alive = np.array([side.alive(st) > 0 for st in states])
    quiet = np.array([len(d) == 1 for d in dists])
    takes = np.array([side.has_land(st) for st in states])
    only_t = np.array([side.alive(st) > 0 and side.only(st, ("transport",)) for st in states])
    got = SideTable(states, fire, alive, quiet, takes, only_t)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[key] = got
    return got


def padded_rows(rows: Sequence[Arr]) -> Arr:
    """Distributions of different lengths as the rows of one array, each zero-padded
    to the longest."""
    out = np.zeros((len(rows), max(len(x) for x in rows)))
    for i, x in enumerate(rows):
        out[i, : len(x)] = x
    return out


def rows_compiled() -> bool:
    """Whether :class:`TableEngine` fights a battle to the end in its compiled rows:
    numba loaded (the bot and ``make bench`` load it as they start; a one-shot
    ``warroom odds`` would lose more to its import than it saves on a small battle)."""
    return ROWS_COMPILED and compiled.numba_loaded()


def rows_compiled_first(setup: BattleSetup[float]) -> bool:
    """Whether the compiled rows take ``setup`` ahead of the fast engine (a small battle,
    below engine.odds.aa.SMALL_CELLS) or the merged engine (AA fire's blocks, up to
    engine.odds.aa_merged.COMPILED_OVER_MERGED cells): :func:`rows_compiled`, and round
    1 starts from a list of starts.  ~0.15 ms at 10 a side against the fast engine's
    ~0.17-0.25 (most of it the report, the rows ~0.02); ~0.3 against ~0.42 ms with an
    AA gun firing at one fighter (2 blocks); 8 units with 3 aircraft against 10 and an
    AA gun (6 blocks) ~0.7 against the numpy rows' ~4.5 ms.  A second wave's thousands
    of starts come as a :class:`engine.odds.aa_battle.StartTable`, which those engines
    read as arrays and the table engine one by one."""
    return rows_compiled() and not isinstance(setup.starts, StartTable)


# row_ids and sum_by count keys on a table of every key where the keys span fewer than
# this many plus a few per row (8 for row_ids, 4 for sum_by), else sort them.
DENSE_KEYS = 2**20


def row_ids(rows: Arr) -> tuple[Arr, Arr]:
    """The distinct rows of the int array ``rows``: ``(first, ids)``, the index of each
    distinct row's first occurrence (in the rows' sorted order) and every row's number
    among them, as ``numpy.unique(rows, axis=0)`` gives them (each row as one number
    when they fit: far faster)."""
    if len(rows) and compiled.numba_loaded() and rows.ndim == 2 and rows.dtype.kind == "i":
        # A table of every key instead of a sort (the same numbers): big first waves
        # leave ~750,000 states to number.
        from engine.odds.aa_merged_kernel import dense_row_ids

        first, ids, ok = dense_row_ids(np.ascontiguousarray(rows), 8 * len(rows) + DENSE_KEYS)
        if ok:
            return first, ids
    radix = (rows.max(axis=0) + 1).tolist() if len(rows) else []
    if len(rows) and min(rows.min(axis=0).tolist()) >= 0 and math.prod(radix) < 2**62:
        place = np.array([math.prod(radix[i + 1 :]) for i in range(len(radix))], dtype=np.int64)
        _, first, ids = np.unique(rows @ place, return_index=True, return_inverse=True)
    else:
        _, first, ids = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    return first, ids.ravel()


def sum_by(keys: Arr, w: Arr, zero: Any = 0.0) -> tuple[Arr, Arr]:
    """The distinct ``keys`` (ints, ascending) and the sums of ``w`` over each (``w`` of
    Fraction objects summed exactly, from ``zero``).  Keys of a small range are counted
    on a table of every key instead of sorted (the same sums, each key's terms added in
    the order they come)."""
    if w.dtype != object:
        if len(keys) and int(keys.min()) >= 0 and int(keys.max()) < 4 * len(keys) + DENSE_KEYS:
            size = int(keys.max()) + 1
            u = np.flatnonzero(np.bincount(keys, minlength=size))
            return u, np.bincount(keys, w, size)[u]
        u, at = np.unique(keys, return_inverse=True)
        return u, np.bincount(at.ravel(), w, len(u))
    acc: dict[int, Any] = {}
    for k, x in zip(keys.tolist(), w.tolist()):
        acc[k] = acc.get(k, zero) + x
    u = np.array(sorted(acc), dtype=np.int64)
    return u, np.array([acc[k] for k in u.tolist()], dtype=object)


def _strided(base: Arr, at: int, shape: tuple[int, ...], strides: tuple[int, ...]) -> Arr:
    """A view of the contiguous array ``base`` from its flat element ``at``, with
    ``shape`` and ``strides`` (in bytes): what ``as_strided(base.reshape(-1)[at:], …)``
    makes, built by the ndarray constructor, which checks that the view stays inside
    ``base``, for a quarter of the cost (~0.7 vs ~2.8 µs: it is made once per row)."""
    return np.ndarray(shape, base.dtype, buffer=base, offset=at * base.itemsize, strides=strides)


def _identity_minus(B: Arr) -> Arr:
    """``I - B`` in place, for a new square array ``B`` whose diagonal is 0 (an in-row
    system): no ``np.eye`` to make and subtract from, the same numbers (its zeros +0.0)."""
    np.subtract(0.0, B, out=B)
    B.reshape(-1)[:: B.shape[0] + 1] = 1.0
    return B


def _fold(T: Arr, c0: int, nD: int) -> tuple[Arr, int]:
    """A spreading matrix ``T`` (last axis: target columns from ``c0``) with every target
    column past ``nD`` (the defender destroyed, however many hits were left over) added
    into column ``nD``: fewer columns to multiply and to add.  Returns ``(T, width)``."""
    L = T.shape[-1]
    keep = nD + 1 - c0
    if keep >= L or keep < 1:
        return np.ascontiguousarray(T), L
    out = np.array(T[..., :keep])
    out[..., keep - 1] += T[..., keep:].sum(axis=-1)
    return out, keep


def mass_groups(mass: Arr) -> list[Arr]:
    """Indices of the rows with mass, in groups of like mass (within MASS_BIN powers of
    ten): spreading each group on its own window leaves out only masses below TINY, as
    one row at a time would, at a fraction of the work for the light rows."""
    ids = np.flatnonzero(mass > 0)
    if not len(ids):
        return []
    bins = np.floor(np.log10(mass[ids]) / MASS_BIN).astype(np.int64)
    if bins.min() == bins.max():
        return [ids]
    return [ids[bins == b] for b in np.unique(bins)]


def _band_matmul(W: Arr, T: Arr, La: int) -> Arr:
    """``W @ T`` for spreading matrices ``T`` (last two axes) that are zero outside the
    band ``0 <= column - row < La``: by chunks of BAND columns, each with only the rows
    that reach it (the zeros of a wide table are most of ``T``)."""
    wk, L = T.shape[-2:]
    if wk < 3 * BAND or La > wk // 2:
        return np.matmul(W, T)
    out = np.empty(W.shape[:-1] + (L,))
    for cs in range(0, L, BAND):
        ce = min(cs + BAND, L)
        js, je = max(0, cs - La + 1), min(ce, wk)
        if je <= js:
            out[..., cs:ce] = 0.0
        else:
            out[..., cs:ce] = np.matmul(W[..., js:je], T[..., js:je, cs:ce])
    return out


def shared_spread(x: Arr, DT: Arr, A: Arr, keep: int) -> Arr:
    """One round's spreading of many rows at once with the defender's dice shared:
    ``out[h, c, n] = sum_j DT[h, j] x[n, j] A[n, c - j]`` (``x`` (n, w) the rows' masses,
    ``DT`` (H, w) the defender's scores by column, ``A`` (n, La) each row's own hits),
    columns from ``keep - 1`` on added into column ``keep - 1`` when ``1 <= keep <
    w + La - 1`` (the defender destroyed, :func:`_fold`).  The same numbers as ``W @ T``
    of :meth:`TableEngine._toeplitz` (``W[n] = DT x[n]``), but as one product per band of
    SHARED_BAND columns over every row: ``DT``'s columns that reach the band times the
    rows' masses spread by their hits (a Toeplitz band, built per band), which skips the
    Toeplitz matrices' zeros and the ``W`` array and keeps the products big.  The rows
    come last (``out`` is (H, columns, n)): each band's factor is then runs of n
    numbers, read and written in one piece, and each product lands where it belongs,
    ~1.8x faster than rows before columns (runs of a band's 16 columns) on the bench's
    joined wave of 100 (1.9 -> 1.1 s of its products on 2026-12-02's slow machine)."""
    K, w = x.shape
    H, La, width = DT.shape[0], A.shape[1], SHARED_BAND
    L = w + La - 1
    fold = 1 <= keep < L
    body = keep - 1 if fold else L  # columns of the banded products
    out = np.empty((H, keep if fold else L, K))
    AT = np.zeros((w + L + 1 + width, K))  # AT[w + t, n] = A[n, t]: the band's factor at (j, c) is AT[w + c - j]
    AT[w : w + La] = A.T
    # SW[i, b, n] = AT[i + b, n]: each band's factor is a view of it, rows from i = w + cs - j
    # down (made once: as_strided per band cost ~10 us, ~0.04 s over the bench's bands).
    step = AT.strides[0]
    SW = as_strided(AT, shape=(len(AT) - width + 1, width, K), strides=(step, step, AT.itemsize), writeable=False)
    xT = np.ascontiguousarray(x.T)
    V = np.empty(min(w, width + La - 1) * width * K)  # every band's factor, in turn
    for cs in range(0, body, width):
        ce = min(cs + width, body)
        js, je = max(0, cs - La + 1), min(ce, w)
        if je <= js:  # no column of x reaches the band
            out[:, cs:ce] = 0.0
            continue
        J, B = je - js, ce - cs
        top = w + cs - js  # T[j - js, b] = AT[top - (j - js) + b]
        T = SW[top - J + 1 : top + 1][::-1, :B]
        Vb = V[: J * B * K].reshape(J, B, K)
        np.multiply(xT[js:je, None, :], T, out=Vb)
        np.matmul(DT[:, js:je], Vb.reshape(J, B * K), out=out[:, cs:ce].reshape(H, B * K, copy=False))
    if fold:
        out[:, keep - 1] = _folded(xT, DT, A, keep)
    return out


def shared_spread_into(x: Arr, DT: Arr, A: Arr, keep: int, emit: Callable[[Arr, int], None]) -> None:
    """:func:`shared_spread`'s products handed out a band at a time as they are made:
    ``emit(band, cs)`` with ``band[h, n, c]`` = ``out[h, cs + c, n]`` (in one buffer,
    reused for the next band: ``emit`` adds it where it goes before returning), bands of
    SHARED_BAND_INTO columns, then the folded column alone; bands of zeros are left out.
    The same numbers as :func:`shared_spread`'s, without its whole array: each band is
    added while it is still in the cache instead of written out and read back (the
    bench's joined wave of 100 writes ~1.4 GB of products).  Each band is laid out
    states before columns (its factor ``V[j, n, b]``, built by a compiled loop,
    :func:`engine.odds.aa_merged_kernel.band_factor`: numpy's loops over runs of 8
    numbers cost more than the products), so that a state's columns are one run of
    memory added to one run of its target row (see
    :func:`engine.odds.aa_merged_kernel.scatter_rows`).  numba is loaded here: only a
    big table's engine comes this way (MergedTable, COMPILED_TABLE)."""
    from engine.odds.aa_merged_kernel import band_factor

    K, w = x.shape
    H, La, width = DT.shape[0], A.shape[1], SHARED_BAND_INTO
    L = w + La - 1
    fold = 1 <= keep < L
    body = keep - 1 if fold else L
    xT = np.ascontiguousarray(x.T)
    A = np.ascontiguousarray(A)
    V = np.empty(min(w, width + La - 1) * K * width)  # every band's factor, in turn
    buf = np.empty(H * K * width)
    for cs in range(0, body, width):
        ce = min(cs + width, body)
        js, je = max(0, cs - La + 1), min(ce, w)
        if je <= js:
            continue
        J, B = je - js, ce - cs
        Vb = V[: J * K * B].reshape(J, K, B)
        band_factor(Vb, xT, A, cs, js, je)
        out = buf[: H * K * B].reshape(H, K * B)
        # The product of shared_spread's band, its columns (b, n) reordered (n, b): each
        # output number the same sum of the same terms (bit for bit on most processors;
        # with AVX-512, OpenBLAS's order of adding follows the shapes: an ulp apart).
        np.matmul(DT[:, js:je], Vb.reshape(J, K * B), out=out)
        emit(out.reshape(H, K, B), cs)
    if fold:
        emit(_folded(xT, DT, A, keep).reshape(H, K, 1), keep - 1)


def _folded(xT: Arr, DT: Arr, A: Arr, keep: int) -> Arr:
    """:func:`shared_spread`'s column ``keep - 1`` ((H, n)), which takes every hit count
    that reaches it: ``x`` (``xT`` (w, n)) times A's suffix sums, then ``DT``."""
    if compiled.numba_loaded():  # the same factor in one compiled pass
        from engine.odds.aa_merged_kernel import folded_factor

        product: Arr = DT @ folded_factor(np.ascontiguousarray(xT), np.ascontiguousarray(A), keep)
        return product
    K, La = A.shape
    suffix = np.zeros((K, La + 1))
    suffix[:, :La] = np.cumsum(A[:, ::-1], axis=1)[:, ::-1]
    u = np.clip(keep - 1 - np.arange(xT.shape[0]), 0, La)
    folded: Arr = DT @ (xT * suffix[:, u].T)
    return folded


# -- the engine -------------------------------------------------------------------------------


_SINGLE_THREAD = False


def shared_ground_rows(att: Side, states: Arr) -> int:
    """AA blocks (``states[k, i]``: block ``k``'s state after ``i`` losses, every block
    cut to the shortest): how many first rows all blocks spend losing the same ground
    units with their aircraft intact (0 when nothing is worth splitting).  The last
    state of a block (nothing left) never fires, so the count stops before it."""
    air = np.array([att.profiles[sl.unit].domain == AIR for sl in att.slots])
    if not air.any() or air.all():
        return 0
    n_min = states.shape[1]
    same_air = (states[:, :, air] == states[:, :1, air]).all(axis=(0, 2))
    same_ground = (states[:, :, ~air] == states[:1, :, ~air]).all(axis=(0, 2))
    ok = same_air & same_ground
    n0 = int(np.argmin(ok)) if not ok.all() else n_min
    n0 = min(n0, n_min - 1)
    return n0 if n0 >= 2 else 0


@dataclass(frozen=True)
class GroundAir:
    """The attacker's hits split: ``G[i]`` the ground units' at row ``i`` (the same in
    every block), ``Hk[k]`` block ``k``'s aircraft's, and the ground outcomes worth
    spreading ``g_lo <= h < g_hi`` (``g_out``: a bound on those left out, below CUT)."""

    G: Arr
    Hk: Arr
    g_lo: Arr
    g_hi: Arr
    g_out: Arr


def ground_air(att: Side, ground_states: Sequence[State], block_starts: Sequence[State]) -> GroundAir:
    ground = []
    for st in ground_states:
        subs, _, other = att.dice(st)
        ground.append(hits(subs + other))
    airs = [hits(att.dice(b)[1]) for b in block_starts]
    G, Hk = padded_rows(ground), padded_rows(airs)
    g_lo, g_hi = outcome_span(G, CUT)
    return GroundAir(G, Hk, g_lo, g_hi, (G.shape[1] - (g_hi - g_lo)) * CUT)


def outcome_span(P: Arr, cut: float) -> tuple[Arr, Arr]:
    """Per distribution (``P``'s last axis: chance by number of hits): ``lo <= h < hi``,
    the outcomes from the first to the last of at least ``cut`` (the engines spread or
    read those; a row with none: all of them)."""
    sig = P >= cut
    return np.argmax(sig, axis=-1), P.shape[-1] - np.argmax(sig[..., ::-1], axis=-1)


def _one_thread() -> None:
    """The tables' matrix products are small: BLAS threads only fight over the cores
    (and the goal is one core), so the process's BLAS is limited to one thread once."""
    global _SINGLE_THREAD
    if not _SINGLE_THREAD:
        _SINGLE_THREAD = True
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

        threadpool_limits(1, user_api="blas")


def in_row_factor(den: Arr) -> Arr:
    """``1 / den`` for a row's "nobody is hit" loop, summed (``den``: 1 - the chance that
    neither side scores), 0 where ``den`` is 0: neither side can hit, a stalemate the
    passes settle on their own (its mass recorded and taken out; ``1 / 0`` there made
    0 x inf = NaN of the expected rounds and the error bound of such a battle)."""
    return np.divide(1.0, den, out=np.zeros_like(den), where=den > 0)


def first_reaching(W: Arr, threshold: float, alive: Arr, quiet: Arr, nD: int, jT: int) -> Arr:
    """Per attacker state (``W``'s last axis: its chance to win by defender column): the
    first column where the chance reaches ``threshold`` below the state's limit (``nD``
    where the attacker is quiet, else ``jT``), the limit if none; 0 where the attacker
    is not alive."""
    lim = np.where(quiet, nD, jT)
    ok = (W >= threshold) & (np.arange(W.shape[-1]) < lim[..., None])
    first = np.where(ok.any(axis=-1), np.argmax(ok, axis=-1), lim)
    return np.where(alive, first, 0).astype(np.int64)


def retreat_columns(W: Arr, threshold: float, alive: Arr, quiet: Arr, nD: int, jT: int) -> tuple[Arr, Arr]:
    """A retreat by win chance from the chances ``W`` (see :func:`first_reaching`): per
    attacker state the first column that fights on, at the threshold of
    :func:`engine.odds.aa_battle.retreat_band` (an exact tie fights on), and ``[lo, hi)``
    (last axis), the columns whose chance is in its band: decisions decimals leave open."""
    below, at, above = retreat_band(threshold)
    lo, hi = (first_reaching(W, t, alive, quiet, nD, jT) for t in (below, above))
    return first_reaching(W, at, alive, quiet, nD, jT), np.stack([lo, hi], axis=-1)


class TableEngine:
    # Whether _tally reports the final states (Tally.attacker_end, defender_end): a
    # caller that reads the chances only (a second wave's battle, aa._run's report=False)
    # sets it False, which spares a big table's tuples of every state it ends in.
    report_ends = True
    # Whether row i of a block is step i of that block's loss sequence (the merged engine's
    # rows are distinct attacker states instead): then _tally hands the report the
    # masses by position on the two sequences.
    rows_are_lines = True

    def __init__(self, setup: BattleSetup[float], max_cells: int | None = None) -> None:
        _one_thread()
        self.setup = setup
        att, dfn = setup.attacker, setup.defender
        blocks: list[State] = []
        for s in setup.starts:
            if s.attacker not in blocks:
                blocks.append(s.attacker)
        self.blocks = blocks
        self.a_tabs = [side_table(att, st, setup.low_luck) for st in blocks]
        self.d_tab = d = side_table(dfn, dfn.start, setup.low_luck)
        self.d_index = {st: j for j, st in enumerate(d.states)}
        for s in setup.starts:
            if s.defender not in self.d_index or s.defender_fires_as not in self.d_index:
                raise ValueError("table engine: defender start is off its loss sequence")
        K = len(blocks)
        self.nD = nD = len(d.states) - 1
        cells = sum(len(t.states) for t in self.a_tabs) * (nD + 1)
        if max_cells is not None and cells > max_cells:
            raise too_many_cells(cells, max_cells)
        self.n_a = [len(t.states) - 1 for t in self.a_tabs]
        Hd = d.fire.shape[1] - 1
        Ha = max(t.fire.shape[1] for t in self.a_tabs) - 1
        self.Hd, self.Ha = Hd, Ha
        R = max(self.n_a) + Hd + 2
        C = nD + Ha + 2
        self.R, self.C = R, C
        # Attacker arrays, padded: rows past a block's end are "attacker destroyed".
        self.AF = np.zeros((K, R, Ha + 1))
        self.AF[:, :, 0] = 1.0
        self.a_alive = np.zeros((K, R), dtype=bool)
        self.a_quiet = np.ones((K, R), dtype=bool)
        self.a_takes = np.zeros((K, R), dtype=bool)
        self.a_retreat = np.zeros((K, R), dtype=bool)
        for k, t in enumerate(self.a_tabs):
            n = len(t.states)
            self.AF[k, :n, :] = 0.0
            self.AF[k, :n, : t.fire.shape[1]] = t.fire
            self.a_alive[k, :n] = t.alive
            self.a_quiet[k, :n] = t.quiet
            self.a_takes[k, :n] = t.takes if setup.land else True
            self.a_takes[k, n:] = t.takes[-1] if setup.land else True
            if setup.retreat_below:
                alive_n = np.array([att.alive(st) for st in t.states])
                self.a_retreat[k, :n] = (alive_n < setup.retreat_below) & t.alive
        self._defender_arrays()
        # Win-chance retreat: in row i of block k the attacker retreats from the columns
        # below r_cut[k, i]; the columns r_open[k, i, 0] .. r_open[k, i, 1] are the
        # decisions left open (see win_chance_cuts).
        self.r_cut = np.zeros((K, R), dtype=np.int64)
        self.r_open = np.zeros((K, R, 2), dtype=np.int64)
        # The attacker's dice outcomes worth spreading: a_lo <= ha < a_hi, a_out left out.
        self.a_lo, self.a_hi = outcome_span(self.AF, CUT)
        # Each outcome left out is below CUT: a bound on the probability left out.
        self.a_out = (Ha + 1 - (self.a_hi - self.a_lo)) * CUT
        self._split_init(att, setup.low_luck)

    def _defender_arrays(self) -> None:
        """The defender's arrays, padded: columns past nD are "defender destroyed"."""
        d, nD, C, Hd = self.d_tab, self.nD, self.C, self.Hd
        self.DF = np.zeros((C, Hd + 1))
        self.DF[:, 0] = 1.0
        self.DF[: nD + 1] = d.fire
        self.DFT = np.ascontiguousarray(self.DF.T)
        self.d_alive = np.zeros(C, dtype=bool)
        self.d_alive[: nD + 1] = d.alive
        self.d_quiet = np.ones(C, dtype=bool)
        self.d_quiet[: nD + 1] = d.quiet
        self.d_defenceless = np.zeros(C, dtype=bool)
        if self.setup.sea:
            self.d_defenceless[: nD + 1] = d.only_transports
        # Columns from jT on: only transports left (sea), sunk when the attacker fires.
        defl = np.flatnonzero(self.d_defenceless[: nD + 1])
        self.jT = int(defl[0]) if len(defl) else nD

    def _split_init(self, att: Side, low_luck: bool) -> None:
        """AA fire (several blocks that differ only in aircraft): while no aircraft has
        been lost, the attacker's hits at row ``i`` of block ``k`` are the ground units'
        hits ``G[i]`` (the same in every block) plus the block's aircraft hits ``H[k]``.
        Then spreading over the columns, a convolution with ``G[i] * H[k]``, is done in
        two steps: with ``G[i]`` as one matrix product shared by every block (into
        ``Mpre``), and with ``H[k]`` once per target row when that row is reached
        (:meth:`_finish_row`).  ``n0`` rows use it (0: not applicable)."""
        self.n0 = 0
        self.block_groups: list[slice] = []
        K = len(self.blocks)
        if K <= BLOCKS_TOGETHER or low_luck:
            return
        n_min = min(len(t.states) for t in self.a_tabs)
        n0 = shared_ground_rows(att, np.array([t.states[:n_min] for t in self.a_tabs]))  # (K, n, slots)
        if not n0:
            return
        split = ground_air(att, self.a_tabs[0].states[:n0], [t.states[0] for t in self.a_tabs])
        self.G, self.Hk, self.g_lo, self.g_hi, self.g_out = split.G, split.Hk, split.g_lo, split.g_hi, split.g_out
        self.Mpre = np.zeros((K, min(self.R, n0 + self.Hd + 1), self.C))
        self.n0 = n0

    def _finish_row(self, M: Arr, i: int, at: int | None = None) -> None:
        """Add row ``i``'s pending spreads (``Mpre``) convolved with each block's
        aircraft hits (into ``M[:, at]`` when ``at`` is given, else ``M[:, i]``)."""
        if i >= self.Mpre.shape[1]:
            return
        Lh = self.Hk.shape[1]
        for ids in self.block_groups or [slice(None)]:
            pre = self.Mpre[ids, i, :]
            # Pending masses below TINY are not spread (counted in the error bound):
            # only the blocks and columns that hold one of at least TINY.
            big = pre >= TINY
            rows = np.flatnonzero(big.any(axis=1))
            if not len(rows):
                self.dropped += float(pre.sum())
                continue
            nz = np.flatnonzero(big[rows].any(axis=0))
            lo, hi = int(nz[0]), int(nz[-1]) + 1
            w = hi - lo
            part = pre[rows]
            self.dropped += float(pre.sum() - part[:, lo:hi].sum())
            ks = np.arange(pre.shape[0])[rows]
            if isinstance(ids, slice):
                ks = ks + (ids.start or 0)
            # out[k, c] = sum over t of Hk[k, t] pre[k, lo + c - t]: each output column
            # is a window of the padded row times the block's reversed aircraft hits.
            P = np.zeros((len(rows), w + 2 * (Lh - 1)))
            P[:, Lh - 1 : Lh - 1 + w] = part[:, lo:hi]
            windows = sliding_window_view(P, Lh, axis=1)  # (n, w + Lh - 1, Lh)
            out = np.matmul(windows, self.Hk[ks, ::-1, None])
            M[ks, i if at is None else at, lo : hi + Lh - 1] += out[:, :, 0]

    # -- bookkeeping of final states -----------------------------------------------------------

    def _begin(self) -> None:
        K = len(self.blocks)
        self.counts = {o: 0.0 for o in (ATTACKER, DEFENDER, DRAW, RETREAT, STALEMATE, UNFINISHED)}
        self.a_end = np.zeros((K, self.R))
        self.d_end = np.zeros(self.C)
        self.takes = 0.0
        self.rounds = 0.0
        self.dropped = 0.0
        self.unsure = 0.0  # mass reaching decisions a retreat by win chance left open

    def _record(self, outcome: str, k: int, i: int, mass: Arr, lo: int = 0, to_end: bool = False) -> None:
        """Record ``mass`` (columns ``lo..``, block ``k``, row ``i``) as ``outcome``;
        ``to_end``: the defender's final state is its last one (A-10.7 transports)."""
        total = float(mass.sum())
        if not total:
            return
        self.counts[outcome] += total
        self.a_end[k, i] += total
        if to_end:
            self.d_end[self.nD] += total
        else:
            self.d_end[lo : lo + len(mass)] += mass
        if outcome == ATTACKER and self.a_takes[k, i]:
            self.takes += total

    def _record_won(self, ks: Arr, i: int, past: Arr) -> None:
        """:meth:`_record` of ``past[n]`` (the in-row mass carried past the live
        columns: the attacker won) for row ``i`` of the blocks ``ks[n]`` at once."""
        total = float(past.sum())
        if not total:
            return
        self.counts[ATTACKER] += total
        self.a_end[ks, i] += past
        self.d_end[self.nD] += total
        self.takes += float(past[self.a_takes[ks, i]].sum())

    def _settle_row(self, k: int, i: int, r: Arr, last: bool = False) -> int:
        """Record the terminal cells of row ``i`` of block ``k`` (masses ``r`` after a
        round) and return ``lim``: the live cells are the columns below it (all of them
        fight on, except stalemates, recorded here).  With ``last`` every live cell is
        recorded as unfinished and 0 is returned."""
        nD = self.nD
        if not self.a_alive[k, i]:
            if self.setup.defender_fought:
                self._record(DEFENDER, k, i, r[:nD])
                self._record(DRAW, k, i, r[nD:], nD)
            else:
                self._record(DEFENDER, k, i, r)
            return 0
        quiet = bool(self.a_quiet[k, i])
        lim = nD if quiet else self.jT  # transports alone facing fire sink
        self._record(ATTACKER, k, i, r[lim:], lim, to_end=True)
        if self.a_retreat[k, i]:
            self._record(RETREAT, k, i, r[:lim])
            return 0
        lo, hi = np.minimum(self.r_open[k, i], lim).tolist()
        if hi > lo:  # decisions left open: a wrong one moves no more than what reaches them
            self.unsure += float(r[lo:hi].sum())
        cut = min(int(self.r_cut[k, i]), lim)
        if cut:  # fighting on would win less than the threshold: retreat
            self._record(RETREAT, k, i, r[:cut])
            r[:cut] = 0.0
        if last:  # the round limit: what did not retreat after the last round is unfinished
            self._record(UNFINISHED, k, i, r[:lim])
            return 0
        if quiet:  # the attacker cannot hit: where the defender cannot either, a stalemate
            stale = self.d_quiet[:lim]
            if stale.any():
                self._record(STALEMATE, k, i, np.where(stale, r[:lim], 0.0))
                r[:lim][stale] = 0.0
        return lim

    # -- spreading -------------------------------------------------------------------------------

    def _span(self, x: Arr) -> tuple[int, int] | None:
        """The span ``lo, hi`` of ``x`` (1-D) that holds every mass of at least TINY; the
        masses outside it are left out (added to ``dropped``).  None if there is none."""
        if not len(x):
            return None
        keep = x >= TINY
        lo = int(keep.argmax())  # the first True (argmax: fewer calls than flatnonzero)
        if not keep[lo]:
            self.dropped += float(x.sum())
            return None
        hi = len(x) - int(keep[::-1].argmax())
        if lo > 0 or hi < len(x):
            self.dropped += float(x[:lo].sum() + x[hi:].sum())
        return lo, hi

    def _spread(self, into: Arr, k: int, i: int, xk: Arr, lo: int, hd_from: int) -> None:
        """Add one round from the masses ``xk`` at row ``i`` of block ``k``, columns
        ``lo..``, into ``into`` for every defender score ``hd >= hd_from``: one matrix
        product with the Toeplitz matrix of the attacker's hits."""
        span = self._span(xk)
        if span is None:
            return
        l, h = span
        w = h - l
        W = self.DFT[hd_from:, lo + l : lo + h] * xk[l:h]  # (H, w): p(hd | j) x mass
        s = W.sum(axis=1)
        span = self._span(s)
        if span is None:
            return
        h0, h1 = span
        W = W[h0:h1]
        a0, a1 = int(self.a_lo[k, i]), int(self.a_hi[k, i])
        if self.a_out[k, i]:
            self.dropped += float(s[h0:h1].sum()) * float(self.a_out[k, i])
        La = a1 - a0
        L = w + La - 1
        # Toeplitz T[j, m] = A[m - j]: rows are windows of A padded with zeros.
        P = np.zeros(2 * w + La - 1)
        P[w : w + La] = self.AF[k, i, a0:a1]
        T = _strided(P, w, (w, L), (-P.itemsize, P.itemsize))
        c0 = lo + l + a0
        T, L = _fold(T, c0, self.nD)
        out = W @ T
        r0 = i + hd_from + h0
        into[k, r0 : r0 + out.shape[0], c0 : c0 + L] += out

    def _row_solve(self, M: Arr, k: int, i: int, r: Arr, lim: int) -> None:
        """Row ``i`` of block ``k`` with no round limit: the masses that stay in the row
        (the defender scores nothing), then every later row."""
        rl = r[:lim]
        nz = np.flatnonzero(rl >= TINY)
        if not len(nz):
            self.dropped += float(rl.sum())
            return
        lo = int(nz[0])
        self.dropped += float(rl[:lo].sum())
        a0 = float(self.AF[k, i, 0])
        d0 = self.DF[lo:lim, 0]
        c = in_row_factor(1.0 - a0 * d0)  # the "nobody is hit" loop, summed (stalemates: 0)
        x = c * rl[lo:]
        y = d0 * x
        if self.a_hi[k, i] > 1:
            # In-row moves (defender 0 hits, attacker >= 1) start only where the defender
            # may well miss with every die; d0 never falls along the loss order, so those
            # columns are a suffix.  Earlier ones move less than TINY in all: dropped.
            # Columns before the first where y = d0 x reaches 1e-30 move (in all) less
            # than their y's, which are dropped; nothing reaches them from the left but
            # such masses either.
            src = np.flatnonzero(y >= SOURCE)
            if len(src):
                js = int(src[0])
                self.dropped += float(y[:js].sum())
                self._in_row(k, i, x, y, c, d0, rl[lo:], js, lo + js, lim)
            else:
                self.dropped += float(y.sum())
        self.rounds += float(x.sum())
        self._spread(M, k, i, x, lo, 1)

    def _rows_solve(self, M: Arr, i: int, rows: Arr, lims: Arr) -> None:
        """Row ``i`` of every block at once (AA fire: many blocks): the same steps as
        :meth:`_row_solve`, batched over the blocks on the union of their windows, so
        the Python work per row does not grow with the number of blocks."""
        if i < self.n0 and self.block_groups:
            # Blocks of like weight (contiguous) on their own windows, in-row moves too.
            for g in self.block_groups:
                rg = rows[g]
                if rg.max() < TINY:  # nothing to spread (settled rows are 0 past lims)
                    self.dropped += float(rg.sum())
                    continue
                got = self._rows_window(rg, lims[g], self.AF[g, i, :])
                if got is None:
                    continue
                x, lo, past = got
                self._record_won(np.arange(g.start, g.start + len(past)), i, past)
                self._ground_spread(x, lo, i, block=g)
            return
        got = self._rows_window(rows, lims, self.AF[:, i, :])
        if got is None:
            return
        x, lo, past = got
        self._record_won(np.arange(len(past)), i, past)
        if i < self.n0:
            self._ground_spread(x, lo, i)
            return
        got2 = self._weights(x, lo, 1, self.DFT)
        if got2 is None:
            return
        _, c_lo, W, per_block, h0, h1 = got2
        r0 = i + 1 + h0
        c0, out = self._toeplitz(W, per_block, c_lo, self.AF[:, i, :], self.a_lo[:, i], self.a_hi[:, i], self.a_out[:, i])
        M[:, r0 : r0 + out.shape[1], c0 : c0 + out.shape[2]] += out

    def _ground_spread(self, x: Arr, lo: int, i: int, hd_from: int = 1, block: slice | None = None) -> None:
        """Row ``i < n0``: every defender score ``>= hd_from`` with the ground units' hits,
        shared by every block: one 2-D product into ``Mpre`` (see _split_init).  Blocks
        are taken in groups of like mass (:func:`mass_groups`), each on its own window:
        a block of small mass has few cells of at least TINY.  ``block``: ``x`` holds
        only the rows of those blocks."""
        groups: list[Any] = self.block_groups or mass_groups(x.sum(axis=1))
        if block is not None:  # x holds the rows of these blocks only
            groups = [block]
        for ids in groups:
            got = self._weights(x if block is not None else x[ids], lo, hd_from, self.DFT, build=False)
            if got is None:
                continue
            xk, c_lo, _, per_block, h0, h1 = got
            K, wk = xk.shape
            Hn = h1 - h0
            DT = self.DFT[hd_from + h0 : hd_from + h1, c_lo : c_lo + wk]  # p(hd | j)
            g0, g1 = int(self.g_lo[i]), int(self.g_hi[i])
            self.dropped += float(per_block.sum()) * float(self.g_out[i])
            Lg = g1 - g0
            L = wk + Lg - 1
            P = np.zeros(2 * wk + Lg - 1)
            P[wk : wk + Lg] = self.G[i, g0:g1]
            T = _strided(P, wk, (wk, L), (-P.itemsize, P.itemsize))
            c0 = c_lo + g0
            T, L = _fold(T, c0, self.nD)
            r0 = i + hd_from + h0
            if Hn < 2 * H_CHUNK:
                W = xk[:, None, :] * DT[None, :, :]
                out = _band_matmul(W.reshape(K * Hn, wk), T, Lg).reshape(K, Hn, L)
                self.Mpre[ids, r0 : r0 + Hn, c0 : c0 + L] += out
                continue
            # Defender scores in chunks, each on the columns where some block's mass
            # times p(hd | j) reaches TINY (a high score is likely only while the
            # defender is big): the rest is left out, counted in the error bound.
            # (The largest of the blocks' W[k, h, j] = x[k, j] p(hd | j): p >= 0.)
            sig = xk.max(axis=0)[None, :] * DT >= TINY  # (Hn, wk)
            col_mass = xk.sum(axis=0)
            for hs in range(0, Hn, H_CHUNK):
                he = min(hs + H_CHUNK, Hn)
                cols = np.flatnonzero(sig[hs:he].any(axis=0))
                Dc = DT_used = DT[hs:he]
                if not len(cols):
                    self.dropped += float((DT_used @ col_mass).sum())
                    continue
                jl, jh = int(cols[0]), int(cols[-1]) + 1
                if jl or jh < wk:
                    self.dropped += float(Dc[:, :jl].sum(axis=0) @ col_mass[:jl] + Dc[:, jh:].sum(axis=0) @ col_mass[jh:])
                ch = min(L, jh + Lg - 1)
                n = he - hs
                Wc = (xk[:, None, jl:jh] * Dc[None, :, jl:jh]).reshape(K * n, jh - jl)
                out = _band_matmul(Wc, T[jl:jh, jl:ch], Lg).reshape(K, n, ch - jl)
                self.Mpre[ids, r0 + hs : r0 + he, c0 + jl : c0 + ch] += out

    def _rows_window(self, rows: Arr, lims: Arr, A: Arr) -> tuple[Arr, int, Arr] | None:
        """Step 1 for several rows at once (blocks of one row, or attacker states of
        one level): ``rows`` (n, C) the masses after a round, live below ``lims``, ``A``
        (n, Ha + 1) each row's attacker hits.  Returns ``(x, lo, past)``: the masses
        once the in-row moves are summed, on the columns ``lo..`` (``x`` is (n, w)), and
        per row the in-row mass carried past its live columns (the attacker won).  Where
        numba is loaded, one compiled pass does the same steps (the same ``x``; ``past``
        and the bookkeeping summed in another order)."""
        if compiled.numba_loaded():
            from engine.odds.aa_merged_kernel import rows_window

            x, lo, past, dropped, rounds, ok = rows_window(
                np.ascontiguousarray(rows), np.ascontiguousarray(lims, dtype=np.int64), np.ascontiguousarray(A),
                np.ascontiguousarray(self.DF[:, 0]), TINY, CUT,
            )  # fmt: skip
            self.dropped += dropped
            if not ok:
                return None
            self.rounds += rounds
            return x, lo, past
        K = rows.shape[0]
        cols = np.arange(self.C)
        live = cols[None, :] < lims[:, None]
        x_all = np.where(live, rows, 0.0)
        big = x_all >= TINY
        if not big.any():
            self.dropped += float(x_all.sum())
            return None
        nzc = np.flatnonzero(big.any(axis=0))
        lo, hi = int(nzc[0]), int(lims.max())
        self.dropped += float(x_all[:, :lo].sum())
        d0 = self.DF[lo:hi, 0]
        lv = live[:, lo:hi]
        c = np.where(lv, in_row_factor(1.0 - A[:, :1] * d0[None, :]), 0.0)  # (K, w)
        x = c * x_all[:, lo:hi]
        y = x * d0[None, :]
        # In-row moves start at the first column where one reaches TINY (before it,
        # nothing of at least TINY is moved or arrives: see the loop below).
        src = np.flatnonzero(y.max(axis=0) >= TINY)
        Ha = A.shape[1] - 1
        past = np.zeros(K)
        if len(src) and Ha >= 1:
            js = int(src[0])
            self.dropped += float(y[:, :js].sum())
            ws = x.shape[1] - js
            # Forward substitution, all rows at once: column j is final once every
            # column left of it has pushed its in-row moves.  Solved for u = x / c
            # (x = c (r + L y), y = d0 x: u = r + L y, y = e u with e = c d0), columns
            # as the rows of (w, n) arrays: a few operations per column.
            cs = c[:, js:]
            e = np.ascontiguousarray((cs * d0[js:][None, :]).T)  # (ws, n)
            u = np.ascontiguousarray(x_all[:, lo + js : hi].T)
            # The in-row moves by the attacker's outcomes b0 <= ha < b1: the others are
            # below CUT in every row (left out, their share of the moves counted).
            sig = np.flatnonzero((A[:, 1:] >= CUT).any(axis=0)) + 1
            b0, b1 = (int(sig[0]), int(sig[-1]) + 1) if len(sig) else (1, 1)
            out = A[:, 1:b0].sum(axis=1) + A[:, b1:].sum(axis=1)
            AbT = np.ascontiguousarray(A[:, b0:b1].T)
            if b1 > b0 and compiled.numba_loaded():
                # The compiled loop where numba is loaded already (the bot and make bench
                # load it as they start): the same numbers, ~3x faster.
                from engine.odds.aa_merged_kernel import forward_moves

                forward_moves(u, e, AbT, b0, b1, TINY)
            else:
                for j in range(ws - b0 if b1 > b0 else 0):
                    yj = u[j] * e[j]
                    # In-row moves out of a cell are at most its yj: below TINY, not spread
                    # (counted below, from the final u).
                    yj[yj < TINY] = 0.0
                    t1 = min(j + b1, ws)
                    u[j + b0 : t1] += AbT[: t1 - j - b0] * yj
            Y = u * e
            small = Y[:-1] < TINY
            self.dropped += float(Y[:-1][small].sum())
            Y[:-1][small] = 0.0
            ys = Y.T
            self.dropped += float(ys[:, :-1].sum(axis=1) @ out)
            xs = cs * u.T
            x[:, js:] = xs
            # In-row mass carried past each row's live columns: the attacker won.
            if compiled.numba_loaded():  # the same terms in one compiled pass
                from engine.odds.aa_merged_kernel import past_terms

                A_c, lims_c = np.ascontiguousarray(A), np.ascontiguousarray(lims, dtype=np.int64)
                past = past_terms(Y, A_c, lims_c, lo + js).sum(axis=1)
            else:
                suffix = np.concatenate([np.cumsum(A[:, ::-1], axis=1)[:, ::-1], np.zeros((K, 1))], axis=1)
                dist = np.clip(lims[:, None] - (lo + js + np.arange(ws))[None, :], 0, Ha + 1)
                past = (ys * np.take_along_axis(suffix, dist, axis=1)).sum(axis=1)
        elif len(src) == 0:
            self.dropped += float(y.sum())
        self.rounds += float(x.sum())
        return x, lo, past

    def _weights(
        self, x: Arr, lo: int, hd_from: int, DFT: Arr, build: bool = True
    ) -> tuple[Arr, int, Arr, Arr, int, int] | None:
        """Step 2's first half for rows ``x`` (n, w) at columns ``lo..``: every defender
        score ``hd >= hd_from`` at once.  Returns ``(xk, c_lo, W, per_row, h0, h1)``:
        the kept columns ``xk`` (from column ``c_lo``), ``W[n, h, j]`` = mass x p(hd | j)
        for the scores ``hd_from + h0 .. hd_from + h1`` (None unless ``build``: the
        caller makes the parts it needs), and the mass each row spreads."""
        keep_cols = np.flatnonzero((x >= TINY).any(axis=0))
        if not len(keep_cols):
            self.dropped += float(x.sum())
            return None
        l, h = int(keep_cols[0]), int(keep_cols[-1]) + 1
        self.dropped += float(x[:, :l].sum() + x[:, h:].sum())
        xk = x[:, l:h]
        DT = DFT[hd_from:, lo + l : lo + h]  # (H, wk): p(hd | j)
        span = self._span(DT @ xk.sum(axis=0))
        if span is None:
            return None
        h0, h1 = span
        W = xk[:, None, :] * DT[None, h0:h1, :] if build else None  # (K, H, wk), contiguous
        per_row = xk @ DT[h0:h1].sum(axis=0)  # (K,): the mass W spreads, by row
        return xk, lo + l, W, per_row, h0, h1

    def _toeplitz(self, W: Arr, per_row: Arr, c_lo: int, A: Arr, a_lo: Arr, a_hi: Arr, a_out: Arr) -> tuple[int, Arr]:
        """Step 2's second half: the attacker's hits (``A`` (n, Ha + 1), each row's own)
        spread ``W`` (n, H, w) along the columns, one batched product with Toeplitz
        matrices.  Returns ``(c0, out)``: ``out[n, h, :]`` lands on columns ``c0..``."""
        K, _, wk = W.shape
        a0 = int(a_lo.min())
        a1 = int(a_hi.max())
        self.dropped += float((per_row * a_out).sum())
        La = a1 - a0
        L = wk + La - 1
        P2 = np.zeros((K, 2 * wk + La - 1))
        P2[:, wk : wk + La] = A[:, a0:a1]
        T = as_strided(P2[:, wk:], shape=(K, wk, L), strides=(P2.strides[0], -P2.itemsize, P2.itemsize))
        c0 = c_lo + a0
        T, L = _fold(T, c0, self.nD)
        return c0, _band_matmul(W, T, La)

    def _in_row(
        self, k: int, i: int, x: Arr, y: Arr, c: Arr, d0: Arr, r: Arr, js: int, abs_js: int, lim: int
    ) -> None:
        """Solve the in-row system on the suffix ``js..`` of the window exactly (lower
        triangular), updating ``x`` in place, and record what it carries past ``lim``."""
        ws = len(x) - js
        A = self.AF[k, i, : int(self.a_hi[k, i])]
        P = np.zeros(2 * ws)
        n = min(len(A), ws)
        P[ws + 1 : ws + n] = A[1:n]
        # Toe[j, j'] = A[j - j'] for j > j' (row j read backwards from P[ws + j]).
        Toe = _strided(P, ws, (ws, ws), (P.itemsize, -P.itemsize))
        cs, ds = c[js:], d0[js:]
        system = _identity_minus((cs[:, None] * Toe) * ds[None, :])
        xs = np.linalg.solve(system, cs * r[js:])
        x[js:] = xs
        ys = ds * xs
        past = np.convolve(ys, A)[ws:]  # in-row mass past the live columns
        if past.any():
            self._record(ATTACKER, k, i, past, abs_js + ws, to_end=True)

    # -- the whole battle ------------------------------------------------------------------------

    def run(self, rounds: int | None = None) -> Tally[float]:
        self._begin()
        K = len(self.blocks)
        M = np.zeros((K, self.R, self.C))
        block_of = {st: k for k, st in enumerate(self.blocks)}
        for start in self.setup.starts:
            k = block_of[start.attacker]
            j = self.d_index[start.defender]
            fj = self.d_index[start.defender_fires_as]
            w = start.weight
            one = np.array([w])
            if not self.a_alive[k, 0]:
                self._record(DEFENDER, k, 0, one, j)
                continue
            if fj == j:  # before round 1: no retreat yet, but an empty or defenceless side ends it
                if not self.d_alive[j]:
                    self._record(ATTACKER, k, 0, one, j, to_end=True)
                    continue
                if self.d_defenceless[j] and not self.a_quiet[k, 0]:
                    self._record(ATTACKER, k, 0, one, j, to_end=True)
                    continue
            self.rounds += w
            # Round 1, the defender firing as it stood before bombardment.
            saved = self.DFT
            if fj != j:
                self.DFT = saved.copy()
                self.DFT[:, j] = saved[:, fj]
            self._spread(M, k, 0, one, j, 0)
            self.DFT = saved
        if rounds is None and rows_compiled():
            self._compiled_rows(M)
        elif rounds is None and self._dense(M):
            pass
        elif rounds is None and K > BLOCKS_TOGETHER:
            for i in range(self.R):
                if self.n0:
                    self._finish_row(M, i)
                rows = M[:, i, :]
                lims = np.zeros(K, dtype=np.int64)
                for k in np.flatnonzero(rows.max(axis=1) > 0).tolist():
                    lims[k] = self._settle_row(k, i, rows[k])
                if lims.any():
                    self._rows_solve(M, i, rows, lims)
        elif rounds is None:
            for i in range(self.R):
                for k in range(K):
                    r = M[k, i]
                    if not r.any():
                        continue
                    lim = self._settle_row(k, i, r)
                    if lim:
                        self._row_solve(M, k, i, r, lim)
        else:
            for rnd in range(2, rounds + 2):
                last = rnd == rounds + 1
                nxt = np.zeros_like(M)
                for i in range(self.R):
                    for k in range(K):
                        r = M[k, i]
                        if not r.any():
                            continue
                        lim = self._settle_row(k, i, r, last=last)
                        if lim:
                            self.rounds += float(r[:lim].sum())
                            self._spread(nxt, k, i, r[:lim].copy(), 0, 0)
                M = nxt
        return self._tally()

    def _compiled_rows(self, M: Arr) -> None:
        """The rows of ``M`` in one compiled loop (:mod:`engine.odds.aa_table_kernel`):
        what the loop over :meth:`_settle_row` and :meth:`_row_solve` does, recorded
        the same way."""
        from engine.odds.aa_table_kernel import solve

        counts = np.zeros(len(OUTCOMES))
        takes, rounds, dropped, unsure = solve(
            M, self.AF, self.a_lo, self.a_hi, self.a_alive, self.a_quiet, self.a_takes, self.a_retreat, self.r_cut,
            self.r_open, self.DF, self.DFT, self.d_quiet, self.nD, self.jT, self.setup.defender_fought, TINY, counts,
            self.a_end, self.d_end,
        ).tolist()
        for o, total in zip(OUTCOMES, counts.tolist()):
            self.counts[o] += total
        self.takes += takes
        self.rounds += rounds
        self.dropped += dropped
        self.unsure += unsure

    def _dense(self, M: Arr) -> bool:
        """Small battles, no round limit: one linear solve over every live cell instead
        of a Python loop over rows (a dense ``(I - Q)^T v = m0``, ``v`` the expected
        visits of each live state, then every flow into a final state at once).
        Returns False (nothing done) when the table is too big for it."""
        K, R, C = M.shape
        nD = self.nD
        alive = self.a_alive
        lim = np.where(self.a_quiet, nD, self.jT)  # (K, R)
        # Live cells at least (rows that can hit, without retreat): too many, give up early.
        sure = alive & ~self.a_quiet & ~self.a_retreat
        if int((np.maximum(lim - np.minimum(self.r_cut, lim), 0) * sure).sum()) > DENSE_MAX:
            return False
        cols = np.arange(C)[None, None, :]
        inside = alive[:, :, None] & (cols < lim[:, :, None])
        stale = inside & self.a_quiet[:, :, None] & self.d_quiet[None, None, :]
        retreat = inside & (self.a_retreat[:, :, None] | (cols < self.r_cut[:, :, None]))
        stale &= ~retreat  # the attacker retreats before a stalemate, as _settle_row has it
        live = inside & ~stale & ~retreat
        open_ = inside & ~self.a_retreat[:, :, None] & (cols >= self.r_open[:, :, :1]) & (cols < self.r_open[:, :, 1:])
        ks, is_, js = np.nonzero(live)
        n = len(ks)
        if n > DENSE_MAX:
            return False
        flows = np.where(live, 0.0, M)
        if n:
            Hd, Ha = self.Hd, self.Ha
            di = is_[None, :] - is_[:, None]
            dj = js[None, :] - js[:, None]
            ok = (ks[:, None] == ks[None, :]) & (di >= 0) & (di <= Hd) & (dj >= 0) & (dj <= Ha)
            q = self.DF[js[:, None], np.clip(di, 0, Hd)] * self.AF[ks[:, None], is_[:, None], np.clip(dj, 0, Ha)]
            system = np.eye(n) - np.where(ok, q, 0.0)
            v = np.linalg.solve(system.T, M[ks, is_, js])
            self.rounds += float(v.sum())
            w = v[:, None, None] * self.DF[js][:, :, None] * self.AF[ks, is_][:, None, :]
            hd = np.arange(Hd + 1)[None, :, None]
            ha = np.arange(Ha + 1)[None, None, :]
            flat = (ks[:, None, None] * R + is_[:, None, None] + hd) * C + js[:, None, None] + ha
            out = np.bincount(flat.ravel(), w.ravel(), minlength=K * R * C).reshape(K, R, C)
            flows += np.where(live, 0.0, out)
        if open_.any():  # what reaches the decisions left open: flows, and visits where live
            reach = flows.copy()
            if n:
                reach[ks, is_, js] = v
            self.unsure += float(reach[open_].sum())
        # Record every final cell, as _settle_row would row by row.
        won = alive[:, :, None] & ~inside
        dead = ~alive[:, :, None]
        held = dead & ((cols < nD) | (not self.setup.defender_fought))
        per_row = flows.sum(axis=2)
        self.a_end += per_row
        won_rows = np.where(won, flows, 0.0).sum(axis=2)
        won_total = float(won_rows.sum())
        self.counts[ATTACKER] += won_total
        self.takes += float((won_rows * self.a_takes).sum())
        self.d_end[nD] += won_total
        self.d_end += np.where(won, 0.0, flows).sum(axis=(0, 1))
        for outcome, mask in ((DEFENDER, held), (DRAW, dead & ~held), (RETREAT, retreat), (STALEMATE, stale)):
            self.counts[outcome] += float(np.where(mask, flows, 0.0).sum())
        return True

    def win_chance(self) -> Arr:
        """``W[k, i, j]``: the attacker's chance to win from each state after a round if
        it fights on to the end (its other retreat rules apply), by one backward pass:
        rows from the last up, and in a row the columns that stay in it (the defender
        scores nothing) as one triangular solve.  Final states: 1 where the attacker
        won, 0 elsewhere."""
        K, R, C = len(self.blocks), self.R, self.C
        nD, Hd, Ha = self.nD, self.Hd, self.Ha
        W = np.zeros((K, R, C))
        for k in range(K):
            V = W[k]
            for i in range(R - 1, -1, -1):
                if not self.a_alive[k, i]:
                    continue
                quiet = bool(self.a_quiet[k, i])
                lim = nD if quiet else self.jT
                V[i, lim:] = 1.0
                if self.a_retreat[k, i] or lim == 0:
                    V[i, :lim] = 0.0
                    continue
                A = self.AF[k, i]
                # S1[j] = sum over hd >= 1 of p(hd | j) * sum over ha of A[ha] V[i + hd, j + ha]
                rows = V[i + 1 : i + 1 + Hd, :]
                pad = np.zeros((Hd, lim + Ha))
                pad[: rows.shape[0], : min(C, lim + Ha)] = rows[:, : lim + Ha]
                windows = np.lib.stride_tricks.sliding_window_view(pad, Ha + 1, axis=1)[:, :lim, :]
                corr = windows @ A  # (Hd, lim)
                S1 = (self.DFT[1 : Hd + 1, :lim] * corr).sum(axis=0)
                d0 = self.DF[:lim, 0]
                c = in_row_factor(1.0 - float(A[0]) * d0)  # stalemates: below
                # In-row: the columns j + ha >= lim are final (won: 1), the others unknown.
                suffix = np.concatenate([np.cumsum(A[::-1])[::-1], [0.0]])  # suffix[t] = p(ha >= t)
                tail = suffix[np.minimum(lim - np.arange(lim), Ha + 1)]
                b = c * (S1 + d0 * tail)
                if quiet:
                    stale = self.d_quiet[:lim]
                    b = np.where(stale, 0.0, b)
                    V[i, :lim] = b
                    continue
                active = np.flatnonzero(c * d0 > 1e-30)
                if len(active) and Ha >= 1:
                    js = int(active[0])
                    ws = lim - js
                    P = np.zeros(2 * ws)
                    n = min(len(A), ws)
                    P[ws + 1 : ws + n] = A[1:n]
                    # U[j, j'] = A[j' - j] for j' > j (read forwards from P[ws - j])
                    U = _strided(P, ws, (ws, ws), (-P.itemsize, P.itemsize))
                    system = _identity_minus((c[js:] * d0[js:])[:, None] * U)
                    V[i, js:lim] = np.linalg.solve(system, b[js:])
                    V[i, :js] = b[:js]
                else:
                    V[i, :lim] = b
        return W

    def win_chance_cuts(self, threshold: float) -> None:
        """Retreat wherever fighting on would win less than ``threshold``: in each row
        the columns before the first where the chance reaches it (the chance never falls
        as the defender loses units, so those columns are a prefix; see
        :func:`retreat_columns` for ties)."""
        self.r_cut, self.r_open = retreat_columns(self.win_chance(), threshold, self.a_alive, self.a_quiet, self.nD, self.jT)

    def _tally(self) -> Tally[float]:
        lines = self.report_ends and self.rows_are_lines and len(self.blocks) == 1
        tally: Tally[float] = (LineTally if lines else Tally).empty(1.0)
        tally.outcome = dict(self.counts)
        tally.takes = self.takes
        tally.rounds = self.rounds
        recorded = sum(self.counts.values())
        tally.dropped = self.dropped + abs(1.0 - recorded - self.dropped) + self.unsure
        if not self.report_ends:
            return tally
        if lines:
            assert isinstance(tally, LineTally)
            self._line_ends(tally)
            return tally
        self._attacker_ends(tally)
        for j in np.nonzero(self.d_end)[0]:
            st = self.d_tab.states[min(int(j), self.nD)]
            tally.defender_end[st] = tally.defender_end.get(st, 0.0) + float(self.d_end[j])
        return tally

    def _line_ends(self, tally: LineTally[float]) -> None:
        """One attacker block: the final states into ``tally`` with their masses by
        position on the two loss sequences (rows and columns past a side's last state
        are that state), so that the report sums them with the sides' memoised per-line
        tables (:meth:`engine.odds.aa_fast.LineTally.side_report`) instead of state by
        state: ~40 of a 10-a-side battle's ~180 µs went to the report."""
        setup, t, nD = self.setup, self.a_tabs[0], self.nD
        n = len(t.states)
        a_mass = self.a_end[0, :n].tolist()
        a_mass[n - 1] = float(self.a_end[0, n - 1 :].sum())
        d_mass = self.d_end[: nD + 1].tolist()
        d_mass[nD] = float(self.d_end[nD:].sum())
        tally.attacker_end = {st: x for st, x in zip(t.states, a_mass) if x}
        tally.defender_end = {st: x for st, x in zip(self.d_tab.states, d_mass) if x}
        tally.lines = (
            side_line(setup.attacker, self.blocks[0], 1.0, setup.low_luck),
            side_line(setup.defender, setup.defender.start, 1.0, setup.low_luck),
        )
        tally.a_mass, tally.d_mass = a_mass, d_mass

    def _attacker_ends(self, tally: Tally[float]) -> None:
        """The attacker's final states into ``tally`` (per block and row here)."""
        for k, t in enumerate(self.a_tabs):
            row = self.a_end[k]
            n = len(t.states)
            for i in np.nonzero(row)[0]:
                st = t.states[min(int(i), n - 1)]
                tally.attacker_end[st] = tally.attacker_end.get(st, 0.0) + float(row[i])
