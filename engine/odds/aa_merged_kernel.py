"""The compiled loops of the merged table engine (:mod:`engine.odds.aa_merged`, numba):
adding a round's spread rows into the rows of their attacker states (:func:`scatter_add`;
:func:`scatter_rows` for the bands of :func:`engine.odds.aa_table.shared_spread_into`,
whose factors :func:`band_factor` builds), a level's in-row moves (:func:`rows_window`,
with :func:`forward_moves` and :func:`past_terms`; also the table engine's), the
win-chance pass's in-row back substitution (:func:`back_substitute`), a joined second
wave's table of start chances (:func:`add_rows`), and the bookkeeping around the
products where numba is loaded: the states a product reaches (:func:`after_states`), the
blocks' catalogue of states (:func:`chain_catalogue`), starts put on their cells
(:func:`add_at`), settled rows cleared outside their window (:func:`clear_outside`),
distinct rows numbered (:func:`dense_row_ids`), the folded column's factor
(:func:`folded_factor`), the dice distributions (:func:`convolve_rows`), a level's
rows with mass (:func:`rows_with_mass`) and their settling (:func:`settle_plain`).
Each has a numpy path beside its caller, for one-shot processes that never load numba.

A big level's products leave tens of millions of numbers, each to be added to the row
of the state it reached, many rows to one state (runs of equal states, and "attacker
destroyed" once per score).  numpy needs those sums apart before one fancy-indexed
addition (:func:`engine.odds.aa_merged._scatter`); one loop adds every row where it
goes as it reads it, without copies (~2x faster on the bench's joined wave of 100).
Compiled once per machine (numba's cache, beside this file or in ``NUMBA_CACHE_DIR``);
the loop releases the GIL while it runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.odds.compiled import compiled as _compiled
from engine.odds.compiled import prefetcher as _prefetcher

# scatter_rows: how many states ahead it asks for their target rows (see there); 24-40
# measured alike, 6 and 12 slower.
PREFETCH_AHEAD = 32


@_compiled
def scatter_add(into: Any, target: Any, rows: Any, c0: int) -> None:
    """``into[target[n], c0 + c] += rows[n, c]`` for every ``n`` and ``c``, in order
    (targets repeated or not)."""
    L = rows.shape[1]
    for n in range(target.shape[0]):
        t = target[n]
        for c in range(L):
            into[t, c0 + c] += rows[n, c]


_prefetch: Any = _prefetcher()


@_compiled
def scatter_rows(into: Any, target: Any, rows: Any, c0: int) -> None:
    """``into[target[h, n], c0 + c] += rows[h, n, c]`` for every ``h``, ``n`` and ``c``,
    in that order: :func:`engine.odds.aa_table.shared_spread_into`'s bands, states
    before columns, each state's few columns one run of memory added to one run of its
    target row.  The target rows are all over a table far bigger than the caches, and a
    state's few additions leave the processor little else to do while it waits for
    them, so the rows PREFETCH_AHEAD states on are asked for ahead.  On the bench's
    joined wave of 100: ~0.3 s, against ~0.5 s for the same bands laid out columns
    before states and added a column at a time (each column's pass meets many rows at
    once, so it waited on memory less) and ~0.75-1 s for this loop without the
    prefetch."""
    H, K, L = rows.shape
    C = into.shape[1]
    flat = into.reshape(-1)
    for h in range(H):
        for n in range(K):
            if n + PREFETCH_AHEAD < K:
                at = target[h, n + PREFETCH_AHEAD] * C + c0
                _prefetch(flat, at)
                _prefetch(flat, at + L - 1)
            t = target[h, n]
            for c in range(L):
                into[t, c0 + c] += rows[h, n, c]


@_compiled
def band_factor(V: Any, xT: Any, A: Any, cs: int, js: int, je: int) -> None:
    """A band's factor in :func:`engine.odds.aa_table.shared_spread_into`, states before
    columns: ``V[j - js, n, b] = xT[j, n] * A[n, cs + b - j]`` (0 where ``cs + b - j`` is
    not one of ``A``'s outcomes) for ``js <= j < je``, each product rounded once as
    numpy's multiply of the zero-padded hits does."""
    B = V.shape[2]
    K = xT.shape[1]
    La = A.shape[1]
    for j in range(js, je):
        for n in range(K):
            xv = xT[j, n]
            for b in range(B):
                t = cs + b - j
                V[j - js, n, b] = xv * A[n, t] if 0 <= t < La else 0.0


def warm() -> None:
    """Compile (or load from numba's cache) :func:`scatter_add` for the arrays the
    engine passes it (rows contiguous, or every other row of a bigger array),
    :func:`scatter_rows`, :func:`band_factor`, :func:`forward_moves`, :func:`past_terms`,
    :func:`add_rows`, :func:`back_substitute`, :func:`rows_window`, :func:`after_states`,
    :func:`chain_catalogue`, :func:`add_at`, :func:`clear_outside`, :func:`dense_row_ids`,
    :func:`folded_factor`, :func:`convolve_rows`, :func:`rows_with_mass` and
    :func:`settle_plain`."""
    into = np.zeros((2, 3))
    target = np.zeros(2, dtype=np.int64)
    scatter_add(into, target, np.zeros((2, 2)), 1)
    scatter_add(into, target, np.zeros((2, 2, 2))[:, 0], 1)
    scatter_rows(into, np.zeros((2, 2), dtype=np.int64), np.zeros((2, 2, 2)), 1)
    band_factor(np.zeros((1, 2, 2)), np.zeros((2, 2)), np.zeros((2, 2)), 0, 0, 1)
    forward_moves(np.zeros((3, 2)), np.zeros((3, 2)), np.zeros((1, 2)), 1, 2, 1e-19)
    rows_window(np.zeros((2, 3)), np.zeros(2, dtype=np.int64), np.zeros((2, 2)), np.zeros(3), 1e-19, 1e-19)
    after_states(np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), 1, 2)
    add_at(np.zeros(2), np.zeros(1, dtype=np.int64), np.zeros(1))
    clear_outside(np.zeros((2, 3)), np.zeros(2, dtype=np.int64), np.ones(2, dtype=np.int64))
    folded_factor(np.zeros((3, 2)), np.zeros((2, 2)), 2)
    ones = np.ones(1, dtype=np.int64)
    convolve_rows(np.ones((1, 1)), ones - 1, ones, np.ones((1, 1)), ones - 1, ones, 1)
    rows_with_mass(np.ones((1, 2)), ones - 1, ones - 1)
    flags = np.ones(1, dtype=np.bool_)
    settle_plain(np.ones((1, 2)), flags, flags, flags, 1, 1, True, np.zeros(2))
    for kind in (np.int16, np.int32, np.int64):  # the counts' types row_ids is given
        dense_row_ids(np.zeros((2, 2), dtype=kind), 4)
    one = np.ones((1, 1), dtype=np.int64)
    chain_catalogue(one, one, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64), 2)
    past_terms(np.zeros((3, 2)), np.zeros((2, 3)), np.zeros(2, dtype=np.int64), 1)
    add_rows(np.zeros((2, 2)), np.zeros(2, dtype=np.int64), np.zeros((2, 2)), np.zeros(2, dtype=np.int64), np.zeros(2))
    back_substitute(np.zeros((3, 2)), np.zeros((2, 2)), np.zeros((3, 2)), 0)


@_compiled
def back_substitute(vT: Any, AT: Any, cdT: Any, j_lo: int) -> None:
    """The in-row part of the win-chance pass (:meth:`engine.odds.aa_merged.MergedTable.
    _win_finish`) for a group of states, columns first (``vT[j, k]``: state ``k``'s
    chance at column ``j``): from the right, ``v[j] += cd[j] * sum over t >= 1 of A[t]
    v[j + t]`` for every state at once, ``j`` from ``lim - 2`` down to ``j_lo`` (``lim``
    is ``vT``'s height, ``AT[t]`` the states' chances of ``t`` hits, the sum stopping at
    the row's end).  The states are the inner loop: no sum waits on the one before (a
    state at a time, the sums over ``t`` in turn, ran ~2x slower)."""
    lim, n = vT.shape
    Ha = AT.shape[0] - 1
    acc = np.empty(n)
    for j in range(lim - 2, j_lo - 1, -1):
        m = min(Ha, lim - 1 - j)
        acc[:] = 0.0
        for t in range(1, m + 1):
            for k in range(n):
                acc[k] += AT[t, k] * vT[j + t, k]
        for k in range(n):
            vT[j, k] += cdT[j, k] * acc[k]


@_compiled
def forward_moves(u: Any, e: Any, AbT: Any, b0: int, b1: int, tiny: float) -> None:
    """The in-row moves of :meth:`engine.odds.aa_table.TableEngine._rows_window`, columns
    first (``u[j, n]``: row ``n`` at column ``j``): from the left, column ``j`` moves
    ``y = u[j] e[j]`` (0 where below ``tiny``) on by the attacker's outcomes ``b0 <= t <
    b1``, ``u[j + t] += AbT[t - b0] y``, every row at once.  The numpy loop's numbers
    (each product rounded, then added), without its temporary arrays and its ~6 calls per
    column (~3x faster on the bench's joined wave of 100)."""
    ws, n = u.shape
    y = np.empty(n)
    for j in range(ws - b0 if b1 > b0 else 0):
        for k in range(n):
            v = u[j, k] * e[j, k]
            y[k] = v if v >= tiny else 0.0
        t1 = min(j + b1, ws)
        for r in range(j + b0, t1):
            t = r - j - b0
            for k in range(n):
                u[r, k] += AbT[t, k] * y[k]


@_compiled
def add_rows(into: Any, at: Any, rows: Any, of: Any, w: Any) -> None:
    """``into[at[i]] += w[i] * rows[of[i]]`` for every ``i``, in order (each product
    rounded, then added: numpy's ``into[at] += w[:, None] * rows[of]`` where ``at`` has
    no repeats, without its gathered copies)."""
    C = into.shape[1]
    for i in range(at.shape[0]):
        a, f, x = at[i], of[i], w[i]
        for c in range(C):
            into[a, c] += x * rows[f, c]


@_compiled
def tail_chances(suffix: Any, A: Any, n: int) -> None:
    """``suffix[t]`` = row ``n`` of ``A``'s chance of at least ``t`` hits, ``t`` below
    ``A``'s width (``suffix[La]`` is left as it is: 0), summed from the most hits down
    as numpy's cumsum of the reversed row does (the same numbers bit for bit)."""
    La = A.shape[1]
    acc = A[n, La - 1]
    suffix[La - 1] = acc
    for t in range(La - 2, -1, -1):
        acc = acc + A[n, t]
        suffix[t] = acc


@_compiled
def past_terms(Y: Any, A: Any, lims: Any, col0: int) -> Any:
    """The in-row mass each row carries past its live columns, term by term, for
    :meth:`engine.odds.aa_table.TableEngine._rows_window`: ``P[n, j] = Y[j, n] * p(row
    n's hits >= lims[n] - (col0 + j))`` (0 past ``A``'s outcomes, the whole row's chance
    from 0 down), the chances summed from the most hits down as numpy's cumsum of the
    reversed row does (the same numbers bit for bit; the caller sums each row of ``P``
    with numpy, as before). One pass instead of a suffix table and a gathered copy."""
    ws, K = Y.shape
    La = A.shape[1]
    P = np.empty((K, ws))
    suffix = np.zeros(La + 1)
    for n in range(K):
        tail_chances(suffix, A, n)
        for j in range(ws):
            d = lims[n] - (col0 + j)
            d = 0 if d < 0 else (La if d > La else d)
            P[n, j] = Y[j, n] * suffix[d]
    return P


@_compiled
def rows_window(rows: Any, lims: Any, A: Any, d0: Any, tiny: float, cut: float) -> Any:
    """:meth:`engine.odds.aa_table.TableEngine._rows_window` in one compiled pass (its
    numpy steps ran ~20 array operations a level, ~0.15 s of the bench's joined wave of
    100): ``rows`` (K, C) the masses after a round, live below ``lims``, ``A`` (K, Ha +
    1) each row's hits, ``d0`` (C) the defender's chance to score nothing by column.
    Returns ``(x, lo, past, dropped, rounds, ok)``: ``ok`` False where no live mass
    reaches ``tiny`` (``x`` then empty, ``dropped`` every live mass).  ``x`` is the
    numpy steps' bit for bit (the same products and additions in the same order, the
    in-row moves by :func:`forward_moves`' loop); ``past``, ``dropped`` and ``rounds``
    are the same terms summed in another order (within a few units in the last place)."""
    K, C = rows.shape
    Ha = A.shape[1] - 1
    hi = 0
    for n in range(K):
        hi = max(hi, lims[n])
    # lo: the first column where a live mass reaches tiny; the live masses before it
    # (each below tiny) are left out.
    lo = -1
    dropped = 0.0
    for j in range(C):
        for n in range(K):
            if j < lims[n] and rows[n, j] >= tiny:
                lo = j
                break
        if lo >= 0:
            break
        for n in range(K):
            if j < lims[n]:
                dropped += rows[n, j]
    if lo < 0:
        return np.zeros((K, 0)), 0, np.zeros(K), dropped, 0.0, False
    w = hi - lo
    x = np.empty((K, w))
    c = np.empty((K, w))
    # js: the first column where a row's in-row move y = x d0 reaches tiny.
    reach = np.zeros(w, dtype=np.bool_)
    for n in range(K):
        live = min(lims[n], hi) - lo
        for j in range(live):
            col = lo + j
            den = 1.0 - A[n, 0] * d0[col]
            cc = 1.0 / den if den > 0 else 0.0
            xv = cc * rows[n, col]
            c[n, j] = cc
            x[n, j] = xv
            if xv * d0[col] >= tiny:
                reach[j] = True
        for j in range(max(live, 0), w):
            c[n, j] = 0.0
            x[n, j] = 0.0
    js = -1
    for j in range(w):
        if reach[j]:
            js = j
            break
    past = np.zeros(K)
    if js < 0:
        for n in range(K):
            for j in range(w):
                dropped += x[n, j] * d0[lo + j]
    elif Ha >= 1:
        for n in range(K):
            for j in range(js):
                dropped += x[n, j] * d0[lo + j]
        ws = w - js
        e = np.empty((ws, K))
        u = np.empty((ws, K))
        for j in range(ws):
            col = lo + js + j
            for n in range(K):
                e[j, n] = c[n, js + j] * d0[col]
                u[j, n] = rows[n, col] if col < lims[n] else 0.0
        # The outcomes some row has at least cut of: b0 <= t < b1; the others' share of
        # the moves is left out.
        b0, b1 = 1, 1
        for t in range(1, Ha + 1):
            for n in range(K):
                if A[n, t] >= cut:
                    if b0 == b1:
                        b0 = t
                    b1 = t + 1
                    break
        AbT = np.empty((b1 - b0, K))
        for t in range(b0, b1):
            for n in range(K):
                AbT[t - b0, n] = A[n, t]
        if b1 > b0:
            forward_moves(u, e, AbT, b0, b1, tiny)
        Y = np.empty((ws, K))
        moved = np.zeros(K)
        for j in range(ws):
            for n in range(K):
                v = u[j, n] * e[j, n]
                if j < ws - 1:
                    if v < tiny:
                        dropped += v
                        v = 0.0
                    else:
                        moved[n] += v
                Y[j, n] = v
                x[n, js + j] = c[n, js + j] * u[j, n]
        for n in range(K):
            out = 0.0
            for t in range(1, b0):
                out += A[n, t]
            for t in range(b1, Ha + 1):
                out += A[n, t]
            dropped += moved[n] * out
        # past_terms' terms, those that can differ from 0: Y is 0 from a row's limit
        # on, and its chance of enough hits is 0 more than Ha columns before it.
        La = Ha + 1
        suffix = np.zeros(La + 1)
        col0 = lo + js
        for n in range(K):
            tail_chances(suffix, A, n)
            s = 0.0
            for j in range(max(0, lims[n] - col0 - La), min(ws, lims[n] - col0)):
                s += Y[j, n] * suffix[lims[n] - (col0 + j)]
            past[n] = s
    rounds = 0.0
    for n in range(K):
        for j in range(w):
            rounds += x[n, j]
    return x, lo, past, dropped, rounds, True


@_compiled
def after_states(next1: Any, first: Any, h_lo: int, h_hi: int) -> Any:
    """:func:`engine.odds.aa_merged._after`'s table in one compiled loop: ``out[h, n]``
    the state ``h_lo + h`` casualties on from ``first[n]`` (``next1[s]``: the state
    after one).  Each score's row is a gather from the one before, as numpy's take did,
    without a call per score (~0.06 s of the bench's joined wave of 100)."""
    K = first.shape[0]
    out = np.empty((h_hi - h_lo, K), dtype=np.int64)
    if h_hi <= h_lo:
        return out
    for n in range(K):
        at = first[n]
        for _ in range(h_lo):
            at = next1[at]
        out[0, n] = at
    for h in range(1, h_hi - h_lo):
        for n in range(K):
            out[h, n] = next1[out[h - 1, n]]
    return out


@_compiled
def chain_catalogue(B: Any, counts: Any, src: Any, tgt: Any, mult: Any, size: int) -> Any:
    """:func:`engine.odds.aa_merged._catalogue_rows`' states in one compiled walk: block
    ``k`` (``B[k]``, its first state as counts) takes ``counts[k, r]`` casualties of run
    ``r`` in turn (one unit from slot ``src[r]``, into slot ``tgt[r]`` when that is ``>=
    0``); a state's number is its place in the order the blocks' walks first reach it,
    found by its code (``state @ mult``, below ``size``) in a table.  A walk stops at the
    first state reached before: what follows it is that state's own walk (a state's
    casualties are a function of the state), so the blocks' ~16 states in 17 that are
    shared are never made (the bench's joined wave of 100: 1.3 million steps, 80,000
    states).  Returns ``(sv, hp, next1, starts, ok)``: ``ok`` False where a walk met a
    state with other hit points than its own (loss sequences that disagree) or takes a
    casualty its state does not have."""
    K, nsl = B.shape
    R = counts.shape[1]
    table = np.full(size, -1, dtype=np.int64)
    total = 0
    for k in range(K):
        for r in range(R):
            total += counts[k, r]
    cap = total + K
    sv = np.empty((cap, nsl), dtype=np.int64)
    hp = np.empty(cap, dtype=np.int64)
    next1 = np.empty(cap, dtype=np.int64)
    starts = np.empty(K, dtype=np.int64)
    cur = np.empty(nsl, dtype=np.int64)
    S = 0
    ok = True
    for k in range(K):
        left = 0
        for r in range(R):
            left += counts[k, r]
        code = 0
        for s in range(nsl):
            cur[s] = B[k, s]
            code += cur[s] * mult[s]
        prev = -1
        r = 0
        taken = 0
        while True:
            sid = table[code]
            if sid >= 0:
                if hp[sid] != left:
                    ok = False
                if prev >= 0:
                    next1[prev] = sid
                else:
                    starts[k] = sid
                break
            sid = S
            S += 1
            table[code] = sid
            for s in range(nsl):
                sv[sid, s] = cur[s]
            hp[sid] = left
            next1[sid] = sid  # the last state (no casualty left): itself
            if prev >= 0:
                next1[prev] = sid
            else:
                starts[k] = sid
            if left == 0:
                break
            while taken == counts[k, r]:
                r += 1
                taken = 0
            if cur[src[r]] <= 0:  # a casualty the state does not have: not a loss sequence
                ok = False
                break
            cur[src[r]] -= 1
            code -= mult[src[r]]
            if tgt[r] >= 0:
                cur[tgt[r]] += 1
                code += mult[tgt[r]]
            taken += 1
            left -= 1
            prev = sid
    return sv[:S].copy(), hp[:S].copy(), next1[:S].copy(), starts, ok


@_compiled
def add_at(flat: Any, at: Any, w: Any) -> None:
    """``flat[at[i]] += w[i]`` for every ``i``, in order: ``np.add.at`` on a 1-D array
    (the same sums), without its ~50 ns an element (a joined wave's ~800,000 starts put
    on their cells: ~40 ms)."""
    for i in range(at.shape[0]):
        flat[at[i]] += w[i]


@_compiled
def clear_outside(rows: Any, lo: Any, hi: Any) -> None:
    """``rows[n, c] = 0`` where ``c < lo[n]`` or ``c >= hi[n]``: the settled rows'
    cells that do not fight on (:meth:`engine.odds.aa_merged.MergedTable._settle_many`),
    without numpy's masks of every cell."""
    K, C = rows.shape
    for n in range(K):
        a = min(max(lo[n], 0), C)
        b = min(max(hi[n], a), C)
        for c in range(a):
            rows[n, c] = 0.0
        for c in range(b, C):
            rows[n, c] = 0.0


@_compiled
def dense_row_ids(rows: Any, limit: int) -> Any:
    """``numpy.unique(rows, axis=0, return_index=True, return_inverse=True)``'s last two
    for rows of counts (ints >= 0) by a table of every row's key (its counts as the
    digits of one number, the first column the most significant) instead of a sort:
    ``(first, ids, ok)``, each distinct row's first place (rows ascending) and every
    row's number among them; ``ok`` False (nothing done) where a count is negative or
    the table would have over ``limit`` keys (:func:`engine.odds.aa_table.row_ids`; a
    joined wave's ~750,000 AA outcomes: ~60 ms sorted, the columns' bounds alone ~25 ms
    in numpy)."""
    n, m = rows.shape
    lo = np.zeros(m, dtype=np.int64)
    hi = np.zeros(m, dtype=np.int64)
    for j in range(m):
        lo[j] = rows[0, j]
        hi[j] = rows[0, j]
    for i in range(n):
        for j in range(m):
            v = rows[i, j]
            if v < lo[j]:
                lo[j] = v
            if v > hi[j]:
                hi[j] = v
    empty = np.zeros(0, dtype=np.int64)
    size = 1.0
    for j in range(m):
        size *= hi[j] + 1.0
        if lo[j] < 0:
            return empty, empty, False
    if size > limit:
        return empty, empty, False
    place = np.ones(m, dtype=np.int64)
    for j in range(m - 2, -1, -1):
        place[j] = place[j + 1] * (hi[j + 1] + 1)
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        k = 0
        for j in range(m):
            k += rows[i, j] * place[j]
        keys[i] = k
    if n >= 2**31:
        return empty, empty, False
    seen = np.full(int(size), -1, dtype=np.int32)  # half the memory of int64: its pages are most of the time
    for i in range(n):
        if seen[keys[i]] < 0:
            seen[keys[i]] = i
    count = 0
    for k in range(seen.shape[0]):
        if seen[k] >= 0:
            count += 1
    first = np.empty(count, dtype=np.int64)
    count = 0
    for k in range(seen.shape[0]):
        if seen[k] >= 0:
            first[count] = seen[k]
            seen[k] = count
            count += 1
    ids = np.empty(n, dtype=np.int64)
    for i in range(n):
        ids[i] = seen[keys[i]]
    return first, ids, True


@_compiled
def folded_factor(xT: Any, A: Any, keep: int) -> Any:
    """The factor of :func:`engine.odds.aa_table._folded`'s product: ``Z[j, n] = xT[j, n]
    * p(row n's hits >= keep - 1 - j)`` (the chances summed from the most hits down, as
    numpy's cumsum of the reversed row does: the whole row's from 0 hits down, 0 past
    ``A``'s outcomes), the same numbers as numpy's suffix table and gathered copy, in one pass."""
    w, K = xT.shape
    La = A.shape[1]
    suffix = np.zeros(La + 1)
    Z = np.empty((w, K))
    for n in range(K):
        tail_chances(suffix, A, n)
        for j in range(w):
            d = keep - 1 - j
            d = 0 if d < 0 else (La if d > La else d)
            Z[j, n] = xT[j, n] * suffix[d]
    return Z


@_compiled
def convolve_rows(air: Any, air_of: Any, air_len: Any, rest: Any, rest_of: Any, rest_len: Any, width: int) -> Any:
    """``out[r] = air[air_of[r]] * rest[rest_of[r]]`` (convolved; each row's
    distributions only as long as ``air_len[r]`` and ``rest_len[r]``), ``width`` columns:
    :func:`engine.odds.aa_merged._dice_dists`' products, each column's terms added by
    the rest's outcome in turn, in one loop instead of a matrix product per distinct
    aircraft dice (~250 of them in a joined wave of 100)."""
    n = air_of.shape[0]
    out = np.zeros((n, width))
    for r in range(n):
        a, b = air_of[r], rest_of[r]
        la, lb = air_len[r], rest_len[r]
        for j in range(lb):
            bj = rest[b, j]
            for t in range(la):
                out[r, j + t] += bj * air[a, t]
    return out


@_compiled
def rows_with_mass(table: Any, row_of: Any, ids: Any) -> Any:
    """``(kept, rows)``: the states ``ids`` whose rows ``table[row_of[s]]`` have some
    mass (a cell above 0), in order, and a copy of those rows (a level's rows gathered
    and filtered in one pass instead of numpy's gather, maxima and second gather)."""
    n, C = ids.shape[0], table.shape[1]
    keep = np.zeros(n, dtype=np.bool_)
    count = 0
    for i in range(n):
        r = row_of[ids[i]]
        for c in range(C):
            if table[r, c] > 0:
                keep[i] = True
                count += 1
                break
    kept = np.empty(count, dtype=np.int64)
    rows = np.empty((count, C))
    m = 0
    for i in range(n):
        if keep[i]:
            kept[m] = ids[i]
            r = row_of[ids[i]]
            for c in range(C):
                rows[m, c] = table[r, c]
            m += 1
    return kept, rows


@_compiled
def settle_plain(rows: Any, alive: Any, quiet: Any, takes: Any, nD: int, jT: int, fought: bool, d_end: Any) -> Any:
    """:meth:`engine.odds.aa_merged.MergedTable._settle_many` for rows with no retreat,
    no round limit and no stalemate to record (the common case): a row whose attacker
    is destroyed records its cells (the defender's win, or a draw from column ``nD`` on
    where the defender fought; ``d_end`` gets each column's mass) and is cleared; a live
    row records its cells from its limit on (``nD`` where quiet, else ``jT``) as the
    attacker's win and clears them.  Returns ``(lims, per_row, defender, draw,
    attacker, taken)``: each row's limit (0: the row does not fight on), the mass each
    row recorded, and the sums by outcome (``taken``: the attacker's win where it takes
    the territory).  One pass instead of numpy's masks of every cell."""
    K, C = rows.shape
    lims = np.zeros(K, dtype=np.int64)
    per_row = np.zeros(K)
    defender = draw = attacker = taken = 0.0
    for n in range(K):
        if not alive[n]:
            s = 0.0
            for c in range(C):
                v = rows[n, c]
                if v != 0.0:
                    d_end[c] += v
                    if fought and c >= nD:
                        draw += v
                    else:
                        defender += v
                    s += v
                rows[n, c] = 0.0
            per_row[n] = s
            continue
        lim = nD if quiet[n] else jT
        lim = min(max(lim, 0), C)
        s = 0.0
        for c in range(lim, C):
            s += rows[n, c]
            rows[n, c] = 0.0
        per_row[n] = s
        attacker += s
        if takes[n]:
            taken += s
        lims[n] = lim
    return lims, per_row, defender, draw, attacker, taken
