"""The fast exact engine: battles where any hit may land on any unit (every land and
amphibious battle, and sea battles without submarines).

Then each side's casualties follow one fixed sequence (its loss order), so a side's
state is just *how many casualty steps it has taken*: an index into that sequence.  The
attacker may have several sequences ("blocks"): one per number of fighters and bombers
shot down by the AA gun before round 1.  The battle state is a pair (i, j) and the
masses live in a 2-D table, one row per attacker index.

One round from (i, j): the defender's hits ``hd`` (distribution of the defender's dice
at j) move the row to ``i + hd``; the attacker's hits ``ha`` (dice at i) move the column
to ``j + ha``.  The two are independent, so the round spreads the mass as an outer
product.  With no round limit the table is walked once in row-major order, which is a
topological order of the chain (hits only move right or down); the "nobody is hit"
loop of a state is summed in closed form by dividing its mass by ``1 - p(0 hits, 0
hits)``.

Exact (Fraction) mode spreads state by state, one slice update per defender score.
Float mode does round 1 state by state too (products below ``eps``, 1e-18, are not
spread), then hands the table to the packed solver at the end of this module, which
spreads whole rows with big-integer multiplications.  Everything float mode leaves out
or rounds away is added up in ``dropped``: a bound on the absolute error of every
reported number.
"""

from __future__ import annotations

import math
import struct
from operator import itemgetter, mul
from typing import Any, Callable, Generic, Sequence, cast

from engine.odds.aa_battle import (
    ATTACKER, DEFENDER, DRAW, OUTCOMES, RETREAT, STALEMATE, UNFINISHED, BattleSetup, Tally, chance, too_many_cells,
)  # fmt: skip
from engine.odds.aa_battle import CUT as _CUT
from engine.odds.aa_battle import TINY as _TINY
from engine.odds.aa_side import Side, State
from engine.odds.dist import N, fire_distribution

_MAXK = 40  # cut thresholds 1, 1e-1, ... 1e-40


class _Cuts(Generic[N]):
    """A hit distribution cut to the values at or above the thresholds ``10**-k``:
    ``get(k)`` is ``(first value kept, kept probabilities, probability left out)``."""

    __slots__ = ("dist", "cache", "logs")

    def __init__(self, dist: list[N]) -> None:
        self.dist: list[N] = dist
        self.cache: list[tuple[int, list[N], float] | None] = [None] * (_MAXK + 1)
        self.logs = [math.log10(x) if x > 0 else -math.inf for x in dist]

    def get(self, k: int) -> tuple[int, list[N], float]:
        got = self.cache[k]
        if got is None:
            t = 10.0 ** (-k)
            d = self.dist
            idx = [h for h, x in enumerate(d) if x >= t]
            if not idx:
                got = (0, [], math.fsum(float(x) for x in d))
            else:
                lo, hi = idx[0], idx[-1] + 1
                outside = math.fsum(float(x) for x in d[:lo]) + math.fsum(float(x) for x in d[hi:])
                got = (lo, d[lo:hi], outside)
            self.cache[k] = got
        return got


class _Report:
    """What the report needs of every state on a line (see :meth:`_Line.report`).  A
    plain class: a dataclass would cost the start-up of every ``warroom odds``."""

    __slots__ = ("cols", "costs", "keys", "ks", "by_key", "by_k", "armies", "unique")

    def __init__(
        self,
        cols: list[list[int]],  # units left, one list per unit type asked for
        costs: list[int],  # cost left
        keys: list[tuple[tuple[str, int], ...]],  # survivors (types present, in slot order)
        ks: list[int],  # units left, AA guns not counted
        by_key: list[int],  # positions sorted by survivors' key
        by_k: list[int],  # positions sorted by units left
        armies: list[dict[str, int]],  # survivors as a dict (copied for each report)
        unique: bool,  # keys and unit counts all different
    ) -> None:
        self.cols, self.costs, self.keys, self.ks = cols, costs, keys, ks
        self.by_key, self.by_k, self.armies, self.unique = by_key, by_k, armies, unique


class LineTally(Tally[N]):
    """The fast engine's tally: also the final masses by position on the two loss
    sequences (one attacker block only), which the report sums with per-line tables
    instead of state by state.  ``lines`` is ``None`` when there are several attacker
    blocks; ``a_mass`` and ``d_mass`` are set with it."""

    lines: tuple[_Line[N], _Line[N]] | None = None
    a_mass: list[N]
    d_mass: list[N]

    def side_report(
        self, who: str, names: tuple[str, ...]
    ) -> tuple[dict[str, float], N, N, tuple[tuple[dict[str, int], float], ...], dict[int, float]] | None:
        """For the side ``who``: expected units by type (``names``), expected cost left
        (in the engine's number type), total mass, the survivors most likely first (ties
        by key) and the mass by number of units left, as :func:`engine.odds.aa._result`
        reports them; ``None`` when the tally has no line (several attacker blocks),
        a final state holds a unit type outside ``names``, two states on the line share
        survivors or unit counts, or under half the states on the line end the battle
        (low luck: quicker state by state).  Sums run in the order of the states on
        the line, as the state-by-state sums do (zero masses add nothing)."""
        if self.lines is None:
            return None
        attacker = who == "attacker"
        masses = self.a_mass if attacker else self.d_mass
        if 2 * len(self.attacker_end if attacker else self.defender_end) < len(masses):
            return None
        rep = self.lines[0 if attacker else 1].report(names)
        if rep is None or not rep.unique:
            return None
        zero = self.outcome[ATTACKER] - self.outcome[ATTACKER]
        total = sum(masses, zero)
        cost = sum(map(mul, masses, rep.costs), zero)
        exp = {n: float(sum(map(mul, masses, col), zero)) for n, col in zip(names, rep.cols)}
        ranked = [t for t in rep.by_key if masses[t]]
        ranked.sort(key=masses.__getitem__, reverse=True)  # stable: ties stay in key order
        armies = rep.armies
        survivors = tuple((armies[t].copy(), float(masses[t])) for t in ranked)
        ks = rep.ks
        by_count = {ks[t]: float(masses[t]) for t in rep.by_k if masses[t]}
        if survivors and survivors[0][1] > 1.0:  # all the mass, drifted past 1 (aa_battle.chance)
            survivors = tuple((a, chance(p)) for a, p in survivors)
            by_count = {k: chance(p) for k, p in by_count.items()}
        return exp, cost, total, survivors, by_count


class FastEngine(Generic[N]):
    def __init__(
        self,
        setup: BattleSetup[N],
        *,
        eps: float = 1e-18,
        max_cells: int | None = None,
    ) -> None:
        self.setup: BattleSetup[N] = setup
        self.unit: N = setup.unit
        self.zero: N = setup.unit - setup.unit
        self.exact: bool = not isinstance(self.unit, float)
        self.eps: float = 0.0 if self.exact else eps
        self.log_eps: float = math.log10(eps) if self.eps else 0.0
        att, dfn = setup.attacker, setup.defender
        # Attacker blocks, one per distinct starting state.
        self.a_states: list[State] = []
        self.a_end: list[int] = []
        self.a_block: dict[State, int] = {}
        a_lines: list[_Line[N]] = []
        self._a_lines: list[tuple[_Line[N], int]] = []  # each block's line and first row
        for start in setup.starts:
            if start.attacker not in self.a_block:
                self.a_block[start.attacker] = len(self.a_states)
                line = side_line(att, start.attacker, self.unit, setup.low_luck)
                self._a_lines.append((line, len(self.a_states)))
                a_lines.append(line)
                end = len(self.a_states) + len(line.states) - 1
                self.a_states += line.states
                self.a_end += [end] * len(line.states)
        d_line = side_line(dfn, dfn.start, self.unit, setup.low_luck)
        self.d_line: _Line[N] = d_line
        self.d_states = d_line.states
        self.d_index = d_line.index
        for start in setup.starts:
            if start.defender not in self.d_index or start.defender_fires_as not in self.d_index:
                raise ValueError("fast engine: defender start is off its loss sequence")
        self.nD = len(self.d_states) - 1
        cells = len(self.a_states) * (self.nD + 1)
        if max_cells is not None and cells > max_cells:
            raise too_many_cells(cells, max_cells, " (AA fire multiplies the states by the number of ways it can hit)")
        self.a_line: _Line[N] | None = None
        if len(a_lines) == 1:
            a = self.a_line = a_lines[0]
            self.a_fire: list[list[N]] = a.fire
            self.a_alive = a.alive
            self.a_cuts: list[_Cuts[N]] = a.cuts
            a_count = a.count
            a_land = a.land
            self._packed: dict[int, tuple[int, int, int, float]] = a.packed
            self._pulls: dict[int, tuple[float, list[float], list[float]]] = a.pulls
        else:
            self.a_fire = [x for a in a_lines for x in a.fire]
            self.a_alive = [x for a in a_lines for x in a.alive]
            self.a_cuts = [x for a in a_lines for x in a.cuts]
            a_count = [x for a in a_lines for x in a.count]
            a_land = [x for a in a_lines for x in a.land]
            self._packed = {}
            self._pulls = {}
        self.d_fire: list[list[N]] = d_line.fire
        self.d_alive = d_line.alive
        self.a_takes = a_land if setup.land else [True] * len(a_land)
        below = setup.retreat_below
        self.a_retreat = [n < below for n in a_count] if below > 0 else [False] * len(a_count)
        self.d_defenceless = d_line.transports_only if setup.sea else [False] * len(self.d_states)
        self.d_cuts: list[_Cuts[N]] = d_line.cuts

    def packed_fire(self, i: int) -> tuple[int, int, int, float]:
        """The attacker's hit distribution at ``i`` packed for :func:`_solve_packed`:
        ``(first hit count kept, packed integer, number of slots, probability left
        out)``; values below ``_TINY`` at either end are left out (that share goes into
        the error bound)."""
        got = self._packed.get(i)
        if got is None:
            line, k = self._line_at(i)
            got = line.packed.get(k)  # memoised with the line (several blocks: each its own)
            if got is None:
                d = [float(x) for x in self.a_fire[i]]
                lo, hi = 0, len(d)
                while lo < hi and d[lo] < _TINY:
                    lo += 1
                while hi > lo and d[hi - 1] < _TINY:
                    hi -= 1
                cut = math.fsum(d[:lo]) + math.fsum(d[hi:])
                got = line.packed[k] = (lo, _pack(d[lo:hi], _A_SCALE) if hi > lo else 0, hi - lo, cut)
            self._packed[i] = got
        return got

    def _line_at(self, i: int) -> tuple[_Line[N], int]:
        """The attacker's line holding row ``i``, and the row's place on it."""
        if self.a_line is not None:
            return self.a_line, i
        for line, first in self._a_lines:
            if i < first + len(line.states):
                return line, i - first
        raise IndexError(i)

    def pull_fire(self, i: int) -> tuple[float, list[float], list[float]]:
        """The attacker's hit distribution at ``i`` for the packed solver's row chain:
        ``(p(0 hits), [p(1 hit), p(2 hits), ...], [p(1 or more), p(2 or more), ...])``."""
        got = self._pulls.get(i)
        if got is None:
            line, k = self._line_at(i)
            got = line.pulls.get(k)
            if got is None:
                d = [float(x) for x in self.a_fire[i]]
                suf = [math.fsum(d[h:]) for h in range(1, len(d))]
                got = line.pulls[k] = (d[0], d[1:], suf)
            self._pulls[i] = got
        return got

    # -- classification ------------------------------------------------------------------

    def _ended(self, i: int, j: int) -> str | None:
        a, d = self.a_alive[i], self.d_alive[j]
        if a and d:
            return None
        if a:
            return ATTACKER
        if d or not self.setup.defender_fought:
            return DEFENDER
        return DRAW

    def _settle(self, i: int, j: int, after_round: bool) -> tuple[str | None, int]:
        """Mirror of :meth:`BattleSetup.settle` for sequence states (no submarines)."""
        outcome = self._ended(i, j)
        if outcome is not None:
            return outcome, j
        if self.d_defenceless[j] and len(self.a_fire[i]) > 1:
            return ATTACKER, self.nD
        if after_round and self.a_retreat[i]:
            return RETREAT, j
        return None, j

    # -- spreading one state's mass over one round ----------------------------------------

    def _spread(
        self, rows: list[list[N] | None], x: N, i: int, j: int, fj: int, skip_self: bool
    ) -> float:
        """Add ``x`` times the round's transition from (i, j) into ``rows``, the defender
        rolling the dice of its state ``fj`` (``j`` but in round 1 after bombardment);
        returns the mass left out (always 0 in exact mode)."""
        if self.eps:
            return self._spread_pruned(rows, x, i, j, fj, skip_self)
        dfire_j = self.d_fire[fj]
        nD = self.nD
        end_i = self.a_end[i]
        afull = self.a_fire[i]
        zero = self.zero
        for hd, q in enumerate(dfire_j):
            if not q:
                continue
            s = x * q
            i2 = i + hd if i + hd < end_i else end_i
            row = rows[i2]
            if row is None:
                row = rows[i2] = [zero] * (nD + 1)
            if skip_self and hd == 0:
                _add(row, j + 1, afull[1:], s, nD, zero)
            else:
                _add(row, j, afull, s, nD, zero)
        return 0.0

    def _spread_pruned(
        self, rows: list[list[N] | None], x: N, i: int, j: int, fj: int, skip_self: bool
    ) -> float:
        """Float mode: spread only products of at least ``eps``.  The defender's hits
        are cut to those with ``x * p(hd) >= eps``; for each, the attacker's hits to
        those with ``x * p(hd) * p(ha) >= eps`` (cut levels are powers of ten, so a
        little more is kept than needed).  Returns the mass left out."""
        lx = math.log10(x) - self.log_eps  # log10(x / eps)
        if lx < 0:
            return float(x)
        k = int(lx) + 1
        d_cut = self.d_cuts[fj]
        d_lo, d_seg, d_out = d_cut.cache[k if k <= _MAXK else _MAXK] or d_cut.get(min(k, _MAXK))
        dropped = float(x) * d_out
        d_logs = d_cut.logs
        a_cut = self.a_cuts[i]
        a_cache = a_cut.cache
        nD = self.nD
        end_i = self.a_end[i]
        zero = self.zero
        for off, q in enumerate(d_seg):
            hd = d_lo + off
            s = x * q
            ls = lx + d_logs[hd]
            if ls < 0:
                dropped += float(s)
                continue
            k = int(ls) + 1
            if k > _MAXK:
                k = _MAXK
            a_lo, seg, a_out = a_cache[k] or a_cut.get(k)
            dropped += float(s) * a_out
            if not seg:
                continue
            i2 = i + hd if i + hd < end_i else end_i
            row = rows[i2]
            if row is None:
                row = rows[i2] = [zero] * (nD + 1)
            start = j + a_lo
            if skip_self and hd == 0 and a_lo == 0:
                seg = seg[1:]
                start += 1
            # _add, inlined (this loop is the engine's hot spot)
            stop = start + len(seg)
            if stop <= nD + 1:
                row[start:stop] = [r + s * p for r, p in zip(row[start:stop], seg)]
            else:
                _add(row, start, seg, s, nD, zero)
        return dropped

    # -- the whole battle -----------------------------------------------------------------------

    def run(self, rounds: int | None = None) -> Tally[N]:
        setup = self.setup
        zero = self.zero
        tally: LineTally[N] = LineTally({o: zero for o in OUTCOMES}, takes=zero, rounds=zero)
        a_end_mass: list[N] = [self.zero] * len(self.a_states)
        d_end_mass: list[N] = [self.zero] * (self.nD + 1)
        counts = {o: self.zero for o in tally.outcome}
        takes_box = [self.zero]
        rounds_sum = self.zero
        dropped = 0.0

        def record(outcome: str, i: int, j: int, x: N) -> None:
            counts[outcome] += x
            a_end_mass[i] += x
            d_end_mass[j] += x
            if outcome == ATTACKER and self.a_takes[i]:
                takes_box[0] += x

        rows: list[list[N] | None] = [None] * len(self.a_states)
        # Round 1 from every start (AA fire and bombardment already applied).
        for start in setup.starts:
            i = self.a_block[start.attacker]
            j = self.d_index[start.defender]
            # Bombarded defenders still fire in round 1: no early end then.
            if start.defender_fires_as == start.defender:
                outcome, j = self._settle(i, j, after_round=False)
            else:
                outcome = None if self.a_alive[i] else DEFENDER
            if outcome is not None:
                record(outcome, i, j, start.weight)
                continue
            if (
                rounds is None and self.eps and start.defender_fires_as == start.defender
                and not self.a_retreat[i] and (len(self.a_fire[i]) > 1 or len(self.d_fire[j]) > 1)
            ):  # fmt: skip
                # Float mode, no round limit, nothing special about round 1: the start
                # is just the packed solver's first cell (its "nobody is hit" loop and
                # round count included), no separate spread.
                row = rows[i]
                if row is None:
                    row = rows[i] = [self.zero] * (self.nD + 1)
                row[j] += start.weight
                continue
            rounds_sum += start.weight
            fj = self.d_index[start.defender_fires_as]
            dropped += self._spread(rows, start.weight, i, j, fj, skip_self=False)
        if rounds is None:
            acc = [rounds_sum]
            if self.eps:  # float mode: the packed solver (same chain, far faster)
                dropped += _solve_packed(self, rows, (counts, a_end_mass, d_end_mass, takes_box), acc)
            else:
                dropped += self._solve(rows, record, acc)
            rounds_sum = acc[0]
        elif self.eps:  # float mode: packed rounds
            acc = [rounds_sum]
            dropped += _rounds_packed(self, rows, record, acc, rounds)
            rounds_sum = acc[0]
        else:
            for _ in range(rounds - 1):
                nxt: list[list[N] | None] = [None] * len(self.a_states)
                for i, row in enumerate(rows):
                    if row is None:
                        continue
                    for j, x in enumerate(row):
                        if not x:
                            continue
                        outcome, j2 = self._settle(i, j, after_round=True)
                        if outcome is not None:
                            record(outcome, i, j2, x)
                            continue
                        if len(self.a_fire[i]) == 1 and len(self.d_fire[j]) == 1:
                            record(STALEMATE, i, j, x)
                            continue
                        rounds_sum += x
                        dropped += self._spread(nxt, x, i, j, j, skip_self=False)
                rows = nxt
            for i, row in enumerate(rows):
                if row is None:
                    continue
                for j, x in enumerate(row):
                    if x:
                        outcome, j2 = self._settle(i, j, after_round=True)
                        record(outcome or UNFINISHED, i, j2, x)
        tally.outcome = counts
        tally.takes = takes_box[0]
        tally.rounds = rounds_sum
        tally.dropped = dropped
        if self.a_line is not None:  # one block: every state once
            tally.attacker_end = {st: x for st, x in zip(self.a_states, a_end_mass) if x}
        else:
            for i, x in enumerate(a_end_mass):
                if x:
                    st = self.a_states[i]
                    tally.attacker_end[st] = tally.attacker_end.get(st, self.zero) + x
        tally.defender_end = {st: x for st, x in zip(self.d_states, d_end_mass) if x}
        if self.a_line is not None:
            tally.lines = (self.a_line, self.d_line)
            tally.a_mass = a_end_mass
            tally.d_mass = d_end_mass
        return tally

    def _solve(
        self,
        rows: list[list[N] | None],
        record: Callable[[str, int, int, N], None],
        rounds_acc: list[N],
    ) -> float:
        dropped = 0.0
        for i in range(len(rows)):
            row = rows[i]
            if row is None:
                continue
            afire_i = self.a_fire[i]
            a_quiet = len(afire_i) == 1
            a0 = afire_i[0]
            for j in range(self.nD + 1):
                x = row[j]
                if not x:
                    continue
                outcome, j2 = self._settle(i, j, after_round=True)
                if outcome is not None:
                    record(outcome, i, j2, x)
                    continue
                dfire_j = self.d_fire[j]
                if a_quiet and len(dfire_j) == 1:
                    record(STALEMATE, i, j, x)
                    continue
                x_eff = x / (1 - a0 * dfire_j[0])
                rounds_acc[0] += x_eff
                dropped += self._spread(rows, x_eff, i, j, j, skip_self=True)
            rows[i] = None  # done: free the row
        return dropped


class _Line(Generic[N]):
    """A side's loss sequence from one start and what the engine asks about each state
    on it (memoised with the side, per start, dice rule and number type)."""

    def __init__(self, side: Side, start: State, unit: N, low_luck: bool) -> None:
        self.side = side
        self.states = list(side.sequence(start))
        self.index = {st: j for j, st in enumerate(self.states)}
        self.fire: list[list[N]] = [
            fire_distribution([g for groups in side.dice(st) for g in groups], unit, low_luck)
            for st in self.states
        ]
        self.count = [side.alive(st) for st in self.states]
        self.alive = [n > 0 for n in self.count]
        self.land = [side.has_land(st) for st in self.states]
        self.transports_only = [
            alive and side.only(st, ("transport",)) for st, alive in zip(self.states, self.alive)
        ]
        self.cuts: list[_Cuts[N]] = [_Cuts(d) for d in self.fire]
        self.packed: dict[int, tuple[int, int, int, float]] = {}
        self.pulls: dict[int, tuple[float, list[float], list[float]]] = {}
        self.blocks: dict[tuple[int, int, int, bool], _Block] = {}
        self._zero_len: tuple[list[float], list[int]] | None = None
        self._reports: dict[tuple[str, ...], _Report | None] = {}
        self._columns: tuple[list[list[float]], list[list[float]]] | None = None

    def columns(self) -> tuple[list[list[float]], list[list[float]]]:
        """Float mode, as the defender's line: ``(p, tail)`` with ``p[h][j]`` the chance
        of exactly ``h`` hits at state ``j`` and ``tail[h][j]`` of ``h`` or more, both
        scaled to the packed solver's fixed point (memoised)."""
        if self._columns is None:
            fire = [[float(x) for x in d] for d in self.fire]
            top = max(len(d) for d in fire)
            p = [[d[h] * _W_SCALE if h < len(d) else 0.0 for d in fire] for h in range(top)]
            tails = []
            for d in fire:
                acc, out = 0.0, [0.0] * top
                for h in range(len(d) - 1, -1, -1):
                    acc += d[h]
                    out[h] = acc * _W_SCALE
                tails.append(out)
            tail = [[t[h] for t in tails] for h in range(top)]
            self._columns = (p, tail)
        return self._columns


    def report(self, names: tuple[str, ...]) -> _Report | None:
        """What the report needs of every state on the line (memoised): units left by
        type (one list per name), cost left, the survivors' key, units left (AA guns
        not counted), the positions in key order and in unit-count order, the
        survivors as dicts, and whether keys and unit counts are all different;
        ``None`` if a state holds a type not in ``names``."""
        if names not in self._reports:
            finals = [self.side.final(st) for st in self.states]
            got: _Report | None = None
            if all(n in names for _, _, key, _ in finals for n, _ in key):
                keys = [f[2] for f in finals]
                ks = [f[3] for f in finals]
                got = _Report(
                    cols=[[f[0].get(n, 0) for f in finals] for n in names],
                    costs=[f[1] for f in finals],
                    keys=keys,
                    ks=ks,
                    by_key=sorted(range(len(keys)), key=keys.__getitem__),
                    by_k=sorted(range(len(ks)), key=ks.__getitem__),
                    armies=[dict(k) for k in keys],
                    unique=len(set(keys)) == len(keys) and len(set(ks)) == len(ks),
                )
            self._reports[names] = got
        return self._reports[names]

    def zero_and_len(self) -> tuple[list[float], list[int]]:
        """Float mode, as the defender's line: p(no hit) and the number of hit counts
        at every state (memoised)."""
        if self._zero_len is None:
            self._zero_len = ([float(d[0]) for d in self.fire], [len(d) for d in self.fire])
        return self._zero_len

    def block(self, lo: int, hi: int, n_hd: int, tail: bool) -> _Block:
        """Float mode, as the defender's line: how the packed solver's pass 2 packs a
        row's masses at states ``lo..hi`` times the chances of 1, 2, ... ``n_hd`` hits
        (with ``tail`` the last is "``n_hd`` or more"), memoised.  For each score the
        states are cut after the last one where that score is possible (fewer dice
        there: the rest are zeros, neither packed nor multiplied).  Returns the struct
        packing every score's slots one after the other, which masses go into them
        (an ``itemgetter`` over the row's masses from ``lo``), the chances scaled so
        that a mass in units of ``_HIGH_SCALE`` times one is a ``_W_BITS`` fixed-point
        value, and per score ``(hd, first byte, end byte)``."""
        p, tails = self.columns()
        idx: list[int] = []
        flat: list[float] = []
        parts: list[tuple[int, int, int]] = []
        for hd in range(1, n_hd + 1):
            col = (tails if tail and hd == n_hd else p)[hd][lo : hi + 1]
            width = len(col)
            while width and not col[width - 1]:
                width -= 1
            if not width:
                continue
            start = len(idx) * _SLOT_BYTES
            idx += range(width)
            flat += [x * _HIGH_SCALE for x in col[:width]]
            parts.append((hd, start, start + width * _SLOT_BYTES))
        pick: Callable[[list[float]], Any] = (
            itemgetter(*idx) if len(idx) != 1 else (lambda e: (e[0],))
        )
        got = (struct.Struct("<" + "Q8x" * len(idx)), pick, flat, parts)
        self.blocks[(lo, hi, n_hd, tail)] = got
        return got


_Block = tuple[struct.Struct, Callable[[list[float]], Any], list[float], list[tuple[int, int, int]]]


def side_line(side: Side, start: State, unit: N, low_luck: bool) -> _Line[N]:
    """``side``'s loss sequence from ``start`` with what the engines ask of each state on
    it (memoised with the side): the fast engine's rows and columns, and the report's
    per-line tables (also :meth:`engine.odds.aa_table.TableEngine._line_ends`)."""
    key = ("fast-line", start, type(unit).__name__, low_luck)
    got = side.engine_memo.get(key)
    if got is None:
        got = side.engine_memo[key] = _Line(side, start, unit, low_luck)
    return cast(_Line[N], got)


def _add(row: list[N], start: int, seg: list[N], s: N, nD: int, zero: N) -> None:
    """``row[start + h] += s * seg[h]``, everything past column ``nD`` (the defender
    destroyed) gathered into column ``nD``."""
    if not seg:
        return
    stop = start + len(seg)
    if start >= nD:
        row[nD] += s * sum(seg, zero)
    elif stop <= nD + 1:
        row[start:stop] = [r + s * p for r, p in zip(row[start:stop], seg)]
    else:
        cut = nD + 1 - start
        row[start : nD + 1] = [r + s * p for r, p in zip(row[start : nD + 1], seg)]
        row[nD] += s * sum(seg[cut:], zero)


# -- the packed solver (float mode, no round limit) ----------------------------------------
#
# Rows of the mass table are kept as big integers: column j is a 128-bit fixed-point slot
# (124 fractional bits, of which the high 64-bit word is read back).  Processing a row
# has two passes.  Pass 1 walks the row in column order in floats: it ends terminal
# states, divides each live state's mass by 1 - p(no hit either side), and pulls the
# "defender scores 0" share of the earlier columns (the only transitions that stay in
# the row): one dot product of their shares with the attacker's hits per column.  Pass 2
# handles every defender score hd >= 1 at once for the whole row: the row's masses times
# p(hd | j) form a vector w (cut after the last state where hd hits are possible: the
# defender has fewer dice further along its loss order), and the attacker's hits spread
# w along the columns, which is the convolution of w with the attacker's hit
# distribution: one big-integer multiplication of the two packed vectors (Kronecker
# substitution), added into row i + hd.  So the Python-level work per row is about its
# length times the defender's scores, and the rest runs inside the integer
# multiplications.

_SLOT_BYTES = 16  # two 64-bit words: a factor uses the lowest, a product up to 127 bits
_SLOT_BITS = 8 * _SLOT_BYTES
_W_BITS = 61  # the row-side factor (a mass, at most 6) has 61 fractional bits
_A_BITS = 63  # the hit-probability factor (at most 1) has 63
_W_SCALE = float(2**_W_BITS)
_A_SCALE = float(2**_A_BITS)
_OUT_SCALE = float(2 ** (_W_BITS + _A_BITS))
_STRUCTS: dict[int, struct.Struct] = {}
_WORDS: dict[int, struct.Struct] = {}


def _pack(values: list[float], scale: float) -> int:
    """Fixed-point values (rounded down) in 16-byte little-endian slots of one integer."""
    n = len(values)
    st = _STRUCTS.get(n)
    if st is None:
        st = _STRUCTS[n] = struct.Struct("<" + "Q8x" * n)
    return int.from_bytes(st.pack(*[_trunc(v * scale) for v in values]), "little")


def _unpack(packed: int, nD: int) -> list[float]:
    """Column masses of a packed row; slots past column nD add up into column nD."""
    slots = max(nD + 1, (packed.bit_length() + _SLOT_BITS - 1) // _SLOT_BITS)
    st = _WORDS.get(slots)
    if st is None:
        st = _WORDS[slots] = struct.Struct("<" + "QQ" * slots)
    w = st.unpack(packed.to_bytes(slots * _SLOT_BYTES, "little"))
    vals = [
        (w[k] | w[k + 1] << 64) / _OUT_SCALE if (w[k] or w[k + 1]) else 0.0
        for k in range(0, len(w), 2)
    ]
    row = vals[: nD + 1]
    extra = math.fsum(vals[nD + 1 :])
    if extra:
        row[nD] += extra
    return row


class _Packed:
    """The defender's side of packed spreading, shared by every row of one battle."""

    def __init__(self, eng: FastEngine[Any]) -> None:
        self.eng = eng
        self.nD = nD = eng.nD
        d_fire = eng.d_fire
        self.d_fire = d_fire
        # d_col[hd][j] = p(defender scores hd | column j)
        self.max_hd = max(len(d) for d in d_fire) - 1
        self.d_col = [[d[hd] if hd < len(d) else 0.0 for d in d_fire] for hd in range(self.max_hd + 1)]
        # Columns where a defender score can matter: p(hd | j) >= _CUT (the rest is dropped).
        self.d_span = []
        for col in self.d_col:
            idx = [j for j, q in enumerate(col) if q >= _CUT]
            self.d_span.append((idx[0], idx[-1]) if idx else (nD + 1, -1))

    def row(self, packed: int, row_f: list[float] | None) -> list[float]:
        row = _unpack(packed, self.nD) if packed else [0.0] * (self.nD + 1)
        if row_f is not None:
            row = [a + b for a, b in zip(row, row_f)]
        return row

    def spread(self, i: int, e: list[float], lo: int, hi: int, hd_from: int, out: list[int]) -> float:
        """Spread the masses ``e[lo..hi]`` of row ``i`` over one round, for every
        defender score from ``hd_from`` up, into the packed rows ``out``: for each score
        one packed convolution.  Returns the mass left out plus the rounding bound."""
        a_lo, a_packed, a_len, a_cut = self.eng.packed_fire(i)
        e_sum = math.fsum(e[lo : hi + 1])
        if not a_packed:
            return e_sum
        end_i = self.eng.a_end[i]
        lost = 0.0
        top = min(self.max_hd, len(self.d_fire[lo]) - 1)
        for hd in range(hd_from, top + 1):
            j0, j1 = self.d_span[hd]
            if j0 < lo:
                j0 = lo
            if j1 > hi:
                j1 = hi
            if j0 > j1:
                lost += e_sum * _CUT
                continue
            w = [x * q for x, q in zip(e[j0 : j1 + 1], self.d_col[hd][j0 : j1 + 1])]
            total = math.fsum(w)
            if total < _TINY:
                lost += total
                continue
            if j0 > lo or j1 < hi:  # columns left out: each p(hd | j) < _CUT there
                lost += e_sum * _CUT
            i2 = i + hd if i + hd < end_i else end_i
            out[i2] += (_pack(w, _W_SCALE) * a_packed) << ((j0 + a_lo) * _SLOT_BITS)
            # Rounding both factors down loses at most 2**-63 per unit of mass on one
            # side and 2**-61 per slot on the other; the attacker's cut tails lose a_cut.
            lost += total * (a_len * 2.0**-_A_BITS + a_cut) + len(w) * 2.0**-_W_BITS
        return lost


_HIGH: dict[int, struct.Struct] = {}
_trunc = float.__trunc__  # int() of a float, without the generic call (same value)
_HIGH_SCALE = 2.0 ** (64 - _W_BITS - _A_BITS)  # a slot's high word, as a probability
_LOW_LOST = 2.0 ** (_SLOT_BITS - 64 - _W_BITS - _A_BITS)  # what ignoring a low word can lose


def _solve_packed(
    eng: FastEngine[Any],
    rows_f: list[Any],
    sink: tuple[dict[str, Any], list[Any], list[Any], list[Any]],
    rounds_acc: list[Any],
) -> float:
    """Float mode only (``eng.eps > 0``), no round limit.

    Rows are big integers (``S`` fixed-point slots; ``S`` leaves room past column ``nD``
    for every attacker hit count, all of it "the defender destroyed").  A row is
    processed in two passes: pass 1 walks its columns in floats (terminal, retreating
    and stalemated cells are settled for the whole row, the "nobody is hit" loop is
    summed in closed form, "the defender scores 0" is pulled along the row: the mass
    reaching a column from the row's earlier columns is one dot product); pass 2
    spreads every defender score ``hd >= 1``: the row's masses times ``p(hd | j)``,
    packed, times the packed attacker's hit distribution, one big-integer
    multiplication per score added into row ``i + hd``; every score that destroys the
    attacker is spread as one (the tail sums of the defender's hits).  Only the high
    64 bits of a slot are read back; what the low bits could hold goes into the error
    bound.  Pass 1 works in units of those high words (``_HIGH_SCALE``, a power of
    two, so the scaling is exact): a row is read without converting each slot."""
    counts, a_end, d_end, takes_box = sink
    nD = eng.nD
    a_fire = eng.a_fire
    n_rows = len(a_fire)
    Ha = max(map(len, a_fire)) - 1
    S = nD + 1 + Ha
    row_bytes = S * _SLOT_BYTES
    high = _HIGH.get(S)
    if high is None:
        high = _HIGH[S] = struct.Struct("<" + "8xQ" * S)
    unpack = high.unpack
    HS = _HIGH_SCALE
    tiny = _TINY / HS
    d_line = eng.d_line
    d0, d_len = d_line.zero_and_len()
    blocks = d_line.blocks
    pull = eng.pull_fire
    a_pulls = eng._pulls
    packed_fire = eng.packed_fire
    a_packs = eng._packed
    row_won = 0.0
    jT = nD
    for j in range(nD + 1):
        if not eng.d_alive[j] or eng.d_defenceless[j]:
            jT = j
            break
    chain = any(d0[:jT])  # whether the defender may score nothing (the row's own chain)
    fought = eng.setup.defender_fought
    a_alive, a_retreat, a_takes = eng.a_alive, eng.a_retreat, eng.a_takes
    a_end_idx = eng.a_end
    from_bytes = int.from_bytes
    P = [0] * n_rows
    dropped = 0.0
    rounds = 0.0
    won_sum = held_sum = draw_sum = retreat_sum = stale_sum = takes_sum = 0.0
    zeros = [0.0] * S
    low_lost = S * _LOW_LOST
    a_ulp, w_ulp = 2.0**-_A_BITS, 2.0**-_W_BITS  # what rounding a factor down can lose
    for i in range(n_rows):
        bits = P[i]
        row_f = rows_f[i]
        row: Sequence[Any]
        if row_f is None:
            if not bits:
                continue
            row = unpack(bits.to_bytes(row_bytes, "little"))
            dropped += low_lost
        else:
            rows_f[i] = None
            if bits:
                words = unpack(bits.to_bytes(row_bytes, "little"))
                row = [a + b / HS for a, b in zip(words, row_f)] + list(words[nD + 1 :])
                dropped += low_lost
            else:
                row = [b / HS for b in row_f] + zeros[nD + 1 :]
        if not a_alive[i]:  # the attacker is destroyed: the defender holds (or both died)
            total = math.fsum(row) * HS
            a_end[i] += total
            last = math.fsum(row[nD:]) * HS
            d_end[:nD] = [a + b * HS for a, b in zip(d_end, row[:nD])]
            d_end[nD] += last
            if fought:
                held_sum += total - last
                draw_sum += last
            else:
                held_sum += total
            continue
        afire = a_fire[i]
        quiet = len(afire) == 1
        lim = nD if quiet else jT
        if a_retreat[i]:  # retreat by count: every live cell retreats
            lost = math.fsum(row[:lim]) * HS
            if lost:
                retreat_sum += lost
                a_end[i] += lost
                d_end[:lim] = [a + b * HS for a, b in zip(d_end, row[:lim])]
            lo, hi, e = 0, -1, []
        elif quiet:  # the attacker cannot hit: only the defender's dice move the row
            a0 = afire[0]
            e = [0.0] * lim
            lo, hi = lim, -1
            for j in range(lim):
                x = row[j]
                if not x:
                    continue
                if d_len[j] == 1:  # nobody can hit: a stalemate
                    x *= HS
                    stale_sum += x
                    a_end[i] += x
                    d_end[j] += x
                    continue
                if x < tiny:
                    dropped += x * HS
                    continue
                e[j] = x / (1.0 - a0 * d0[j])
                if j < lo:
                    lo = j
                hi = j
        else:
            # The row's own chain ("the defender scores 0"), pulled: the mass reaching
            # column j from the earlier columns of the row is a dot product of their
            # shares g (newest first) with the attacker's hits 1, 2, ...
            a0, a_rest, a_suf = a_pulls.get(i) or pull(i)
            e = []
            if not chain:  # the defender always scores (low luck): the row has no chain
                for j in range(lim):
                    x = row[j]
                    if x < tiny:
                        if x:
                            dropped += x * HS
                        e.append(0.0)
                    else:
                        e.append(x / 1.0)
            elif len(a_rest) == 1:  # at most one hit (low luck, one die): no dot products
                a1 = a_rest[0]
                gj = 0.0
                for j in range(lim):
                    x = row[j] + gj * a1
                    if x < tiny:
                        if x:
                            dropped += x * HS
                        e.append(0.0)
                        gj = 0.0
                        continue
                    dj = d0[j]
                    xe = x / (1.0 - a0 * dj)
                    e.append(xe)
                    gj = xe * dj
                row_won = gj * a1
            else:
                # No cut of tiny masses here: they go on along the row, and into pass 2
                # where rounding to fixed point (in the error bound) takes care of them.
                g: list[float] = []
                for j in range(lim):
                    dj = d0[j]
                    xe = (row[j] + sum(map(mul, g, a_rest))) / (1.0 - a0 * dj)
                    e.append(xe)
                    g.insert(0, xe * dj)
                # What the row's own chain carries past the last live column: the
                # defender destroyed (read with the rest of the row's "won" mass below).
                row_won = sum(map(mul, g, a_suf))
            lo, hi = 0, lim - 1
            while lo <= hi and not e[lo]:
                lo += 1
            while hi >= lo and not e[hi]:
                hi -= 1
        if hi >= lo:
            ewin = e if lo == 0 and hi == lim - 1 else e[lo : hi + 1]
            esum = sum(ewin) * HS
            rounds += esum
            top = d_len[lo] - 1
            a_lo, a_packed, a_len, a_cut = a_packs.get(i) or packed_fire(i)
            if top >= 1 and a_packed:
                end_i = a_end_idx[i]
                # Defender scores 1 … n_hd (the last one: "the attacker destroyed,
                # however many hits", the tail sums, when it gets that far), all
                # packed at once, then cut into one integer per score.
                n_hd = top if i + top < end_i else end_i - i
                bkey = (lo, hi, n_hd, i + n_hd >= end_i)
                st, pick, flat, parts = blocks.get(bkey) or d_line.block(*bkey)
                block = st.pack(*map(_trunc, map(mul, pick(ewin), flat)))
                if lo + a_lo:
                    shift = (lo + a_lo) * _SLOT_BITS
                    for hd, b0, b1 in parts:
                        P[i + hd] += (from_bytes(block[b0:b1], "little") * a_packed) << shift
                else:
                    for hd, b0, b1 in parts:
                        P[i + hd] += from_bytes(block[b0:b1], "little") * a_packed
                dropped += esum * (a_len * a_ulp + a_cut) + top * (hi + 1 - lo) * w_ulp
            elif top >= 1:
                dropped += esum
        won = sum(row[lim:])  # high words: an exact integer sum (floats in a start row)
        if row_won:
            won += row_won
            row_won = 0.0
        if won:
            won *= HS
            won_sum += won
            a_end[i] += won
            d_end[nD] += won
            if a_takes[i]:
                takes_sum += won
    counts[ATTACKER] += won_sum
    counts[DEFENDER] += held_sum
    counts[DRAW] += draw_sum
    counts[RETREAT] += retreat_sum
    counts[STALEMATE] += stale_sum
    takes_box[0] += takes_sum
    rounds_acc[0] += rounds
    return dropped


def _rounds_packed(
    eng: FastEngine[Any],
    rows_f: list[Any],
    record: Callable[[str, int, int, Any], None],
    rounds_acc: list[Any],
    rounds: int,
) -> float:
    """Float mode, rounds 2..``rounds`` (round 1 is already in ``rows_f``); whatever is
    still fighting afterwards is recorded as unfinished.  Without the closed-form loop
    every transition, "nobody is hit" included, goes to the next round's table, so each
    row is one packed convolution per defender score."""
    nD = eng.nD
    n_rows = len(rows_f)
    pk = _Packed(eng)
    d_fire = eng.d_fire
    packed_rows = [0] * n_rows
    dropped = 0.0
    for r in range(2, rounds + 2):
        last = r == rounds + 1
        nxt = [0] * n_rows
        for i in range(n_rows):
            if not packed_rows[i] and rows_f[i] is None:
                continue
            row = pk.row(packed_rows[i], rows_f[i])
            a_quiet = len(eng.a_fire[i]) == 1
            e = [0.0] * (nD + 1)
            lo, hi = nD + 1, -1
            for j in range(nD + 1):
                x = row[j]
                if not x:
                    continue
                outcome, j2 = eng._settle(i, j, after_round=True)
                if outcome is not None or last:
                    record(outcome or UNFINISHED, i, j2, x)
                    continue
                if a_quiet and len(d_fire[j]) == 1:
                    record(STALEMATE, i, j, x)
                    continue
                if x < _TINY:
                    dropped += x
                    continue
                rounds_acc[0] += x
                e[j] = x
                if j < lo:
                    lo = j
                hi = j
            if hi >= 0:
                dropped += pk.spread(i, e, lo, hi, 0, nxt)
        packed_rows = nxt
        rows_f = [None] * n_rows
    return dropped
