"""Sea battles where one side's submarines strike every round, solved in one compiled
pass (float mode): fought to the end (:meth:`StrikeSolver.solve`), for a number of
rounds (:meth:`StrikeSolver.walk`), with the attacker retreating where a rule says
(A-10.15), or where its chance to win falls below a threshold
(:meth:`StrikeSolver.retreat_by_chance`).

The battles (more kinds below): one side (X) has submarines, the other (Y) neither
submarines nor destroyers (the end-of-round rules then only tell who is left, take a
defender's transports when it has nothing else left, or only them and submarines
facing aircraft alone, A-10.7, and submerge X's submarines when they are all it has
left and it asked so, A-10.6; X's transports are the last of its other steps, so a
defending X that loses them goes to the row where they are all taken).  X's destroyers change
nothing there: a destroyer cancels the enemy's strike and lets its own side's aircraft
hit submarines (A-10.6, A-10.14), and Y has no submarine.  Then X's
submarines strike at the start of every round and never fire in general fire, Y's
aircraft never hit them (A-10.14), X's hits on Y are never restricted but for the
strike's (never on aircraft), and the sides' states have a simple shape:

* X at (s, p): ``s`` submarines left, and the first ``p`` of its other steps taken
  (battleships' first hits, then its other units by the order of loss: Y's aircraft
  hits take those in order, A-10.14, and the unrestricted hits the submarines first
  once the steps before them are gone);
* Y at (i, k): its first ``i`` steps that are not aircraft taken and its first ``k``
  aircraft steps (the strikes take only the former, general fire both in loss order).

X's general dice depend on p alone, its strike on s alone, Y's ships' dice on i alone
and its aircraft's on k alone.  So a round splits into four moves of one side each
(:mod:`engine.odds.aa_strike_kernel`), and every pair of states costs a few dozen
products instead of an outer product of two casualty distributions (~128 x ~40 for
100 a side in :mod:`engine.odds.aa_naval`, which solves every other battle with
submarines).  The answer is the same chain's (checked against it and against exact
fractions in ``tests/odds/test_aa_strike.py``); masses below ``TINY`` and dice outcomes
below ``CUT`` are left out and counted in the error bound, as there.

The pass also takes battles where both sides have submarines and neither a
destroyer, one side aircraft (Y) and the other none (X), and neither side submerges:
Y's submarines strike too, from the state at the start of the round (A-10.6).  The
kernel takes Y's strike first (X has no aircraft, so it may hit any of X's steps) and
lets the submarines of X it sinks strike back at once; X's submarines left strike as
before.  Both are X's strike from the submarines it had, since hits of one kind land
where they would land together.  The solve, the round walk and the chances backward
all take that move.

And where both sides have submarines and only one side destroyers, that side is X
(it has no aircraft): its submarines strike (Y has no destroyer), Y's do not while X
has a destroyer (A-10.6) and fire with Y's ships instead (their hits land as the
ships' do: X has no aircraft for them to spare).  X's destroyers are among its other
steps, so whether it still has one is a matter of its row's ``p`` (``xd``); Y's fire
is then read from the table with its submarines (``ud``) and there is no step 0.  Once
X's last destroyer is sunk the battle is the one above.

And where Y has destroyers (A-10.6): while it has one, X's submarines neither strike
nor submerge (not even alone, when X asked so) but fire with X's other units (their
hits on Y's ships first), and Y's aircraft may hit them.  Y's destroyers are among its steps that are not aircraft, so
whether it still has one is a matter of its column's ``i`` (``yd``), and Y's ``i`` only
grows: such a column is reached only from round starts and Y's strike.  There the
round is step 0 (Y's strike, where Y has submarines and X no destroyer; the submarines
of X it sinks do not strike back), then one move of both sides' fire
(:func:`engine.odds.aa_strike_kernel._destroyer_moves`) into the round starts.  The
solve, the round walk and the chances backward all take it.  Once Y's last destroyer
is sunk the battle is one of those above.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.odds import compiled
from engine.odds.aa_battle import (
    ATTACKER, CUT, DEFENDER, DRAW, RETREAT, STALEMATE, TINY, UNFINISHED, BattleSetup, Tally, Work, retreat_band,
    rounding_leftover, state_without, too_big_naval_table, too_many_states,
)
from engine.odds.aa_general import GeneralEngine
from engine.odds.aa_side import CAT_AIR, CAT_SUB, Side, State, Step
from engine.odds.aa_units import AIR
from engine.odds.dist import convolve, hits_distribution

Arr = Any  # numpy arrays

OUTCOME_ROWS = (ATTACKER, DEFENDER, DRAW, STALEMATE, RETREAT)  # the kernel's outcome codes 0-4
DIVE = 5  # the kernel's code for X's submarines submerged: a retreat when X attacks, else lost
ENABLED = True  # False: these battles go to engine.odds.aa_naval too (the tests compare the two)
# A retreat by win chance: the solve with the retreats is the traced solve's correction
# (StrikeSolver._corrected) when at most this many round starts come to retreat pairs
# in the traced solve (more: the solve itself, which stops there, meets fewer pairs).
CORRECTION_MAX = 0.5
# A retreat by win chance: the chances backward works out the pairs where the traced
# solve met at least this much mass in all (the others are anything: a round start
# there is a decision left open, its mass in the error bound).  Half the pairs of the
# defender-strike battle at 100 a side had less than 1e-18 each, 1.9e-14 in all; below
# 1e-17, 3.1e-13 in all: ~40 % off the backward pass, its error bound 9.0e-13 ->
# 1.25e-12.
CHANCE_LEAST = 1e-17
BACK_ROW = OUTCOME_ROWS.index(RETREAT)  # the kernel's outcome row of a retreat (BACK)
# Step 4 split (_lost_air) at the pairs whose Y aircraft's hits span more outcomes than
# SPLIT_WIDTH and that hold more than SPLIT_TAGS tags: there each lost aircraft's die
# taken on its own (a few scattered products each) costs less than spreading every tag
# over its own wide distribution (one run each).  Measured on the bench's strike
# battles, alternated in one process (2026-12-06): against 85 aircraft ~17 % faster;
# the others, whose tags are fewer or whose aircraft fire is narrower, within ~2 % (8,
# 12 and 16 tags alike against 85 aircraft; 8 cost the striker-transports battle ~2 %).
SPLIT_WIDTH = 24
SPLIT_TAGS = 12
# A retreat by win chance: where Y's aircraft fire spans more than TRACED_SPLIT_WIDTH
# outcomes at its widest, the traced solve splits step 4 at every pair holding more
# than TRACED_SPLIT_TAGS tags (_traced_air), and the chances backward takes those
# pairs' tags from the tag before and the lost aircraft's die
# (aa_strike_kernel._owed_back) instead of a pull over each tag's aircraft fire.
# False: the traced solve unsplit, every tag pulled (the tests compare the two).
# Measured on the bench's four retreats by win chance, alternated (2026-12-06): 2, 8,
# 12, 16 and 24 tags at every width; 12 took the struck aircraft's (85 aircraft) ~21 %
# off and the other destroyers' (40 fighters) ~3-7 %, left the strike battle's (30
# fighters) within noise and cost the defender's strikes (30 fighters) 5-15 % (its
# traced solve slower split, though with fewer products); split only where Y's fire
# is wide at some column (the forward split's rule, 24 outcomes) that battle still
# lost ~5 %, the struck aircraft gained half as much: so the rule is the fire's widest
# span, between the 31 outcomes of 30 fighters and the 41 of 40.
BACK_SPLIT = True
TRACED_SPLIT_TAGS = 12
TRACED_SPLIT_WIDTH = 36
NO_UNITS = (np.zeros((0, 0)), np.zeros(0, dtype=np.int64))  # _air_units: none
NO_SPLIT = (*NO_UNITS, 0, np.zeros(0, dtype=np.bool_), 0)  # _lost_air, _traced_air: none
NO_RULE_ENDS = (np.zeros(0, dtype=np.int64), np.zeros((0, 0)))  # the kernel solve's frow, rule_ends: none kept
NO_MARKS = np.zeros((0, 0, 0), dtype=np.int8)  # the kernel solve's marks: no rungs noted (an untraced solve)


def _has(side: Side, flag: str) -> bool:
    return any(getattr(side.profiles[n], flag) for n in side.army)


def _air(side: Side) -> bool:
    return any(side.profiles[n].domain == AIR for n in side.army)


def _x_and_y(setup: BattleSetup[float]) -> tuple[Side, Side] | None:
    """The battle's X and Y (see the module's text): the side with submarines and the
    other; where both have submarines, the side without aircraft and the side with
    them (None where that is not one side each)."""
    att, dfn = setup.attacker, setup.defender
    if not _has(att, "submarine") or not _has(dfn, "submarine"):
        return (att, dfn) if _has(att, "submarine") else (dfn, att)
    a_des, d_des = _has(att, "destroyer"), _has(dfn, "destroyer")
    if a_des != d_des:  # only that side's submarines strike while its destroyers last
        x, y = (att, dfn) if a_des else (dfn, att)
        if not _air(x) or _air(y):
            return x, y
        return y, x  # X may not have aircraft here (Y's strike hits any of its steps): Y has the destroyers
    if _air(att) == _air(dfn):
        return None
    return (dfn, att) if _air(att) else (att, dfn)


def applies(setup: BattleSetup[float]) -> bool:
    """Whether :class:`StrikeSolver` solves this battle (see the module's text)."""
    if not setup.sea or setup.low_luck:
        return False
    att, dfn = setup.attacker, setup.defender
    a_sub, d_sub = _has(att, "submarine"), _has(dfn, "submarine")
    if not a_sub and not d_sub:
        return False
    sides = _x_and_y(setup)
    if sides is None:
        return False
    x, y = sides
    if a_sub and d_sub:
        # Y's strike (and, while X has a destroyer, Y's submarines' general fire) hits
        # any of X's steps: X has no aircraft; submarines submerging would end
        # pairs that a round begun elsewhere still passes through after Y's strike (the
        # kernel ends a pair's round-start masses only).
        if _air(x) or x.submerge or y.submerge:
            return False
    for side in (x, y):
        if side.keep_land or _has(side, "is_aa"):
            return False
    # Y's destroyers cancel X's strike, its submerging, and let Y's aircraft hit X's
    # submarines: the kernel's solve, round walk and chances backward take that
    # (``yd``, by Y's column).  (X's submarine steps are always one run of its loss
    # order: one unit type, A-10.8.)
    return True


def _dist_table(dists: list[list[float]]) -> tuple[Arr, Arr, Arr, Arr, Arr, Arr]:
    """Distributions as a padded table, each with what the kernel reads of it: its first
    and last index, the chance cut from it (outcomes below ``CUT``), its mode, and its
    cumulative chances (``cum[n, x]``: the chance below ``x``)."""
    width = max(len(x) for x in dists)
    table = np.zeros((len(dists), width))
    for n, x in enumerate(dists):
        table[n, : len(x)] = x
    small = table < CUT
    cut = np.where(small, table, 0.0).sum(axis=1)
    table[small] = 0.0
    nz = table > 0.0
    anyv = nz.any(axis=1)
    lo = np.where(anyv, nz.argmax(axis=1), 0)
    hi = np.where(anyv, width - 1 - nz[:, ::-1].argmax(axis=1), 0)
    cum = np.zeros((len(dists), width + 1))
    np.cumsum(table, axis=1, out=cum[:, 1:])
    return (table, lo.astype(np.int64), hi.astype(np.int64), cut, table.argmax(axis=1).astype(np.int64), cum)


def _dist_tables(*groups: list[list[float]]) -> list[tuple[Arr, Arr, Arr, Arr, Arr, Arr]]:
    """:func:`_dist_table` of each group of distributions, all as wide as the widest (a
    kernel may read either of two tables in one place)."""
    table = _dist_table([x for group in groups for x in group])
    out, at = [], 0
    for group in groups:
        n = len(group)
        out.append((table[0][at : at + n], table[1][at : at + n], table[2][at : at + n], table[3][at : at + n],
                    table[4][at : at + n], table[5][at : at + n]))  # fmt: skip
        at += n
    return out


def _lost_air(y: Side, air_states: list[State], most: int, f: tuple[Arr, ...]) -> tuple[Arr, Arr, int, Arr, int]:
    """The dice of Y's aircraft steps (``air_states[k]``: Y with its aircraft steps ``0
    .. k`` taken), for :func:`engine.odds.aa_strike_kernel.solve`'s step 4 split:
    ``(units, lens, most, wide, tags)``, ``units[k, j]`` the chance that what step ``k``
    takes away scores ``j`` hits (``lens[k]`` of them can be more than 0), ``most`` the
    most aircraft one round's general fire takes, ``wide[k]`` whether Y's aircraft fire
    at ``k`` (``f``) spans more than SPLIT_WIDTH outcomes, and ``tags`` (SPLIT_TAGS):
    the split is taken at pairs holding more tags than that where ``wide``.  Aircraft
    lost in a round fire in it all the same (A-10.4): Y's aircraft at ``k - t`` roll
    those at ``k`` and the dice of steps ``k - t + 1 .. k``, so the kernel spreads the
    first once per pair and takes the others one step at a time
    (:func:`engine.odds.aa_strike_kernel._owed`).  Empty tables where no column is wide
    or a step does more than take dice away (nothing of the kind in these battles'
    rules: checked, not assumed): the kernel then spreads each tag over its own
    aircraft's fire."""
    n_k = len(air_states) - 1
    wide = f[2] - f[1] + 1 > SPLIT_WIDTH
    if most < 1 or n_k < 1 or not wide.any():
        return NO_SPLIT
    table, lens = _air_units(y, air_states)
    if not len(lens):
        return NO_SPLIT
    return table, lens, min(most, n_k), wide, SPLIT_TAGS


def _air_units(y: Side, air_states: list[State]) -> tuple[Arr, Arr]:
    """The dice Y's aircraft steps take away (``air_states[k]``: Y with its aircraft
    steps ``0 .. k`` taken): ``(units, lens)``, ``units[k, j]`` the chance that what step
    ``k`` takes away scores ``j`` hits (``lens[k]`` of them can be more than 0; row 0,
    no step, never read), or empty tables where there is no aircraft step or a step does
    more than take dice away (nothing of the kind in these battles' rules: checked, not
    assumed).  For the step 4 split forward (:func:`_lost_air`) and backward
    (:func:`engine.odds.aa_strike_kernel._owed_back`)."""
    n_k = len(air_states) - 1
    if n_k < 1:
        return NO_UNITS
    # Dice by value (two unit types may roll at one value: jet fighters and bombers at 4).
    dice = [Counter[int]() for _ in air_states]
    for by_value, st in zip(dice, air_states):
        for value, count in y.dice(st)[1]:
            by_value[value] += count
    units: list[list[float]] = [[1.0]]  # step 0 takes nothing (never read)
    for k in range(1, n_k + 1):
        gone = {v: dice[k - 1][v] - dice[k][v] for v in dice[k - 1].keys() | dice[k].keys()}
        if any(c < 0 for c in gone.values()):
            return NO_UNITS
        units.append(hits_distribution(sorted(gone.items()), 1.0))
    width = max(len(x) for x in units)
    table = np.zeros((n_k + 1, width))
    for k, x in enumerate(units):
        table[k, : len(x)] = x
    return table, np.array([len(x) for x in units], dtype=np.int64)


def _traced_air(units: tuple[Arr, Arr], most: int, f: tuple[Arr, ...]) -> tuple[Arr, ...]:
    """The step 4 split of a traced solve, which :func:`engine.odds.aa_strike_kernel.
    chances` follows (BACK_SPLIT): at every pair past X's submarines holding more than
    TRACED_SPLIT_TAGS tags, where Y's aircraft fire (``f``) spans more than
    TRACED_SPLIT_WIDTH outcomes at its widest and the dice Y's aircraft steps take away
    are one die each (``units``, :func:`_air_units`; ``most``: the most aircraft one
    general fire takes); the lost aircraft's dice then cost the chances backward two
    products a tag (``_owed_back``) instead of a pull over their aircraft's whole
    fire.  No split elsewhere (the traced solve and the chances backward as before)."""
    table, lens = units
    if not BACK_SPLIT or most < 1 or table.shape[0] < 2 or table.shape[1] != 2:
        return NO_SPLIT
    if int((f[2] - f[1]).max(initial=0)) + 1 <= TRACED_SPLIT_WIDTH:
        return NO_SPLIT
    return table, lens, min(most, table.shape[0] - 1), np.ones(table.shape[0], dtype=np.bool_), TRACED_SPLIT_TAGS


def _deltas(side: Side, steps: list[Step]) -> Arr:
    """Cumulative state changes of taking ``steps`` in turn: row n after the first n."""
    out = np.zeros((len(steps) + 1, len(side.slots)), dtype=np.int64)
    for n, step in enumerate(steps):
        out[n + 1] = out[n]
        out[n + 1, step.source] -= 1
        if step.target >= 0:
            out[n + 1, step.target] += 1
    return out


class Decided(AbstractSet[tuple[State, State]]):
    """The pairs a retreat by win chance retreats from, as :func:`retreat_pairs` decided
    them: their retreat table (columns x rows) for the sides it numbered, read as a set
    of pairs (attacker state, defender state).  The round walk of the same battle reads
    the table instead of numbering ~10^5 pairs again (~0.9 s at 100 a side on a slow
    machine), and the pairs are made only when asked for one by one: making them all
    (~370,000 at 100 a side, a frozenset of them, and the attacker states among them)
    was ~0.3 s of a retreat by win chance with a round limit, which never reads them."""

    def __init__(self, table: Arr, sides: tuple[Side, Side], solver: "StrikeSolver") -> None:
        self.table = table
        self.sides = sides
        self._x_states, self._y_states = solver.x_states, solver.y_states
        self._x_index, self._y_index = solver.x_index, solver.y_index
        self._x_attacks = solver.x_attacks
        self._size = int(np.count_nonzero(table))

    def __contains__(self, pair: object) -> bool:
        if not isinstance(pair, tuple) or len(pair) != 2:
            return False
        xs, ys = pair if self._x_attacks else pair[::-1]
        r, c = self._x_index.get(xs), self._y_index.get(ys)
        return r is not None and c is not None and bool(self.table[c, r])

    def __iter__(self) -> Iterator[tuple[State, State]]:
        cols, rows = np.nonzero(self.table)
        xs, ys = self._x_states, self._y_states
        for c, r in zip(cols.tolist(), rows.tolist()):
            yield (xs[r], ys[c]) if self._x_attacks else (ys[c], xs[r])

    def __len__(self) -> int:
        return self._size


def _below_each(left: Arr, H: int) -> Arr:
    """For each row of ``left`` (nonnegative integers) and each h from 0 to ``H`` - 1, how
    many of the row's values are below h (rows x H): each row's count of each value
    (those past H - 2 never below any such h: counted as H - 1), summed up to h - 1.  (A
    test of every value against every h, rows x values x H booleans, was ~22 ms of the
    defender-strike battle's set-up at 100 a side.)"""
    rows = left.shape[0]
    below = np.zeros((rows, H), dtype=np.int64)
    if H <= 1:
        return below
    # Values 0 to H - 1 a row, the last standing for every value from there on.
    keys = np.minimum(left, H - 1) + H * np.arange(rows)[:, None]
    counts = np.bincount(keys.reshape(-1), minlength=rows * H).reshape(rows, H)
    np.cumsum(counts[:, :H - 1], axis=1, out=below[:, 1:])
    return below


@dataclass
class _Traced:
    """What a traced solve (:meth:`StrikeSolver.decide`, no retreat) leaves for the solve
    with the retreats: its final masses (``ends_x``, ``ends_y``), rounds, mass left out
    and pairs processed, round 1's starts (flat indices into the tables, masses), each
    pair's round starts (``visits``, columns x rows) and what a rule ended by name at
    the pairs of the rows :meth:`StrikeSolver._rule_rows` gives (``rule_ends``, by those
    rows and columns: for :func:`engine.odds.aa_strike_kernel.relabel`)."""

    ends_x: Arr
    ends_y: Arr
    rounds: float
    dropped: float
    seen: int
    start: Arr
    start_m: Arr
    visits: Arr
    rule_ends: Arr

    def starts_at(self, back: Arr) -> tuple[Arr, Arr, float]:
        """The round starts at the retreat pairs ``back`` but round 1's (``visits``,
        changed into them: columns x rows, 0 elsewhere), summed by X row, by Y column and
        in all (:func:`engine.odds.aa_strike_kernel.retreat_starts`: one pass)."""
        from engine.odds.aa_strike_kernel import retreat_starts

        by_x, by_y, total = retreat_starts(self.visits, back, self.start, self.start_m)
        return by_x, by_y, float(total)


class StrikeSolver:
    """The battles of :func:`applies`, with ``solve`` as :class:`engine.odds.aa_naval.
    NavalSolver`'s (same tally, same limits)."""

    def __init__(self, setup: BattleSetup[float], max_states: int | None = None, seen: int = 0,
                 *, work: Work | None = None) -> None:
        self.setup = setup
        self.max_states = max_states
        self.seen = seen
        self.work = work if work is not None else Work()
        self._spare: list[Arr] = []  # tables a pass is done with (:meth:`_table`)
        self._traced: _Traced | None = None  # the traced solve of the last decide
        self.placed_at: Arr = np.zeros(0, dtype=np.int64)  # the cells the last _place wrote
        sides = _x_and_y(setup)
        assert sides is not None
        x, y = sides
        self.x_attacks = x is setup.attacker
        self.x, self.y = x, y
        self.ys = _has(y, "submarine")  # both sides strike
        # Dice as the general engine rolls them (memoised): X's submarines strike,
        # its aircraft and other units fire together (Y has no submarine to spare, or X
        # no aircraft);
        # Y's ships and aircraft fire apart (its aircraft may not hit X's submarines).
        fire = GeneralEngine(setup).fire

        # X: rows (s, p).
        steps = list(x.steps(x.start))
        subs = [st for st in steps if st.category == CAT_SUB]
        others = [st for st in steps if st.category != CAT_SUB]
        self.S, self.P = len(subs), len(others)
        self.q = next(k for k, st in enumerate(steps) if st.category == CAT_SUB)
        assert all(st.category == CAT_SUB for st in steps[self.q : self.q + len(subs)])  # one run
        S, P, W = self.S, self.P, self.P + 1
        base = np.array(x.start, dtype=np.int64)
        by_p, by_sub = _deltas(x, others), _deltas(x, subs)
        rows = base + by_sub[S - np.repeat(np.arange(S, -1, -1), W)] + np.tile(by_p, (S + 1, 1))
        self.x_states: list[State] = [tuple(v) for v in rows.tolist()]
        self.x_index = {st: n for n, st in enumerate(self.x_states)}
        alive_p = np.array([x.alive(self.x_states[S * W + p]) > 0 for p in range(W)])
        self.alive_x = np.repeat(np.arange(S, -1, -1) > 0, W) | np.tile(alive_p, S + 1)
        self.a = _dist_table([fire(x, self.x_states[S * W + p], False, True)[2] for p in range(W)])  # rows of s = 0
        self.b = _dist_table([fire(x, self.x_states[(S - s) * W + P], True, True)[0] for s in range(S + 1)])
        # X's submarines submerge where they are all it has left, if it asked (A-10.6; not
        # while Y has a destroyer, which the kernel reads by column, yd); recorded as that
        # state with them submerged.
        self.dive = np.repeat(np.arange(S, -1, -1) > 0, W) & np.tile(~alive_p, S + 1) & bool(x.submerge)
        # Whether X can fire at all: its submarines or its other dice.
        self.fire_x = np.repeat(self.b[2][::-1] > 0, W) | np.tile(self.a[2] > 0, S + 1)

        # Y: columns (i, k), from the most hit points to the fewest.
        ysteps = list(y.steps(y.start))
        is_air = np.array([st.category == CAT_AIR for st in ysteps] + [False])
        ship_at, air_at = np.flatnonzero(~is_air[:-1]), np.flatnonzero(is_air[:-1])
        n_i, n_k = len(ship_at), len(air_at)
        self.n_i = n_i
        # Ship and aircraft steps before each place in the loss order.
        ships_before = np.concatenate([[0], np.cumsum(~is_air[:-1])])
        air_before = np.concatenate([[0], np.cumsum(is_air[:-1])])
        # (i, k) is a state when its aircraft steps were taken by general fire, which takes
        # an aircraft step only once every step before it is gone: i at least the ship
        # steps before its k-th aircraft step (strikes take ship steps only).
        ii, kk = np.meshgrid(np.arange(n_i + 1), np.arange(n_k + 1), indexing="ij")
        need = np.concatenate([[0], ships_before[air_at]])
        ok = ii >= need[kk]
        order = np.lexsort((ii[ok], ii[ok] + kk[ok]))  # by hit points lost, then ship steps
        self.yi, self.yk = ii[ok][order], kk[ok][order]
        nd = len(self.yi)
        col_of = np.full((n_i + 1, n_k + 1), -1, dtype=np.int64)
        col_of[self.yi, self.yk] = np.arange(nd)
        ybase = np.array(y.start, dtype=np.int64)
        by_i = _deltas(y, [ysteps[k] for k in ship_at])
        by_k = _deltas(y, [ysteps[k] for k in air_at])
        yrows = ybase + by_i[self.yi] + by_k[self.yk]
        self.y_states: list[State] = [tuple(v) for v in yrows.tolist()]
        self.y_index = {st: n for n, st in enumerate(self.y_states)}
        self.alive_y = np.array([y.alive(st) > 0 for st in self.y_states])
        # a defending Y left with only transports loses them, if X can fire.
        lone = [self.x_attacks and y.alive(st) > 0 and y.only(st, ("transport",)) for st in self.y_states]
        self.gone = np.where(np.array(lone, dtype=np.bool_), col_of[n_i, n_k], -1).astype(np.int64)
        # And a defending X left with only transports, or only transports and submarines
        # facing aircraft alone (its transports are the last of its other steps): the
        # row without them, if Y can fire (fire_y) and, beside submarines, fights with
        # aircraft alone (y_air), as BattleSetup._defenceless decides.
        self.shed = np.full(len(self.x_states), -1, dtype=np.int64)
        self.fire_y = np.zeros(len(self.y_states), dtype=np.bool_)
        self.y_air = np.zeros(len(self.y_states), dtype=np.bool_)
        if not self.x_attacks and _has(x, "transport"):
            for r, st in enumerate(self.x_states):
                if x.has(st, "transport") and x.only(st, ("transport", "submarine")):
                    self.shed[r] = self.x_index[state_without(x, st, "transport")]
            self.fire_y[:] = [setup.can_fire(y, st) for st in self.y_states]
            self.y_air[:] = [y.fighting_categories(st) == {CAT_AIR} for st in self.y_states]
        self.u = _dist_table([fire(y, tuple((ybase + by_i[i]).tolist()), False, False)[2] for i in range(n_i + 1)])
        air_states = [tuple((ybase + by_k[k]).tolist()) for k in range(n_k + 1)]
        self.f = _dist_table([fire(y, st, False, False)[1] for st in air_states])
        # Y's strike by i (its submarines are ship steps), when it has submarines (else
        # X's, which the kernels never read there: they take a table either way).
        self.yb = self.b if not self.ys else _dist_table(
            [fire(y, tuple((ybase + by_i[i]).tolist()), True, False)[0] for i in range(n_i + 1)])
        # Where both sides have submarines and X destroyers: while X has one (xd,
        # by p), Y's submarines do not strike but fire with its ships (ud, by i: X has no
        # aircraft, so their hits land as the ships' do).  Elsewhere ud is u.
        self.xd = np.zeros(W, dtype=np.bool_)
        self.ud = self.u
        if self.ys and _has(x, "destroyer"):
            self.xd[:] = [x.has(self.x_states[p], "destroyer") for p in range(W)]
            y_at = [tuple((ybase + by_i[i]).tolist()) for i in range(n_i + 1)]
            # As the general engine adds them where no aircraft is there to spare
            # (GeneralEngine._casualties): the submarines' hits and the ships'.
            self.u, self.ud = _dist_tables(
                [fire(y, st, False, False)[2] for st in y_at],
                [convolve(*fire(y, st, True, False)[0::2]) for st in y_at],
            )
        J, H = self.b[0].shape[1], self.a[0].shape[1]
        # Strikes take ship steps only (A-10.6: never aircraft).
        self.nxt_strike = col_of[np.minimum(self.yi[:, None] + np.arange(J)[None, :], n_i), self.yk[:, None]]
        # General fire takes the steps left in loss order: h hits end at the first place
        # x of the order with h steps left before it (ship steps from i on, aircraft
        # steps from k on), the state then holding those before x taken.
        left = (np.maximum(ships_before[None, :] - self.yi[:, None], 0)
                + np.maximum(air_before[None, :] - self.yk[:, None], 0))  # fmt: skip
        at = np.minimum(_below_each(left, H), len(ysteps))
        i2 = np.maximum(self.yi[:, None], ships_before[at])
        k2 = np.maximum(self.yk[:, None], air_before[at])
        self.nxt_fire = col_of[i2, k2]
        self.air_lost = k2 - self.yk[:, None]
        self.lost_air = _lost_air(y, air_states, int(self.air_lost.max(initial=0)), self.f)
        self.air_units = _air_units(y, air_states)  # (the chances backward's step 4, BACK_SPLIT)
        assert (self.nxt_strike >= 0).all() and (self.nxt_fire >= 0).all()
        # Where Y has a destroyer (A-10.6; by column: its destroyers are ship steps, so up
        # to some i): X's submarines fire with its other units, and all of Y's hits may
        # land on any of X's steps (its aircraft's too, beside a friendly destroyer):
        # Y's ships' and aircraft's dice together (uy), and with its submarines' where
        # they do not strike either, X having a destroyer (uyd: X has no aircraft then,
        # as the general engine adds them, as for ud).  quiet_b: X's submarines sunk by
        # Y's strike there do not strike back.
        self.yd = np.array([y.has(st, "destroyer") for st in self.y_states], dtype=np.bool_)
        none: list[float] = [1.0]
        uy = [fire(y, st, False, True)[2] if dest else none for st, dest in zip(self.y_states, self.yd.tolist())]
        uyd = [convolve(*fire(y, st, True, True)[0::2]) if dest and self.ys and self.xd.any() else none
               for st, dest in zip(self.y_states, self.yd.tolist())]  # fmt: skip
        self.uy, self.uyd = _dist_tables(uy, uyd)
        self.quiet_b = _dist_table([none] * (S + 1))

    def cells(self) -> int:
        """Pairs of states: the size of the kernel's mass tables."""
        return (self.S + 1) * (self.P + 1) * len(self.y_states)

    def solve(self, initial: dict[tuple[State, State], float], tally: Tally[float], back: Arr | None = None,
              *, starts: bool = False) -> int | None:
        """Spread ``initial`` (round-start masses, before the end-of-round rules) to the
        end, recording into ``tally``; the pairs processed, or None (nothing recorded)
        when a starting state is not one of this battle's shape (a second wave's).
        ``back``: where the attacker retreats after a round, as a table (columns x rows),
        instead of the battle's own rules.  ``starts``: ``initial`` are round 1's starts
        (a retreat by win chance acts after a round only, :meth:`_place`)."""
        if back is None:
            back = self._back()
        tables = 4 if self.ys else 3
        ps = None if back is None else self._place(initial, tally, tables=tables, starts=starts)  # None: nothing recorded
        if ps is None or back is None:
            return None
        from engine.odds.aa_strike_kernel import solve  # numba: compiled on first use

        left = (1 << 62) if self.max_states is None else max(self.max_states - self.seen, 0)
        first = ps.copy() if back.size else back
        none = np.zeros((0, 0))
        ends_x, ends_y, rounds, dropped, seen, work = solve(
            *self._args(), ps, back, first, none, none.astype(np.int32), none.astype(np.float32), none, TINY, TINY, left,
            self._budget(), self.yb, self._stage0(ps), self._moved(ps), *self._destroyers(), self.lost_air, *NO_RULE_ENDS,
            NO_MARKS,
        )
        self.work.add(work)  # refused here past the limit
        if seen < 0:
            assert self.max_states is not None
            raise too_many_states(self.max_states)
        self.seen += seen
        self._record(ends_x, ends_y, tally)
        assert tally.rounds is not None
        tally.rounds += rounds
        tally.dropped += dropped
        return self.seen

    def retreat_by_chance(self, initial: dict[tuple[State, State], float], threshold: float, tally: Tally[float]) -> bool:
        """The battle from ``initial`` where the attacker retreats after a round once its
        chance to win by fighting on falls below ``threshold`` (A-10.15; the ruling of
        :mod:`engine.odds.aa_retreat`), recording into ``tally``: the decisions
        (:meth:`decide`), then the solve with them; the visits of pairs whose interval
        straddles the threshold go into the error bound.  False (nothing recorded) when a
        starting state is not one of this battle's shape."""
        got = self.decide(initial, threshold)
        if got is None:
            return False
        back, unsure = got
        traced, self._traced = self._traced, None
        assert traced is not None
        add_x, add_y, retreating = traced.starts_at(back)  # (traced.visits: those starts now)
        if self._corrects(back, retreating):
            solved = self._corrected(initial, tally, back, traced, add_x, add_y)
        else:
            self._spare.append(traced.visits)
            solved = self.solve(initial, tally, back) is not None
        self._spare.clear()
        if not solved:
            return False
        tally.dropped += unsure
        return True

    def _corrects(self, back: Arr, retreating: float) -> bool:
        """Whether the solve with the retreats ``back`` is better made as the traced
        solve's correction (:meth:`_corrected`): little of the battle's mass ever comes to
        a retreat (``retreating``, the round starts there but round 1's, at most
        CORRECTION_MAX, so the correction's pairs are few)."""
        return not back.any() or retreating <= CORRECTION_MAX

    def _corrected(self, initial: dict[tuple[State, State], float], tally: Tally[float], back: Arr,
                   traced: "_Traced", add_x: Arr, add_y: Arr) -> bool:
        """The solve with the retreats ``back`` from the traced solve (no retreat) and a
        correction, recording into ``tally`` (``traced``'s visits made the round starts at
        the retreat pairs but round 1's first, :meth:`_Traced.starts_at`, ``add_x`` and
        ``add_y`` their sums by X row and by Y column): the battle is
        the same as the traced one but where a round ends at a retreat pair.  By linearity (the round starts there
        m, those of round 1 among them i): the retreats' answer is the traced answer,
        plus a retreat of m - i at each such pair, less the answer of a solve with the
        retreats from m - i there, each fighting one round (``first``; what comes back
        to a retreat pair retreats).  That solve meets only the pairs a retreat pair's
        mass reaches: when little mass retreats, few.  The same answer as
        :meth:`solve`'s to rounding; what either solve left out is in the error bound
        (both, as the traced answer's error spreads through the correction as the
        battle's own would), and so is any ending the subtraction leaves below 0
        (rounding: set to 0).  Where a retreat acts before an end-of-round rule that ends
        a pair by name (a shed defender's submarines facing aircraft alone, a dive:
        A-10.6, A-10.7), the traced answer's end there is relabelled a retreat first
        (:func:`engine.odds.aa_strike_kernel.relabel`: the correction's solve, with the
        retreats, ends what it brings there as a retreat already)."""
        from engine.odds.aa_strike_kernel import relabel, solve

        ex, ey = traced.ends_x.copy(), traced.ends_y.copy()
        relabel(self.alive_x, self.alive_y, self.fire_x, self.gone, self.dive, back, self.shed, self.fire_y, self.y_air,
                self.yd, self._rule_rows(), traced.rule_ends, ex, ey, self.x_attacks, self.setup.defender_fought)

        placed = self._place(initial, tally, tables=4 if self.ys else 3)  # the starts settled at once, recorded
        if placed is None:
            return False
        ps = traced.visits
        np.copyto(placed, ps)
        left = (1 << 62) if self.max_states is None else max(self.max_states - self.seen, 0)
        none = np.zeros((0, 0))
        ends_x, ends_y, rounds, dropped = 0.0, 0.0, 0.0, 0.0
        if back.any():  # (no retreat anywhere: the traced answer as it is)
            ends_x, ends_y, rounds, dropped, seen, work = solve(
                *self._args(), ps, back, placed, none, none.astype(np.int32), none.astype(np.float32), none, TINY, TINY,
                left, self._budget(), self.yb, self._stage0(ps), self._moved(ps), *self._destroyers(), self.lost_air,
                *NO_RULE_ENDS, NO_MARKS,
            )
            self.work.add(work)
            if seen < 0:
                assert self.max_states is not None
                raise too_many_states(self.max_states)
        self.seen += traced.seen
        scales = (np.maximum(ex, traced.ends_x), np.maximum(ey, traced.ends_y))
        ex -= ends_x
        ey -= ends_y
        ex[BACK_ROW] += add_x
        ey[BACK_ROW] += add_y
        below = 0.0
        for t, scale, took in zip((ex, ey), scales, (ends_x, ends_y)):
            # Below 0, or a rounding's leftover where the subtraction took something (a
            # stalemate relabelled a retreat, say): 0, in the error bound.
            off = rounding_leftover(t, took, scale)
            below = max(below, float(np.abs(t[off]).sum()))
            t[off] = 0.0
        self._record(ex, ey, tally)
        assert tally.rounds is not None
        tally.rounds += max(traced.rounds - rounds, 0.0)
        tally.dropped += traced.dropped + dropped + below
        return True

    def decide(self, initial: dict[tuple[State, State], float], threshold: float) -> tuple[Arr, float] | None:
        """Where the attacker retreats once its chance to win by fighting on to the end
        falls below ``threshold``, from the round-start masses ``initial`` (the ruling of
        :mod:`engine.odds.aa_retreat`, decided as there from an interval): a traced solve
        (each pair's round starts), the chances backward (:func:`engine.odds.
        aa_strike_kernel.chances`, which count a retreat below K units as the battle's
        rule: never a win), the decisions.  ``(the retreat table (columns x rows), with
        that rule's pairs too; the visits of the pairs whose interval straddles the
        threshold)``, or None when a starting state is not one of this battle's shape."""
        from engine.odds.aa_strike_kernel import chances, solve, verdicts

        rule = self._back()  # a retreat below K units: it acts too, and the chances know it
        if rule is None:
            return None
        ps = self._place(initial, Tally.empty(1.0), tables=7 if self.ys else 4)
        if ps is None:
            return None
        visits = compiled.sparse_zeros(ps.shape)
        tagb = compiled.sparse_zeros(ps.shape[::-1], np.int32)  # rows x columns
        reach = compiled.sparse_zeros(ps.shape[::-1], np.float32)  # rows x columns, as tagb: read along a row
        # The rungs steps 1-3 spread over at each pair (rows x columns x step), for the
        # chances backward to pull over the same outcomes.
        marks = compiled.sparse_zeros((*ps.shape[::-1], 3), np.int8)
        none = np.zeros((0, 0), dtype=np.bool_)
        left = (1 << 62) if self.max_states is None else max(self.max_states - self.seen, 0)
        gvis = np.zeros((max(self.q, 1), ps.shape[0]))
        z0, moved = self._stage0(ps), self._moved(ps)
        start = self.placed_at  # round 1's starts (the solve changes ps)
        start_m = ps.reshape(-1)[start]
        split = self.traced_split()
        # What a rule ends by name at the rows where it may act, kept for _corrected.
        frows = self._rule_rows()
        frow = np.full(self.shed.shape[0], -1, dtype=np.int64)
        frow[frows] = np.arange(frows.size)
        rule_ends = np.zeros((frows.size, ps.shape[0]))
        ends_x, ends_y, rounds, dropped, seen, work = solve(
            *self._args(), ps, none, none, visits, tagb, reach, gvis, TINY, CHANCE_LEAST, left, self._budget(), self.yb,
            z0, moved,
            *self._destroyers(), split, frow, rule_ends, marks,
        )
        self._spare += [t for t in (ps, z0, *moved) if t.size]  # for the chances backward
        del ps, z0, moved
        self.work.add(work)
        if seen < 0:
            assert self.max_states is not None
            raise too_many_states(self.max_states)
        values = self._values(visits)
        low, high, work = chances(*self._args(), tagb, reach, gvis, visits, rule, TINY, self._budget(), self.yb, self.ys,
                                  values, *self._destroyers(), split, marks)  # fmt: skip
        self.work.add(work)
        back, unsure = verdicts(low, high, visits, *retreat_band(threshold))
        if threshold > 0.0:
            # A round that leaves a defending X only submarines (its transports lost,
            # ) facing aircraft alone ends where nothing can hit: a chance of 0 to
            # win, so the attacker retreats there (as the numpy passes decide it, after
            # that rule, BattleSetup.settle); such a pair is never a round start that the
            # traced solve met, so it is decided here (_fights reads it at the row left).
            # Not where X is destroyed, nor where its submarines submerge (A-10.6: the
            # end-of-round rules submerge them before a retreat by win chance is asked).
            shed_rows = self.shed[self.shed >= 0]
            shed_rows = shed_rows[self.alive_x[shed_rows] & ~self.dive[shed_rows]]
            if shed_rows.size:
                back[np.ix_(np.flatnonzero(self.y_air & self.fire_y), shed_rows)] = True
        if rule.size:
            back |= rule
        self._spare += list(values)  # for the solve with the retreats
        self._traced = _Traced(ends_x, ends_y, rounds, dropped, seen, start, start_m, visits, rule_ends)
        return back, float(unsure)

    def _rule_rows(self) -> Arr:
        """X's rows where an end-of-round rule may end a pair by name, which a retreat
        acts before (a shed defender's submarines facing aircraft alone, a dive: A-10.6,
        A-10.7): the rows of the traced solve's ``rule_ends``."""
        return np.flatnonzero((self.shed >= 0) | self.dive)

    def traced_split(self) -> tuple[Arr, ...]:
        """The step 4 split of :meth:`decide`'s traced solve, which the chances backward
        follows (:func:`_traced_air`)."""
        return _traced_air(self.air_units, int(self.air_lost.max(initial=0)), self.f)

    def walk(self, initial: dict[tuple[State, State], float], rounds: int, tally: Tally[float], *,
             starts: bool = False, strafe: bool = False) -> bool:
        """``rounds`` rounds from ``initial`` (as :meth:`solve`), recording into ``tally``;
        whatever still fights after the last one is unfinished (with its pairs when
        ``tally.pairs`` is a dict: a second wave joins them).  False (nothing recorded)
        when a starting state is not one of this battle's shape.  ``strafe``: what
        still fights after the last round retreats (A-10.15; the caller relabels it):
        the last round may then count the pairs the retreat rule takes back as still
        fighting (a retreat either way, the same states)."""
        back = self._back()
        ps = None if back is None else self._place(initial, tally, tables=5 if self.ys else 4, starts=starts)
        if ps is None or back is None:  # nothing recorded
            return False
        from engine.odds.aa_strike_kernel import walk  # numba: compiled on first use

        # Where no second wave joins the pairs still fighting (no dict of pairs to fill),
        # each side's share of them is enough: the kernel adds up some of them so
        # (``left_x``, ``left_y``), the others it leaves in ``ps`` as before.
        apart = not isinstance(tally.pairs, dict)
        ends_x, ends_y, fought, dropped, work, left_x, left_y = walk(
            *self._args(), ps, back, rounds, TINY, self._budget(), self.yb, self._stage0(ps),
            self._moved(ps, nxt=True), *self._destroyers(), apart, strafe)  # fmt: skip
        self.work.add(work)
        self._record(ends_x, ends_y, tally)
        # What still fights after the last round: unfinished.
        cols, rows = np.nonzero(ps)
        m = ps[cols, rows]
        tally.outcome[UNFINISHED] += float(m.sum()) + float(left_x.sum())
        x_sums = np.bincount(rows, m, minlength=ps.shape[1]) + left_x
        y_sums = np.bincount(cols, m, minlength=ps.shape[0]) + left_y
        att, dfn = (x_sums, y_sums) if self.x_attacks else (y_sums, x_sums)
        self._add_ends(att, dfn, tally)
        if isinstance(tally.pairs, dict):
            for c, r, w in zip(cols.tolist(), rows.tolist(), m.tolist()):
                pair = (self.x_states[r], self.y_states[c]) if self.x_attacks else (self.y_states[c], self.x_states[r])
                tally.pairs[pair] = tally.pairs.get(pair, 0.0) + w
        assert tally.rounds is not None
        tally.rounds += fought
        tally.dropped += dropped
        return True

    def _place(self, initial: dict[tuple[State, State], float], tally: Tally[float], tables: int,
               starts: bool = False) -> Arr | None:
        """The round-start mass table (columns x rows) of ``initial`` once the end-of-round
        rules acted (the pairs they settle recorded into ``tally``; for round 1's
        ``starts`` the rules before a round: no retreat), or None (nothing recorded) when a
        state is not one of this battle's shape; the cells it wrote, as flat indices in
        order, in ``placed_at`` (no scan of the table for them).  Checked first: the
        limit on the kernel's ``tables`` mass tables of that size (8 bytes a cell)."""
        setup = self.setup
        ps = self._table((len(self.y_states), (self.S + 1) * (self.P + 1)))
        settled: list[tuple[str, State, State, float]] = []
        at: set[int] = set()
        for (a, d), m in initial.items():
            outcome, a3, d3 = setup.settle(a, d, after_round=not starts)
            if outcome is not None:
                settled.append((outcome, a3, d3, m))
                continue
            xs, ys = (a3, d3) if self.x_attacks else (d3, a3)
            r, c = self.x_index.get(xs), self.y_index.get(ys)
            if r is None or c is None:
                return None
            ps[c, r] += m
            at.add(c * ps.shape[1] + r)
        self.placed_at = np.array(sorted(at), dtype=np.int64)
        cap = self.work.naval_table
        if cap is not None and tables * self.cells() > cap:
            raise too_big_naval_table(tables * self.cells(), cap)
        for outcome, a3, d3, m in settled:
            tally.record(outcome, a3, d3, m, setup.takes(a3))
        return ps

    def _back(self) -> Arr | None:
        """Where the attacker retreats after a round (A-10.15), as a table (columns x
        rows; empty when it never does): fewer than ``retreat_below`` units left, or a
        pair of ``retreat_at`` (a retreat by win chance).  None when such a pair is not
        one of this battle's shape."""
        setup = self.setup
        if not setup.retreat_below and not setup.retreat_at:
            return np.zeros((0, 0), dtype=np.bool_)
        back = np.zeros((len(self.y_states), (self.S + 1) * (self.P + 1)), dtype=np.bool_)
        if setup.retreat_below:
            x_alive = np.array([self.x.alive(st) for st in self.x_states])
            y_alive = np.array([self.y.alive(st) for st in self.y_states])
            if self.x_attacks:
                back |= (x_alive < setup.retreat_below)[None, :]
            else:
                back |= (y_alive < setup.retreat_below)[:, None]
        at = setup.retreat_at
        if isinstance(at, Decided) and at.sides[0] is setup.attacker and at.sides[1] is setup.defender:
            back |= at.table  # this pass's own decisions, numbered as here
            return back
        for a, d in at or ():
            xs, ys = (a, d) if self.x_attacks else (d, a)
            r, c = self.x_index.get(xs), self.y_index.get(ys)
            if r is None or c is None:
                return None
            back[c, r] = True
        return back

    def _args(self) -> tuple[int, int, int, bool, bool, Arr, Arr, Arr, Arr, Arr, Arr, Arr, int, Arr, Arr, Arr, Arr,
                             Arr, Arr, Arr, Arr, Arr, Arr, Arr, Arr]:
        """What :func:`engine.odds.aa_strike_kernel.solve` and ``walk`` take first: the
        shapes, the states' flags and positions, where hits take Y, the distributions."""
        return (self.S, self.P, self.q, self.x_attacks, self.setup.defender_fought, self.alive_x, self.alive_y,
                self.fire_x, self.gone, self.dive, self.yi, self.yk, self.n_i, self.nxt_strike, self.nxt_fire,
                self.air_lost,
                self.b, self.a, self.u, self.f, self.shed, self.fire_y, self.y_air, self.ud, self.xd)  # fmt: skip

    def _destroyers(self) -> tuple[Arr, Any, Any, Any]:
        """What :func:`engine.odds.aa_strike_kernel.solve` takes last: where Y has a
        destroyer and its hits there (``yd``, ``uy``, ``uyd``, ``quiet_b``)."""
        return self.yd, self.uy, self.uyd, self.quiet_b

    def _stage0(self, ps: Arr) -> Arr:
        """The kernels' table of the masses after step 0 (both sides strike), shaped as
        ``ps``; empty where only X strikes (the kernels then have no step 0)."""
        return self._table(ps.shape) if self.ys else np.zeros((0, 0))

    def _moved(self, ps: Arr, nxt: bool = False) -> tuple[Arr, ...]:
        """The kernels' tables of step 2's results, zeros (``moved`` of :func:`engine.odds.
        aa_strike_kernel.solve`; with ``nxt``, ``walk``'s, with its next round's starts
        shaped as ``ps``), made here (:meth:`_table`)."""
        W, nd = self.P + 1, ps.shape[0]
        moved = (self._table((W, nd, self.S + 1)), self._table((W, W, nd)))
        return (*moved, self._table(ps.shape)) if nxt else moved

    def _values(self, ps: Arr) -> tuple[Arr, ...]:
        """:func:`engine.odds.aa_strike_kernel.chances`' tables of values, each [0, 1]
        (anything) to start with (:meth:`_table`): the highs, filled with 1, asked for
        first, so that they are the spares refilled and the lows the new zeros."""
        W, nd = self.P + 1, ps.shape[0]
        shapes = (ps.shape, (W, nd, self.S + 1), (nd, W, W), ps.shape if self.ys else (1, 1))
        hi_s, qo_hi, qt_hi, zv_hi = [self._table(shape, 1.0) for shape in shapes]
        lo_s, qo_lo, qt_lo, zv_lo = [self._table(shape) for shape in shapes]
        return lo_s, hi_s, qo_lo, qo_hi, qt_lo, qt_hi, zv_lo, zv_hi

    def _table(self, shape: tuple[int, ...], fill: float = 0.0) -> Arr:
        """A table of floats of ``shape``, every cell ``fill``.  One of ``fill`` 1.0 is
        one of the tables an earlier pass of this solver is done with, of as many cells,
        where there is one (a retreat by win chance: the traced solve's for the chances
        backward, the backward's for the solve with the retreats), refilled: its pages
        are touched already (~5 ms a table against ~10-90 ms for the system to clear a
        new one's, 2026-12-03).  One of zeros is new, backed by small pages
        (:func:`engine.odds.compiled.sparse_zeros`; a spare of its size is let go first,
        not to add to the memory at the peak): the passes touch few of its pages, and
        refilling a spare touched them all; numpy's huge pages are cleared whole on
        first touch.  The defender-strike retreat by win chance at 40 % ~2.7-3.2 ->
        ~2.0-2.1 s (first runs in fresh processes, 2026-12-05)."""
        n = int(np.prod(shape))
        for at, old in enumerate(self._spare):
            if old.size == n:
                del self._spare[at]
                if fill == 0.0:
                    del old  # its memory goes back before the new table's is asked for
                    break
                table = old.reshape(shape)
                table.fill(fill)
                return table
        return compiled.sparse_zeros(shape) if fill == 0.0 else np.full(shape, fill)

    def _budget(self) -> int:
        """The products the kernel may make before the work limit refuses the battle."""
        w = self.work
        return (1 << 62) if w.limit is None else max(w.limit - w.done, 0)

    def _record(self, ends_x: Arr, ends_y: Arr, tally: Tally[float]) -> None:
        """The kernel's final masses (by outcome, and X row or Y column) into ``tally``;
        X's submarines submerged (A-10.6) are a retreat when X attacks, else X lost, its
        state recorded with them submerged."""
        setup = self.setup
        dived = ATTACKER if not self.x_attacks else RETREAT
        for o, outcome in enumerate((*OUTCOME_ROWS, dived)):
            tally.outcome[outcome] += float(ends_x[o].sum())
        att_ends, dfn_ends = (ends_x, ends_y) if self.x_attacks else (ends_y, ends_x)
        att_states = self.x_states if self.x_attacks else self.y_states
        won = att_ends[OUTCOME_ROWS.index(ATTACKER)] + (0.0 if self.x_attacks else att_ends[DIVE])
        if tally.takes is not None:
            for n in np.flatnonzero(won).tolist():
                if setup.takes(att_states[n]):
                    tally.takes += float(won[n])
        x_rest, x_dived = ends_x[:DIVE].sum(axis=0), ends_x[DIVE]
        y_sums = ends_y.sum(axis=0)
        self._add_ends(*((x_rest, y_sums) if self.x_attacks else (y_sums, x_rest)), tally)
        into = tally.attacker_end if self.x_attacks else tally.defender_end
        for n in np.flatnonzero(x_dived).tolist():
            st = self.x.submerge_all(self.x_states[n])
            into[st] = into.get(st, 0.0) + float(x_dived[n])

    def _add_ends(self, att_sums: Arr, dfn_sums: Arr, tally: Tally[float]) -> None:
        """Final masses by attacker state and by defender state into ``tally``."""
        att_states, dfn_states = (self.x_states, self.y_states) if self.x_attacks else (self.y_states, self.x_states)
        for sums, states, into in ((att_sums, att_states, tally.attacker_end),
                                   (dfn_sums, dfn_states, tally.defender_end)):  # fmt: skip
            for n in np.flatnonzero(sums).tolist():
                st = states[n]
                into[st] = into.get(st, 0.0) + float(sums[n])


def _round_1(setup: BattleSetup[float], tally: Tally[float]) -> dict[tuple[State, State], float] | None:
    """Where round 1 starts (the starts the end-of-round rules settle at once recorded
    into ``tally``) when the battle is one of this module's and round 1 is like any
    other (:meth:`GeneralEngine.plain_starts`); None otherwise (nothing recorded)."""
    if not ENABLED or not applies(setup):
        return None
    engine = GeneralEngine(setup)
    return engine.plain_pairs(tally) if engine.plain_starts() else None


def retreat_pairs(
    setup: BattleSetup[float], threshold: float, max_states: int | None = None, work: Work | None = None
) -> tuple[Decided, float] | None:
    """The pairs (attacker state, defender state) after a round from which the attacker
    retreats by win chance (:meth:`StrikeSolver.decide`, from round 1 like any other),
    and the bound on what the decisions left open could change, when the battle is one
    of this module's; None otherwise.  For a battle with a round limit: the rule then
    acts through :attr:`BattleSetup.retreat_at` (as :func:`engine.odds.aa_retreat.
    retreat_pairs`' do), and the round walk takes it."""
    after = _round_1(setup, Tally.empty(1.0))
    if after is None:
        return None
    solver = StrikeSolver(setup, max_states, work=work)
    got = solver.decide(after, threshold)
    solver._traced = None  # only the solve with the retreats reads it
    if got is None:
        return None
    back, unsure = got
    return Decided(back, (setup.attacker, setup.defender), solver), unsure


def retreat_by_chance(
    setup: BattleSetup[float], threshold: float, max_states: int | None = None, work: Work | None = None
) -> Tally[float] | None:
    """The whole battle with a retreat by win chance (:meth:`StrikeSolver.
    retreat_by_chance`) when it is one of this module's, fought to the end with round 1
    like any other; None otherwise."""
    tally: Tally[float] = Tally.empty(1.0)
    after = _round_1(setup, tally)
    if after is None or not StrikeSolver(setup, max_states, work=work).retreat_by_chance(after, threshold, tally):
        return None
    return tally.add_drift()
