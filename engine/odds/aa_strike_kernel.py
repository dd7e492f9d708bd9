"""The compiled loop of :mod:`engine.odds.aa_strike` (numba): one pass over every pair
of states of a sea battle where one side's submarines strike every round.

Only arrays and numbers come in and go out; what they mean is set out in
:mod:`engine.odds.aa_strike`.  The loop is compiled once per machine (numba's cache,
beside this file or in ``NUMBA_CACHE_DIR``) and releases the GIL while it runs.

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
so chaining them gives the round's distribution.  Every move except "no hit" goes to a
later row or a later column, so each pair is met once, in row order then column order,
and its "nobody is hit" loop is summed in closed form.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar, cast

import numba
import numpy as np

Fn = TypeVar("Fn", bound=Callable[..., Any])

# Outcome rows of the end tables.
ATT, DEF, DRAW, STALE = 0, 1, 2, 3


def _compiled(fn: Fn) -> Fn:
    return cast(Fn, numba.njit(cache=True, nogil=True)(fn))


@_compiled
def _outcome(ax: bool, ay: bool, x_attacks: bool, defender_fought: bool) -> int:
    att = ax if x_attacks else ay
    dfn = ay if x_attacks else ax
    if att and not dfn:
        return ATT
    if dfn or not defender_fought:
        return DEF
    return DRAW


@_compiled
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


@_compiled
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


@_compiled
def unrestricted(P: int, s: int, p: int, u: int) -> tuple[int, int]:
    """:func:`land` with no aircraft hits, from a row past the steps before the
    submarines (``p >= q``): the submarines first, then the other steps."""
    if u <= s:
        return s - u, p
    return 0, min(P, p + u - s)


@_compiled
def aircraft(P: int, p: int, f: int) -> int:
    """:func:`land` with aircraft hits only: the first other steps left.  From a row past
    the steps before the submarines, ``land(s, p, u, f)`` is ``unrestricted`` then
    ``aircraft`` (either order)."""
    return min(P, p + f)


@_compiled
def solve(
    S: int, P: int, q: int, x_attacks: bool, defender_fought: bool,
    alive_x: Any, alive_y: Any, yi: Any, yk: Any, n_i: int,
    nxt_strike: Any, nxt_fire: Any, air_lost: Any,
    b: Any, b_lo: Any, b_hi: Any, b_cut: Any, b_md: Any, b_cum: Any,
    a: Any, a_lo: Any, a_hi: Any, a_cut: Any, a_md: Any, a_cum: Any,
    u_d: Any, u_lo: Any, u_hi: Any, u_cut: Any, u_md: Any, u_cum: Any,
    f_d: Any, f_lo: Any, f_hi: Any, f_cut: Any, f_md: Any, f_cum: Any,
    ps: Any, tiny: float, max_seen: int,
) -> tuple[Any, Any, float, float, int]:
    """Spread the round-start masses ``ps`` (columns x rows, changed in place) to the
    end: ``(ends_x, ends_y, rounds, dropped, seen)``, the final masses by outcome and X
    row, by outcome and Y column, the rounds fought (expected), the mass left out
    (below ``tiny``, or dice outcomes cut from the distributions) and the pairs
    processed; ``seen`` is -1 once past ``max_seen`` (nothing else is then complete).

    Distributions are rows of 2-d arrays with the first and last index kept (``*_lo``,
    ``*_hi``) and the chance cut from them (``*_cut``): ``b`` X's strike by
    submarines, ``a`` X's general fire by p, ``u_d`` Y's unrestricted fire by its
    position ``yi`` along its steps that are not aircraft, ``f_d`` Y's aircraft fire by
    ``yk``, its aircraft steps taken.  ``nxt_strike[d, j]`` and ``nxt_fire[d, h]`` are
    where j strike hits and h general hits take Y, ``air_lost[d, h]`` the aircraft the
    latter cost it.  Rows with ``p < q`` (X's steps before its submarines not all
    taken; then ``s == S``) move X by both kinds of Y's hits at once (A-10.14: the
    aircraft's hits take the first of those steps, the others what is left)."""
    W = P + 1
    R = (S + 1) * W
    ND = alive_y.shape[0]
    HM = a.shape[1]
    KT = 1
    for d in range(ND):
        for h in range(HM):
            if air_lost[d, h] + 1 > KT:
                KT = air_lost[d, h] + 1
    x1 = np.zeros((ND, R))
    x1e = np.zeros((W, ND, W))
    ends_x = np.zeros((4, R))
    ends_y = np.zeros((4, ND))
    g_row = np.zeros(ND)
    x2 = np.zeros((ND, KT))
    tags = np.zeros(ND, dtype=np.int64)  # a column's tags in x2 are below this
    hb = np.zeros(HM)
    FM = f_d.shape[1]
    fb = np.zeros(FM)
    rounds = 0.0
    dropped = 0.0
    seen = 0
    for s in range(S, -1, -1):
        for p in range(W):
            r = (S - s) * W + p
            g_row[:] = 0.0
            for d in range(ND):
                for t in range(tags[d]):
                    x2[d, t] = 0.0
                tags[d] = 0
            ax = alive_x[r]
            joint = p < q
            f_stay = p == P  # none of X's other steps left: Y's aircraft hits land nowhere
            for d in range(ND):
                sx = ps[d, r]
                gx = g_row[d]
                xu = x1[d, r]
                e_tot = 0.0
                if s == 0:
                    for src in range(p):
                        e_tot += x1e[p, d, src]
                nt = tags[d]
                x2t = 0.0
                for t in range(nt):
                    x2t += x2[d, t]
                total = sx + gx + xu + x2t + e_tot
                if total == 0.0:
                    continue
                if total < tiny:
                    dropped += total
                    continue
                i = yi[d]
                k = yk[d]
                ay = alive_y[d]
                y_dead = not ay
                live = ax and ay
                # X's general fire from where its other steps stood before Y's hits
                # went past its submarines (step 2's tags), by hits.
                hstay = 0.0
                if e_tot > 0.0:
                    hb[:] = 0.0
                    for src in range(p):
                        m = x1e[p, d, src]
                        if m == 0.0:
                            continue
                        for h in range(a_lo[src], a_hi[src] + 1):
                            hb[h] += m * a[src, h]
                        dropped += m * a_cut[src]
                    if y_dead:
                        for h in range(HM):
                            hstay += hb[h]
                    else:
                        hstay = hb[0]
                # The chances that each phase leaves the pair as it is.
                sig0 = 1.0 if (i >= n_i or s == 0) else b[s, 0]
                u0 = 1.0 if not ax else u_d[i, 0]
                a0 = 1.0 if y_dead else a[p, 0]
                f00 = 1.0 if f_stay else f_d[k, 0]
                s_in = sx
                for t in range(nt):
                    m = x2[d, t]
                    if m != 0.0:
                        s_in += m * (1.0 if f_stay else f_d[k - t, 0])
                s_in += (xu * a0 + hstay) * f00
                own = u0 * a0 * f00
                if live:
                    loop = sig0 * own
                    if loop >= 1.0:  # nothing can change any more
                        m = s_in + gx
                        ends_x[STALE, r] += m
                        ends_y[STALE, d] += m
                        continue
                    seen += 1
                    if seen > max_seen:
                        return ends_x, ends_y, rounds, dropped, -1
                    sv = (s_in + gx * own) / (1.0 - loop)
                    gv = gx + sv * sig0
                    rounds += sv
                else:
                    sv = s_in + gx * own
                    gv = gx
                    o = _outcome(ax, ay, x_attacks, defender_fought)
                    ends_x[o, r] += sv
                    ends_y[o, d] += sv
                if live:
                    # 1. X's strike.
                    if s > 0 and i < n_i:
                        lo, hi, out = _span(b, b_md, b_cum, s, sv, tiny)
                        dropped += sv * (b_cut[s] + out)
                        for j in range(lo, hi + 1):
                            g_row[nxt_strike[d, j]] += sv * b[s, j]
                    if joint:
                        # Y's hits of both kinds at once, then X's general fire.
                        dropped += gv * (u_cut[i] + f_cut[k] + a_cut[p])
                        for u in range(u_lo[i], u_hi[i] + 1):
                            wu = gv * u_d[i, u]
                            if wu < tiny:
                                dropped += wu
                                continue
                            for f in range(f_lo[k], f_hi[k] + 1):
                                wuf = wu * f_d[k, f]
                                if wuf < tiny:
                                    dropped += wuf
                                    continue
                                s2, p2 = land(S, P, q, s, p, u, f)
                                r2 = (S - s2) * W + p2
                                for h in range(a_lo[p], a_hi[p] + 1):
                                    if u == 0 and f == 0 and h == 0:
                                        continue
                                    w = wuf * a[p, h]
                                    if w < tiny:
                                        dropped += w
                                        continue
                                    ps[nxt_fire[d, h], r2] += w
                        continue
                    # 2. Y's unrestricted hits: submarines first, then X's other steps.
                    lo, hi, out = _span(u_d, u_md, u_cum, i, gv, tiny)
                    dropped += gv * (u_cut[i] + out)
                    for u in range(lo, hi + 1):
                        w = gv * u_d[i, u]
                        s2, pm = unrestricted(P, s, p, u)
                        if pm == p:
                            x1[d, (S - s2) * W + p] += w
                        else:  # past the submarines: X's dice are still those at p
                            x1e[pm, d, p] += w
                x1t = xu + gv * u0
                # 3. X's general fire (its dice at p; the tagged ones in hb).
                if not y_dead:
                    if e_tot > 0.0:  # the tagged fire too: every outcome, each checked
                        dropped += x1t * a_cut[p]
                        lo = 1
                        hi = HM - 1
                    else:
                        lo, hi, out = _span(a, a_md, a_cum, p, x1t, tiny)
                        dropped += x1t * (a_cut[p] + out)
                    for h in range(lo, hi + 1):
                        w = x1t * a[p, h]
                        if e_tot > 0.0:
                            w += hb[h]
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
                # 4. Y's aircraft hits (its aircraft before step 3: k - t), summed over
                # the tags first: one push per row reached.
                if not f_stay:
                    x20 = x1t * a0 + hstay
                    lo = FM
                    hi = 0
                    for t in range(max(nt, 1)):
                        m = x2[d, t]
                        if t == 0:
                            m += x20
                        if m == 0.0:
                            continue
                        kk = k - t
                        f0, f1, out = _span(f_d, f_md, f_cum, kk, m, tiny)
                        dropped += m * (f_cut[kk] + out)
                        for f in range(f0, f1 + 1):
                            fb[f] += m * f_d[kk, f]
                        lo = min(lo, f0)
                        hi = max(hi, f1)
                    for f in range(lo, hi + 1):
                        w = fb[f]
                        fb[f] = 0.0
                        if w == 0.0:
                            continue
                        if w < tiny:
                            dropped += w
                            continue
                        ps[d, r + aircraft(P, p, f) - p] += w
    return ends_x, ends_y, rounds, dropped, seen
