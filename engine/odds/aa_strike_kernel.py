"""The compiled loops of :mod:`engine.odds.aa_strike` (numba), over every pair of states
of a sea battle where one side's submarines strike every round: the battle fought to
the end (:func:`solve`), for a number of rounds (:func:`walk`), and the attacker's
chance to win from each pair, backward (:func:`chances`).

Only arrays and numbers come in and go out; what they mean is set out in
:mod:`engine.odds.aa_strike`.  The loop is compiled once per machine (numba's cache,
beside this file or in ``NUMBA_CACHE_DIR``) and releases the GIL while it runs; its
helpers are put into the loops that call them (:func:`engine.odds.compiled.borrowing`).

Names: X is the side whose submarines strike (rows ``r`` = (s submarines, p of its
other steps taken), ``r = (S - s) * (P + 1) + p``), Y the other side (columns ``d``,
its states from the most hit points to the fewest).  A round from S(r, d) (a round
starts) goes through four phases, each a move of one side by one kind of hits:

1. X's strike moves Y along its steps that are not aircraft: S(r, d) -> G(r, d1);
2. Y's unrestricted hits (its ships' dice at d1) move X: G(r, d1) -> X1(r', d1)
   (submarines first; past them along X's other steps, then tagged with where X's
   other steps stood, since X's dice are those it had);
3. X's general hits (its dice at p) move Y along its whole loss order:
   X1(r', d1) -> X2(r', d2), tagged with the aircraft Y lost (Y's aircraft at d1 roll
   in step 4);
4. Y's aircraft hits move X along its other steps (never its submarines, A-10.14):
   X2(r', d2) -> S(r'', d2).

The four are independent given the states at the start of the round (A-10.4, A-10.6),
so chaining them gives the round's distribution.  Where Y has submarines too (then X
has no aircraft), step 0 comes first: Y's strike moves X along its steps and the
submarines of X it sinks strike back at once, moving Y along its non-aircraft steps
(:func:`_y_strike`); step 1 is then the strike of X's submarines left.  Every move
except "no hit" goes to a later row or a later column, so :func:`solve` meets each pair
once, in row order then column order, and sums its "nobody is hit" loop in closed form;
:func:`walk` takes a number of rounds instead, every pair each round.

A distribution comes as a tuple ``(table, first, last, cut, mode, cum)`` (see
:func:`engine.odds.aa_strike._dist_table`): ``b`` X's strike by submarines left, ``a``
X's general fire by p, ``u`` Y's unrestricted fire by ``yi`` (its steps that are not
aircraft taken), ``f`` Y's aircraft fire by ``yk`` (its aircraft steps taken).
``nxt_strike[d, j]`` and ``nxt_fire[d, h]`` are where j strike hits and h general hits
take Y, ``air_lost[d, h]`` the aircraft the latter cost it.  Rows with ``p < q`` (X's
steps before its submarines not all taken; then ``s == S``) move X by both kinds of
Y's hits at once (A-10.14: the aircraft's hits take the first of those steps, the
others what is left).  Products below ``tiny`` are left out, their mass counted (steps
1-4 spread over a *rung*, which may keep a few between ``tiny`` / 2 and ``tiny``:
:func:`span_ladder`), and so are the masses of the pairs holding less than ``tiny``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.odds.compiled import borrowing as _borrowing
from engine.odds.compiled import compiled as _compiled
from engine.odds.compiled import prefetcher as _prefetcher

# Outcome rows of the end tables.
ATT, DEF, DRAW, STALE, BACK, DIVE = 0, 1, 2, 3, 4, 5  # the attacker retreated; X's submarines submerged
# The sweeps of solve and walk read a row's round starts a column apart (ps[d, r]: a
# row's length, another page each): asked for this many columns ahead.
SWEEP_AHEAD = 16
# The chances backward asks for the values step 4 will read this many columns ahead, at
# most PULL_SPAN of them (a pair's later rows).
CHANCE_AHEAD = 4
PULL_SPAN = 40
_prefetch: Any = _prefetcher()


@_borrowing
def _outcome(ax: bool, ay: bool, x_attacks: bool, defender_fought: bool) -> int:
    att = ax if x_attacks else ay
    dfn = ay if x_attacks else ax
    if att and not dfn:
        return ATT
    if dfn or not defender_fought:
        return DEF
    return DRAW


@_borrowing
def _end_value(code: int, ax: bool, ay: bool, x_attacks: bool, defender_fought: bool) -> float:
    """The attacker's chance to win at a pair the end-of-round rules end (``code`` as
    :func:`_fights` gives it; ``ax``, ``ay``: who is left where it is recorded): X's
    submarines submerged are the attacker's retreat, or the defender's loss; a
    stalemate or a retreat never wins; else who is left."""
    if code == DIVE:
        return 0.0 if x_attacks else 1.0
    if code >= 0:
        return 0.0
    return 1.0 if _outcome(ax, ay, x_attacks, defender_fought) == ATT else 0.0


@_borrowing
def _fights(ax: bool, ay: bool, r: int, d: int, fire_x: Any, gone: Any, dive: Any, back: Any, shed: Any,
            fire_y: Any, y_air: Any, alive_x: Any, yd: Any) -> tuple[bool, bool, int, int, int]:
    """The end-of-round rules at (row r, column d): ``(whether it still fights, whether
    Y is still there, the row and the column its end is recorded at, the outcome where
    a rule decides it: DIVE, STALE or BACK, else -1: from who is left)``, in the order of
    :meth:`engine.odds.aa_battle.BattleSetup.settle`: a side destroyed; A-10.7, a
    defender left with only transports loses them when the attacker can still fire
    (``gone[d]``: Y's column without them, -1 where the rule cannot act; ``fire_x[r]``:
    X can fire), and so does a defending X left with only transports, or only
    transports and submarines facing aircraft alone (``shed[r]``: X's row without them,
    -1 where the rule cannot act; ``fire_y[d]``: Y can fire; ``y_air[d]``: Y fights with
    aircraft alone; X then keeps submarines no hit of Y can reach, nor its submarines
    Y: a stalemate, unless the retreat rule or a dive acts first); A-10.15, a retreat
    rule (``back``, empty for none); A-10.6, X's submarines alone submerge when asked
    (``dive[r]``) and Y has no destroyer there (``yd[d]``)."""
    if ay and gone[d] >= 0 and fire_x[r]:
        return False, False, r, gone[d], -1
    live = ax and ay
    flagged = back.shape[0] > 0
    if live and shed[r] >= 0 and fire_y[d]:
        r2 = shed[r]
        if not alive_x[r2]:  # only transports: lost, X destroyed
            return False, True, r2, d, -1
        if y_air[d]:
            if flagged and (back[d, r] or back[d, r2]):
                return False, True, r2, d, BACK
            return False, True, r2, d, DIVE if dive[r2] else STALE
    if live and dive[r] and not yd[d] and not (flagged and back[d, r]):
        return False, ay, r, d, DIVE
    return live, ay, r, d, -1


@_compiled
def relabel(alive_x: Any, alive_y: Any, fire_x: Any, gone: Any, dive: Any, back: Any, shed: Any, fire_y: Any,
            y_air: Any, yd: Any, frows: Any, rule_ends: Any, ends_x: Any, ends_y: Any, x_attacks: bool,
            defender_fought: bool) -> float:
    """Move, in the final masses ``ends_x``/``ends_y`` (changed), what a traced solve
    (no retreat) ended by an end-of-round rule at the pairs of rows ``frows``
    (``rule_ends[j, column]``: the mass that ended at row ``frows[j]``) to the end the same
    rules make of it with the retreat table ``back`` (columns x rows): a shed
    defender's submarines facing aircraft alone, or submarines that submerge, where the
    attacker retreats first (A-10.6, A-10.7, A-10.15).  Such a pair ends either way and
    the masses passing through it move on alike, so only the label changes: a dive
    or a stalemate becomes a retreat, recorded where the solve with the retreats
    records it: a pair the rules end without ``back`` fights on with it only where the
    retreat rule skips a dive, at a retreat pair (:func:`_fights`), and a round start
    there retreats.  The mass moved."""
    none = np.zeros((0, 0), dtype=np.bool_)
    moved = 0.0
    for j in range(frows.shape[0]):
        r = frows[j]
        for d in range(rule_ends.shape[1]):
            m = rule_ends[j, d]
            if m == 0.0:
                continue
            l1, y1, r1, d1, c1 = _fights(alive_x[r], alive_y[d], r, d, fire_x, gone, dive, back, shed, fire_y, y_air,
                                         alive_x, yd)
            l0, y0, r0, d0, c0 = _fights(alive_x[r], alive_y[d], r, d, fire_x, gone, dive, none, shed, fire_y, y_air,
                                         alive_x, yd)
            if l1 == l0 and y1 == y0 and r1 == r0 and d1 == d0 and c1 == c0:
                continue
            o0 = c0 if c0 >= 0 else _outcome(alive_x[r0], y0, x_attacks, defender_fought)
            if l1:  # (a dive at a retreat pair: its round start retreats)
                o1, r1, d1 = BACK, r, d
            else:
                o1 = c1 if c1 >= 0 else _outcome(alive_x[r1], y1, x_attacks, defender_fought)
            ends_x[o0, r0] -= m
            ends_y[o0, d0] -= m
            ends_x[o1, r1] += m
            ends_y[o1, d1] += m
            moved += m
    return moved


@_borrowing
def _span(dist: Any, mode: Any, cum: Any, row: int, m: float, tiny: float) -> tuple[int, int, float]:
    """The outcomes from 1 on of distribution ``dist[row]`` whose products with a mass
    ``m`` are at least ``tiny``, ``(first, last, chance of the others from 1 on)``:
    found from the row's mode outwards (every distribution here is a convolution of
    binomials: unimodal); ``cum[row, x]`` is the chance below ``x``.  Index 0 (nothing
    hit) is a stay, read apart."""
    end = dist.shape[1]
    c = max(mode[row], 1)
    if c >= end or m * dist[row, c] < tiny:
        return 1, 0, cum[row, end] - cum[row, 1]
    hi = c
    while hi + 1 < end and m * dist[row, hi + 1] >= tiny:
        hi += 1
    lo = c
    while lo > 1 and m * dist[row, lo - 1] >= tiny:
        lo -= 1
    return lo, hi, max(0.0, (cum[row, lo] - cum[row, 1]) + (cum[row, end] - cum[row, hi + 1]))


@_borrowing
def _span_out(cum: Any, row: int, lo: int, hi: int) -> float:
    """:func:`_span`'s chance of the outcomes from 1 on left out, for its ``(lo, hi)``."""
    end = cum.shape[1] - 1
    out: float = cum[row, end] - cum[row, 1]
    if hi >= lo:
        out = max(0.0, (cum[row, lo] - cum[row, 1]) + (cum[row, end] - cum[row, hi + 1]))
    return out


# Steps 1-4 spread a mass over the outcomes of a *rung*: the span (:func:`_span`) of the
# least power of two above the mass (rung j >= 1: the span of 2^(1 - j); rung 0: every
# outcome not 0, for a mass of 1 or more), from the tables of :func:`span_ladder`.  A
# rung holds every outcome the mass's own span holds, and at most the few more whose
# products lie between tiny / 2 and tiny (more exact, not less): no walk out from the
# mode, whose stops the processor cannot foresee, no test per product, and step 4's
# products in one vectorised run (~1/5 off the strike battle against 85 aircraft, late
# on 2026-12-04).
LADDER = 65  # rungs 0 to LADDER: the last one's mass, 2^-64, is below TINY (it is empty)


@_compiled
def span_ladder(dist: Any, tiny: float) -> tuple[Any, Any, Any]:
    """The rungs of a distribution table ``dist`` (:func:`engine.odds.aa_strike.
    _dist_table`'s tuple): ``(firsts, lasts, left)`` by ``[row, j]``, ``(1, 0)`` for
    none, ``left`` the chance of the outcomes from 1 on that a rung leaves out with the
    dice outcomes cut (what a spread over it drops, per unit of mass)."""
    table, lo, hi, cut, mode, cum = dist
    rows = table.shape[0]
    firsts = np.ones((rows, LADDER + 1), dtype=np.int64)
    lasts = np.zeros((rows, LADDER + 1), dtype=np.int64)
    left = np.zeros((rows, LADDER + 1))
    for kk in range(rows):
        if hi[kk] >= 1:
            firsts[kk, 0], lasts[kk, 0] = max(lo[kk], 1), hi[kk]
        for j in range(1, LADDER + 1):
            f0, f1, _ = _span(table, mode, cum, kk, 2.0 ** (1 - j), tiny)
            firsts[kk, j], lasts[kk, j] = f0, f1
        for j in range(LADDER + 1):
            left[kk, j] = cut[kk] + _span_out(cum, kk, firsts[kk, j], lasts[kk, j])
    return firsts, lasts, left


@_compiled
def rung_bits() -> tuple[Any, Any]:
    """A number and its bits, one memory cell seen as a float and as an integer, for
    :func:`_rung` to read a mass's exponent (``math.frexp`` is a call into the C
    library there: ~4 ns against ~0.5)."""
    cell = np.zeros(1)
    return cell, cell.view(np.int64)


@_compiled
def _ladders(f: Any, b: Any, a: Any, u: Any, ud: Any, tiny: float) -> tuple[Any, ...]:
    """What :func:`solve` and :func:`walk` spread by: the rungs of Y's aircraft fire,
    X's strike, X's general fire, Y's unrestricted fire with and without its submarines'
    dice (:func:`span_ladder`), and the cell :func:`_rung` reads exponents through."""
    return (span_ladder(f, tiny), span_ladder(b, tiny), span_ladder(a, tiny), span_ladder(u, tiny),
            span_ladder(ud, tiny), rung_bits())


@_borrowing
def _rung(ladder: Any, kk: int, m: float, bits: Any) -> tuple[int, int, float]:
    """Row ``kk``'s rung for a mass ``m`` (:func:`span_ladder`), ``(first, last, left)``:
    the one of the least power of two above it, 2^e (``m < 2^e``, e as ``math.frexp``
    gives it, from the exponent's bits, ``bits``: :func:`rung_bits`), rung ``1 - e``;
    none for no mass (all left out)."""
    return _rung_of(ladder, kk, _rung_at(m, bits))


@_borrowing
def _rung_at(m: float, bits: Any) -> int:
    """Which rung :func:`_rung` takes for a mass ``m``: 1 - e for the least power of two
    above it, 2^e (``m = (1 + f) 2^(e - 1)``, e read from the exponent's bits); -1 for
    no mass."""
    if m <= 0.0:
        return -1
    bits[0][0] = m
    j: int = min(max(1023 - ((bits[1][0] >> 52) & 0x7FF), 0), LADDER)
    return j


@_borrowing
def _rung_of(ladder: Any, kk: int, j: int) -> tuple[int, int, float]:
    """Row ``kk``'s rung ``j`` (:func:`span_ladder`), ``(first, last, left)``; for j < 0
    none: every outcome from 1 on left out, whatever the ladder's last rung holds."""
    if j < 0:
        return 1, 0, ladder[2][kk, LADDER]
    return ladder[0][kk, j], ladder[1][kk, j], ladder[2][kk, j]


@_borrowing
def _noted_rung(ladder: Any, kk: int, m: float, bits: Any, marks: Any, r: int, d: int,
                step: int) -> tuple[int, int, float]:
    """:func:`_rung`, noted where a traced solve gives ``marks`` (rows x columns x step;
    else empty): which rung step ``step`` (0: X's strike, 1: Y's unrestricted hits, 2:
    X's general fire) spread a mass over at (row r, column d), plus one (0: none spread
    there), for :func:`chances` to pull over the same outcomes (:func:`_marked`)."""
    j = _rung_at(m, bits)
    if marks.shape[0] > 0:
        marks[r, d, step] = j + 1
    return _rung_of(ladder, kk, j)


@_borrowing
def _marked(ladder: Any, kk: int, marks: Any, r: int, d: int, step: int, cut: float, lo: int,
            hi: int) -> tuple[int, int, float]:
    """The outcomes :func:`chances` pulls step ``step`` over at (row r, column d), row
    ``kk`` of its distribution: the rung the traced solve noted there
    (:func:`_noted_rung`; none noted: none spread, every outcome left out), or, with no
    notes, every outcome from ``lo`` to ``hi`` (``cut`` left out).  ``(first, last,
    chance left out)``."""
    if marks.shape[0] == 0:
        return lo, hi, cut
    return _rung_of(ladder, kk, marks[r, d, step] - 1)


@_borrowing
def _add_run(into: Any, table: Any, kk: int, m: float, lo: int, hi: int) -> None:
    """``into[x] += m * table[kk, x]`` for x from ``lo`` to ``hi`` (``hi >= lo``), by
    indices without sign: numba checks a signed index for wrapping around, which keeps
    the loop one number at a time (~3x slower)."""
    row = table[kk]
    base = np.uint64(lo)
    for x in range(np.uint64(hi - lo + 1)):
        into[base + x] += m * row[base + x]


@_borrowing
def _stays(s: int, p: int, i: int, k: int, ax: bool, ay: bool, n_i: int, P: int, b: Any, a: Any, u: Any,
           f: Any) -> tuple[float, float, float, float]:
    """The chances that each of a round's four steps leaves the pair (row of (s, p),
    column of (i, k)) as it is: X's strike (none with no submarine, or no ship of Y's
    to hit), Y's unrestricted hits (none on a side destroyed), X's fire (none on a side
    destroyed) and Y's aircraft hits (none with none of X's other steps left)."""
    sig0 = 1.0 if (i >= n_i or s == 0) else b[0][s, 0]
    u0 = 1.0 if not ax else u[0][i, 0]
    a0 = 1.0 if not ay else a[0][p, 0]
    f00 = 1.0 if p == P else f[0][k, 0]
    return sig0, u0, a0, f00


@_borrowing
def land(S: int, P: int, q: int, s: int, p: int, u: int, f: int) -> tuple[int, int]:
    """Where ``u`` unrestricted hits and ``f`` aircraft hits take X at (s, p) (A-10.14,
    :meth:`engine.odds.aa_side.Side.take_hits`): the aircraft's hits take X's first
    other steps (they may not take submarines); then the unrestricted hits the first
    steps left, the ones before the submarines (``q`` of its other steps come first:
    battleships' first hits), the submarines, then the other steps again.  Hits past
    the last step are lost."""
    p1 = min(P, p + f)
    u_pre = min(u, max(0, q - p1))
    u_sub = min(u - u_pre, s)
    return s - u_sub, min(P, p1 + u - u_sub)


@_borrowing
def unrestricted(P: int, s: int, p: int, u: int) -> tuple[int, int]:
    """:func:`land` with no aircraft hits, from a row past the steps before the
    submarines (``p >= q``): the submarines first, then the other steps."""
    if u <= s:
        return s - u, p
    return 0, min(P, p + u - s)


@_borrowing
def aircraft(P: int, p: int, f: int) -> int:
    """:func:`land` with aircraft hits only: the first other steps left.  From a row past
    the steps before the submarines, ``land(s, p, u, f)`` is ``unrestricted`` then
    ``aircraft`` (either order)."""
    return min(P, p + f)


@_borrowing
def _strike(m: float, s: int, d: int, into: Any, b: Any, b_lad: Any, nxt_strike: Any, bits: Any, marks: Any,
            r: int) -> tuple[float, int]:
    """Step 1 from mass ``m`` at (row r, column d): X's strike hits (at least one, the
    rung of ``m``, noted in ``marks``: :func:`_noted_rung`) move Y along its non-aircraft
    steps, into ``into[column]``; ``(dropped, products)``."""
    table = b[0]
    lo, hi, left = _noted_rung(b_lad, s, m, bits, marks, r, d, 0)
    for j in range(lo, hi + 1):
        into[nxt_strike[d, j]] += m * table[s, j]
    return m * left, hi - lo + 1


@_borrowing
def _y_hit(S: int, P: int, q: int, s: int, p: int, h: int) -> tuple[int, int]:
    """Where ``h`` hits of Y's strike take X at (s, p): ``(its row, the submarines of X
    they sink)`` (X has no aircraft: the strike's hits land as unrestricted ones)."""
    s2, p2 = land(S, P, q, s, p, h, 0)
    return (S - s2) * (P + 1) + p2, s - s2


@_borrowing
def _y_strike(m: float, s: int, p: int, d: int, i: int, S: int, P: int, q: int, z0: Any, yb: Any, b: Any,
              nxt_strike: Any, tiny: float) -> tuple[float, int]:
    """Step 0 from mass ``m`` (both sides strike, see :func:`solve`): Y's strike hits (at
    least one, its submarines by ``i``) move X along its steps, and the submarines of X
    they take strike back at once (``b`` by their number), moving Y along its
    non-aircraft steps; into ``z0`` (columns x rows); ``(dropped, products)``."""
    table, _, _, cut, mode, cum = yb
    bt, _, _, bcut, bmode, bcum = b
    lo, hi, out = _span(table, mode, cum, i, m, tiny)
    dropped = m * (cut[i] + out)
    n = 0
    for h in range(lo, hi + 1):
        w = m * table[i, h]
        r2, lost = _y_hit(S, P, q, s, p, h)
        n += 1
        w0 = w * bt[lost, 0]
        if w0 >= tiny:
            z0[d, r2] += w0
        else:
            dropped += w0
        if lost == 0:
            continue
        jlo, jhi, jout = _span(bt, bmode, bcum, lost, w, tiny)
        dropped += w * (bcut[lost] + jout)
        for j in range(jlo, jhi + 1):
            z0[nxt_strike[d, j], r2] += w * bt[lost, j]
        n += jhi - jlo + 1
    return dropped, n


@_borrowing
def _unrestricted(m: float, s: int, p: int, d: int, i: int, S: int, P: int, x1: Any, x1n: Any, x1e: Any, u: Any,
                  u_lad: Any, bits: Any, marks: Any, r: int) -> tuple[float, int]:
    """Step 2 from mass ``m`` at (row r, column d): Y's unrestricted hits (at least one,
    the rung of ``m``, noted in ``marks``: :func:`_noted_rung`) move X from (s, p)
    (submarines first), into ``x1[p, d, s']`` (a pair's moves one run
    of memory; ``x1n[p, d]`` counts its cells made other than 0, :func:`_x1_taken`),
    or, past X's submarines, into ``x1e[p, p', d]`` (X's dice still those
    at p; by column last: a row's pairs, one column after another, share its cache
    lines, where a pair's own run was met again only rows later, long out of the
    caches: ~5 % off the strike battles, 2026-12-04); ``(dropped, products)``."""
    table = u[0]
    lo, hi, left = _noted_rung(u_lad, i, m, bits, marks, r, d, 1)
    for n in range(lo, hi + 1):
        w = m * table[i, n]
        s2, pm = unrestricted(P, s, p, n)
        if pm == p:
            old = x1[p, d, s2]
            x1[p, d, s2] = old + w
            if old == 0.0 and w != 0.0:
                x1n[p, d] += 1
        else:
            x1e[p, pm, d] += w
    return m * left, hi - lo + 1


@_borrowing
def _ask_column(ps_flat: Any, d: int, ND: int, R: int, r: int) -> None:
    """Ask for row ``r``'s cell SWEEP_AHEAD columns on in a table by columns x ``R``
    rows (``ps_flat``, flat): the round starts, as the sweeps of :func:`solve` and
    :func:`walk` read a row's pairs a row's length apart, and in :func:`solve` the
    tables it reads or writes at each pair the same way (a traced solve's ``visits``,
    step 0's ``z0`` where both sides strike: 1-5 % off the strike pass's retreats by
    win chance and its battles where both sides strike, 2026-12-07)."""
    if d + SWEEP_AHEAD < ND:
        _prefetch(ps_flat, (d + SWEEP_AHEAD) * R + r)


@_borrowing
def _x1_taken(x1: Any, x1n: Any, p: int, d: int, s: int) -> float:
    """The mass step 2 left at ``x1[p, d, s]``, taken out, read only where ``x1n[p, d]``
    (:func:`_unrestricted`) says some cell of (p, d) holds one: a row's pairs are a
    column apart there (S + 1 floats), so reading every pair's cell cost a cache miss
    each, most of them at pairs with nothing (the defender-strike battle's solve with
    its retreats, 3.7 million products, took 122 ms; 2026-12-07)."""
    if x1n[p, d] == 0:
        return 0.0
    m: float = x1[p, d, s]
    if m != 0.0:
        x1[p, d, s] = 0.0
        x1n[p, d] -= 1
    return m


@_borrowing
def _joint_moves(s: int, p: int, d: int, i: int, k: int, S: int, P: int, q: int, u: Any, f: Any, a: Any,
                 nxt_fire: Any, cut: float, chance: Any, rows: Any, cols: Any) -> tuple[int, float]:
    """Steps 2-4 at once from a pair of a row before X's submarines (``p < q``): Y's
    hits of both kinds (:func:`land`) and X's general fire, as moves (chance, row,
    column) into the buffers, nothing hit at all left out (a stay), and the moves of a
    chance below ``cut`` too: ``(moves, their chance left out with the dice cut)``."""
    ut, u_lo, u_hi, u_cut, _, _ = u
    ft, f_lo, f_hi, f_cut, _, _ = f
    at, a_lo, a_hi, a_cut, _, _ = a
    W = P + 1
    left = u_cut[i] + f_cut[k] + a_cut[p]
    n = 0
    for nu in range(u_lo[i], u_hi[i] + 1):
        cu = ut[i, nu]
        if cu < cut:
            left += cu
            continue
        for nf in range(f_lo[k], f_hi[k] + 1):
            cuf = cu * ft[k, nf]
            if cuf < cut:
                left += cuf
                continue
            s2, p2 = land(S, P, q, s, p, nu, nf)
            r2 = (S - s2) * W + p2
            for h in range(a_lo[p], a_hi[p] + 1):
                if nu == 0 and nf == 0 and h == 0:
                    continue
                c = cuf * at[p, h]
                if c < cut:
                    left += c
                    continue
                chance[n] = c
                rows[n] = r2
                cols[n] = nxt_fire[d, h]
                n += 1
    return n, left


@_borrowing
def _joint(m: float, s: int, p: int, d: int, i: int, k: int, S: int, P: int, q: int, into: Any,
           u: Any, f: Any, a: Any, nxt_fire: Any, tiny: float, buf: Any) -> tuple[float, int]:
    """Steps 2-4 at once from mass ``m`` at a row before X's submarines
    (:func:`_joint_moves`, ``buf`` its buffers), into ``into`` (columns x rows);
    ``(dropped, products)``."""
    if m == 0.0:
        return 0.0, 0
    chance, rows, cols = buf
    n, left = _joint_moves(s, p, d, i, k, S, P, q, u, f, a, nxt_fire, tiny / m, chance, rows, cols)
    for x in range(n):
        into[cols[x], rows[x]] += m * chance[x]
    return m * left, n


@_compiled
def _joint_buffers(u: Any, f: Any, a: Any) -> tuple[Any, Any, Any]:
    """Buffers for :func:`_joint_moves`: room for every move."""
    n = u[0].shape[1] * f[0].shape[1] * a[0].shape[1]
    return np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)


@_borrowing
def _x_fire_columns(ay: bool, s: int, p: int, d: int, b: Any, a: Any, nxt_strike: Any, nxt_fire: Any, acc: Any,
                    touched: Any) -> tuple[int, float]:
    """X's fire at a column where Y has a destroyer (:func:`_destroyer_moves`): its
    submarines' hits (``b`` by s) on Y's ships first, then its other hits (``a`` by p)
    along Y's loss order, summed by the column they take Y to into ``acc`` (zeros), the
    columns listed in ``touched``; nothing moves Y once it is gone.  ``(columns, the
    chance kept: the dice outcomes not cut)``."""
    bt, b_lo, b_hi, b_cut, _, _ = b
    at, a_lo, a_hi, a_cut, _, _ = a
    if not ay:
        touched[0] = d
        acc[d] = 1.0
        return 1, 1.0
    nt = 0
    for j in range(b_lo[s], b_hi[s] + 1):
        cj = bt[s, j]
        if cj == 0.0:
            continue
        d1 = nxt_strike[d, j]
        for h in range(a_lo[p], a_hi[p] + 1):
            c = cj * at[p, h]
            if c == 0.0:
                continue
            d2 = nxt_fire[d1, h]
            if acc[d2] == 0.0:
                touched[nt] = d2
                nt += 1
            acc[d2] += c
    return nt, (1.0 - b_cut[s]) * (1.0 - a_cut[p])


@_borrowing
def _destroyer_moves(ax: bool, ay: bool, s: int, p: int, d: int, S: int, P: int, q: int, uy: Any, b: Any, a: Any,
                     nxt_strike: Any, nxt_fire: Any, acc: Any, touched: Any, chance: Any, rows: Any,
                     cols: Any) -> tuple[int, float]:
    """A round's fire at a column where Y has a destroyer (``yd``, after step 0 where
    Y's submarines strike), as moves (chance, row, column) into the buffers, nothing hit
    at all left out (a stay): ``(moves, the chance of the dice outcomes cut)``.  X's
    submarines do not strike but fire with its other units (A-10.6), their hits on Y's
    steps that are not aircraft (A-10.14), the others' along its loss order (the
    general engine's order: the restricted hits first, :meth:`engine.odds.aa_general.
    GeneralEngine.casualties`); Y's aircraft may hit X's submarines, so all of Y's hits
    (``uy`` by column) take X's steps in loss order (:func:`land` with no aircraft
    hits).  The two sides fire at once from the state at hand: X's fire is summed by
    Y's column first (:func:`_x_fire_columns`), then each column with each of Y's
    outcomes."""
    ut, u_lo, u_hi, u_cut, _, _ = uy
    nt, keep_x = _x_fire_columns(ay, s, p, d, b, a, nxt_strike, nxt_fire, acc, touched)
    n = 0
    W = P + 1
    n_lo, n_hi, keep_y = 0, 0, 1.0
    if ax:
        n_lo, n_hi, keep_y = u_lo[d], u_hi[d], 1.0 - u_cut[d]
    for nu in range(n_lo, n_hi + 1):
        cu = ut[d, nu] if ax else 1.0
        if cu == 0.0:
            continue
        s2, p2 = land(S, P, q, s, p, nu, 0)
        r2 = (S - s2) * W + p2
        for t in range(nt):
            d2 = touched[t]
            if nu == 0 and d2 == d:
                continue
            chance[n] = cu * acc[d2]
            rows[n] = r2
            cols[n] = d2
            n += 1
    for t in range(nt):
        acc[touched[t]] = 0.0
    return n, max(0.0, 1.0 - keep_x * keep_y)


@_compiled
def _destroyer_buffers(uy: Any, ND: int) -> tuple[Any, Any, Any, Any, Any]:
    """Buffers for :func:`_destroyer_moves`: the sums by column (``acc``, zeros), the
    columns met, and room for every move."""
    n = uy[0].shape[1] * ND
    return np.zeros(ND), np.zeros(ND, dtype=np.int64), np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(
        n, dtype=np.int64)


@_borrowing
def _destroyer_round(m: float, ax: bool, ay: bool, s: int, p: int, d: int, S: int, P: int, q: int, into: Any,
                     uy: Any, b: Any, a: Any, nxt_strike: Any, nxt_fire: Any, tiny: float,
                     dbuf: Any) -> tuple[float, int]:
    """The moves of :func:`_destroyer_moves` (``dbuf``: :func:`_destroyer_buffers`) from
    mass ``m`` into the round starts ``into`` (columns x rows); ``(dropped, moves)``."""
    if m == 0.0:
        return 0.0, 0
    acc, touched, chance, rows, cols = dbuf
    n, cut = _destroyer_moves(ax, ay, s, p, d, S, P, q, uy, b, a, nxt_strike, nxt_fire, acc, touched, chance, rows,
                              cols)
    dropped = m * cut
    for x in range(n):
        w = m * chance[x]
        if w < tiny:
            dropped += w
            continue
        into[cols[x], rows[x]] += w
    return dropped, n


@_borrowing
def _destroyer_pull(ax: bool, ay: bool, s: int, p: int, d: int, S: int, P: int, q: int, uy: Any, b: Any, a: Any,
                    nxt_strike: Any, nxt_fire: Any, lo_s: Any, hi_s: Any, dbuf: Any) -> tuple[float, float, int]:
    """:func:`_destroyer_round` backward (for :func:`chances`): the values at the round
    starts its moves reach, mixed by their chances, ``(low, high, moves)``; every
    outcome read (such pairs are few), the dice outcomes cut counted as anything."""
    acc, touched, chance, rows, cols = dbuf
    n, cut = _destroyer_moves(ax, ay, s, p, d, S, P, q, uy, b, a, nxt_strike, nxt_fire, acc, touched, chance, rows,
                              cols)
    lo = 0.0
    hi = cut
    for x in range(n):
        c = chance[x]
        lo += c * lo_s[cols[x], rows[x]]
        hi += c * hi_s[cols[x], rows[x]]
    return lo, hi, n


@_borrowing
def _excess(x1e: Any, p: int, d: int, a: Any, hb: Any) -> tuple[float, float]:
    """Step 3's fire of the masses kept at row (0, p) by where X's other steps stood
    (``x1e[src, p, d]``, taken out), by hits into ``hb`` (zeroed first): ``(their mass,
    the chance cut)``."""
    at, a_lo, a_hi, a_cut, _, _ = a
    hb[:] = 0.0
    total = 0.0
    cut = 0.0
    for src in range(p):
        m = x1e[src, p, d]
        if m == 0.0:
            continue
        x1e[src, p, d] = 0.0
        total += m
        for h in range(a_lo[src], a_hi[src] + 1):
            hb[h] += m * at[src, h]
        cut += m * a_cut[src]
    return total, cut


@_borrowing
def _fire(m: float, p: int, d: int, hb: Any, tagged: bool, x2: Any, tags: Any, a: Any, a_lad: Any, nxt_fire: Any,
          air_lost: Any, tiny: float, bits: Any, marks: Any, r: int) -> tuple[float, int]:
    """Step 3 from mass ``m`` (X's dice at p) at (row r, column d) and, when ``tagged``,
    the fire of :func:`_excess` in ``hb``: X's general hits (at least one; untagged, the
    rung of ``m``, noted in ``marks``: :func:`_noted_rung`; tagged, every outcome,
    noted as rung 0) move Y along its loss order, into the row's ``x2[column, aircraft
    lost]`` (``tags``: each column's bound); ``(dropped, products)``."""
    table, _, _, cut, _, _ = a
    if not tagged:
        lo, hi, left = _noted_rung(a_lad, p, m, bits, marks, r, d, 2)
        for h in range(lo, hi + 1):
            d2 = nxt_fire[d, h]
            t = air_lost[d, h]
            x2[d2, t] += m * table[p, h]
            if t >= tags[d2]:
                tags[d2] = t + 1
        return m * left, hi - lo + 1
    if marks.shape[0] > 0:
        marks[r, d, 2] = 1  # rung 0: every outcome
    dropped = m * cut[p]  # every outcome, each checked
    lo = 1
    hi = hb.shape[0] - 1
    for h in range(lo, hi + 1):
        w = m * table[p, h] + hb[h]
        if w == 0.0:
            continue
        if w < tiny:
            dropped += w
            continue
        d2 = nxt_fire[d, h]
        t = air_lost[d, h]
        x2[d2, t] += w
        if t >= tags[d2]:
            tags[d2] = t + 1
    return dropped, hi - lo + 1


@_borrowing
def _take_ring(x2: Any, tags: Any, p: int, ring: Any, tops: Any, cols: Any) -> None:
    """The masses ``ring`` holds for row ``p`` (see :func:`_owed`) join the row's tags
    ``x2`` (each owes the fire of its aircraft lost, as a tag does), taken out: once
    per row, before its pairs (a test per pair cost ~5 % of every strike battle), at
    the columns ``cols`` lists for it (a test per column cost a traced solve split at
    every pair ~4 % where few pairs hold many tags)."""
    slot = p % ring.shape[0]
    for x in range(cols[slot, 0]):
        d = cols[slot, x + 1]
        top = tops[slot, d]
        cur = ring[slot, d]
        for t in range(top + 1):
            x2[d, t] += cur[t]
            cur[t] = 0.0
        if top >= tags[d]:
            tags[d] = top + 1
        tops[slot, d] = -1
    cols[slot, 0] = 0


@_borrowing
def _owed(x2: Any, d: int, nt: int, k: int, p: int, P: int, lost_air: Any, ring: Any, tops: Any,
          cols: Any) -> tuple[float, int]:
    """Step 4 split (:func:`solve` with ``lost_air``): a mass at Y's column ``d`` whose
    round began with ``t`` more aircraft (the row's tag ``x2[d, t]``, t < ``nt``) rolls
    Y's aircraft at ``k`` and the dice of the ``t`` aircraft steps lost (``k - t + 1 ..
    k``, ``lost_air``).  Those are taken one step at a time, the last first: what they
    score moves X along its other steps at once, into ``ring`` (by row mod its length,
    column, aircraft still owed; ``tops``: each entry's bound on those, ``cols``: each
    row's columns holding some, their count first; they join that row's tags when it
    comes, :func:`_take_ring`), and what they miss stays, owing one
    step fewer.  The tags are taken out; ``(what owes Y's aircraft at k alone,
    products)``, spread once with the pair's own round."""
    units, lens = lost_air[0], lost_air[1]
    R = ring.shape[0]
    n = 0
    for t in range(nt - 1, 0, -1):
        m = x2[d, t]
        if m == 0.0:
            continue
        x2[d, t] = 0.0
        j = k - t + 1
        u = units[j]
        x2[d, t - 1] += m * u[0]
        for h in range(1, lens[j]):
            s2 = min(p + h, P) % R
            ring[s2, d, t - 1] += m * u[h]
            if t - 1 > tops[s2, d]:
                if tops[s2, d] < 0:
                    cols[s2, 0] += 1
                    cols[s2, cols[s2, 0]] = d
                tops[s2, d] = t - 1
        n += lens[j]
    owed = x2[d, 0]  # (0 where no tag: _clear leaves every cell past a row's tags 0)
    x2[d, 0] = 0.0
    return owed, n


@_borrowing
def _aircraft(x2: Any, d: int, nt: int, own: float, k: int, p: int, P: int, r: int, into: Any, fb: Any,
              f: Any, ladder: Any, bits: Any) -> tuple[float, int]:
    """Step 4 from the row's ``x2[d, t]`` (t < ``nt``; ``own`` added to tag 0): Y's
    aircraft hits (at least one; its aircraft at k - t rolling) move X along its other
    steps, each tag over its rung (:func:`_rung`), summed over the tags first (``fb``),
    into ``into`` (columns x rows); ``(dropped, products)``."""
    table = f[0]
    dropped = 0.0
    n = 0
    lo = fb.shape[0]
    hi = 0
    for t in range(max(nt, 1)):
        m = x2[d, t]
        if t == 0:
            m += own
        if m == 0.0:
            continue
        kk = k - t
        f0, f1, left = _rung(ladder, kk, m, bits)
        if f1 >= f0:
            _add_run(fb, table, kk, m, f0, f1)
        dropped += m * left
        n += f1 - f0 + 1
        lo = min(lo, f0)
        hi = max(hi, f1)
    # The sums by hits into the column's later rows (``aircraft``: nf rows on, at most
    # to the last of X's other steps), whatever their size: a cell holding less than
    # tiny in all is left out when its pair is met (counted in ``dropped`` then), so
    # the contiguous part is one vectorised run.
    if hi >= lo:
        col = into[d]
        top = min(hi, P - p)
        if top >= lo:
            base = np.uint64(lo)
            at = np.uint64(r + lo)
            for x in range(np.uint64(top - lo + 1)):
                col[at + x] += fb[base + x]
                fb[base + x] = 0.0
        rest = 0.0
        for nf in range(max(lo, P - p + 1), hi + 1):
            rest += fb[nf]
            fb[nf] = 0.0
        if rest != 0.0:
            col[r + P - p] += rest
    return dropped, n


@_borrowing
def _top(x2: Any, d: int, nt: int, own: float) -> Any:
    """The largest mass of one tag that :func:`_aircraft` spreads from ``x2[d]`` (and
    ``own`` at tag 0), rounded up to single precision (for :func:`chances`, which
    pulls each tag over the rung of that mass: a rung grows with the mass, so it holds
    every outcome step 4 spread there)."""
    top = own + (x2[d, 0] if nt > 0 else 0.0)
    for t in range(1, nt):
        top = max(top, x2[d, t])
    return np.float32(top * (1.0 + 1e-6))


@_borrowing
def _take(table: Any, d: int, r: int, tiny: float) -> tuple[float, float]:
    """The mass at ``table[d, r]``, taken out: ``(mass to spread, mass left out)`` (one
    below ``tiny`` is left out)."""
    m = table[d, r]
    table[d, r] = 0.0
    if m < tiny:
        return 0.0, m
    return m, 0.0


@_borrowing
def _clear(x2: Any, tags: Any) -> None:
    for d in range(tags.shape[0]):
        for t in range(tags[d]):
            x2[d, t] = 0.0
        tags[d] = 0


@_compiled
def _tables(S: int, P: int, ND: int, air_lost: Any, a: Any, u: Any, f: Any) -> tuple[Any, ...]:
    """What :func:`solve` and :func:`walk` work in besides the tables of their ``moved``:
    the final masses by outcome (X rows, Y columns), and for one row at a time step 1's
    results, step 3's (by column and aircraft lost, with each column's bound on those),
    the tagged fire by hits, the aircraft hits summed, and :func:`_joint_moves`'
    buffers."""
    W = P + 1
    R = (S + 1) * W
    return (np.zeros((6, R)), np.zeros((6, ND)), np.zeros(ND),
            np.zeros((ND, air_lost.max() + 1)), np.zeros(ND, dtype=np.int64), np.zeros(a[0].shape[1]),
            np.zeros(f[0].shape[1]), _joint_buffers(u, f, a))


@_compiled
def _check_traced(visits: Any, tagb: Any, reach: Any, marks: Any, S: int, P: int, ND: int) -> None:
    """Refuse a traced solve's tables in the wrong shapes (``visits`` columns x rows,
    ``tagb`` and ``reach`` rows x columns, ``marks`` rows x columns x 3 or none): the
    loops index them unchecked, and a table the wrong way round would be written past
    its end."""
    rows = (S + 1) * (P + 1)
    if visits.shape[0] != ND or visits.shape[1] != rows:
        raise ValueError("visits: columns x rows expected")
    if tagb.shape[0] != rows or tagb.shape[1] != ND or reach.shape[0] != rows or reach.shape[1] != ND:
        raise ValueError("tagb, reach: rows x columns expected")
    if marks.shape[0] > 0 and (marks.shape[0] != rows or marks.shape[1] != ND or marks.shape[2] != 3):
        raise ValueError("marks: rows x columns x 3 expected")


@_compiled
def solve(
    S: int, P: int, q: int, x_attacks: bool, defender_fought: bool,
    alive_x: Any, alive_y: Any, fire_x: Any, gone: Any, dive: Any, yi: Any, yk: Any, n_i: int,
    nxt_strike: Any, nxt_fire: Any, air_lost: Any, b: Any, a: Any, u: Any, f: Any,
    shed: Any, fire_y: Any, y_air: Any, ud: Any, xd: Any,
    ps: Any, back: Any, first: Any, visits: Any, tagb: Any, reach: Any, gvis: Any, tiny: float, least: float,
    max_seen: int, budget: int, yb: Any, z0: Any, moved: Any, yd: Any, uy: Any, uyd: Any, quiet_b: Any, lost_air: Any,
    frow: Any, rule_ends: Any, marks: Any,
) -> tuple[Any, Any, float, float, int, int]:
    """Spread the round-start masses ``ps`` (columns x rows, changed) to the end:
    ``(ends_x, ends_y, rounds, dropped, seen, work)``, the final masses by outcome and
    X row, by outcome and Y column, the rounds fought (expected), the mass left out, the
    pairs processed (-1 once past ``max_seen``) and the products made (checked against
    ``budget`` after each row; past it, the pass stops and nothing else is complete).
    Where ``back`` (columns x rows, or empty for none) is true, the attacker retreats
    after a round (A-10.15): whatever arrives there ends as a retreat, and only the
    masses there before round 1 (``first``) fight from it.  Where ``visits`` (columns x
    rows) and ``tagb`` (rows x columns: :func:`chances` reads it along a row) are not
    empty, each live pair's round starts are written to the first, to the second one
    more than how many of step 3's tags reached it at every pair processed where the
    masses there reached ``least`` in all (0: not, or no mass of it ever reached
    ``tiny``: the chances backward leaves such a pair anything), to ``reach`` (rows x columns, as ``tagb``) at least the largest
    mass of one tag that step 4 spreads there (rounded up), and to ``gvis`` (``[p, column]``) the mass after the strike at the rows before
    X's submarines (for :func:`chances`).

    Where ``z0`` (columns x rows) is not empty, Y has submarines that strike too (``yb``,
    by ``i``; X has no aircraft, Y no destroyer, and neither side submerges): each
    round begins with step 0, Y's strike on X, where the submarines of X it takes
    strike back at once (:func:`_y_strike`, into ``z0``); X's submarines left strike in
    step 1.  Both together are X's strike from the submarines it had (hits of one kind
    land where they would land together), so the round is the chain's (A-10.6).  At the
    rows where X still has a destroyer (``xd[p]``) Y's submarines do not strike: there
    is no step 0 and Y's unrestricted fire is ``ud`` (its submarines' dice with its
    ships'; elsewhere ``ud`` is ``u``).

    Where Y has a destroyer (``yd[column]``, Y's destroyers are among its steps that are
    not aircraft, so it has one up to some ``i``), X's submarines neither strike nor
    submerge, and Y's aircraft may hit them (A-10.6): after step 0 (Y's submarines
    strike when X has no destroyer, and the submarines of X they sink do not strike
    back, ``quiet_b``: no hits) the round is :func:`_destroyer_round` (Y's hits by
    ``uy``, or ``uyd`` with its submarines' where X still has a destroyer and they do not
    strike).  Moves only go to later columns or rows, so such a column is reached from
    round starts and step 0 alone: steps 1-4 never start there.

    Where ``lost_air`` (:func:`engine.odds.aa_strike._lost_air`) is not empty, step 4
    is split at the pairs it marks (:func:`_owed`): the
    dice of the aircraft a mass lost in its round are taken one step at a time, and
    what is left is spread once per pair, instead of each tag over its own aircraft's
    fire.  The same sums, in another order (fewer products where Y's aircraft fire is
    wide and a pair holds many tags).  A traced solve's ``lost_air`` is
    :func:`chances`' ``air_units``: the chances backward takes the tags of the pairs it
    split from the tag before (:func:`_owed_back`), where the rungs of the masses this
    solve spread there hold what those tags read.

    ``moved``: step 2's results, zeros, ``(x1[p, column, s], x1e[p, p', column])`` (past
    X's submarines, by where X's other steps stood), made by numpy
    (:meth:`engine.odds.aa_strike.StrikeSolver._moved`: zeros on small pages, as the
    lows of :func:`chances`' ``values``, and for the same reason).

    Where ``frow`` (by X row: an index into ``rule_ends``, or -1) is not empty, the mass
    each pair of such a row ends by a rule that names the end (a dive, a stalemate of
    submarines facing aircraft alone) is added to ``rule_ends[frow[r], column]``: a
    traced solve's, which :func:`relabel` reads once the retreats are known.  Where
    ``marks`` (rows x columns x 3) is not empty, the rung each of steps 1-3 spread over
    at a pair is noted there (:func:`_noted_rung`), for :func:`chances`."""
    W = P + 1
    ND = alive_y.shape[0]
    HM = a[0].shape[1]
    ys = z0.shape[0] > 0
    yt = yb[0]
    x1, x1e = moved[0], moved[1]
    x1n = np.zeros((W, ND), dtype=np.int32)
    R = (S + 1) * W
    ps_flat = ps.reshape(-1)
    v_flat = visits.reshape(-1)  # (asked for ahead as ps is, where they are read or written)
    z_flat = z0.reshape(-1)
    ends_x, ends_y, g_row, x2, tags, hb, fb, buf = _tables(S, P, ND, air_lost, a, u, f)
    f_lad, b_lad, a_lad, u_lad, ud_lad, bits = _ladders(f, b, a, u, ud, tiny)
    dbuf = _destroyer_buffers(uy, ND)
    rounds = 0.0
    dropped = 0.0
    seen = 0
    work = 0
    flagged = back.shape[0] > 0
    traced = visits.shape[0] > 0
    if traced:
        _check_traced(visits, tagb, reach, marks, S, P, ND)
    # Step 4 split (see _owed) where the lost aircraft's dice are given (a traced
    # solve's as the chances backward follows them: aa_strike._traced_air).
    split = lost_air[0].shape[0] > 0
    ring = np.zeros((lost_air[0].shape[1] if split else 0, ND, lost_air[2] + 1))
    tops = np.full((ring.shape[0], ND), -1, dtype=np.int64)
    cols = np.zeros((ring.shape[0], ND + 1), dtype=np.int64)
    for s in range(S, -1, -1):
        for p in range(W):
            if work > budget:
                return ends_x, ends_y, rounds, dropped, seen, work
            r = (S - s) * W + p
            # While X has a destroyer, Y's submarines do not strike: they fire with its
            # other ships (ud; X has no aircraft for their hits to spare), A-10.6.
            ur = ud if xd[p] else u
            ur_lad = ud_lad if xd[p] else u_lad
            ysr = ys and not xd[p]
            uyr = uyd if xd[p] else uy
            g_row[:] = 0.0
            _clear(x2, tags)
            if split:
                _take_ring(x2, tags, p, ring, tops, cols)
            ax = alive_x[r]
            f_stay = p == P  # none of X's other steps left: Y's aircraft hits land nowhere
            for d in range(ND):
                _ask_column(ps_flat, d, ND, R, r)
                if traced:
                    _ask_column(v_flat, d, ND, R, r)
                if ysr:
                    _ask_column(z_flat, d, ND, R, r)
                sx = ps[d, r]
                gx = g_row[d]
                xu = _x1_taken(x1, x1n, p, d, s)
                zx = z0[d, r] if ysr else 0.0
                nt = tags[d]
                total = sx + gx + xu + zx
                for t in range(nt):
                    total += x2[d, t]
                e_tot = 0.0
                if s == 0:
                    e_tot, cut = _excess(x1e, p, d, a, hb)
                    dropped += cut
                    total += e_tot
                if total == 0.0:
                    continue
                if total < tiny:
                    dropped += total
                    continue
                if traced and total >= least:
                    tagb[r, d] = nt + 1
                i = yi[d]
                k = yk[d]
                ay = alive_y[d]
                y_dead = not ay
                live, y_end, r_end, d_end, code = _fights(ax, ay, r, d, fire_x, gone, dive, back, shed, fire_y, y_air,
                                                          alive_x, yd)
                ended = not live  # by the end-of-round rules (a stalemate is decided below)
                hstay = 0.0  # the tagged fire that leaves Y as it is
                if e_tot > 0.0:
                    if y_dead:
                        for h in range(HM):
                            hstay += hb[h]
                    else:
                        hstay = hb[0]
                sig0, u0, a0, f00 = _stays(s, p, i, k, ax, ay, n_i, P, b, a, ur, f)
                y0 = yt[i, 0] if ysr and ax else 1.0  # Y's strike leaves X as it is
                s_in = sx
                owed = 0.0  # (here) the mass here owed Y's aircraft fire at k
                here = split and p >= q and not f_stay and nt > lost_air[4] and lost_air[3][k]
                if not here:
                    for t in range(nt):
                        m = x2[d, t]
                        if m != 0.0:
                            s_in += m * (1.0 if f_stay else f[0][k - t, 0])
                else:
                    owed, n = _owed(x2, d, nt, k, p, P, lost_air, ring, tops, cols)
                    work += n
                    s_in += owed * f[0][k, 0]
                s_in += (xu * a0 + hstay) * f00
                own = u0 * a0 * f00
                dest = yd[d]
                if dest:  # no strike of X's; one move of both sides' fire (its stay: own)
                    sig0 = 1.0
                    own = (uyr[0][d, 0] if ax else 1.0) * (b[0][s, 0] * a0 if ay else 1.0)
                zv = zx  # the masses step 1 starts from
                if live:
                    loop = y0 * sig0 * own
                    stays = loop < 1.0
                    if flagged and back[d, r]:
                        # What a round brings here retreats; the masses there before
                        # round 1 fight it (a stalemate: they stay).
                        m0 = first[d, r]
                        zv = zx + (m0 * y0 if stays else 0.0)
                        gv = gx + sig0 * zv
                        m = s_in - m0 + gv * own
                        ends_x[BACK, r] += m
                        ends_y[BACK, d] += m
                        if not stays:
                            ends_x[STALE, r] += m0
                            ends_y[STALE, d] += m0
                        sv = m0
                    elif not stays:  # nothing can change any more from a round's start
                        m = s_in + gx + zx
                        ends_x[STALE, r] += m
                        ends_y[STALE, d] += m
                        if traced:  # a pair where a round starts too (it never wins)
                            visits[d, r] = m
                            # Worked out by the chances backward however little mass
                            # met it (a chance of 0, below any threshold: decided).
                            tagb[r, d] = max(tagb[r, d], nt + 1)
                        gv = gx + zx
                    else:
                        sv = (s_in + own * (gx + sig0 * zx)) / (1.0 - loop)
                        zv = zx + y0 * sv
                        gv = gx + sig0 * zv
                    # A stalemate's round only ends the moves of rounds begun elsewhere
                    # (fire of states already left: steps 3 and 4 below).
                    live = stays
                if live:
                    seen += 1
                    if seen > max_seen:
                        return ends_x, ends_y, rounds, dropped, -1, work
                    rounds += sv
                    if traced:
                        visits[d, r] = sv
                    work += 1
                    if ysr and ax and y0 < 1.0:
                        lost, n = _y_strike(sv, s, p, d, i, S, P, q, z0, yb, quiet_b if dest else b, nxt_strike,
                                            tiny)
                        dropped += lost
                        work += n
                    if not dest:  # (where Y has a destroyer: both sides' fire, below)
                        if s > 0 and i < n_i:
                            lost, n = _strike(zv, s, d, g_row, b, b_lad, nxt_strike, bits, marks, r)
                            dropped += lost
                            work += n
                        if p < q:
                            if traced:
                                gvis[p, d] = gv
                            lost, n = _joint(gv, s, p, d, i, k, S, P, q, ps, ur, f, a, nxt_fire, tiny, buf)
                            dropped += lost
                            work += n
                            # Nothing waits at steps 3-4 here: a row before X's submarines is
                            # reached only by pushes to its round starts (no step 2 lands in
                            # it), and its own steps 2-4 are the joint moves just made.
                            continue
                        lost, n = _unrestricted(gv, s, p, d, i, S, P, x1, x1n, x1e, ur, ur_lad, bits, marks, r)
                        dropped += lost
                        work += n
                elif ended:
                    if zx > 0.0 and s > 0 and i < n_i and not dest:  # a round begun here goes on (step 1)
                        lost, n = _strike(zx, s, d, g_row, b, b_lad, nxt_strike, bits, marks, r)
                        dropped += lost
                        work += n
                    gv = gx + sig0 * zx
                    sv = s_in + gv * own
                    o = code if code >= 0 else _outcome(alive_x[r_end], y_end, x_attacks, defender_fought)
                    ends_x[o, r_end] += sv
                    ends_y[o, d_end] += sv
                    if code >= 0 and frow.shape[0] > 0 and frow[r] >= 0:
                        rule_ends[frow[r], d] += sv  # (a traced solve: for relabel)
                    if ax and p >= q and u0 < 1.0 and gv > 0.0 and not dest:
                        # A round begun elsewhere goes on here (step 2): where both
                        # sides strike, Y's strike may leave X with its lone transports
                        # (A-10.7 acts at the round's end) while Y's ships still fire.
                        lost, n = _unrestricted(gv, s, p, d, i, S, P, x1, x1n, x1e, ur, ur_lad, bits, marks, r)
                        dropped += lost
                        work += n
                if dest:
                    # Both sides' fire after step 0, from this pair's round starts or a
                    # round begun elsewhere that goes on here (nothing moves in a
                    # stalemate); no other step starts at such a column.
                    lost, n = _destroyer_round(gv, ax, ay, s, p, d, S, P, q, ps, uyr, b, a, nxt_strike, nxt_fire,
                                               tiny, dbuf)
                    dropped += lost
                    work += n
                    continue
                x1t = xu + gv * u0
                if not y_dead:
                    lost, n = _fire(x1t, p, d, hb, e_tot > 0.0, x2, tags, a, a_lad, nxt_fire, air_lost, tiny, bits, marks, r)
                    dropped += lost
                    work += n
                if not f_stay:
                    if traced:
                        reach[r, d] = _top(x2, d, 0 if here else nt, owed + x1t * a0 + hstay)
                    # (here: the tags are in owed, x2 emptied by _owed)
                    lost, n = _aircraft(x2, d, 0 if here else nt, owed + x1t * a0 + hstay, k, p, P, r, ps, fb, f,
                                        f_lad, bits)
                    dropped += lost
                    work += n
    return ends_x, ends_y, rounds, dropped, seen, work


@_compiled
def walk(
    S: int, P: int, q: int, x_attacks: bool, defender_fought: bool,
    alive_x: Any, alive_y: Any, fire_x: Any, gone: Any, dive: Any, yi: Any, yk: Any, n_i: int,
    nxt_strike: Any, nxt_fire: Any, air_lost: Any, b: Any, a: Any, u: Any, f: Any,
    shed: Any, fire_y: Any, y_air: Any, ud: Any, xd: Any,
    ps: Any, back: Any, rounds: int, tiny: float, budget: int, yb: Any, z0: Any, moved: Any,
    yd: Any, uy: Any, uyd: Any, quiet_b: Any, apart: bool, strafe: bool,
) -> tuple[Any, Any, float, float, int, Any, Any]:
    """``rounds`` rounds from the round-start masses ``ps`` (columns x rows, changed:
    what still fights after the last round is left there): ``(ends_x, ends_y, fought,
    dropped, work, left_x, left_y)``, the first as :func:`solve`'s, the rounds fought
    (expected) and the products made (checked against ``budget`` after each round).
    With ``apart`` only each side's share of what still fights after the last round is
    wanted (no second wave joins its pairs): there, Y's aircraft hits from a pair whose
    every outcome fights on (:func:`_fights_on`) are added up by X's row (``left_x``)
    and by Y's column (``left_y``), by Y's aircraft rolling first (every outcome kept,
    not only a rung's) instead of into the table, which the end of the round reads
    again: the same shares, the strike battle's strafe after 3 rounds ~1/5 faster. In
    a ``strafe`` (what fights on after the last round retreats, A-10.15) the pairs the
    battle's retreat rule takes back are added up so too: a retreat either way.

    A round is one sweep, as :func:`solve`'s, every move of the round going to a later
    row or column; "nothing hit" goes to the next round with the rest (no loop to
    close).  A pair nothing can change is a stalemate; at the end of the round the
    end-of-round rules act (a side destroyed, A-10.7's lone transports; the attacker
    retreating where ``back``).  Where ``z0`` is not empty, both sides strike, as in
    :func:`solve`; where Y has a destroyer (``yd``), the round is step 0 then
    :func:`_destroyer_round`, as there.  ``moved``: as :func:`solve`'s, with a third
    table, zeros, shaped as ``ps``: the next round's starts."""
    W = P + 1
    R = (S + 1) * W
    ND = alive_y.shape[0]
    HM = a[0].shape[1]
    ys = z0.shape[0] > 0
    yt = yb[0]
    x1, x1e = moved[0], moved[1]
    x1n = np.zeros((W, ND), dtype=np.int32)
    ps_flat = ps.reshape(-1)
    ends_x, ends_y, g_row, x2, tags, hb, fb, buf = _tables(S, P, ND, air_lost, a, u, f)
    f_lad, b_lad, a_lad, u_lad, ud_lad, bits = _ladders(f, b, a, u, ud, tiny)
    no_marks = np.zeros((0, 0, 0), dtype=np.int8)  # (no rungs noted: see solve)
    nxt = moved[2]  # the next round's starts
    dbuf = _destroyer_buffers(uy, ND)
    fought = 0.0
    dropped = 0.0
    work = 0
    flagged = back.shape[0] > 0
    left_x = np.zeros(R)
    left_y = np.zeros(ND)
    plain = _plain_runs(alive_x, shed, dive, S, P)
    top_hits = f[0].shape[1] - 1
    by_air = np.zeros(f[0].shape[0])  # a row's last-round step 4 masses by Y's aircraft rolling
    air_lo = by_air.shape[0]
    air_hi = -1
    for rnd in range(rounds):
        if work > budget:
            break
        last = apart and rnd == rounds - 1
        for r in range(R):
            s = S - r // W
            p = r % W
            ur = ud if xd[p] else u  # as in solve
            ur_lad = ud_lad if xd[p] else u_lad
            ysr = ys and not xd[p]
            uyr = uyd if xd[p] else uy
            g_row[:] = 0.0
            _clear(x2, tags)
            for d in range(ND):
                _ask_column(ps_flat, d, ND, R, r)
                # A pair with no mass of any step: nothing to do (no table written).
                if (s != 0 and ps[d, r] == 0.0 and g_row[d] == 0.0 and tags[d] == 0
                        and (x1n[p, d] == 0 or x1[p, d, s] == 0.0) and not (ysr and z0[d, r] != 0.0)):
                    continue
                i = yi[d]
                k = yk[d]
                # Steps 0 and 1 (and a pair nothing can change any more).
                m, lost = _take(ps, d, r, tiny)
                dropped += lost
                mz = 0.0  # the masses step 1 starts from
                if ysr:
                    mz, lost = _take(z0, d, r, tiny)
                    dropped += lost
                dest = yd[d]  # Y has a destroyer: step 0, then both sides' fire (as in solve)
                ax, ay = alive_x[r], alive_y[d]
                sig0, u0, a0, f00 = _stays(s, p, i, k, True, True, n_i, P, b, a, ur, f)
                if dest:  # its stay: nobody hit
                    stays = (uyr[0][d, 0] if ax else 1.0) * (b[0][s, 0] * a[0][p, 0] if ay else 1.0)
                else:
                    stays = sig0 * u0 * a0 * f00
                if m != 0.0:
                    y0 = yt[i, 0] if ysr else 1.0
                    if y0 * stays >= 1.0:
                        ends_x[STALE, r] += m
                        ends_y[STALE, d] += m
                    else:
                        fought += m
                        mz += m * y0
                        if y0 < 1.0:
                            lost, n = _y_strike(m, s, p, d, i, S, P, q, z0, yb, quiet_b if dest else b, nxt_strike,
                                                tiny)
                            dropped += lost
                            work += n
                if dest:
                    if mz != 0.0:
                        nxt[d, r] += mz * stays
                        lost, n = _destroyer_round(mz, ax, ay, s, p, d, S, P, q, nxt, uyr, b, a, nxt_strike, nxt_fire,
                                                   tiny, dbuf)
                        dropped += lost
                        work += n
                    continue
                if mz != 0.0:
                    g_row[d] += mz * sig0
                    if sig0 < 1.0:
                        lost, n = _strike(mz, s, d, g_row, b, b_lad, nxt_strike, bits, no_marks, r)
                        dropped += lost
                        work += n
                # Step 2 (the rows before X's submarines: steps 2-4 at once).
                m = g_row[d]
                kept = 0.0  # what step 2 leaves here (nobody hit)
                if m != 0.0:
                    if m < tiny:
                        dropped += m
                    elif p < q:
                        nxt[d, r] += m * ur[0][i, 0] * f[0][k, 0] * a[0][p, 0]
                        lost, n = _joint(m, s, p, d, i, k, S, P, q, nxt, ur, f, a, nxt_fire, tiny, buf)
                        dropped += lost
                        work += n
                    else:
                        kept = m * ur[0][i, 0]
                        lost, n = _unrestricted(m, s, p, d, i, S, P, x1, x1n, x1e, ur, ur_lad, bits, no_marks, r)
                        dropped += lost
                        work += n
                # Step 3 (to later columns of the row), then step 4 (to later rows).
                m = _x1_taken(x1, x1n, p, d, s) + kept
                e_tot = 0.0
                if s == 0:
                    e_tot, cut = _excess(x1e, p, d, a, hb)
                    dropped += cut
                if m != 0.0 or e_tot != 0.0:
                    if alive_y[d]:
                        x2[d, 0] += m * a[0][p, 0] + (hb[0] if e_tot > 0.0 else 0.0)
                        lost, n = _fire(m, p, d, hb, e_tot > 0.0, x2, tags, a, a_lad, nxt_fire, air_lost, tiny, bits,
                                        no_marks, r)
                        dropped += lost
                        work += n
                    else:  # no fire changes a side that is gone
                        x2[d, 0] += m
                        if e_tot > 0.0:
                            for h in range(HM):
                                x2[d, 0] += hb[h]
                    if tags[d] == 0:
                        tags[d] = 1
                nt = tags[d]
                if nt == 0:
                    continue
                on = last and _fights_on(plain, r, min(P - p, top_hits), d, alive_y, gone, back, strafe)
                if p == P:  # Y's aircraft hits land nowhere (on: each side's share as it is)
                    for t in range(nt):
                        if on:
                            left_x[r] += x2[d, t]
                            left_y[d] += x2[d, t]
                        else:
                            nxt[d, r] += x2[d, t]
                    continue
                if on:
                    # Added up by Y's aircraft rolling first: spread once for the row
                    # (below), every outcome kept (none below tiny left out): Y's share
                    # the whole chance its fire keeps (its cumulative chances' last).
                    for t in range(nt):
                        m = x2[d, t]
                        kk = k - t
                        by_air[kk] += m
                        left_y[d] += m * f[5][kk, top_hits + 1]
                        dropped += m * f[3][kk]
                        air_lo = min(air_lo, kk)
                        air_hi = max(air_hi, kk)
                    continue
                for t in range(nt):
                    nxt[d, r] += x2[d, t] * f[0][k - t, 0]
                lost, n = _aircraft(x2, d, nt, 0.0, k, p, P, r, nxt, fb, f, f_lad, bits)
                dropped += lost
                work += n
            # The row's last-round aircraft hits added up above: X's share by row.
            for kk in range(air_lo, air_hi + 1):
                m = by_air[kk]
                if m == 0.0:
                    continue
                by_air[kk] = 0.0
                for nf in range(f[1][kk], f[2][kk] + 1):
                    left_x[r + min(nf, P - p)] += m * f[0][kk, nf]
                work += f[2][kk] - f[1][kk] + 1
            air_lo = by_air.shape[0]
            air_hi = -1
        # The end of the round (column by column: the table read along its rows).
        for d in range(ND):
            for r in range(R):
                m = nxt[d, r]
                if m == 0.0:
                    continue
                ax = alive_x[r]
                nxt[d, r] = 0.0
                live, y_end, r_end, d_end, code = _fights(ax, alive_y[d], r, d, fire_x, gone, dive, back, shed,
                                                          fire_y, y_air, alive_x, yd)
                if live and flagged and back[d, r]:
                    ends_x[BACK, r] += m
                    ends_y[BACK, d] += m
                elif live:
                    ps[d, r] += m
                elif code == STALE:  # left X submarines that nothing can hit: the
                    ps[d, r_end] += m  # next round finds the stalemate, or the limit stops it first
                else:
                    o = code if code >= 0 else _outcome(alive_x[r_end], y_end, x_attacks, defender_fought)
                    ends_x[o, r_end] += m
                    ends_y[o, d_end] += m
    return ends_x, ends_y, fought, dropped, work, left_x, left_y


@_compiled
def _plain_runs(alive_x: Any, shed: Any, dive: Any, S: int, P: int) -> Any:
    """Per row of X: how many rows from it on, with the same submarines, X is left at
    by the end of a round without any end-of-round rule of its own acting (alive,
    neither A-10.7's lone transports nor a dive, A-10.6, can act on it)."""
    W = P + 1
    R = (S + 1) * W
    plain = np.zeros(R + 1, dtype=np.int64)
    for r in range(R - 1, -1, -1):
        if alive_x[r] and shed[r] < 0 and not dive[r]:
            plain[r] = 1 + (plain[r + 1] if (r + 1) % W != 0 else 0)
    return plain


@_borrowing
def _fights_on(plain: Any, r: int, top: int, d: int, alive_y: Any, gone: Any, back: Any, strafe: bool) -> bool:
    """Whether every pair Y's aircraft hits take (row r, column d) to (rows r to r +
    ``top``, :func:`_plain_runs`) fights on after the round: Y there with no
    end-of-round rule of its own that can act (A-10.7's lone transports), nor the
    battle's retreat rule (``back``, empty for none) at any of them, unless it is a
    ``strafe`` (what fights on retreats too)."""
    if not alive_y[d] or gone[d] >= 0 or plain[r] <= top:
        return False
    if back.shape[0] > 0 and not strafe:
        for x in range(top + 1):
            if back[d, r + x]:
                return False
    return True


# The backward pass's rows, in blocks of this many of X's other steps (``p``): see
# :func:`backward_rows`.
BACK_BLOCK = 3


@_compiled
def backward_rows(S: int, P: int, block: int) -> Any:
    """The rows in the order :func:`chances` works them out: blocks of ``block`` values
    of p from the last (p = P) to the first, in each block the rows by s from none left
    (s = 0) to all (s = S), and in each s by p from the last.  A row (s, p) reads only the
    rows (s' <= s, p' >= p) but itself (every move takes submarines or other steps of X,
    never gives them back), and those are all before it here.  Step 2 (Y's unrestricted
    hits, which take submarines first) reads the values at (s' < s, p) by p: in the rows
    from the last to the first, the row (s - 1, p) was P + 1 rows before, and each row
    reads ~60 of those values per pair (~60 MB of them over the rows between, past the
    cache); here it is ``block`` rows before.  Step 4 (Y's aircraft hits, p' > p, the same
    s) reads more of the rows of earlier blocks than before, but fewer values a pair."""
    W = P + 1
    rows = np.empty((S + 1) * W, dtype=np.int64)
    n = 0
    for top in range(P, -1, -block):
        for s in range(S + 1):
            for p in range(top, max(top - block, -1), -1):
                rows[n] = (S - s) * W + p
                n += 1
    return rows


@_borrowing
def _fire_pull(a: Any, p: int, first: int, last: int, out: float, d: int, nxt_fire: Any, air_lost: Any, zn: Any,
               z_lo: Any, z_hi: Any) -> tuple[float, float, int]:
    """Step 3 backward: the value of X's general fire (its dice at p, outcomes from
    ``first`` to ``last``; ``out`` the chance of the others, the dice outcomes cut among
    them) from column d, as an interval: the mix of the values after it kept for this
    row (``z_lo``, ``z_hi`` by column and aircraft lost; ``zn`` the tags kept per
    column: the others, and the outcomes left out, anything); ``(low, high,
    products)``."""
    at = a[0]
    low = 0.0
    high = out
    for h in range(first, last + 1):
        c = at[p, h]
        d2 = nxt_fire[d, h]
        t = air_lost[d, h]
        if t < zn[d2]:
            low += c * z_lo[d2, t]
            high += c * z_hi[d2, t]
        else:
            high += c
    return low, high, max(last - first + 1, 0)


@_borrowing
def _mix(row: Any, window: Any, lo: int, hi: int) -> tuple[float, float]:
    """The sums of ``row[x] * window[0, x]`` and of ``row[x] * window[1, x]`` for x from
    ``lo`` to ``hi``, each as four running sums (by x mod 4) added at the end: four
    chains of additions the processor runs side by side instead of one (each addition
    waits for the one before it in its chain): that loop ~2x faster, ~1/10 off the
    chances backward of the struck-aircraft retreat; the last bits are not one running
    sum's."""
    l0 = l1 = l2 = l3 = 0.0
    h0 = h1 = h2 = h3 = 0.0
    w0 = window[0]
    w1 = window[1]
    x = np.uint64(lo)
    end = np.uint64(hi + 1) if hi >= lo else x
    while x + np.uint64(4) <= end:
        c0, c1, c2, c3 = row[x], row[x + np.uint64(1)], row[x + np.uint64(2)], row[x + np.uint64(3)]
        l0 += c0 * w0[x]
        l1 += c1 * w0[x + np.uint64(1)]
        l2 += c2 * w0[x + np.uint64(2)]
        l3 += c3 * w0[x + np.uint64(3)]
        h0 += c0 * w1[x]
        h1 += c1 * w1[x + np.uint64(1)]
        h2 += c2 * w1[x + np.uint64(2)]
        h3 += c3 * w1[x + np.uint64(3)]
        x += np.uint64(4)
    while x < end:
        l0 += row[x] * w0[x]
        h0 += row[x] * w1[x]
        x += np.uint64(1)
    return (l0 + l1) + (l2 + l3), (h0 + h1) + (h2 + h3)


@_borrowing
def _aircraft_pulls(f: Any, ladder: Any, k: int, t0: int, nt: int, r: int, p: int, P: int, d: int, lo_s: Any,
                    hi_s: Any, m: float, z_lo: Any, z_hi: Any, spans: Any, window: Any, bits: Any) -> int:
    """Step 4 backward from (row r, column d), for each tag t from ``t0`` to ``nt`` - 1
    (Y's aircraft at ``k - t`` rolling, at least one hit): its value as an interval over the
    later rows' values, into ``z_lo[d, t]`` and ``z_hi[d, t]``; the products.  Each tag
    is pulled over the outcomes of the rung of ``m`` (:func:`_rung`; ``m`` at least any
    mass of one tag step 4 spread there, so a rung holds every outcome step 4 spread
    there): the others and the dice outcomes cut, anything.  Every tag reads the same
    later rows' values, so they are read once, into ``window`` (lows, highs by hits;
    each tag's span kept in ``spans``): ~2/5 off those sums where a tag's values were
    read from the tables (strided by row) each time."""
    table = f[0]
    first = table.shape[1]
    last = 0
    n = 0
    for t in range(t0, nt):
        kk = k - t
        lo, hi, left = _rung(ladder, kk, m, bits)
        spans[0, t] = lo
        spans[1, t] = hi
        z_hi[d, t] = left
        if hi < lo:
            continue
        first = min(first, lo)
        last = max(last, hi)
        n += hi - lo + 1
    for nf in range(first, last + 1):
        rr = r + aircraft(P, p, nf) - p
        window[0, nf] = lo_s[d, rr]
        window[1, nf] = hi_s[d, rr]
    for t in range(t0, nt):
        kk = k - t
        low, high = _mix(table[kk], window, spans[0, t], spans[1, t])
        z_lo[d, t] = low
        z_hi[d, t] += high
    return n


@_borrowing
def _y_strike_pull(yb: Any, b: Any, i: int, s: int, p: int, d: int, S: int, P: int, q: int, nxt_strike: Any,
                   zv_lo: Any, zv_hi: Any, m: float, tiny: float) -> tuple[float, float, int]:
    """Step 0 backward (both sides strike): the value of Y's strike hits (at least one)
    and the return fire of the submarines of X they sink, from the values after step 0
    (``zv_lo``, ``zv_hi``, columns x rows), over the products :func:`_y_strike` made
    from the pair's round-start mass ``m`` (those below ``tiny`` it left out, and the
    dice outcomes cut, count as a win in ``high``).  ``(low, high, products)``."""
    yt, _, _, y_cut, y_mode, y_cum = yb
    bt, _, _, b_cut, b_mode, b_cum = b
    lo, hi, out = _span(yt, y_mode, y_cum, i, m, tiny)
    low = 0.0
    high = y_cut[i] + out
    n = 0
    for h in range(lo, hi + 1):
        c = yt[i, h]
        w = m * c
        r2, lost = _y_hit(S, P, q, s, p, h)
        n += 1
        c0 = c * bt[lost, 0]  # no return fire
        if w * bt[lost, 0] >= tiny:
            low += c0 * zv_lo[d, r2]
            high += c0 * zv_hi[d, r2]
        else:
            high += c0
        if lost == 0:
            continue
        jlo, jhi, jout = _span(bt, b_mode, b_cum, lost, w, tiny)
        high += c * (b_cut[lost] + jout)
        for j in range(jlo, jhi + 1):
            cj = c * bt[lost, j]
            d2 = nxt_strike[d, j]
            low += cj * zv_lo[d2, r2]
            high += cj * zv_hi[d2, r2]
        n += jhi - jlo + 1
    return low, high, n


@_borrowing
def _owed_back(z_lo: Any, z_hi: Any, d: int, rec: int, k: int, units: Any, o_lo: Any, o_hi: Any) -> int:
    """Step 4 backward at column d for tags 1 to ``rec`` (Y's aircraft at ``k - t``
    rolling), each from the tag before it: the dice of Y's aircraft at ``k - t`` are
    those at ``k - t + 1`` and the die of the aircraft step ``k - t + 1`` takes away
    (``units``, its chances of 0 and 1 hit: :func:`engine.odds.aa_strike._air_units`),
    so a tag's value is that die's mix of the tag before it here (``z_lo``, ``z_hi``,
    this pair: a miss) and at the row one of X's other steps further on (``o_lo``,
    ``o_hi`` by tag: a hit), as :func:`_owed` takes those dice forward.  Two products a
    tag instead of a pull over its aircraft's whole fire; the products."""
    for t in range(1, rec + 1):
        u = units[k - t + 1]
        z_lo[d, t] = u[0] * z_lo[d, t - 1] + u[1] * o_lo[t - 1]
        z_hi[d, t] = min(1.0, u[0] * z_hi[d, t - 1] + u[1] * o_hi[t - 1])
    return 2 * rec


@_borrowing
def _kept_for(met: Any, r: int, p: int, q: int, d: int, gate: int, wide: bool, most: int) -> int:
    """How many of the values after X's fire by tag (at most ``most``) the pair of
    column d in the row before (s, p) reads in :func:`chances` (:func:`_owed_back`,
    its tags 1 to nt - 1 reading 0 to nt - 2 here): 0 but where that row is past X's
    submarines and the traced solve split step 4 at that pair."""
    if p == 0 or p - 1 < q or not wide:
        return 0
    tb = int(met[r - 1, d])
    if tb - 1 <= gate:
        return 0
    return min(most, tb - 2)


@_compiled
def chances(
    S: int, P: int, q: int, x_attacks: bool, defender_fought: bool,
    alive_x: Any, alive_y: Any, fire_x: Any, gone: Any, dive: Any, yi: Any, yk: Any, n_i: int,
    nxt_strike: Any, nxt_fire: Any, air_lost: Any, b: Any, a: Any, u: Any, f: Any,
    shed: Any, fire_y: Any, y_air: Any, ud: Any, xd: Any,
    tagb: Any, reach: Any, gvis: Any, visits: Any, back: Any, tiny: float, budget: int, yb: Any, ys: bool,
    values: Any, yd: Any, uy: Any, uyd: Any, quiet_b: Any, air_units: Any, marks: Any,
) -> tuple[Any, Any, int]:
    """The attacker's chance to win by fighting on to the end from each pair where a
    round starts, as an interval: ``(low, high, work)`` (columns x rows; the products
    made, checked against ``budget`` after each row: past it, nothing is complete).

    The same chain as :func:`solve`'s, backward: every row after the rows it reads
    (:func:`backward_rows`: blocks of p from the last), columns from the last to the
    first, each pair's chance the mix of what its four
    steps lead to (all later but the pair itself: its loop in closed form), with the
    values each step leaves at the pair (after the strike, after Y's unrestricted hits,
    after X's fire by aircraft lost) kept for the pairs before it.  ``tagb`` and
    ``gvis`` are a traced :func:`solve`'s: the value after X's fire is
    worked out only for the tags the solve met at a pair, and the rows before X's
    submarines only at pairs whose strikes it met, their products below ``tiny`` over
    that mass left out, and nothing at the pairs it never processed (``tagb`` 0: no
    product of ``tiny`` or more reached them; ~5/6 of the pairs of the
    defender's submarines striking at 100 a side); whatever is left out (and the dice
    outcomes cut) counts as a loss in ``low`` and a win in ``high``.  With ``ys`` both
    sides strike (see :func:`solve`): each pair's value after step 0 is kept too.  Where
    Y has a destroyer (``yd``), a pair's moves after step 0 are :func:`_destroyer_pull`.
    Where the traced solve split step 4 (``air_units``, its ``lost_air``), a pair's
    tags are worked out from the tag before (:func:`_owed_back`) as far as the row
    after it kept its values (:func:`_kept_for`), the others pulled.

    Where ``back`` (columns x rows, or empty) is true the battle's own retreat rule acts
    (fewer than K units left): a round ending there is a retreat, never a win, so the
    chance of fighting on is the battle's with its other rules, as the table engine's
    and the numpy passes' are.

    Steps 0 and 4 are pulled over the dice outcomes whose products the solve made there
    (from the pair's round-start mass, ``visits``, and from the largest mass of one tag
    step 4 spread, ``reach``), not every outcome: what the solve left out is anything
    here too.  (At 100 a side that is ~1/6 fewer products: 521 to 438 million where both
    sides strike, 323 to 278 million where the defender's submarines do.)  So are steps
    1-3, over the rungs the solve noted in ``marks`` (rows x columns x step,
    :func:`_noted_rung`; none noted at a pair: nothing spread there, every outcome
    anything), or over every outcome where ``marks`` is empty: the defender's
    submarines striking at 100 a side, 261 to 201 million products.

    ``values``: the tables of values, each starting as [0, 1] (``lo_s``, ``hi_s`` by
    column and row; ``qo_lo``, ``qo_hi``, ``qt_lo``, ``qt_hi`` and ``zv_lo``, ``zv_hi``
    below), made by numpy (:meth:`engine.odds.aa_strike.StrikeSolver._values`): the
    highs, filled with 1, on the huge pages numpy asks the system for (a pair's reads
    and writes here are a column's length apart, ~27 KB at 100 a side: each its own 4
    KB page otherwise; ~1/10 off the defender-strike retreat by win chance,
    2026-12-03), the lows zeros on small pages, which the pass touches few of
    (:func:`engine.odds.compiled.sparse_zeros`; huge ones are cleared whole, 2 MB at a
    time, on first touch: ~1/4 off that retreat, 2026-12-05)."""
    W = P + 1
    ND = alive_y.shape[0]
    yt = yb[0]
    # Every value starts as [0, 1] (anything): the pairs never processed keep it.  The
    # values at round starts (lo_s, hi_s); after Y's unrestricted hits (X's dice those of
    # the row), by [p, column, s] (qo); the same at rows (0, p) with X's dice those at
    # src, by [column, src, p] (qt): step 2 reads a pair's along one run of memory (~1/3
    # off the pass where it meets few pairs); after step 0 (both sides strike), by column
    # and row (zv; 1 x 1 where only X strikes).
    lo_s, hi_s, qo_lo, qo_hi, qt_lo, qt_hi, zv_lo, zv_hi = values
    bt, b_lo, b_hi, b_cut, _, _ = b
    ft = f[0]
    KT = air_lost.max() + 1  # tags: the most aircraft one general fire takes, plus one
    # Step 4's tags from the tag before (_owed_back) at the pairs where the traced solve
    # split step 4 (_owed, with this ``air_units`` as its ``lost_air``) and the dice Y's
    # aircraft steps take away are one die each: each row's values after X's fire by
    # column and tag kept for the row before it (the next one worked out with that s:
    # blocks of p from the last), one table per s: as many as that row's pair of the
    # column reads (o_n), and the p they were kept at (o_at).
    units = air_units[0]
    chained = units.shape[0] > 0 and units.shape[1] == 2
    gate = air_units[4]
    wide = air_units[3]
    o_lo = np.zeros((S + 1 if chained else 0, ND, KT))
    o_hi = np.zeros((S + 1 if chained else 0, ND, KT))
    o_n = np.zeros((S + 1 if chained else 0, ND), dtype=np.int64)
    o_at = np.full((S + 1 if chained else 0, ND), -1, dtype=np.int64)
    vg_lo = np.zeros(ND)  # after the strike (this row)
    vg_hi = np.zeros(ND)
    z_lo = np.zeros((ND, KT))  # after X's fire, by aircraft lost (this row)
    z_hi = np.zeros((ND, KT))
    zn = np.zeros(ND, dtype=np.int64)  # tags worked out per column (this row)
    buf = _joint_buffers(u, f, a)
    dbuf = _destroyer_buffers(uy, ND)
    spans = np.zeros((2, KT), dtype=np.int64)  # step 4's tags: their outcomes, and the values they read
    window = np.zeros((2, ft.shape[1]))
    at_x, ax_lo, ax_hi, ax_cut, _, _ = a
    uu_hi, ud_hi = u[2], ud[2]  # Y's unrestricted hits at most, without and with its submarines' (qt below)
    zfire = np.zeros((2, at_x.shape[1]))  # the values X's fire reads from one column, by hits
    # Step 4 pulled over the rungs of ``reach`` (``ladder``, as solve's), steps 1-3 over
    # the rungs the traced solve noted (``marks``, rows x columns x step,
    # :func:`_noted_rung`), where it gave them: every outcome otherwise.
    ladder, b_lad, a_lad, u_lad, ud_lad, bits = _ladders(f, b, a, u, ud, tiny)
    flagged = back.shape[0] > 0
    _check_traced(visits, tagb, reach, marks, S, P, ND)
    met = tagb  # rows x columns: read along a row
    R = (S + 1) * W
    lo_flat = lo_s.reshape(-1)
    hi_flat = hi_s.reshape(-1)
    work = 0
    for r in backward_rows(S, P, BACK_BLOCK):
        if work > budget:
            return lo_s, hi_s, work
        s = S - r // W
        p = r % W
        ur = ud if xd[p] else u  # as in solve
        ur_lad = ud_lad if xd[p] else u_lad
        ysr = ys and not xd[p]
        uyr = uyd if xd[p] else uy
        ut, u_lo, u_hi, u_cut, _, _ = ur
        ax = alive_x[r]
        f_stay = p == P
        joint = p < q
        for d in range(ND - 1, -1, -1):
            # The later rows' values step 4 reads at the column CHANCE_AHEAD on (one run of
            # the tables by column, written a block of rows before: out of the caches).
            d2 = d - CHANCE_AHEAD
            if d2 >= 0 and not f_stay and met[r, d2] != 0:
                at = d2 * R + r + 1
                for x in range(0, min(P - p, PULL_SPAN), 8):
                    _prefetch(lo_flat, at + x)
                    _prefetch(hi_flat, at + x)
            tb = met[r, d]
            if tb == 0:  # never processed: anything (its other values are so already)
                vg_lo[d] = 0.0
                vg_hi[d] = 1.0
                continue
            i = yi[d]
            k = yk[d]
            # The tags worked out from the tag before (1 to rec): at a pair the traced
            # solve split, as far as the row after it kept its values for this column.
            rec = 0
            if chained and o_at[s, d] == p + 1 and p >= q and tb - 1 > gate and wide[k]:
                rec = min(max(tb - 1, 1) - 1, o_n[s, d])
            ay = alive_y[d]
            y_dead = not ay
            live, y_end, r_end, _, code = _fights(ax, ay, r, d, fire_x, gone, dive, back, shed, fire_y, y_air, alive_x,
                                                  yd)
            dest = yd[d]  # Y has a destroyer: step 0, then both sides' fire (as in solve)
            zl0 = zh0 = ql = qh = 0.0
            a0 = f00 = 1.0
            if dest:
                own = (uyr[0][d, 0] if ax else 1.0) * (bt[s, 0] * a[0][p, 0] if ay else 1.0)
                gel, geh, n = _destroyer_pull(ax, ay, s, p, d, S, P, q, uyr, b, a, nxt_strike, nxt_fire, lo_s, hi_s,
                                              dbuf)
                work += n
                sig0 = 1.0
            else:
                # Step 4 from the pair after X's fire, to later rows: tag 0, and the
                # others where the values after X's fire are kept (below).
                if not f_stay:
                    nt = 1 if joint and live else max(tb - 1, 1)
                    # (tags 1 to rec: from the tag before, _owed_back, once this pair's value is known)
                    work += _aircraft_pulls(f, ladder, k, 0, 1 if rec > 0 else nt, r, p, P, d, lo_s, hi_s, reach[r, d],
                                            z_lo, z_hi, spans, window, bits)
                    if rec > 0 and rec + 1 < nt:
                        work += _aircraft_pulls(f, ladder, k, rec + 1, nt, r, p, P, d, lo_s, hi_s, reach[r, d], z_lo,
                                                z_hi, spans, window, bits)
                    zl0, zh0 = z_lo[d, 0], z_hi[d, 0]
                # Step 3 from the pair after Y's unrestricted hits, to later columns.
                if not y_dead and not (joint and live):  # (there: the joint moves below)
                    h0, h1, out = _marked(a_lad, p, marks, r, d, 2, ax_cut[p], max(1, ax_lo[p]), ax_hi[p])
                    ql, qh, n = _fire_pull(a, p, h0, h1, out, d, nxt_fire, air_lost, zn, z_lo, z_hi)
                    work += n
                # Step 2 from the pair after the strike, to later rows.
                gl = 0.0
                gh = 0.0
                if ax and not joint:
                    # Where :func:`unrestricted` takes X, hits from nu0 up: up to s hits to
                    # (s - nu, p), read in qo; past them to (0, min(P, p + nu - s)), read in
                    # qt (X's dice those at p), but at p = P, where that is (0, P) in qo.
                    # Runs instead of a test per outcome: the same products in the same
                    # order.
                    nu0, nu1, out = _marked(ur_lad, i, marks, r, d, 1, u_cut[i], max(1, u_lo[i]), u_hi[i])
                    for nu in range(nu0, min(nu1, s) + 1):
                        c = ut[i, nu]
                        gl += c * qo_lo[p, d, s - nu]
                        gh += c * qo_hi[p, d, s - nu]
                    if p == P:
                        for nu in range(max(nu0, s + 1), nu1 + 1):
                            c = ut[i, nu]
                            gl += c * qo_lo[p, d, 0]
                            gh += c * qo_hi[p, d, 0]
                    else:
                        for nu in range(max(nu0, s + 1), nu1 + 1):
                            c = ut[i, nu]
                            pm = min(P, p + nu - s)
                            gl += c * qt_lo[d, p, pm]
                            gh += c * qt_hi[d, p, pm]
                    gh += out
                    work += max(nu1 - nu0 + 1, 0) + 1
                sig0, u0, a0, f00 = _stays(s, p, i, k, ax, ay, n_i, P, b, a, ur, f)
                own = u0 * a0 * f00
                gel = u0 * (a0 * zl0 + ql) + gl  # after the strike, but for this pair's own loop
                geh = u0 * (a0 * zh0 + qh) + gh
                if joint and live:
                    gel = 0.0
                    geh = 0.0
                    m = gvis[p, d]
                    if m == 0.0:  # never met: anything
                        geh = 1.0
                    else:
                        n, left = _joint_moves(s, p, d, i, k, S, P, q, ur, f, a, nxt_fire, tiny / m, *buf)
                        geh = left
                        for x in range(n):
                            c = buf[0][x]
                            gel += c * lo_s[buf[2][x], buf[1][x]]
                            geh += c * hi_s[buf[2][x], buf[1][x]]
                        work += n
            y0 = yt[i, 0] if ysr and ax else 1.0
            sl = 0.0  # step 1's moves
            sh = 0.0
            if not dest and (live or ysr) and s > 0 and i < n_i:
                j0, j1, out = _marked(b_lad, s, marks, r, d, 0, b_cut[s], max(1, b_lo[s]), b_hi[s])
                for j in range(j0, j1 + 1):
                    c = bt[s, j]
                    d2 = nxt_strike[d, j]
                    sl += c * vg_lo[d2]
                    sh += c * vg_hi[d2]
                sh += out
                work += max(j1 - j0 + 1, 0) + 1
            if live:
                loop = y0 * sig0 * own
                # A stalemate never wins; nor does a pair of the battle's retreat rule:
                # what a round brings there retreats.
                if loop >= 1.0 or (flagged and back[d, r]):
                    xl = 0.0
                    xh = 0.0
                else:
                    yl = 0.0  # step 0's moves
                    yh = 0.0
                    if y0 < 1.0:
                        yl, yh, n = _y_strike_pull(yb, quiet_b if dest else b, i, s, p, d, S, P, q, nxt_strike,
                                                    zv_lo, zv_hi, visits[d, r], tiny)
                        work += n
                    xl = (y0 * (sig0 * gel + sl) + yl) / (1.0 - loop)
                    xh = min(1.0, (y0 * (sig0 * geh + sh) + yh) / (1.0 - loop))
            else:
                xl = _end_value(code, alive_x[r_end], y_end, x_attacks, defender_fought)
                xh = xl
            lo_s[d, r] = xl
            hi_s[d, r] = xh
            vg_lo[d] = own * xl + gel
            vg_hi[d] = min(1.0, own * xh + geh)
            if ysr:
                zv_lo[d, r] = sig0 * vg_lo[d] + sl
                zv_hi[d, r] = min(1.0, sig0 * vg_hi[d] + sh)
            if dest or (joint and live):
                continue  # nothing pulls a live pair's later steps in this row but itself
            # The values after Y's unrestricted hits and after X's fire, kept (in a row
            # before X's submarines too where the pair ends the battle: a round begun
            # elsewhere passes through it, a strike taking Y there, and its fire pulls
            # them; left out, they read as anything, and a defender's lone transports,
            # made every retreat by win chance there a guess).
            z0l = f00 * xl + zl0
            z0h = f00 * xh + zh0
            qo_lo[p, d, s] = a0 * z0l + ql
            qo_hi[p, d, s] = min(1.0, a0 * z0h + qh)
            z_lo[d, 0] = z0l
            z_hi[d, 0] = min(1.0, z0h)
            nt = max(tb - 1, 1)
            if f_stay:  # every tag's value here, kept or not: aircraft hits land nowhere
                for t in range(1, KT):
                    z_lo[d, t] = xl
                    z_hi[d, t] = xh
            else:
                if rec > 0:
                    work += _owed_back(z_lo, z_hi, d, rec, k, units, o_lo[s, d], o_hi[s, d])
                for t in range(rec + 1, nt):  # (step 4's sums of these tags: pulled above)
                    kk = k - t
                    z_lo[d, t] = ft[kk, 0] * xl + z_lo[d, t]
                    z_hi[d, t] = min(1.0, ft[kk, 0] * xh + z_hi[d, t])
            if chained:
                keep = _kept_for(met, r, p, q, d, gate, wide[k], KT if f_stay else nt)
                if keep > 0:
                    o_lo[s, d, :keep] = z_lo[d, :keep]
                    o_hi[s, d, :keep] = z_hi[d, :keep]
                    o_n[s, d] = keep
                    o_at[s, d] = p
            zn[d] = nt
            if s == 0 and y_dead:
                for src in range(p):
                    qt_lo[d, src, p] = z0l
                    qt_hi[d, src, p] = z0h
            elif s == 0 and p > 0:
                # :func:`_fire_pull` from every src step 2 reads here (outcomes from 0
                # on): each reads the same values by hits, gathered once (the kept tags'
                # values, else anything: 0 and 1), then read in runs.  The same products
                # in the same order: the same sums, bit for bit.  Step 2 comes here from
                # a row (s', src) with nu > s' of Y's unrestricted hits: p - src <= nu
                # <= the most Y's unrestricted fire at i scores (with its submarines'
                # or not), so the rows further back never read these values (against
                # 85 aircraft, X's 96 other steps: ~2/5 of the pass's products).
                for h in range(at_x.shape[1]):
                    d2 = nxt_fire[d, h]
                    t = air_lost[d, h]
                    if t < zn[d2]:
                        zfire[0, h] = z_lo[d2, t]
                        zfire[1, h] = z_hi[d2, t]
                    else:
                        zfire[0, h] = 0.0
                        zfire[1, h] = 1.0
                for src in range(max(0, p - max(uu_hi[i], ud_hi[i])), p):
                    tl = 0.0
                    th = ax_cut[src]
                    for h in range(ax_lo[src], ax_hi[src] + 1):
                        c = at_x[src, h]
                        tl += c * zfire[0, h]
                        th += c * zfire[1, h]
                    qt_lo[d, src, p] = tl
                    qt_hi[d, src, p] = min(1.0, th)
                    work += ax_hi[src] - ax_lo[src] + 1
        zn[:] = 0
    return lo_s, hi_s, work


@_compiled
def verdicts(low: Any, high: Any, visits: Any, below: float, at: float, above: float) -> tuple[Any, float]:
    """The decisions of a retreat by win chance from :func:`chances`' intervals, in one
    pass over the tables (columns x rows): ``(retreat, unsure)``, the pairs where the
    attacker retreats and the visits of those left unsure.  At each pair with round
    starts (``visits`` above 0) the rule of :func:`engine.odds.aa_retreat._verdicts` with
    the threshold's band ``(below, at, above)``
    (:func:`engine.odds.aa_battle.retreat_band`): retreat where the interval is wholly
    below ``below``; where it reaches from ``below`` into ``above``, its middle decides
    against ``at`` and the pair's visits count as unsure.  (numpy's masks, one table of
    ~60 MB read and written over four times, took ~70 ms of the defender-strike
    retreat by win chance at 100 a side.)"""
    cols, rows = visits.shape
    retreat = np.zeros((cols, rows), dtype=np.bool_)
    unsure = 0.0
    for c in range(cols):
        for r in range(rows):
            v = visits[c, r]
            if v > 0.0:
                lo = low[c, r]
                hi = high[c, r]
                if hi < below:
                    retreat[c, r] = True
                elif lo < above:
                    unsure += v
                    if (lo + hi) / 2 < at:
                        retreat[c, r] = True
    return retreat, unsure


@_compiled
def retreat_starts(visits: Any, back: Any, start: Any, start_m: Any) -> tuple[Any, Any, float]:
    """A traced solve's round starts (``visits``, columns x rows) made, in place, those of
    the retreat pairs ``back`` but round 1's (``start``: flat indices, ``start_m`` their
    masses; 0 elsewhere), for the solve with the retreats as its correction
    (:meth:`engine.odds.aa_strike.StrikeSolver._corrected`), in one pass: ``(by X row,
    by Y column, in all)``."""
    cols, rows = visits.shape
    flat = visits.reshape(-1)
    bflat = back.reshape(-1)
    for x in range(start.shape[0]):
        at = start[x]
        if bflat[at]:
            flat[at] = max(flat[at] - start_m[x], 0.0)
    by_x = np.zeros(rows)
    by_y = np.zeros(cols)
    total = 0.0
    for c in range(cols):
        for r in range(rows):
            v = visits[c, r]
            if back[c, r]:
                by_x[r] += v
                by_y[c] += v
                total += v
            elif v != 0.0:  # (a page of zeros the traced solve never touched stays so)
                visits[c, r] = 0.0
    return by_x, by_y, total
