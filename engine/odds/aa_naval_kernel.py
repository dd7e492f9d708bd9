"""The compiled loops of the numpy sea solve (:mod:`engine.odds.aa_naval`, numba): adding
the outer products of a round's mixture parts into the table of next states
(:func:`spread`; :func:`spread_stored` and :func:`spread_held` read the parts where
the sides stored them), leaving out the products too small to count as the numpy path
does; reading a target's table of where hits land along its chains, ordered by the
hit points its states lost (:func:`table_cells`); binning the cells of many casualty distributions under
restricted hits (:func:`restricted_bins`); and finding a batch's cells holding mass
(:func:`cells_with_mass`).

A part is a set of attacker next states with their chances and a set of defender next
states with theirs; every pair's product is added at (attacker state, defender state).
numpy lays the products out first (their cells and values, in chunks) and adds them with
``np.add.at`` (:func:`engine.odds.aa_naval._spread`, ~14 ns a product on the slow
machine of 2026-12-02); one loop reads the parts as they are and adds each product where
it goes, in the same order.  Compiled once per machine (numba's cache, beside this file or
in ``NUMBA_CACHE_DIR``); the loop releases the GIL while it runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.odds.compiled import borrowing as _borrowing
from engine.odds.compiled import compiled as _compiled


@_borrowing
def _part(table: Any, a_idx: Any, a_p: Any, a0: int, a1: int, scale: float, d_idx: Any, d_p: Any, d0: int, d1: int,
          tiny: float, kept: Any) -> float:
    """One part of :func:`spread` (attacker entries ``a0:a1``, their values ``a_p``
    times ``scale``; defender entries ``d0:d1``); returns the mass it left out.
    ``kept``: room for the part's defender entries kept."""
    dropped = 0.0
    a_max = 0.0
    a_sum = 0.0
    for i in range(a0, a1):
        v = a_p[i] * scale
        if v >= tiny:
            a_max = max(a_max, v)
            a_sum += v
        else:
            dropped += v
    n = 0
    for j in range(d0, d1):
        if d_p[j] * a_max >= tiny:
            kept[n] = j
            n += 1
        else:
            dropped += d_p[j] * a_sum
    for i in range(a0, a1):
        v = a_p[i] * scale
        if v >= tiny:
            row = a_idx[i]
            for m in range(n):
                j = kept[m]
                table[row, d_idx[j]] += v * d_p[j]
    return dropped


@_compiled
def spread(table: Any, a_idx: Any, a_val: Any, la: Any, d_idx: Any, d_val: Any, ld: Any, tiny: float) -> float:
    """``table[a_idx[i], d_idx[j]] += a_val[i] * d_val[j]`` for every attacker entry
    ``i`` and defender entry ``j`` of the same part, attacker-major (part ``k`` has the
    next ``la[k]`` attacker entries and the next ``ld[k]`` defender entries), leaving
    out what :func:`engine.odds.aa_naval._pruned` leaves out: an attacker entry below
    ``tiny``, then a defender entry whose product with the part's biggest attacker entry
    left is below it.  Returns the mass left out, as ``_pruned`` counts it (an attacker
    entry's value; a defender entry's times the attacker entries left of its part)."""
    dropped = 0.0
    kept = np.empty(ld.max() if ld.shape[0] else 0, dtype=np.int64)  # a part's defender entries kept
    a0 = 0
    d0 = 0
    for k in range(la.shape[0]):
        a1 = a0 + la[k]
        d1 = d0 + ld[k]
        dropped += _part(table, a_idx, a_val, a0, a1, 1.0, d_idx, d_val, d0, d1, tiny, kept)
        a0 = a1
        d0 = d1
    return dropped


@_compiled
def _room(d_ids: Any, d_len: Any) -> Any:
    """Room for the kept defender entries of the biggest of the defender's stored
    results ``d_ids`` (``d_len`` entries each): :func:`_part`'s ``kept``."""
    most = 0
    for k in range(d_ids.shape[0]):
        most = max(most, d_len[d_ids[k]])
    return np.empty(most, dtype=np.int64)


@_compiled
def spread_stored(table: Any, scale: Any, a_ids: Any, a_off: Any, a_len: Any, a_idx: Any, a_p: Any, d_ids: Any,
                  d_off: Any, d_len: Any, d_idx: Any, d_p: Any, tiny: float) -> float:
    """:func:`spread` of parts read where the sides stored them: part ``k`` is the
    attacker's result ``a_ids[k]`` (``a_len`` entries from ``a_off`` in ``a_idx`` and
    ``a_p``), its chances times ``scale[k]``, and the defender's result ``d_ids[k]``.
    The same numbers as gathering the parts first (:meth:`engine.odds.aa_naval._Parts.
    flat`) and spreading them, without the gathered copies (~15 % of the bench's full
    fleets)."""
    dropped = 0.0
    kept = _room(d_ids, d_len)
    for k in range(scale.shape[0]):
        a0 = a_off[a_ids[k]]
        d0 = d_off[d_ids[k]]
        dropped += _part(table, a_idx, a_p, a0, a0 + a_len[a_ids[k]], scale[k], d_idx, d_p, d0,
                         d0 + d_len[d_ids[k]], tiny, kept)  # fmt: skip
    return dropped


@_compiled
def spread_held(table: Any, a_idx: Any, a_val: Any, la: Any, d_ids: Any, d_off: Any, d_len: Any, d_idx: Any, d_p: Any,
                tiny: float) -> float:
    """:func:`spread` of parts whose attacker entries are flat (part ``k`` the next
    ``la[k]`` of ``a_idx``, ``a_val``) and whose defender entries are the defender's
    stored result ``d_ids[k]`` (``d_len`` entries from ``d_off`` in ``d_idx`` and
    ``d_p``): the general fire held back and merged (:meth:`engine.odds.aa_naval.
    _Deferred.flush`), without gathering the defender's results first."""
    dropped = 0.0
    kept = _room(d_ids, d_len)
    a0 = 0
    for k in range(la.shape[0]):
        d0 = d_off[d_ids[k]]
        dropped += _part(table, a_idx, a_val, a0, a0 + la[k], 1.0, d_idx, d_p, d0, d0 + d_len[d_ids[k]], tiny, kept)
        a0 += la[k]
    return dropped


@_compiled
def restricted_bins(pl: Any, tstore: Any, d: Any, dtail: Any, so: Any, ao: Any, yo: Any, n_s: Any, n_a: Any,
                    row_len: Any, tbase: Any, s1: Any, s2: Any, off: Any) -> int:
    """The cells of :func:`engine.odds.aa_naval._restricted_casualties` added into ``pl``
    as its ``np.bincount`` adds them, in the same order and with the same products (the
    same numbers, bit for bit): for item ``k``, each row ``(hs, ha)`` (``hs`` first) of its
    table weighs ``d[so + hs] * d[ao + ha]``, each of its ``row_len[k]`` cells the chance
    of that many unrestricted hits ``d[yo + hy]`` (the last one the tail sum ``dtail``)
    times that, at the state number ``tstore[tbase + hs * s1 + ha * s2 + hy]`` past the
    item's ``off[k]``.  Returns the cells enumerated."""
    cells = 0
    for k in range(so.shape[0]):
        n = row_len[k]
        last = n - 1
        for hs in range(n_s[k]):
            ds = d[so[k] + hs]
            for ha in range(n_a[k]):
                row_w = ds * d[ao[k] + ha]
                base = tbase[k] + hs * s1[k] + ha * s2[k]
                for hy in range(n):
                    w = dtail[yo[k] + hy] if hy == last else d[yo[k] + hy]
                    pl[tstore[base + hy] + off[k]] += w * row_w
        cells += n_s[k] * n_a[k] * n
    return cells


@_compiled
def table_cells(c_off: Any, c_len: Any, extra: Any, chains: Any, n_any: int, marks: Any,
                hp_arr: Any) -> tuple[Any, Any, Any]:
    """The cells of :meth:`engine.odds.aa_naval._Numbered.table`: cell ``(hs, ha, hy)``
    is the state ``extra[hs, ha] + hy`` steps down its base's chain (``c_len[hs, ha]``
    states from ``c_off[hs, ha]`` in ``chains``; past its end, its last state).
    Returns ``(numbers, local, upto)``: the distinct states ordered by the hit points
    they lost from the target's ``n_any - 1`` (``hp_arr`` by state, -1 where not
    numbered), then by number; each cell's index among them (int32); and per loss
    ``h`` from 0 to ``n_any - 1`` how many of them lost at most ``h``.  ``marks``: a
    cell of -1 per state numbered, left so."""
    ns, na = c_off.shape
    hp = n_any - 1  # every hit the target can absorb: its hit points
    met = np.empty(ns * na * n_any, dtype=np.int64)  # each cell's state, as met
    found = np.empty(min(ns * na * n_any, marks.shape[0]), dtype=np.int64)
    count = 0
    for hs in range(ns):
        for ha in range(na):
            o = c_off[hs, ha]
            last = c_len[hs, ha] - 1
            e = extra[hs, ha]
            for hy in range(n_any):
                st = chains[o + min(e + hy, last)]
                if marks[st] < 0:
                    marks[st] = count
                    found[count] = st
                    count += 1
                met[(hs * na + ha) * n_any + hy] = marks[st]
    for k in range(count):
        marks[found[k]] = -1
    # Ordered by (hit points lost, number): one key each, distinct (the numbers are).
    key = np.empty(count, dtype=np.int64)
    span = marks.shape[0]
    upto = np.zeros(hp + 1, dtype=np.int64)
    for k in range(count):
        lost = hp - hp_arr[found[k]]
        if lost < 0 or lost > hp:  # (numba checks no bounds: never write past upto)
            raise ValueError("table_cells: a state with more hit points than its target, or not numbered")
        key[k] = lost * span + found[k]
        upto[lost] += 1
    for h in range(1, hp + 1):
        upto[h] += upto[h - 1]
    order = np.argsort(key)
    rank = np.empty(count, dtype=np.int32)
    numbers = np.empty(count, dtype=np.int64)
    for k in range(count):
        rank[order[k]] = k
        numbers[k] = found[order[k]]
    return numbers, rank[met].reshape((ns, na, n_any)), upto


@_compiled
def cells_with_mass(pl: Any, off: Any, span: int, source: Any, base: Any) -> Any:
    """:func:`engine.odds.aa_naval._cells_with_mass` in one pass: the cells of ``pl``
    holding mass, item by item (item k's from ``off[k]`` to the next item's, the last
    one's to ``span``), as ``(states, chances, counts)``, cell ``off[k] + x`` being
    state ``source[base[k] + x]``."""
    n = 0
    for x in range(span):
        if pl[x] != 0.0:
            n += 1
    states = np.empty(n, dtype=source.dtype)
    p = np.empty(n)
    counts = np.zeros(off.shape[0], dtype=np.int64)
    at = 0
    for k in range(off.shape[0]):
        start = at
        end = off[k + 1] if k + 1 < off.shape[0] else span
        for x in range(off[k], end):
            v = pl[x]
            if v != 0.0:
                states[at] = source[base[k] + x - off[k]]
                p[at] = v
                at += 1
        counts[k] = at - start
    return states, p, counts


def warm() -> None:
    """Compile (or load from numba's cache) every loop here for the arrays the engine
    passes them."""
    ints = np.zeros(1, dtype=np.int64)
    spread(np.zeros((1, 1)), ints, np.zeros(1), np.ones(1, dtype=np.int64), ints, np.zeros(1),
           np.ones(1, dtype=np.int64), 1e-19)  # fmt: skip
    spread_stored(np.zeros((1, 1)), np.zeros(1), ints, ints, ints, np.zeros(1, dtype=np.int32), np.zeros(1), ints, ints,
                  ints, np.zeros(1, dtype=np.int32), np.zeros(1), 1e-19)  # fmt: skip
    spread_held(np.zeros((1, 1)), ints, np.zeros(1), ints, ints, ints, ints, np.zeros(1, dtype=np.int32), np.zeros(1),
                1e-19)  # fmt: skip
    ones = np.ones(1, dtype=np.int64)
    restricted_bins(np.zeros(1), np.zeros(1, dtype=np.int32), np.zeros(1), np.zeros(1), ints, ints, ints, ones, ones,
                    ones, ints, ints, ints, ints)  # fmt: skip
    table_cells(np.zeros((1, 1), dtype=np.int64), np.ones((1, 1), dtype=np.int64), np.zeros((1, 1), dtype=np.int64),
                ints, 1, np.full(1, -1, dtype=np.int64), ints)
    for source in (ints, np.zeros(1, dtype=np.int32)):  # the chains, the tables' states
        cells_with_mass(np.zeros(1), ints, 1, source, ints)
