"""Retreating when the chance to win falls below X % in battles with submarines.

The table engine (:mod:`engine.odds.aa_table`) has its own backward pass for battles
without submarines.  Here the general engine's rounds (:meth:`GeneralEngine.factors`,
surprise strikes and hit restrictions included, A-10.6) give the chance that fighting on
wins from each pair of states, and the pairs where it is below the threshold are where
the attacker retreats (:func:`retreat_pairs`); the battle is then solved again with that
rule in :meth:`BattleSetup.settle`.

1. *Forward*, the battle without the rule, from the most hit points to the fewest, each
   pair once, as the general engine's solve: a pair holding less than ``TINY`` is not
   spread, nor is a result that would bring less than ``TINY``.  With the rule a pair
   can only hold less, so the pairs kept are the only ones that need a decision.
2. *Backward*, from the fewest hit points up: the chance to win from each kept pair as an
   interval — a result left out, or a successor never kept, counts anything between 0
   and its chance.  Where the pair holds much, the interval is very narrow.
3. Decisions: retreat where the interval is wholly below the threshold, fight on where it
   is wholly at or above it.  Where it straddles the threshold, its middle decides, and
   the pair's whole mass (every arrival there) is added to the error bound: a wrong
   decision there moves no more than that.  In exact fractions nothing is left out, so
   the intervals are points and every decision is exact.

In decimals, when round 1 is like any other, the same three steps run in numpy
(:func:`numpy_pass`, decided all at once by :func:`_verdicts`): the forward pass is the
numpy solve of :mod:`engine.odds.aa_naval`, traced level by level, and the backward pass
mixes each pair's stored results with chances instead of masses
(:meth:`NavalSolver.win_chances`: its low bound counts what the forward pass left out as
never winning, its high bound adds the chance of ever taking a step left out, mixed
backward too); the battle with the retreats then reuses its stored results, fought to
the end as the traced solve's correction where little of it comes to a retreat
(:func:`engine.odds.aa_naval.corrected`), solved again otherwise.  The dict passes below
stay for exact fractions, for the other starts, and as the tests' reference.

**Ruling** (as in the table engine): the chance is the one of fighting on to the end;
the retreat rule itself is not folded into it.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from engine.odds.aa_battle import ATTACKER, TINY, BattleSetup, Tally, Work, retreat_band, too_many_states
from engine.odds.aa_general import GeneralEngine, Pair
from engine.odds.dist import N

if TYPE_CHECKING:  # numpy: imported for float solves only
    from engine.odds.aa_naval import Arr, NavalSolver, NumberedSides

# A kept pair: its mass (arrivals, its loop summed), the chance a round leaves it as it
# is, the other results (chance, next live pair or None if the battle ended, attacker
# won), and the chance of the results left out.
Kept = tuple[N, N, list[tuple[N, "Pair | None", bool]], N]


def _forward(setup: BattleSetup[N], max_states: int | None) -> dict[Pair, Kept[N]]:
    engine: GeneralEngine[N] = GeneralEngine(setup, vectorised=False)
    att, dfn = setup.attacker, setup.defender
    settle = setup.settle
    zero = setup.unit - setup.unit
    floats = isinstance(setup.unit, float)

    def level(pair: Pair) -> int:
        return att.hp(pair[0]) + dfn.hp(pair[1])

    buckets: dict[int, dict[Pair, N]] = {}

    def add(pair: Pair, m: N) -> None:
        b = buckets.setdefault(level(pair), {})
        b[pair] = b.get(pair, zero) + m

    for start in setup.starts:  # round 1 (GeneralEngine.run)
        fires = start.defender_fires_as if start.defender_fires_as != start.defender else None
        outcome, a, d = settle(start.attacker, start.defender, after_round=False)
        if outcome is not None or not att.alive(a):
            continue
        for (a2, d2), p in engine.round(a, d, fires).items():
            outcome, a3, d3 = settle(a2, d2)
            if outcome is None:
                add((a3, d3), start.weight * p)
    kept: dict[Pair, Kept[N]] = {}
    # Where a round's result goes once the end-of-round rules acted, and its level.
    dest: dict[Pair, tuple[Pair | None, bool, int]] = {}
    while buckets:
        for pair, m in buckets.pop(max(buckets)).items():
            if floats and m < TINY:
                continue
            if max_states is not None and len(kept) >= max_states:
                raise too_many_states(max_states)
            a, d = pair
            mix = engine.factors(a, d)
            loop = zero
            for w, a2s, d2s in mix:
                qa, qd = a2s.get(a), d2s.get(d)
                if qa and qd:
                    loop += w * qa * qd
            if loop == 1:  # a stalemate: it never wins
                kept[pair] = (m, loop, [], zero)
                continue
            m_eff = m / (1 - loop)
            cut = TINY / m_eff if floats else None
            moves: list[tuple[N, Pair | None, bool]] = []
            rest = zero
            for w, a2s, d2s in mix:
                for a2, qa in a2s.items():
                    wa = w * qa
                    if cut is not None and wa < cut:
                        rest += wa
                        continue
                    for d2, qd in d2s.items():
                        if a2 == a and d2 == d:
                            continue
                        p = wa * qd
                        if cut is not None and p < cut:
                            rest += p
                            continue
                        got = dest.get((a2, d2))
                        if got is None:
                            outcome, a3, d3 = settle(a2, d2)
                            nxt = (a3, d3) if outcome is None else None
                            got = dest[(a2, d2)] = (nxt, outcome == ATTACKER, level(nxt) if nxt else -1)
                        nxt, won, lv = got
                        moves.append((p, nxt, won))
                        if nxt is not None:
                            b = buckets.get(lv)
                            if b is None:
                                b = buckets[lv] = {}
                            b[nxt] = b.get(nxt, zero) + m_eff * p
            kept[pair] = (m_eff, loop, moves, rest)
    return kept


def retreat_pairs(
    setup: BattleSetup[N], threshold: N, max_states: int | None = None, *, vectorised: bool = True,
    sides: list[NumberedSides] | None = None, work: Work | None = None, battle: list[Tally[float]] | None = None,
) -> tuple[AbstractSet[Pair], float]:
    """The pairs (after a round, both sides fighting) from which the attacker retreats,
    and the bound on what decisions left open could change (0 in exact fractions).
    In decimals, when round 1 is like any other (:meth:`GeneralEngine.plain_starts`),
    both passes run in numpy (:func:`numpy_pass`) unless ``vectorised`` is False;
    then the numpy solver's numbered sides are appended to ``sides`` (if given), for
    the solve with the retreat to reuse (:attr:`GeneralEngine.sides`), and, where
    ``battle`` is given (a battle fought to the end), the whole battle with the retreats
    is appended to it when it is the traced solve's correction
    (:func:`engine.odds.aa_naval.corrected`: little of it ever comes to a retreat pair;
    its error bound without the decisions left open).  ``work``: the answer's work
    limit (:class:`engine.odds.aa_battle.Work`)."""
    general: GeneralEngine[N] = GeneralEngine(setup)
    if vectorised and isinstance(setup.unit, float) and general.plain_starts():
        traced: Tally[float] = Tally.empty(1.0)
        starts = general.plain_pairs(traced)
        solver, arrays = _traced_pass(setup, starts, traced, max_states, work)
        if sides is not None:
            sides.append(solver.sides)
        from engine.odds.aa_naval import SHIFT, NumberedPairs

        back, unsure = _verdicts(arrays[2], arrays[3], arrays[4], float(threshold))
        pairs: AbstractSet[Pair] = NumberedPairs((arrays[0][back] << SHIFT) | arrays[1][back], solver.A, solver.D)
        if battle is not None:
            from dataclasses import replace

            from engine.odds.aa_naval import corrected

            whole = corrected(solver, replace(setup, retreat_at=pairs), traced, starts, arrays[0], arrays[1], arrays[4],
                              back, max_states)  # fmt: skip
            if whole is not None:
                battle.append(whole)
        return pairs, float(unsure.sum())
    kept = _forward(setup, max_states)
    att, dfn = setup.attacker, setup.defender
    zero, one = setup.unit - setup.unit, setup.unit
    lo: dict[Pair, N] = {}
    hi: dict[Pair, N] = {}
    chances: dict[Pair, tuple[N, N, float]] = {}
    for pair in sorted(kept, key=lambda s: att.hp(s[0]) + dfn.hp(s[1])):
        m_eff, loop, moves, rest = kept[pair]
        if loop == 1:
            lo[pair] = hi[pair] = zero
        else:
            low, high = zero, rest
            for p, live, win in moves:
                if live is None:
                    if win:
                        low += p
                        high += p
                elif live in lo:
                    low += p * lo[live]
                    high += p * hi[live]
                else:  # never kept: anything from 0 to 1
                    high += p
            lo[pair], hi[pair] = low / (1 - loop), min(high / (1 - loop), one)
        chances[pair] = (lo[pair], hi[pair], float(m_eff))
    return _decide(chances, threshold)


def _verdicts(low: Any, high: Any, visits: Any, threshold: Any) -> tuple[Any, Any]:
    """The rule, for one pair or for arrays of them: retreat where the chance to win
    (an interval) is wholly below ``threshold``; where it straddles it, its middle
    decides and the pair's ``visits`` count as unsure.  In decimals the threshold is
    :func:`engine.odds.aa_battle.retreat_band`'s (an exact tie fights on), and an
    interval reaching into its band counts as straddling it.  Returns (retreat, what is
    unsure)."""
    below = above = threshold  # exact fractions: ties are ties
    if isinstance(threshold, float):
        below, threshold, above = retreat_band(threshold)
    sure = high < below
    straddle = (high >= below) & (low < above)
    return sure | (straddle & ((low + high) / 2 < threshold)), straddle * visits


def _decide(chances: Mapping[Pair, tuple[N, N, float]], threshold: N) -> tuple[frozenset[Pair], float]:
    """The decisions (:func:`_verdicts`) from each pair's chance to win as an interval,
    with its visits: the pairs where the attacker retreats, and the visits of those
    left unsure (the bound on what they could change)."""
    retreat: set[Pair] = set()
    unsure = 0.0
    for pair, (low, high, visits) in chances.items():
        back, open_ = _verdicts(low, high, visits, threshold)
        unsure += open_
        if back:
            retreat.add(pair)
    return frozenset(retreat), unsure


def numpy_pass(
    setup: BattleSetup[float], max_states: int | None = None, work: Work | None = None
) -> tuple[NavalSolver, tuple[Arr, Arr, Arr, Arr, Arr]]:
    """The traced numpy solve of the battle (round 1 included) and its backward pass
    (:meth:`NavalSolver.win_chances`): the solver and ``(ii, jj, low, high, visits)``."""
    tally: Tally[float] = Tally.empty(1.0)  # the forward pass's outcomes are not wanted here, only its trace
    return _traced_pass(setup, GeneralEngine(setup).plain_pairs(tally), tally, max_states, work)


def _traced_pass(
    setup: BattleSetup[float], starts: dict[Pair, float], tally: Tally[float], max_states: int | None,
    work: Work | None,
) -> tuple[NavalSolver, tuple[Arr, Arr, Arr, Arr, Arr]]:
    """:func:`numpy_pass` from round 1's pairs ``starts``, the traced solve recorded into
    ``tally`` (the battle without the retreats)."""
    from engine.odds.aa_naval import NavalSolver  # numpy: float mode only

    solver = NavalSolver(setup, max_states, work=work)
    solver.trace = []
    solver.solve(starts, tally)
    return solver, solver.win_chances()
