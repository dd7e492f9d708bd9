"""The table engine for AA fire with many blocks: the attacker's *distinct* states
instead of one loss sequence per block (see :mod:`engine.odds.aa_table`).

AA fire (A-10.5) starts the attacker from one state per outcome of the AA dice, rolled per
aircraft type: ``(fighters + 1) x (bombers + 1)`` blocks.  Their loss sequences share
states: an attacker state is a count vector, and once two blocks' sequences reach the
same state they go on together (the loss order is a function of the state, so the next
casualty of a state does not depend on where it came from).  With an army of aircraft
only, block "k fighters lost" is just step k of the block with none lost.  This engine
numbers the distinct states of all blocks (``S`` of them), keeps for each its dice and
``nxt[s, h]``, the state after ``h`` more casualties, and runs the row pass of the table
engine over them: rows are attacker states, taken in levels of equal hit points from the
most down (every hit the defender scores lowers them), each level batched like the
blocks of one row; the defender's hits move a row's mass to the rows ``nxt[s, h]``.

Where the blocks start with ground units lost first (the default order of loss), they
share nothing until those are gone, but their hits share the ground units' part: those
first ``n0`` rows stay per block, with the table engine's split spreading
(:meth:`TableEngine._split_init`), and what reaches a row at or past ``n0`` moves to its
attacker state.  Round limits and the win-chance retreat run over the distinct states
too.  Pruning and the error bound are the table engine's: masses below ``TINY`` are not
spread, dice outcomes below ``CUT`` are left out, all of it counted in ``dropped``.
"""

from __future__ import annotations

from typing import Callable, Sequence, overload

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view

from engine.odds import compiled
from engine.odds.aa_battle import (
    ATTACKER, CUT, DEFENDER, DRAW, RETREAT, STALEMATE, TINY, UNFINISHED, BattleSetup, PairTable, StartTable,
    Tally, start_attackers, table_cells, too_big_table, too_many_cells, win_cut,
)  # fmt: skip
from engine.odds.aa_side import CAT_AIR, CAT_OTHER, CAT_SUB, Side, State
from engine.odds.aa_table import (
    BLOCKS_TOGETHER, MASS_BIN, SHARED_MIN, Arr, TableEngine, _one_thread, ground_air, hits, in_row_factor,
    outcome_span, padded_rows, retreat_columns, row_ids, rows_compiled_first, shared_ground_rows, shared_spread,
    shared_spread_into, side_table, sum_by,
)  # fmt: skip
from engine.odds.dist import low_luck_distribution

MERGE_MIN_CELLS = 2000  # several blocks and more cells than this: the merged engine
COMPILED_OVER_MERGED = 25_000  # ... or, fought to the end where numba is loaded, than this (table_engine)
WIN_BAND = 32  # columns per product in the win-chance pass
U_BAND = 32  # columns per product of _win_ground's U rows
GROUND_BAND = 16  # the same in its ground phase (see _win_ground)
GROUP_MIN = 24  # blocks: smallest group of like weight spread on its own window
SPREAD_GROUPS = 6  # _spread_states: a big level's rows in at most this many groups by first column,
SPREAD_GROUP_MIN = 128  # each of at least this many rows
RUNS_APART = 64  # _run_sums: at most this many runs left, their rest summed in one reduceat
# _scatter into a table of at least this many cells: the compiled loop
# (engine.odds.aa_merged_kernel), ~1 s less on the bench's joined wave of 100 (15 million
# cells) on a slow machine; only battles that big pay its first call in a process (numba's
# import and dispatch, ~0.5-1 s there; the bot pays it as it starts, bot.commands.odds.warm).
COMPILED_TABLE = 8_000_000
# _win_ground: the lightest blocks, at most this much start weight in all, have no win
# chances in their ground phase; they fight on there, their weight in the error bound.
WIN_LIGHT = 1e-15


def table_engine(setup: BattleSetup[float], max_cells: int | None = None, max_table: int | None = None,
                 to_the_end: bool = False) -> TableEngine:
    """The table engine for ``setup``: over distinct attacker states when AA fire splits
    the attacker into several blocks of a big table, else per block.  ``max_table``:
    the merged engine's cap on its table (see MergedTable).  ``to_the_end``: the battle
    is fought to the end (no round limit, no retreat by win chance); then the table
    engine's compiled rows, where numba is loaded, take blocks of up to
    COMPILED_OVER_MERGED cells per block too, being faster there (9 AA outcomes, 3,420
    cells: ~1.3 against ~7 ms; 12 outcomes, 28,518 cells: ~18 against ~22 ms; 36
    outcomes, 168,696 cells: ~130 against ~75 ms, 2026-12-04)."""
    if merges(setup) and not (to_the_end and rows_compiled_first(setup) and table_cells(setup) <= COMPILED_OVER_MERGED):
        return MergedTable(setup, max_cells, max_table)
    return TableEngine(setup, max_cells)


def merges(setup: BattleSetup[float]) -> bool:
    """Whether :func:`table_engine` takes the merged engine: AA fire splits the attacker
    into several blocks of a big table."""
    return len(start_attackers(setup.starts)) > 1 and table_cells(setup) > MERGE_MIN_CELLS


def _catalogue(att: Side, blocks: list[State]) -> tuple[list[State], Arr, Arr]:
    """The distinct states of every block's loss sequence: ``(states, hp, next1)`` of
    :func:`_catalogue_rows`."""
    states, hp, next1, _, _ = _catalogue_rows(att, blocks)
    return list(states), hp, next1


class _States(Sequence[State]):
    """The attacker states as tuples, made from their count rows when asked (most
    states of a big table are never asked for as tuples)."""

    def __init__(self, sv: Arr) -> None:
        self.sv = sv

    def __len__(self) -> int:
        return len(self.sv)

    @overload
    def __getitem__(self, s: int) -> State: ...
    @overload
    def __getitem__(self, s: slice) -> Sequence[State]: ...
    def __getitem__(self, s: int | slice) -> State | Sequence[State]:
        if isinstance(s, slice):
            return [tuple(row) for row in self.sv[s].tolist()]
        return tuple(self.sv[s].tolist())


def _run_counts(att: Side, B: Arr) -> tuple[Arr, Arr, Arr]:
    """The loss order's runs (Side.step_runs, kept land units aside) for the blocks
    ``B`` (a first state as counts each): ``(counts, src, tgt)``, ``counts[k, r]`` the
    casualties block ``k`` takes in run ``r``, each taking a unit from slot ``src[r]``
    (into ``tgt[r]`` where that is ``>= 0``: a battleship's first hit)."""
    runs = att.step_runs()
    counts = np.zeros((len(B), len(runs)), dtype=np.int64)
    for r, (_, slots) in enumerate(runs):
        counts[:, r] = B[:, list(slots)].sum(axis=1)
    src = np.array([step.source for step, _ in runs], dtype=np.int64)
    tgt = np.array([step.target for step, _ in runs], dtype=np.int64)
    return counts, src, tgt


def _chains(att: Side, B: Arr) -> tuple[Arr, Arr]:
    """Every block's loss sequence (``B[k]``: its first state as counts) without kept
    land units, all at once from the loss order's runs (:func:`_run_counts`): ``(lens,
    rows)``, block ``k``'s ``lens[k]`` states one after another in ``rows``."""
    counts, src, tgt = _run_counts(att, B)
    K, R = counts.shape
    lens = counts.sum(axis=1) + 1
    first = np.cumsum(lens) - lens  # each block's first row
    # A run's change to the counts per casualty; each block's last state (what the
    # runs leave: units that are never casualties, such as AA guns).
    change = np.zeros((R, B.shape[1]), dtype=np.int64)
    change[np.arange(R), src] -= 1
    change[np.flatnonzero(tgt >= 0), tgt[tgt >= 0]] += 1
    last = B + counts @ change
    # Rows of changes whose running sum is every state: a block's first row starts from
    # the block before's last state.
    d = np.zeros((int(lens.sum()), B.shape[1]), dtype=np.int64)
    d[first] = B
    d[first[1:]] -= last[:-1]
    is_step = np.ones(len(d), dtype=bool)
    is_step[first] = False
    rows = np.flatnonzero(is_step)
    kind = np.repeat(np.tile(np.arange(R), K), counts.ravel())  # every step's run, in order
    d[rows, src[kind]] -= 1  # one step per row
    t = tgt[kind]
    d[rows[t >= 0], t[t >= 0]] += 1
    return lens, np.cumsum(d, axis=0)


def _catalogue_rows(att: Side, blocks: list[State], rows: Arr | None = None) -> tuple[_States, Arr, Arr, Arr, Arr]:
    """The distinct states of every block's loss sequence: ``(states, hp, next1, sv,
    starts)``, ``next1[s]`` the state after one more casualty (the empty state: itself),
    ``sv[s]`` state ``s`` as a row of counts and ``starts[k]`` block ``k``'s first state.  States are numbered in the order the
    blocks' sequences first reach them; every sequence is checked to agree with the
    others where they meet (a state's casualties are a function of the state, see
    Side.steps, so they must).  ``rows``: the blocks as an int64 array, where the caller
    has it."""
    nsl = len(att.slots)
    B = rows if rows is not None else np.array(blocks, dtype=np.int64).reshape(len(blocks), nsl)
    if not att.keep_land and compiled.numba_loaded():
        got = _walked_catalogue(att, B)
        if got is not None:
            return got
    if att.keep_land:  # the kept land units move last: each block's steps as they come
        chains = []
        for b in blocks:
            steps = att.steps(b)
            n = len(steps)
            d = np.zeros((n + 1, nsl), dtype=np.int64)
            d[0] = b
            if n:
                after = np.arange(1, n + 1)  # (not ``rows``, the blocks' array)
                d[after, np.fromiter((st.source for st in steps), dtype=np.int64, count=n)] -= 1
                tgt = np.fromiter((st.target for st in steps), dtype=np.int64, count=n)
                d[after[tgt >= 0], tgt[tgt >= 0]] += 1
            chains.append(np.cumsum(d, axis=0))
        lens = np.array([len(c) for c in chains], dtype=np.int64)
        allst = np.concatenate(chains)
    else:
        lens, allst = _chains(att, B)
    base = allst.max(axis=0) + 1
    if (allst < 0).any() or float(np.prod(base.astype(np.float64))) >= 2.0**62:
        raise ValueError("merged table: a loss sequence leaves its counts")
    mult = np.concatenate([[1], np.cumprod(base[:-1])]).astype(np.int64)
    uniq, first, inv = np.unique(allst @ mult, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[order] = np.arange(len(uniq))
    sid = rank[inv.ravel()]
    S = len(uniq)
    sv = allst[first[order]]
    n_idx = np.arange(len(allst)) - np.repeat(np.cumsum(lens) - lens, lens)
    hp_row = np.repeat(lens, lens) - 1 - n_idx
    hp = np.full(S, -1, dtype=np.int64)
    hp[sid] = hp_row
    at = np.flatnonzero(hp_row > 0)  # rows with a next one in their sequence
    next1 = np.full(S, -1, dtype=np.int64)
    next1[sid[at]] = sid[at + 1]
    if (hp[sid] != hp_row).any() or (next1[sid[at]] != sid[at + 1]).any():
        raise ValueError("merged table: loss sequences disagree")
    empty = next1 < 0
    next1[empty] = np.flatnonzero(empty)  # the empty state
    return _States(sv), hp, next1, sv, sid[np.cumsum(lens) - lens]


# The compiled walk's table of state codes: its size at most (int64 entries, 64 MB).
WALK_TABLE_MAX = 2**23


def _walked_catalogue(att: Side, B: Arr) -> tuple[_States, Arr, Arr, Arr, Arr] | None:
    """:func:`_catalogue_rows` by the compiled walk of
    :func:`engine.odds.aa_merged_kernel.chain_catalogue` (the same states, numbered
    alike, with the same hit points and next states): each block's loss sequence made
    only until it meets one made before.  None where the states' codes would need a
    table over WALK_TABLE_MAX."""
    from engine.odds.aa_merged_kernel import chain_catalogue

    counts, src, tgt = _run_counts(att, B)
    # A bound on each slot's count along the walks: its first count, plus what runs
    # into it can bring (a battleship's first hit moves it to its damaged slot).
    base = B.max(axis=0) + 1 if len(B) else np.ones(B.shape[1], dtype=np.int64)
    for r in np.flatnonzero(tgt >= 0).tolist():
        base[tgt[r]] += int(counts[:, r].max(initial=0))
    size = float(np.prod(base.astype(np.float64)))
    if (B < 0).any() or size > WALK_TABLE_MAX:
        return None
    mult = np.concatenate([[1], np.cumprod(base[:-1])]).astype(np.int64)
    sv, hp, next1, starts, ok = chain_catalogue(B, counts, src, tgt, mult, int(size))
    if not ok:
        raise ValueError("merged table: loss sequences disagree")
    return _States(sv), hp, next1, sv, starts


def _groups(row: list[int]) -> list[tuple[int, int]]:
    """A row of dice counts by target number as :func:`hits` takes them."""
    return [(t, c) for t, c in enumerate(row) if c]


def _dice_dists(by_dice: Arr, low_luck: bool) -> Arr:
    """The hit distributions of distinct dice ``by_dice[u]`` (the aircraft's dice by
    target number 0-6, then the other units'), one row each, as wide as the widest:
    ``hits(aircraft) * hits(rest)`` (convolved, as the side tables have them; the
    distinct aircraft and other dice each computed once, the convolutions one matrix
    product per distinct aircraft dice); low luck: its distribution."""
    if low_luck:
        return padded_rows(
            [np.array(low_luck_distribution(_groups(row[:7]) + _groups(row[7:]), 1.0)) for row in by_dice.tolist()]
        )
    tables, ofs, lens = [], [], []
    for cols in (by_dice[:, :7], by_dice[:, 7:]):
        first, of = row_ids(cols)
        got = [hits(_groups(row)) for row in cols[first].tolist()]
        tables.append(padded_rows(got))
        ofs.append(of)
        lens.append(np.array([len(x) for x in got])[of])
    (air, rest), (air_of, rest_of) = tables, ofs
    La, Lr = air.shape[1], rest.shape[1]
    n_air, n_rest = lens
    if compiled.numba_loaded():  # one compiled loop over the rows (the same sums to rounding)
        from engine.odds.aa_merged_kernel import convolve_rows

        conv: Arr = convolve_rows(air, air_of, n_air, rest, rest_of, n_rest, int((n_air + n_rest).max()) - 1)
        return conv
    out = np.zeros((len(by_dice), La + Lr - 1))
    order = np.argsort(air_of, kind="stable")
    cuts = np.flatnonzero(np.diff(air_of[order])) + 1
    for rows in np.split(order, cuts):
        # The rows with the same aircraft dice: their other dice's distributions times
        # the aircraft's as a Toeplitz matrix, T[j, c] = air[c - j].
        P = np.zeros(2 * Lr + La - 1)
        P[Lr : Lr + La] = air[air_of[rows[0]]]
        T = as_strided(P[Lr:], shape=(Lr, La + Lr - 1), strides=(-P.itemsize, P.itemsize))
        out[rows] = rest[rest_of[rows]] @ T
    return out[:, : int((n_air + n_rest).max()) - 1]  # the rest are zeros


def _after(next1: Arr, first: Arr, h_lo: int, h_hi: int) -> Arr:
    """Per state of ``first`` (its columns): the states after ``h_lo .. h_hi - 1`` more
    casualties (its rows; ``next1[s]``: the state after one).  Made for the states a
    product needs when it needs them: a table of every state's (80,000 x 91 on the
    bench's joined wave of 100) took ~0.1 s to make and lay out.  Where numba is loaded,
    one compiled loop makes it (:func:`engine.odds.aa_merged_kernel.after_states`)."""
    if compiled.numba_loaded():
        from engine.odds.aa_merged_kernel import after_states

        table: Arr = after_states(next1, np.ascontiguousarray(first, dtype=np.int64), h_lo, h_hi)
        return table
    out = np.empty((h_hi - h_lo, len(first)), dtype=np.int64)  # by score first: contiguous gathers
    at = first
    for _ in range(h_lo):
        at = next1[at]
    if h_hi > h_lo:
        out[0] = at
    for h in range(1, h_hi - h_lo):
        np.take(next1, out[h - 1], out=out[h])
    return out


def _toeplitz_view(x: Arr, rows: int, cols: int) -> Arr:
    """``T[..., r, c] = x[..., r - c]`` (0 where ``r - c`` is outside ``x``'s last
    axis): a read-only view over a zero-padded copy of ``x``."""
    L = x.shape[-1]
    P = np.zeros(x.shape[:-1] + (cols + max(rows, L),))
    P[..., cols : cols + L] = x
    strides = P.strides[:-1] + (P.itemsize, -P.itemsize)
    return as_strided(P[..., cols:], shape=x.shape[:-1] + (rows, cols), strides=strides, writeable=False)


def _levels(hp: Arr, next1: Arr) -> list[Arr]:
    """The states by level (equal hit points), most first, each level ordered so that
    ``next1`` keeps the order: a state comes before another of its level when its next
    state comes before theirs in the level below (ties by number).  Then the states
    ``h`` casualties on from one level's states, in that order, come in runs of equal
    states (see :func:`_scatter`)."""
    order = np.argsort(hp, kind="stable")
    cuts = np.flatnonzero(np.diff(hp[order])) + 1
    levels = np.split(order, cuts)
    pos = np.zeros(len(hp), dtype=np.int64)  # a state's place in its level
    for n, level in enumerate(levels):
        if n:
            level = levels[n] = level[np.argsort(pos[next1[level]], kind="stable")]
        pos[level] = np.arange(len(level))
    return levels[::-1]


def _run_sums(rows: Arr, starts: Arr) -> tuple[Arr, Arr]:
    """The sums of the runs of ``rows`` that begin at ``starts`` (ascending, the first
    0), longest runs first, with those runs' starts: ``np.add.reduceat`` over axis 0,
    but one row-gathering addition per place in a run while many runs are that long
    instead of numpy's row-by-row loop (~3x faster on long tables); the few runs longer
    than that (such as "attacker destroyed"), their rest summed in one reduceat."""
    lens = np.diff(np.append(starts, len(rows)))
    order = np.argsort(-lens, kind="stable")
    starts, lens = starts[order], lens[order]
    acc = rows[starts]
    longer = np.searchsorted(-lens, -np.arange(int(lens[0])), side="left")  # [o]: the runs longer than o
    for o in range(1, int(lens[0])):
        n = int(longer[o])
        if n <= RUNS_APART:
            # Their rest [start + o, end) as every other segment of one reduceat, by
            # place in rows (the last one ends with rows, or it has an end of its own).
            by = np.argsort(starts[:n])
            first, end = starts[:n][by], starts[:n][by] + lens[:n][by]
            cuts = np.stack([first + o, end], axis=1).ravel()
            if cuts[-1] == len(rows):
                cuts = cuts[:-1]
            acc[by] += np.add.reduceat(rows, cuts, axis=0)[::2]
            break
        acc[:n] += rows[starts[:n] + o]
    return acc, starts


def _scatter(into: Arr, target: Arr, rows: Arr, c0: int) -> None:
    """``into[target[n], c0 ..] += rows[n]`` for every ``n``, targets repeated or not
    (``rows`` may be changed).  Into a big table (COMPILED_TABLE): one compiled loop.
    Else runs of equal targets (a level's states in :func:`_levels` order, ``h``
    casualties on) are summed where they stand; targets still repeated after that (such
    as "attacker destroyed", once per score) are summed apart, their rows zeroed, and
    everything is added in one go."""
    if into.size >= COMPILED_TABLE:
        from engine.odds.aa_merged_kernel import scatter_add  # numba: compiled on first use

        scatter_add(into, target, rows, c0)
        return
    L = rows.shape[1]
    if len(target) > 1:
        starts = np.flatnonzero(np.concatenate([[True], target[1:] != target[:-1]]))
        if 10 * len(starts) <= 9 * len(target):
            rows, starts = _run_sums(rows, starts)
            target = target[starts]
    ts = np.sort(target)
    twice = ts[1:] == ts[:-1]
    if twice.any():
        sel = np.flatnonzero(np.isin(target, ts[1:][twice]))
        order = sel[np.argsort(target[sel], kind="stable")]
        ts = target[order]
        firsts = np.flatnonzero(np.concatenate([[True], ts[1:] != ts[:-1]]))
        sums = np.add.reduceat(rows[order], firsts, axis=0)
        # Every write to a repeated target then puts back what was there: no add lost.
        rows[sel] = 0.0
        into[target, c0 : c0 + L] += rows
        into[ts[firsts], c0 : c0 + L] += sums
        return
    into[target, c0 : c0 + L] += rows


def _scatter_cols(into: Arr, target: Arr, cols: Arr, c0: int) -> None:
    """``into[target[h, n], c0 + c] += cols[h, c, n]``: :func:`_scatter` for
    :func:`engine.odds.aa_table.shared_spread`'s products (rows last), laid out as rows
    first (a big table's products take :func:`engine.odds.aa_table.shared_spread_into`
    and a compiled loop instead, see MergedTable._spread_group)."""
    H, L, K = cols.shape
    rows = np.ascontiguousarray(cols.transpose(0, 2, 1)).reshape(H * K, L)
    _scatter(into, target.ravel(), rows, c0)


class MergedTable(TableEngine):
    rows_are_lines = False  # its rows are the distinct attacker states of every block

    def __init__(self, setup: BattleSetup[float], max_cells: int | None = None, max_table: int | None = None) -> None:
        """``max_cells``: the table engine's cap, on every block's loss sequence, checked
        first; ``max_table``: a cap on this engine's own table (distinct attacker states
        times columns, what its time and memory grow with), checked once the states are
        known, before any battle work (a PlayerError beyond either; None: no cap)."""
        _one_thread()
        self.setup = setup
        att, dfn = setup.attacker, setup.defender
        table = setup.starts if isinstance(setup.starts, StartTable) else None
        # Heaviest first (ties as they come), in groups of like weight (contiguous: see
        # mass_groups).  A block lighter than TINY spreads nothing: left out (see run).
        if table is not None:  # a start table's distinct attackers: as arrays (thousands)
            w_all = np.bincount(table.a, table.w, len(table.attackers))
            some = np.flatnonzero(w_all > 0)
            order = some[np.argsort(-w_all[some], kind="stable")]
            ranked, ranked_w = [table.attackers[i] for i in order.tolist()], w_all[order]
            ranked_rows: Arr | None = table.attacker_rows(order)
            self._table_order: Arr | None = order  # the start table's attacker of each ranked block
        else:
            weight: dict[State, float] = {}
            for start in setup.starts:
                weight[start.attacker] = weight.get(start.attacker, 0.0) + float(start.weight)
            ranked = sorted(weight, key=lambda b: -weight[b])
            ranked_w = np.array([weight[b] for b in ranked])
            ranked_rows = None
            self._table_order = None
        heavy = int(np.count_nonzero(ranked_w >= TINY)) or 1  # a prefix: the weights descend
        blocks = ranked[:heavy]
        self.blocks = blocks
        bins = np.floor(np.log10(ranked_w[:heavy]) / MASS_BIN)
        edges = [0]
        for e in (np.flatnonzero(np.diff(bins)) + 1).tolist():
            if e - edges[-1] >= GROUP_MIN:  # a small group is not worth its own products
                edges.append(e)
        if len(blocks) - edges[-1] < GROUP_MIN and len(edges) > 1:
            edges.pop()
        edges.append(len(blocks))
        self.block_groups = [slice(a, b) for a, b in zip(edges, edges[1:])]
        self.block_w: Arr = ranked_w[:heavy].copy()
        # Blocks from win_from on (the lightest) skip _win_ground; win_light: their weight.
        self.win_from, self.win_light = len(blocks), 0.0
        self.d_tab = d = side_table(dfn, dfn.start, setup.low_luck)
        self.d_index = {st: j for j, st in enumerate(d.states)}
        met = [(s.defender, s.defender_fires_as) for s in setup.starts] if table is None else [
            (table.defenders[j], table.defenders[j]) for j in table.used_defenders().tolist()
        ]  # fmt: skip
        for d_st, fires_as in met:
            if d_st not in self.d_index or fires_as not in self.d_index:
                raise ValueError("table engine: defender start is off its loss sequence")
        self.nD = nD = len(d.states) - 1
        block_rows = ranked_rows[:heavy] if ranked_rows is not None else np.array(blocks, dtype=np.int64)
        cells = int((att.hp_counts(block_rows) + 1).sum()) * (nD + 1)
        if max_cells is not None and cells > max_cells:
            raise too_many_cells(cells, max_cells)
        states, hp, next1, sv, starts = _catalogue_rows(att, blocks, block_rows if ranked_rows is not None else None)
        self.sv = sv
        self.states, self.hp, self.next1 = states, hp, next1
        S = len(states)
        self.dead = int(np.flatnonzero(hp == 0)[0])
        self.Hd = d.fire.shape[1] - 1
        self.start_id = dict(zip(blocks, starts.tolist()))
        self.block_starts = starts  # block k's first state
        self.n0 = self._ground_phase(att, setup.low_luck)
        # Each state's dice as the table engine's side tables have them; the ground
        # phase's states (n0 > 0) from the ground part and each block's aircraft.
        in_ground = np.zeros(S, dtype=bool)
        in_ground[self.rid[:, : self.n0]] = True
        # States rolling the same dice (aircraft's apart: conv(hits(air), hits(rest)), as
        # the side tables have them) share one distribution.
        rolled = np.flatnonzero(~in_ground)
        D = att.dice_counts(sv[rolled])
        by_dice = np.concatenate([D[CAT_AIR], D[CAT_SUB] + D[CAT_OTHER]], axis=1)
        first, dist_of = row_ids(by_dice)
        by_row = _dice_dists(by_dice[first], setup.low_luck)
        Ha = by_row.shape[1] - 1
        if self.n0:
            Ha = max(Ha, self.G.shape[1] + self.Hk.shape[1] - 2)
        self.Ha = Ha
        self.C = nD + Ha + 2
        if max_table is not None and S * self.C > max_table:
            raise too_big_table(S * self.C, max_table)
        # Each state's distribution as a row of SF_rows (the distinct ones: states rolling
        # the same dice share one, see _sf): not one row per state, ~80,000 rows of ~100
        # numbers on the bench's joined wave of 100, where a gathered copy took ~0.1-0.2 s.
        rows = by_row
        if by_row.shape[1] < Ha + 1:
            rows = np.zeros((len(by_row), Ha + 1))
            rows[:, : by_row.shape[1]] = by_row
        self.sf_of = np.zeros(S, dtype=np.int64)
        self.sf_of[rolled] = dist_of
        if self.n0:
            # Ground phase: G[i] * H[k], every block and row at once.
            n0, Lg, Lh = self.n0, self.G.shape[1], self.Hk.shape[1]
            shifted = np.zeros((Lh, n0, Ha + 1))  # shifted[t, i] = G[i] moved t hits on
            for t in range(Lh):
                shifted[t, :, t : t + Lg] = self.G
            AFg = (self.Hk @ shifted.reshape(Lh, -1)).reshape(len(blocks), n0, Ha + 1)
            self.sf_of[self.rid[:, :n0]] = len(rows) + np.arange(len(blocks) * n0).reshape(len(blocks), n0)
            rows = np.concatenate([rows, AFg.reshape(-1, Ha + 1)])
            self.AF = AFg
        self.SF_rows: Arr = rows
        fighting = np.array([sl.kind != "submerged" and not att.profiles[sl.unit].is_aa for sl in att.slots])
        land = np.array([att.profiles[sl.unit].takes_territory for sl in att.slots]) & fighting
        alive_n = sv[:, fighting].sum(axis=1)
        self.s_alive: Arr = alive_n > 0
        self.s_quiet: Arr = ~(rows[:, 1:] > 0).any(axis=1)[self.sf_of]
        self.s_takes: Arr = (sv[:, land].sum(axis=1) > 0) | (not setup.land)
        self.s_retreat: Arr = np.zeros(S, dtype=bool)
        if setup.retreat_below:
            self.s_retreat = (alive_n < setup.retreat_below) & self.s_alive
        lo, hi = outcome_span(rows, CUT)
        self.s_lo, self.s_hi = lo[self.sf_of], hi[self.sf_of]
        self.s_out = (Ha + 1 - (self.s_hi - self.s_lo)) * CUT
        self.s_cut = np.zeros(S, dtype=np.int64)
        self.s_open = np.zeros((S, 2), dtype=np.int64)
        self.levels = _levels(hp, next1)
        # The forward pass's levels: the states masses can reach outside the per-block
        # rows (see run): the rows past the ground phase and every state after them.
        # The ground phase's other states are left out (a level's rows are read whole).
        self.mm_levels = self.levels
        self.mm_of = np.arange(S)  # a state's row in the forward pass's table (Mm)
        if self.n0:
            keep = np.ones(S, dtype=bool)
            keep[self.rid[:, : self.n0]] = False
            keep[self.rid[:, self.n0 :]] = True
            frontier = np.flatnonzero(keep)
            while len(frontier):
                nx = next1[frontier]
                frontier = np.unique(nx[~keep[nx]])
                keep[frontier] = True
            self.mm_levels = [lv[keep[lv]] for lv in self.levels]
            self.mm_levels = [lv for lv in self.mm_levels if len(lv)]
            # Mm holds the kept states only (a big table's untouched rows still cost
            # fresh memory).
            self.mm_of = np.full(S, -1, dtype=np.int64)
            self.mm_of[keep] = np.arange(int(keep.sum()))
        # With a round limit, the cells still fighting after the last round by attacker
        # state (kept when a list is put here before run: Tally.pairs, for a second wave
        # the first wave's units join).
        self.pairs: list[tuple[Arr, Arr]] | None = None
        # Likewise the cells the attacker retreats from (Tally.retreats: an amphibious
        # assault's landed units fight on from them, engine.odds.aa._fight_on).
        self.retreat_pairs: list[tuple[Arr, Arr]] | None = None
        self._defender_arrays()
        if self.n0:
            self._block_arrays()

    def _sf(self, ids: Arr) -> Arr:
        """The hit distributions of the states ``ids``, one row each ((n, Ha + 1))."""
        rows: Arr = self.SF_rows[self.sf_of[ids]]
        return rows

    # -- the first rows per block (ground units lost first, see the module docstring) ----------

    def _ground_phase(self, att: Side, low_luck: bool) -> int:
        """``n0``: the first rows that every block spends losing the same ground units
        (0: none worth splitting), with the rows' states ``rid[k, i]`` and the ground
        and aircraft hits (``G``, ``Hk``) of :meth:`TableEngine._split_init`."""
        K = len(self.blocks)
        starts = self.block_starts
        n_min = int(self.hp[starts].min()) + 1
        R = n_min + self.Hd + 2
        rid = np.ascontiguousarray(_after(self.next1, starts.astype(np.int64), 0, R).T)  # rid[k, i]: i casualties on
        self.rid = rid
        self.R = 0
        if K <= BLOCKS_TOGETHER or low_luck:
            return 0
        n0 = shared_ground_rows(att, self.sv[rid[:, :n_min]])  # (K, n, slots)
        if not n0:
            return 0
        self.R = n0 + self.Hd + 2
        self.rid = rid[:, : self.R]
        split = ground_air(att, [self.states[int(rid[0, r])] for r in range(n0)], self.blocks)
        self.G, self.Hk, self.g_lo, self.g_hi, self.g_out = split.G, split.Hk, split.g_lo, split.g_hi, split.g_out
        return n0

    def _block_arrays(self) -> None:
        """The table engine's per-block arrays for the rows ``0 .. R - 1``."""
        rid = self.rid[:, : self.n0]
        self.a_alive = self.s_alive[rid]
        self.a_quiet = self.s_quiet[rid]
        self.a_takes = self.s_takes[rid]
        self.a_retreat = self.s_retreat[rid]
        self.a_lo, self.a_hi, self.a_out = self.s_lo[rid], self.s_hi[rid], self.s_out[rid]
        self.r_cut = np.zeros(rid.shape, dtype=np.int64)
        self.r_open = np.zeros(rid.shape + (2,), dtype=np.int64)
        # Pending spreads land on columns up to nD (the rest folded into it, _fold).
        self.Mpre = np.zeros((len(self.blocks), self.R, self.nD + 1))

    # -- bookkeeping ------------------------------------------------------------------------------

    def _begin(self) -> None:
        super()._begin()
        self.a_end = np.zeros((len(self.blocks), self.n0))
        self.s_end = np.zeros(len(self.states))

    def _settle_states(self, ids: Arr, rows: Arr, last: bool = False) -> Arr:
        """:meth:`TableEngine._settle_row` for the states ``ids`` at once (``rows`` their
        masses after a round, changed in place): records the final cells, returns the
        rows' ``lim`` (0: nothing fights on)."""
        lims, per_row = self._settle_many(
            rows, self.s_alive[ids], self.s_quiet[ids], self.s_retreat[ids], self.s_cut[ids], self.s_open[ids],
            self.s_takes[ids], last, ids,
        )  # fmt: skip
        self.s_end[ids] += per_row
        return lims

    def _settle_blocks(self, i: int, rows: Arr, last: bool = False) -> Arr:
        """The same for row ``i < n0`` of every block (``rows`` = ``M[:, i, :]``)."""
        lims, per_row = self._settle_many(
            rows, self.a_alive[:, i], self.a_quiet[:, i], self.a_retreat[:, i], self.r_cut[:, i], self.r_open[:, i],
            self.a_takes[:, i], last, self.rid[:, i],
        )  # fmt: skip
        self.a_end[:, i] += per_row
        return lims

    def _settle_many(
        self, rows: Arr, alive: Arr, quiet: Arr, stop: Arr, r_cut: Arr, r_open: Arr, takes: Arr, last: bool,
        states: Arr,
    ) -> tuple[Arr, Arr]:
        """Settle rows given their flags (see :meth:`_settle_states`): ``(lims, mass
        recorded per row)``.  ``states``: each row's attacker state (for ``pairs``).
        Rows with no retreat, no round limit and no stalemate to record are settled by
        one compiled pass where numba is loaded (:func:`engine.odds.aa_merged_kernel.
        settle_plain`: the same records, summed in another order)."""
        nD, C = self.nD, self.C
        if (
            compiled.numba_loaded() and not last and rows.flags.c_contiguous and not stop.any() and not r_cut.any()
            and not (r_open[:, 1] > r_open[:, 0]).any() and not ((alive & quiet).any() and self.d_quiet.any())
        ):  # fmt: skip
            from engine.odds.aa_merged_kernel import settle_plain

            lims_p, per_row_p, lost, drawn, won, taken = settle_plain(
                rows, alive, quiet, takes, nD, self.jT, bool(self.setup.defender_fought), self.d_end,
            )  # fmt: skip
            self.counts[DEFENDER] += lost
            self.counts[DRAW] += drawn
            self.counts[ATTACKER] += won
            self.d_end[nD] += won
            self.takes += taken
            return lims_p, per_row_p
        cols = np.arange(C)[None, :]
        lim = np.where(quiet, nD, self.jT)
        per_row = np.zeros(len(rows))

        def record(outcome: str, rsel: Arr, mask: Callable[[Arr], Arr], to_end: bool = False,
                   keep: list[tuple[Arr, Arr]] | None = None) -> None:
            """Record ``rows[n, c]`` where ``mask(ids)[m, c]`` for the rows ``ids``
            chosen by ``rsel`` (no other row has such a cell); ``keep``: where to put
            the recorded cells by attacker state."""
            ids = np.flatnonzero(rsel)
            if not len(ids):
                return
            masses = np.where(mask(ids), rows[ids], 0.0)
            if keep is not None:
                keep.append((states[ids], masses))
            by_row = masses.sum(axis=1)
            total = float(by_row.sum())
            if not total:
                return
            self.counts[outcome] += total
            per_row[ids] += by_row
            if to_end:
                self.d_end[nD] += total
            else:
                self.d_end += masses.sum(axis=0)
            if outcome == ATTACKER:
                self.takes += float(by_row[takes[ids]].sum())

        dead = ~alive
        if self.setup.defender_fought:
            record(DEFENDER, dead, lambda ids: np.broadcast_to(cols < nD, (len(ids), C)))
            record(DRAW, dead, lambda ids: np.broadcast_to(cols >= nD, (len(ids), C)))
        else:
            record(DEFENDER, dead, lambda ids: np.ones((len(ids), C), dtype=bool))
        # The attacker's wins: the columns from each row's limit on (the defender has
        # nothing left that fights), only those read.
        won = np.flatnonzero(alive)
        if len(won):
            first = int(lim[won].min())
            masses = np.where(cols[:, first:] >= lim[won, None], rows[won, first:], 0.0)
            by_row = masses.sum(axis=1)
            total = float(by_row.sum())
            if total:
                self.counts[ATTACKER] += total
                per_row[won] += by_row
                self.d_end[nD] += total
                self.takes += float(by_row[takes[won]].sum())
        fights = alive & ~stop
        if (r_open[fights, 1] > r_open[fights, 0]).any():  # decisions left open (TableEngine._settle_row)
            lo, hi = np.minimum(r_open[:, :1], lim[:, None]), np.minimum(r_open[:, 1:], lim[:, None])
            self.unsure += float(np.where(fights[:, None] & (cols >= lo) & (cols < hi), rows, 0.0).sum())
        cut1 = np.minimum(r_cut, lim)
        cut = cut1[:, None]
        record(RETREAT, alive & (stop | (cut1 > 0)), lambda ids: (cols < lim[ids, None]) & (stop[ids, None] | (cols < cut[ids])),
               keep=self.retreat_pairs)
        if last:  # the round limit: what did not retreat after the last round is unfinished
            def unfinished(ids: Arr) -> Arr:
                return (cols < lim[ids, None]) & (cols >= cut[ids])

            record(UNFINISHED, fights, unfinished)
            if self.pairs is not None:
                ids = np.flatnonzero(fights)
                self.pairs.append((states[ids], np.where(unfinished(ids), rows[ids], 0.0)))
            return np.zeros(len(rows), dtype=np.int64), per_row
        stale_rows = alive & ~stop & quiet
        stale = np.zeros(rows.shape, dtype=bool)
        if stale_rows.any() and self.d_quiet.any():
            stale = alive[:, None] & (cols < lim[:, None]) & ~stop[:, None] & quiet[:, None] & self.d_quiet[None, :]
            record(STALEMATE, stale_rows, lambda ids: stale[ids] & (cols >= cut[ids]))
        lims = np.where(alive & ~stop, lim, 0)
        if compiled.numba_loaded() and rows.flags.c_contiguous and not stale.any():  # one compiled pass, the same zeros
            from engine.odds.aa_merged_kernel import clear_outside

            clear_outside(rows, np.ascontiguousarray(cut1, dtype=np.int64), np.ascontiguousarray(lims, dtype=np.int64))
        else:
            keep = (cols < lims[:, None]) & (cols >= cut) & ~stale
            rows[~keep] = 0.0
        return lims, per_row

    # -- spreading over states --------------------------------------------------------------------

    def _spread_states(self, into: Arr, ids: Arr, x: Arr, lo: int, hd_from: int, DFT: Arr) -> None:
        """One round from the masses ``x`` (n, w) at columns ``lo..`` of the states
        ``ids`` into ``into`` (rows: ``mm_of``), for every defender score ``hd >= hd_from``.
        A state whose every mass is below TINY spreads nothing (counted in ``dropped``):
        a big table's far states are many, and light."""
        light = x.max(axis=1) < TINY
        if light.any():
            self.dropped += float(x[light].sum())
            ids, x = ids[~light], x[~light]
            if not len(ids):
                return
        groups = min(SPREAD_GROUPS, len(ids) // SPREAD_GROUP_MIN)
        if groups < 2:
            self._spread_group(into, ids, x, lo, hd_from, DFT)
            return
        # Rows whose masses start in like columns together: each group's products cover
        # its own columns only.  Each group keeps the level's order (see _levels).
        first = (x >= TINY).argmax(axis=1)
        for g in np.array_split(np.argsort(first, kind="stable"), groups):
            g = np.sort(g)
            self._spread_group(into, ids[g], x[g], lo, hd_from, DFT)

    def _spread_group(self, into: Arr, ids: Arr, x: Arr, lo: int, hd_from: int, DFT: Arr) -> None:
        """:meth:`_spread_states` for one group of states."""
        shared = len(ids) >= SHARED_MIN
        got = self._weights(x, lo, hd_from, DFT, build=not shared)
        if got is None:
            return
        xk, c_lo, W, per_row, h0, h1 = got
        target = _after(self.next1, ids, hd_from + h0, hd_from + h1)  # (scores, states)
        if shared:
            a_lo, a_hi = self.s_lo[ids], self.s_hi[ids]
            a0, a1 = int(a_lo.min()), int(a_hi.max())
            self.dropped += float((per_row * self.s_out[ids]).sum())
            c0 = c_lo + a0
            DT = DFT[hd_from + h0 : hd_from + h1, c_lo : c_lo + xk.shape[1]]
            # Scores from the states' hit points on leave each state destroyed (its own
            # last state, whatever the score): one row, their chances summed.
            live = int(self.hp[ids].max()) - hd_from - h0
            if 0 <= live < len(DT) - 1:
                DT = np.concatenate([DT[:live], DT[live:].sum(axis=0, keepdims=True)])
                target = target[: live + 1]
            A, keep, rows = self.SF_rows[self.sf_of[ids], a0:a1], self.nD + 1 - c0, self.mm_of[target]
            if into.size >= COMPILED_TABLE:
                # Each band added by the compiled loop as it is made (numba: compiled on first use).
                from engine.odds.aa_merged_kernel import scatter_rows

                shared_spread_into(xk, DT, A, keep, lambda band, cs: scatter_rows(into, rows, band, c0 + cs))
                return
            _scatter_cols(into, rows, shared_spread(xk, DT, A, keep), c0)
            return
        c0, out = self._toeplitz(W, per_row, c_lo, self._sf(ids), self.s_lo[ids], self.s_hi[ids], self.s_out[ids])
        _scatter(into, self.mm_of[target.T.ravel()], out.reshape(target.size, -1), c0)

    def _level(self, Mm: Arr, ids: Arr) -> None:
        """Every state of one level with mass, no round limit: settle, the in-row moves,
        then every defender score ``>= 1`` into lower levels."""
        if compiled.numba_loaded():  # gathered and filtered in one compiled pass
            from engine.odds.aa_merged_kernel import rows_with_mass

            ids, rows = rows_with_mass(Mm, self.mm_of, np.ascontiguousarray(ids, dtype=np.int64))
            if not len(ids):
                return
        else:
            rows = Mm[self.mm_of[ids]]
            has = rows.max(axis=1) > 0
            if not has.any():
                return
            ids, rows = ids[has], rows[has]
        lims = self._settle_states(ids, rows)
        fights = lims > 0
        if not fights.any():
            return
        ids, rows, lims = ids[fights], rows[fights], lims[fights]
        got = self._rows_window(rows, lims, self._sf(ids))
        if got is None:
            return
        x, lo, past = got
        won = past > 0
        if won.any():
            total = float(past.sum())
            self.counts[ATTACKER] += total
            self.s_end[ids] += past
            self.d_end[self.nD] += total
            self.takes += float(past[self.s_takes[ids]].sum())
        self._spread_states(Mm, ids, x, lo, 1, self.DFT)

    # -- the whole battle -----------------------------------------------------------------------

    def run(self, rounds: int | None = None) -> Tally[float]:
        self._begin()
        C, K = self.C, len(self.blocks)
        Mm = np.zeros((int(self.mm_of.max()) + 1, C))  # the states of mm_levels
        # The per-block rows: only the first n0 (later rows go straight to their states,
        # see _finish_rest): a big table's memory is much of its first-run time.
        M = np.zeros((K, self.n0, C)) if self.n0 else None
        block_of = {st: k for k, st in enumerate(self.blocks)}
        pending: dict[tuple[int, int], list[tuple[int, float]]] = {}
        # Without per-block rows, a round limit or a retreat, a start is mass on its
        # state's row like any other: the level pass fights its round 1 with the rest
        # (a start per pair of states, e.g. a second wave's, is not spread on its own).
        direct = M is None and rounds is None and not self.s_retreat.any() and not self.s_cut.any()
        table = self.setup.starts if isinstance(self.setup.starts, StartTable) else None
        if table is not None:
            self._table_starts(table, block_of, M is not None, Mm if direct else None, pending)
        for start in self.setup.starts if table is None else ():
            if start.attacker not in block_of:  # a block lighter than TINY
                self.dropped += float(start.weight)
                continue
            s = self.start_id[start.attacker]
            k = block_of[start.attacker]
            j = self.d_index[start.defender]
            fj = self.d_index[start.defender_fires_as]
            w = float(start.weight)
            if not self.s_alive[s]:
                self._record_state(DEFENDER, s, w, j)
                continue
            if fj == j:  # before round 1: no retreat yet, but an empty or defenceless side ends it
                if not self.d_alive[j] or (self.d_defenceless[j] and not self.s_quiet[s]):
                    self._record_state(ATTACKER, s, w, self.nD)
                    continue
            if direct and fj == j:
                Mm[s, j] += w  # mm_of is every state's own row here
                continue
            self.rounds += w
            pending.setdefault((j, fj), []).append((k if M is not None else s, w))
        # Round 1 from every start, batched by defender start (the defender firing as it
        # stood before bombardment, A-10.3).
        for (j, fj), items in pending.items():
            DFT = self.DFT
            if fj != j:
                DFT = DFT.copy()
                DFT[:, j] = self.DFT[:, fj]
            merged: dict[int, float] = {}
            for s, w in items:
                merged[s] = merged.get(s, 0.0) + w
            ids = np.array(list(merged), dtype=np.int64)
            x = np.array(list(merged.values()))[:, None]
            for part in range(0, len(ids), 256):
                at, xp = ids[part : part + 256], x[part : part + 256]
                if M is None:
                    self._spread_states(Mm, at, xp, j, 0, DFT)
                    continue
                got = self._weights(xp, j, 0, DFT)  # blocks' row 0: the table engine's arrays
                if got is not None:
                    _, c_lo, W, per_row, h0, h1 = got
                    c0, out = self._toeplitz(W, per_row, c_lo, self.AF[at, 0], self.a_lo[at, 0], self.a_hi[at, 0], self.a_out[at, 0])
                    n_in = max(0, min(h1, self.n0) - h0)
                    if n_in:
                        M[at, h0 : h0 + n_in, c0 : c0 + out.shape[2]] += out[:, :n_in]
                    for h in range(n_in, h1 - h0):
                        _scatter(Mm, self.mm_of[self.rid[at, h0 + h]], out[:, h], c0)
        if rounds is None:
            if M is not None:
                self._ground_rows(M, Mm)
            for ids in self.mm_levels:
                self._level(Mm, ids)
            return self._tally()
        cols = np.arange(C)[None, :]
        for rnd in range(2, rounds + 2):
            last = rnd == rounds + 1
            nxt = np.zeros(Mm.shape)
            if M is not None:
                # The ground rows per block (see _ground_rows), one round into the next
                # round's table.
                self.Mpre = np.zeros((K, self.R, self.nD + 1))
                M_next = np.zeros(M.shape)
                for i in range(self.n0):
                    rows = M[:, i, :]
                    lims = self._settle_blocks(i, rows, last=last)
                    if lims.any():
                        x = np.where(cols < lims[:, None], rows, 0.0)
                        self.rounds += float(x.sum())
                        self._ground_spread(x, 0, i, hd_from=0)
                if not last:
                    for i in range(self.n0):
                        self._finish_row(M_next, i)
                    self._finish_rest(nxt)
                M = M_next
            for ids in self.mm_levels:
                rows = Mm[self.mm_of[ids]]
                has = rows.max(axis=1) > 0
                if not has.any():
                    continue
                lv, rows = ids[has], rows[has]
                lims = self._settle_states(lv, rows, last=last)
                if last or not lims.any():
                    continue
                x = np.where(cols < lims[:, None], rows, 0.0)
                self.rounds += float(x.sum())
                self._spread_states(nxt, lv, x, 0, 0, self.DFT)
            Mm = nxt
        return self._tally()

    def _ground_rows(self, M: Arr, Mm: Arr) -> None:
        """Rows ``0 .. n0 - 1`` per block with the split spreading, then every later row's
        mass moves to its attacker state."""
        for i in range(self.n0):
            self._finish_row(M, i)
            rows = M[:, i, :]
            lims = self._settle_blocks(i, rows)
            if lims.any():
                self._rows_solve(M, i, rows, lims)
        self._finish_rest(Mm)

    def _finish_rest(self, Mm: Arr) -> None:
        """The per-block rows from ``n0`` on (their pending spreads, see _finish_row)
        straight to their attacker states, one row at a time."""
        r1 = min(self.R, self.Mpre.shape[1])
        if r1 <= self.n0:
            return
        Lh = self.Hk.shape[1]
        for ids in self.block_groups or [slice(0, len(self.blocks))]:
            pre = self.Mpre[ids, self.n0 : r1, :]  # (n, rows, nD + 1)
            # The rows (block, row) holding a pending mass of at least TINY, spread on
            # the union of their columns that do; the rest is left out (counted).
            big: Arr = pre >= TINY
            sel: Arr = big.any(axis=2)
            if not sel.any():
                self.dropped += float(pre.sum())
                continue
            self.dropped += float(pre[~sel].sum())
            rs = np.flatnonzero(sel.any(axis=0))
            ra, rb = int(rs[0]), int(rs[-1]) + 1
            nz = np.flatnonzero(big.any(axis=(0, 1)))
            lo, hi = int(nz[0]), int(nz[-1]) + 1
            X = np.where(sel[:, ra:rb, None], pre[:, ra:rb, lo:hi], 0.0)  # (n, rb - ra, w)
            self.dropped += float(pre[sel].sum() - X.sum())
            ks = np.arange(ids.start or 0, ids.stop)
            # Each block's aircraft hits as a Toeplitz matrix T[k, j, c] = Hk[k, c - j]:
            # one product per block for all its rows.
            n, w = len(ks), hi - lo
            L = w + Lh - 1
            Q = np.zeros((n, w + L - 1))
            Q[:, w - 1 : w - 1 + Lh] = self.Hk[ks]
            T = np.ascontiguousarray(
                as_strided(Q[:, w - 1 :], shape=(n, w, L), strides=(Q.strides[0], -Q.itemsize, Q.itemsize))
            )
            out = np.matmul(X, T)  # (n, rb - ra, L)
            kk, rr = np.nonzero(sel[:, ra:rb])
            # To the attacker states, one sum per state.
            _scatter(Mm, self.mm_of[self.rid[ks[kk], self.n0 + ra + rr]], out[kk, rr], lo)

    def _table_starts(
        self, table: StartTable[float], block_of: dict[State, int], per_block: bool, Mm: Arr | None,
        pending: dict[tuple[int, int], list[tuple[int, float]]],
    ) -> None:
        """The starts of ``table`` as :meth:`run`'s loop takes :class:`Start` objects, all
        at once (the defender fires as it stands): those lighter than TINY left out, an
        empty attacker or an empty or defenceless defender recorded, the others' mass
        put on their cells (``Mm``, when given) or in ``pending`` by defender start."""
        order = self._table_order
        if order is not None and table is self.setup.starts:  # the table the blocks were ranked from: by arrays
            heavy = len(self.blocks)
            k_of = np.full(len(table.attackers), -1, dtype=np.int64)
            s_of = np.full(len(table.attackers), -1, dtype=np.int64)
            k_of[order[:heavy]] = np.arange(heavy)
            s_of[order[:heavy]] = self.block_starts
        else:
            k_of = np.array([block_of.get(st, -1) for st in table.attackers], dtype=np.int64)
            s_of = np.array([self.start_id.get(st, -1) for st in table.attackers], dtype=np.int64)
        j_of = np.array([self.d_index[st] for st in table.defenders], dtype=np.int64)
        k = k_of[table.a]
        light = k < 0  # a block lighter than TINY
        self.dropped += float(table.w[light].sum())
        k, s, j, w = k[~light], s_of[table.a[~light]], j_of[table.d[~light]], table.w[~light]
        lost = ~self.s_alive[s]
        ends = ~lost & (~self.d_alive[j] | (self.d_defenceless[j] & ~self.s_quiet[s]))
        for outcome, sel, at in ((DEFENDER, lost, j), (ATTACKER, ends, np.full(len(j), self.nD))):
            self.counts[outcome] += float(w[sel].sum())
            np.add.at(self.s_end, s[sel], w[sel])
            np.add.at(self.d_end, at[sel], w[sel])
        self.takes += float(w[ends & self.s_takes[s]].sum())
        go = ~lost & ~ends
        if Mm is not None:
            cells, masses = s[go] * Mm.shape[1] + j[go], w[go]
            if compiled.numba_loaded():  # the same sums in the same order, one compiled loop
                from engine.odds.aa_merged_kernel import add_at

                add_at(Mm.reshape(-1), cells, np.ascontiguousarray(masses, dtype=np.float64))
            else:
                np.add.at(Mm.reshape(-1), cells, masses)  # 1-D: numpy's fast path
            return
        self.rounds += float(w[go].sum())
        for row, col, mass in zip((k if per_block else s)[go].tolist(), j[go].tolist(), w[go].tolist()):
            pending.setdefault((col, col), []).append((row, mass))

    def _tally(self) -> Tally[float]:
        tally = super()._tally()
        tally.dropped += self.win_light  # decisions _win_ground did not compute
        # The pairs of states still fighting after the round limit, and those the
        # attacker retreated from (as the general engine keeps them, GeneralEngine.run).
        if self.pairs is not None:
            tally.pairs = self._pair_table(self.pairs)
        if self.retreat_pairs is not None:
            tally.retreats = self._pair_table(self.retreat_pairs)
        return tally

    def _pair_table(self, kept: list[tuple[Arr, Arr]]) -> PairTable[float]:
        """Cells kept by attacker state (``pairs``, ``retreat_pairs``) as pairs of
        states, summed by (attacker state, column) in numpy, the tuples made once per
        state."""
        C = self.C
        keys, masses = [np.zeros(0, dtype=np.int64)], [np.zeros(0)]
        for states, rows in kept:
            r, c = np.nonzero(rows)
            keys.append(states[r] * C + c)
            masses.append(rows[r, c])
        key, mass = sum_by(np.concatenate(keys), np.concatenate(masses))  # (counted, not sorted, where they are few)
        s_of, j_of = np.divmod(key, C)
        # The keys ascend, so do their states: each new state starts a run.
        new = np.ones(len(s_of), dtype=bool)
        new[1:] = s_of[1:] != s_of[:-1]
        us, u_at = s_of[new], np.cumsum(new) - 1
        return PairTable(list(map(tuple, self.sv[us].tolist())), self.d_tab.states, u_at, j_of, mass)

    def _record_state(self, outcome: str, s: int, w: float, j: int) -> None:
        self.counts[outcome] += w
        self.s_end[s] += w
        self.d_end[j] += w
        if outcome == ATTACKER and self.s_takes[s]:
            self.takes += w

    # -- retreat by win chance ------------------------------------------------------------------

    def win_chance(self) -> Arr:
        """``W[s, j]``: the attacker's chance to win from state ``s`` against defender
        column ``j`` after a round if it fights on: the table engine's backward pass
        (:meth:`TableEngine.win_chance`) over the distinct states from the fewest hit
        points up, a level at a time (states that stay in their row: back substitution,
        all states of the level at once).  The ground states of the lightest blocks
        that no other block reaches are left at 0 (see :meth:`_win_ground`)."""
        S, C = len(self.states), self.C
        nD = self.nD
        V = np.zeros((S, C))
        self._win_cuts()
        ground = self._win_ground_applies()
        for level in reversed(self.mm_levels if ground else self.levels):
            level = level[self.s_alive[level]]
            if not len(level):
                continue
            quiet_l = self.s_quiet[level]
            lim_l = np.where(quiet_l, nD, self.jT)
            for lim in np.unique(lim_l).tolist():
                for quiet in (False, True):
                    g = level[(lim_l == lim) & (quiet_l == quiet)]
                    if not len(g):
                        continue
                    V[g, lim:] = 1.0
                    g = g[~self.s_retreat[g]]
                    if lim == 0 or not len(g):
                        continue
                    for part in range(0, len(g), 128):
                        self._win_rows(V, g[part : part + 128], lim, quiet)
        if ground:
            self._win_ground(V)
        return V

    def _win_cuts(self) -> None:
        """The dice outcomes the win-chance pass takes: those of at least ``w_cut``
        (:func:`engine.odds.aa_battle.win_cut`, a bound far above CUT in a big battle,
        which spares the pass most of the binomial tails), per state ``w_lo <= ha <
        w_hi`` and per ground row ``wg_lo <= hg < wg_hi``; the defender's scores are cut
        where they are read."""
        nA = int(self.hp.max())
        self.w_cut = win_cut(self.Ha, self.Hd, nA, self.nD)
        lo, hi = outcome_span(self.SF_rows, self.w_cut)
        self.w_lo, self.w_hi = lo[self.sf_of], hi[self.sf_of]
        if self.n0:
            self.wg_lo, self.wg_hi = outcome_span(self.G, self.w_cut)

    def _win_ground_applies(self) -> bool:
        """Whether :meth:`_win_ground` takes the ground phase's states: the forward pass
        leaves them out (no other state leads to them) and every one fights on."""
        if not self.n0 or self.mm_levels is self.levels:
            return False
        ids = self.rid[:, : self.n0]
        return bool(self.s_alive[ids].all() and not self.s_quiet[ids].any())

    def _win_ground(self, V: Arr) -> None:
        """:meth:`win_chance` for the ground phase's states (block ``k``, row ``i <
        n0``), every block of a row at once, rows from the last up.  Their attacker hits
        are ``G[i] * H[k]``, so a state's sum over its hits ``sum_ha A[ha] V[s', j +
        ha]`` is the ground units' hits ``G[i]`` (one matrix shared by every block)
        applied to ``U[k, r, c] = sum_t H[k, t] V[rid[k, r], c + t]``, computed once per
        block and row (when that row's chances are known)."""
        K, n0, R = len(self.blocks), self.n0, self.rid.shape[1]
        lim, Hd = self.jT, self.Hd
        V[self.rid[:, :n0], lim:] = 1.0
        if lim == 0:
            return
        # The lightest blocks (heaviest first, so the last ones), at most WIN_LIGHT of
        # start weight in all, are left out: whatever they decide at the ground states
        # no other block reaches moves no answer by more than their weight, which goes
        # into the error bound, and they fight on there (win_chance_cuts). Their states
        # that other blocks reach have their chances from the level pass. At 60
        # aircraft against an AA gun: 91 of 663 blocks, ~8 % of the whole answer.
        tail = np.cumsum(self.block_w[::-1])[::-1]  # tail[k]: the weight of blocks k and after
        light = np.flatnonzero(tail <= WIN_LIGHT)
        if len(light) and light[0] > 0:
            self.win_from, self.win_light = int(light[0]), float(tail[light[0]])
            K = self.win_from
        Dh = self.DFT[1 : Hd + 1, :lim]
        hs = np.flatnonzero(Dh.max(axis=1) >= self.w_cut) if Hd else np.zeros(0, dtype=np.int64)
        h0, h1 = (int(hs[0]), int(hs[-1]) + 1) if len(hs) else (0, 0)
        Lg, Lh = self.G.shape[1], self.Hk.shape[1]
        Cu = lim + Lg - 1  # the columns of U that G's matrix reads
        r_hi = min(R, n0 + h1)  # the rows any ground row reads
        # G[i]'s Toeplitz matrices TG[c, j] = G[i][c - j], one per row, contiguous.
        # Transposed (TGT[i, j, c] = G[i][c - j]): a band's product is TGT's rows times
        # U's rows, so its output is by column j, each a matrix (rows, blocks) the
        # defender's scores then reduce in one small product per column.
        TGT = np.ascontiguousarray(_toeplitz_view(self.G, Cu, lim).transpose(0, 2, 1))
        DhT = np.ascontiguousarray(Dh.T)[:, None, :]  # (lim, 1, Hd)
        Lu = Cu + Lh - 1  # the columns of V that U reads
        # Columns by bands, each with the defender scores (from h0) of at least w_cut there.
        # For each of its columns, a band of w columns reads w + g1 - g0 - 1 columns of
        # U, w - 1 of them against zeros of G's matrix: narrow bands waste least, but
        # products of fewer than GROUND_BAND rows run slowly (16: ~5 % faster than 8 on
        # the bench's mixed-air retreat, 1.52 -> 1.44 s; 12 to 32 within noise of it).
        bands = []
        for js in range(0, lim, GROUND_BAND):
            je = min(js + GROUND_BAND, lim)
            sig = np.flatnonzero(Dh[h0:h1, js:je].max(axis=1) >= self.w_cut)
            if len(sig):
                bands.append((js, je, int(sig[0]), int(sig[-1]) + 1))
        for kc in range(0, K, 128):
            ks = np.arange(kc, min(K, kc + 128))
            n = len(ks)
            Hr = self.Hk[ks]  # (n, Lh)

            # U columns first, then rows, then blocks (UT[c, r, k] = U[k, r, c]): a band's
            # rows of every block are one matrix, each of its columns one run of memory
            # (one product). Every row is written before it is read (rows from n0 by
            # the products below, row i once its chances are known; row i reads rows
            # after it).
            UT = np.empty((Cu, r_hi, n))
            if r_hi > n0:  # many rows: each block's Toeplitz matrix of H, a product per band
                # of U_BAND columns, which read U_BAND + Lh - 1 columns of V (the whole
                # matrix would read Lu for each, most against its zeros).
                wb = min(U_BAND, Cu)
                TH = np.ascontiguousarray(_toeplitz_view(Hr, wb + Lh - 1, wb))
                Vr = V[self.rid[ks, n0:r_hi], :Lu]
                Ut = UT[:, n0:r_hi].transpose(2, 1, 0)
                for c0 in range(0, Cu, wb):
                    w = min(wb, Cu - c0)
                    Ut[:, :, c0 : c0 + w] = np.matmul(Vr[:, :, c0 : c0 + w + Lh - 1], TH[:, : w + Lh - 1, :w])
            for i in range(n0 - 1, -1, -1):
                ids = self.rid[ks, i]
                S1 = np.zeros((n, lim))
                ra, rb = i + 1 + h0, min(i + 1 + h1, r_hi)
                g0, g1 = int(self.wg_lo[i]), int(self.wg_hi[i])  # G[i]'s outcomes of at least w_cut
                if rb > ra and g1 > g0:
                    for js, je, hl, hh in bands:
                        hh = min(hh, rb - ra)
                        if hh <= hl:
                            continue
                        ce = min(je + g1 - 1, Cu)
                        X = UT[js + g0 : ce, ra + hl : ra + hh].reshape(ce - js - g0, -1)
                        Z = (TGT[i, js:je, js + g0 : ce] @ X).reshape(je - js, hh - hl, n)
                        S1[:, js:je] = np.matmul(DhT[js:je, :, h0 + hl : h0 + hh], Z)[:, 0, :].T
                keep = ~self.s_retreat[ids]
                if keep.any():
                    self._win_finish(V, ids[keep], lim, False, self._sf(ids[keep]), S1[keep])
                if i:  # U of this row: each block's H slid along
                    UT[:, i] = np.vecdot(sliding_window_view(V[ids, :Lu], Lh, axis=1), Hr[:, None, :]).T

    def _nxt_of(self, ids: Arr) -> Arr:
        """``nxt[s, :]`` (the states after 0, 1 … Hd more casualties) of the states ``ids``."""
        return _after(self.next1, ids, 0, self.Hd + 1).T

    def _win_rows(self, V: Arr, g: Arr, lim: int, quiet: bool) -> None:
        """:meth:`win_chance` for the states ``g`` (one level, one ``lim``)."""
        C, Hd = self.C, self.Hd
        n = len(g)
        A = self._sf(g)  # (n, Ha + 1)
        S1 = np.zeros((n, lim))
        Dh = self.DFT[1 : Hd + 1, :lim]
        hs = np.flatnonzero(Dh.max(axis=1) >= self.w_cut) if Hd else np.zeros(0, dtype=np.int64)
        if len(hs):
            # corr[n, hd, j] = sum over ha of A[ha] V[nxt(hd), j + ha]: a product with
            # each state's Toeplitz matrix T[c, j] = A[c - j], on the defender scores
            # and the attacker's outcomes of at least w_cut (see win_cut).
            h0, h1 = int(hs[0]), int(hs[-1]) + 1
            a0, a1 = int(self.w_lo[g].min()), int(self.w_hi[g].max())
            c1 = min(C, lim - 1 + a1)
            Cw = c1 - a0
            Vn = V[self._nxt_of(g)[:, 1 + h0 : 1 + h1], a0:c1]  # (n, h1 - h0, Cw)
            T = _toeplitz_view(A[:, a0:a1], Cw, lim)
            La = a1 - a0
            if lim < 3 * WIN_BAND:
                corr = np.matmul(Vn, T)  # (n, h1 - h0, lim)
            else:
                # T is zero outside 0 <= c - j < La: by chunks of columns j, each with
                # only the columns c of Vn that reach them.
                corr = np.empty((n, h1 - h0, lim))
                for js in range(0, lim, WIN_BAND):
                    je = min(js + WIN_BAND, lim)
                    ce = min(je + La - 1, Cw)
                    corr[:, :, js:je] = np.matmul(Vn[:, :, js:ce], T[:, js:ce, js:je])
            S1 = np.einsum("nhj,hj->nj", corr, Dh[h0:h1])
        self._win_finish(V, g, lim, quiet, A, S1)

    def _win_finish(self, V: Arr, g: Arr, lim: int, quiet: bool, A: Arr, S1: Arr) -> None:
        """The end of :meth:`_win_rows` for the states ``g`` (attacker hits ``A``) given
        ``S1[n, j]``, their chance to win over the defender's scores of at least 1: the
        in-row part (the defender scores nothing) and ``V[g, :lim]``."""
        Ha = self.Ha
        n = len(g)
        d0 = self.DF[:lim, 0]
        c = in_row_factor(1.0 - A[:, :1] * d0[None, :])  # (n, lim)
        suffix = np.concatenate([np.cumsum(A[:, ::-1], axis=1)[:, ::-1], np.zeros((n, 1))], axis=1)
        tail = suffix[:, np.minimum(lim - np.arange(lim), Ha + 1)]  # p(ha >= lim - j)
        b = c * (S1 + d0[None, :] * tail)
        if quiet:
            V[g, :lim] = np.where(self.d_quiet[None, :lim], 0.0, b)
            return
        cd = c * d0[None, :]
        active = np.flatnonzero((cd >= self.w_cut).any(axis=0))
        v = b
        if len(active) and Ha >= 1 and compiled.numba_loaded():
            # The compiled loop where numba is loaded already (the bot loads it as it
            # starts): ~4x the numpy loop below (the mixed-air retreat: ~0.25 s of ~2.5 s on
            # a slow machine). Where it is not (a one-shot `warroom odds`), importing it
            # would cost more than the loop saves.
            from engine.odds.aa_merged_kernel import back_substitute

            vT = np.ascontiguousarray(v.T)
            back_substitute(vT, np.ascontiguousarray(A.T), np.ascontiguousarray(cd.T), int(active[0]))
            v = vT.T
        elif len(active) and Ha >= 1:
            # v[j] = b[j] + c d0[j] * sum over t >= 1 of A[t] v[j + t], from the right.
            # One small dot per state and column: np.vecdot (a ufunc) costs the loop less
            # than einsum's parsing, as does reading cd by rows.
            A1, cdt, vecdot = A[:, 1:], np.ascontiguousarray(cd.T), np.vecdot
            for j in range(lim - 2, int(active[0]) - 1, -1):
                m = min(Ha, lim - 1 - j)
                t = vecdot(A1[:, :m], v[:, j + 1 : j + 1 + m])
                t *= cdt[j]
                v[:, j] += t
        V[g, :lim] = v

    def win_chance_cuts(self, threshold: float) -> None:
        self.s_cut, self.s_open = retreat_columns(
            self.win_chance(), threshold, self.s_alive, self.s_quiet, self.nD, self.jT
        )
        if self.win_from < len(self.blocks):  # blocks _win_ground left out: they fight on
            left = self.rid[self.win_from :, : self.n0].ravel()
            # Only the states no other block reaches (the rest is in the forward pass's
            # table, mm_of, with chances from the level pass: the last ground row is a
            # state the later rows of other blocks reach).
            left = left[self.mm_of[left] < 0]
            self.s_cut[left] = 0
            self.s_open[left] = 0
        if self.n0:
            self.r_cut, self.r_open = self.s_cut[self.rid], self.s_open[self.rid]

    def _attacker_ends(self, tally: Tally[float]) -> None:
        ends = self.s_end.copy()
        if self.n0:
            np.add.at(ends, self.rid[:, : self.n0], self.a_end)
        at = np.flatnonzero(ends)  # distinct states: one entry each, tuples made in one go
        tally.attacker_end.update(zip(map(tuple, self.sv[at].tolist()), ends[at].tolist()))
