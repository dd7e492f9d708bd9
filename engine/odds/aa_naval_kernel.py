"""The compiled loops of the numpy sea solve (:mod:`engine.odds.aa_naval`, numba): adding
the outer products of a round's mixture parts into the table of next states
(:func:`spread`; :func:`spread_stored` and :func:`spread_held` read the parts where
the sides stored them), leaving out the products too small to count as the numpy path
does; reading a target's table of where hits land along its chains, ordered by the
hit points its states lost (:func:`table_cells`), and its runs of rows (:func:`row_runs`),
every table a batch asks for in one call (:func:`tables_cells`);
binning the cells of many casualty distributions under restricted hits
(:func:`restricted_bins`) or along chains (:func:`along_cells`); and storing a batch's
cells holding mass at once (:func:`cells_stored`).

A part is a set of attacker next states with their chances and a set of defender next
states with theirs; every pair's product is added at (attacker state, defender state).
numpy lays the products out first (their cells and values, in chunks) and adds them with
``np.add.at`` (:func:`engine.odds.aa_naval._spread`, ~14 ns a product on the slow
machine of 2026-12-02); one loop reads the parts as they are and adds each product where
it goes, in the same order.  Compiled once per machine (numba's cache, beside this file or
in ``NUMBA_CACHE_DIR``); the loop releases the GIL while it runs, its helpers put into
the loops that call them (:func:`engine.odds.compiled.borrowing`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.odds.compiled import borrowing as _borrowing
from engine.odds.compiled import compiled as _compiled
from engine.odds.compiled import prefetcher as _prefetcher

# The spreads, the chances backward and the held values ask for what the part (or
# node) this many on reads, ahead of it.
AHEAD = 2
GATHER_AHEAD = 16  # memo values asked for ahead of their reading (_gathered)
# The chances backward's held entries (held_values) are keyed result << ENTRY_ROW_BITS |
# attacker row, as the forward's (engine.odds.aa_naval.ROW_BITS: the same width).
ENTRY_ROW_BITS = 24
ENTRY_ROW_MASK = (1 << ENTRY_ROW_BITS) - 1

_prefetch: Any = _prefetcher()


@_borrowing
def _kept(a_p: Any, a0: int, a1: int, scale: float, d_idx: Any, d_p: Any, d0: int, d1: int, tiny: float, kept: Any,
          kept_p: Any) -> tuple[int, float, float]:
    """Which products of a part are spread (attacker entries ``a0:a1``, their values
    ``a_p`` times ``scale``; defender entries ``d0:d1``), as
    :func:`engine.odds.aa_naval._pruned` decides: every attacker entry of at least
    ``tiny`` with every defender entry whose product with the largest of them is at
    least ``tiny``.  The defender entries kept go into ``kept`` (columns) and ``kept_p``
    (chances; room for every entry); returns ``(how many, their chances' sum, the mass
    left out)`` (an attacker entry's value; the chances of the defender entries left
    out, summed, times the attacker values kept).  Every defender entry is written and
    the count moves on only past those kept: no branch for the processor to mispredict
    where kept and left-out entries alternate along a result (6.2-6.3 -> 5.8-5.9 s of
    the slowest kind's held spread at 100 a side, timed inside the solve)."""
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
    d_sum = 0.0
    lost = 0.0
    for j in range(d0, d1):
        p = d_p[j]
        kept[n] = d_idx[j]
        kept_p[n] = p
        keep = p * a_max >= tiny
        n += keep
        d_sum += p if keep else 0.0
        lost += 0.0 if keep else p
    return n, d_sum, dropped + lost * a_sum


@_borrowing
def _part(table: Any, a_idx: Any, a_p: Any, a0: int, a1: int, scale: float, d_idx: Any, d_p: Any, d0: int, d1: int,
          tiny: float, kept: Any, kept_p: Any) -> float:
    """One part of :func:`spread` (attacker entries ``a0:a1``, their values ``a_p``
    times ``scale``; defender entries ``d0:d1``); returns the mass it left out.
    ``kept``, ``kept_p``: room for the part's defender entries kept, their columns and
    chances (read in a row for each attacker entry)."""
    n, _, dropped = _kept(a_p, a0, a1, scale, d_idx, d_p, d0, d1, tiny, kept, kept_p)
    # The attacker entries kept, two at a time: each defender entry read once for both
    # rows (~7 % of a battle at 70 a side).  The same products; a cell gets them in the
    # attacker entries' order where a part's defender entries are distinct columns, as
    # the engine's are (a stored distribution's states).
    held = -1
    held_v = 0.0
    for i in range(a0, a1):
        v = a_p[i] * scale
        if v >= tiny:
            if held < 0:
                held = a_idx[i]
                held_v = v
                continue
            first = table[held]
            second = table[a_idx[i]]
            for m in range(n):
                c = kept[m]
                q = kept_p[m]
                first[c] += held_v * q
                second[c] += v * q
            held = -1
    if held >= 0:
        first = table[held]
        for m in range(n):
            first[kept[m]] += held_v * kept_p[m]
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
    most = ld.max() if ld.shape[0] else 0
    kept = np.empty(most, dtype=np.int64)  # a part's defender entries kept
    kept_p = np.empty(most)
    a0 = 0
    d0 = 0
    for k in range(la.shape[0]):
        a1 = a0 + la[k]
        d1 = d0 + ld[k]
        dropped += _part(table, a_idx, a_val, a0, a1, 1.0, d_idx, d_val, d0, d1, tiny, kept, kept_p)
        a0 = a1
        d0 = d1
    return dropped


@_compiled
def _room(d_ids: Any, d_len: Any) -> tuple[Any, Any]:
    """Room for the kept defender entries of the biggest of the defender's stored
    results ``d_ids`` (``d_len`` entries each): :func:`_part`'s ``kept``, ``kept_p``."""
    most = 0
    for k in range(d_ids.shape[0]):
        most = max(most, d_len[d_ids[k]])
    return np.empty(most, dtype=np.int64), np.empty(most)


@_borrowing
def _ask_ahead(idx: Any, p: Any, at: int, n: int) -> None:
    """Ask for a stored result (``n`` entries from ``at`` in ``idx``, int32, and ``p``)
    a cache line at a time, without waiting for it: the spreads read whole results from
    stores far bigger than the caches, each somewhere else, and without this wait for
    each (timed inside the solve on 2026-12-07's slow-memory machine: :func:`spread_held`
    ~6.7 -> ~6.2 s of the slowest kind at 100 a side, :func:`spread_stored` ~2.5 ->
    ~1.9 s there and ~0.82 -> ~0.67 s in the fleet with destroyers on the defender's
    side only)."""
    for x in range(0, n, 16):
        _prefetch(idx, at + x)
    for x in range(0, n, 8):
        _prefetch(p, at + x)


@_borrowing
def _ask_cells(flat: Any, at: int, cols: Any, n: int) -> None:
    """Ask for the cells ``at + cols[:n]`` of a table read as ``flat`` (a row's kept
    columns), without waiting: the chances backwards read a row's cells scattered over
    a table far bigger than the caches, the row after next asked for while one is
    summed (:func:`held_values`, :func:`bilinear_stored`)."""
    for m in range(n):
        _prefetch(flat, at + cols[m])


@_compiled
def spread_stored(table: Any, scale: Any, a_ids: Any, a_off: Any, a_len: Any, a_idx: Any, a_p: Any, d_ids: Any,
                  d_off: Any, d_len: Any, d_idx: Any, d_p: Any, tiny: float) -> float:
    """:func:`spread` of parts read where the sides stored them: part ``k`` is the
    attacker's result ``a_ids[k]`` (``a_len`` entries from ``a_off`` in ``a_idx`` and
    ``a_p``), its chances times ``scale[k]``, and the defender's result ``d_ids[k]``.
    The same numbers as gathering the parts first (:meth:`engine.odds.aa_naval._Parts.
    flat`) and spreading them, without the gathered copies (~15 % of the bench's full
    fleets).  Its parts stay in their order: spread by row as :func:`held_order`, the
    slowest kind's took as long (1.9 s) and the other battles' a little longer (their
    results were made just before, in that order, and are still cached)."""
    dropped = 0.0
    kept, kept_p = _room(d_ids, d_len)
    parts = scale.shape[0]
    for k in range(parts):
        if k + AHEAD < parts:
            _ask_ahead(a_idx, a_p, a_off[a_ids[k + AHEAD]], a_len[a_ids[k + AHEAD]])
            _ask_ahead(d_idx, d_p, d_off[d_ids[k + AHEAD]], d_len[d_ids[k + AHEAD]])
        a0 = a_off[a_ids[k]]
        d0 = d_off[d_ids[k]]
        dropped += _part(table, a_idx, a_p, a0, a0 + a_len[a_ids[k]], scale[k], d_idx, d_p, d0,
                         d0 + d_len[d_ids[k]], tiny, kept, kept_p)  # fmt: skip
    return dropped


@_compiled
def held_order(a_idx: Any, la: Any, rows: int) -> tuple[Any, Any]:
    """The order :func:`spread_held` spreads its parts in, and where each part's attacker
    entries start: by the table row of each part's middle attacker entry (entry
    ``la[k] // 2`` of part ``k``), parts with the same row in their own order (a stable
    counting sort of the rows ``0 .. rows - 1``; numpy's stable ``argsort`` of the same
    rows gives the same order).  Parts writing near the same rows one after the other
    find those rows still in the cache: 9.1 -> ~6.7 s of the slowest kind's products
    at 100 a side (the products and their sums the same; a cell's additions in another
    order)."""
    n = la.shape[0]
    starts = np.empty(n, dtype=np.int64)
    count = np.zeros(rows + 1, dtype=np.int64)
    a0 = 0
    for k in range(n):
        starts[k] = a0
        count[a_idx[a0 + la[k] // 2] + 1] += 1
        a0 += la[k]
    for r in range(rows):
        count[r + 1] += count[r]
    order = np.empty(n, dtype=np.int64)
    for k in range(n):
        r = a_idx[starts[k] + la[k] // 2]
        order[count[r]] = k
        count[r] += 1
    return order, starts


@_compiled
def spread_held(table: Any, a_idx: Any, a_val: Any, la: Any, d_ids: Any, d_off: Any, d_len: Any, d_idx: Any, d_p: Any,
                tiny: float) -> float:
    """:func:`spread` of parts whose attacker entries are flat (part ``k`` the next
    ``la[k]`` of ``a_idx``, ``a_val``; every part has one) and whose defender entries are
    the defender's stored result ``d_ids[k]`` (``d_len`` entries from ``d_off`` in
    ``d_idx`` and ``d_p``): the general fire held back and merged (:meth:`engine.odds.
    aa_naval._Deferred.flush`), without gathering the defender's results first; the
    parts in :func:`held_order`."""
    dropped = 0.0
    kept, kept_p = _room(d_ids, d_len)
    order, starts = held_order(a_idx, la, table.shape[0])
    n = order.shape[0]
    for t in range(n):
        if t + AHEAD < n:
            ahead = d_ids[order[t + AHEAD]]
            _ask_ahead(d_idx, d_p, d_off[ahead], d_len[ahead])
        k = order[t]
        a0 = starts[k]
        d0 = d_off[d_ids[k]]
        dropped += _part(table, a_idx, a_val, a0, a0 + la[k], 1.0, d_idx, d_p, d0, d0 + d_len[d_ids[k]], tiny, kept,
                         kept_p)  # fmt: skip
    return dropped


@_compiled
def bilinear_stored(both: Any, scale: Any, a_ids: Any, a_off: Any, a_len: Any, a_idx: Any, a_p: Any, d_ids: Any,
                    d_off: Any, d_len: Any, d_idx: Any, d_p: Any, tiny: float) -> Any:
    """:func:`engine.odds.aa_naval._bilinear` read where the sides stored their results:
    per part ``k`` (the attacker's result ``a_ids[k]``, the defender's ``d_ids[k]``,
    spread with mass ``scale[k]``), the sum over the products the spread keeps
    (:func:`_kept`) of both chances times ``both`` (the complex table of the chances
    backward) at their cell; its imaginary part plus the chance of the products left
    out, one minus the
    kept attacker chances' sum times the kept defender chances'.  The numpy path's
    sums (to rounding: each attacker entry's run of products added in order), without
    its gathered copies and index arrays (its ~1.1 s were over a third of the full
    fleets' retreat by win chance on 2026-12-07's machine)."""
    out = np.zeros(scale.shape[0], dtype=both.dtype)
    kept, kept_p = _room(d_ids, d_len)
    parts = scale.shape[0]
    both_flat = both.reshape(-1)
    ncol = both.shape[1]
    for k in range(parts):
        if k + AHEAD < parts:
            _ask_ahead(a_idx, a_p, a_off[a_ids[k + AHEAD]], a_len[a_ids[k + AHEAD]])
            _ask_ahead(d_idx, d_p, d_off[d_ids[k + AHEAD]], d_len[d_ids[k + AHEAD]])
        a0 = a_off[a_ids[k]]
        a1 = a0 + a_len[a_ids[k]]
        s = scale[k]
        d0 = d_off[d_ids[k]]
        n, d_sum, _ = _kept(a_p, a0, a1, s, d_idx, d_p, d0, d0 + d_len[d_ids[k]], tiny, kept, kept_p)
        if n == 0:  # every product of the part left out
            out[k] = 1j
            continue
        a_sum = 0.0
        total = 0j
        for i in range(a0, a1):
            if i + 2 < a1:  # the cells of the entry after next asked for
                _ask_cells(both_flat, a_idx[i + 2] * ncol, kept, n)
            if a_p[i] * s >= tiny:
                a_sum += a_p[i]
                row = both[a_idx[i]]
                acc = 0j
                for m in range(n):
                    acc += row[kept[m]] * kept_p[m]
                total += acc * a_p[i]
        out[k] = _with_rest(total, a_sum * d_sum)
    return out


@_borrowing
def _with_rest(acc: complex, total: float) -> complex:
    """A value of the chances backward: ``acc`` (the chances it read times their cells'
    values), its imaginary part also given what ``total`` (those chances' sum) lacks of 1
    (the chances left out, and rounding)."""
    return acc + max(1.0 - total, 0.0) * 1j


@_borrowing
def _slot_in(keys: Any, off: int, n: int, key: int) -> int:
    """Where ``key`` is, or would go, in the ascending ``keys[off:off + n]``."""
    lo = off
    hi = off + n
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@_borrowing
def _cut(tiny: float, most: float) -> float:
    """The least chance a product with mass at most ``most`` needs to reach ``tiny``."""
    return tiny / most if most > 0.0 else np.inf


@_borrowing
def _result_kept(c: int, cut: float, d_off: Any, d_len: Any, d_idx: Any, d_p: Any, kept: Any,
                 kept_p: Any) -> tuple[int, float]:
    """The entries of defender result ``c`` whose chance is at least ``cut`` (those the
    forward may have spread): their columns into ``kept``, their chances into
    ``kept_p``; how many, and their chances' sum."""
    nk = 0
    total = 0.0
    for e in range(d_off[c], d_off[c] + d_len[c]):
        if d_p[e] >= cut:
            kept[nk] = d_idx[e]
            kept_p[nk] = d_p[e]
            total += d_p[e]
            nk += 1
    return nk, total


@_borrowing
def _entry_value(both: Any, row: int, kept: Any, kept_p: Any, nk: int, total: float) -> complex:
    """The value of the entry (attacker row ``row``, a defender result whose entries
    kept are ``kept``, ``kept_p``, ``nk`` of them, chances summing to ``total``:
    :func:`_result_kept`): their chances times ``both`` at (``row``, each column)."""
    acc = 0j
    for e in range(nk):
        acc += both[row, kept[e]] * kept_p[e]
    return _with_rest(acc, total)


@_borrowing
def _kept_at(keys: Any, off: int, n: int, key: int) -> int:
    """Where ``key`` is kept in the ascending ``keys[off:off + n]``, or -1."""
    at = _slot_in(keys, off, n, key)
    return at if at < off + n and keys[at] == key else -1


@_borrowing
def _row_value(both: Any, row: int, c: int, own: bool, cut: float, d_off: Any, d_len: Any, d_idx: Any, d_p: Any,
               kept: Any, kept_p: Any, vk: Any, voff: Any, vlen: Any, vals: Any, refs: Any, pos: Any, at: int,
               need_v: Any, nv: int) -> int:
    """The value of attacker row ``row`` with defender result ``c`` into ``vals[at]``
    (``refs[at]`` 0, ``pos[at]`` -1): worked out where it is the node's own (``own``:
    its level's cell, summed in closed form; not kept; ``kept``, ``kept_p``: room for
    the result's entries); where kept in the memo, its place there into ``pos[at]``
    (read by :func:`_gathered`); else listed in ``need_v`` (``refs[at]``: -1 - its
    place there).  Returns need_v's length."""
    refs[at] = 0
    pos[at] = -1
    if own:
        nk, total = _result_kept(c, cut, d_off, d_len, d_idx, d_p, kept, kept_p)
        vals[at] = _entry_value(both, row, kept, kept_p, nk, total)
        return nv
    got = _kept_at(vk, voff[c], vlen[c], row)
    if got >= 0:
        pos[at] = got
        return nv
    refs[at] = -1 - nv
    need_v[nv] = (c << ENTRY_ROW_BITS) | row
    return nv + 1


@_borrowing
def _gathered(vals: Any, pos: Any, n: int, vv: Any) -> None:
    """``vals[x]`` = ``vv[pos[x]]`` where ``pos[x]`` is a place in a memo's pool (not -1),
    for x below ``n``, each read asked for GATHER_AHEAD items ahead: read where they
    were found, one after another, each waited for (a pool of ~10^8 values, past the
    caches), they were ~1/8 of the held chances backward (perf, 2026-12-07)."""
    for x in range(n):
        if x + GATHER_AHEAD < n and pos[x + GATHER_AHEAD] >= 0:
            _prefetch(vv, pos[x + GATHER_AHEAD])
        if pos[x] >= 0:
            vals[x] = vv[pos[x]]


@_compiled
def _pool_room(keys: Any, vals: Any, offs: Any, lens: Any, caps: Any, used: Any, need: int, last_use: Any,
               level: int) -> tuple[Any, Any]:
    """A memo's pool with room for ``need`` more items: as it is, or its blocks still to
    be read (``last_use`` at ``level`` or above) copied into a new one, each at its
    size, the others dropped (their slots freed)."""
    if used[0] + need <= keys.shape[0]:
        return keys, vals
    live = 0
    for c in range(offs.shape[0]):
        if lens[c] and last_use[c] >= level:
            live += caps[c]
    size = max(2 * (live + need), 1024)
    new_k = np.empty(size, dtype=keys.dtype)
    new_v = np.empty(size, dtype=vals.dtype)
    at = 0
    for c in range(offs.shape[0]):
        if caps[c] == 0:
            continue
        if lens[c] and last_use[c] >= level:
            for x in range(lens[c]):
                new_k[at + x] = keys[offs[c] + x]
                new_v[at + x] = vals[offs[c] + x]
            offs[c] = at
            at += caps[c]
        else:
            offs[c] = 0
            lens[c] = 0
            caps[c] = 0
    used[0] = at
    return new_k, new_v


@_compiled
def _pool_merge(keys: Any, vals: Any, offs: Any, lens: Any, caps: Any, used: Any, c: int, new_k: Any, new_v: Any,
                lo: int, hi: int, mask: int, last_use: Any, level: int) -> tuple[Any, Any]:
    """Block ``c`` of a memo merged with the keys ``new_k[lo:hi] & mask`` (ascending,
    none kept yet) and their values: in place where it has room, else into a new block
    half again as big at the end of the pool (room made first)."""
    n = lens[c]
    add = hi - lo
    if n + add > caps[c]:
        cap = max(16, (n + add) + (n + add) // 2)
        keys, vals = _pool_room(keys, vals, offs, lens, caps, used, cap, last_use, level)
        new = used[0]
        used[0] = new + cap
        for x in range(n):
            keys[new + x] = keys[offs[c] + x]
            vals[new + x] = vals[offs[c] + x]
        offs[c] = new
        caps[c] = cap
    off = offs[c]
    # From the end: the kept keys and the new ones, the bigger first.
    i = n - 1
    j = hi - 1
    for w in range(off + n + add - 1, off - 1, -1):
        if j < lo or (i >= 0 and keys[off + i] > (new_k[j] & mask)):
            keys[w] = keys[off + i]
            vals[w] = vals[off + i]
            i -= 1
        else:
            keys[w] = new_k[j] & mask
            vals[w] = new_v[j]
            j -= 1
    lens[c] = n + add
    return keys, vals


@_compiled
def _memo_merged(pk: Any, pv: Any, offs: Any, lens: Any, caps: Any, used: Any, keys: Any, vals: Any, n: int,
                 shift: int, last_use: Any, level: int) -> tuple[Any, Any]:
    """Keys ``keys[:n]`` (result << ``shift`` | item; ascending, distinct, none kept
    yet) and their values merged into each result's block of a memo (pool ``pk``,
    ``pv``: handed back, grown or compacted where it had to be)."""
    mask = (1 << shift) - 1
    lo = 0
    while lo < n:
        c = keys[lo] >> shift
        hi = lo + 1
        while hi < n and (keys[hi] >> shift) == c:
            hi += 1
        pk, pv = _pool_merge(pk, pv, offs, lens, caps, used, c, keys, vals, lo, hi, mask, last_use, level)
        lo = hi
    return pk, pv


@_compiled
def held_values(both: Any, level: int, split: Any, cds: Any, g: Any, j_hp: Any, a_off: Any, a_len: Any, a_idx: Any,
                a_p: Any, c_off: Any, c_len: Any, u_off: Any, u_n: Any, air_off: Any, air_n: Any, chains: Any,
                aseq: Any, dstore: Any, dtail: Any, slot_of: Any, hp: Any, slot_hp: Any, d_off: Any, d_len: Any,
                d_idx: Any, d_p: Any, tiny: float, last_use: Any, most: Any, vmemo: Any, umemo: Any) -> Any:
    """The chances backward's values of general fire at a level's nodes whose general
    fire the forward held back (:class:`engine.odds.aa_naval._HeldValues`): per node,
    its attacker entries (those of mass ``g`` times their chance of at least ``tiny``,
    as the forward kept them) times the values of the entries they reach (attacker row,
    defender result ``cds``), each entry's value worked out once and kept in a memo by
    result (``vmemo``: its pool grown or compacted here, handed back); a node whose
    casualties were split (``split``: :meth:`engine.odds.aa_naval._Deferred.add_split`)
    its unrestricted hits along its chain to states between, each state's value (its
    aircraft hits' cells) kept in a memo too (``umemo``).  A defender entry or an
    aircraft-hit cell whose chance times ``most`` (per distribution, the most mass its
    held entries could merge) is below ``tiny`` is left out (the forward surely left it
    out), as is a row the forward never gave a table row.  Each value is looked up once:
    the entries not kept yet are then worked out all at once, by defender result (its
    entries read once for all its rows), the results in the order of their middle row
    (as :func:`held_order` orders the forward's parts: rows read one after another stay
    cached).  Returns the values (complex, as :func:`bilinear_stored`'s) and both memos."""
    vk, vv, voff, vlen, vcap, vused = vmemo
    uk, uv, uoff, ulen, ucap, uused = umemo
    n = cds.shape[0]
    most_i = 0  # a node's items: its attacker entries, or its states between
    most_c = 0  # the aircraft-hit cells of the states between not kept yet
    for k in range(n):
        if split[k]:
            n1 = min(u_n[k], c_len[k])
            most_i += n1
            most_c += n1 * air_n[k]
        else:
            most_i += a_len[k]
    # 1. Each item's weight and value, or where its value will be: -1 - (an entry not
    # kept yet, in need_v) or, for a state between, an index in need_u (its cells in
    # cells_*, from cell_at[u]).
    item_w = np.empty(most_i)
    item_v = np.empty(most_i, dtype=both.dtype)
    item_ref = np.empty(most_i, dtype=np.int64)  # 0: value in item_v
    item_pos = np.empty(most_i, dtype=np.int64)  # (or, until _gathered, in vv there)
    item_upos = np.empty(most_i, dtype=np.int64)  # (or in uv there)
    need_v = np.empty(most_c + most_i, dtype=np.int64)  # result << ENTRY_ROW_BITS | row
    need_u = np.empty(most_i, dtype=np.int64)  # (result << 1 | kept) per state between worked out
    need_b = np.empty(most_i, dtype=np.int64)
    cell_at = np.empty(most_i + 1, dtype=np.int64)
    cell_p = np.empty(most_c)
    cell_v = np.empty(most_c, dtype=both.dtype)
    cell_ref = np.empty(most_c, dtype=np.int64)
    cell_pos = np.empty(most_c, dtype=np.int64)
    longest = 1  # a defender result's entries, at most (room to keep them in)
    for k in range(n):
        longest = max(longest, d_len[cds[k]])
    kept = np.empty(longest, dtype=np.int64)
    kept_p = np.empty(longest)
    ni = 0
    nv = 0
    nu = 0
    nc = 0
    item_end = np.empty(n, dtype=np.int64)
    for k in range(n):
        if k + AHEAD < n:  # the memo blocks of the node two on asked for ahead
            c2 = cds[k + AHEAD]
            for x in range(voff[c2], voff[c2] + vlen[c2], 8):
                _prefetch(vk, x)
            for x in range(uoff[c2], uoff[c2] + ulen[c2], 8):
                _prefetch(uk, x)
        c = cds[k]
        jh = j_hp[k]
        if split[k]:
            n1 = min(u_n[k], c_len[k])
            for h in range(n1):
                p = _along_chance(dstore, dtail, u_off[k], h, n1)
                if p * g[k] < tiny:
                    continue
                b = chains[c_off[k] + h]
                item_w[ni] = p
                own = hp[b] + jh >= level  # the node's own state: its level's cell, not kept
                at = -1 if own else _kept_at(uk, uoff[c], ulen[c], b)
                item_pos[ni] = -1
                item_upos[ni] = at  # (read by _gathered where kept)
                if at >= 0:
                    item_ref[ni] = 0
                else:
                    item_ref[ni] = 1 + nu
                    need_u[nu] = (c << 1) | (0 if own else 1)
                    need_b[nu] = b
                    cell_at[nu] = nc
                    ao = aseq[b, 0]
                    n2 = min(air_n[k], aseq[b, 1])
                    for x in range(n2):
                        p2 = _along_chance(dstore, dtail, air_off[k], x, n2)
                        if p2 * most[c] < tiny:  # the forward surely left it out: left out
                            continue
                        cell_p[nc] = p2
                        r = chains[ao + x]
                        row = slot_of[r]
                        if row < 0:  # no table row: anything
                            cell_ref[nc] = 0
                            cell_pos[nc] = -1
                            cell_v[nc] = 1j
                        else:
                            nv = _row_value(both, row, c, hp[r] + jh >= level, _cut(tiny, most[c]), d_off, d_len, d_idx,
                                            d_p, kept, kept_p, vk, voff, vlen, cell_v, cell_ref, cell_pos, nc, need_v,
                                            nv)  # fmt: skip
                        nc += 1
                    nu += 1
                ni += 1
        else:
            for e in range(a_off[k], a_off[k] + a_len[k]):
                w = a_p[e]
                if w * g[k] < tiny:
                    continue
                row = a_idx[e]
                item_w[ni] = w
                item_upos[ni] = -1
                nv = _row_value(both, row, c, slot_hp[row] + jh >= level, _cut(tiny, most[c]), d_off, d_len, d_idx, d_p,
                                kept, kept_p, vk, voff, vlen, item_v, item_ref, item_pos, ni, need_v, nv)  # fmt: skip
                ni += 1
        item_end[k] = ni
    cell_at[nu] = nc
    # The values found kept in the memos, read now (before the merges below move them).
    _gathered(item_v, item_pos, ni, vv)
    _gathered(item_v, item_upos, ni, uv)
    _gathered(cell_v, cell_pos, nc, vv)
    # 2. The entries not kept yet, each once, worked out by defender result and kept
    # (sorted by the radix sort: ~18 ns a key against ~78 for numba's argsort, 8.4
    # million keys at 60 a side).
    ordered, by = radix_sorted(need_v[:nv])
    keys = np.empty(nv, dtype=np.int64)
    which = np.empty(nv, dtype=np.int64)  # need_v's index -> its distinct key's
    m = 0
    for x in range(nv):
        key = ordered[x]
        if m == 0 or keys[m - 1] != key:
            keys[m] = key
            m += 1
        which[by[x]] = m - 1
    starts = np.empty(m + 1, dtype=np.int64)
    parts = 0
    for x in range(m):
        if x == 0 or (keys[x] >> ENTRY_ROW_BITS) != (keys[x - 1] >> ENTRY_ROW_BITS):
            starts[parts] = x
            parts += 1
    starts[parts] = m
    mid = np.empty(parts, dtype=np.int64)
    for q in range(parts):
        mid[q] = keys[(starts[q] + starts[q + 1]) // 2] & ENTRY_ROW_MASK
    order = np.argsort(mid, kind="mergesort")
    vals = np.empty(m, dtype=both.dtype)
    both_flat = both.reshape(-1)
    ncol = both.shape[1]
    for t in range(parts):
        if t + AHEAD < parts:
            ahead = keys[starts[order[t + AHEAD]]] >> ENTRY_ROW_BITS
            _ask_ahead(d_idx, d_p, d_off[ahead], d_len[ahead])
        q = order[t]
        c = keys[starts[q]] >> ENTRY_ROW_BITS
        # The result's entries the forward may have spread: at least TINY times the
        # most mass its entries could merge (most[c]); read once for all its rows.
        nk, total = _result_kept(c, _cut(tiny, most[c]), d_off, d_len, d_idx, d_p, kept, kept_p)
        for x in range(starts[q], starts[q + 1]):
            if x + 2 < starts[q + 1]:  # the row after next's cells asked for while this one is summed
                _ask_cells(both_flat, (keys[x + 2] & ENTRY_ROW_MASK) * ncol, kept, nk)
            vals[x] = _entry_value(both, keys[x] & ENTRY_ROW_MASK, kept, kept_p, nk, total)
    vk, vv = _memo_merged(vk, vv, voff, vlen, vcap, vused, keys, vals, m, ENTRY_ROW_BITS, last_use, level)
    # 3. The states between worked out, and kept (not a node's own; each once: two
    # nodes of a level may share one).
    u_val = np.empty(nu, dtype=both.dtype)
    u_key = np.empty(nu, dtype=np.int64)  # result << 32 | state, or -1: a node's own
    for x in range(nu):
        acc = 0j
        total = 0.0
        for y in range(cell_at[x], cell_at[x + 1]):
            p = cell_p[y]
            total += p
            acc += p * (cell_v[y] if cell_ref[y] == 0 else vals[which[-1 - cell_ref[y]]])
        u_val[x] = _with_rest(acc, total)
        u_key[x] = ((need_u[x] >> 1) << 32) | need_b[x] if need_u[x] & 1 else -1
    by_u = np.argsort(u_key)
    u_kept = np.empty(nu, dtype=np.int64)
    u_kept_v = np.empty(nu, dtype=both.dtype)
    mu = 0
    for x in range(nu):
        key = u_key[by_u[x]]
        if key >= 0 and (mu == 0 or u_kept[mu - 1] != key):
            u_kept[mu] = key
            u_kept_v[mu] = u_val[by_u[x]]
            mu += 1
    uk, uv = _memo_merged(uk, uv, uoff, ulen, ucap, uused, u_kept, u_kept_v, mu, 32, last_use, level)
    # 4. Each node's value.
    out = np.empty(n, dtype=both.dtype)
    y = 0
    for k in range(n):
        acc = 0j
        total = 0.0
        for x in range(y, item_end[k]):
            w = item_w[x]
            total += w
            ref = item_ref[x]
            if ref == 0:
                acc += w * item_v[x]
            elif ref < 0:
                acc += w * vals[which[-1 - ref]]
            else:
                acc += w * u_val[ref - 1]
        y = item_end[k]
        out[k] = _with_rest(acc, total)
    return out, (vk, vv, voff, vlen, vcap, vused), (uk, uv, uoff, ulen, ucap, uused)


@_compiled
def level_cells(table: Any, a_ids: Any, d_ids: Any, lo: Any, hi: Any) -> tuple[Any, Any, Any, Any]:
    """The cells of a level holding mass, taken out of ``table`` (attacker slot x 2
    defender slot + phase): for each attacker slot ``a_ids[k]``, the defender slots
    ``d_ids[lo[k]:hi[k]]`` (those whose hit points make up the level).  Returns their
    slots and S and G masses, attacker-major in that order, as
    :meth:`engine.odds.aa_naval.NavalSolver._level`'s numpy path finds them, without
    laying out every pair of the level first (~8 % of the full fleets' solve)."""
    total = 0
    for k in range(a_ids.shape[0]):
        total += hi[k] - lo[k]
    si = np.empty(total, dtype=np.int64)
    sj = np.empty(total, dtype=np.int64)
    ms = np.empty(total)
    mg = np.empty(total)
    c = 0
    for k in range(a_ids.shape[0]):
        row = table[a_ids[k]]
        for p in range(lo[k], hi[k]):
            j = d_ids[p]
            s = row[2 * j]
            g = row[2 * j + 1]
            if s != 0.0 or g != 0.0:
                si[c] = a_ids[k]
                sj[c] = j
                ms[c] = s
                mg[c] = g
                row[2 * j] = 0.0
                row[2 * j + 1] = 0.0
                c += 1
    return si[:c].copy(), sj[:c].copy(), ms[:c].copy(), mg[:c].copy()


@_compiled
def restricted_bins(pl: Any, tstore: Any, rstore: Any, d: Any, dtail: Any, so: Any, ao: Any, yo: Any, n_s: Any,
                    n_a: Any, row_len: Any, tbase: Any, rbase: Any, s1: Any, s2: Any, off: Any) -> int:
    """The cells of :func:`engine.odds.aa_naval._restricted_casualties` added into ``pl``:
    for item ``k``, each row ``(hs, ha)`` of its table weighs ``d[so + hs] * d[ao + ha]``,
    each of its ``row_len[k]`` cells the chance of that many unrestricted hits ``d[yo +
    hy]`` (the last one the tail sum ``dtail``) times that, at the state number
    ``tstore[tbase + hs * s1 + ha * s2 + hy]`` past the item's ``off[k]``.

    Rows that are the row of a smaller ``hs`` read further along (:func:`row_runs`, from
    ``rbase`` in ``rstore``: ``hs`` submarine hits then ``hy`` others land where ``hs +
    hy`` others would) are added as one run: the submarine hits' chances of the run
    convolved with the unrestricted hits' (once per item and run), times the aircraft
    hits' chance, along the first row, when the loop meets it; a table
    with no run is added as :func:`numpy.bincount` adds its cells (the same products, in
    the same order: the same numbers, bit for bit).  Returns the products made."""
    work = 0
    most_s = 1
    most_n = 1
    for k in range(so.shape[0]):
        most_s = max(most_s, n_s[k])
        most_n = max(most_n, row_len[k])
    conv = np.empty((most_s, most_s + most_n))  # by a run's first row: its convolution
    conv_end = np.empty(most_s, dtype=np.int64)  # the run each first row's convolution is of
    dyt = np.empty(most_n)
    for k in range(so.shape[0]):
        n = row_len[k]
        if n <= 0:
            continue
        last = n - 1
        width = s2[k]
        runs_at = rbase[k]
        na_t = s1[k] // width
        o = off[k]
        for hy in range(last):
            dyt[hy] = d[yo[k] + hy]
        dyt[last] = dtail[yo[k] + last]
        for h in range(n_s[k]):
            conv_end[h] = -1
        for hs in range(n_s[k]):
            for ha in range(n_a[k]):
                h1 = min(rstore[runs_at + hs * na_t + ha], n_s[k])
                if h1 < 0:
                    continue  # added with its run's first row
                wa = d[ao[k] + ha]
                base = tbase[k] + hs * s1[k] + ha * width
                if h1 == hs + 1 or n < 3:  # rows alone (a run of rows of one or two cells saves nothing)
                    for r in range(hs, h1):
                        row_w = d[so[k] + r] * wa
                        at = base + (r - hs) * s1[k]
                        for hy in range(last):
                            pl[tstore[at + hy] + o] += d[yo[k] + hy] * row_w
                        pl[tstore[at + last] + o] += dtail[yo[k] + last] * row_w
                    work += (h1 - hs) * n
                    continue
                length = h1 - hs + last
                if conv_end[hs] != h1:
                    for j in range(length):
                        conv[hs, j] = 0.0
                    for i in range(h1 - hs):
                        w = d[so[k] + hs + i]
                        for hy in range(n):
                            conv[hs, i + hy] += w * dyt[hy]
                    conv_end[hs] = h1
                    work += (h1 - hs) * n
                top = min(length, width - 1)
                for j in range(top):
                    pl[tstore[base + j] + o] += conv[hs, j] * wa
                if length > top:  # past the row's end: its last state
                    rest = 0.0
                    for j in range(top, length):
                        rest += conv[hs, j]
                    pl[tstore[base + width - 1] + o] += rest * wa
                work += length
    return work


@_compiled
def row_runs(local: Any) -> Any:
    """Per row ``(hs, ha)`` of a table of where hits land (``local[hs, ha, hy]``,
    :func:`table_cells`): rows ``h0`` to ``h1 - 1`` are a run when each is row ``h0``
    read as many cells further on as it is rows below it (row ``h0``'s last cell past
    its end): ``h1`` at the run's first row (``h0 + 1`` for a row alone), -1 at the
    others, for :func:`restricted_bins` to add a run at once."""
    ns, na, width = local.shape
    out = np.empty((ns, na), dtype=np.int32)
    for ha in range(na):
        h0 = 0
        for hs in range(1, ns + 1):
            same = hs < ns
            if same:
                shift = hs - h0
                for hy in range(width):
                    if local[hs, ha, hy] != local[h0, ha, min(hy + shift, width - 1)]:
                        same = False
                        break
            if same:
                out[hs, ha] = -1
            else:
                out[h0, ha] = hs
                h0 = hs
    return out


@_compiled
def both_taken(cats: Any, source: Any, target: Any, start: Any, ns: int, na: int) -> tuple[Any, Any]:
    """:meth:`engine.odds.aa_naval._Numbered.both_classes` before its numbering: the
    loss order's steps (``cats``: 0 submarine, 1 aircraft, 2 other; each takes one of
    unit ``source`` and, when ``target`` >= 0, gives one of ``target``, a battleship's
    first hit) from the counts ``start``.  For ``hs < ns`` submarine hits and ``ha < na``
    aircraft hits, the walk stops at the first step ``p`` where the others before it,
    plus the submarines before it up to ``hs``, plus the aircraft before it up to
    ``ha``, reach ``hs + ha`` (the last step when they never do); each kind's first
    steps are taken, as many as were met (at most ``hs`` submarines, ``ha`` aircraft).
    Returns ``(rows, which)``: the distinct counts reached, ordered by the steps of each
    kind taken (submarines, aircraft, others: as ``numpy.unique`` of those rows), and
    each ``(hs, ha)``'s row among them (by ``hs`` then ``ha``)."""
    steps = cats.shape[0]
    before = np.zeros((3, steps + 1), dtype=np.int64)  # of each kind, before step p
    for p in range(steps):
        for c in range(3):
            before[c, p + 1] = before[c, p]
        before[cats[p], p + 1] += 1
    radix = steps + 1
    keys = np.empty(ns * na, dtype=np.int64)
    for hs in range(ns):
        for ha in range(na):
            p = 0
            while p < steps and before[2, p] + min(hs, before[0, p]) + min(ha, before[1, p]) < hs + ha:
                p += 1
            taken = (min(hs, before[0, p]) * radix + min(ha, before[1, p])) * radix + before[2, p]
            keys[hs * na + ha] = taken
    order = np.argsort(keys)
    which = np.empty(ns * na, dtype=np.int64)
    distinct = np.empty(ns * na, dtype=np.int64)
    n = 0
    for i in range(order.shape[0]):
        k = keys[order[i]]
        if n == 0 or distinct[n - 1] != k:
            distinct[n] = k
            n += 1
        which[order[i]] = n - 1
    rows = np.empty((n, start.shape[0]), dtype=np.int64)
    want = np.empty(3, dtype=np.int64)
    met = np.empty(3, dtype=np.int64)
    for r in range(n):
        want[0] = distinct[r] // (radix * radix)
        want[1] = (distinct[r] // radix) % radix
        want[2] = distinct[r] % radix
        met[:] = 0
        for u in range(start.shape[0]):
            rows[r, u] = start[u]
        for p in range(steps):
            c = cats[p]
            if met[c] < want[c]:
                met[c] += 1
                rows[r, source[p]] -= 1
                if target[p] >= 0:
                    rows[r, target[p]] += 1
    return rows, which


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
def tables_cells(c_off: Any, c_len: Any, extra: Any, dims: Any, chains: Any, marks: Any,
                 hp_arr: Any) -> tuple[Any, Any, Any, Any, Any]:
    """Many targets' tables at once: table ``k`` is :func:`table_cells` of its
    ``dims[k, 0]`` x ``dims[k, 1]`` cells (the next ones of the flat ``c_off``,
    ``c_len`` and ``extra``, row by row), ``dims[k, 2]`` states deep, with its
    :func:`row_runs`.  Returns each one's parts laid end to end: the numbers, the
    cells' indices (int32), the counts by hits lost, the runs (int32), and per table
    where its numbers start (``k + 1`` offsets, the last the total).  One call for a
    batch's tables, not one per table."""
    k_all = dims.shape[0]
    n_local = 0
    n_upto = 0
    n_cells = 0
    for k in range(k_all):
        n_local += dims[k, 0] * dims[k, 1] * dims[k, 2]
        n_upto += dims[k, 2]
        n_cells += dims[k, 0] * dims[k, 1]
    local_all = np.empty(n_local, dtype=np.int32)
    upto_all = np.empty(n_upto, dtype=np.int64)
    runs_all = np.empty(n_cells, dtype=np.int32)
    starts = np.zeros(k_all + 1, dtype=np.int64)
    parts = []
    c = 0
    lo = 0
    u = 0
    for k in range(k_all):
        ns, na, deep = dims[k, 0], dims[k, 1], dims[k, 2]
        numbers, local, upto = table_cells(c_off[c : c + ns * na].reshape((ns, na)),
                                           c_len[c : c + ns * na].reshape((ns, na)),
                                           extra[c : c + ns * na].reshape((ns, na)), chains, deep, marks, hp_arr)  # fmt: skip
        runs = row_runs(local)
        local_all[lo : lo + ns * na * deep] = local.ravel()
        runs_all[c : c + ns * na] = runs.ravel()
        upto_all[u : u + deep] = upto
        starts[k + 1] = starts[k] + numbers.shape[0]
        parts.append(numbers)
        c += ns * na
        lo += ns * na * deep
        u += deep
    numbers_all = np.empty(starts[k_all], dtype=np.int64)
    for k in range(k_all):
        numbers_all[starts[k] : starts[k + 1]] = parts[k]
    return numbers_all, local_all, upto_all, runs_all, starts


@_borrowing
def _along_chance(d: Any, dtail: Any, at: int, h: int, n: int) -> float:
    """The chance a distribution stored from ``at`` (``d``, its tail sums ``dtail``) puts
    on the ``h``-th of the ``n`` cells it has along a chain (:func:`engine.odds.aa_naval.
    _along`): ``h`` hits, or at the last cell every hit from there on (past the chain's
    end: its last state)."""
    return float(dtail[at + h] if h == n - 1 else d[at + h])


@_compiled
def along_cells(pl: Any, off: Any, n_c: Any, d_off: Any, n_d: Any, d: Any, dtail: Any) -> int:
    """:func:`engine.odds.aa_naval._along`'s cells put into ``pl`` as its
    ``np.bincount`` puts them: item ``k``'s chance of ``h`` hits at ``off[k] + h`` for
    ``h`` below ``min(n_d[k], n_c[k])`` (:func:`_along_chance`).  Each cell is written
    once (an item's cells are its own).  Returns the cells."""
    cells = 0
    for k in range(off.shape[0]):
        n = min(n_d[k], n_c[k])
        for h in range(n):
            pl[off[k] + h] = _along_chance(d, dtail, d_off[k], h, n)
        cells += n
    return cells


@_compiled
def cells_stored(pl: Any, off: Any, span: int, source: Any, base: Any, slot_of: Any, col: int, shift: int, ts: Any,
                 out_idx: Any, out_p: Any, at: int, counts: Any, stays: Any, new: Any) -> tuple[int, int]:
    """:func:`engine.odds.aa_naval._cells_with_mass` and ``_store_results`` in one
    pass: item ``k``'s cells holding mass written from ``at`` on into the side's stores
    (``out_idx``: the table index ``slot_of[state] * col + shift``, ``out_p``: the
    chance; room for every cell of ``pl``), how many into ``counts``, its chance of
    staying put (``pl[off[k]]``, the target itself numbered first) into ``stays``; an
    item with one state stored with chance 1, staying put only where that state is
    ``ts[k]``.  A state with no table slot yet is written as ``-1 - state`` and listed
    once in ``new`` (its ``slot_of`` set to -2 meanwhile): the caller gives those slots
    and mends the entries (:func:`slots_mended`).  Returns ``(entries, new states)``."""
    pos = at
    n_new = 0
    for k in range(off.shape[0]):
        end = off[k + 1] if k + 1 < off.shape[0] else span
        stays[k] = pl[off[k]]
        start = pos
        last = -1
        for x in range(off[k], end):
            v = pl[x]
            if v != 0.0:
                last = source[base[k] + x - off[k]]
                sl = slot_of[last]
                if sl >= 0:
                    out_idx[pos] = sl * col + shift
                else:
                    out_idx[pos] = -1 - last
                    if sl == -1:
                        slot_of[last] = -2
                        new[n_new] = last
                        n_new += 1
                out_p[pos] = v
                pos += 1
        counts[k] = pos - start
        if pos - start == 1:
            out_p[start] = 1.0
            stays[k] = 1.0 if last == ts[k] else 0.0
    return pos - at, n_new


@_compiled
def slots_mended(out_idx: Any, at: int, n: int, slot_of: Any, col: int, shift: int) -> None:
    """The entries :func:`cells_stored` wrote as ``-1 - state`` (no slot then), now
    their table index, those states having slots."""
    for x in range(at, at + n):
        v = out_idx[x]
        if v < 0:
            out_idx[x] = slot_of[-1 - v] * col + shift


@_compiled
def radix_sorted(key: Any) -> tuple[Any, Any]:
    """``key`` sorted, and the stable order that sorts it, by a radix sort (11 bits a
    pass, every digit's counts taken in one read; the digits every key shares
    skipped).  Keys must not be negative."""
    n = key.shape[0]
    order = np.arange(n).astype(np.int32)
    digits = 6  # 66 bits: any key
    count = np.zeros((digits, 2049), dtype=np.int64)
    for i in range(n):
        k = key[i]
        if k < 0:
            raise ValueError("radix_sorted: keys must not be negative")
        for g in range(digits):
            count[g, ((k >> (11 * g)) & 0x7FF) + 1] += 1
    src_k = key.copy()
    dst_k = np.empty(n, dtype=key.dtype)
    dst_o = np.empty(n, dtype=np.int32)
    for g in range(digits):
        if count[g].max() == n:  # every key has the same digit here
            continue
        shift = 11 * g
        at = count[g]
        for b in range(2048):
            at[b + 1] += at[b]
        for i in range(n):
            b = (src_k[i] >> shift) & 0x7FF
            to = at[b]
            at[b] = to + 1
            dst_k[to] = src_k[i]
            dst_o[to] = order[i]
        src_k, dst_k = dst_k, src_k
        order, dst_o = dst_o, order
    return src_k, order


@_compiled
def runs_summed(ordered: Any, vals: Any, order: Any) -> tuple[Any, Any, Any]:
    """The runs of equal keys of ``ordered`` (``key[order]``, ascending): their keys,
    the sums of their items' ``vals`` (added in that order) and their first items."""
    n = ordered.shape[0]
    runs = 1 if n else 0
    for i in range(1, n):
        if ordered[i] != ordered[i - 1]:
            runs += 1
    out_k = np.empty(runs, dtype=ordered.dtype)
    out_v = np.empty(runs, dtype=vals.dtype)
    first = np.empty(runs, dtype=np.int64)
    u = -1
    for i in range(n):
        if i == 0 or ordered[i] != ordered[i - 1]:
            u += 1
            out_k[u] = ordered[i]
            out_v[u] = vals[order[i]]
            first[u] = order[i]
        else:
            out_v[u] += vals[order[i]]
    return out_k, out_v, first


@_compiled
def placed(chains: Any, c_off: Any, n_c: Any, dstore: Any, dtail: Any, d_off: Any, n_d: Any, scale: Any,
           tiny: float) -> tuple[Any, Any, Any, float, int]:
    """:func:`engine.odds.aa_naval._placed` in one pass: item k puts the chance of ``h``
    hits (``n_d[k]`` chances from ``d_off[k]`` in ``dstore``, :func:`_along_chance`)
    times ``scale[k]`` on the ``h``-th state of its chain (``n_c[k]`` states from
    ``c_off[k]`` in ``chains``).
    The cells of at least ``tiny``: their items, states and masses; the mass of the
    others; how many cells there were."""
    total = 0
    for k in range(n_c.shape[0]):
        total += min(n_d[k], n_c[k])
    kk = np.empty(total, dtype=np.int64)
    states = np.empty(total, dtype=chains.dtype)
    vals = np.empty(total)
    lost = 0.0
    at = 0
    for k in range(n_c.shape[0]):
        n = min(n_d[k], n_c[k])
        for h in range(n):
            v = _along_chance(dstore, dtail, d_off[k], h, n) * scale[k]
            if v >= tiny:
                kk[at] = k
                states[at] = chains[c_off[k] + h]
                vals[at] = v
                at += 1
            else:
                lost += v
    return kk[:at], states[:at], vals[:at], lost, total


@_compiled
def by_level(due: Any, keys: Any, vals: Any, extra: Any) -> tuple[Any, Any, Any, Any, int]:
    """:func:`engine.odds.aa_naval._by_level`'s grouping in one stable counting sort: the
    items (``keys``, ``vals`` and the rows of ``extra``) ordered by the level ``due``
    (a small range), each level's in their own order; how many items each level from
    the lowest has; the lowest."""
    n = due.shape[0]
    low = due[0]
    high = due[0]
    for i in range(n):
        low = min(low, due[i])
        high = max(high, due[i])
    counts = np.zeros(high - low + 1, dtype=np.int64)
    for i in range(n):
        counts[due[i] - low] += 1
    at = np.empty(high - low + 1, dtype=np.int64)
    run = 0
    for lv in range(high - low + 1):
        at[lv] = run
        run += counts[lv]
    out_k = np.empty(n, dtype=keys.dtype)
    out_v = np.empty(n, dtype=vals.dtype)
    out_e = np.empty((n, extra.shape[1]), dtype=extra.dtype)
    for i in range(n):
        lv = due[i] - low
        to = at[lv]
        at[lv] = to + 1
        out_k[to] = keys[i]
        out_v[to] = vals[i]
        for c in range(extra.shape[1]):
            out_e[to, c] = extra[i, c]
    return out_k, out_v, out_e, counts, low


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
    bilinear_stored(np.zeros((1, 1), dtype=complex), np.zeros(1), ints, ints, ints, np.zeros(1, dtype=np.int32),
                    np.zeros(1), ints, ints, ints, np.zeros(1, dtype=np.int32), np.zeros(1), 1e-19)  # fmt: skip
    level_cells(np.zeros((1, 2)), ints, ints, ints, np.ones(1, dtype=np.int64))

    def memo() -> tuple[Any, ...]:
        return (np.zeros(64, dtype=np.int64), np.zeros(64, dtype=complex), ints.copy(), ints.copy(), ints.copy(),
                ints.copy())  # fmt: skip

    held_values(np.zeros((1, 1), dtype=complex), 0, np.zeros(1, dtype=np.bool_), ints, np.zeros(1), ints, ints, ints,
                np.zeros(1, dtype=np.int32), np.zeros(1), ints, ints, ints, ints, ints, ints, ints,
                np.zeros((1, 2), dtype=np.int64), np.zeros(1), np.zeros(1), ints, ints, ints, ints, ints,
                np.zeros(1, dtype=np.int32), np.zeros(1), 1e-19, ints, np.zeros(1), memo(), memo())  # fmt: skip
    ones = np.ones(1, dtype=np.int64)
    restricted_bins(np.zeros(1), np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32), np.zeros(1), np.zeros(1),
                    ints, ints, ints, ones, ones, ones, ints, ints, ones, ones, ints)  # fmt: skip
    row_runs(np.zeros((1, 1, 1), dtype=np.int32))
    both_taken(ints, ints, ints, ints, 1, 1)
    tables_cells(ints, ones, ints, np.ones((1, 3), dtype=np.int64), ints, np.full(1, -1, dtype=np.int64), ints)
    for source in (ints, np.zeros(1, dtype=np.int32)):  # the chains, the tables' states
        cells_stored(np.zeros(1), ints, 1, source, ints, ints, 1, 0, ints, np.zeros(1, dtype=np.int32), np.zeros(1), 0,
                     np.zeros(1, dtype=np.int64), np.zeros(1), np.zeros(1, dtype=np.int64))  # fmt: skip
    slots_mended(np.zeros(1, dtype=np.int32), 0, 1, ints, 1, 0)
    along_cells(np.zeros(1), ints, ones, ints, ones, np.zeros(1), np.zeros(1))
    radix_sorted(ints)
    for order in (ints, np.zeros(1, dtype=np.int32)):  # numpy's sort, the radix sort
        runs_summed(ints, np.zeros(1), order)
    placed(ints, ints, ones, np.zeros(1), np.zeros(1), ints, ones, np.zeros(1), 1e-19)
    by_level(ints, ints, np.zeros(1), np.zeros((1, 2), dtype=np.int64))  # (n, 0) alike: one signature
