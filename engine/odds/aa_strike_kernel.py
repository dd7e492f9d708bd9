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
later row or a later column, so :func:`solve` meets each pair once, in row order then
column order, and sums its "nobody is hit" loop in closed form; :func:`walk` takes a
number of rounds instead, every pair each round.

A distribution comes as a tuple ``(table, first, last, cut, mode, cum)`` (see
:func:`engine.odds.aa_strike._dist_table`): ``b`` X's strike by submarines left, ``a``
X's general fire by p, ``u`` Y's unrestricted fire by ``yi`` (its steps that are not
aircraft taken), ``f`` Y's aircraft fire by ``yk`` (its aircraft steps taken).
``nxt_strike[d, j]`` and ``nxt_fire[d, h]`` are where j strike hits and h general hits
take Y, ``air_lost[d, h]`` the aircraft the latter cost it.  Rows with ``p < q`` (X's
steps before its submarines not all taken; then ``s == S``) move X by both kinds of
Y's hits at once (A-10.14: the aircraft's hits take the first of those steps, the
others what is left).  Products below ``tiny`` are left out, their mass counted.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar, cast

import numba
import numpy as np

Fn = TypeVar("Fn", bound=Callable[..., Any])

# Outcome rows of the end tables.
ATT, DEF, DRAW, STALE, BACK = 0, 1, 2, 3, 4  # BACK: the attacker retreated


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
def _tags(air_lost: Any) -> int:
    """How many tags step 3 may give a column: the most aircraft one general fire takes,
    plus one."""
    kt = 1
    for d in range(air_lost.shape[0]):
        for h in range(air_lost.shape[1]):
            kt = max(kt, air_lost[d, h] + 1)
    return kt


@_compiled
def _strike(m: float, s: int, d: int, into: Any, b: Any, nxt_strike: Any, tiny: float) -> tuple[float, int]:
    """Step 1 from mass ``m``: X's strike hits (at least one) move Y along its
    non-aircraft steps, into ``into[column]``; ``(dropped, products)``."""
    table, _, _, cut, mode, cum = b
    lo, hi, out = _span(table, mode, cum, s, m, tiny)
    for j in range(lo, hi + 1):
        into[nxt_strike[d, j]] += m * table[s, j]
    return m * (cut[s] + out), hi - lo + 1


@_compiled
def _unrestricted(m: float, s: int, p: int, d: int, i: int, S: int, P: int, x1: Any, x1e: Any, u: Any,
                  tiny: float) -> tuple[float, int]:
    """Step 2 from mass ``m``: Y's unrestricted hits (at least one) move X from (s, p)
    (submarines first), into ``x1`` (columns x rows), or, past X's submarines, into
    ``x1e[p', d, p]`` (X's dice still those at p); ``(dropped, products)``."""
    table, _, _, cut, mode, cum = u
    W = P + 1
    lo, hi, out = _span(table, mode, cum, i, m, tiny)
    for n in range(lo, hi + 1):
        w = m * table[i, n]
        s2, pm = unrestricted(P, s, p, n)
        if pm == p:
            x1[d, (S - s2) * W + p] += w
        else:
            x1e[pm, d, p] += w
    return m * (cut[i] + out), hi - lo + 1


@_compiled
def _joint(m: float, s: int, p: int, d: int, i: int, k: int, S: int, P: int, q: int, into: Any,
           u: Any, f: Any, a: Any, nxt_fire: Any, tiny: float) -> tuple[float, int]:
    """Steps 2-4 at once from mass ``m`` at a row before X's submarines (``p < q``): Y's
    hits of both kinds (:func:`land`) and X's general fire, into ``into`` (columns x
    rows), nothing hit at all left out (a stay); ``(dropped, products)``."""
    ut, u_lo, u_hi, u_cut, _, _ = u
    ft, f_lo, f_hi, f_cut, _, _ = f
    at, a_lo, a_hi, a_cut, _, _ = a
    W = P + 1
    dropped = m * (u_cut[i] + f_cut[k] + a_cut[p])
    n = 0
    for nu in range(u_lo[i], u_hi[i] + 1):
        wu = m * ut[i, nu]
        if wu < tiny:
            dropped += wu
            continue
        for nf in range(f_lo[k], f_hi[k] + 1):
            wuf = wu * ft[k, nf]
            if wuf < tiny:
                dropped += wuf
                continue
            s2, p2 = land(S, P, q, s, p, nu, nf)
            r2 = (S - s2) * W + p2
            for h in range(a_lo[p], a_hi[p] + 1):
                if nu == 0 and nf == 0 and h == 0:
                    continue
                w = wuf * at[p, h]
                n += 1
                if w < tiny:
                    dropped += w
                    continue
                into[nxt_fire[d, h], r2] += w
    return dropped, n


@_compiled
def _excess(x1e: Any, p: int, d: int, a: Any, hb: Any) -> tuple[float, float]:
    """Step 3's fire of the masses kept at row (0, p) by where X's other steps stood
    (``x1e[p, d, src]``, taken out), by hits into ``hb`` (zeroed first): ``(their mass,
    the chance cut)``."""
    at, a_lo, a_hi, a_cut, _, _ = a
    hb[:] = 0.0
    total = 0.0
    cut = 0.0
    for src in range(p):
        m = x1e[p, d, src]
        if m == 0.0:
            continue
        x1e[p, d, src] = 0.0
        total += m
        for h in range(a_lo[src], a_hi[src] + 1):
            hb[h] += m * at[src, h]
        cut += m * a_cut[src]
    return total, cut


@_compiled
def _fire(m: float, p: int, d: int, hb: Any, tagged: bool, x2: Any, tags: Any, a: Any, nxt_fire: Any,
          air_lost: Any, tiny: float) -> tuple[float, int]:
    """Step 3 from mass ``m`` (X's dice at p) and, when ``tagged``, the fire of
    :func:`_excess` in ``hb``: X's general hits (at least one) move Y along its loss
    order, into the row's ``x2[column, aircraft lost]`` (``tags``: each column's bound);
    ``(dropped, products)``."""
    table, _, _, cut, mode, cum = a
    if tagged:  # every outcome, each checked
        dropped = m * cut[p]
        lo = 1
        hi = hb.shape[0] - 1
    else:
        lo, hi, out = _span(table, mode, cum, p, m, tiny)
        dropped = m * (cut[p] + out)
    for h in range(lo, hi + 1):
        w = m * table[p, h]
        if tagged:
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
    return dropped, hi - lo + 1


@_compiled
def _aircraft(x2: Any, d: int, nt: int, own: float, k: int, p: int, P: int, r: int, into: Any, fb: Any,
              f: Any, tiny: float) -> tuple[float, int]:
    """Step 4 from the row's ``x2[d, t]`` (t < ``nt``; ``own`` added to tag 0): Y's
    aircraft hits (at least one; its aircraft at k - t rolling) move X along its other
    steps, summed over the tags first (``fb``), into ``into`` (columns x rows);
    ``(dropped, products)``."""
    table, _, _, cut, mode, cum = f
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
        f0, f1, out = _span(table, mode, cum, kk, m, tiny)
        dropped += m * (cut[kk] + out)
        for nf in range(f0, f1 + 1):
            fb[nf] += m * table[kk, nf]
        n += f1 - f0 + 1
        lo = min(lo, f0)
        hi = max(hi, f1)
    for nf in range(lo, hi + 1):
        w = fb[nf]
        fb[nf] = 0.0
        if w == 0.0:
            continue
        if w < tiny:
            dropped += w
            continue
        into[d, r + aircraft(P, p, nf) - p] += w
    return dropped, n


@_compiled
def _clear(x2: Any, tags: Any) -> None:
    for d in range(tags.shape[0]):
        for t in range(tags[d]):
            x2[d, t] = 0.0
        tags[d] = 0


@_compiled
def solve(
    S: int, P: int, q: int, x_attacks: bool, defender_fought: bool,
    alive_x: Any, alive_y: Any, yi: Any, yk: Any, n_i: int,
    nxt_strike: Any, nxt_fire: Any, air_lost: Any, b: Any, a: Any, u: Any, f: Any,
    ps: Any, back: Any, first: Any, tiny: float, max_seen: int, budget: int,
) -> tuple[Any, Any, float, float, int, int]:
    """Spread the round-start masses ``ps`` (columns x rows, changed) to the end:
    ``(ends_x, ends_y, rounds, dropped, seen, work)``, the final masses by outcome and
    X row, by outcome and Y column, the rounds fought (expected), the mass left out, the
    pairs processed (-1 once past ``max_seen``) and the products made (checked against
    ``budget`` after each row; past it, the pass stops and nothing else is complete).
    Where ``back`` (columns x rows, or empty for none) is true, the attacker retreats
    after a round (A-10.15): whatever arrives there ends as a retreat, and only the
    masses there before round 1 (``first``) fight from it."""
    W = P + 1
    R = (S + 1) * W
    ND = alive_y.shape[0]
    HM = a[0].shape[1]
    x1 = np.zeros((ND, R))
    x1e = np.zeros((W, ND, W))
    ends_x = np.zeros((5, R))
    ends_y = np.zeros((5, ND))
    g_row = np.zeros(ND)
    x2 = np.zeros((ND, _tags(air_lost)))
    tags = np.zeros(ND, dtype=np.int64)  # a column's tags in x2 are below this
    hb = np.zeros(HM)
    fb = np.zeros(f[0].shape[1])
    rounds = 0.0
    dropped = 0.0
    seen = 0
    work = 0
    flagged = back.shape[0] > 0
    for s in range(S, -1, -1):
        for p in range(W):
            if work > budget:
                return ends_x, ends_y, rounds, dropped, seen, work
            r = (S - s) * W + p
            g_row[:] = 0.0
            _clear(x2, tags)
            ax = alive_x[r]
            f_stay = p == P  # none of X's other steps left: Y's aircraft hits land nowhere
            for d in range(ND):
                sx = ps[d, r]
                gx = g_row[d]
                xu = x1[d, r]
                nt = tags[d]
                total = sx + gx + xu
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
                i = yi[d]
                k = yk[d]
                ay = alive_y[d]
                y_dead = not ay
                live = ax and ay
                hstay = 0.0  # the tagged fire that leaves Y as it is
                if e_tot > 0.0:
                    if y_dead:
                        for h in range(HM):
                            hstay += hb[h]
                    else:
                        hstay = hb[0]
                # The chances that each phase leaves the pair as it is.
                sig0 = 1.0 if (i >= n_i or s == 0) else b[0][s, 0]
                u0 = 1.0 if not ax else u[0][i, 0]
                a0 = 1.0 if y_dead else a[0][p, 0]
                f00 = 1.0 if f_stay else f[0][k, 0]
                s_in = sx
                for t in range(nt):
                    m = x2[d, t]
                    if m != 0.0:
                        s_in += m * (1.0 if f_stay else f[0][k - t, 0])
                s_in += (xu * a0 + hstay) * f00
                own = u0 * a0 * f00
                if live:
                    loop = sig0 * own
                    stays = loop < 1.0
                    if flagged and back[d, r]:
                        # What a round brings here retreats; the masses there before
                        # round 1 fight it (a stalemate: they stay).
                        m0 = first[d, r]
                        gv = gx + (m0 * sig0 if stays else 0.0)
                        m = s_in - m0 + gv * own
                        ends_x[BACK, r] += m
                        ends_y[BACK, d] += m
                        if not stays:
                            ends_x[STALE, r] += m0
                            ends_y[STALE, d] += m0
                            continue
                        sv = m0
                    elif not stays:  # nothing can change any more
                        m = s_in + gx
                        ends_x[STALE, r] += m
                        ends_y[STALE, d] += m
                        continue
                    else:
                        sv = (s_in + gx * own) / (1.0 - loop)
                        gv = gx + sv * sig0
                    seen += 1
                    if seen > max_seen:
                        return ends_x, ends_y, rounds, dropped, -1, work
                    rounds += sv
                    work += 1
                    if s > 0 and i < n_i:
                        lost, n = _strike(sv, s, d, g_row, b, nxt_strike, tiny)
                        dropped += lost
                        work += n
                    if p < q:
                        lost, n = _joint(gv, s, p, d, i, k, S, P, q, ps, u, f, a, nxt_fire, tiny)
                        dropped += lost
                        work += n
                        continue
                    lost, n = _unrestricted(gv, s, p, d, i, S, P, x1, x1e, u, tiny)
                    dropped += lost
                    work += n
                else:
                    sv = s_in + gx * own
                    gv = gx
                    o = _outcome(ax, ay, x_attacks, defender_fought)
                    ends_x[o, r] += sv
                    ends_y[o, d] += sv
                x1t = xu + gv * u0
                if not y_dead:
                    lost, n = _fire(x1t, p, d, hb, e_tot > 0.0, x2, tags, a, nxt_fire, air_lost, tiny)
                    dropped += lost
                    work += n
                if not f_stay:
                    lost, n = _aircraft(x2, d, nt, x1t * a0 + hstay, k, p, P, r, ps, fb, f, tiny)
                    dropped += lost
                    work += n
    return ends_x, ends_y, rounds, dropped, seen, work


@_compiled
def walk(
    S: int, P: int, q: int, x_attacks: bool, defender_fought: bool,
    alive_x: Any, alive_y: Any, yi: Any, yk: Any, n_i: int,
    nxt_strike: Any, nxt_fire: Any, air_lost: Any, b: Any, a: Any, u: Any, f: Any,
    ps: Any, back: Any, rounds: int, tiny: float, budget: int,
) -> tuple[Any, Any, float, float, int]:
    """``rounds`` rounds from the round-start masses ``ps`` (columns x rows, changed:
    what still fights after the last round is left there): ``(ends_x, ends_y, fought,
    dropped, work)`` as :func:`solve`'s, the rounds fought (expected) and the products
    made (checked against ``budget`` after each phase of a round).  A round takes every
    pair at once: the strikes (a pair nothing can change is a stalemate), Y's
    unrestricted hits, then row by row X's fire and Y's aircraft hits, then the
    end-of-round rules (a side destroyed; the attacker retreating where ``back``, as in
    :func:`solve`)."""
    W = P + 1
    R = (S + 1) * W
    ND = alive_y.shape[0]
    HM = a[0].shape[1]
    g = np.zeros((ND, R))
    x1 = np.zeros((ND, R))
    x1e = np.zeros((W, ND, W))
    nxt = np.zeros((ND, R))
    ends_x = np.zeros((5, R))
    ends_y = np.zeros((5, ND))
    x2 = np.zeros((ND, _tags(air_lost)))
    tags = np.zeros(ND, dtype=np.int64)
    hb = np.zeros(HM)
    fb = np.zeros(f[0].shape[1])
    fought = 0.0
    dropped = 0.0
    work = 0
    flagged = back.shape[0] > 0
    for _ in range(rounds):
        # Step 1, and the pairs nothing can change any more.
        for r in range(R):
            s = S - r // W
            p = r % W
            for d in range(ND):
                m = ps[d, r]
                if m == 0.0:
                    continue
                ps[d, r] = 0.0
                if m < tiny:
                    dropped += m
                    continue
                i = yi[d]
                k = yk[d]
                sig0 = 1.0 if (i >= n_i or s == 0) else b[0][s, 0]
                f00 = 1.0 if p == P else f[0][k, 0]
                if sig0 * u[0][i, 0] * a[0][p, 0] * f00 >= 1.0:
                    ends_x[STALE, r] += m
                    ends_y[STALE, d] += m
                    continue
                fought += m
                g[d, r] += m * sig0
                if sig0 < 1.0:
                    lost, n = _strike(m, s, d, g[:, r], b, nxt_strike, tiny)
                    dropped += lost
                    work += n
        if work > budget:
            break
        # Step 2 (the rows before X's submarines: steps 2-4 at once).
        for r in range(R):
            s = S - r // W
            p = r % W
            for d in range(ND):
                m = g[d, r]
                if m == 0.0:
                    continue
                g[d, r] = 0.0
                if m < tiny:
                    dropped += m
                    continue
                i = yi[d]
                k = yk[d]
                if p < q:
                    nxt[d, r] += m * u[0][i, 0] * f[0][k, 0] * a[0][p, 0]
                    lost, n = _joint(m, s, p, d, i, k, S, P, q, nxt, u, f, a, nxt_fire, tiny)
                else:
                    x1[d, r] += m * u[0][i, 0]
                    lost, n = _unrestricted(m, s, p, d, i, S, P, x1, x1e, u, tiny)
                dropped += lost
                work += n
        if work > budget:
            break
        # Steps 3 and 4, row by row (step 3 stays in the row, at later columns).
        for r in range(R):
            s = S - r // W
            p = r % W
            _clear(x2, tags)
            for d in range(ND):
                m = x1[d, r]
                x1[d, r] = 0.0
                e_tot = 0.0
                if s == 0:
                    e_tot, cut = _excess(x1e, p, d, a, hb)
                    dropped += cut
                if m != 0.0 or e_tot != 0.0:
                    if alive_y[d]:
                        x2[d, 0] += m * a[0][p, 0] + (hb[0] if e_tot > 0.0 else 0.0)
                        if tags[d] == 0:
                            tags[d] = 1
                        lost, n = _fire(m, p, d, hb, e_tot > 0.0, x2, tags, a, nxt_fire, air_lost, tiny)
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
                k = yk[d]
                if p == P:  # Y's aircraft hits land nowhere
                    for t in range(nt):
                        nxt[d, r] += x2[d, t]
                    continue
                for t in range(nt):
                    nxt[d, r] += x2[d, t] * f[0][k - t, 0]
                lost, n = _aircraft(x2, d, nt, 0.0, k, p, P, r, nxt, fb, f, tiny)
                dropped += lost
                work += n
        if work > budget:
            break
        # The end of the round: a side destroyed ends the battle.
        for r in range(R):
            ax = alive_x[r]
            for d in range(ND):
                m = nxt[d, r]
                if m == 0.0:
                    continue
                nxt[d, r] = 0.0
                ay = alive_y[d]
                if ax and ay and flagged and back[d, r]:
                    ends_x[BACK, r] += m
                    ends_y[BACK, d] += m
                elif ax and ay:
                    ps[d, r] = m
                else:
                    o = _outcome(ax, ay, x_attacks, defender_fought)
                    ends_x[o, r] += m
                    ends_y[o, d] += m
    return ends_x, ends_y, fought, dropped, work
