"""The general engine's float solve (battles with submarines, no round limit), with side
states numbered and the arithmetic in numpy.

The chain is the one of :mod:`engine.odds.aa_general` (surprise strikes, general fire
with its hit restrictions, the end-of-round rules), solved the same way: every move
except "nobody is hit" lowers the hit points both sides can still absorb, so the pairs
of states are processed by *level* (the sum of those hit points) from the highest down,
each once, its "nobody is hit" loop summed in closed form.  What is new is how:

* the surprise strike is a phase of its own (:class:`NavalSolver`): general fire is
  computed once per pair of states after the strikes, whatever origins the strikes
  came from;
* every side state gets a number when first met, with what a round asks about it
  (hit points, submarines, destroyers, aircraft, its loss order as chains of numbers);
* where hits land is a table per target state: ``table[hs, ha, hy]`` = the state
  after ``hs`` submarine hits, ``ha`` restricted aircraft hits and ``hy`` unrestricted
  ones (A-10.6, A-10.14); a level's new casualty distributions are one batch;
* a level's nodes are arrays: flags, fire keys and stored results (casualties,
  strikes) by number; all their outer products are added to a dense table of masses
  at once (where numba is loaded, by a compiled loop reading both sides' stored
  results where they lie, :mod:`engine.odds.aa_naval_kernel`);
* the end-of-round rules act one pair at a time only where they may change it, and
  the pairs they surely end in the attacker's win (a defender with nothing, or with
  transports alone, A-10.7) are found and recorded at once;
* stored results are flat arrays (entries, chances; offsets and lengths by number),
  found through dense memo tables (target state x the enemy's fire key), so no Python
  work is done per pair; a side whose results are nearly all new drops each level's
  after it (its memory used again);
* the same stored results, mixed with chances instead of masses, give each pair's
  chance to win (:meth:`NavalSolver.win_chances`, for a retreat by win chance).

Nothing is pruned beyond what the general engine prunes (masses below ``TINY`` are not
spread; their mass is the error bound with the rounding drift of the total).
"""

from __future__ import annotations

import mmap
from collections.abc import Set as AbstractSet
from typing import Any, Callable, Iterable, Iterator, NamedTuple, TypeVar, cast

import numpy as np

from engine.odds import compiled
from engine.odds.aa_battle import (
    ATTACKER, RETREAT, STALEMATE, TINY, UNFINISHED, BattleSetup, Tally, Work, rounding_leftover, state_without,
    too_big_naval_table, too_many_states,
)
from engine.odds.aa_side import CAT_AIR, CAT_OTHER, CAT_SUB, Side, State
from engine.odds.aa_table import hits, row_ids
from engine.odds.dist import low_luck_distribution

Arr = Any  # numpy arrays
SHIFT = 32  # a cell's key: attacker number << SHIFT | defender number
# A retreat by win chance: the solve with the retreats is the traced solve's correction
# (:func:`corrected`) when at most this many round starts after a round come to retreat
# pairs (more: the solve itself, which stops there, meets fewer pairs), as the strike
# pass's (engine.odds.aa_strike.CORRECTION_MAX; the bench's 100-ship and 40-ship fleets
# retreating at 40 %, ~0.6 there, are ~0.04 s faster and ~0.005-0.009 s slower corrected).
CORRECTION_MAX = 0.5
ONE = np.ones(1)
# The arrays of _Numbered indexed by state, -1 where not known yet (its flags aside).
PER_STATE = (
    "fkeys", "skeys", "ident", "slot_of", "_seq_meta", "_rseq_meta", "_aseq_meta", "_firsts_arr", "_subs_lead", "tmeta",
    "hp_arr",
)  # fmt: skip
CHUNK = 1 << 16  # products expanded at once at most (small temporaries: reused, cache-sized)
# _spread_flat: the products of a round's parts are added by one compiled loop
# (engine.odds.aa_naval_kernel, ~2 ns a product against ~14 with np.add.at) where numba is
# already loaded (the bot and `make bench` load it as they start, bot.commands.odds.warm),
# or where a round has so many products that loading it pays (~0.5-1 s on a slow machine).
COMPILED_PRODUCTS = 50_000_000
CELLS_AT_ONCE = 1 << 23  # casualty cells under restricted hits enumerated at once at most (~0.3 GB)
WALK_PAIRS = 8192  # pairs of states whose general fire a round walk spreads at once at most
LAST_AT_ONCE = 1 << 20  # entries a round walk's last-round shortcut takes at once (split casualties)
# A side whose casualty distributions were asked for more than TRANSIENT_AFTER times,
# more than TRANSIENT_SHARE of them new, drops each level's after it (_Numbered.release).
TRANSIENT_AFTER = 20_000
TRANSIENT_SHARE = 0.7
NF = 1 << 24  # a stored result's key: target state * NF + the shooter's dice key
ROW_BITS = 24  # a held-back entry's key (_Deferred): distribution << ROW_BITS | table row
ROW_MASK = (1 << ROW_BITS) - 1
# Keys with fewer than one sorted run in this many items are merged (_merged) by numpy's
# stable sort, which follows runs; the others by the compiled radix sort.
RUNS_FEW = 16
HELD_TRACE_FROM = 100  # units in both sides: a traced solve holds general fire back too (NavalSolver.held_trace)
HOLD_BACK = True  # general fire held back and merged where submarines strike from the start (_Deferred)
# Held-back general fire on a side whose submarines lead its loss order, under fire with
# no submarine dice: its casualties in two steps (the unrestricted hits, then the
# aircraft's), merged in between (_Deferred.add_split), instead of stored distributions.
SPLIT = True

# A shooter's fire: its key (shared by equal dice), submarine, aircraft and other hits.
Fire = tuple[int, Arr, Arr, Arr]
# Flat parts (_Parts.flat), and what spreads them somewhere (returns the mass left out).
Flat = tuple[Arr, Arr, Arr, Arr, Arr, Arr]
Spreader = Callable[[Flat], float]


# A flat store past this many bytes lives in a private anonymous mapping of its own,
# which the system grows in place (mremap: the pages move, nothing is copied), instead of
# a numpy array copied into one twice as big at each growth (the results' stores of the
# 100-a-side battle with submarines and aircraft on both sides reach ~800 MB: ~0.6 s of
# copies; half of a big battle's first ask spent there otherwise).
MAPPED_FROM = 1 << 22
_PRIVATE = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
_MAPPABLE = hasattr(mmap, "MAP_PRIVATE") and hasattr(mmap, "MAP_ANONYMOUS")


class _Store:
    """A growing flat array: pieces appended, each at an offset."""

    def __init__(self, dtype: Any) -> None:
        self.data = np.zeros(1024, dtype=dtype)
        self.used = 0
        self._map: mmap.mmap | None = None

    def put(self, piece: Arr) -> int:
        at = self.reserve(len(piece))
        self.data[at : self.used] = piece
        return at

    def reserve(self, n: int) -> int:
        """Room for ``n`` more items, written by the caller: their offset."""
        at = self.used
        end = at + n
        if end > len(self.data):
            self._grow(max(2 * len(self.data), end))
        self.used = end
        return at

    def _grow(self, size: int) -> None:
        """``data`` made ``size`` items long, the items kept (the new ones zeros)."""
        dtype = self.data.dtype
        nbytes = size * dtype.itemsize
        if self._map is not None:
            self.data = np.empty(0, dtype=dtype)  # this store's view dropped: the mapping may move
            try:
                self._map.resize(nbytes)
                self.data = np.frombuffer(self._map, dtype=dtype)
                return
            except BufferError:  # a view of it is still held somewhere: copied instead, below
                self.data = np.frombuffer(self._map, dtype=dtype)
        if not _MAPPABLE or nbytes < MAPPED_FROM:
            bigger = np.zeros(size, dtype=dtype)
        else:
            self._map = mmap.mmap(-1, nbytes, flags=_PRIVATE)
            bigger = np.frombuffer(self._map, dtype=dtype)
        bigger[: len(self.data)] = self.data
        self.data = bigger


class _Numbered:
    """One side's states numbered as they are met, with what the engine asks of each."""

    def __init__(self, side: Side, setup: BattleSetup[float], attacker: bool) -> None:
        self.side = side
        self.low_luck = setup.low_luck
        self.idx: dict[State, int] = {}
        self.states: list[State] = []
        self.sub: list[bool] = []  # submarines still fighting
        self.des: list[bool] = []  # a destroyer still fighting
        self.air: list[bool] = []  # aircraft among the fighting units
        self.subcat: list[bool] = []  # submarines among the fighting units
        self.plain: list[bool] = []  # the end-of-round rules never act on this state alone
        self._sorted: tuple[Arr, Arr] | None = None
        self._rseq: dict[int, Arr] = {}
        self._firsts: dict[int, tuple[int, int]] = {}
        self._cell_marks = np.full(0, -1, dtype=np.int64)  # table_cells' marks by state, -1 between calls
        self._tstore = _Store(np.int32)
        self._rstore = _Store(np.int32)  # the tables' runs of rows (aa_naval_kernel.row_runs)
        self._nstore = _Store(np.int32)
        # Per fire key of the enemy (their shooter's numbering): where its three hit
        # distributions are in this side's store of distributions, and their lengths.
        self._fire_meta = np.full((64, 6), -1, dtype=np.int64)
        # Per fire key of the enemy: its whole distribution (conv), offset and length.
        self._conv_meta = np.full((64, 2), -1, dtype=np.int64)
        # Per state: offset and length of its chains (:meth:`seq`, :meth:`restricted_seq`
        # without aircraft) in the store of chains; (loss-order firsts, :meth:`firsts`).
        self._seq_meta = np.full((256, 2), -1, dtype=np.int64)
        self._rseq_meta = np.full((256, 2), -1, dtype=np.int64)
        self._aseq_meta = np.full((256, 2), -1, dtype=np.int64)  # restricted_seq without submarines
        self._firsts_arr = np.full((256, 2), -1, dtype=np.int64)
        self._subs_lead = np.full((256, 1), -1, dtype=np.int64)  # subs_lead, as 0 / 1
        self.dstore = _Store(np.float64)
        # Beside each distribution in ``dstore``, its tail sums (at offset + h: the chance
        # of h hits or more), so that hits past a chain's or table's end are one cell.
        self.dtail = _Store(np.float64)
        self._doff: dict[int, int] = {}
        self.chains = _Store(np.int64)
        self._coff: dict[int, int] = {}
        self._dkeep: list[Arr] = []
        # Per table: its offset in the store, strides of hs and ha, length of hy, the
        # offset of its numbers, the offset of its states' counts by hits (``_pstore``:
        # how many of its states are at most h hits from t, h = 0 … hp), its sizes ns
        # and na, the offset of its runs of rows (``_rstore``, by hs then ha).  Its states
        # are numbered fewest hits from t first: t itself is 0.
        self.tmeta = np.full((256, 9), -1, dtype=np.int64)
        self._pstore = _Store(np.int64)
        self.fires: list[list[Fire | None]] = []  # per state: by subs_fire * 2 + air_any
        self.by_key: list[Fire] = []  # fires by key
        self._strike_dist: dict[int, tuple[int, Arr]] = {}
        self._dists: dict[tuple[tuple[int, int], ...], Arr] = {}
        self._keys: dict[tuple[int, ...], int] = {}
        self._conv: dict[int, Arr] = {}
        # The mass table: a row per attacker slot; two columns per defender slot d,
        # 2 d (a round starts) and 2 d + 1 (the strikes done).
        self.col = 1 if attacker else 2
        # Where a phase leaves this side, numbered: casualty distributions, strikes'
        # results and "nothing happens", stored flat (``res_idx``: table rows or
        # columns, ``res_p``: chances; result n is ``res_len[n]`` entries from
        # ``res_off[n]``; ``stay``: the chance of staying put; ``still``: staying put
        # for sure).
        self.res_idx = _Store(np.int32)  # table rows or columns: small
        self.res_p = _Store(np.float64)
        self.n_res = 0
        self.res_off = np.zeros(256, dtype=np.int64)
        self.res_len = np.zeros(256, dtype=np.int64)
        self.stay = np.zeros(256)
        self.still = np.zeros(256, dtype=bool)
        # Stored results by (target state, the enemy's fire key or strike key); -1: none.
        self.cas_memo = np.full((256, 64), -1, dtype=np.int32)
        self.strike_memo = np.full((256, 16), -1, dtype=np.int32)
        # Casualty distributions asked for and computed (:func:`_cas_ids`): when nearly
        # every one is new, a level's results are dropped after it (``transient``,
        # :meth:`keep_from`, :meth:`release`) instead of piling up in memory.
        self.lookups = 0
        self.misses = 0
        self.cells = 0  # casualty cells enumerated (work: NavalSolver.work)
        self.transient = False
        self._mark = (0, 0, 0)
        self._written: list[tuple[str, Arr, Arr | None]] | None = None
        # Per state, as arrays for a level's nodes at once: submarines, destroyer,
        # submarines among the fighting units, plain; fire keys by variant; strike key;
        # the stored "nothing happens" entry.
        # And aircraft among the fighting units; plain apart from a retreat by win chance
        # (BattleSetup.calm: NavalSolver._loud then looks the pairs up); a defender's
        # state calm but against aircraft alone (BattleSetup.calm_unless_air_alone); an
        # attacker's state of aircraft alone (BattleSetup.air_alone), and one that
        # retreats for its few units left (BattleSetup.retreats_below).
        self.flags = np.zeros((256, 9), dtype=bool)
        self.fkeys = np.full((256, 4), -1, dtype=np.int64)
        self.skeys = np.full(256, -1, dtype=np.int64)
        self.ident = np.full(256, -1, dtype=np.int64)
        self._skey_small: dict[int, int] = {}
        # Table slots: only states that may receive mass (those in a stored result or
        # put directly) get a row (attacker) or two columns (defender).
        self.slot_of = np.full(256, -1, dtype=np.int64)
        self.hp_arr = np.full(256, -1, dtype=np.int64)  # hit points
        self._slot_hp = np.zeros(0, dtype=np.int64)
        self._slots = _Store(np.int64)  # the state of each slot (slot_state)
        self._quiet = setup.quiet
        self._calm = setup.calm
        self._setup = setup
        self._attacker = attacker

    def number(self, st: State) -> int:
        got = self.idx.get(st)
        if got is not None:
            return got
        side = self.side
        n = self.idx[st] = len(self.states)
        self.states.append(st)
        hp = side.hp(st)
        self.sub.append(side.has(st, "submarine"))
        self.des.append(side.has(st, "destroyer"))
        cats = side.fighting_categories(st)
        self.air.append(CAT_AIR in cats)
        self.subcat.append(CAT_SUB in cats)
        plain = self._quiet(st, self._attacker)  # the end-of-round rules leave it alone
        self.plain.append(plain)
        if n >= len(self.flags):  # every array indexed by state, twice as long
            self.flags = _longer(self.flags, 2 * n, 0)
            for name in PER_STATE:
                setattr(self, name, _longer(getattr(self, name), 2 * n, -1))
        calm = plain or self._calm(st, self._attacker)
        self.flags[n] = (self.sub[n], self.des[n], self.subcat[n], plain, self.air[n], calm, *self._pair_flags(st))
        self.hp_arr[n] = hp
        self.fires.append([None, None, None, None])
        return n

    def _pair_flags(self, st: State) -> tuple[bool, bool, bool]:
        """Flags 6 to 8 of ``st``: a defender's state calm but against aircraft alone;
        an attacker's state of aircraft alone, and one that retreats for its few units
        left."""
        setup = self._setup
        if self._attacker:
            return False, setup.air_alone(st), setup.retreats_below(st)
        return setup.calm_unless_air_alone(st), False, False

    def rebind(self, setup: BattleSetup[float]) -> None:
        """Take ``setup``'s end-of-round rules (which states are plain) from now on."""
        self._quiet = setup.quiet
        self._calm = setup.calm
        self._setup = setup
        for n, st in enumerate(self.states):
            self.plain[n] = self.flags[n, 3] = self._quiet(st, self._attacker)
            self.flags[n, 5] = self.plain[n] or self._calm(st, self._attacker)
            self.flags[n, 6:9] = self._pair_flags(st)

    def add_batch(self, idx: Arr, p: Arr, lens: Arr, stays: Arr) -> Arr:
        """Store many phase results at once (result k: ``lens[k]`` entries of ``idx``
        and ``p``, chance ``stays[k]`` of staying put); their numbers."""
        at = self.res_idx.put(idx)
        self.res_p.put(p)
        return self.register(at, lens, stays)

    def register(self, at: int, lens: Arr, stays: Arr) -> Arr:
        """Number results whose entries are in the stores from ``at`` on (result k:
        ``lens[k]`` of them, chance ``stays[k]`` of staying put): their numbers."""
        first = self.n_res
        n = len(lens)
        end = first + n
        if end > len(self.stay):
            size = max(2 * len(self.stay), end)
            self.stay = _longer(self.stay, size, 0)
            self.still = _longer(self.still, size, 0)
            self.res_off = _longer(self.res_off, size, 0)
            self.res_len = _longer(self.res_len, size, 0)
        self.res_off[first:end] = at + np.cumsum(lens) - lens
        self.res_len[first:end] = lens
        self.stay[first:end] = stays
        self.still[first:end] = (lens == 1) & (stays == 1.0)
        self.n_res = end
        return np.arange(first, end, dtype=np.int64)

    def keep_from(self) -> None:
        """Results stored from now on are dropped by :meth:`release`."""
        self._mark = (self.n_res, self.res_idx.used, self.res_p.used)
        self._written = []

    def wrote(self, memo: str, rows: Arr, cols: Arr | None = None) -> None:
        """Note memo cells given results (``ident`` has no columns), for :meth:`release`."""
        if self._written is not None:
            self._written.append((memo, rows, cols))

    def release(self) -> None:
        """Drop the results stored since :meth:`keep_from` and forget their memo cells:
        their space is used again (a level's casualty distributions, when they are
        nearly never asked for twice)."""
        if self._written is None:
            return
        for memo, rows, cols in self._written:
            if cols is None:
                self.ident[rows] = -1
            else:
                getattr(self, memo)[rows, cols] = -1
        self.n_res, self.res_idx.used, self.res_p.used = self._mark
        self._written = None

    def gather(self, ids: Arr) -> tuple[Arr, Arr, Arr]:
        """Results ``ids`` one after the other: their entries, chances and lengths."""
        lens = self.res_len[ids]
        pos = np.arange(int(lens.sum())) + np.repeat(self.res_off[ids] - (np.cumsum(lens) - lens), lens)
        return self.res_idx.data[pos].astype(np.int64), self.res_p.data[pos], lens

    def idents(self, ts: Arr) -> Arr:
        """Stored "nothing happens" entries of states ``ts`` (phase G columns for the
        defender: what a strike leaves when there is none); the missing ones stored in
        one batch."""
        got = self.ident[ts]
        missing = got < 0
        if missing.any():
            new = _marked(ts[missing], len(self.states))[0]
            one = np.ones(len(new))
            idx = self.slots(new) * self.col + self.col - 1
            self.ident[new] = self.add_batch(idx, one, np.ones(len(new), dtype=np.int64), one)
            self.wrote("ident", new)
            got = self.ident[ts]
        return got

    def fire_keys(self, ss: Arr, vs: Arr) -> Arr:
        """Fire keys of states ``ss`` in variants ``vs`` (``subs_fire * 2 + air_any``)."""
        got = self.fkeys[ss, vs]
        for k in np.flatnonzero(got < 0).tolist():
            s, v = int(ss[k]), int(vs[k])
            got[k] = self.fkeys[s, v] = self.fire(s, v >= 2, bool(v & 1))[0]
        return got

    def strike_keys(self, ss: Arr) -> Arr:
        """Small keys of the surprise strikes' dice of states ``ss``."""
        got = self.skeys[ss]
        for k in np.flatnonzero(got < 0).tolist():
            s = int(ss[k])
            big = self.strike_dist(s)[0]
            got[k] = self.skeys[s] = self._skey_small.setdefault(big, len(self._skey_small))
        return got

    def slots(self, nums: Arr) -> Arr:
        """The table slots of states ``nums`` (given to them now if they have none)."""
        got = self.slot_of[nums]
        if (got < 0).any():  # new states take the next slots, in the order of their numbers
            new = np.unique(nums[got < 0])
            self.slot_of[new] = np.arange(self._slots.used, self._slots.used + len(new))
            self._slots.put(new)
            got = self.slot_of[nums]
        return got

    @property
    def slot_state(self) -> Arr:
        """The state of each table slot, by slot (a view of its store: read it before
        more slots are given)."""
        return self._slots.data[: self._slots.used]

    def slot(self, n: int) -> int:
        return int(self.slots(np.array([n], dtype=np.int64))[0])

    def slot_hp(self) -> Arr:
        """Hit points of each slot's state (remade when slots were added)."""
        if len(self._slot_hp) != len(self.slot_state):
            self._slot_hp = self.hp_arr[self.slot_state]
            self._sorted = None
        return self._slot_hp

    def by_hp_sorted(self) -> tuple[Arr, Arr]:
        """The slots sorted by their states' hit points, and those."""
        hp = self.slot_hp()
        got = self._sorted
        if got is None:
            order = np.argsort(hp, kind="stable")
            got = self._sorted = (order, hp[order])
        return got

    def seq(self, t: int) -> Arr:
        """Numbers of the states after 0, 1, 2 … steps of the loss order from ``t``."""
        return self._chain(t, 3)

    def restricted_seq(self, t: int, excluded: int) -> Arr:
        """Numbers of the states after 0, 1, 2 … hits of one restricted class from
        ``t`` (submarine hits: ``excluded`` = CAT_AIR; aircraft hits: CAT_SUB), up to the
        last step they may take (later hits are lost).  With one restricted class alone
        every hit takes the first step of the loss order it legally can (A-10.14:
        nothing is left for another class to need), as :meth:`Side.take_hits` does."""
        return self._chain(t, excluded)

    def _chain(self, t: int, excluded: int) -> Arr:
        """The states after 0, 1, 2 … steps of the loss order from ``t`` that are not
        of category ``excluded`` (3: none).  The loss order from the state after a step
        is the rest of this one (A-10.8: the battleships' first hits stay first), so a
        chain is its first state followed by the chain of the next (memoised)."""
        memo = self._rseq
        got = memo.get((t << 2) | excluded)
        if got is not None:
            return got
        path: list[int] = []
        cur = t
        while True:
            got = memo.get((cur << 2) | excluded)
            if got is not None:
                break
            st = self.states[cur]
            step = self.side.first_step(st, excluded)
            if step is None:
                got = memo[(cur << 2) | excluded] = np.array([cur], dtype=np.int64)
                break
            path.append(cur)
            nxt = list(st)
            nxt[step.source] -= 1
            if step.target >= 0:
                nxt[step.target] += 1
            cur = self.number(tuple(nxt))
        # The path's chains are the suffixes of one array (views): one copy, not one per
        # state of the path.
        if path:
            whole = np.concatenate((np.array(path, dtype=np.int64), got))
            for k, c in enumerate(path):
                memo[(c << 2) | excluded] = whole[k:]
        return memo[(t << 2) | excluded]

    def firsts(self, t: int) -> tuple[int, int]:
        """Steps of the loss order of ``t`` before its first aircraft and before its
        first submarine (all of them when there is none)."""
        got = self._firsts.get(t)
        if got is None:
            cats = [step.category for step in self.side.steps(self.states[t])]
            first_air = cats.index(CAT_AIR) if CAT_AIR in cats else len(cats)
            first_sub = cats.index(CAT_SUB) if CAT_SUB in cats else len(cats)
            got = self._firsts[t] = (first_air, first_sub)
        return got

    def both_classes(self, t: int, ns: int, na: int) -> Arr:
        """Numbers of the states after ``hs`` submarine hits and ``ha`` aircraft hits on
        ``t`` (``hs < ns``, ``ha < na``; both classes restricted, A-10.6), placed as
        :meth:`Side.take_hits` places them: going down the loss order, each step is
        taken while the hits can still all be assigned with it.  Taken that way, the
        submarine steps, the aircraft steps and the others lost are each the first of
        their kind, as many as are met before the hits run out: the walk stops at the
        first step ``p`` where the others before it, plus the submarines before it up to
        ``hs``, plus the aircraft before it up to ``ha``, reach ``hs + ha`` (the last
        step when they never do: the hits left are lost)."""
        steps = self.side.steps(self.states[t])
        cats = np.fromiter((step.category for step in steps), dtype=np.int64, count=len(steps))
        source = np.fromiter((step.source for step in steps), dtype=np.int64, count=len(steps))
        target = np.fromiter((step.target for step in steps), dtype=np.int64, count=len(steps))
        if compiled.numba_loaded():  # the same rows and numbers in one compiled pass
            from engine.odds.aa_naval_kernel import both_taken

            rows, which = both_taken(cats, source, target, np.array(self.states[t], dtype=np.int64), ns, na)
            return self.numbers(rows)[which].reshape(ns, na)
        before = np.zeros((3, len(steps) + 1), dtype=np.int64)  # of each kind, before step p
        for cat in (CAT_SUB, CAT_AIR, CAT_OTHER):
            np.cumsum(cats == cat, out=before[cat, 1:])
        hs = np.arange(ns)[:, None, None]
        ha = np.arange(na)[None, :, None]
        # (hs, ha, p): the hits steps before p can take; it grows with p.
        reach = before[CAT_OTHER] + np.minimum(hs, before[CAT_SUB]) + np.minimum(ha, before[CAT_AIR])
        p = np.minimum((reach < hs + ha).sum(axis=2), len(steps))  # (hs, ha)
        taken = np.stack((np.minimum(hs[:, :, 0], before[CAT_SUB][p]), np.minimum(ha[:, :, 0], before[CAT_AIR][p]),
                          before[CAT_OTHER][p]))  # fmt: skip
        # Each kind's steps taken in order: its first k steps' changes to the counts.
        moves: list[Arr] = []
        for cat in (CAT_SUB, CAT_AIR, CAT_OTHER):
            mine = np.flatnonzero(cats == cat)
            delta = np.zeros((len(mine) + 1, len(self.states[t])), dtype=np.int64)
            k = np.arange(1, len(mine) + 1)
            np.add.at(delta, (k, source[mine]), -1)
            gains = target[mine] >= 0
            np.add.at(delta, (k[gains], target[mine][gains]), 1)
            moves.append(np.cumsum(delta, axis=0))
        flat = taken.reshape(3, -1)
        first, which = row_ids(flat.T)  # the distinct (submarine, aircraft, other) steps taken
        keys = flat[:, first]
        rows = np.array(self.states[t], dtype=np.int64) + moves[0][keys[0]] + moves[1][keys[1]] + moves[2][keys[2]]
        return self.numbers(rows)[which.reshape(-1)].reshape(ns, na)

    def numbers(self, rows: Arr) -> Arr:
        """:meth:`number` of each row of ``rows`` (states as arrays of counts): those
        numbered already read from the index at once, the others numbered in turn, in
        the rows' order (as one :meth:`number` call each would number them)."""
        get = self.idx.get
        keys = list(map(tuple, rows.tolist()))
        got = [get(key, -1) for key in keys]
        if -1 in got:
            got = [n if n >= 0 else self.number(key) for n, key in zip(got, keys)]
        return np.array(got, dtype=np.int64)

    def _dist(self, groups: list[tuple[int, int]]) -> Arr:
        key = tuple(groups)
        got = self._dists.get(key)
        if got is None:
            if self.low_luck:
                got = np.array(low_luck_distribution(groups, 1.0))
            else:
                got = hits(groups)
            self._dists[key] = got
        return got

    def fire(self, s: int, subs_fire: bool, air_any: bool) -> Fire:
        """Hits of this side's general fire from state ``s``, by class (the general
        engine's ``fire``), with a key shared by every state rolling the same dice."""
        got = self.fires[s][subs_fire * 2 + air_any]
        if got is None:
            subs, air, other = self.side.dice(self.states[s])
            sub_d = self._dist(subs) if subs_fire else ONE
            if air_any:
                air_d, any_d = ONE, self._dist(air + other)
            else:
                air_d, any_d = self._dist(air), self._dist(other)
            ids = (id(sub_d), id(air_d), id(any_d))
            fkey = self._keys.get(ids, -1)
            if fkey < 0:
                fkey = self._keys[ids] = len(self.by_key)
                self.by_key.append((fkey, sub_d, air_d, any_d))
            got = self.fires[s][subs_fire * 2 + air_any] = (fkey, sub_d, air_d, any_d)
        return got

    def conv(self, fire: Fire) -> Arr:
        """The distribution of all of a fire's hits together."""
        got = self._conv.get(fire[0])
        if got is None:
            got = np.convolve(fire[1], fire[3])
            if len(fire[2]) > 1:
                got = np.convolve(got, fire[2])
            self._conv[fire[0]] = got
        return got

    def strike_dist(self, s: int) -> tuple[int, Arr]:
        """The surprise strike of this side's submarines from ``s`` (A-10.6)."""
        got = self._strike_dist.get(s)
        if got is None:
            d = self._dist(self.side.dice(self.states[s])[0])
            got = self._strike_dist[s] = (id(d), d)
        return got

    def table(self, t: int, ns: int, na: int) -> tuple[Arr, Arr]:
        """Where hits land on ``t``: ``(numbers, local)`` with ``numbers[local[hs, ha,
        hy]]`` the state after ``hs`` submarine hits, ``ha`` aircraft hits (both
        restricted) and ``hy`` unrestricted ones (the general engine's casualty rule:
        with no aircraft to spare, submarine hits simply come first in loss order),
        made (or widened) to at least ``ns`` x ``na`` where it is smaller, kept in the
        flat stores (``tmeta``) for the batches of :func:`_restricted_casualties` and
        read back from them."""
        tbase, _, deep, _, nbase, pbase, ns_, na_, _ = self.tables_for(*(np.array([v]) for v in (t, ns, na)))[0].tolist()
        count = int(self._pstore.data[pbase + deep - 1])
        local = self._tstore.data[tbase : tbase + ns_ * na_ * deep].reshape(ns_, na_, deep)
        return self._nstore.data[nbase : nbase + count].astype(np.int64), local.copy()

    def tables(self, need: dict[int, tuple[int, int]]) -> None:
        """:meth:`table` of each target of ``need`` (to its ``(ns, na)``, or wider where
        it has a table already).  Each table's states are numbered fewest hits from its
        target first, then by number: the states a fire of at most h hits reaches are
        the first ones (a batch's items then use only their table's first states);
        ``upto[h]``: how many of them a fire of at most h hits reaches.  With numba
        loaded, every cell's state read along its base's chain (in the store of
        chains), the distinct ones marked, ordered and counted, every table in one
        compiled call (:func:`engine.odds.aa_naval_kernel.tables_cells`) and each store
        written once, instead of a call and four writes per table (~3,000 tables a
        battle where destroyers are on one side; 0-3 % of its time, 2026-12-07)."""
        if not need:
            return
        made = []
        for t, (ns, na) in need.items():
            ns, na = max(ns, int(self.tmeta[t, 6])), max(na, int(self.tmeta[t, 7]))
            made.append((t, ns, na, *self._bases(t, ns, na)))
        ts = np.array([t for t, *_ in made], dtype=np.int64)
        dims = np.array([(ns, na, int(self.hp_arr[t]) + 1) for t, ns, na, *_ in made], dtype=np.int64).reshape(-1, 3)
        if not compiled.numba_loaded():
            parts = [self._table_numpy(t, bases, extra) for t, _, _, bases, extra in made]
            counts = np.array([len(part[0]) for part in parts], dtype=np.int64)
            numbers, local, upto, runs = (np.concatenate([part[c].ravel() for part in parts]) for c in range(4))
            self._keep_tables(ts, dims, numbers, local, upto, runs, np.r_[0, np.cumsum(counts)])
            return
        from engine.odds.aa_naval_kernel import tables_cells

        c_off, c_len = self.seq_meta(np.concatenate([bases.ravel() for *_, bases, _ in made]), False)
        if len(self._cell_marks) < len(self.states):
            self._cell_marks = np.full(2 * len(self.states), -1, dtype=np.int64)
        extra = np.concatenate([e.ravel() for *_, e in made])
        self._keep_tables(ts, dims, *tables_cells(np.ascontiguousarray(c_off), np.ascontiguousarray(c_len), extra, dims,
                                                  self.chains.data, self._cell_marks, self.hp_arr))  # fmt: skip

    def _keep_tables(self, ts: Arr, dims: Arr, numbers: Arr, local: Arr, upto: Arr, runs: Arr, starts: Arr) -> None:
        """Keep the tables of targets ``ts`` (``dims``: each one's ns, na and depth) in
        the stores, each part laid end to end (table k's numbers from ``starts[k]``),
        and where they are in ``tmeta`` (its columns: see ``__init__``)."""
        tbase = self._tstore.put(local)
        nbase = self._nstore.put(numbers)
        pbase = self._pstore.put(upto)
        rbase = self._rstore.put(runs)
        ns, na, deep = dims[:, 0], dims[:, 1], dims[:, 2]
        cells = ns * na
        self.tmeta[ts] = np.stack((tbase + np.cumsum(cells * deep) - cells * deep, na * deep, deep, deep,
                                   nbase + starts[:-1], pbase + np.cumsum(deep) - deep, ns, na,
                                   rbase + np.cumsum(cells) - cells), axis=1)  # fmt: skip

    def _bases(self, t: int, ns: int, na: int) -> tuple[Arr, Arr]:
        """Of :meth:`table` of ``t``: per cell ``(hs, ha)``, the state its chain of
        unrestricted hits starts from, and how many steps down it the cell's first state
        is (submarine hits with no aircraft to spare)."""
        air_only = self.restricted_seq(t, CAT_SUB)
        bases = np.empty((ns, na), dtype=np.int64)
        bases[:, :] = air_only[np.minimum(np.arange(na), len(air_only) - 1)][None, :]
        extra = np.zeros((ns, na), dtype=np.int64)
        if self.air[t]:
            subs_only = self.restricted_seq(t, CAT_AIR)
            bases[:, 0] = subs_only[np.minimum(np.arange(ns), len(subs_only) - 1)]
            if na > 1 and ns > 1:  # both classes
                bases[1:, 1:] = self.both_classes(t, ns, na)[1:, 1:]
        else:  # no aircraft to spare: submarine hits simply come first in loss order
            extra[:, :] = np.arange(ns)[:, None]
        return bases, extra

    def _table_numpy(self, t: int, bases: Arr, extra: Arr) -> tuple[Arr, Arr, Arr, Arr]:
        """:meth:`table` of ``t`` by numpy (numba not loaded): its numbers, its cells'
        indices among them, its counts by hits lost and its runs (every row alone)."""
        ns, na = bases.shape
        hp = int(self.hp_arr[t])
        hy = np.arange(hp + 1)
        distinct, which = _marked(bases, len(self.states))
        seqs = [self.seq(int(b)) for b in distinct.tolist()]
        lengths = np.fromiter((len(q) for q in seqs), dtype=np.int64, count=len(seqs))
        starts = np.cumsum(lengths) - lengths
        last = (lengths[which] - 1)[:, :, None]
        pos = np.minimum(extra[:, :, None] + hy[None, None, :], last) + starts[which][:, :, None]
        out = np.concatenate(seqs)[pos]
        numbers, local = _marked(out, len(self.states))
        lost = hp - self.hp_arr[numbers]
        order = np.lexsort((numbers, lost))
        rank = np.empty(len(order), dtype=np.int32)  # the cells as the store keeps them
        rank[order] = np.arange(len(order))
        numbers, local = numbers[order], rank[local]
        upto = np.searchsorted(lost[order], np.arange(hp + 1), side="right")
        runs = np.repeat(np.arange(1, ns + 1, dtype=np.int32)[:, None], na, axis=1)  # every row alone
        return numbers, local, upto, runs

    def tables_for(self, ts: Arr, ns: Arr, na: Arr) -> Arr:
        """The tables' facts (``tmeta``) of targets ``ts``, each table made or widened
        first where it is smaller than ``ns`` x ``na``."""
        meta = self.tmeta[ts]
        short = np.flatnonzero((meta[:, 6] < ns) | (meta[:, 7] < na))
        if len(short):
            need: dict[int, tuple[int, int]] = {}
            for t, a, b in zip(ts[short].tolist(), ns[short].tolist(), na[short].tolist()):
                old = need.get(t, (0, 0))
                need[t] = (max(old[0], a), max(old[1], b))
            self.tables(need)
            meta = self.tmeta[ts]
        return meta

    def _rows(self, name: str, keys: Arr, compute: Callable[[int], tuple[int, ...]], size: int = 0) -> Arr:
        """Rows ``keys`` of the cache array ``self.<name>`` (-1 in column 0: not known
        yet), the missing ones computed by ``compute`` (once per key), the array first
        lengthened to ``size`` rows if shorter.  The attribute is read again for every
        write: new states met while computing grow the arrays indexed by state."""
        if size > len(getattr(self, name)):
            setattr(self, name, _longer(getattr(self, name), 2 * size, -1))
        got = getattr(self, name)[keys]
        missing = got[:, 0] < 0
        if missing.any():
            for key in np.unique(keys[missing]).tolist():
                row = compute(key)
                getattr(self, name)[key] = row
            got = getattr(self, name)[keys]
        return got

    def seq_meta(self, ts: Arr, strike: bool) -> tuple[Arr, Arr]:
        """Offsets and lengths in the store of chains of the chains of ``ts``:
        :meth:`seq` or, for a surprise strike, :meth:`restricted_seq` without aircraft."""

        def where(t: int) -> tuple[int, int]:
            c = self.restricted_seq(t, CAT_AIR) if strike else self.seq(t)
            return self.chain_offset(c), len(c)

        got = self._rows("_rseq_meta" if strike else "_seq_meta", ts, where)
        return got[:, 0], got[:, 1]

    def air_hits_meta(self, ts: Arr) -> tuple[Arr, Arr]:
        """Offsets and lengths in the store of chains of the chains of aircraft hits
        that may not land on submarines from ``ts`` (:meth:`restricted_seq` without
        submarines)."""

        def where(t: int) -> tuple[int, int]:
            c = self.restricted_seq(t, CAT_SUB)
            return self.chain_offset(c), len(c)

        got = self._rows("_aseq_meta", ts, where)
        return got[:, 0], got[:, 1]

    def firsts_of(self, ts: Arr) -> Arr:
        """:meth:`firsts` of states ``ts`` as rows of an array."""
        return self._rows("_firsts_arr", ts, self.firsts)

    def subs_lead(self, ts: Arr) -> Arr:
        """Per state of ``ts``: whether every submarine step of its loss order comes
        before every other step (and it has submarines)."""

        def lead(t: int) -> tuple[int]:
            cats = [step.category == CAT_SUB for step in self.side.steps(self.states[t])]
            n = sum(cats)
            return (int(n > 0 and all(cats[:n])),)

        return self._rows("_subs_lead", ts, lead)[:, 0].astype(bool)

    def fire_meta(self, shooter: _Numbered, fks: Arr) -> Arr:
        """Per fire key of ``shooter``: offsets of its submarine, aircraft and other hit
        distributions in this side's store, then their lengths."""

        def where(fk: int) -> tuple[int, ...]:
            _, sub_d, air_d, any_d = shooter.by_key[fk]
            return (self.dist_offset(sub_d), self.dist_offset(air_d), self.dist_offset(any_d),
                    len(sub_d), len(air_d), len(any_d))  # fmt: skip

        return self._rows("_fire_meta", fks, where, len(shooter.by_key))

    def conv_meta(self, shooter: _Numbered, fks: Arr) -> tuple[Arr, Arr]:
        """Per fire key of ``shooter``: offset and length in this side's store of the
        distribution of all its hits together."""

        def where(fk: int) -> tuple[int, int]:
            d = shooter.conv(shooter.by_key[fk])
            return self.dist_offset(d), len(d)

        got = self._rows("_conv_meta", fks, where, len(shooter.by_key))
        return got[:, 0], got[:, 1]

    def chain_offset(self, c: Arr) -> int:
        """Where chain ``c`` (:meth:`_chain`) is in the flat store of chains.  A chain is
        a suffix of the array it was made in (its ``base``): that array is stored once,
        and each of its suffixes is found at the end of it."""
        got = self._coff.get(id(c))
        if got is None:
            whole = c if c.base is None else c.base
            at = self._coff.get(id(whole))
            if at is None:
                at = self._coff[id(whole)] = self.chains.put(whole)
                self._dkeep.append(whole)  # keeps id(whole) from being reused
            got = self._coff[id(c)] = at + len(whole) - len(c)
            self._dkeep.append(c)
        return got

    def dist_offset(self, d: Arr) -> int:
        """Where hit distribution ``d`` is in the flat store of distributions."""
        got = self._doff.get(id(d))
        if got is None:
            got = self._doff[id(d)] = self.dstore.put(d)
            self.dtail.put(np.cumsum(d[::-1])[::-1])
            self._dkeep.append(d)  # keeps id(d) from being reused
        return got


# Both sides' numbered states and stored results (NavalSolver.sides), handed to a later
# solve of the same battle to reuse.
NumberedSides = tuple[_Numbered, _Numbered]
_T = TypeVar("_T")


class NumberedPairs(AbstractSet[tuple[State, State]]):
    """The pairs a retreat by win chance retreats from, as the numpy passes decided them
    (:func:`engine.odds.aa_retreat.retreat_pairs`): their keys (attacker number << SHIFT
    | defender number, ascending) for the numbered sides that numbered them, read as a
    set of pairs (attacker state, defender state).  The solve with the retreats, which
    reuses those sides, takes the keys as they are (:meth:`keys_for`): making the
    ~350,000 pairs of the slowest kind's retreat at 60 a side, then numbering them again,
    was ~0.6 s of its 11 s (2026-12-07); the pairs are made only when asked for one by
    one, and the attacker states among them from the keys."""

    def __init__(self, keys: Arr, A: _Numbered, D: _Numbered) -> None:
        self.keys = np.unique(keys)
        self.A, self.D = A, D

    def keys_for(self, A: _Numbered, D: _Numbered) -> Arr | None:
        """The keys, when ``A`` and ``D`` are the sides that numbered them; else None."""
        return self.keys if A is self.A and D is self.D else None

    def attacker_states(self) -> frozenset[State]:
        """The attacker states among the pairs."""
        states = self.A.states
        return frozenset(states[i] for i in np.unique(self.keys >> SHIFT).tolist())

    def __contains__(self, pair: object) -> bool:
        if not isinstance(pair, tuple) or len(pair) != 2:
            return False
        i, j = self.A.idx.get(pair[0]), self.D.idx.get(pair[1])
        return i is not None and j is not None and bool(_found(self.keys, np.array([(i << SHIFT) | j]))[0])

    def __iter__(self) -> Iterator[tuple[State, State]]:
        A, D = self.A.states, self.D.states
        mask = (1 << SHIFT) - 1
        for key in self.keys.tolist():
            yield A[key >> SHIFT], D[key & mask]

    def __len__(self) -> int:
        return len(self.keys)

    @classmethod
    def _from_iterable(cls, it: Iterable[_T]) -> AbstractSet[_T]:
        """What set operations (``|``, ``^``, ``-``, ``&``) make: plain frozensets."""
        return frozenset(it)


def _restricted(target: _Numbered, ts: Arr, fmeta: Arr) -> Arr:
    """Whether a hit restriction can bind on targets ``ts`` under fires of facts
    ``fmeta`` (:meth:`_Numbered.fire_meta`; otherwise the hits are taken in plain loss
    order).  It cannot when the first steps of the loss order, as many as there are
    hits, can all be assigned (:meth:`Side.take_hits` then takes just those): at most
    as many submarine hits as steps before the first aircraft (the aircraft among them
    are then no more than the unrestricted hits), and, with aircraft hits, at most as
    many submarine and aircraft hits together as steps before the first submarine."""
    n_sub, n_air = fmeta[:, 3] - 1, fmeta[:, 4] - 1
    free = (n_air == 0) & ((n_sub == 0) | ~target.flags[ts, 4])
    firsts = target.firsts_of(ts)
    before_air, before_sub = firsts[:, 0], firsts[:, 1]
    binds = (n_sub > before_air) | ((n_air > 0) & (n_sub + n_air > before_sub))
    return ~free & binds


def _along(target: _Numbered, n_c: Arr, d_off: Arr, n_d: Arr) -> tuple[Arr, Arr, Arr]:
    """Hits along chains, many items at once: item k puts the chance ``d[h]`` of ``h``
    hits (``n_d[k]`` chances from ``d_off[k]`` in the store of distributions) on the
    ``h``-th state of a chain of ``n_c[k]`` states; hits past the chain's end all stop
    at its last state, one cell with the distribution's tail sum.  Per cell: its item,
    ``h`` and the chance."""
    n = np.minimum(n_d, n_c)
    kk = np.repeat(np.arange(len(n)), n)
    target.cells += len(kk)
    first = np.cumsum(n) - n
    h = np.arange(int(n.sum())) - first[kk]
    w = target.dstore.data[d_off[kk] + h]
    w[first + n - 1] = target.dtail.data[d_off + n - 1]
    return kk, h, w


def _chain_batch(target: _Numbered, ts: Arr, c_off: Arr, n_c: Arr, d_off: Arr, n_d: Arr, shift: int) -> Arr:
    """Hits along chains (:func:`_along`), for many items at once, stored; their
    numbers.  Item k's chain is ``n_c[k]`` states from ``c_off[k]`` in the store of
    chains.  Table columns are ``state * col + shift``."""
    off = np.cumsum(n_c) - n_c
    span = int(n_c.sum())
    pl: Arr
    if compiled.numba_loaded():  # each cell put in place by one compiled pass: the same cells
        from engine.odds.aa_naval_kernel import along_cells

        pl = np.zeros(span)
        off, n_c, d_off, n_d = (np.ascontiguousarray(v, dtype=np.int64) for v in (off, n_c, d_off, n_d))
        target.cells += along_cells(pl, off, n_c, d_off, n_d, target.dstore.data, target.dtail.data)
    else:
        kk, h, w = _along(target, n_c, d_off, n_d)
        pl = np.bincount(off[kk] + h, w, minlength=span)
    return _stored_cells(target, ts, pl, off, span, target.chains.data, c_off, shift)  # no hit: t, a chain's first


def _stored_cells(target: _Numbered, ts: Arr, pl: Arr, off: Arr, span: int, source: Arr, base: Arr, shift: int) -> Arr:
    """Store a batch's results from its binned chances ``pl`` (item k's from ``off[k]``
    on, cell ``off[k] + x`` the state ``source[base[k] + x]``, ``ts[k]`` itself at x = 0):
    the cells holding mass (:func:`_cells_with_mass`), stored (:func:`_store_results`);
    their numbers.  With numba loaded, one compiled pass writes the entries straight
    into the stores instead (:func:`engine.odds.aa_naval_kernel.cells_stored`: the same
    entries, the states new to the table given their slots as :meth:`_Numbered.slots`
    gives them)."""
    off = np.ascontiguousarray(off, dtype=np.int64)
    if not compiled.numba_loaded():
        stays = pl[off]
        states, p, counts = _cells_with_mass(pl, off, span, source, base)
        return _store_results(target, ts, counts, states, p, stays, shift)
    from engine.odds.aa_naval_kernel import cells_stored, slots_mended

    at = target.res_idx.reserve(span)  # room for every cell; what is not written is given back
    if target.res_p.reserve(span) != at:
        raise AssertionError("the stores of entries and chances out of step")
    counts = np.empty(len(off), dtype=np.int64)
    stays = np.empty(len(off))
    new = np.empty(min(span, len(target.slot_of)), dtype=np.int64)
    n, n_new = cells_stored(pl, off, span, source, np.ascontiguousarray(base, dtype=np.int64), target.slot_of,
                            target.col, shift, np.ascontiguousarray(ts, dtype=np.int64), target.res_idx.data,
                            target.res_p.data, at, counts, stays, new)  # fmt: skip
    target.res_idx.used = target.res_p.used = at + n
    if n_new:
        fresh = np.sort(new[:n_new])
        target.slot_of[fresh] = -1
        target.slots(fresh)
        slots_mended(target.res_idx.data, at, n, target.slot_of, target.col, shift)
    return target.register(at, counts, stays)


def _cells_with_mass(pl: Arr, off: Arr, span: int, source: Arr, base: Arr) -> tuple[Arr, Arr, Arr]:
    """The cells of ``pl`` holding mass, item by item (item k's cells from ``off[k]`` on,
    the last item's up to ``span``): their states (cell ``off[k] + x`` is state
    ``source[base[k] + x]``), their chances and how many each item has (numpy's path;
    with numba loaded :func:`engine.odds.aa_naval_kernel.cells_stored` stores them)."""
    nz = np.flatnonzero(pl)
    counts = np.diff(np.searchsorted(nz, np.append(off, span)))
    return source[nz - np.repeat(off - base, counts)], pl[nz], counts


def _store_results(target: _Numbered, ts: Arr, counts: Arr, states: Arr, p: Arr, stays: Arr, shift: int) -> Arr:
    """Store a batch's results: item k's entries are the next ``counts[k]`` of
    ``states`` with their chances ``p`` (changed); its chance of staying put
    ``stays[k]``.  One state for sure is stored with chance 1 (exact, whatever the
    rounding), staying put only when it is the target itself."""
    single = counts == 1
    if single.any():
        first = np.cumsum(counts) - counts
        at = first[single]
        p[at] = 1.0
        stays = stays.copy()
        stays[single] = np.where(states[at] == ts[single], 1.0, 0.0)
    idx = target.slots(states) * target.col + shift
    return target.add_batch(idx, p, counts, stays)


def _cas_ids(target: _Numbered, ts: Arr, fks: Arr, shooter: _Numbered) -> Arr:
    """Stored casualty distributions of targets ``ts`` under the fire of ``shooter``
    with keys ``fks``; the missing ones computed, those under restricted hits in one
    batch, the others (plain loss order) in another."""
    memo = target.cas_memo = _fit(target.cas_memo, len(target.states), len(shooter.by_key))
    ids = memo[ts, fks]
    target.lookups += len(ts)
    miss = np.flatnonzero(ids < 0)
    if len(miss):
        keys = ts[miss] * NF + fks[miss]
        _, first = np.unique(keys, return_index=True)
        mt, mf = ts[miss][first], fks[miss][first]
        target.misses += len(mt)
        fmeta = target.fire_meta(shooter, mf)
        tight = _restricted(target, mt, fmeta)
        if tight.any():
            mt_, mf_, fm_ = mt[tight], mf[tight], fmeta[tight]
            # In batches of at most CELLS_AT_ONCE cells (bounded by the three hit
            # distributions' lengths): the temporaries take ~40 bytes a cell.
            cells = np.cumsum(fm_[:, 3] * fm_[:, 4] * fm_[:, 5])
            cuts = np.searchsorted(cells, np.arange(CELLS_AT_ONCE, int(cells[-1]), CELLS_AT_ONCE), side="right")
            for part in np.split(np.arange(len(mt_)), np.unique(cuts)):
                if len(part):
                    memo[mt_[part], mf_[part]] = _restricted_casualties(target, mt_[part], fm_[part])
            target.wrote("cas_memo", mt_, mf_)
        free = ~tight
        if free.any():  # no restriction can bind: the hits are taken in plain loss order
            t_free, f_free = mt[free], mf[free]
            c_off, n_c = target.seq_meta(t_free, False)
            d_off, n_d = target.conv_meta(shooter, f_free)
            memo[t_free, f_free] = _chain_batch(target, t_free, c_off, n_c, d_off, n_d, 0)
            target.wrote("cas_memo", t_free, f_free)
        ids = memo[ts, fks]
    return ids.astype(np.int64)


def _strike_ids(target: _Numbered, ts: Arr, shooter: _Numbered, ss: Arr) -> Arr:
    """Stored results of the surprise strikes of ``shooter``'s states ``ss`` on
    targets ``ts`` (A-10.6: submarine hits never land on aircraft; hits past the last
    step they may take are lost); the missing ones computed in one batch."""
    sks = shooter.strike_keys(ss)
    memo = target.strike_memo = _fit(target.strike_memo, len(target.states), len(shooter._skey_small))
    ids = memo[ts, sks]
    miss = np.flatnonzero(ids < 0)
    if len(miss):
        _, first = np.unique(ts[miss] * NF + sks[miss], return_index=True)
        mt, mk, ms = ts[miss][first], sks[miss][first], ss[miss][first]
        c_off, n_c = target.seq_meta(mt, True)
        # A strike's key stands for its distribution (the same object): each distinct
        # key's distribution found once, not once per target.
        _, first_k, which = np.unique(mk, return_index=True, return_inverse=True)
        dists = [shooter.strike_dist(s)[1] for s in ms[first_k].tolist()]
        d_off = np.array([target.dist_offset(d) for d in dists], dtype=np.int64)[which]
        n_d = np.array([len(d) for d in dists], dtype=np.int64)[which]
        memo[mt, mk] = _chain_batch(target, mt, c_off, n_c, d_off, n_d, target.col - 1)
        target.wrote("strike_memo", mt, mk)
        ids = memo[ts, sks]
    return ids.astype(np.int64)


def _restricted_casualties(target: _Numbered, ts: Arr, fmeta: Arr) -> Arr:
    """Casualty distributions under restricted hits for many (target state, fire) at
    once, stored; their numbers.  Each is its table's cells (hs, ha, hy) weighted by
    the product of the hit distributions and added up per state; every cell of every
    item is enumerated in one go (hits past the table's last step end there), and one
    bincount adds them, each item in its own range of the result (with numba loaded,
    one compiled loop adds them instead, :func:`engine.odds.aa_naval_kernel.
    restricted_bins`, without the arrays of cells: the same sums in the same order,
    but where a table's rows for more submarine hits are its row for fewer read further
    along, which it adds as one run, a convolution: the same to rounding)."""
    so, ao, yo, n_s, n_a, n_y = (fmeta[:, k] for k in range(6))
    meta = target.tables_for(ts, n_s, n_a)
    tbase, s1, s2, height, nbase, pbase = (meta[:, k] for k in range(6))
    rbase = meta[:, 8]
    d = target.dstore.data
    # Hits past the table's last step all end there: one cell, with the tail sum of
    # the unrestricted hits' distribution.
    item_len = np.minimum(n_y, height)
    # An item reaches only its table's states at most this many hits from t: the first
    # ``count`` of them (the tables number fewest hits first).
    most = np.minimum((n_s - 1) + (n_a - 1) + item_len - 1, height - 1)
    count = target._pstore.data[pbase + most]
    off = np.cumsum(count) - count
    span = int(count.sum())
    if compiled.numba_loaded():
        from engine.odds.aa_naval_kernel import restricted_bins

        pl = np.zeros(span)
        target.cells += restricted_bins(
            pl, target._tstore.data, target._rstore.data, d, target.dtail.data,
            *(np.ascontiguousarray(v, dtype=np.int64) for v in (so, ao, yo, n_s, n_a, item_len, tbase, rbase, s1, s2,
                                                                 off)))  # fmt: skip
        return _binned(target, ts, pl, off, span, nbase)
    # Rows (item, hs, ha) first, then their hy cells (a run of the table).
    row_n = n_s * n_a
    rk = np.repeat(np.arange(len(ts)), row_n)
    q = np.arange(int(row_n.sum())) - (np.cumsum(row_n) - row_n)[rk]
    na_r = n_a[rk]
    ha = q % na_r
    hs = q // na_r
    row_cell = tbase[rk] + hs * s1[rk] + ha * s2[rk]
    row_w = d[so[rk] + hs] * d[ao[rk] + ha]
    row_len = item_len[rk]
    # Per cell: row values repeated along the row plus its position (``ramp`` minus
    # the row's start).
    row_start = np.cumsum(row_len) - row_len
    ramp = np.arange(int(row_len.sum()))
    target.cells += len(ramp)
    cell = np.repeat(row_cell - row_start, row_len) + ramp
    keys = target._tstore.data[cell] + np.repeat(off[rk], row_len)
    y_at = yo[rk] - row_start
    w = d[np.repeat(y_at, row_len) + ramp]
    row_last = row_start + row_len - 1
    w[row_last] = target.dtail.data[y_at + row_last]
    w *= np.repeat(row_w, row_len)
    return _binned(target, ts, np.bincount(keys, w, minlength=span), off, span, nbase)


def _binned(target: _Numbered, ts: Arr, pl: Arr, off: Arr, span: int, nbase: Arr) -> Arr:
    """:func:`_restricted_casualties`' distributions from their binned chances ``pl``
    (item k's states from ``off[k]`` on, numbered first by its table from ``nbase[k]``),
    stored; their numbers."""
    return _stored_cells(target, ts, pl, off, span, target._nstore.data, nbase, 0)  # no hit: t, numbered first


def _marked(nums: Arr, n: int) -> tuple[Arr, Arr]:
    """``np.unique(nums, return_inverse=True)`` for numbers below ``n`` (with the
    inverse shaped as ``nums``), by a mark per number instead of a sort."""
    present = np.zeros(n, dtype=bool)
    present[nums] = True
    return np.flatnonzero(present), (np.cumsum(present) - 1)[nums]


def _longer(arr: Arr, size: int, fill: int) -> Arr:
    """``arr`` lengthened to ``size`` rows, the new ones ``fill``."""
    out = np.full((size, *arr.shape[1:]), fill, dtype=arr.dtype)
    out[: len(arr)] = arr
    return out


def _found(sorted_keys: Arr, keys: Arr) -> Arr:
    """Whether each of ``keys`` is one of ``sorted_keys`` (ascending): ``np.isin`` by a
    binary search, without reading every sorted key again."""
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    found: Arr = sorted_keys[at] == keys
    return found


def _fit(memo: Arr, rows: int, cols: int) -> Arr:
    """A memo table (-1: nothing stored) with at least ``rows`` x ``cols`` cells."""
    r, c = memo.shape
    if rows <= r and cols <= c:
        return memo
    out = np.full((max(r, rows + rows // 2), max(c, cols + cols // 2)), -1, dtype=memo.dtype)
    out[:r, :c] = memo
    return out


def _placed(target: _Numbered, chains: tuple[Arr, Arr], d_off: Arr, n_d: Arr, scale: Arr) -> tuple[Arr, Arr, Arr, float]:
    """Hits along chains (:func:`_along`; item k's chain: ``chains`` as offsets and
    lengths in the store of chains), each item's chances times ``scale[k]``, the cells
    below TINY left out.  Returns per cell kept its item, state and mass, and the mass
    left out.  With numba loaded, one compiled pass (:func:`engine.odds.
    aa_naval_kernel.placed`: the same cells)."""
    c_off, n_c = chains
    if compiled.numba_loaded():
        from engine.odds.aa_naval_kernel import placed

        c_off, n_c, d_off, n_d = (np.ascontiguousarray(v, dtype=np.int64) for v in (c_off, n_c, d_off, n_d))
        got = placed(target.chains.data, c_off, n_c, target.dstore.data, target.dtail.data, d_off, n_d,
                     np.ascontiguousarray(scale, dtype=np.float64), TINY)  # fmt: skip
        target.cells += int(got[4])
        return got[0], got[1], got[2], float(got[3])
    kk, h, vals = _along(target, n_c, d_off, n_d)
    vals *= scale[kk]
    keep = vals >= TINY
    lost = float(vals[~keep].sum())
    kk = kk[keep]
    return kk, target.chains.data[c_off[kk] + h[keep]], vals[keep], lost


def _merged(key: Arr, vals: Arr) -> tuple[Arr, Arr, Arr]:
    """Items with equal keys as one: the distinct keys (ascending), their masses summed,
    and for each the index of one of its items (to read what is the same for all).
    With numba loaded, sorted stably and the runs summed in one compiled pass
    (:func:`engine.odds.aa_naval_kernel.runs_summed`: the same keys and items, the
    sums to rounding, added in the items' order, not pairwise); keys in a few sorted
    runs (a level's held entries, its parts each sorted) by numpy's stable sort, which
    follows runs, the others by a compiled radix sort (the states between, about 4
    items a run; :func:`~engine.odds.aa_naval_kernel.radix_sorted`): ~1.5-2.5x faster
    than the sort and sums below."""
    if compiled.numba_loaded():
        from engine.odds.aa_naval_kernel import radix_sorted, runs_summed

        key = np.ascontiguousarray(key, dtype=np.int64)
        if np.count_nonzero(key[1:] < key[:-1]) * RUNS_FEW < len(key):
            order = np.argsort(key, kind="stable")
            ordered = key[order]
        else:
            ordered, order = radix_sorted(key)
        got: tuple[Arr, Arr, Arr] = runs_summed(ordered, np.ascontiguousarray(vals), order)
        return got
    order = np.argsort(key)
    key = key[order]
    firsts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    return key[firsts], np.add.reduceat(vals[order], firsts), order[firsts]


def _by_level(into: dict[int, list[Any]], due: Arr, *columns: Arr) -> None:
    """Append the items (``columns``, one array each) to ``into`` by the level they are
    due at, one array of its own per level (not views: each level's are freed once
    spread); the levels due are a small range (a radix sort).  ``columns``: int keys,
    float masses, then any int columns.  With numba loaded, one compiled counting sort
    (:func:`engine.odds.aa_naval_kernel.by_level`: the same arrays), each level's part
    then copied out."""
    if compiled.numba_loaded() and len(due):
        from engine.odds.aa_naval_kernel import by_level

        rest = np.empty((len(due), 0), dtype=np.int64)  # held entries: keys and masses only
        if len(columns) > 2:  # states between: where their aircraft's hits are, and how many
            rest = np.stack(columns[2:], axis=1)
        ints = np.int64
        keys, vals, extra, counts, low = by_level(
            np.ascontiguousarray(due, dtype=ints), np.ascontiguousarray(columns[0], dtype=ints),
            np.ascontiguousarray(columns[1], dtype=np.float64), np.ascontiguousarray(rest, dtype=ints))  # fmt: skip
        ends = np.cumsum(counts)
        for k in np.flatnonzero(counts).tolist():
            hi = int(ends[k])
            lo = hi - int(counts[k])
            part = (keys[lo:hi].copy(), vals[lo:hi].copy(), *(extra[lo:hi, c].copy() for c in range(extra.shape[1])))
            into.setdefault(int(low) + k, []).append(part)
        return
    low = int(due.min())
    due = (due - low).astype(np.int16)
    order = np.argsort(due, kind="stable")
    counts = np.bincount(due)
    ends = np.cumsum(counts)
    for k in np.flatnonzero(counts).tolist():
        hi = int(ends[k])
        sel = order[hi - int(counts[k]) : hi]
        into.setdefault(low + k, []).append(tuple(column[sel] for column in columns))


class _Deferred:
    """General fire's products held back to be merged, where the attacker's submarines
    struck.  A node's attacker casualties are spread at once into entries (attacker
    row, the node's defender casualty distribution), and each entry is spread over that
    distribution only when no node left can add to it.  Nodes with the same defender
    distribution (the same defender state, the same attacker dice: its submarines
    struck, so its states that differ only in submarines roll alike) share entries, so
    a product is made once per entry instead of once per node.

    An entry (row r, distribution of defender state j) is added to by nodes (i, j)
    whose casualties reach r: at levels above hp(r) + hp(j), or at that level when
    i = r (no attacker loss).  So it is spread at the start of level hp(r) + hp(j)
    (before that level's masses are read: its products with no defender loss land on
    that level) and again after the level's nodes (their own rows).

    Where the attacker's submarines lead its loss order and the defender's general fire
    has no submarine dice (:meth:`add_split`), its casualties are not a stored
    distribution per node (~110 states each at 100 a side: two kinds of hits, two
    directions) but two steps: the unrestricted hits now, into states between (the
    defender's distribution, the attacker's state they leave), and the aircraft's hits
    from those once complete, by the same rule in time: due at hp(state) + hp(j), merged
    and spread into entries at the start of that level and again after its nodes,
    before the entries due there.  Nodes whose unrestricted hits leave the same state
    (their submarines differ) share its aircraft's hits.

    Where only the defender's submarines strike, the same with columns was measured:
    ~13 % faster (63 -> 55 s at 100 a side) for twice the memory (the attacker's
    distributions kept, 1.35 -> 2.75 GB), so those battles are left as they were."""

    def __init__(self, A: _Numbered, D: _Numbered) -> None:
        self.A, self.D = A, D
        # Per level due: (keys, masses), a key being distribution << ROW_BITS | row.
        self.pending: dict[int, list[tuple[Arr, Arr]]] = {}
        # Per level due, for add_split: (keys, masses, where the aircraft's hits are in
        # A's store of distributions and their lengths), a key being the defender's
        # distribution << ROW_BITS | the attacker's state once the other hits are taken.
        self.between: dict[int, list[tuple[Arr, Arr, Arr, Arr]]] = {}

    def add(self, g: Arr, ca: Arr, cd: Arr, jj: Arr) -> float:
        """Hold back general fire from nodes with defender states ``jj``, G masses ``g``
        and stored casualty distributions ``ca``, ``cd``: the attacker's casualties are
        spread now.  Returns the mass left out (entries below TINY: each of their
        products would be)."""
        A, D = self.A, self.D
        rows, p, la = A.gather(ca)
        vals = p * np.repeat(g, la)
        keep = vals >= TINY
        lost = float(vals[~keep].sum())
        if not keep.any():
            return lost
        # The level due: the row's state's hit points plus the defender state's.
        fin = A.slot_hp()[rows[keep]] + np.repeat(D.hp_arr[jj], la)[keep]
        _by_level(self.pending, fin, (np.repeat(cd, la)[keep] << ROW_BITS) | rows[keep], vals[keep])
        return lost

    def add_split(self, g: Arr, ii: Arr, jj: Arr, cd: Arr, fmeta: Arr) -> float:
        """:meth:`add` for nodes (``ii``, ``jj``) whose attacker's submarines lead its
        loss order, under fire of facts ``fmeta`` (:meth:`_Numbered.fire_meta`) with no
        submarine dice: the attacker's casualties in two steps, its unrestricted hits now
        (they take its submarines first, then the steps after them), its aircraft's
        hits (that take the first steps that are not submarines) when the states they
        leave are complete (:meth:`flush_split`).  The same casualties as its stored
        distribution's (the aircraft's hits first, then the others, A-10.14): with the
        submarines first, either way the unrestricted hits take the first submarines
        and, past them, the same steps the aircraft's hits would take next.  Nodes with
        the same defender distribution whose unrestricted hits leave the same state
        (its submarines differ) then share the aircraft's hits."""
        A, D = self.A, self.D
        kk, states, vals, lost = _placed(A, A.seq_meta(ii, False), fmeta[:, 2], fmeta[:, 5], g)
        if len(kk):
            fin = A.hp_arr[states] + D.hp_arr[jj[kk]]
            _by_level(self.between, fin, (cd[kk] << ROW_BITS) | states, vals, fmeta[kk, 1], fmeta[kk, 4])
        return lost

    def flush_split(self, level: int) -> float:
        """The aircraft's hits of :meth:`add_split` on the states due at ``level`` (the
        unrestricted hits' states plus the defender state's hit points: no node left
        can add to them), merged, into entries; returns the mass left out."""
        held = self.between.pop(level, None)
        if not held:
            return 0.0
        A = self.A
        key, vals, a_off, n_a = (np.concatenate(column) for column in zip(*held))
        key, vals, first = _merged(key, vals)
        a_off, n_a = a_off[first], n_a[first]  # the same for every item of a key
        states = key & ROW_MASK
        kk, after, w, lost = _placed(A, A.air_hits_meta(states), a_off, n_a, vals)
        if len(kk):
            due = A.hp_arr[after] + (level - A.hp_arr[states])[kk]  # the defender's hit points kept
            _by_level(self.pending, due, ((key[kk] >> ROW_BITS) << ROW_BITS) | (A.slots(after) * A.col), w)
        return lost

    def flush_all(self, table: Callable[[], Arr], spread: Spreader | None = None) -> float:
        """Everything held spread, from the highest level due down (nothing more to come:
        a round walk's one round); ``table()``: the mass table, made big enough for
        the slots given so far; ``spread``: as :meth:`flush`.  Returns the mass left
        out."""
        lost = 0.0
        while self.between or self.pending:
            level = max(max(self.between, default=-1), max(self.pending, default=-1))
            lost += self.flush_split(level)
            lost += self.flush(table(), level, spread)
        return lost

    def left(self) -> float:
        """The mass of entries still held (none once every level is done), dropped."""
        mass = sum(float(v.sum()) for held in self.pending.values() for _, v in held)
        mass += sum(float(item[1].sum()) for held in self.between.values() for item in held)
        self.pending.clear()
        self.between.clear()
        return mass

    def flush(self, table: Arr, level: int, spread: Spreader | None = None) -> float:
        """Spread the entries due at ``level``, merged; returns the mass left out (the
        work was counted when they were held back).  ``spread``: how to spread them
        instead (flat parts, one per defender distribution, :meth:`_Parts.flat`)."""
        held = self.pending.pop(level, None)
        if not held:
            return 0.0
        key, vals, _ = _merged(np.concatenate([h[0] for h in held]), np.concatenate([h[1] for h in held]))
        dist = key >> ROW_BITS
        starts = np.flatnonzero(np.r_[True, dist[1:] != dist[:-1]])
        la = np.diff(np.r_[starts, len(dist)])
        D = self.D
        if spread is None and (compiled.numba_loaded() or int(la @ D.res_len[dist[starts]]) >= COMPILED_PRODUCTS):
            # The defender's results read where they are stored.
            from engine.odds.aa_naval_kernel import spread_held  # numba: compiled on first use

            return float(spread_held(table, key & ROW_MASK, vals, la, dist[starts], D.res_off, D.res_len, D.res_idx.data,
                                     D.res_p.data, TINY))  # fmt: skip
        d_idx, d_p, ld = D.gather(dist[starts])
        flat = (key & ROW_MASK, vals, la, d_idx, d_p, ld)
        return _spread_flat(table, *flat) if spread is None else spread(flat)


class NavalSolver:
    """Solves the chain from the states after round 1 (float mode, no round limit).

    Every pair of states is a node with two phases: *S*, a round about to start (the
    surprise strikes, A-10.6), and *G*, the strikes done (general fire).  A strike moves
    S(i, j) to G(i1, j1) (an outer product of the two sides' strike results); general
    fire moves G(i1, j1) to S(i2, j2) (an outer product of the two casualty
    distributions).  Which submarines still fire in G follows from (i1, j1) alone:
    a side struck exactly when it has submarines and the enemy no destroyer, and a
    strike never removes the destroyer that would have cancelled it; a side whose
    submarines were all sunk by the enemy's simultaneous strike rolls no submarine dice
    either way.  So G(i1, j1) is one node, however many origins' strikes fed it, and its
    general fire is computed once.  Within a level (the hit points both sides have left)
    only S(v) -> G(v) ("the strikes hit nothing", ``p0``) and G(v) -> S(v) ("general
    fire hits nothing", ``g0``) stay in the level: with ``m_s``, ``m_g`` the masses
    arriving from above, S(v) is visited ``(m_s + g0 m_g) / (1 - g0 p0)`` times and
    G(v) ``m_g + p0`` times that."""

    def __init__(
        self, setup: BattleSetup[float], max_states: int | None = None, seen: int = 0, sides: NumberedSides | None = None,
        *, work: Work | None = None,
    ) -> None:
        """``sides``: the numbered sides of an earlier solver of the same battle (its
        :attr:`sides`), whose stored results are then reused; ``setup`` may differ from
        that solver's in its end-of-round rules only (a retreat by win chance).
        ``work``: the answer's work limit (:class:`engine.odds.aa_battle.Work`): outer
        product terms (spread or, backward, mixed) and casualty cells are counted
        against it before each batch of products, so a battle too big is refused after
        at most that much work."""
        self.setup = setup
        self.max_states = max_states
        self.work = work if work is not None else Work()
        self.seen = seen
        if sides is None:
            self.A = _Numbered(setup.attacker, setup, True)
            self.D = _Numbered(setup.defender, setup, False)
        else:
            self.A, self.D = sides
            self.A.rebind(setup)
            self.D.rebind(setup)
        self.sides: NumberedSides = (self.A, self.D)
        # A retreat by win chance: its pairs' keys, sorted (see _loud).
        self._retreat_keys: Arr | None = None
        at = setup.retreat_at
        if at is not None:
            got = at.keys_for(self.A, self.D) if isinstance(at, NumberedPairs) else None
            if got is None:  # pairs of states: numbered here
                got = np.sort(np.array([(self.A.number(a) << SHIFT) | self.D.number(d) for a, d in at], dtype=np.int64))
            self._retreat_keys = got
        self._cells_counted = self.A.cells + self.D.cells
        self._settled: dict[int, tuple[str | None, int, int]] = {}
        # Per defender state: -2 not looked at yet, -1 not lost for sure, else the number
        # of the state the end-of-round rules leave it in when the attacker wins there
        # (:meth:`_won`); per attacker state: -1 not looked at yet, else whether it can
        # fire.
        self._lost_to = np.full(256, -2, dtype=np.int64)
        self._can_fire = np.full(256, -1, dtype=np.int64)
        # Levels as :meth:`solve` met them, for :meth:`win_chances` (None: not kept).
        self.trace: list[_Level] | None = None
        self.dropped = 0.0  # the mass :meth:`solve` left out
        # General fire held back and merged (_Deferred; untraced solves): where the
        # attacker's submarines strike from the start (no defending destroyer), its
        # many states that differ only in submarines roll the same general fire.  Where
        # they strike only late (the defender's destroyers lost), merging costs more
        # than it saves.
        att, dfn = setup.attacker, setup.defender
        self.merge = HOLD_BACK and att.has(att.start, "submarine") and not dfn.has(dfn.start, "destroyer")
        # A traced solve (a retreat by win chance) holds general fire back too, its chances
        # backward mirroring it (_HeldValues), where no side has a destroyer (both sides'
        # submarines strike, aircraft hit no submarine: the casualties split and merge
        # most) in battles of at least HELD_TRACE_FROM units: the slowest kind's retreat
        # at 40 % 15.8 -> 9.5-9.8 s at 60 a side, 279 -> 87 s at 100, but ~10-17 % slower
        # at 25-40 a side, and ~35 % slower with the attacker's destroyers (little merged).
        self.held_trace = (
            self.merge and not att.has(att.start, "destroyer")
            and att.alive(att.start) + dfn.alive(dfn.start) >= HELD_TRACE_FROM
        )  # fmt: skip

    def _held_nodes(self, kept: _Kept) -> Arr:
        """Which of a traced level's nodes take their general fire's value from
        :class:`_HeldValues`: those whose attacker's submarines struck (the forward held
        their general fire back), the split ones among them (no stored distribution)."""
        on: Arr = self._striking(kept.ii, kept.jj)[0] | (kept.ca < 0)
        return on

    def _held_back_traced(self) -> bool:
        """Whether a traced solve holds general fire back and its chances backward
        mirrors it (:class:`_HeldValues`, compiled: numba loaded)."""
        return self.held_trace and compiled.numba_loaded()

    def _charge(self, products: int) -> None:
        """Count ``products`` more terms, and the casualty cells enumerated since the
        last call, against the work limit."""
        cells = self.A.cells + self.D.cells
        self.work.add(products + cells - self._cells_counted)
        self._cells_counted = cells

    def _loud(self, ii: Arr, jj: Arr) -> Arr:
        """Which pairs (ii, jj) the end-of-round rules may act on (the others fight on as
        they are): not both sides plain.  A pair whose attacker state is not plain only
        because it retreats by win chance from some pairs (``retreat_at``) is looked up
        among those, all at once, instead of being settled one by one."""
        return self._sorted_out(ii, jj)[0]

    def _sorted_out(self, ii: Arr, jj: Arr) -> tuple[Arr, Arr]:
        """:meth:`_loud`, and which of those pairs the attacker surely retreats from
        with both states as they are (the defender's left alone by the rules): its
        few units left (``retreat_below``) or a pair of ``retreat_at``."""
        A, D = self.A, self.D
        # A defender left with transports and submarines loses the transports only to
        # aircraft alone (A-10.7): against other attackers its state is as calm.
        d_calm = D.flags[jj, 6] & ~A.flags[ii, 7]
        loud = ~(A.flags[ii, 3] & (D.flags[jj, 3] | d_calm))
        d_calm |= D.flags[jj, 5]
        back = loud & A.flags[ii, 8] & d_calm
        rk = self._retreat_keys
        if rk is not None:
            only = np.flatnonzero(loud & A.flags[ii, 5] & d_calm)
            if len(only):
                retreats = _found(rk, (ii[only] << SHIFT) | jj[only])
                loud[only[~retreats]] = False
                back[only[retreats]] = True
        return loud, back

    def _record_all(self, outcome: str, ii: Arr, jj: Arr, m: Arr, tally: Tally[float]) -> None:
        """Record ``outcome`` at pairs (ii, jj) with masses ``m``, as ``tally.record`` would
        one by one: the attacker's retreat from pairs the rules otherwise leave alone
        (their round starts), or its win where :meth:`_won` finds the defender lost
        (``jj`` then the defender's states the rules leave)."""
        live = m > 0
        ii, jj, m = ii[live], jj[live], m[live]
        if not len(m):
            return
        if outcome == RETREAT and isinstance(tally.retreats, dict):  # the pairs kept too (a landing's retreat)
            for i, j, w in zip(ii.tolist(), jj.tolist(), m.tolist()):
                tally.record(RETREAT, self.A.states[i], self.D.states[j], w, False)
            return
        tally.outcome[outcome] += float(m.sum())
        _add_ends(tally.attacker_end, self.A.states, ii, m)
        _add_ends(tally.defender_end, self.D.states, jj, m)
        if outcome == ATTACKER and tally.takes is not None:
            sums = np.bincount(ii, m)
            takes = self.setup.takes
            tally.takes += sum(float(sums[i]) for i in np.flatnonzero(sums).tolist() if takes(self.A.states[i]))

    def _won(self, ii: Arr, jj: Arr) -> tuple[Arr, Arr]:
        """Which pairs (ii, jj) the end-of-round rules surely end in the attacker's win,
        as :meth:`_settle` would one by one, and the defender's state there: the defender
        has nothing left, or only transports (lost without dice, A-10.7, when the
        attacker can still fire), against a quiet attacker state (alive, no retreat,
        nothing to submerge: :meth:`BattleSetup.quiet`).  In a battle fought to the end
        nearly every round that leaves the defender only transports comes here (tens of
        thousands of pairs in the bench's full fleets, ~15 us each one by one)."""
        A, D, setup = self.A, self.D, self.setup
        dfn = setup.defender
        if len(jj) and int(jj.max()) >= len(self._lost_to):
            self._lost_to = _longer(self._lost_to, 2 * int(jj.max()) + 2, -2)
        if len(ii) and int(ii.max()) >= len(self._can_fire):
            self._can_fire = _longer(self._can_fire, 2 * int(ii.max()) + 2, -1)
        lost_to, fires = self._lost_to, self._can_fire
        for j in np.unique(jj[lost_to[jj] == -2]).tolist():
            d = D.states[j]
            if dfn.alive(d) == 0:
                lost_to[j] = j
            elif setup.sea and dfn.has(d, "transport") and dfn.only(d, ("transport",)):
                lost_to[j] = D.number(state_without(dfn, d, "transport"))
            else:
                lost_to[j] = -1
        to = lost_to[jj]
        doomed = to >= 0
        quiet = A.flags[ii, 3] & doomed
        if not quiet.any():
            return quiet, to
        empty = to == jj  # nothing left: the attacker need not fire
        need = quiet & ~empty
        for i in np.unique(ii[need & (fires[ii] < 0)]).tolist():
            fires[i] = int(setup.can_fire(setup.attacker, A.states[i]))
        return quiet & (empty | (fires[ii] == 1)), to

    def _settle(self, i: int, j: int) -> tuple[str | None, int, int]:
        """The end-of-round rules on (i, j): ``(outcome, i3, j3)``; (None, i, j) when
        they change nothing."""
        key = (i << SHIFT) | j
        got = self._settled.get(key)
        if got is None:
            A, D = self.A, self.D
            if A.plain[i] and D.plain[j]:
                got = (None, i, j)
            else:
                outcome, a3, d3 = self.setup.settle(A.states[i], D.states[j])
                got = (outcome, A.number(a3), D.number(d3))
            self._settled[key] = got
        return got

    def _nodes(
        self, ii: Arr, jj: Arr, ms: Arr, mg: Arr, end: Callable[[int, int, float], bool], tally: Tally[float],
        parts: _Parts, dropped: float, rounds: float, defer: _Deferred | None = None,
    ) -> tuple[float, float]:
        """One level's nodes, all at once: the end-of-round rules where they may act
        (one by one), then each node's phases from the stored results of both sides,
        its visits in closed form, and its outer products into ``parts``."""
        A, D = self.A, self.D
        met = (ii, jj)
        stays = np.ones(len(ii), dtype=bool)
        loud, back = self._sorted_out(ii, jj)
        # The attacker's retreats from pairs the rules leave alone otherwise (few units
        # left, or by win chance): recorded at once, not one by one.
        if back.any():
            self._record_all(RETREAT, ii[back], jj[back], ms[back], tally)
            ms[back] = 0.0
            stays[back] = False
            loud &= ~back
        # The defender lost (nothing, or transports alone, left): recorded at once.
        won, lost_to = self._won(ii, jj)
        won &= loud
        if won.any():
            self._record_all(ATTACKER, ii[won], lost_to[won], ms[won], tally)
            ms[won] = 0.0
            stays[won] = False
            loud &= ~won
        for k in np.flatnonzero(loud).tolist():
            i, j = int(ii[k]), int(jj[k])
            if ms[k] and end(i, j, float(ms[k])):
                ms[k] = 0.0
                stays[k] = False
            elif self._settle(i, j) != (None, i, j):
                stays[k] = False
        total = ms + mg
        keep = total >= TINY
        if not keep.all():
            dropped += float(total[~keep].sum())
            ii, jj, ms, mg, stays, back = ii[keep], jj[keep], ms[keep], mg[keep], stays[keep], back[keep]
            won, lost_to = won[keep], lost_to[keep]
        if not len(ii):
            if self.trace is not None:
                self.trace.append(_Level(met, None))
            return dropped, rounds
        self.seen += len(ii)
        if self.max_states is not None and self.seen > self.max_states:
            raise too_many_states(self.max_states)
        if defer is not None and SPLIT:
            ca, cd, split, fmeta = self._general_held(ii, jj)
        else:
            ca, cd = self._general(ii, jj)
            split = fmeta = None
        sa, sd = self._strikes(ii, jj)
        a_stay, a_still = A.stay[ca], A.still[ca]
        if split is not None and split.any():
            a_stay[split], a_still[split], a_len = self._split_facts(ii[split], fmeta[split])
        g0 = a_stay * D.stay[cd]
        p0 = A.stay[sa] * D.stay[sd]
        loop = g0 * p0
        stale = stays & (loop >= 1.0)  # nothing can change any more
        for k in np.flatnonzero(stale).tolist():
            tally.record(STALEMATE, A.states[int(ii[k])], D.states[int(jj[k])], float(ms[k] + mg[k]), False)
        # S(i, j) never holds mass: G's "no hit" share settles at once.
        if back.any():
            self._record_all(RETREAT, ii[back], jj[back], g0[back] * mg[back], tally)
        if won.any():
            self._record_all(ATTACKER, ii[won], lost_to[won], g0[won] * mg[won], tally)
        for k in np.flatnonzero(~stays & ~back & ~won).tolist():
            if g0[k] and mg[k]:
                end(int(ii[k]), int(jj[k]), float(g0[k] * mg[k]))
        live = stays & ~stale
        s_total = np.where(live, (ms + g0 * mg) / np.where(live, 1.0 - loop, 1.0), 0.0)
        g_total = np.where(stays, mg + p0 * s_total, mg)
        rounds += float(s_total.sum())
        s_part = np.flatnonzero(live & (p0 != 1.0))
        g_part = np.flatnonzero(~stale & ~(a_still & D.still[cd]) & (g_total != 0.0))
        parts.add(s_total[s_part], sa[s_part], sd[s_part])
        # The attacker's results' lengths (a split node's: the states its casualties
        # reach), for the work counted below.
        a_lens = A.res_len[ca]
        if split is not None and split.any():
            a_lens[split] = a_len
        if defer is not None:
            # Held back and merged where the attacker's submarines struck (its dice the
            # same whatever submarines it has left).
            held = self._striking(ii[g_part], jj[g_part])[0]
            h = g_part[held]
            if len(h):
                # Counted as the products they stand for: the work limit means the same
                # battles held back or not (only reached sooner), split or not.
                self._charge(int(a_lens[h] @ D.res_len[cd[h]]))
                two = split[h] if split is not None else np.zeros(len(h), dtype=bool)
                h2, h1 = h[two], h[~two]
                if len(h1):
                    dropped += defer.add(g_total[h1], ca[h1], cd[h1], jj[h1])
                if len(h2):
                    assert fmeta is not None
                    dropped += defer.add_split(g_total[h2], ii[h2], jj[h2], cd[h2], fmeta[h2])
            g_part = g_part[~held]
        parts.add(g_total[g_part], ca[g_part], cd[g_part])
        if self.trace is not None:
            self.trace.append(_Level(met, _Kept(ii, jj, sa, sd, ca, cd, g0, p0, stays, stale, s_total, g_total, ms,
                                                split, fmeta)))  # fmt: skip
            # The backward pass (win_chances) mixes these nodes' general fire: counted
            # now, so a battle whose two passes pass the work limit is refused during the
            # first, not after it (the same total, the same battles refused, sooner).
            self._charge(int(a_lens @ D.res_len[cd]))
        return dropped, rounds

    def solve(self, initial: dict[tuple[State, State], float], tally: Tally[float],
              struck: tuple[Arr, Arr, Arr] | None = None) -> int:
        """Spread ``initial`` to the end, recording into ``tally``; returns the number of
        nodes processed.  Masses live in a dense table (attacker slot x 2 defender slot
        + phase: 0 = S, 1 = G); a level's cells are the pairs of slots whose states' hit
        points add up to it.  ``struck``: pairs (attacker and defender numbers) and
        masses that start a round there (the end-of-round rules done) and fight it
        whatever this battle's rules say of them (the first round of a retreat's
        correction, :func:`corrected`: they are retreat pairs): their strikes spread
        into the G cells they lead to before the first level, their round counted."""
        A, D = self.A, self.D
        settle = self.setup.settle
        takes = self.setup.takes
        table = np.zeros((64, 128))

        def grow() -> None:
            nonlocal table
            table = _grown(table, A, D, self.work.naval_table)

        def put_one(i: int, j: int, m: float) -> None:
            si, sj = A.slot(i), D.slot(j)
            grow()
            table[si, 2 * sj] += m

        def end(i: int, j: int, m: float) -> bool:
            """Settle S(i, j) holding ``m`` if the end-of-round rules change it (recorded
            or moved down); False when (i, j) fights on as it is."""
            outcome, i3, j3 = self._settle(i, j)
            if outcome is not None:
                a3 = A.states[i3]
                tally.record(outcome, a3, D.states[j3], m, takes(a3))
                return True
            if i3 != i or j3 != j:  # submerged or sunk transports: fewer hit points
                put_one(i3, j3, m)
                return True
            return False

        top = -1
        for (a, d), m in initial.items():
            outcome, a3, d3 = settle(a, d)
            if outcome is not None:
                tally.record(outcome, a3, d3, m, takes(a3))
            else:
                i, j = A.number(a3), D.number(d3)
                put_one(i, j, m)
                top = max(top, int(A.hp_arr[i] + D.hp_arr[j]))
        dropped = 0.0
        rounds = 0.0
        parts = _Parts(A, D)
        if struck is not None and len(struck[2]):
            s_i, s_j, s_m = struck
            sa, sd = self._strikes(s_i, s_j)
            parts.add(s_m, sa, sd)
            grow()
            dropped += parts.spread(table, self._charge)
            rounds += float(s_m.sum())
            top = max(top, int((A.hp_arr[s_i] + D.hp_arr[s_j]).max()))
        # General fire held back where the attacker's submarines strike; in a traced solve
        # too where numba is loaded (the chances backward then mirrors it: _HeldValues).
        traced = self.trace is not None
        defer = _Deferred(A, D) if self.merge and (not traced or self._held_back_traced()) else None
        if defer is not None:
            D.transient = False  # its distributions are named by held entries (sides handed over too)
        for level in range(top, -1, -1):
            if defer is not None:
                dropped += defer.flush_split(level)
                grow()
                dropped += defer.flush(table, level)
            got = self._level(table, level)
            if got is None:
                continue
            si, sj, m_s, m_g = got
            ii = A.slot_state[si]
            jj = D.slot_state[sj]
            for side in (A, D):
                if side.transient:
                    side.keep_from()
            dropped, rounds = self._nodes(ii, jj, m_s, m_g, end, tally, parts, dropped, rounds, defer)
            if parts:
                grow()
                dropped += parts.spread(table, self._charge)
            if defer is not None:
                dropped += defer.flush_split(level)
                grow()
                dropped += defer.flush(table, level)
            for side in (A, D):
                side.release()
                # Nearly every casualty distribution new (and no trace that keeps their
                # numbers): drop each level's after it from now on.  Not the defender's
                # when general fire is held back (_Deferred: entries name them).
                side.transient = (
                    self.trace is None and side.lookups > TRANSIENT_AFTER and side.misses > TRANSIENT_SHARE * side.lookups
                    and not (defer is not None and side is D)
                )  # fmt: skip
            # The loops' shares went back to this level's cells: summed in closed form
            # (or settled, above).
            flat = si * table.shape[1] + 2 * sj
            table.reshape(-1)[flat] = 0.0
            table.reshape(-1)[flat + 1] = 0.0
        if defer is not None:
            dropped += defer.left()  # nothing: every entry is due at a level >= 0
        assert tally.rounds is not None
        tally.rounds += rounds
        tally.dropped += dropped
        self.dropped = dropped
        return self.seen

    def win_chances(self) -> tuple[Arr, Arr, Arr, Arr, Arr]:
        """After a traced :meth:`solve` (``trace`` set to a list first): the attacker's
        chance to win by fighting on to the end from each pair the solve kept where a
        round starts, as an interval: ``(ii, jj, low, high, visits)``, with the pair's
        visits (the mass that ever reaches it).

        Levels are taken back from the fewest hit points up; a pair's chance is a mix of
        the chances of the pairs its phases lead to, all lower but itself, over the
        products the solve spread (:func:`_bilinear`).  With S(v) -> G(v) (``p0``) and
        G(v) -> S(v) (``g0``) the only moves that stay in a level, S's chance is ``(a +
        p0 b) / (1 - p0 g0)`` and G's ``g0 S + b`` (``a``: the strikes' other results,
        ``b``: general fire's).  A stalemate never wins.

        ``low`` counts a pair the solve never kept, or a product it did not spread, as
        never winning.  What that leaves out from a pair P is the chance that the battle
        from P ever takes such a step, and ``high`` is ``low`` plus that chance, mixed
        backward alongside the chances to win: a pair never kept counts 1, an ended
        battle 0, and each phase adds the share of its products not spread (its results
        on both sides are distributions, so that share is one minus the kept attacker
        entries' chances times the kept defender entries'; the closed form of the loops
        is the same).  Every such step was also counted, with the mass taking it, in the
        mass the solve left out (``dropped``), and P's visits times the chance of
        reaching a pair Q is at most Q's, so the chance is at most ``dropped /
        visits(P)`` too: the smaller of the two is used."""
        assert self.trace is not None
        A, D = self.A, self.D
        # Both tables at once, as one complex table: the real part is the chance to win,
        # the imaginary part the chance of ever taking a step the solve left out (a cell
        # never kept: 1).  Every step below mixes them with the same real weights, so
        # each gather and sum serves both.
        both = np.full((len(A.slot_state), 2 * len(D.slot_state)), 1j)
        won = ATTACKER
        out: list[tuple[Arr, Arr, Arr, Arr, Arr]] = []
        held = _HeldValues(A, D, self) if self._held_back_traced() else None
        for level in reversed(self.trace):
            all_i, all_j = level.met
            loud = self._loud(all_i, all_j)
            # The pairs the rules surely end in the attacker's win (the defender left
            # nothing, or transports alone: :meth:`_won`), at once.
            sure = loud & self._won(all_i, all_j)[0]
            if sure.any():
                both[A.slot_of[all_i[sure]], 2 * D.slot_of[all_j[sure]]] = 1.0
            for k in np.flatnonzero(loud & ~sure).tolist():
                i, j = int(all_i[k]), int(all_j[k])
                outcome, i3, j3 = self._settle(i, j)
                cell = (A.slot_of[i], 2 * D.slot_of[j])
                if outcome is not None:
                    both[cell] = 1.0 if outcome == won else 0.0
                elif (i3, j3) != (i, j):
                    s3, t3 = A.slot_of[i3], D.slot_of[j3]
                    both[cell] = both[s3, 2 * t3] if s3 >= 0 and t3 >= 0 else 1j
            if level.kept is None:
                continue
            ii, jj, sa, sd, ca, cd, g0, p0, stays, stale, s_total, g_total, _, split, fmeta = level.kept  # (ms: corrected's)
            si, sj = A.slot_of[ii], 2 * D.slot_of[jj]
            both[si[stays], sj[stays]] = 0  # the loops: summed in closed form
            both[si, sj + 1] = 0
            # Its work was counted when the traced solve met these nodes (_nodes).
            if held is not None:
                # Where the attacker's submarines struck (the forward held general fire
                # back): each entry's value once for every node that reaches it.
                on = self._held_nodes(level.kept)
                b = np.empty(len(ii), dtype=complex)
                if on.any():
                    b[on] = held.values(ii[on], jj[on], ca[on], cd[on], g_total[on],
                                        split[on] if split is not None else np.zeros(int(on.sum()), dtype=bool),
                                        fmeta[on] if fmeta is not None else None, both)  # fmt: skip
                if not on.all():
                    b[~on] = _bilinear(A, D, ca[~on], cd[~on], g_total[~on], both)
            else:
                b = _bilinear(A, D, ca, cd, g_total, both)
            live = stays & ~stale
            x_s = np.zeros(len(ii), dtype=complex)
            if live.any():
                a = _bilinear(A, D, sa[live], sd[live], s_total[live], both)
                x_s[live] = (a + p0[live] * b[live]) / (1.0 - p0[live] * g0[live])
            x_g = np.where(stays, g0 * x_s, 0) + b
            x_g[stale] = 0
            both[si[stays], sj[stays]] = x_s[stays]
            both[si, sj + 1] = x_g
            out.append((ii[stays], jj[stays], x_s[stays].real, x_s[stays].imag, s_total[stays]))
        if not out:
            none = np.zeros(0, dtype=np.int64)
            return none, none, np.zeros(0), np.zeros(0), np.zeros(0)
        ii, jj, low, left_out, visits = (np.concatenate(column) for column in zip(*out))
        width = np.divide(self.dropped, visits, out=np.full(len(visits), np.inf), where=visits > 0)
        return ii, jj, low, np.minimum(low + np.minimum(width, left_out), 1.0), visits

    def _striking(self, ii: Arr, jj: Arr) -> tuple[Arr, Arr]:
        """Per pair (ii, jj): whether the attacker's submarines strike, and the
        defender's (submarines with no enemy destroyer, A-10.6)."""
        A, D = self.A, self.D
        return A.flags[ii, 0] & ~D.flags[jj, 1], D.flags[jj, 0] & ~A.flags[ii, 1]

    def _strikes(self, ii: Arr, jj: Arr) -> tuple[Arr, Arr]:
        """Stored results of the surprise strikes at the pairs (ii, jj): the attacker's
        (where the defender's submarines strike it) and the defender's; "nothing
        happens" where no submarine strikes."""
        A, D = self.A, self.D
        fa, fd = self._striking(ii, jj)
        sa = A.idents(ii)
        if fd.any():
            sa[fd] = _strike_ids(A, ii[fd], D, jj[fd])
        sd = D.idents(jj)
        if fa.any():
            sd[fa] = _strike_ids(D, jj[fa], A, ii[fa])
        return sa, sd

    def _general_held(self, ii: Arr, jj: Arr) -> tuple[Arr, Arr, Arr, Arr]:
        """:meth:`_general` where general fire is held back (:class:`_Deferred`): the
        pairs whose attacker's casualties are split (:meth:`_Deferred.add_split`: its
        submarines struck and lead its loss order, the defender's fire has no submarine
        dice) get no stored distribution (-1).  Returns ``(ca, cd, split, fmeta)``, with
        the facts of the defender's fire on the attacker (:meth:`_Numbered.fire_meta`)."""
        A, D = self.A, self.D
        fa, on_a, on_d = self._fires(ii, jj)
        fmeta = A.fire_meta(D, on_a)
        split = fa & (fmeta[:, 3] == 1)
        split[split] = A.subs_lead(ii[split])
        ca = np.full(len(ii), -1, dtype=np.int64)
        rest = ~split
        if rest.any():
            ca[rest] = _cas_ids(A, ii[rest], on_a[rest], D)
        return ca, _cas_ids(D, jj, on_d, A), split, fmeta

    def _split_facts(self, ii: Arr, fmeta: Arr) -> tuple[Arr, Arr, Arr]:
        """For attacker states ``ii`` whose casualties are split (``fmeta``: the facts
        of the fire on them): the chance that general fire leaves them as they are (no
        unrestricted hit, no aircraft hit on a step it may take), whether that is sure,
        and how many states their casualties reach (what a stored distribution would
        hold: the work it stands for)."""
        A = self.A
        d = A.dstore.data
        n_c = A.seq_meta(ii, False)[1]
        n_ac = A.air_hits_meta(ii)[1]
        n_a, n_y = fmeta[:, 4], fmeta[:, 5]
        n1, n2 = np.minimum(n_y, n_c), np.minimum(n_a, n_ac)
        # One cell: sure (hits past the chain's end stay at its state, here t itself).
        stay = np.where(n1 == 1, 1.0, d[fmeta[:, 2]]) * np.where(n2 == 1, 1.0, d[fmeta[:, 1]])
        # Submarines first: the unrestricted hits' rows with submarines left reach the
        # aircraft's n2 states each; the rows past them, one run of states.
        subs, other = n_c - n_ac, n_ac - 1
        lens = np.minimum(subs, n1) * n2 + np.where(n1 > subs, np.minimum(other, n1 - 1 - subs + n_a - 1) + 1, 0)
        return stay, (n1 == 1) & (n2 == 1), lens

    def _fires(self, ii: Arr, jj: Arr) -> tuple[Arr, Arr, Arr]:
        """General fire at the pairs (ii, jj), the strikes done: whether the attacker's
        submarines struck, the defender's fire keys on the attacker and the attacker's
        on the defender.  Which submarines still fire and where aircraft hits may land
        follow from the pair alone (see the class docstring)."""
        A, D = self.A, self.D
        fa, fd = self._striking(ii, jj)
        # Fire variants (subs_fire * 2 + air_any): submarines that struck fire no more;
        # aircraft hit anything when their side has a destroyer or the enemy no
        # submarine among its fighting units (A-10.14).
        v_d = (~fd) * 2 + (D.flags[jj, 1] | ~A.flags[ii, 2])
        v_a = (~fa) * 2 + (A.flags[ii, 1] | ~D.flags[jj, 2])
        return fa, D.fire_keys(jj, v_d), A.fire_keys(ii, v_a)

    def _general(self, ii: Arr, jj: Arr) -> tuple[Arr, Arr]:
        """Stored casualty distributions of general fire at the pairs (ii, jj)."""
        A, D = self.A, self.D
        _, on_a, on_d = self._fires(ii, jj)
        return _cas_ids(A, ii, on_a, D), _cas_ids(D, jj, on_d, A)

    def walk(self, initial: dict[tuple[State, State], float], rounds: int, tally: Tally[float]) -> None:
        """``rounds`` rounds from the pairs ``initial`` (the end-of-round rules already
        applied), recording into ``tally``; whatever still fights after the last one is
        unfinished.  Each round takes all its live pairs at once: the surprise strikes
        (S cells to G cells of the table), then general fire (G cells to the next
        round's S cells), then the end-of-round rules where they may act.  "Nobody is
        hit" simply stays for the next round (no loop to close).  Masses below ``TINY``
        are not spread (their sum goes to ``tally.dropped``)."""
        A, D = self.A, self.D
        table = np.zeros((64, 128))

        def grow() -> None:
            nonlocal table
            table = _grown(table, A, D, self.work.naval_table)

        def grown() -> Arr:
            grow()
            return table

        def cells(phase: int) -> tuple[Arr, Arr, Arr]:
            """The pairs holding mass in phase ``phase`` (0: S, 1: G), taken out."""
            sub = table[: len(A.slot_state), phase : 2 * len(D.slot_state) : 2]
            si, sj = np.nonzero(sub)
            m = sub[si, sj]
            sub[si, sj] = 0.0
            return A.slot_state[si], D.slot_state[sj], m

        def put(ii: Arr, jj: Arr, m: Arr, phase: int) -> None:
            si, sj = A.slots(ii), D.slots(jj)
            grow()
            np.add.at(table, (si, 2 * sj + phase), m)

        def spread(parts: _Parts) -> float:
            if not parts:
                return 0.0
            return spread_flat(*parts.flat())

        def spread_flat(a_idx: Arr, a_val: Arr, la: Arr, d_idx: Arr, d_val: Arr, ld: Arr) -> float:
            self._charge(int(la @ ld))
            grow()
            return _spread_flat(table, a_idx, a_val, la, d_idx, d_val, ld)

        def last_fire(flat: Flat) -> float:
            """The last round's general fire, by its shortcut (:meth:`_last_fire`)."""
            return self._last_fire(flat, spread_flat, tally)

        def prune(ii: Arr, jj: Arr, m: Arr) -> tuple[Arr, Arr, Arr, float]:
            keep = m >= TINY
            if keep.all():
                return ii, jj, m, 0.0
            return ii[keep], jj[keep], m[keep], float(m[~keep].sum())

        if initial:
            pairs = [(A.number(a), D.number(d), m) for (a, d), m in initial.items()]
            put(np.array([p[0] for p in pairs], dtype=np.int64), np.array([p[1] for p in pairs], dtype=np.int64),
                np.array([p[2] for p in pairs]), 0)  # fmt: skip
        dropped = 0.0
        done = 0.0
        parts = _Parts(A, D)
        for r in range(rounds):
            ii, jj, ms, lost = prune(*cells(0))
            dropped += lost
            if not len(ii):
                break
            # The surprise strikes (A-10.6); a pair nothing can change is a stalemate.
            sa, sd = self._strikes(ii, jj)
            live = np.ones(len(ii), dtype=bool)
            calm = np.flatnonzero(A.stay[sa] * D.stay[sd] >= 1.0)
            if len(calm):
                ca, cd = self._general(ii[calm], jj[calm])
                for k in calm[A.stay[ca] * D.stay[cd] >= 1.0].tolist():
                    tally.record(STALEMATE, A.states[int(ii[k])], D.states[int(jj[k])], float(ms[k]), False)
                    live[k] = False
            done += float(ms[live].sum())
            still = A.still[sa] & D.still[sd]
            direct = live & still
            put(ii[direct], jj[direct], ms[direct], 1)
            moving = np.flatnonzero(live & ~still)
            for b in range(0, len(moving), WALK_PAIRS):  # batches: their entries at once are GBs
                mv = moving[b : b + WALK_PAIRS]
                parts.add(ms[mv], sa[mv], sd[mv])
                dropped += spread(parts)
            # General fire, once per pair the strikes left; by batches of pairs, a side
            # whose distributions are nearly all new dropping each batch's once spread
            # (as the solve does per level: a round's are all at once here).
            ii, jj, mg, lost = prune(*cells(1))
            dropped += lost
            for b in range(0, len(ii), WALK_PAIRS):
                bi, bj, bm = ii[b : b + WALK_PAIRS], jj[b : b + WALK_PAIRS], mg[b : b + WALK_PAIRS]
                for side in (A, D):
                    if side.transient:
                        side.keep_from()
                if SPLIT and self.merge:
                    ca, cd, split, fmeta = self._general_held(bi, bj)
                else:
                    ca, cd = self._general(bi, bj)
                    split = np.zeros(len(bi), dtype=bool)
                a_still = A.still[ca]
                a_lens = A.res_len[ca]
                if split.any():
                    _, a_still[split], a_lens[split] = self._split_facts(bi[split], fmeta[split])
                still = a_still & D.still[cd]
                put(bi[still], bj[still], bm[still], 0)
                moving = np.flatnonzero(~still)
                two = moving[split[moving]]
                last = not (r < rounds - 1 or tally.pairs is not None)  # pairs kept: no shortcut
                if len(two):  # split casualties (_walk_flush)
                    self._charge(int(a_lens[two] @ D.res_len[cd[two]]))
                    held = _Deferred(A, D)
                    dropped += held.add_split(bm[two], bi[two], bj[two], cd[two], fmeta[two])
                    dropped += self._walk_flush(held, grown, last_fire if last else None)
                    moving = moving[~split[moving]]
                parts.add(bm[moving], ca[moving], cd[moving])
                if not last:
                    dropped += spread(parts)
                elif len(moving):
                    dropped += last_fire(parts.flat())
                for side in (A, D):
                    side.release()
                    side.transient = side.lookups > TRANSIENT_AFTER and side.misses > TRANSIENT_SHARE * side.lookups
            # The end-of-round rules where they may act.
            ii, jj, m = cells(0)
            self._round_end(ii, jj, m, r == rounds - 1, put, tally)
        if rounds == 0:  # the pairs as they are
            ii, jj, m = cells(0)
            self._round_end(ii, jj, m, True, put, tally)
        assert tally.rounds is not None
        tally.rounds += done
        tally.dropped += dropped

    @staticmethod
    def _walk_flush(held: _Deferred, table: Callable[[], Arr], last: Spreader | None) -> float:
        """A round walk's split casualties (:meth:`_Deferred.add_split`): this round's,
        all due now, spread (their work counted as the products they stand for, in the
        last round too, whose shortcut spreads fewer: what it reads grows with them).
        In the last round (``last``: its shortcut) the levels' merged entries go to it a
        few levels at once (it has a cost per call: ~75 levels a batch at 100 a side).
        Returns the mass left out."""
        if last is None:
            return held.flush_all(table)
        flats: list[Flat] = []

        def shortcut(flat: Flat | None = None) -> float:
            if flat is not None:
                flats.append(flat)
                if sum(len(f[0]) + len(f[3]) for f in flats) < LAST_AT_ONCE:
                    return 0.0
            if not flats:
                return 0.0
            whole = cast(Flat, tuple(np.concatenate(column) for column in zip(*flats)))
            flats.clear()
            return last(whole)

        return held.flush_all(table, shortcut) + shortcut()

    def _last_fire(
        self, flat: tuple[Arr, Arr, Arr, Arr, Arr, Arr], spread_flat: Callable[..., float], tally: Tally[float]
    ) -> float:
        """General fire of the last round (flat parts, :meth:`_Parts.flat`): where both
        sides' results are left alone by the end-of-round rules (quiet) the battle is
        simply unfinished, so only each side's share is added up, per part (as the
        general engine's ``_last_round``); the other pairs of results go to the table
        for :meth:`_round_end`.  Returns the mass left out."""
        A, D = self.A, self.D
        a_idx, a_val, la, d_idx, d_val, ld = flat
        n = len(la)
        a_part = np.repeat(np.arange(n), la)
        d_part = np.repeat(np.arange(n), ld)
        a_num = A.slot_state[a_idx]  # attacker entries: slots
        d_num = D.slot_state[d_idx // 2]  # defender: 2 x slot
        a_q = A.flags[a_num, 3]
        d_q = D.flags[d_num, 3]
        qa = np.where(a_q, a_val, 0.0)
        qd = np.where(d_q, d_val, 0.0)
        sa = np.bincount(a_part, qa, minlength=n)  # per part: quiet attacker mass
        sd = np.bincount(d_part, qd, minlength=n)  # and quiet defender chance
        tally.outcome[UNFINISHED] += float((sa * sd).sum())
        _add_ends(tally.attacker_end, A.states, a_num, qa * sd[a_part])
        _add_ends(tally.defender_end, D.states, d_num, qd * sa[d_part])

        def part(a_mask: Arr, d_mask: Arr) -> float:
            la_ = np.bincount(a_part[a_mask], minlength=n)
            ld_ = np.bincount(d_part[d_mask], minlength=n)
            both = (la_ > 0) & (ld_ > 0)
            am = a_mask & both[a_part]
            dm = d_mask & both[d_part]
            if not am.any():
                return 0.0
            return spread_flat(a_idx[am], a_val[am], la_[both], d_idx[dm], d_val[dm], ld_[both])

        return part(~a_q, np.ones(len(d_q), dtype=bool)) + part(a_q, ~d_q)

    def _round_end(
        self, ii: Arr, jj: Arr, m: Arr, last: bool, put: Callable[[Arr, Arr, Arr, int], None], tally: Tally[float]
    ) -> None:
        """The end-of-round rules on the pairs (ii, jj) holding ``m``: outcomes
        recorded, submerged submarines and lost transports moved; what fights on goes
        back into the table, or after the ``last`` round is recorded as unfinished (per
        state, not per pair)."""
        A, D = self.A, self.D
        takes = self.setup.takes
        stays = np.ones(len(ii), dtype=bool)
        moved: list[tuple[int, int, float]] = []
        for k in np.flatnonzero(self._loud(ii, jj)).tolist():
            i, j = int(ii[k]), int(jj[k])
            outcome, i3, j3 = self._settle(i, j)
            if outcome is not None:
                a3 = A.states[i3]
                tally.record(outcome, a3, D.states[j3], float(m[k]), takes(a3))
                stays[k] = False
            elif i3 != i or j3 != j:
                moved.append((i3, j3, float(m[k])))
                stays[k] = False
        ii, jj, m = ii[stays], jj[stays], m[stays]
        if moved:
            ii = np.concatenate([ii, np.array([x[0] for x in moved], dtype=np.int64)])
            jj = np.concatenate([jj, np.array([x[1] for x in moved], dtype=np.int64)])
            m = np.concatenate([m, np.array([x[2] for x in moved])])
        if not len(ii):
            return
        if not last:
            put(ii, jj, m, 0)
            return
        tally.outcome[UNFINISHED] += float(m.sum())
        _add_ends(tally.attacker_end, A.states, ii, m)
        _add_ends(tally.defender_end, D.states, jj, m)
        if isinstance(tally.pairs, dict):
            got = tally.pairs
            for i, j, x in zip(ii.tolist(), jj.tolist(), m.tolist()):
                key = (A.states[i], D.states[j])
                got[key] = got.get(key, 0.0) + x

    def _level(self, table: Arr, level: int) -> tuple[Arr, Arr, Arr, Arr] | None:
        """The nodes of ``level`` holding mass: attacker and defender slots, S and G
        masses (taken out of the table).  Every pair of slots whose states' hit points
        add up to ``level`` is looked at (each pair once in the whole solve)."""
        a_ids, a_hp = self.A.by_hp_sorted()
        d_ids, d_hp = self.D.by_hp_sorted()
        lo = np.searchsorted(d_hp, level - a_hp, side="left")
        hi = np.searchsorted(d_hp, level - a_hp, side="right")
        if compiled.numba_loaded():  # the cells read in place by one compiled loop
            from engine.odds.aa_naval_kernel import level_cells

            got = level_cells(table, a_ids, d_ids, lo, hi)
            return got if len(got[0]) else None
        counts = hi - lo
        total = int(counts.sum())
        if not total:
            return None
        ii = np.repeat(a_ids, counts)
        pos = np.arange(total) + np.repeat(lo - (np.cumsum(counts) - counts), counts)
        jj = d_ids[pos]
        flat_table = table.reshape(-1)
        flat = ii * table.shape[1] + 2 * jj
        ms = flat_table[flat]
        mg = flat_table[flat + 1]
        live = np.flatnonzero((ms != 0.0) | (mg != 0.0))
        if not len(live):
            return None
        flat = flat[live]
        flat_table[flat] = 0.0
        flat_table[flat + 1] = 0.0
        return ii[live], jj[live], ms[live], mg[live]


def _add_ends(ends: dict[State, float], states: list[State], nums: Arr, m: Arr) -> None:
    """Add masses ``m`` of states numbered ``nums`` to a tally's final states."""
    sums = np.bincount(nums, m)
    for n in np.flatnonzero(sums).tolist():
        st = states[n]
        ends[st] = ends.get(st, 0.0) + float(sums[n])


def corrected(solver: NavalSolver, final: BattleSetup[float], traced: Tally[float],
              starts: dict[tuple[State, State], float], ii: Arr, jj: Arr, visits: Arr, back: Arr,
              max_states: int | None = None) -> Tally[float] | None:
    """The battle with a retreat by win chance as the traced solve's correction, where
    little of its mass ever comes to a retreat pair (the strike pass's
    :meth:`engine.odds.aa_strike.StrikeSolver._corrected`, for the numpy passes):
    ``solver`` made the traced solve (its tally ``traced``, from ``starts``, round 1's
    pairs) and its chances backward (pairs ``ii``, ``jj``, their ``visits``), and the
    attacker retreats from the pairs ``back`` marks (``final``: the battle's setup with
    them).  By linearity, with m the round starts there after a round (visits less
    round 1's starts): the answer is the traced answer, plus a retreat of m at each such
    pair, less the answer of the battle from m there, each fighting one round first
    and then with the retreats (one solve, :meth:`NavalSolver.solve`'s ``struck``: what
    comes back to a retreat pair retreats).  That solve meets only the pairs the retreat
    pairs' mass reaches.  An ending the subtraction leaves below 0, or a leftover of at
    most RESIDUE of what it was where the subtraction took something, is rounding: 0,
    in the error bound, with what both solves left out.  A retreat pair where the
    traced solve found a stalemate (nothing could change) ends in a retreat instead:
    relabelled.  None (the solve with the retreats is to be made instead) where more
    than CORRECTION_MAX round starts come to retreat pairs."""
    A, D = solver.A, solver.D
    keys = (ii[back] << SHIFT) | jj[back]
    assert solver.trace is not None
    # A retreat pair the traced solve found a stalemate (nothing could change there):
    # what came to it retreats instead (its S mass and its G mass, which comes back),
    # and nothing goes on from it either way.
    # (The retreat pairs' keys sorted once and each level's stale nodes looked up there:
    # ``np.isin`` against them at every such level read them all each time, ~4.5 s of
    # the slowest kind's retreat at 60 a side, 20 s in all, on 2026-12-07's machine.)
    relabel = 0.0
    sorted_keys = np.sort(keys)
    for level in solver.trace:
        kept = level.kept
        if kept is not None and kept.stale.any():
            stale = np.flatnonzero(kept.stale)
            there = stale[_found(sorted_keys, (kept.ii[stale] << SHIFT) | kept.jj[stale])]
            relabel += float(kept.ms[there].sum() + kept.g_total[there].sum())
    # Round 1's starts (few) at retreat pairs: not a round's end, no retreat there.
    m = visits[back].copy()
    at = {key: n for n, key in enumerate(keys.tolist())}
    for (a, d), mass in starts.items():
        n = at.get((A.idx[a] << SHIFT) | D.idx[d]) if a in A.idx and d in D.idx else None
        if n is not None:
            m[n] -= mass
    m = np.maximum(m, 0.0)
    if float(m.sum()) > CORRECTION_MAX:
        return None
    ri, rj = ii[back], jj[back]
    # The battle from m at the retreat pairs: one round each (their strikes spread into
    # G cells at once), then with the retreats.
    other: Tally[float] = Tally.empty(1.0)
    held = m > 0.0
    NavalSolver(final, max_states, sides=solver.sides, work=solver.work).solve({}, other,
                                                                              struck=(ri[held], rj[held], m[held]))
    out: Tally[float] = Tally.empty(1.0)
    below = 0.0

    def take(was: float, took: float, add: float = 0.0) -> float:
        nonlocal below
        got = was - took + add
        if rounding_leftover(got, took, max(was, took)):
            below += abs(got)
            return 0.0
        return got

    back_a: dict[State, float] = {}
    back_d: dict[State, float] = {}
    _add_ends(back_a, A.states, ri, m)
    _add_ends(back_d, D.states, rj, m)
    for outcome, mass in traced.outcome.items():
        lost = other.outcome[outcome] + (relabel if outcome == STALEMATE else 0.0)
        out.outcome[outcome] = take(mass, lost, float(m.sum()) + relabel if outcome == RETREAT else 0.0)
    for ends, was, took, add in ((out.attacker_end, traced.attacker_end, other.attacker_end, back_a),
                                 (out.defender_end, traced.defender_end, other.defender_end, back_d)):  # fmt: skip
        for st in {*was, *took, *add}:
            got = take(was.get(st, 0.0), took.get(st, 0.0), add.get(st, 0.0))
            if got:
                ends[st] = got
    assert traced.takes is not None and other.takes is not None and traced.rounds is not None
    assert other.rounds is not None
    out.takes = take(traced.takes, other.takes)
    out.rounds = max(traced.rounds - other.rounds, 0.0)
    out.dropped = traced.dropped + other.dropped + below
    return out


def _grown(table: Arr, A: _Numbered, D: _Numbered, cap: int | None = None) -> Arr:
    """The mass table (attacker slot x 2 defender slot + phase), grown by half when
    slots were added since (the masses copied over); refused when it would pass ``cap``
    cells (as grown just enough, then, if that fits)."""
    ra, rd = table.shape
    na, nd = len(A.slot_state), 2 * len(D.slot_state)
    if na <= ra and nd <= rd:
        return table
    shape = (max(ra, na + na // 2), max(rd, nd + nd // 2))
    if cap is not None and shape[0] * shape[1] > cap:
        shape = (max(ra, na), max(rd, nd))
        if shape[0] * shape[1] > cap:
            raise too_big_naval_table(shape[0] * shape[1], cap)
    bigger = compiled.sparse_zeros(shape)  # (most of its cells never hold mass)
    bigger[:ra, :rd] = table
    return bigger


class _Kept(NamedTuple):
    """A traced level's nodes kept (:meth:`NavalSolver._nodes`): their pairs, their
    phases' stored results (strikes ``sa``, ``sd``; general fire ``ca``, ``cd``), the
    chances that each phase hits nothing (``g0``, ``p0``), which stay in the level and
    which can change nothing more, their visits (``s_total``, ``g_total``) and the S
    masses that came to them (``ms``)."""

    ii: Arr
    jj: Arr
    sa: Arr
    sd: Arr
    ca: Arr
    cd: Arr
    g0: Arr
    p0: Arr
    stays: Arr
    stale: Arr
    s_total: Arr
    g_total: Arr
    ms: Arr
    # Where the forward held general fire back (_Deferred, numba loaded): which nodes'
    # attacker casualties were split (no stored distribution: ``ca`` -1) and the facts of
    # the defender's fire on the attacker (_Numbered.fire_meta), for _HeldValues.
    split: Arr | None = None
    fmeta: Arr | None = None


class _HeldValues:
    """The chances backward's values of general fire (:meth:`NavalSolver.win_chances`)
    where the forward held it back (:class:`_Deferred`: the attacker's submarines
    struck), as that holds the forward's products back: the nodes with the same
    defender distribution (the same defender state and attacker dice: the attacker's
    states that differ only in submarines) reach the same entries (attacker row,
    defender distribution), and an entry's value (the distribution's chances times the
    cells of that row) is worked out once, kept, and read by every node that reaches
    it; a node's value is its attacker chances times its entries' values.  Where the
    forward split a node's casualties (:meth:`_Deferred.add_split`), the value of each
    state between (its aircraft's hits) is kept too.  An entry is worked out at the
    first level above the one it is due at (the row's hit points and the defender
    state's) that reads it, every cell it reads done by then, and kept; a node's own row
    (its level's cell, summed in closed form) is worked out for it alone.  The forward
    left out a defender entry or an aircraft-hit cell whose product with the merged mass
    was below TINY, and that mass is at most the visits of all the nodes sharing the
    distribution (``most``): only what falls below TINY against those is left out here,
    so the backward counts every product the forward spread (and some it left out: the
    interval only narrows) and its intervals still hold the exact chance.  A node's own
    attacker entries and unrestricted-hit cells count as the forward kept them (their
    mass at least TINY), the others as left out, as :func:`_bilinear` counts them.  The
    loops are compiled (:func:`engine.odds.aa_naval_kernel.held_values`); each kept
    value lives until the last level a node reading its distribution is at."""

    def __init__(self, A: _Numbered, D: _Numbered, solver: NavalSolver) -> None:
        self.A, self.D = A, D
        assert solver.trace is not None
        n = len(D.res_len)
        # The last level each defender distribution is read at by such a node, and the
        # visits of those nodes: the most mass its held entries could merge (the
        # forward left out every product below TINY of that).
        self.last_use = np.full(n, -1, dtype=np.int64)
        self.most = np.zeros(n)
        for level in solver.trace:
            kept = level.kept
            if kept is None or not len(kept.ii):
                continue
            on = solver._held_nodes(kept)
            at = int(A.hp_arr[kept.ii[0]] + D.hp_arr[kept.jj[0]])
            np.maximum.at(self.last_use, kept.cd[on], at)
            np.add.at(self.most, kept.cd[on], kept.g_total[on])
        self.most *= 1.0 + 1e-9  # (a sum's rounding: never below the mass it bounds)

        def memo() -> tuple[Arr, ...]:
            return (np.zeros(1024, dtype=np.int64), np.zeros(1024, dtype=complex), np.zeros(n, dtype=np.int64),
                    np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(1, dtype=np.int64))  # fmt: skip

        self.vmemo, self.umemo = memo(), memo()

    def values(self, ii: Arr, jj: Arr, ca: Arr, cd: Arr, g: Arr, split: Arr, fmeta: Arr | None, both: Arr) -> Arr:
        """Per node (``ii``, ``jj``, one level's) with general fire ``ca`` (-1 where
        ``split``), ``cd``, visits ``g`` and the facts of the defender's fire on the
        attacker ``fmeta``: the value of its general fire (:func:`_bilinear`'s)."""
        from engine.odds.aa_naval_kernel import held_values

        A, D = self.A, self.D
        n = len(ii)
        level = int(A.hp_arr[ii[0]] + D.hp_arr[jj[0]])
        zeros = np.zeros(n, dtype=np.int64)
        a_off, a_len = np.where(split, 0, A.res_off[ca]), np.where(split, 0, A.res_len[ca])
        c_off, c_len, u_off, u_n, air_off, air_n = zeros, zeros, zeros, zeros, zeros, zeros
        if split.any():
            assert fmeta is not None
            c_off, c_len = zeros.copy(), zeros.copy()
            c_off[split], c_len[split] = A.seq_meta(ii[split], False)
            u_off, u_n = np.where(split, fmeta[:, 2], 0), np.where(split, fmeta[:, 5], 0)
            air_off, air_n = np.where(split, fmeta[:, 1], 0), np.where(split, fmeta[:, 4], 0)
            # Every state between the unrestricted hits reach: its chain of aircraft hits known.
            n1 = np.minimum(u_n, c_len)[split]
            pos = np.repeat(c_off[split] - (np.cumsum(n1) - n1), n1) + np.arange(int(n1.sum()))
            A.air_hits_meta(np.unique(A.chains.data[pos]))
        got = held_values(
            both, level, np.ascontiguousarray(split), cd, np.ascontiguousarray(g, dtype=np.float64), D.hp_arr[jj], a_off,
            a_len, A.res_idx.data, A.res_p.data, c_off, c_len, u_off, u_n, air_off, air_n, A.chains.data, A._aseq_meta,
            A.dstore.data, A.dtail.data, A.slot_of, A.hp_arr, A.slot_hp(), D.res_off, D.res_len, D.res_idx.data,
            D.res_p.data, TINY, self.last_use, self.most, self.vmemo, self.umemo,
        )  # fmt: skip
        out, self.vmemo, self.umemo = got
        return np.asarray(out)


class _Level(NamedTuple):
    """A level as :meth:`NavalSolver.solve` met it: the pairs holding mass, and the ones
    kept (:class:`_Kept`)."""

    met: tuple[Arr, Arr]
    kept: _Kept | None


class _Parts:
    """Outer products waiting to be spread: per part a scale and the numbers of the two
    sides' stored results (the attacker's entries are table rows, the defender's
    columns)."""

    def __init__(self, A: _Numbered, D: _Numbered) -> None:
        self.A, self.D = A, D
        self.scale: list[Arr] = []
        self.a_ids: list[Arr] = []
        self.d_ids: list[Arr] = []

    def add(self, scale: Arr, a_ids: Arr, d_ids: Arr) -> None:
        if len(scale):
            self.scale.append(scale)
            self.a_ids.append(a_ids)
            self.d_ids.append(d_ids)

    def __bool__(self) -> bool:
        return bool(self.scale)

    def spread(self, table: Arr, charge: Callable[[int], None]) -> float:
        """Add the parts' outer products to ``table`` (:func:`_spread_flat`), taken out,
        their count charged first; returns the mass left out.  With the compiled loop,
        read where the sides stored them (:func:`engine.odds.aa_naval_kernel.
        spread_stored`: the same numbers, without gathering them)."""
        A, D = self.A, self.D
        a_ids, d_ids = np.concatenate(self.a_ids), np.concatenate(self.d_ids)
        products = int(A.res_len[a_ids] @ D.res_len[d_ids])
        charge(products)
        if not (compiled.numba_loaded() or products >= COMPILED_PRODUCTS):
            return _spread_flat(table, *self.flat())
        from engine.odds.aa_naval_kernel import spread_stored  # numba: compiled on first use

        scale = np.concatenate(self.scale)
        self.scale, self.a_ids, self.d_ids = [], [], []
        return float(spread_stored(table, scale, a_ids, A.res_off, A.res_len, A.res_idx.data, A.res_p.data, d_ids,
                                   D.res_off, D.res_len, D.res_idx.data, D.res_p.data, TINY))  # fmt: skip

    def flat(self) -> tuple[Arr, Arr, Arr, Arr, Arr, Arr]:
        """The parts as flat arrays, taken out: attacker entries and their masses
        (chance times the part's scale), entries per part; defender entries, chances,
        entries per part."""
        scale = np.concatenate(self.scale)
        a_idx, a_p, la = self.A.gather(np.concatenate(self.a_ids))
        d_idx, d_p, ld = self.D.gather(np.concatenate(self.d_ids))
        self.scale, self.a_ids, self.d_ids = [], [], []
        return a_idx, a_p * np.repeat(scale, la), la, d_idx, d_p, ld


def _pruned(
    a_idx: Arr, a_val: Arr, la: Arr, d_idx: Arr, d_val: Arr, ld: Arr
) -> tuple[Arr, Arr, Arr, Arr, Arr, Arr, Arr, float]:
    """Flat parts (:meth:`_Parts.flat`) without what is not spread: an attacker entry
    whose every product is below ``TINY`` (its mass, its part's scale times its chance,
    is), then a defender entry whose every product with the attacker entries left is
    below it.  Returns the parts left (attacker entries with their chances ``a_val``
    were masses of: the kept ones' positions in the input too) and the mass left out."""
    dropped = 0.0
    n_parts = len(la)
    a_keep = a_val >= TINY
    a_all = bool(a_keep.all())
    if not a_all:
        dropped += float(a_val[~a_keep].sum())
        a_val = np.where(a_keep, a_val, 0.0)
    a_start = np.cumsum(la) - la
    a_max = np.maximum.reduceat(a_val, a_start) if len(a_val) else np.zeros(n_parts)
    d_part = np.repeat(np.arange(n_parts), ld)
    d_keep = d_val * a_max[d_part] >= TINY
    if not d_keep.all():
        a_sum = np.add.reduceat(a_val, a_start)
        dropped += float((d_val[~d_keep] * a_sum[d_part[~d_keep]]).sum())
        d_idx, d_val = d_idx[d_keep], d_val[d_keep]
        ld = np.bincount(d_part[d_keep], minlength=n_parts)
    kept = np.flatnonzero(a_keep)
    if not a_all:
        a_idx, a_val = a_idx[a_keep], a_val[a_keep]
        la = np.bincount(np.repeat(np.arange(n_parts), la)[a_keep], minlength=n_parts)
    return a_idx, a_val, la, d_idx, d_val, ld, kept, dropped


def _spread_flat(table: Arr, a_idx: Arr, a_val: Arr, la: Arr, d_idx: Arr, d_val: Arr, ld: Arr) -> float:
    """Add the outer products of flat parts (:meth:`_Parts.flat`; every part has an
    entry on both sides) to ``table``; returns the mass left out (:func:`_pruned`: as
    the general engine's dict solve, products below ``TINY`` are not spread)."""
    if compiled.numba_loaded() or int(la @ ld) >= COMPILED_PRODUCTS:
        from engine.odds.aa_naval_kernel import spread  # numba: compiled on first use

        return float(spread(table, a_idx, a_val, la, d_idx, d_val, ld, TINY))
    a_idx, a_val, la, d_idx, d_val, ld, _, dropped = _pruned(a_idx, a_val, la, d_idx, d_val, ld)
    for parts, a, d in _chunks(la, ld):
        _spread(table, a_idx[a], a_val[a], la[parts], d_idx[d], d_val[d], ld[parts])
    return dropped


def _chunks(la: Arr, ld: Arr) -> Iterator[tuple[slice, slice, slice]]:
    """Runs of whole parts (``la[k]`` attacker and ``ld[k]`` defender entries each) of
    at most CHUNK products (at least one part): slices of the parts, of their attacker
    entries and of their defender entries (memory stays bounded)."""
    ends = np.cumsum(la * ld)
    a_ends = np.cumsum(la)
    d_ends = np.cumsum(ld)
    first = 0
    while first < len(la):
        base = int(ends[first - 1]) if first else 0
        last = max(first + 1, int(np.searchsorted(ends, base + CHUNK, side="right")))
        a0 = int(a_ends[first - 1]) if first else 0
        d0 = int(d_ends[first - 1]) if first else 0
        yield slice(first, last), slice(a0, int(a_ends[last - 1])), slice(d0, int(d_ends[last - 1]))
        first = last


def _bilinear(A: _Numbered, D: _Numbered, a_ids: Arr, d_ids: Arr, scale: Arr, both: Arr) -> Arr:
    """Per pair of stored results (``a_ids[k]``, ``d_ids[k]``) spread with mass
    ``scale[k]``: the sum over their entries of both chances times ``both`` at that
    cell (a complex table shaped as the mass table), over the products the spreading
    keeps (:func:`_pruned`): what the outer product would spread, weighted by the cells.
    The imaginary part also gets the chance of the products not kept (with ``both``'s
    imaginary part the chance of a step left out from a cell on, that from the pair).
    With numba loaded, one compiled loop reads the results where they are stored
    (:func:`engine.odds.aa_naval_kernel.bilinear_stored`: the same sums, to rounding)."""
    if compiled.numba_loaded() or int(A.res_len[a_ids] @ D.res_len[d_ids]) >= COMPILED_PRODUCTS:
        from engine.odds.aa_naval_kernel import bilinear_stored  # numba: compiled on first use

        return np.asarray(bilinear_stored(both, np.ascontiguousarray(scale, dtype=np.float64), a_ids, A.res_off,
                                          A.res_len, A.res_idx.data, A.res_p.data, d_ids, D.res_off, D.res_len,
                                          D.res_idx.data, D.res_p.data, TINY))  # fmt: skip
    a_idx, a_p, la = A.gather(a_ids)
    d_idx, d_p, ld = D.gather(d_ids)
    a_idx, _, la, d_idx, d_p, ld, kept, _ = _pruned(a_idx, a_p * np.repeat(scale, la), la, d_idx, d_p, ld)
    a_p = a_p[kept]
    # A part whose entries on one side were all left out has nothing left.
    empty = ld == 0
    if empty.any():
        has = ~np.repeat(empty, la)
        a_idx, a_p = a_idx[has], a_p[has]
        la = np.where(empty, 0, la)
    n = len(la)
    # The kept products of a part are every kept attacker entry with every kept defender one.
    a_sum = np.bincount(np.repeat(np.arange(n), la), a_p, minlength=n)
    d_sum = np.bincount(np.repeat(np.arange(n), ld), d_p, minlength=n)
    flat = both.reshape(-1)
    C = both.shape[1]
    out = np.zeros(n, dtype=both.dtype)
    out.imag = np.maximum(1.0 - a_sum * d_sum, 0.0)
    for parts, a, d in _chunks(la, ld):
        la_ = la[parts]
        full = la_ > 0
        if not full.any():
            continue
        reps, out_start, gd = _expand(la_, ld[parts])
        cell = np.repeat(a_idx[a] * C, reps) + d_idx[d][gd]
        per_entry = np.add.reduceat(flat[cell] * d_p[d][gd], out_start) * a_p[a]
        got = out[parts]
        got[full] += np.add.reduceat(per_entry, (np.cumsum(la_) - la_)[full])
        out[parts] = got
    return out


def _expand(la: Arr, ld: Arr) -> tuple[Arr, Arr, Arr]:
    """The products of mixture parts (``la[k]`` attacker and ``ld[k]`` defender entries
    each), attacker-major: per attacker entry its number of products (its part's
    defender entries) and where its run starts; per product its defender entry."""
    reps = np.repeat(ld, la)
    out_start = np.cumsum(reps) - reps
    gd = np.arange(int(reps.sum())) + np.repeat(np.repeat(np.cumsum(ld) - ld, la) - out_start, reps)
    return reps, out_start, gd


def _spread(table: Arr, a_idx: Arr, a_val: Arr, la: Arr, d_idx: Arr, d_val: Arr, ld: Arr) -> None:
    """Add the outer products of mixture parts to ``table``: attacker-major, each
    attacker entry (its chance times its part's scale) repeated once per defender entry
    of its part, whose entries follow it as a range."""
    reps, _, gd = _expand(la, ld)
    if not len(gd):
        return
    C = table.shape[1]
    flat = np.repeat(a_idx * C, reps) + d_idx[gd]
    vals = np.repeat(a_val, reps) * d_val[gd]
    np.add.at(table.reshape(-1), flat, vals)
